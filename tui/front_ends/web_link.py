"""Where a running `elicit-tui web` keeps its current login link, for `elicit-tui web --link`.

The link lets one browser in, so it is printed only to a terminal; a `web` whose output goes
to a log or a pipe keeps it here instead, in the config folder, readable by its owner only,
rewritten after each login and removed when `web` stops.
"""

from __future__ import annotations

from pathlib import Path

from tui.core.config_folder import config_folder
from tui.core.owner_only_file import write_owner_only


def link_file(port: int) -> Path:
    """The file that holds the login link of the `web` on `port`."""
    return config_folder() / f"web-link-{port}"


def save_link(port: int, link: str) -> None:
    """Keep `link` as the current one of the `web` on `port`. Raises OSError if it cannot."""
    write_owner_only(link_file(port), link)


def saved_link(port: int) -> str | None:
    """The current login link of the `web` on `port`, if one runs from this config folder."""
    try:
        return link_file(port).read_text(encoding="utf-8").strip() or None
    except OSError:
        return None


def drop_link(port: int) -> None:
    """Remove the link of the `web` on `port`, which stops."""
    link_file(port).unlink(missing_ok=True)
