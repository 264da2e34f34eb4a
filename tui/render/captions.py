"""Caption lines: from each question (its source and title), or from a WebVTT file."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from tui.render.script import Script
from tui.transcript.reader import Transcript

_CUE_TIMES = re.compile(r"^\s*([\d:.]+)\s+-->\s+([\d:.]+)")


@dataclass(frozen=True)
class Cue:
    """Text shown from `start` to `end`, seconds into the output."""

    start: float
    end: float
    text: str


class CaptionsError(ValueError):
    """The WebVTT file cannot be read; the message names the line."""


def request_cues(transcript: Transcript, script: Script) -> list[Cue]:
    """A cue per shown chapter: `source: title` (the message when there is no title)."""
    cues = []
    for chapter in script.shown_chapters:
        request = transcript.requests[chapter.request_id]
        text = chapter.name if not request.source else f"{request.source}: {chapter.name}"
        cues.append(Cue(chapter.start, chapter.end, text))
    return cues


def read_webvtt(path: Path) -> list[Cue]:
    """The cues of a WebVTT file (times and the cue's text joined on one line)."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as error:
        raise CaptionsError(f"cannot read {path}: {error.strerror}") from None
    if not lines or not lines[0].startswith("WEBVTT"):
        raise CaptionsError(f"{path}:1: not a WebVTT file (it must start with WEBVTT)")
    cues: list[Cue] = []
    index = 1
    while index < len(lines):
        match = _CUE_TIMES.match(lines[index])
        index += 1
        if match is None:
            continue
        text: list[str] = []
        while index < len(lines) and lines[index].strip():
            text.append(lines[index].strip())
            index += 1
        start, end = (_seconds(path, index, value) for value in match.groups())
        cues.append(Cue(start, end, " ".join(text)))
    return cues


def webvtt_time(seconds: float) -> str:
    """`seconds` as a WebVTT timestamp, HH:MM:SS.mmm."""
    millis = round(seconds * 1000)
    hours, millis = divmod(millis, 3_600_000)
    minutes, millis = divmod(millis, 60_000)
    return f"{hours:02d}:{minutes:02d}:{millis // 1000:02d}.{millis % 1000:03d}"


def _seconds(path: Path, line: int, value: str) -> float:
    parts = value.split(":")
    try:
        numbers = [float(part) for part in parts]
    except ValueError:
        raise CaptionsError(f"{path}:{line}: not a WebVTT time: {value!r}") from None
    total = 0.0
    for number in numbers:
        total = total * 60 + number
    return total
