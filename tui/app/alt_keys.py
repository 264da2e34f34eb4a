"""Esc and a key typed right after it read as Alt and that key, however the bytes arrive.

A terminal sends Alt+t as Esc then `t`; tmux sends Esc and whatever is typed after it so too.
Textual's parser waits its Esc delay for more of a sequence, and reads the run as Alt once
the delay is up. But when more input comes before then (an inline app's cursor reports, a
mouse move, another Esc), or the run grows long, it gives the run back as plain keys, the Esc
among them as a `^`: Esc then `cd ~/src` Enter typed `^cd ~/src` into the answer and sent
it, where read as Alt the keys are held (`ElicitationApp.accepts_key`).
"""

from __future__ import annotations

from collections.abc import Iterable

import textual._xterm_parser
from textual.message import Message

ESC = "\x1b"

INTRODUCERS = frozenset("[O]P_^X\\")
"""What follows Esc at the start of a longer sequence (CSI, SS3, OSC, DCS, APC, PM, SOS, ST)."""


class AltKeysParser(textual._xterm_parser.XTermParser):
    """Textual's parser, told that the Esc delay is up wherever what follows an Esc and a
    key can only be more keys: a run of keys after it, another Esc."""

    _lone_escape = False
    """Whether the last data fed ended with an Esc alone: its key comes with the next."""

    def feed(self, data: str) -> Iterable[Message]:
        if not data:  # the end of input
            yield from super().feed(data)
            return
        for index, part in enumerate(_from_each_escape(data)):
            if part.startswith(ESC):
                if self._waiting():
                    yield from self._delay_up()  # a new sequence ends the one before
                if len(part) > 2 and part[1] not in INTRODUCERS:
                    yield from super().feed(part[:2])
                    yield from self._delay_up()
                    part = part[2:]
            elif (
                index == 0 and self._lone_escape and self._waiting() and part[0] not in INTRODUCERS
            ):
                yield from super().feed(part[0])
                yield from self._delay_up()
                part = part[1:]
            if part:
                yield from super().feed(part)
        self._lone_escape = data.endswith(ESC) and self._waiting()

    def _waiting(self) -> bool:
        """Whether the parser waits on the rest of an Esc sequence (its delay running)."""
        return self._timeout_time is not None

    def _delay_up(self) -> Iterable[Message]:
        """What the sequence waited on gives once its Esc delay is up: a key with Alt (none
        if it is not waiting: a sequence known at once, ended already)."""
        if self._waiting():
            self._timeout_time = float("-inf")
            yield from self.tick()


def _from_each_escape(data: str) -> list[str]:
    """`data` cut before each Esc: "ab", "\\x1bcd", "\\x1be" from "ab\\x1bcd\\x1be"."""
    first, *rest = data.split(ESC)
    return ([first] if first else []) + [ESC + part for part in rest]


def install() -> None:
    """Make the terminal drivers read keys with `AltKeysParser` (they name Textual's parser
    when they read input; the inline driver is imported only as an app runs inline)."""
    import sys

    textual._xterm_parser.XTermParser = AltKeysParser  # type: ignore[misc]
    for name in ("textual.drivers.linux_driver", "textual.drivers.linux_inline_driver"):
        if (driver := sys.modules.get(name)) is not None:
            driver.XTermParser = AltKeysParser  # type: ignore[attr-defined]
