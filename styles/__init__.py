"""elicit-tui's TCSS files, found the same way from a checkout and from an installed wheel."""

from __future__ import annotations

from pathlib import Path

STYLES_DIR = Path(__file__).parent
APP_CSS = STYLES_DIR / "app.tcss"
