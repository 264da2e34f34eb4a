"""The suite runs as on a machine of its own: tests that mean "no inbox runs" say where none
does, and a developer's shell naming an inbox (`$ELICIT_TUI_URL`, with its token) reaches no
test. Before, `approvals list` tests asked the inbox at the default address, or the one the
shell named, and exited 2 or revoked that person's rules."""

from __future__ import annotations

import socket
import subprocess
import sys
from pathlib import Path

import pytest

from tui.inbox.env_names import TOKEN_ENV, URL_ENV

REPO = Path(__file__).resolve().parent.parent

DEFAULT_HERE = """\
import tui.inbox.discovery

tui.inbox.discovery.DEFAULT_URL = {url!r}
"""
"""A pytest plugin moving the default address, where a person's inbox listens, to `url`: in
the tests' own process (never in one a test starts, which the URL the shell names reaches)."""

SAMPLE = [
    "tests/test_approvals.py::test_the_cli_lists_and_revokes_always_rules",
    "tests/test_approvals.py::test_revoke_takes_a_folder_as_the_shell_names_it",
    "tests/test_approvals.py::test_the_cli_says_when_the_file_is_unreadable",
    "tests/test_central_rules_and_secrets.py::"
    "test_rules_made_for_one_asker_answer_every_asker_for_as_long_as_their_scope",
    "tests/test_ask_plain.py::test_choice_numbered_and_a_wrong_number_asked_again",
]
"""Tests that asked the inbox where clients look unless told, one of them from a process of
its own, and an `ask` on its terminal, which `$ELICIT_TUI_URL` would turn into an `ask --to`."""


def test_an_inbox_at_the_default_address_or_named_by_the_shell_hears_nothing_from_the_tests(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with socket.create_server(("127.0.0.1", 0)) as inbox:
        inbox.setblocking(False)
        url = f"http://127.0.0.1:{inbox.getsockname()[1]}"
        (tmp_path / "default_here.py").write_text(DEFAULT_HERE.format(url=url))
        monkeypatch.setenv("PYTHONPATH", str(tmp_path))
        monkeypatch.setenv(URL_ENV, url)
        monkeypatch.setenv(TOKEN_ENV, "the-shell's-token")
        pytest_run = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-n", "0"]
        run = subprocess.run(
            [*pytest_run, "-p", "default_here", "--basetemp", str(tmp_path / "run"), *SAMPLE],
            capture_output=True,
            text=True,
            cwd=REPO,
            stdin=subprocess.DEVNULL,
            timeout=300,
        )
        assert run.returncode == 0, run.stdout + run.stderr
        assert f"{len(SAMPLE)} passed" in run.stdout
        with pytest.raises(BlockingIOError):  # nobody connected
            inbox.accept()
