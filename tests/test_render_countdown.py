"""A question with a timeout shows its countdown in a render as it counted down live: each
frame the time that was left at that moment of the recording. The replay ran through the
session faster than it was recorded, and every frame showed the time left as the question
appeared."""

from __future__ import annotations

import json
import re
from pathlib import Path

from tui.render.capture import capture
from tui.render.cells import grid_text
from tui.render.script import build_script
from tui.transcript.reader import read_transcript
from tui.transcript.timing import Timing

ASKED_AT = 1.0
TIMEOUT = 90


def session(tmp_path: Path) -> Path:
    """A text question with a 90 s timeout, typed into 5, 12 and 75 s after it appeared."""
    request = {
        "kind": "text",
        "id": "q1",
        "message": "Release name?",
        "timeout": TIMEOUT,
    }
    keys = [
        {"t": 5.0, "key": "a", "char": "a"},
        {"t": 12.0, "key": "b", "char": "b"},
        {"t": 75.0, "key": "enter"},
    ]
    records = [
        {"v": 2, "type": "session", "started": "2026-11-30T15:31:35+00:00", "agent": "agent"},
        {"type": "request", "t": ASKED_AT, "request": request},
        {"type": "keys", "t": 76.0, "id": "q1", "keys": keys},
        {
            "type": "result",
            "t": 76.0,
            "id": "q1",
            "result": {"action": "accept", "content": "ab", "reason": None},
        },
        {"type": "end", "t": 77.0},
    ]
    path = tmp_path / "timed.jsonl"
    path.write_text("".join(json.dumps(record) + "\n" for record in records))
    return path


def test_a_render_counts_a_question_s_time_down_as_it_was_recorded(tmp_path: Path) -> None:
    transcript = read_transcript(session(tmp_path))
    script = build_script(transcript, Timing(max_pause=0.5))
    captured = capture(transcript, script, (80, 24), "textual-dark")
    shown = []
    for step, grid in zip(script.steps, captured.screens, strict=True):
        left = re.search(r"⏱ (\S+)", grid_text(grid))
        shown.append((step.kind, left.group(1) if left else None))
    assert shown == [
        ("start", None),
        ("request", "90s"),
        ("key", "85s"),
        ("key", "78s"),
        ("key", None),  # the answer: the question has gone
        ("end", None),
    ]
    assert captured.mismatches == []
