"""MP4 (H.264) and WebM (VP9) through ffmpeg, an optional dependency: Debian's `ffmpeg`, or
the binary the `imageio-ffmpeg` wheel ships. Chapters go into the file as its metadata."""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from tui.core.ended_from_outside import temporary_folder
from tui.render.cells import Grid
from tui.render.chapters import ffmetadata
from tui.render.frames import Frame
from tui.render.script import Chapter

if TYPE_CHECKING:
    from tui.render.raster import Drawings

INSTALL_HINT = "apt install ffmpeg (or pip install imageio-ffmpeg)"

CODECS: dict[str, list[str]] = {
    ".mp4": [
        *("-c:v", "libx264", "-preset", "slow", "-tune", "stillimage", "-crf", "26"),
        *("-pix_fmt", "yuv420p", "-movflags", "+faststart"),
    ],
    ".webm": [
        *("-c:v", "libvpx-vp9", "-crf", "36", "-b:v", "0", "-deadline", "good"),
        *("-cpu-used", "4", "-row-mt", "1", "-pix_fmt", "yuv420p"),
    ],
}


class VideoError(RuntimeError):
    """The video could not be made; the message says why in one line."""


def find_ffmpeg() -> str:
    """The ffmpeg to run: the one on PATH, else imageio-ffmpeg's; `VideoError` if neither."""
    found = shutil.which("ffmpeg")
    if found:
        return found
    try:
        import imageio_ffmpeg  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        raise VideoError(
            f"MP4 and WebM need ffmpeg, which is not installed: {INSTALL_HINT}"
        ) from None
    return str(imageio_ffmpeg.get_ffmpeg_exe())


def write_video(
    out: Path,
    frames: Sequence[Frame],
    chapters: Sequence[Chapter],
    title: str,
    drawings: Drawings,
) -> None:
    """Encode `frames` (each held for its duration) into `out`, `.mp4` or `.webm`."""
    ffmpeg = find_ffmpeg()
    suffix = out.suffix.lower()
    with temporary_folder("elicit-tui-video-") as folder:
        work = Path(folder)
        names: dict[Grid, str] = {}
        entries = []
        for frame in frames:
            # Each screen is drawn once, into its file; a screen shown again names that file.
            if frame.grid not in names:
                names[frame.grid] = f"{len(names):04d}.png"
                drawings.image(frame.grid).save(work / names[frame.grid], compress_level=1)
            name = names[frame.grid]
            entries += [f"file '{name}'", f"duration {frame.duration:.3f}"]
        entries.append(entries[-2])  # the concat demuxer holds the last file only if repeated
        (work / "frames.txt").write_text("\n".join(entries) + "\n", encoding="utf-8")
        (work / "chapters.txt").write_text(ffmetadata(list(chapters), title), encoding="utf-8")
        command = [
            ffmpeg,
            *("-y", "-loglevel", "error", "-nostdin"),
            *("-f", "concat", "-safe", "0", "-i", "frames.txt"),
            *("-f", "ffmetadata", "-i", "chapters.txt"),
            *("-map", "0:v", "-map_metadata", "1", "-map_chapters", "1"),
            *("-fps_mode", "vfr", *CODECS[suffix]),
            *("-fflags", "+bitexact", "-flags:v", "+bitexact"),
            "out" + suffix,
        ]
        done = subprocess.run(command, cwd=work, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            last = (done.stderr.strip().splitlines() or ["no message"])[-1]
            raise VideoError(f"ffmpeg failed making the {suffix[1:].upper()}: {last}")
        shutil.move(work / ("out" + suffix), out)
