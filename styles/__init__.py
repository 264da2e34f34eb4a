"""elicit-tui's TCSS files, found the same way from a checkout and from an installed wheel.

`app.tcss` is the main screen and what every dialog shares; a kind's own rules are in
sheets of their own. An app that may show any kind reads them all as it starts (`ALL_CSS`);
`elicit-tui ask`, which shows one, reads only `app.tcss`, and its kind's sheets are added
with its dialog (`add_sheets`): Textual parses every sheet before the first frame, and the
rules of every kind took 5 ms of a cold `ask` (1.43× bare Textual, 1.40× without them).
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path, PurePath
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from textual.css.stylesheet import Stylesheet

STYLES_DIR = Path(__file__).parent
APP_CSS = STYLES_DIR / "app.tcss"
ALL_CSS: list[str | PurePath] = [
    APP_CSS,
    *sorted(path for path in STYLES_DIR.glob("*.tcss") if path != APP_CSS),
]
"""Every sheet, `app.tcss` first: what an app that may show any kind reads as it starts."""


def add_sheets(stylesheet: Stylesheet, names: Iterable[str]) -> None:
    """Add the sheets `names` (files in this folder) to `stylesheet`, each once, with the
    weight of the app's own CSS; Textual parses each as the styles are next needed."""
    for name in names:
        path = STYLES_DIR / name
        if not stylesheet.has_source(str(path)):
            stylesheet.add_source(path.read_text(encoding="utf-8"), read_from=(str(path), ""))
