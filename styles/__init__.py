"""elicit-tui's TCSS files, found the same way from a checkout and from an installed wheel.

`app.tcss` is the app's stylesheet: the main screen and what every dialog shares. A kind's
own rules are in sheets of their own, added to the app's stylesheet with its first dialog:
Textual parses a stylesheet's sources as it starts, and the rules of every kind took a
fifth of what a cold `elicit-tui ask` spends from its first line to its question on screen.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from textual.css.stylesheet import Stylesheet

STYLES_DIR = Path(__file__).parent
APP_CSS = STYLES_DIR / "app.tcss"


def add_sheets(stylesheet: Stylesheet, names: Iterable[str]) -> None:
    """Add the sheets `names` (files in this folder) to `stylesheet`, each once, with the
    weight of the app's own CSS; Textual parses each as the styles are next needed."""
    for name in names:
        path = STYLES_DIR / name
        if not stylesheet.has_source(str(path)):
            stylesheet.add_source(path.read_text(encoding="utf-8"), read_from=(str(path), ""))
