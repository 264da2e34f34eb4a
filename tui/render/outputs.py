"""Writes each requested output by its extension, within a size budget, and says what it wrote."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from tui.core.replaced_file import replacing
from tui.render.capture import Capture
from tui.render.cast import cast_text
from tui.render.chapters import webvtt_chapters
from tui.render.frames import Frame, Overlays, compose
from tui.render.script import Chapter, Script
from tui.render.svg import svg_text

if TYPE_CHECKING:
    from tui.render.raster import Drawings

FORMATS = (".gif", ".png", ".svg", ".cast", ".mp4", ".webm")

DRAWN = (".gif", ".png", ".mp4", ".webm")
"""The formats drawn in pixels (with Pillow); the SVG and cast are text."""

FPS_STEPS = (20.0, 10.0, 5.0)
"""The frame-rate caps tried in turn until an output fits `--max-size`."""


@dataclass(frozen=True)
class Written:
    path: Path
    size: int
    frames: int
    note: str = ""
    over_budget: bool = False

    def describe(self) -> str:
        # (A file of frames says how many; one of chapters only, as the VTT beside a video,
        # says nothing of frames.)
        parts = [_size(self.size), *([_counted(self.frames, "frame")] if self.frames else [])]
        parts += [self.note] if self.note else []
        return f"wrote {self.path} ({', '.join(parts)})"


@dataclass
class Render:
    """One run's material: the script, what was captured, the overlays and the title."""

    script: Script
    captured: Capture
    overlays: Overlays
    title: str
    fps: float | None = FPS_STEPS[0]
    max_size: int | None = None

    def __post_init__(self) -> None:
        self._drawings: Drawings | None = None
        self.chapter_files: set[Path] = set()
        self._frames: dict[float | None, list[Frame]] = {}

    @property
    def drawings(self) -> Drawings:
        """What draws the screens in pixels (Pillow is imported with the first)."""
        if self._drawings is None:
            from tui.render.raster import Drawings

            self._drawings = Drawings()
        return self._drawings

    @property
    def missing_glyphs(self) -> set[str]:
        """The characters drawn as boxes, the font having no glyph for them."""
        return set() if self._drawings is None else self._drawings.missing

    def frames(self, fps: float | None) -> list[Frame]:
        if fps not in self._frames:
            self._frames[fps] = compose(self.script, self.captured, self.overlays, fps)
        return self._frames[fps]


def write_outputs(
    render: Render, paths: Sequence[Path], written: list[Written] | None = None
) -> list[Written]:
    """Write every path (its extension picks the format); raises `VideoError` without
    ffmpeg. What was written is added to `written` (a new list by default) as each file is
    complete, and returned. A file whose writing is ended midway (an error, Ctrl+C, SIGTERM)
    is left as it was."""
    written = [] if written is None else written
    for path in dict.fromkeys(paths):  # a path named twice is written once
        with replacing(path) as draft:
            done, frames = _write(render, draft, path.suffix.lower())
        written.append(replace(done, path=path))
        vtt = path.with_suffix(".chapters.vtt")
        if path.suffix.lower() in (".mp4", ".webm") and vtt not in render.chapter_files:
            render.chapter_files.add(vtt)  # demo.mp4 and demo.webm share one
            chapters = _to_the_end(render.script.shown_chapters, frames)
            with replacing(vtt) as draft:
                draft.write_text(webvtt_chapters(chapters), encoding="utf-8")
            written.append(Written(vtt, vtt.stat().st_size, 0, _counted(len(chapters), "chapter")))
    return written


def _write(render: Render, path: Path, suffix: str) -> tuple[Written, list[Frame]]:
    """Write `path` as `suffix` says; what was written, and the frames it holds."""
    chapters = render.script.shown_chapters
    if suffix == ".png":
        from tui.render.gif import png_bytes

        frames = render.frames(render.fps)
        data = png_bytes(poster(frames, render.script), render.drawings)
        path.write_bytes(data)
        return Written(path, len(data), 1), frames
    if suffix == ".svg":
        frames = render.frames(render.fps)
        path.write_text(svg_text(frames), encoding="utf-8")
        return Written(path, path.stat().st_size, len(frames)), frames
    if suffix == ".cast":
        frames = render.frames(render.fps)
        path.write_text(cast_text(frames, chapters, render.title), encoding="utf-8")
        marks = _counted(len(chapters), "marker")
        return Written(path, path.stat().st_size, len(frames), marks), frames
    fits = None
    for fps in _fps_steps(render.fps):
        frames = render.frames(fps)
        if suffix == ".gif":
            from tui.render.gif import write_gif

            write_gif(path, frames, render.drawings)
        else:
            from tui.render.video import write_video

            write_video(path, frames, _to_the_end(chapters, frames), render.title, render.drawings)
        size = path.stat().st_size
        fits = render.max_size is None or size <= render.max_size
        if fits:
            break
    note = f"capped at {fps:g} fps" if fps != render.fps else ""
    if not fits:
        note = f"over the {_size(render.max_size or 0)} budget even at {fps:g} fps"
    return Written(path, path.stat().st_size, len(frames), note, over_budget=not fits), frames


def _to_the_end(chapters: Sequence[Chapter], frames: Sequence[Frame]) -> list[Chapter]:
    """`chapters`, the last one running on to the end of `frames`: the final screen is held
    after the last question ends, and a video's last seconds belonged to no chapter."""
    if not chapters:
        return []
    end = sum(frame.duration for frame in frames)
    return [*chapters[:-1], replace(chapters[-1], end=max(chapters[-1].end, end))]


def poster(frames: Sequence[Frame], script: Script) -> Frame:
    """The frame shown just before the first shown question answered with keys is answered
    (its last key): one that ended without a key (timed out, its dialog failed) is passed."""
    for chapter in script.shown_chapters:
        keys = [s.at for s in script.steps if s.kind == "key" and s.chapter == chapter.number]
        before = [frame for frame in frames if keys and frame.start < keys[-1]]
        if before:
            return before[-1]
    return frames[-1]


def _fps_steps(fps: float | None) -> list[float | None]:
    if fps is None:
        return [None, *FPS_STEPS]
    return [fps, *(step for step in FPS_STEPS if step < fps)]


def _counted(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"


def _size(size: int) -> str:
    return f"{size / 1_000_000:.2f} MB" if size >= 100_000 else f"{size / 1000:.1f} kB"
