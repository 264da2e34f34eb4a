"""A render's notices go after their time on the session's clock, as they went live: a render
steps through the session faster than it happened, and a toast timed by the wall clock stayed
on every frame to the end."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import failing_kinds  # noqa: F401  (registers `broken_test`)
import pytest
from PIL import Image, ImageChops
from recorded_session import REPO, run_cli

from tui.app.app import ElicitationApp
from tui.render.capture import capture
from tui.render.cells import grid_text
from tui.render.frames import Frame, Overlays, compose
from tui.render.gif import gif_palette
from tui.render.raster import Drawings
from tui.render.script import build_script
from tui.transcript.reader import read_transcript
from tui.transcript.timing import Timing

NOTICE_SECONDS = ElicitationApp.NOTIFICATION_TIMEOUT

TEXT = {
    "kind": "text",
    "title": None,
    "description": None,
    "source": None,
    "timeout": None,
    "metadata": {},
    "sensitive": False,
}

NOTICES = {
    # A dialog whose content() raises, at Enter.
    "dialog failed": (
        [
            {
                "type": "request",
                "t": 0.2,
                "request": {**TEXT, "kind": "broken_test", "id": "b", "message": "Broken?"}
                | {"where": "content"},
            },
            {"type": "keys", "t": 1.0, "id": "b", "keys": [{"t": 0.8, "key": "enter"}]},
            {
                "type": "result",
                "t": 1.0,
                "id": "b",
                "result": {
                    "action": "cancel",
                    "content": None,
                    "reason": "dialog_failed: broken_test (DialogBroke)",
                },
            },
        ],
        "The 'broken_test' dialog failed",
    ),
    # A kind no process registers: never shown, cancelled at once.
    "cannot show": (
        [
            {
                "type": "request",
                "t": 1.0,
                "request": {**TEXT, "kind": "never_registered", "id": "u", "message": "Odd?"},
            },
            {
                "type": "result",
                "t": 1.0,
                "id": "u",
                "result": {
                    "action": "cancel",
                    "content": None,
                    "reason": "unsupported_kind: never_registered",
                },
            },
        ],
        "Cannot show 'never_registered'",
    ),
    # A question the agent withdrew while it was shown.
    "ended": (
        [
            {"type": "request", "t": 0.2, "request": {**TEXT, "id": "w", "message": "Wait?"}},
            {
                "type": "result",
                "t": 1.0,
                "id": "w",
                "result": {"action": "cancel", "content": None, "reason": "cancelled_by_agent"},
            },
        ],
        "Withdrawn by the agent",
    ),
}

NEXT_ASKED = 10.0
"""When the question after the notice's comes: well after the notice has gone."""


def transcript_with(path: Path, records: list[dict[str, Any]]) -> Path:
    """`records`, then a text question asked at `NEXT_ASKED` and answered, and the end."""
    name = {"type": "request", "t": NEXT_ASKED, "request": {**TEXT, "id": "n", "message": "Name?"}}
    keys = [{"t": 0.5, "key": key, "char": key} for key in "Ada"] + [{"t": 0.6, "key": "enter"}]
    lines = [
        {"v": 2, "type": "session", "started": "2026-01-01T00:00:00+00:00", "agent": "agent"},
        *records,
        name,
        {"type": "keys", "t": NEXT_ASKED + 0.6, "id": "n", "keys": keys},
        {
            "type": "result",
            "t": NEXT_ASKED + 0.6,
            "id": "n",
            "result": {"action": "accept", "content": "Ada", "reason": None},
        },
        {"type": "end", "t": NEXT_ASKED + 1.0, "returned": "Ada"},
    ]
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    return path


def rendered_frames(path: Path, timing: Timing, fps: float | None = None) -> list[Frame]:
    transcript = read_transcript(path)
    script = build_script(transcript, timing)
    captured = capture(transcript, script, (80, 24), "textual-dark")
    return compose(script, captured, Overlays(), fps)


@pytest.mark.parametrize("notice", list(NOTICES))
@pytest.mark.parametrize("timing", [Timing(), Timing(max_pause=1.0)], ids=["paced", "max-pause"])
def test_a_notice_goes_after_its_time_on_the_session_clock(
    tmp_path: Path, notice: str, timing: Timing
) -> None:
    records, said = NOTICES[notice]
    frames = rendered_frames(transcript_with(tmp_path / "s.jsonl", records), timing)

    shown = [frame for frame in frames if said in grid_text(frame.grid)]
    assert shown, f"no frame shows {said!r}"
    # Gone before the next question, as it was live, and never back.
    asked = next(n for n, frame in enumerate(frames) if "Name?" in grid_text(frame.grid))
    assert all(said not in grid_text(frame.grid) for frame in frames[asked:])
    if timing.max_pause is None:
        # At its time: the frame before the next question's, held until it came, is without it.
        gone = frames[asked - 1]
        assert said not in grid_text(gone.grid)
        assert gone.start == pytest.approx(1.0 + NOTICE_SECONDS, abs=0.05)


def test_the_gif_ends_on_the_screen_without_the_notice(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Seen in a GIF: the failed dialog's toast over both later questions and the final hold.
    records, said = NOTICES["dialog failed"]
    path = transcript_with(tmp_path / "s.jsonl", records)
    gif = tmp_path / "s.gif"
    monkeypatch.setenv("ELICIT_TUI_KINDS", "failing_kinds")
    monkeypatch.setenv("PYTHONPATH", str(REPO / "tests"))

    run = run_cli("replay", str(path), "--max-pause", "1s", "-o", str(gif))
    assert run.returncode == 0, run.stderr

    frames = rendered_frames(path, Timing(max_pause=1.0), fps=20.0)
    assert any(said in grid_text(frame.grid) for frame in frames)
    assert said not in grid_text(frames[-1].grid)
    drawings = Drawings()
    palette = gif_palette(frames, drawings)
    expected = drawings.image(frames[-1].grid).quantize(palette=palette, dither=Image.Dither.NONE)
    with Image.open(gif) as image:
        image.seek(image.n_frames - 1)
        last = image.convert("RGB")
    assert ImageChops.difference(last, expected.convert("RGB")).getbbox() is None
