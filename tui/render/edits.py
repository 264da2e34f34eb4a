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
from collections.abc import Callable, Sequence
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from tui.core.content_check import ContentNotJSON, ContentRefused, checked_content
from tui.core.models import Request, TextRequest, parse_request
from tui.core.validation_text import validation_lines
from tui.transcript.reader import Transcript
from tui.transcript.records import (
    KeyPress,
    KeysRecord,
    Record,
    RequestRecord,
    ResultRecord,
    RulesRevoked,
    SessionEnd,
    scrubbed,
)

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
    """Text replaced wherever it would be drawn: requests, typed text, answers, what the agent
    returned (fake data)."""
    chapters: dict[int, ChapterEdit] = Field(default_factory=dict)
    """Edits by chapter number, from 1."""

    @field_validator("replace")
    @classmethod
    def _nothing_replaced_is_empty(cls, replace: dict[str, str]) -> dict[str, str]:
        if "" in replace:
            raise ValueError(
                "the text to replace is empty: it would be put between every two characters"
            )
        return replace

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
    """Read and validate an edit file; raises `EditsError` naming each field that is wrong."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise EditsError(f"cannot read {path}: {error.strerror}") from None
    except ValueError as error:
        raise EditsError(f"{path} is not JSON: {error}") from None
    try:
        return Edits.model_validate(data)
    except ValidationError as error:
        problems = "\n  ".join(validation_lines(error))
        raise EditsError(f"{path} is not a valid edit file:\n  {problems}") from None


def edited_transcript(
    transcript: Transcript, edits: Edits, redact: Sequence[re.Pattern[str]] = ()
) -> Transcript:
    """A copy of `transcript` with the edits' answers applied, and the text replacements and
    each of `redact` applied to everything it would put on screen: requests, typed text, results and
    what the agent returned. Raises `EditsError` for an answer no key sequence can type."""
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
    hide = partial(_hidden, pairs=edits.replace, redact=redact)
    hiding = bool(edits.replace or redact)
    # A text answer with hidden text in it is typed again whole: corrections typed in it
    # (Backspace, a word deleted) could otherwise leave a piece to be seen.
    typed = {
        record.id: record.result["content"]
        for record in transcript.records
        if isinstance(record, ResultRecord)
        and isinstance(asked := transcript.requests.get(record.id), TextRequest)
        and not asked.multiline
        and isinstance(record.result.get("content"), str)
    }
    answers = {key: hide(text) for key, text in typed.items() if hide(text) != text}
    answers |= {
        order[number - 1]: chapter.answer
        for number, chapter in edits.chapters.items()
        if chapter.answer is not None
    }
    records: list[Record] = []
    requests = dict(transcript.requests)
    for record in transcript.records:
        if isinstance(record, KeysRecord) and record.id in answers:
            # Typed again whole, they give the answer themselves: no longer `scrubbed`.
            keys = _typing(record.keys, answers[record.id])
            record = record.model_copy(update={"keys": keys, "scrubbed": None})
        elif hiding:
            record = _record_hidden(record, hide)
            if isinstance(record, RequestRecord):
                requests[str(record.request["id"])] = parse_request(record.request)
        records.append(record)
    _check_answers(order, requests, answers, records, transcript.records)
    title, agent = (hide(name) if name else name for name in (transcript.title, transcript.agent))
    return replace(transcript, records=records, requests=requests, title=title, agent=agent)


def _check_answers(
    order: list[str],
    requests: dict[str, Request],
    typed: dict[str, str],
    edited: list[Record],
    recorded: list[Record],
) -> None:
    """Raise `EditsError` naming the chapter if a question would refuse an answer the edits
    changed (a typed answer, or text hidden in one): the replay would wait on it in vain."""
    changed = {
        after.id: after.result["content"]
        for before, after in zip(recorded, edited, strict=True)
        if isinstance(after, ResultRecord)
        and after.result.get("action") == "accept"
        and after != before
    }
    changed |= typed
    for number, request_id in enumerate(order, start=1):
        if request_id not in changed:
            continue
        try:
            checked_content(requests[request_id], changed[request_id])
        except (ContentRefused, ContentNotJSON) as refused:
            raise EditsError(
                f"chapter {number}: the question would refuse the answer as edited: {refused}"
            ) from None


def _record_hidden(record: Record, hide: Callable[[Any], Any]) -> Record:
    """`record` with `hide` applied to the text it puts on screen."""
    if isinstance(record, RequestRecord):
        return record.model_copy(update={"request": hide(record.request)})
    if isinstance(record, ResultRecord):
        return record.model_copy(update={"result": hide(record.result)})
    if isinstance(record, SessionEnd):
        # Its keys are shown too, beside the values: "name  orders-api".
        return record.model_copy(update={"returned": scrubbed(record.returned, hide)})
    if isinstance(record, RulesRevoked):
        # Hidden as the requests whose answers gave them, so that they still name those rules.
        return record.model_copy(update={"rules": hide(record.rules)})
    return record.model_copy(update={"keys": _retyped(record.keys, hide)})


def hidden_text(text: str, edits: Edits, redact: Sequence[re.Pattern[str]]) -> str:
    """`text` with the edits' replacements and each of `redact` applied, as everything a
    render puts on screen from the transcript is (captions from a file of one's own too)."""
    hidden: str = _hidden(text, edits.replace, redact)
    return hidden


def _hidden(data: Any, pairs: dict[str, str], redact: Sequence[re.Pattern[str]]) -> Any:
    """JSON data with every string's text replaced; ids, kinds, actions and reasons kept."""
    if isinstance(data, str):
        for old, new in pairs.items():
            data = data.replace(old, new)
        for pattern in redact:
            data = pattern.sub(REDACTED, data)
        return data
    if isinstance(data, dict):
        return {
            key: value if key in _KEPT else _hidden(value, pairs, redact)
            for key, value in data.items()
        }
    if isinstance(data, list):
        return [_hidden(value, pairs, redact) for value in data]
    return data


_KEPT = ("id", "kind", "action", "reason")
"""The fields of a request or result that are names the replay works by, not text shown."""


def _retyped(keys: list[KeyPress], hide: Callable[[str], str]) -> list[KeyPress]:
    """`keys` with each run of typed characters, and each paste, hidden: a run whose text
    changes is typed again as hidden, in the time it took."""
    out: list[KeyPress] = []
    run: list[KeyPress] = []
    for press in [*keys, None]:
        if press is not None and press.char is not None and press.char.isprintable():
            run.append(press)
            continue
        text = "".join(str(typed.char) for typed in run)
        if run and (hidden := hide(text)) != text:
            step = (run[-1].t - run[0].t) / max(len(hidden), 1)
            out += _chars(hidden, run[0].t - step, step)
        else:
            out += run
        run = []
        if press is not None:
            out.append(
                press.model_copy(update={"paste": hide(press.paste)}) if press.paste else press
            )
    return out


def _typing(recorded: list[KeyPress], answer: str) -> list[KeyPress]:
    """Keys that clear the field and type `answer`, in the time the recorded keys took."""
    start = recorded[0].t if recorded else 0.5
    end = recorded[-1].t if recorded else start + TYPING_SECONDS * (len(answer) + 2)
    step = min(TYPING_SECONDS, max(end - start, 0.0) / (len(answer) + 1))
    keys = [KeyPress(t=start, key="ctrl+u", char="\x15")]
    keys += _chars(answer, start, step)
    keys.append(KeyPress(t=max(end, start + step * (len(answer) + 1)), key="enter", char="\r"))
    return keys


def _chars(text: str, start: float, step: float) -> list[KeyPress]:
    """The keys typing `text`, the first at `start` + `step`, one each `step` after."""
    return [
        KeyPress(t=round(start + step * index, 3), key=_key_name(char), char=char)
        for index, char in enumerate(text, start=1)
    ]


def _key_name(char: str) -> str:
    from textual.keys import _character_to_key

    return char if char.isalnum() else _character_to_key(char)
