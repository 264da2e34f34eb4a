"""A key that does something drastic only when pressed twice in a short while: one press, a
slip, only says what a second would do."""

from __future__ import annotations

import time


class SecondPress:
    """Tells a key's second press within `within` seconds of its first from a first press."""

    def __init__(self, within: float) -> None:
        self.within = within
        self._first: float | None = None
        """When the key was last pressed as a first press, if it was."""

    def pressed(self) -> bool:
        """Note a press now: True if it is the second within `within` seconds of the first
        (the next press is then a first one again), False if it is a first press."""
        now = time.monotonic()
        first, self._first = self._first, now
        if first is None or now - first > self.within:
            return False
        self._first = None
        return True
