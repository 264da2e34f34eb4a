"""Reads a transcript back: version checked, every line validated, a cut-off last line tolerated."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from tui.core.models import (
    AUTO_APPROVED,
    KEYRING_UNAVAILABLE,
    UNSUPPORTED_KIND,
    Request,
    parse_request,
)
from tui.core.request_base import of_unregistered_kind
from tui.transcript.records import (
    RECORD,
    VERSION,
    KeysRecord,
    Record,
    RequestRecord,
    ResultRecord,
    SessionEnd,
)


class TranscriptError(ValueError):
    """The file is not a transcript this version can replay; the message says where and why."""


@dataclass
class Transcript:
    """The events of one recorded session, in the order they happened."""

    path: Path
    records: list[Record]
    requests: dict[str, Request] = field(default_factory=dict)
    """Every request, rebuilt with `parse_request`, by id."""
    agent: str | None = None
    """The name of the agent that asked, if the transcript says."""
    title: str | None = None
    serving: str | None = None
    """Where the inbox that recorded it served MCP, for a session `serve` recorded."""
    stopped: str | None = None
    """Why reading stopped before the end of the file (a line cut off by a crash), or None."""

    @property
    def keyring_was_unusable(self) -> bool:
        """True if a secret meant for the keyring could not be stored when this was recorded."""
        return any(
            isinstance(record, ResultRecord) and record.result.get("reason") == KEYRING_UNAVAILABLE
            for record in self.records
        )

    @property
    def returned(self) -> str | dict[str, str] | None:
        """What the agent returned, as the session's end recorded it (see `SessionEnd`)."""
        ends = [record for record in self.records if isinstance(record, SessionEnd)]
        return ends[-1].returned if ends else None

    @property
    def failed(self) -> str | None:
        """The error the agent failed with, as the session's end recorded it (see `SessionEnd`)."""
        ends = [record for record in self.records if isinstance(record, SessionEnd)]
        return ends[-1].failed if ends else None

    def shown_order(self) -> list[str]:
        """The ids of the requests a modal was shown for, in the order they were shown."""
        return list(self.shown_at())

    def shown_at(self) -> dict[str, float]:
        """When each request's modal appeared (seconds since the session began), by id, in
        the order they were shown.

        A front end shows one question at a time in the order they came (the app, `attach`
        and the browser alike), whether or not a key was recorded for it (a headless inbox
        records none): a question is shown once every one before it has ended, and one that
        ended while it waited behind another (answered elsewhere, withdrawn, timed out), or
        the instant it came to the front (the inbox closing them all), never was. Nor was one
        no front end was asked: a remembered rule's, or one with nobody there (`mcp --auto`)."""
        unattended = {
            record.id
            for record in self.records
            if isinstance(record, ResultRecord)
            and record.result.get("reason") in ("no_front_end", AUTO_APPROVED)
        }
        waiting: list[str] = []
        shown: dict[str, float] = {}
        for record, following in zip(self.records, [*self.records[1:], None], strict=True):
            if isinstance(record, RequestRecord) and record.request["id"] not in unattended:
                waiting.append(str(record.request["id"]))
            elif isinstance(record, ResultRecord) and record.id in waiting:
                waiting.remove(record.id)
            settled = following is None or following.t > record.t
            if waiting and waiting[0] not in shown and settled:
                shown[waiting[0]] = record.t
        return shown

    def key_times(self) -> dict[str, list[float]]:
        """When each recorded key was pressed (seconds since the session began), by request
        id, for the requests shown: from when the modal appeared, none after its answer."""
        shown = self.shown_at()
        answered = {r.id: r.t for r in self.records if isinstance(r, ResultRecord)}
        times: dict[str, list[float]] = {}
        for record in self.records:
            if isinstance(record, KeysRecord) and record.id in shown:
                start = shown[record.id]
                end = max(answered.get(record.id, record.t), start)
                times[record.id] = [min(max(start + key.t, start), end) for key in record.keys]
        return times


def read_transcript(path: str | Path) -> Transcript:
    """Read and validate `path`; raises `TranscriptError` naming the line that is wrong."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise TranscriptError(f"cannot read {path}: {error.strerror}") from None
    except UnicodeDecodeError as error:
        raise TranscriptError(f"{path} is not UTF-8 text: {error.reason}") from None
    lines = text.split("\n")
    complete = lines[:-1]  # what follows the last newline was being written when it stopped
    tail = lines[-1]
    if not complete:
        raise TranscriptError(f"{path} is empty or cut off in its first line: not a transcript")
    header = _check_header(path, complete[0])
    transcript = Transcript(
        path,
        [],
        agent=_text(header, "agent"),
        title=_text(header, "title"),
        serving=_text(header, "serving"),
    )
    unknown: dict[str, str] = {}
    for number, line in enumerate(complete[1:], start=2):
        if line.strip():
            _add(transcript, number, line, unknown)
    if tail.strip():
        number = len(complete) + 1
        try:
            json.loads(tail)
        except ValueError:
            transcript.stopped = (
                f"{path}:{number}: the transcript stops in the middle of this line "
                f"(after {len(tail)} characters); replayed up to line {number - 1}"
            )
        else:
            _add(transcript, number, tail, unknown)
    if unknown:  # asked, never answered: it cannot be shown to wait as it did
        raise TranscriptError(next(iter(unknown.values())))
    return transcript


def _text(header: dict[str, Any], name: str) -> str | None:
    value = header.get(name)
    return value if isinstance(value, str) else None


def _check_header(path: Path, line: str) -> dict[str, Any]:
    try:
        header = json.loads(line)
    except ValueError:
        header = None
    if not isinstance(header, dict) or not isinstance(header.get("v"), int):
        raise TranscriptError(
            f'{path}:1: not an elicit-tui transcript (the first line has no "v" version number)'
        )
    version = header["v"]
    if version > VERSION:
        raise TranscriptError(
            f"{path} is a version {version} transcript, written by a newer elicit-tui; this one "
            f"reads version {VERSION}. Upgrade elicit-tui to replay it."
        )
    if version < 1:
        raise TranscriptError(f"{path}:1: unknown transcript version {version}")
    return header


def _add(transcript: Transcript, number: int, line: str, unknown: dict[str, str]) -> None:
    """Add the record on `line`; `unknown` holds, by id, the error of each request so far whose
    kind is not registered here and that has no result yet."""
    where = f"{transcript.path}:{number}"
    try:
        record = RECORD.validate_json(line)
        if isinstance(record, RequestRecord):
            request = _request(record.request, where, unknown)
            transcript.requests[request.id] = request
    except ValidationError as error:
        raise TranscriptError(f"{where}: {_first_error(error)}") from None
    if isinstance(record, KeysRecord | ResultRecord) and record.id not in transcript.requests:
        raise TranscriptError(
            f"{where}: the {record.type} of request {record.id!r}, which no line before it asks"
            " (its request line is missing)"
        )
    if isinstance(record, KeysRecord | ResultRecord) and record.id in unknown:
        unshown = f"{UNSUPPORTED_KIND}: {transcript.requests[record.id].kind}"
        if not (isinstance(record, ResultRecord) and record.result.get("reason") == unshown):
            raise TranscriptError(unknown.pop(record.id))  # its dialog is needed to replay it
        del unknown[record.id]
    transcript.records.append(record)


def _request(data: dict[str, Any], where: str, unknown: dict[str, str]) -> Request:
    """The request `data` describes. One of a kind not registered here is read as the fields
    every request has, if its recording cancelled it, unshown (`unsupported_kind`): replayed,
    it is cancelled so again."""
    try:
        return parse_request(data)
    except ValidationError as error:
        if error.errors()[0]["type"] != "unknown_kind":
            raise
        request = of_unregistered_kind(data)
        unknown[request.id] = f"{where}: {_first_error(error)}"
        return request


def _first_error(error: ValidationError) -> str:
    details = error.errors(include_url=False)
    if not details:
        return str(error)
    first = details[0]
    more = f" (and {len(details) - 1} more)" if len(details) > 1 else ""
    if first["type"] == "json_invalid":
        return f"not a JSON object: {first['ctx'].get('error', first['msg'])}"
    if first["type"] == "union_tag_invalid":
        tags = first["ctx"]["expected_tags"]
        return f"unknown line type {first['ctx']['tag']!r} (a transcript has {tags})"
    location = ".".join(str(part) for part in first["loc"])
    return f"{location or 'line'}: {first['msg']}{more}"
