"""What `ask --to`, `attach`, `web`, `token --wait` and a hook say when the inbox's door turns them
away, or what answers is no inbox: run as real processes beside a real `serve --headless`."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlsplit

import pytest
from front_end_processes import HeadlessInbox, WebServer, elicit
from hook_process import BASH
from hook_schemas import INPUTS

NOT_AN_INBOX = "is not an elicit-tui inbox"
BASH_CALL = (INPUTS / BASH).read_text()


def front_ends(url: str) -> list[list[str]]:
    """Each command that reaches the inbox at `url`, as it would be run."""
    return [
        ["ask", "--to", url, "--timeout", "5", "text", "hi"],
        ["attach", url],
        ["web", "--to", url, "--port", "0"],
    ]


def test_web_s_port_is_said_to_be_no_inbox_not_a_wrong_token(
    tmp_path: Path, inbox: HeadlessInbox
) -> None:
    pytest.importorskip("textual_serve", reason="elicit-tui web needs the `web` extra")
    web = WebServer(tmp_path / "web-config", inbox)
    try:
        wrong = web.url.rstrip("/")
        for command in [*front_ends(wrong)[1:], ["token", "--wait", "1", wrong]]:
            done = elicit(tmp_path / "config", *command, ELICIT_TUI_TOKEN=inbox.token)
            assert done.returncode == 2, (command, done.stderr)
            assert f"what answers at {wrong} {NOT_AN_INBOX}" in done.stderr, command
            assert "refused the token" not in done.stderr
    finally:
        web.stop()


def test_no_token_at_all_is_said_so_naming_where_it_was_looked_for(
    tmp_path: Path, inbox: HeadlessInbox
) -> None:
    empty = tmp_path / "empty"
    for command in front_ends(inbox.url):
        done = elicit(empty, *command)
        assert done.returncode == 2, (command, done.stderr)
        assert (
            f"no token for the inbox at {inbox.url}: none given with --token, none in "
            f"$ELICIT_TUI_TOKEN, none in {empty / 'serve-token'}"
        ) in done.stderr, command
        assert "wrong token" not in done.stderr


def test_a_host_name_other_than_127_0_0_1_or_localhost_is_told_the_url_to_use(
    tmp_path: Path, inbox: HeadlessInbox
) -> None:
    # 127.1 reaches 127.0.0.1 as the machine's own name would, and is not a name the inbox
    # answers to either.
    port = urlsplit(inbox.url).port
    named = f"http://127.1:{port}"
    said = f"the inbox answers only to 127.0.0.1 or localhost, not to 127.1: use {inbox.url}"
    for command in [*front_ends(named), ["token", "--wait", "1", named]]:
        done = elicit(tmp_path / "config", *command, ELICIT_TUI_TOKEN=inbox.token)
        assert done.returncode == 2, (command, done.stderr)
        assert said in done.stderr, command
    # A hook decides nothing, exit 0, and says the same: it said "refused the token".
    hook = ["hook", "claude-code", "--to", named]
    done = elicit(tmp_path / "config", *hook, ELICIT_TUI_TOKEN=inbox.token, stdin=BASH_CALL)
    assert (done.returncode, done.stdout) == (0, "")
    assert f"no decision: {said}" in done.stderr


@pytest.mark.parametrize("command", ["serve", "ask"])
def test_help_says_the_inbox_answers_only_to_127_0_0_1_or_localhost(
    tmp_path: Path, command: str
) -> None:
    done = elicit(tmp_path, command, "--help", COLUMNS="1000")
    assert "127.0.0.1 or localhost" in " ".join(done.stdout.split())
