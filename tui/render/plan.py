"""What a render will play: the transcript with its edits and redaction, timed, and its captions."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import partial
from pathlib import Path

from tui.render.captions import CaptionsError, Cue, read_webvtt, request_cues
from tui.render.edits import (
    Edits,
    EditsError,
    edited_transcript,
    hidden_text,
    load_edits,
    sidecar_path,
)
from tui.render.script import Script, build_script
from tui.transcript.reader import Transcript, TranscriptError, read_transcript
from tui.transcript.timing import Timing


class PlanError(ValueError):
    """The transcript, edit file or captions cannot be used; the message says where and why."""


@dataclass(frozen=True)
class Plan:
    transcript: Transcript
    """As it will be replayed: the edit file's answers and replacements applied, redacted."""
    script: Script
    changes_results: bool
    """True when edits or redaction may make replayed results differ from the recorded ones."""
    hide: Callable[[str], str]
    """Text as the render draws it: the edits' replacements and the redaction applied."""

    def cues(self, captions: str | None) -> list[Cue] | None:
        """No caption line for None; each question's for ""; else the WebVTT file's cues,
        hidden as the transcript is."""
        if captions is None:
            return None
        if not captions:
            return request_cues(self.transcript, self.script)
        try:
            cues = read_webvtt(Path(captions))
        except CaptionsError as error:
            raise PlanError(str(error)) from None
        return [replace(cue, text=self.hide(cue.text)) for cue in cues]


def plan_render(
    path: Path,
    edits_path: Path | None,
    redact: Sequence[re.Pattern[str]] | None,
    speed: float,
    max_pause: float | None,
) -> Plan:
    """Read `path` and its edit file (`edits_path`, else `FILE.edit.json` if there is one)."""
    try:
        transcript = read_transcript(path)
        default = sidecar_path(path)
        edits = load_edits(edits_path or default) if edits_path or default.exists() else Edits()
        transcript = edited_transcript(transcript, edits, redact or ())
    except (TranscriptError, EditsError) as error:
        raise PlanError(str(error)) from None
    script = build_script(transcript, Timing(speed, max_pause), edits)
    hide = partial(hidden_text, edits=edits, redact=redact or ())
    return Plan(transcript, script, edits.changes_results or bool(redact), hide)
