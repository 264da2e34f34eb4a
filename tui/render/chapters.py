"""Chapters as files: WebVTT chapters beside a video, and ffmpeg's metadata for MP4/WebM."""

from __future__ import annotations

import html

from tui.core.terminal_text import literal_line
from tui.render.captions import webvtt_time
from tui.render.script import Chapter


def webvtt_chapters(chapters: list[Chapter]) -> str:
    """A WebVTT chapters track: one cue per chapter, named as the chapter is."""
    lines = ["WEBVTT", ""]
    for number, (start, end, name) in enumerate(_spans(chapters), start=1):
        # As cue text: `<` would start a tag, `&` an entity, and no cue may hold `-->`.
        cue = html.escape(name, quote=False)
        lines += [str(number), f"{webvtt_time(start)} --> {webvtt_time(end)}", cue, ""]
    return "\n".join(lines)


def ffmetadata(chapters: list[Chapter], title: str) -> str:
    """ffmpeg's metadata file with the title and one chapter per question, in milliseconds."""
    lines = [";FFMETADATA1", f"title={_escaped(literal_line(title))}"]
    for start, end, name in _spans(chapters):
        lines += [
            "[CHAPTER]",
            "TIMEBASE=1/1000",
            f"START={round(start * 1000)}",
            f"END={round(end * 1000)}",
            f"title={_escaped(name)}",
        ]
    return "\n".join(lines) + "\n"


def _spans(chapters: list[Chapter]) -> list[tuple[float, float, str]]:
    """Each chapter's start, end and name, the first from the video's start: an MP4's chapters
    cannot begin later, and every chapter list must agree with it."""
    return [(0.0 if index == 0 else c.start, c.end, c.name) for index, c in enumerate(chapters)]


def _escaped(text: str) -> str:
    """Text as ffmetadata needs it: `=`, `;`, `#`, `\\` and newlines escaped."""
    for char in ("\\", "=", ";", "#", "\n"):
        text = text.replace(char, "\\" + char)
    return text
