"""Text from outside (agents, servers, the person) made ready for the screen, one way for all."""

from __future__ import annotations

from rich.text import Text

from tui.secrets.redaction import REDACTOR


def literal(text: str, style: str = "") -> Text:
    """`text` exactly as written, every secret answered so far scrubbed.

    Widgets parse a plain `str` as markup: `[/x]` would crash the app and `[@click=app.quit]`
    would become an action. A `Text` is never parsed, and every widget accepts one.
    """
    return Text(REDACTOR.scrub(text), style=style, end="")
