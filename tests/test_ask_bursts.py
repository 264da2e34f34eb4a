"""`elicit-tui ask` on a real pseudo-terminal, answered by keys written all in ONE write.

This is how pasted text, tmux's send-keys, expect scripts and recording tools deliver keys:
the app reads them together, and must still apply them in order. The answer is read from the
file stdout is redirected to; the exit status from the process.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import sys
import time
from pathlib import Path
from typing import Any

import pexpect
import pyte
import pytest

REPO = Path(__file__).resolve().parent.parent

GRACE = 0.5
"""Keys typed in the first 0.2 s of a modal are ignored; wait longer than that."""

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX pseudo-terminal")

THREE_FIELDS = json.dumps(
    {
        "type": "object",
        "properties": {n: {"type": "string", "default": n.upper() * 3} for n in ("a", "b", "c")},
    }
)
WHO = json.dumps(
    {
        "type": "object",
        "properties": {"name": {"type": "string"}, "city": {"type": "string"}},
        "required": ["name", "city"],
    }
)
GREEK = [
    "alpha", "beta", "gamma", "delta", "epsilon", "zeta",
    "eta", "theta", "iota", "kappa", "lambda", "mu",
]  # fmt: skip


def ask(
    tmp_path: Path,
    *args: str,
    shown: str,
    burst: str,
    printed: list[str] | None = None,
    errors: Path | None = None,
    **extra_env: str,
) -> tuple[int, dict[str, Any]]:
    """Run `elicit-tui ask ARGS` on an 80x24 pty, wait for `shown`, write `burst` at once;
    what it draws after that is added to `printed`, its styles taken out. With `errors`,
    its stderr goes to that file rather than the terminal."""
    answer = tmp_path / "answer.json"
    env = {k: v for k, v in os.environ.items() if k not in {"COLUMNS", "LINES"}}
    env.update(
        TERM="xterm-256color",
        ELICIT_TUI_CONFIG_DIR=str(tmp_path / "config"),
        PYTHON_KEYRING_BACKEND="keyring.backends.fail.Keyring",
        ANSWER=str(answer),
        ERRORS=str(errors),
        **extra_env,
    )
    command = [sys.executable, "-m", "tui.cli", "ask", *args]
    child = pexpect.spawn(
        "/bin/sh",
        ["-c", 'exec "$@" > "$ANSWER"' + (' 2> "$ERRORS"' if errors else ""), "sh", *command],
        cwd=str(REPO),
        env=env,
        dimensions=(24, 80),
        timeout=30,
    )
    try:
        child.expect_exact(shown)
        time.sleep(GRACE)
        child.send(burst)  # one write(2) call
        child.expect(pexpect.EOF)
        if printed is not None:
            drawn = child.before.decode(errors="replace")
            printed.append(re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", drawn))
    finally:
        child.close(force=True)
    return child.exitstatus, json.loads(answer.read_text())


def screen_after(tmp_path: Path, *args: str, shown: str, burst: str) -> list[str]:
    """Run `elicit-tui ask ARGS` on an 80x24 pty, wait for `shown`, write `burst` at once;
    the screen a second later, as a terminal emulator shows it."""
    env = {k: v for k, v in os.environ.items() if k not in {"COLUMNS", "LINES"}}
    env.update(TERM="xterm-256color", ELICIT_TUI_CONFIG_DIR=str(tmp_path / "config"))
    command = [sys.executable, "-m", "tui.cli", "ask", *args]
    child = pexpect.spawn(command[0], command[1:], cwd=str(REPO), env=env, dimensions=(24, 80))
    screen = pyte.Screen(80, 24)
    stream = pyte.ByteStream(screen)
    try:
        child.expect_exact(shown, timeout=30)
        stream.feed(child.before + child.after)
        time.sleep(GRACE)
        child.send(burst)  # one write(2) call
        end = time.monotonic() + 1.5
        while time.monotonic() < end:
            with contextlib.suppress(pexpect.TIMEOUT):
                stream.feed(child.read_nonblocking(65536, timeout=0.1))
    finally:
        child.close(force=True)
    return list(screen.display)


def test_the_form_field_a_burst_of_tabs_ends_on_is_on_screen(tmp_path: Path) -> None:
    """Typed fast, each Tab's field scrolled into view while the next key came: the view
    slid on towards a field left behind, and the field focused last was off screen."""
    regions = [f"region-{n}" for n in range(12)]
    schema = {
        "type": "object",
        "properties": {
            "env": {"type": "string", "title": "Env", "enum": ["dev", "staging", "prod", "qa"]},
            "size": {"type": "string", "title": "Size", "enum": ["s", "m", "l"], "default": "m"},
            "tier": {"type": "string", "title": "Tier", "enum": ["free", "pro", "team"]},
            "region": {"type": "string", "title": "Region", "enum": regions},
        },
        "required": ["env", "region"],
    }
    args = ("form", "Deploy settings", "--schema", json.dumps(schema))

    display = screen_after(tmp_path, *args, shown="Deploy settings", burst="3\t \t2\t")

    assert any("Region *" in row for row in display), "\n".join(display)
    assert any("⏎ Submit" in row for row in display)  # the focus is on the last field


@pytest.mark.parametrize("burst", ["payments-api\r", "\x15payments-api\r"], ids=["type", "ctrl-u"])
def test_text_typed_then_enter_is_the_answer(tmp_path: Path, burst: str) -> None:
    args = ("text", "Service name?", "--default", "billing-api")

    code, result = ask(tmp_path, *args, shown="Service name?", burst=burst)

    assert (code, result) == (0, {"action": "accept", "content": "payments-api", "reason": None})


def test_each_form_field_gets_the_keys_after_its_tab(tmp_path: Path) -> None:
    args = ("form", "Burst", "--schema", THREE_FIELDS)

    code, result = ask(tmp_path, *args, shown="Burst", burst="\x15\t\x15\t\x15\x13")  # ^U ^S

    assert (code, result["content"]) == (0, {})


def test_enter_on_a_form_s_last_field_submits_it(tmp_path: Path) -> None:
    args = ("form", "Who?", "--schema", WHO)

    code, result = ask(tmp_path, *args, shown="Who?", burst="Ada\tParis\r")

    assert (code, result["content"]) == (0, {"name": "Ada", "city": "Paris"})


def test_filter_then_enter_accepts_what_the_filter_shows_first(tmp_path: Path) -> None:
    args = ("choice", "Pick one", *(arg for option in GREEK for arg in ("-o", option)))

    code, result = ask(tmp_path, *args, shown="Pick one", burst="kap\r")

    assert (code, result["content"]) == (0, "kappa")


@pytest.mark.parametrize(("key", "code", "content"), [("y", 0, True), ("n", 1, False)])
def test_confirm_exits_0_on_yes_and_1_on_no(
    tmp_path: Path, key: str, code: int, content: bool
) -> None:
    result = ask(tmp_path, "confirm", "Drop the table?", shown="Drop the table?", burst=key)

    assert result == (code, {"action": "accept", "content": content, "reason": None})


def test_ctrl_c_cancels_as_interrupted_and_exits_130(tmp_path: Path) -> None:
    result = ask(tmp_path, "text", "Service name?", shown="Service name?", burst="\x03")

    assert result == (130, {"action": "cancel", "content": None, "reason": "interrupted"})


def test_ctrl_q_cancels_as_closed_and_exits_2(tmp_path: Path) -> None:
    result = ask(tmp_path, "text", "Service name?", shown="Service name?", burst="\x11")

    assert result == (2, {"action": "cancel", "content": None, "reason": "closed"})


STOCK_WIDGETS = [
    # Space presses a radio button; its set hears of it in a message, after the key. Enter in
    # the same burst came first and found no colour pressed.
    (
        {"kind": "palette_test", "message": "Accent?", "palette": ["teal", "plum", "sand"]},
        "\x1b[B\x1b[B \r",
        "sand",
    ),
    # Down opens a Select's menu and focuses it through the app's queue: the next Down went to
    # the closed Select, and both Enters were the dialog's, refused with no size picked.
    (
        {"kind": "size_test", "message": "Accent?", "sizes": ["small", "medium", "large"]},
        "\x1b[B\x1b[B\x1b[B\r\r",
        "medium",
    ),
    # Enter in a text area starts a line; Ctrl+S accepts. Enter accepted "first" alone.
    ({"kind": "lines_test", "message": "Accent?"}, "first\rsecond\x13", "first\nsecond"),
    # Enter on a button presses it, and the button's handler fills the field; the Enter
    # behind it came first and pressed the button again.
    (
        {"kind": "name_test", "message": "Accent?", "suggestion": "orders-api"},
        "\t\r\r",
        "orders-api",
    ),
]


@pytest.mark.parametrize(
    ("request_data", "burst", "picked"),
    STOCK_WIDGETS,
    ids=["radio_set", "select", "text_area", "button"],
)
def test_stock_widgets_of_one_s_own_modal_take_a_burst_in_order(
    tmp_path: Path, request_data: dict[str, Any], burst: str, picked: str
) -> None:
    code, result = ask(
        tmp_path,
        "--json",
        json.dumps(request_data),
        shown="Accent?",
        burst=burst,
        ELICIT_TUI_KINDS="stock_widget_kinds",
        PYTHONPATH=str(REPO / "tests"),
    )
    assert (code, result) == (0, {"action": "accept", "content": picked, "reason": None})
