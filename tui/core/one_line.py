"""Text for one line of a small space: a summary, a notice, a name."""

from __future__ import annotations

import re

LINE_BREAK = " ⏎ "
"""Where `one_line` shows a line break: `npm test` then `rm -rf x` on the next line must not
read as one command, `npm test rm -rf x`."""


_BLANKS = re.compile("[ \t]+")


def one_line(text: str, limit: int, *, keep_end: int = 0) -> str:
    """`text` on one line: each run of spaces and tabs made one space, line breaks shown as
    ⏎ (blank lines left out), cut to `limit` characters with … when longer; the cut leaves
    out the middle where `keep_end` says how many of the last characters to keep."""
    # Spaces and tabs only: another space (a no-break one in `rm -rf a<NBSP>b`) is kept, to
    # be shown for what it is.
    lines = (_BLANKS.sub(" ", line).strip(" ") for line in text.splitlines())
    line = LINE_BREAK.join(line for line in lines if line)
    if len(line) <= limit:
        return line
    end = line[len(line) - keep_end :] if keep_end else ""
    return line[: limit - 1 - len(end)] + "…" + end


def has_line_break(text: str) -> bool:
    """Whether `text` breaks its line anywhere (`\\n`, `\\r` or any break `str.splitlines`
    knows): a one-line field cannot hold it, as Textual's input keeps a paste's first line."""
    return "".join(text.splitlines()) != text
