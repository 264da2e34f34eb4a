"""`elicit-tui token`: the token clients send, and with --wait the one a running inbox takes,
run as real processes beside a real `serve --headless`."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from front_end_processes import REPO, HeadlessInbox, environment


def token_command(config: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "tui.cli", "token", *args],
        capture_output=True,
        text=True,
        cwd=REPO,
        env=environment(config, **env),
        stdin=subprocess.DEVNULL,
        timeout=30,
    )


def free_port() -> int:
    with socket.create_server(("127.0.0.1", 0)) as server:
        port: int = server.getsockname()[1]
        return port


def test_prints_the_token_serve_wrote(tmp_path: Path) -> None:
    config = tmp_path / "config"
    inbox = HeadlessInbox(config, token=None)
    try:
        done = token_command(config)
    finally:
        inbox.stop()
    assert (done.returncode, done.stdout, done.stderr) == (0, f"{inbox.token}\n", "")


def test_the_environment_token_comes_first(tmp_path: Path) -> None:
    config = tmp_path / "config"
    config.mkdir()
    (config / "serve-token").write_text("from-the-file\n")
    done = token_command(config, ELICIT_TUI_TOKEN="from-the-environment")
    assert (done.returncode, done.stdout) == (0, "from-the-environment\n")


def test_no_token_file_names_where_it_looked(tmp_path: Path) -> None:
    config = tmp_path / "config"
    done = token_command(config)
    assert done.returncode == 1
    assert done.stdout == ""
    assert done.stderr == (
        f"elicit-tui token: no token in {config / 'serve-token'}: `elicit-tui serve` writes one"
        " as it starts\n"
    )


def test_wait_skips_the_stale_token_of_an_earlier_run(tmp_path: Path) -> None:
    """Started before the inbox, with an earlier run's token in the file: it prints the new
    token once the inbox takes it, never the stale one."""
    config = tmp_path / "config"
    config.mkdir()
    (config / "serve-token").write_text("stale-token-of-an-earlier-run\n")
    port = free_port()
    url = f"http://127.0.0.1:{port}/mcp"
    waiting = subprocess.Popen(
        [sys.executable, "-m", "tui.cli", "token", "--wait", "30", url],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=REPO,
        env=environment(config),
    )
    time.sleep(0.5)  # it looks at the stale token with nobody listening, then keeps looking
    assert waiting.poll() is None
    inbox = HeadlessInbox(config, token=None, port=port)
    try:
        out, err = waiting.communicate(timeout=30)
    finally:
        inbox.stop()
    assert inbox.token != "stale-token-of-an-earlier-run"
    assert (waiting.returncode, out, err) == (0, f"{inbox.token}\n", "")


def test_wait_gives_up_on_an_inbox_that_refuses_the_token(tmp_path: Path) -> None:
    config = tmp_path / "config"
    inbox = HeadlessInbox(config, token="the-inbox-token")
    try:
        started = time.monotonic()
        done = token_command(config, "--wait", "1", "--to", inbox.url, ELICIT_TUI_TOKEN="wrong")
        took = time.monotonic() - started
    finally:
        inbox.stop()
    assert (done.returncode, done.stdout) == (2, "")
    # It said "the token given (--token or $ELICIT_TUI_TOKEN)", an option `token` has not,
    # and to run `elicit-tui token`, the command that said it.
    assert done.stderr == (
        f"elicit-tui token: the inbox at {inbox.url} refused the token in $ELICIT_TUI_TOKEN"
        " (for 1 s): not this inbox's; unset it to read the one `elicit-tui serve` saved in"
        f" {config / 'serve-token'}\n"
    )
    assert took < 15


def test_wait_gives_up_on_an_inbox_that_refuses_the_saved_token(tmp_path: Path) -> None:
    config = tmp_path / "config"
    inbox = HeadlessInbox(config, token="the-inbox-token")
    (config / "serve-token").write_text("an-earlier-inbox-s-token\n")
    try:
        done = token_command(config, "--wait", "1", "--to", inbox.url)
    finally:
        inbox.stop()
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == (
        f"elicit-tui token: the inbox at {inbox.url} refused the token in"
        f" {config / 'serve-token'} (for 1 s): it was started with another"
        " ($ELICIT_TUI_TOKEN, or another config folder's); set $ELICIT_TUI_TOKEN to that one\n"
    )


def test_wait_says_when_the_url_reaches_no_inbox_though_something_answers(
    tmp_path: Path,
) -> None:
    config = tmp_path / "config"
    inbox = HeadlessInbox(config, token=None)
    https = inbox.url.replace("http:", "https:")
    try:
        elsewhere = token_command(config, "--wait", "0.3", f"{inbox.url}/elsewhere")
        encrypted = token_command(config, "--wait", "0.3", https)
    finally:
        inbox.stop()
    assert (elsewhere.returncode, encrypted.returncode) == (2, 2)
    assert elsewhere.stderr == (
        f"elicit-tui token: what answers at {inbox.url}/elsewhere is no inbox (HTTP 404 to"
        " /v1/requests)\n"
    )
    assert encrypted.stderr == (
        f"elicit-tui token: what listens at {https} does not answer as an inbox does (is it"
        " http or https?)\n"
    )


def test_a_token_no_header_can_carry_is_refused(tmp_path: Path) -> None:
    done = token_command(tmp_path / "config", ELICIT_TUI_TOKEN="two words")
    assert (done.returncode, done.stdout) == (3, "")
    assert done.stderr == (
        "elicit-tui token: the inbox token has a space or a control character: no HTTP header"
        " can carry it (in $ELICIT_TUI_TOKEN)\n"
    )


def test_wait_with_no_inbox_says_so(tmp_path: Path) -> None:
    config = tmp_path / "config"
    config.mkdir()
    (config / "serve-token").write_text("some-token\n")
    url = f"http://127.0.0.1:{free_port()}"
    done = token_command(config, "--wait", "0.3", url)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == (
        f"elicit-tui token: no inbox at {url} after 0.3 s: is `elicit-tui serve` running?\n"
    )


@pytest.mark.parametrize("wait", [["--wait", "30"], []], ids=["waiting", "not waiting"])
def test_a_url_that_is_not_http_is_refused_before_waiting(tmp_path: Path, wait: list[str]) -> None:
    done = token_command(tmp_path / "config", *wait, "--to", "ftp://example")
    assert (done.returncode, done.stdout) == (3, "")
    assert done.stderr == "elicit-tui token: not an http(s) URL: 'ftp://example'\n"
