"""A file replaced whole: written as a draft beside it, renamed over it once complete."""

from __future__ import annotations

import contextlib
import os
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

STEM_KEPT = 48
"""The most characters of the file's name a draft's name repeats (up to four bytes each): a
name near the longest a folder takes would not fit with the rest."""


@contextmanager
def replacing(path: Path) -> Iterator[Path]:
    """The draft to write `path`'s new content into. Once the block ends, the draft replaces
    `path` in one step; if the block raises (an error, Ctrl+C, SIGTERM), the draft is removed
    and `path` is left as it was. A reader finds the file before or the file after, never an
    empty or half-written one. The draft keeps `path`'s extension, which may pick its format.

    A symbolic link's target is what is replaced, the link kept, and the file keeps its
    permissions. What is not a file of its own folder is written to as it is: a device, a
    named pipe, `/dev/stdout` (even redirected to a file, whose other content stays), a file
    in a folder this process may not write to."""
    target = Path(os.path.realpath(path))
    if (
        (path.exists() and not path.is_file())
        or path.absolute().parts[1:2] in (("dev",), ("proc",))
        or not os.access(target.parent, os.W_OK)
    ):
        yield path
        return
    draft = target.with_name(f".{target.stem[:STEM_KEPT]}.{os.getpid()}.draft{path.suffix}")
    with renamed_into_place(draft, target):
        yield draft
        if target.exists():
            shutil.copymode(target, draft)


@contextmanager
def renamed_into_place(draft: Path, path: Path) -> Iterator[None]:
    """Once the block, which writes `draft`, ends, `draft` replaces `path` in one step; if
    the block raises, `draft` is removed and `path` is left as it was."""
    try:
        yield
        os.replace(draft, path)
    except BaseException:
        with contextlib.suppress(OSError):
            draft.unlink()
        raise
