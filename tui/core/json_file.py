"""Small JSON files of elicit-tui's own (stored-entry index, approval rules): read whole, replaced atomically."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import TypeVar

from pydantic import BaseModel, ValidationError

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
        reason = exc.errors(include_url=False)[0]["msg"]
    except OSError as exc:
        reason = f"{type(exc).__name__}: {exc}"
    raise JsonFileError(reason)


def write_model(path: Path, content: BaseModel) -> None:
    """Replace the file with `content` as JSON; `JsonFileError` if it cannot be written."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        # Written beside the file and renamed over it, so a reader never sees half a file.
        handle, temporary = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
        try:
            with os.fdopen(handle, "w", encoding="utf-8") as file:
                file.write(content.model_dump_json(indent=2, exclude_none=True))
            os.replace(temporary, path)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise
    except OSError as exc:
        raise JsonFileError(f"{type(exc).__name__}: {exc}") from None
