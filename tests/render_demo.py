"""The bundled demo session rendered once, in-process, for the render tests to inspect."""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path

import tui.cli
from tui.render.captions import request_cues
from tui.render.capture import capture
from tui.render.frames import Frame, Overlays
from tui.render.outputs import FORMATS, Render, Written, write_outputs
from tui.render.script import Script, build_script
from tui.transcript.reader import Transcript, read_transcript
from tui.transcript.timing import Timing

DEMO = Path(tui.cli.__file__).parent / "demo_session.jsonl"
TIMING = Timing(max_pause=1.0)
HAS_FFMPEG = shutil.which("ffmpeg") is not None
NO_FFMPEG = "ffmpeg is not installed (apt install ffmpeg): MP4 and WebM cannot be made"


@dataclass
class Rendered:
    transcript: Transcript
    script: Script
    render: Render
    frames: list[Frame]
    written: dict[str, Written]


def render_demo(folder: Path, *, theme: str = "textual-dark") -> Rendered:
    """The demo at 80x24 with keys and captions, every format (MP4/WebM only with ffmpeg)."""
    transcript = read_transcript(DEMO)
    script = build_script(transcript, TIMING)
    captured = capture(transcript, script, (80, 24), theme)
    overlays = Overlays(show_keys=True, captions=tuple(request_cues(transcript, script)))
    render = Render(script, captured, overlays, "elicit-tui demo", fps=20)
    formats = [ext for ext in FORMATS if HAS_FFMPEG or ext not in (".mp4", ".webm")]
    written = write_outputs(render, [folder / f"demo{ext}" for ext in formats])
    by_suffix = {"".join(item.path.suffixes): item for item in written}
    return Rendered(transcript, script, render, render.frames(20), by_suffix)
