"""Esc and the keys typed on at once read as Alt, however they arrive: Textual's parser read
them as a `^` and the keys themselves whenever more input came before its Esc delay was up
(an inline app's cursor reports, a mouse move) or the run was long, and the keys went into
the answer instead of being held (see `ElicitationApp.accepts_key`)."""

from __future__ import annotations

import time
from typing import Any

from ask_on_a_pty import AskOnAPty
from textual import events

from tui.app.alt_keys import AltKeysParser

CURSOR_REPORT = "\x1b[2;1R"
"""A terminal's answer to an inline app's question where its cursor is."""


def keys(data: list[str]) -> list[tuple[str, Any]]:
    parser = AltKeysParser()
    found = [event for chunk in data for event in parser.feed(chunk)]
    time.sleep(0.2)  # past the Esc delay: what waits on it comes out at the next tick
    found += list(parser.tick())
    return [
        (event.key, event.character) if isinstance(event, events.Key) else type(event).__name__
        for event in found
    ]


def test_esc_and_a_key_then_more_input_at_once_read_as_alt() -> None:
    assert keys([f" \x1btp{CURSOR_REPORT}"]) == [
        ("space", " "),
        ("alt+t", "t"),
        ("p", "p"),
        "CursorPosition",
    ]


def test_esc_and_a_long_run_of_keys_read_as_alt_and_the_keys() -> None:
    run = "git status && git log --oneline -5\r"
    assert keys(["\x1b" + run]) == [("alt+g", "g"), *keys([run[1:]])]


def test_esc_at_the_end_of_one_read_and_its_key_in_the_next() -> None:
    assert keys(["ss\x1b", f"tp{CURSOR_REPORT}"]) == [
        ("s", "s"),
        ("s", "s"),
        ("alt+t", "t"),
        ("p", "p"),
        "CursorPosition",
    ]


def test_sequences_and_esc_alone_read_as_before() -> None:
    assert keys(["\x1b[A", "\x1b", "[B", "\x1bOP", CURSOR_REPORT]) == [
        ("up", None),
        ("down", None),
        ("f1", None),
        "CursorPosition",
    ]
    assert keys(["x\x1b"]) == [("x", "x"), ("escape", "\x1b")]
    assert keys([f"\x1b{CURSOR_REPORT}"]) == [("escape", "\x1b"), "CursorPosition"]


def test_inline_esc_with_keys_and_a_cursor_report_types_nothing_into_the_filter() -> None:
    options = [
        a
        for p in [
            "http",
            "https",
            "ftp",
            "ssh",
            "smtp",
            "imap",
            "pop3",
            "dns",
            "ntp",
            "ldap",
            "snmp",
        ]
        for a in ("-o", p)
    ]
    with AskOnAPty("choice", "Which?", *options) as terminal:
        assert terminal.shows(lambda: "Filter: type to filter" in terminal.text)
        time.sleep(0.3)  # past the input grace period
        terminal.child.send("ssh")
        assert "Filter: ssh " in terminal.read(0.5)
        # tmux sends Esc with the keys typed after it; the app's cursor query is answered
        # meanwhile.
        terminal.child.send(f" \x1btp{CURSOR_REPORT}")
        shown = terminal.read(1.0)
    filter_line = next(line for line in shown.splitlines() if "Filter:" in line)
    assert "^" not in filter_line and "tp" not in filter_line, filter_line
    assert "read as Alt" in shown
