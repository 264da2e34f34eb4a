"""`replay -o` holds a few drawn frames at a time, whatever the session's length: a GIF or
video of thousands of frames (or of a 300x100 screen) must not need them all in memory."""

from __future__ import annotations

import io
import shutil
import weakref
from pathlib import Path

import pytest
from PIL import Image

import tui.render.raster
from tui.render.cells import Grid, text_cells
from tui.render.frames import Frame
from tui.render.gif import centiseconds, gif_palette, write_gif
from tui.render.raster import Drawings
from tui.render.video import write_video

WHITE, BLUE = (238, 238, 238), (30, 40, 90)
FRAMES = 60


def numbered_frames(count: int) -> list[Frame]:
    """`count` screens of 40x6 that each differ, a tenth of a second apiece."""
    frames = []
    for number in range(count):
        rows = [
            tuple(text_cells(f" frame {number:4d} line {line}".ljust(40), None, (WHITE, BLUE)))
            for line in range(6)
        ]
        grid: Grid = tuple(rows)
        frames.append(Frame(number / 10, 0.1, grid))
    return frames


@pytest.fixture
def alive(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """After each drawing: how many drawn screens were still in memory, that one included."""
    drawn: list[weakref.ref[Image.Image]] = []
    counts: list[int] = []
    draw = tui.render.raster.draw_grid

    def counted(grid: Grid) -> Image.Image:
        image = draw(grid)
        drawn.append(weakref.ref(image))
        counts.append(sum(ref() is not None for ref in drawn))
        return image

    monkeypatch.setattr(tui.render.raster, "draw_grid", counted)
    return counts


def test_a_gif_is_written_holding_a_few_frames_at_a_time(alive: list[int], tmp_path: Path) -> None:
    write_gif(tmp_path / "long.gif", numbered_frames(FRAMES), Drawings())
    assert len(alive) >= FRAMES
    assert max(alive) <= 3
    with Image.open(tmp_path / "long.gif") as gif:
        assert gif.n_frames == FRAMES


@pytest.mark.skipif(shutil.which("ffmpeg") is None, reason="ffmpeg is not installed")
def test_a_video_is_written_holding_a_few_frames_at_a_time(
    alive: list[int], tmp_path: Path
) -> None:
    write_video(tmp_path / "long.mp4", numbered_frames(FRAMES), [], "long", Drawings())
    assert len(alive) == FRAMES
    assert max(alive) <= 3


def test_the_gif_written_a_frame_at_a_time_is_the_one_pillow_writes_from_all_of_them(
    tmp_path: Path,
) -> None:
    frames = numbered_frames(8)
    frames[4] = Frame(frames[4].start, frames[4].duration, frames[3].grid)  # merged into 3
    drawings = Drawings()
    write_gif(tmp_path / "streamed.gif", frames, drawings)
    palette = gif_palette(frames, drawings)
    images = [
        drawings.image(frame.grid).quantize(palette=palette, dither=Image.Dither.NONE)
        for frame in frames
    ]
    whole = io.BytesIO()
    images[0].save(
        whole,
        format="GIF",
        save_all=True,
        append_images=images[1:],
        duration=centiseconds(frames),
        loop=0,
        optimize=False,
        disposal=1,
    )
    assert (tmp_path / "streamed.gif").read_bytes() == whole.getvalue()


def test_a_big_renders_palette_keeps_each_colours_share_in_fewer_pixels(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr("tui.render.gif.PALETTE_PIXELS", 5_000)
    rgb = gif_palette(numbered_frames(FRAMES), Drawings()).getpalette() or []
    colours = {tuple(rgb[index : index + 3]) for index in range(0, len(rgb), 3)}
    assert {WHITE, BLUE} <= colours
