"""The sidecar edit file: changes a render makes to a recorded session, the transcript untouched.

JSON, next to the transcript as `FILE.edit.json` (or named with `--edits`):

    {
      "max_idle": 1.5,
      "replace": {"invoice-api": "orders-api"},
      "chapters": {"1": {"answer": "orders-api"}, "3": {"speed": 2}, "5": {"cut": true}}
    }

Chapters are numbered from 1, one per question in the order they were shown.
"""

from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from tui.core.models import TextRequest, parse_request
from tui.transcript.reader import Transcript
from tui.transcript.records import KeyPress, KeysRecord, Record, RequestRecord

REDACTED = "•••"
"""What text matching `--redact` becomes on screen."""

TYPING_SECONDS = 0.12
"""The pace a changed answer is typed at, when the recorded keys leave room for it."""


class ChapterEdit(BaseModel):
    """What to change in one chapter (one question)."""

    model_config = ConfigDict(extra="forbid")

    speed: float = Field(default=1.0, gt=0)
    """Play this chapter this many times as fast (on top of `--speed`)."""
    cut: bool = False
    """Leave the chapter out of every output (it is still answered, off screen)."""
    answer: str | None = None
    """Type this answer instead of the recorded one (text questions only)."""


class Edits(BaseModel):
    """The whole sidecar file."""

    model_config = ConfigDict(extra="forbid")

    max_idle: float | None = Field(default=None, ge=0)
    """Shorten every longer pause to this many seconds (trims idle time)."""
    replace: dict[str, str] = Field(default_factory=dict)
    """Text the agent showed, replaced wherever it appears in a request (fake data)."""
    chapters: dict[int, ChapterEdit] = Field(default_factory=dict)
    """Edits by chapter number, from 1."""

    @property
    def changes_results(self) -> bool:
        """True when replayed results may differ from the recorded ones because of the edits."""
        return bool(self.replace) or any(c.answer is not None for c in self.chapters.values())


class EditsError(ValueError):
    """The edit file cannot be used; the message names the file and what is wrong."""


def sidecar_path(transcript: Path) -> Path:
    """Where the edit file of `transcript` sits by default: `FILE.edit.json`."""
    return transcript.with_name(transcript.name + ".edit.json")


def load_edits(path: Path) -> Edits:
    """Read and validate an edit file; raises `EditsError` with pydantic's text."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise EditsError(f"cannot read {path}: {error.strerror}") from None
    except ValueError as error:
        raise EditsError(f"{path} is not JSON: {error}") from None
    try:
        return Edits.model_validate(data)
    except ValidationError as error:
        raise EditsError(f"{path}: {error}") from None


def edited_transcript(
    transcript: Transcript, edits: Edits, redact: re.Pattern[str] | None = None
) -> Transcript:
    """A copy of `transcript` with the edits' answers and text replacements applied, and text
    matching `redact` hidden. Raises `EditsError` for an answer no key sequence can type."""
    order = transcript.shown_order()
    for number, chapter in edits.chapters.items():
        if not 1 <= number <= len(order):
            raise EditsError(f"chapter {number}: the session has chapters 1 to {len(order)}")
        request = transcript.requests[order[number - 1]]
        if chapter.answer is not None and not isinstance(request, TextRequest):
            raise EditsError(
                f"chapter {number}: only a text question's answer can be changed, "
                f"not a {request.kind} question's"
            )
    answers = {
        order[number - 1]: chapter.answer
        for number, chapter in edits.chapters.items()
        if chapter.answer is not None
    }
    records: list[Record] = []
    requests = dict(transcript.requests)
    for record in transcript.records:
        if isinstance(record, RequestRecord) and (edits.replace or redact is not None):
            data = _replaced(record.request, edits.replace, redact)
            requests[str(data["id"])] = parse_request(data)
            record = record.model_copy(update={"request": data})
        elif isinstance(record, KeysRecord) and record.id in answers:
            record = record.model_copy(update={"keys": _typing(record.keys, answers[record.id])})
        records.append(record)
    return replace(transcript, records=records, requests=requests)


def _replaced(data: Any, pairs: dict[str, str], redact: re.Pattern[str] | None) -> Any:
    """JSON data with every string's text replaced; ids and kinds kept."""
    if isinstance(data, str):
        for old, new in pairs.items():
            data = data.replace(old, new)
        return redact.sub(REDACTED, data) if redact is not None else data
    if isinstance(data, dict):
        return {
            key: value if key in ("id", "kind") else _replaced(value, pairs, redact)
            for key, value in data.items()
        }
    if isinstance(data, list):
        return [_replaced(value, pairs, redact) for value in data]
    return data


def _typing(recorded: list[KeyPress], answer: str) -> list[KeyPress]:
    """Keys that clear the field and type `answer`, in the time the recorded keys took."""
    start = recorded[0].t if recorded else 0.5
    end = recorded[-1].t if recorded else start + TYPING_SECONDS * (len(answer) + 2)
    step = min(TYPING_SECONDS, max(end - start, 0.0) / (len(answer) + 1))
    keys = [KeyPress(t=start, key="ctrl+u", char="\x15")]
    for index, char in enumerate(answer, start=1):
        keys.append(KeyPress(t=round(start + step * index, 3), key=_key_name(char), char=char))
    keys.append(KeyPress(t=max(end, start + step * (len(answer) + 1)), key="enter", char="\r"))
    return keys


def _key_name(char: str) -> str:
    from textual.keys import _character_to_key

    return char if char.isalnum() else _character_to_key(char)
