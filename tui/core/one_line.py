"""Text for one line of a small space: a summary, a notice, a name."""

from __future__ import annotations


def one_line(text: str, limit: int) -> str:
    """`text` with each run of whitespace (line breaks too) made one space, cut to `limit`
    characters with … when longer."""
    line = " ".join(text.split())
    return line if len(line) <= limit else line[: limit - 1] + "…"
