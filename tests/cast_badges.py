"""What a cast shows in its key badge, played in a terminal emulator."""

from __future__ import annotations

import json
from pathlib import Path

import pyte

from widgets.key_badge import WIDTH


def badges_drawn(cast: Path) -> set[str]:
    """Every label the key badge (the row above the footer, one cell in from the right)
    shows at some point of `cast`."""
    header, *events = (json.loads(line) for line in cast.read_text(encoding="utf-8").splitlines())
    width, height = header["width"], header["height"]
    terminal = pyte.Screen(width, height)
    stream = pyte.Stream(terminal)
    labels = set()
    for _at, kind, text in events:
        if kind == "o":
            stream.feed(text)
            labels.add(terminal.display[height - 2][width - WIDTH - 1 : width - 1].strip())
    return labels - {""}
