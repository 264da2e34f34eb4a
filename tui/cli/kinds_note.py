"""What the `--help` of each command that reads requests says of `ELICIT_TUI_KINDS`."""

from __future__ import annotations

KINDS_NOTE = (
    "ELICIT_TUI_KINDS: the modules that register kinds of your own, comma-separated "
    "(ELICIT_TUI_KINDS=my_package.kinds,other_package.kinds)."
)
"""Named literally, not from `tui.core.kinds`: a parser loads no models."""
