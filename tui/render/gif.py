"""Animated GIF and PNG poster outputs, drawn with Pillow."""

from __future__ import annotations

import io
from collections.abc import Sequence

from PIL import Image

from tui.render.frames import Frame
from tui.render.raster import Drawings


def gif_bytes(frames: Sequence[Frame], drawings: Drawings) -> bytes:
    """An animated GIF that loops, one palette for the whole run (the theme's colours)."""
    images = [drawings.image(frame.grid) for frame in frames]
    palette = _palette(images)
    quantized = [image.quantize(palette=palette, dither=Image.Dither.NONE) for image in images]
    out = io.BytesIO()
    quantized[0].save(
        out,
        format="GIF",
        save_all=True,
        append_images=quantized[1:],
        duration=centiseconds(frames),
        loop=0,
        optimize=False,
        disposal=1,
    )
    return out.getvalue()


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


def _palette(images: Sequence[Image.Image]) -> Image.Image:
    """At most 256 colours that cover every frame: the theme's, with text's anti-aliasing."""
    width, height = images[0].size
    step = max(1, len(images) // 16)
    sample = images[::step]
    sheet = Image.new("RGB", (width, height * len(sample)))
    for index, image in enumerate(sample):
        sheet.paste(image, (0, height * index))
    return sheet.quantize(256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
