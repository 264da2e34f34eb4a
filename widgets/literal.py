"""Text from outside (agents, servers, the person) made ready for the screen, one way for all."""

from __future__ import annotations

from rich.text import Text

from tui.core.terminal_text import literal_text
from tui.secrets.redaction import REDACTOR


def shown(text: str) -> str:
    """`text` as the screen is to show it: every secret answered so far scrubbed, and each
    control character as its picture (ESC as ␛), line breaks and tabs kept, and each
    character that reorders or hides text as its code point (`\\u202e`). Drawn as they are,
    an escape sequence in a question would reach the terminal, which acts on it: clears the
    screen, moves the cursor over the dialog, retitles the window."""
    return literal_text(REDACTOR.scrub(text))


def literal(text: str, style: str = "") -> Text:
    """`text` exactly as written (see `shown`).

    Widgets parse a plain `str` as markup: `[/x]` would crash the app and `[@click=app.quit]`
    would become an action. A `Text` is never parsed, and every widget accepts one.
    """
    return Text(shown(text), style=style, end="")
