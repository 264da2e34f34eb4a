"""A labelled field's label reads in every theme: a batch's "Other" and "Note", a deny reason."""

from __future__ import annotations

import pytest
from textual.app import App, ComposeResult
from textual.color import Color

from widgets.labelled_input import LabelledInput


class OneField(App[None]):
    CSS_PATH = "../styles/labelled_input.tcss"

    def __init__(self, theme: str) -> None:
        super().__init__()
        self._theme = theme

    def compose(self) -> ComposeResult:
        yield LabelledInput("Other", placeholder="type an answer")

    def on_mount(self) -> None:
        self.theme = self._theme
        self.query_one(LabelledInput).styles.padding = (0, 1, 0, 7)


def luminance(color: Color) -> float:
    """WCAG's relative luminance."""

    def linear(channel: int) -> float:
        value = channel / 255
        return value / 12.92 if value <= 0.04045 else ((value + 0.055) / 1.055) ** 2.4

    red, green, blue = color.rgb
    return 0.2126 * linear(red) + 0.7152 * linear(green) + 0.0722 * linear(blue)


def contrast(one: Color, other: Color) -> float:
    """The WCAG contrast ratio of two colours (1 to 21)."""
    lighter, darker = sorted((luminance(one), luminance(other)), reverse=True)
    return (lighter + 0.05) / (darker + 0.05)


@pytest.mark.parametrize("theme", ["textual-dark", "textual-light"])
async def test_the_label_stands_out_from_the_background_it_is_drawn_on(theme: str) -> None:
    # `$text-muted` is "auto 60%": taken as it is, it is white at 60%, which on the light
    # theme drew "Other" in (238,238,238) on (216,216,216).
    app = OneField(theme)
    async with app.run_test(size=(40, 5)) as pilot:
        await pilot.pause()
        field = app.query_one(LabelledInput)
        [label, *_] = field.render_lines(field.region.reset_offset)[0]
        assert label.text.startswith("Other")
        assert label.style is not None and label.style.color and label.style.bgcolor
        fg = Color.from_rich_color(label.style.color)
        bg = Color.from_rich_color(label.style.bgcolor)
        assert contrast(fg, bg) >= 3, (theme, fg, bg)
