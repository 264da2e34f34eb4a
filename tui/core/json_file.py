"""Small JSON files of elicit-tui's own (stored-entry index, approval rules): read whole, replaced atomically.

A change is read-modify-write: `locked(path)` holds an OS lock across it, so two processes
(a session saving a rule, `elicit-tui approvals revoke`) never write over each other's change.
"""

from __future__ import annotations

import os
import sys
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TypeVar

from pydantic import BaseModel, ValidationError

from tui.core.replaced_file import renamed_into_place

ModelT = TypeVar("ModelT", bound=BaseModel)


class JsonFileError(OSError):
    """The file cannot be read as the expected model, or cannot be written; says why."""


def read_model(path: Path, model: type[ModelT]) -> ModelT | None:
    """The file's content as `model`, or None when there is no file; `JsonFileError` if unreadable."""
    try:
        return model.model_validate_json(path.read_bytes())
    except FileNotFoundError:
        return None
    except ValidationError as exc:
        problem = exc.errors(include_url=False)[0]
        where = ".".join(str(part) for part in problem["loc"])
        reason = f"{where}: {problem['msg']}" if where else problem["msg"]
    except OSError as exc:
        reason = f"{type(exc).__name__}: {exc}"
    raise JsonFileError(reason)


def write_model(path: Path, content: BaseModel) -> None:
    """Replace the file with `content` as JSON; `JsonFileError` if it cannot be written."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        # Written beside the file and renamed over it, so a reader never sees half a file.
        # (A draft of its own per writer: threads of one process may write it at once.)
        handle, draft = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
        with (
            renamed_into_place(Path(draft), path),
            os.fdopen(handle, "w", encoding="utf-8") as file,
        ):
            file.write(content.model_dump_json(indent=2, exclude_none=True))
    except OSError as exc:
        raise JsonFileError(f"{type(exc).__name__}: {exc}") from None


@contextmanager
def locked(path: Path, failure: Callable[[str], Exception]) -> Iterator[None]:
    """Hold the OS lock of `path` (other processes and threads wait), for a read-modify-write.

    The lock is taken on `<path>.lock` beside it, because the file itself is replaced, not
    rewritten. If the lock file cannot be opened, `failure(reason)` is raised: the caller's
    own error, saying which file.
    """
    lock_path = path.with_name(f"{path.name}.lock")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        descriptor = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o600)
    except OSError as exc:
        raise failure(f"{type(exc).__name__}: {exc}") from None
    try:
        _lock(descriptor)
        yield
    finally:
        # Closing releases the lock, also when the lock itself was interrupted.
        os.close(descriptor)


if sys.platform == "win32":
    import msvcrt

    def _lock(descriptor: int) -> None:
        while True:
            try:
                msvcrt.locking(descriptor, msvcrt.LK_LOCK, 1)
                return
            except OSError:  # LK_LOCK gives up after ten seconds; a writer holds it longer
                continue

else:
    import fcntl

    def _lock(descriptor: int) -> None:
        # flock belongs to the open file, so threads of one process exclude each other too.
        fcntl.flock(descriptor, fcntl.LOCK_EX)
