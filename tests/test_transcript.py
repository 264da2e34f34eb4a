"""A session's transcript: every request and result, the keys of each modal, never a secret."""

from __future__ import annotations

import json
import stat
from pathlib import Path

import pytest
from pydantic import SecretStr
from recorded_session import TOKEN_FORM, lines, record_session
from secret_field_kind import TokenCheckRequest
from secret_session import CANARY, carries_canary

from tui.core.models import ElicitationResult, TextRequest, parse_request
from tui.core.queue import ElicitationQueue
from tui.secrets.redaction import Redactor
from tui.transcript.reader import TranscriptError, read_transcript
from tui.transcript.records import KeysRecord, RequestRecord, ResultRecord, SessionEnd
from tui.transcript.writer import TranscriptWriter


async def test_a_session_is_written_line_by_line(tmp_path: Path) -> None:
    path = tmp_path / "session.jsonl"

    results = await record_session(path)

    records = lines(path)
    assert records[0]["v"] == 2 and records[0]["type"] == "session"
    kinds = [(r["type"], r.get("id") or r.get("request", {}).get("id")) for r in records[1:]]
    assert kinds == [
        *[
            step
            for request_id in ("name", "pick", "many", "key", "form", "echo")
            for step in (("request", request_id), ("keys", request_id), ("result", request_id))
        ],
        ("end", None),
    ]
    assert records[-1]["returned"] == "'done'"  # what the agent returned, as it was shown
    # Each request in full: parse_request rebuilds it.
    requests = [parse_request(r["request"]) for r in records if r["type"] == "request"]
    assert requests[4].requested_schema == TOKEN_FORM
    recorded = [r["result"] for r in records if r["type"] == "result"]
    assert recorded[:3] == [
        {"action": "accept", "content": "Ada", "reason": None},
        {"action": "accept", "content": "B", "reason": None},
        {"action": "accept", "content": ["x", "y"], "reason": None},
    ]
    assert [result.action for result in results] == ["accept"] * 6
    # Times only grow, and keys are timed from their modal's appearance.
    times = [r["t"] for r in records[1:]]
    assert times == sorted(times)
    name_keys = next(r for r in records if r["type"] == "keys" and r["id"] == "name")
    assert [k.get("key") for k in name_keys["keys"]] == ["ctrl+u", "A", "d", "a", "enter"]
    assert all(0 <= k["t"] < 10 for k in name_keys["keys"])


async def test_secrets_are_counted_never_written(tmp_path: Path) -> None:
    path = tmp_path / "session.jsonl"

    await record_session(path)

    text = path.read_text(encoding="utf-8")
    assert not carries_canary(text)
    records = lines(path)
    secret_keys = next(r for r in records if r["type"] == "keys" and r["id"] == "key")
    typed = [k for k in secret_keys["keys"] if k.get("masked")]
    # Five keys typed, one paste of the rest: as many characters as the secret has, none of them.
    assert [(k.get("paste"), k["masked"]) for k in typed] == [(None, 1)] * 5 + [
        ("•••", len(CANARY) - 5)
    ]
    assert {k["field"] for k in typed} == {"secret"}
    assert [k.get("key") for k in secret_keys["keys"] if not k.get("masked")] == [
        "ctrl+r",
        "ctrl+r",
        "enter",
    ]
    assert secret_keys["secret_lengths"] == {"secret": len(CANARY)}
    results = {r["id"]: r["result"] for r in records if r["type"] == "result"}
    assert results["key"]["content"] == "keyring:myapp/openai_api_key"
    assert results["form"]["content"] == {"region": "eu", "token": "•••"}
    form_keys = next(r for r in records if r["type"] == "keys" and r["id"] == "form")
    assert sum(k.get("masked", 0) for k in form_keys["keys"]) == len(CANARY)
    # The agent echoed the secret in its next question; the transcript has the mask.
    echo = next(r for r in records if r["type"] == "request" and r["request"]["id"] == "echo")
    assert echo["request"]["message"] == "Deploy with •••?"


def recording(path: Path) -> tuple[ElicitationQueue, TranscriptWriter]:
    """A queue with a front end (that answers nothing) and a transcript written to `path`."""
    queue = ElicitationQueue()
    writer = TranscriptWriter(path)
    writer.attach(queue)
    queue.subscribe(lambda _event: None)
    return queue, writer


def test_each_line_is_on_disk_as_soon_as_it_happens(tmp_path: Path) -> None:
    path = tmp_path / "live.jsonl"
    queue, writer = recording(path)
    queue.submit(TextRequest(id="q", message="Name?"))

    # Not closed, as after a crash: what happened is already in the file.
    assert [r["type"] for r in lines(path)] == ["session", "request"]
    queue.respond("q", ElicitationResult(action="accept", content="Ada"))
    assert lines(path)[-1]["result"]["content"] == "Ada"
    writer.close()
    assert lines(path)[-1]["type"] == "end"


def test_a_secret_a_request_of_one_s_own_holds_is_recorded_as_its_mask(tmp_path: Path) -> None:
    # Such a request is asked in the process that holds the secret (no inbox is sent it):
    # its transcript keeps the mask, never the value.
    path = tmp_path / "token.jsonl"
    queue, writer = recording(path)
    queue.submit(TokenCheckRequest(id="t", message="Right token?", token=SecretStr(CANARY)))
    writer.close()
    (request,) = [r["request"] for r in lines(path) if r["type"] == "request"]
    assert request["token"] == "**********"
    assert CANARY not in path.read_text()


def test_a_transcript_is_readable_by_its_owner_only(tmp_path: Path) -> None:
    # Made with the umask (-rw-r--r--), every answer in it was there for any user to read.
    new, old = tmp_path / "new.jsonl", tmp_path / "old.jsonl"
    old.write_text("an older session\n")
    old.chmod(0o644)
    for path in (new, old):
        TranscriptWriter(path).close()
        assert stat.S_IMODE(path.stat().st_mode) == 0o600, path.name
    assert lines(old)[0]["type"] == "session"


def test_what_the_agent_returned_is_written_as_shown_with_secrets_scrubbed(
    tmp_path: Path,
) -> None:
    redactor = Redactor()
    redactor.register(CANARY)
    cases = [
        (None, None),
        ({"key": f"sk {CANARY}", "count": 3}, {"key": "sk •••", "count": "3"}),
        ([1, CANARY], "[1, '•••']"),
    ]
    for returned, written in cases:
        path = tmp_path / "t.jsonl"
        TranscriptWriter(path, redactor=redactor).close(returned)
        assert lines(path)[-1].get("returned") == written
        assert read_transcript(path).returned == written
        assert not carries_canary(path.read_text(encoding="utf-8"))


async def test_the_reader_gives_back_what_was_written(tmp_path: Path) -> None:
    path = tmp_path / "session.jsonl"
    await record_session(path)

    transcript = read_transcript(path)

    assert transcript.stopped is None
    assert list(transcript.requests) == ["name", "pick", "many", "key", "form", "echo"]
    assert [type(r) for r in transcript.records[:3]] == [RequestRecord, KeysRecord, ResultRecord]
    assert isinstance(transcript.records[-1], SessionEnd)


def _transcript(tmp_path: Path, *records: object, header: object = None) -> Path:
    path = tmp_path / "t.jsonl"
    head = header if header is not None else {"v": 1, "type": "session", "started": "now"}
    path.write_text("".join(json.dumps(r) + "\n" for r in (head, *records)), encoding="utf-8")
    return path


def test_a_newer_version_is_refused_with_a_clear_message(tmp_path: Path) -> None:
    path = _transcript(tmp_path, header={"v": 99, "type": "session", "started": "2031"})

    with pytest.raises(TranscriptError) as raised:
        read_transcript(path)

    assert str(raised.value) == (
        f"{path} is a version 99 transcript, written by a newer elicit-tui; this one reads "
        "version 2. Upgrade elicit-tui to replay it."
    )


@pytest.mark.parametrize(
    ("header", "line", "message"),
    [
        ({"type": "session"}, None, ':1: not an elicit-tui transcript (the first line has no "v"'),
        (None, "{not json", ":2: not a JSON object: key must be a string at line 1 column 2"),
        (
            None,
            {"type": "request", "t": 0, "request": {"kind": "text"}},
            ":2: text.message: Field required",
        ),
        (
            None,
            {"type": "teleport", "t": 0},
            ":2: unknown line type 'teleport' (a transcript has 'request', 'keys', 'result', "
            "'revoked', 'end')",
        ),
    ],
    ids=["no-version", "bad-json-line", "invalid-request", "unknown-type"],
)
def test_a_broken_line_is_named(tmp_path: Path, header: object, line: object, message: str) -> None:
    path = _transcript(tmp_path, header=header)
    if line is not None:
        with path.open("a", encoding="utf-8") as file:
            file.write((line if isinstance(line, str) else json.dumps(line)) + "\n")
            file.write(json.dumps({"type": "end", "t": 1}) + "\n")

    with pytest.raises(TranscriptError) as raised:
        read_transcript(path)

    assert message in str(raised.value)


def test_a_line_cut_off_at_the_end_is_where_reading_stops(tmp_path: Path) -> None:
    request = {"type": "request", "t": 0.5, "request": {"kind": "text", "id": "a", "message": "A?"}}
    path = _transcript(tmp_path, request)
    with path.open("a", encoding="utf-8") as file:
        file.write('{"type": "result", "t": 1.0, "id": "a", "res')

    transcript = read_transcript(path)

    assert list(transcript.requests) == ["a"]
    assert transcript.stopped == (
        f"{path}:3: the transcript stops in the middle of this line (after 44 characters); "
        "replayed up to line 2"
    )
