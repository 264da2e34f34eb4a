"""Chapters as files: WebVTT chapters beside a video, and ffmpeg's metadata for MP4/WebM."""

from __future__ import annotations

from tui.render.captions import webvtt_time
from tui.render.script import Chapter


def webvtt_chapters(chapters: list[Chapter]) -> str:
    """A WebVTT chapters track: one cue per chapter, named as the chapter is."""
    lines = ["WEBVTT", ""]
    for number, chapter in enumerate(chapters, start=1):
        lines += [
            str(number),
            f"{webvtt_time(chapter.start)} --> {webvtt_time(chapter.end)}",
            chapter.name,
            "",
        ]
    return "\n".join(lines)


def ffmetadata(chapters: list[Chapter], title: str) -> str:
    """ffmpeg's metadata file with the title and one chapter per question, in milliseconds."""
    lines = [";FFMETADATA1", f"title={_escaped(title)}"]
    for chapter in chapters:
        lines += [
            "[CHAPTER]",
            "TIMEBASE=1/1000",
            f"START={round(chapter.start * 1000)}",
            f"END={round(chapter.end * 1000)}",
            f"title={_escaped(chapter.name)}",
        ]
    return "\n".join(lines) + "\n"


def _escaped(text: str) -> str:
    """Text as ffmetadata needs it: `=`, `;`, `#`, `\\` and newlines escaped."""
    for char in ("\\", "=", ";", "#", "\n"):
        text = text.replace(char, "\\" + char)
    return text
