"""The full-screen commands on a terminal that cannot draw (`TERM=dumb`): they refuse, naming
what works there, instead of sending it a screen of escape sequences."""

from __future__ import annotations

import sys
from pathlib import Path

import pexpect
import pytest
from front_end_processes import REPO, HeadlessInbox, environment

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX pseudo-terminal")


def run_on_dumb_terminal(config: Path, *args: str, **env: str) -> tuple[int, str]:
    """`elicit-tui ARGS` with a pty as its terminal and `TERM=dumb`: its exit status and all
    it wrote."""
    child = pexpect.spawn(
        sys.executable,
        ["-m", "tui.cli", *args],
        env={**environment(config, **env), "TERM": "dumb"},
        cwd=str(REPO),
        dimensions=(24, 80),
        timeout=20,
    )
    try:
        child.expect(pexpect.EOF)
        shown = child.before.decode()
    finally:
        child.close(force=True)
    assert child.exitstatus is not None, f"ended by signal {child.signalstatus}: {shown!r}"
    return child.exitstatus, shown


def test_attach_refuses_a_dumb_terminal_and_names_the_browser(
    inbox: HeadlessInbox, tmp_path: Path
) -> None:
    # It drew its full screen there, cursor moves and all, as on an xterm.
    code, shown = run_on_dumb_terminal(
        tmp_path / "attach", "attach", inbox.url, ELICIT_TUI_TOKEN=inbox.token
    )
    assert "\x1b[" not in shown
    assert code == 2
    assert shown.strip() == (
        "elicit-tui attach: this terminal cannot draw the full-screen TUI (TERM=dumb), and "
        "attach has no plain mode: answer in a browser with `elicit-tui web`, or attach from "
        "a terminal that can draw"
    )


def test_serve_refuses_a_dumb_terminal_and_names_headless(tmp_path: Path) -> None:
    code, shown = run_on_dumb_terminal(tmp_path / "config", "serve", "--port", "0")
    assert "\x1b[" not in shown
    assert code == 2
    assert shown.strip() == (
        "elicit-tui serve: this terminal cannot draw the full-screen TUI (TERM=dumb): "
        "`elicit-tui serve --headless` runs the inbox without one, and `elicit-tui web` "
        "answers it in a browser"
    )
    assert not (tmp_path / "config" / "serve-token").exists()
