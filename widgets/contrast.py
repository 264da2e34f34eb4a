"""How well a colour reads on another: the WCAG contrast ratio, from 1 (none) to 21."""

from __future__ import annotations

from rich.color import Color

READABLE = 3.0
"""The least ratio a mark or a bold label needs to be told from its background (WCAG's for
large text and for the parts of a control)."""


def contrast_ratio(foreground: Color, background: Color) -> float:
    """The contrast of `foreground` on `background`, as WCAG 2 measures it."""
    lighter, darker = sorted((_luminance(foreground), _luminance(background)), reverse=True)
    return (lighter + 0.05) / (darker + 0.05)


def _luminance(color: Color) -> float:
    def linear(channel: int) -> float:
        value = channel / 255
        return value / 12.92 if value <= 0.03928 else ((value + 0.055) / 1.055) ** 2.4

    red, green, blue = color.get_truecolor()
    return 0.2126 * linear(red) + 0.7152 * linear(green) + 0.0722 * linear(blue)
