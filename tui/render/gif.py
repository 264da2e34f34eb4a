"""Animated GIF and PNG poster outputs, drawn with Pillow."""

from __future__ import annotations

import io
import math
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any, BinaryIO, cast

from PIL import GifImagePlugin, Image, ImageChops

from tui.render.cells import RGB
from tui.render.frames import Frame
from tui.render.raster import Drawings

PALETTE_PIXELS = 1 << 20
"""The most pixels the palette is cut from: the sampled frames' colour counts, scaled down to
this when they hold more (a long session at 300x100 samples hundreds of megapixels)."""


_Part = tuple[Image.Image, tuple[int, int], dict[str, Any]]
"""A frame as written: its image (or the box of it that changed), where that box goes, and
its local header's settings."""


def write_gif(path: Path, frames: Sequence[Frame], drawings: Drawings) -> None:
    """An animated GIF that loops, one palette for the whole run (the theme's colours).

    Each frame is drawn, encoded and let go before the next, so a session of any length
    needs a few frames of memory; the bytes are those Pillow writes from all the frames at
    once (a frame that changes nothing is held longer in the one before it, each later frame
    is only its changed box and carries the palette again)."""
    palette = gif_palette(frames, drawings)
    images = (
        drawings.image(frame.grid).quantize(palette=palette, dither=Image.Dither.NONE)
        for frame in frames
    )
    durations = centiseconds(frames)
    first = next(images)
    with path.open("wb") as out:
        out.write(b"".join(GifImagePlugin.getheader(first, info={"loop": 0})[0]))
        previous = first
        held: _Part = (first, (0, 0), {"duration": durations[0], "disposal": 1})
        for image, duration in zip(images, durations[1:], strict=True):
            box = ImageChops.subtract_modulo(image, previous).getbbox(alpha_only=False)
            if box is None:
                held[2]["duration"] += duration
                continue
            _write_part(out, held)
            part = image if box == (0, 0, *image.size) else image.crop(box)
            held = (
                part,
                box[:2],
                {"duration": duration, "disposal": 1, "include_color_table": True},
            )
            previous = image
        _write_part(out, held)
        out.write(b";")


def _write_part(out: BinaryIO, part: _Part) -> None:
    image, at, params = part
    out.write(b"".join(GifImagePlugin.getdata(image, at, **params)))


def centiseconds(frames: Sequence[Frame]) -> list[int]:
    """Each frame's duration in milliseconds, rounded to GIF's 10 ms steps without drift."""
    ends = [round((frame.start + frame.duration) * 100) for frame in frames]
    starts = [round(frames[0].start * 100), *ends[:-1]]
    return [max(1, end - start) * 10 for start, end in zip(starts, ends, strict=True)]


def png_bytes(frame: Frame, drawings: Drawings) -> bytes:
    """One frame as a PNG (a poster for the video or the README)."""
    out = io.BytesIO()
    drawings.image(frame.grid).save(out, format="PNG", optimize=True)
    return out.getvalue()


def gif_palette(frames: Sequence[Frame], drawings: Drawings) -> Image.Image:
    """At most 256 colours that cover every frame: the theme's, with text's anti-aliasing.

    Cut by median cut from the colours of about 16 frames spread over the run, as counted:
    median cut weighs a colour only by its count, so a strip holding each colour as many
    times gives the palette the frames themselves would, in a fraction of the memory."""
    step = max(1, len(frames) // 16)
    counts: Counter[RGB] = Counter()
    for frame in frames[::step]:
        image = drawings.image(frame.grid)
        for count, colour in image.getcolors(image.width * image.height) or []:
            counts[cast(RGB, colour)] += count
    scale = max(1, math.ceil(sum(counts.values()) / PALETTE_PIXELS))
    strip = b"".join(
        bytes(colour) * max(1, round(count / scale)) for colour, count in counts.items()
    )
    sheet = Image.frombytes("RGB", (len(strip) // 3, 1), strip)
    return sheet.quantize(256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
