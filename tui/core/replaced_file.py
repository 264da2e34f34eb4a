"""A file replaced whole: written as a draft beside it, renamed over it once complete."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


@contextmanager
def replacing(path: Path) -> Iterator[Path]:
    """The draft to write `path`'s new content into. Once the block ends, the draft replaces
    `path` in one step; if the block raises (an error, Ctrl+C, SIGTERM), the draft is removed
    and `path` is left as it was. A reader finds the file before or the file after, never an
    empty or half-written one. The draft keeps `path`'s extension, which may pick its
    format."""
    draft = path.with_name(f".{path.stem}.{os.getpid()}.draft{path.suffix}")
    try:
        yield draft
        os.replace(draft, path)
    except BaseException:
        with contextlib.suppress(OSError):
            draft.unlink()
        raise
