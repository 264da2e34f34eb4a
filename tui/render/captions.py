"""Caption lines: from each question (its source and title), or from a WebVTT file."""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from pathlib import Path

from tui.core.one_line import one_line
from tui.core.terminal_text import literal_line
from tui.render.script import NAME_WIDTH, Script
from tui.transcript.reader import Transcript

_TIME = r"(?:(\d+):)?([0-5]\d):([0-5]\d)\.(\d{3})"
"""A WebVTT timestamp: [hours:]minutes:seconds.milliseconds."""

_CUE_TIMES = re.compile(rf"\s*{_TIME}[ \t]+-->[ \t]+{_TIME}(?:[ \t].*)?$")
"""A cue's timing line; cue settings may follow the end time."""


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
        source = literal_line(one_line(request.source or "", NAME_WIDTH))
        text = f"{source}: {chapter.name}" if source else chapter.name
        cues.append(Cue(chapter.start, chapter.end, text))
    return cues


def read_webvtt(path: Path) -> list[Cue]:
    """The cues of a WebVTT file (times and the cue's text joined on one line).

    Raises `CaptionsError` naming the line of a cue whose times do not parse or run backwards.
    """
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as error:
        raise CaptionsError(f"cannot read {path}: {error.strerror}") from None
    except UnicodeDecodeError as error:
        raise CaptionsError(f"{path} is not UTF-8 text: {error.reason}") from None
    if not lines or not lines[0].startswith("WEBVTT"):
        raise CaptionsError(f"{path}:1: not a WebVTT file (it must start with WEBVTT)")
    cues: list[Cue] = []
    index = 1
    while index < len(lines):
        line = lines[index]
        index += 1  # now the line's number, counted from 1
        if "-->" not in line:  # a blank line, a cue's identifier, a NOTE
            continue
        match = _CUE_TIMES.match(line)
        if match is None:
            raise CaptionsError(
                f"{path}:{index}: not a cue's times like 00:01.000 --> 00:04.500: {line!r}"
            )
        start, end = _seconds(match.groups()[:4]), _seconds(match.groups()[4:])
        if end <= start:
            raise CaptionsError(f"{path}:{index}: the cue ends before it starts: {line!r}")
        text: list[str] = []
        while index < len(lines) and lines[index].strip():
            text.append(lines[index].strip())
            index += 1
        cues.append(Cue(start, end, _cue_text(" ".join(text))))
    return cues


_CUE_TAG = re.compile(r"<[^>]*>")
"""A WebVTT cue's markup: `<b>`, `<i>`, `<c.note>`, `<v Speaker>`, a timestamp, their ends."""


def _cue_text(text: str) -> str:
    """The text a WebVTT cue shows: its tags taken out, its `&amp;`, `&lt;`... read."""
    return html.unescape(_CUE_TAG.sub("", text))


def webvtt_time(seconds: float) -> str:
    """`seconds` as a WebVTT timestamp, HH:MM:SS.mmm."""
    millis = round(seconds * 1000)
    hours, millis = divmod(millis, 3_600_000)
    minutes, millis = divmod(millis, 60_000)
    return f"{hours:02d}:{minutes:02d}:{millis // 1000:02d}.{millis % 1000:03d}"


def _seconds(parts: tuple[str | None, ...]) -> float:
    """Seconds from a `_TIME` match's hours (if any), minutes, seconds and milliseconds."""
    hours, minutes, seconds, millis = (int(part or 0) for part in parts)
    return hours * 3600 + minutes * 60 + seconds + millis / 1000
