"""Files only their owner may read: the inbox's token, `web`'s login link."""

from __future__ import annotations

import os
from pathlib import Path

from tui.core.replaced_file import renamed_into_place


def write_owner_only(path: Path, text: str) -> None:
    """Write `text` and a line break to `path` (its folder made if missing), readable by its
    owner only, from the moment it exists. The file is replaced whole: a reader finds the
    text before or the text after, never an empty or half-written file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    draft = path.with_name(f".{path.name}.{os.getpid()}.draft")
    # Created owner-only, never widened afterwards: no moment where others could read it.
    descriptor = os.open(draft, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with renamed_into_place(draft, path), os.fdopen(descriptor, "w", encoding="utf-8") as file:
        os.fchmod(file.fileno(), 0o600)
        file.write(text + "\n")
