"""SVG screenshots of a Textual app with every registered secret masked, the layout kept."""

from __future__ import annotations

import io
import os
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, RenderableType, RenderResult
from rich.segment import Segment
from textual.app import App

from tui.secrets.redaction import Redactor

MASK_CELL = "•"
"""What each screen cell of a secret becomes in a screenshot."""


def masked_screenshot(
    app: App[Any], redactor: Redactor, *, title: str | None = None, simplify: bool = False
) -> str:
    """What `App.export_screenshot` gives, with `redactor`'s secrets masked on every line.

    Widgets scrub their own text first; this is the last line of defence for text they did
    not (an echo in a header, a revealed field). A secret folded across two screen lines is
    not recognised here.
    """
    console = screen_console(app, record=True)
    # As Textual's own export_screenshot renders the screen, with the mask in between.
    screen_render = screen_update(app, simplify=simplify)
    if screen_render is not None:  # a full render always has something; the type allows None
        console.print(MaskedLines(screen_render, redactor))
    return console.export_svg(title=title or app.title)


def screen_console(app: App[Any], *, record: bool = False) -> Console:
    """A truecolor console the size of `app`'s screen, writing to nowhere; with `record`, it
    keeps what it prints for an export."""
    width, height = app.size
    return Console(
        width=width,
        height=height,
        file=io.StringIO(),
        force_terminal=True,
        color_system="truecolor",
        record=record,
        legacy_windows=False,
        safe_box=False,
    )


def screen_update(app: App[Any], *, simplify: bool = False) -> RenderableType | None:
    """The whole of `app`'s screen (with the screens under it) as one renderable, as Textual
    draws it; None only where the compositor's type allows it."""
    return app.screen._compositor.render_update(
        full=True, screen_stack=app._background_screens, simplify=simplify
    )


class MaskedLines:
    """A renderable shown as `renderable` is, with every cell of a registered secret masked."""

    def __init__(self, renderable: RenderableType, redactor: Redactor) -> None:
        self.renderable = renderable
        self.redactor = redactor

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        lines = list(Segment.split_lines(console.render(self.renderable, options)))
        for number, line in enumerate(lines, 1):
            yield from mask_line(line, self.redactor)
            if number < len(lines):
                yield Segment.line()


def mask_line(line: Iterable[Segment], redactor: Redactor) -> Iterator[Segment]:
    """The segments of one screen line, each character inside a secret replaced by `MASK_CELL`.

    Styles and cell widths stay as they were, so the screenshot's layout does not move.
    """
    segments = list(line)
    text = "".join(segment.text for segment in segments if not segment.control)
    spans = redactor.spans(text)
    if not spans:
        yield from segments
        return
    hidden = {index for start, end in spans for index in range(start, end)}
    offset = 0
    for segment in segments:
        if segment.control:
            yield segment
            continue
        masked = "".join(
            MASK_CELL * cell_len(char) if offset + index in hidden else char
            for index, char in enumerate(segment.text)
        )
        offset += len(segment.text)
        yield Segment(masked, segment.style)


SCREENSHOT_DIR_VARIABLE = "ELICIT_TUI_SCREENSHOT_DIR"
"""The environment variable naming the folder screenshots are saved in (else the current one)."""


def screenshot_directory(path: str | None = None) -> Path:
    """Where a screenshot goes: `path`, else `$ELICIT_TUI_SCREENSHOT_DIR`, else the current folder.

    Raises `NotADirectoryError` naming the folder when it does not exist: nothing is created.
    """
    folder = Path(path or os.environ.get(SCREENSHOT_DIR_VARIABLE) or ".").expanduser()
    if not folder.is_dir():
        raise NotADirectoryError(f"{folder} is not an existing folder")
    return folder.resolve()
