"""Text from outside (agents, servers, the person) made ready for the screen, one way for all."""

from __future__ import annotations

from rich.text import Text

from tui.core.terminal_text import literal_spaces, literal_text
from tui.secrets.redaction import REDACTOR

TAB_SIZE = 8
"""Columns between tab stops, as on a terminal."""


def shown(text: str) -> str:
    """`text` as the screen is to show it: every secret answered so far scrubbed, and each
    control character as its picture (ESC as ␛), line breaks kept, tabs as the spaces to the
    next tab stop, and each character that reorders or hides text as its code point
    (`\\u202e`). Drawn as they are, an escape sequence in a question would reach the
    terminal, which acts on it: clears the screen, moves the cursor over the dialog, retitles
    the window. A tab in an option or a field's label would take no room at all (Textual
    draws it as nothing there), and `col1<TAB>col2` would read `col1col2`."""
    return expand_tabs(literal_text(REDACTOR.scrub(text)))


def shown_on_one_line(text: str) -> str:
    """`text` as `shown`, its lines joined by ` ⏎ `: for a row that has room for one line (a
    checklist's entry, a summary), so that no line after the first goes unseen."""
    return shown(text).replace("\n", " ⏎ ")


def shown_in_call(text: str) -> str:
    """`text` as `shown`, and every space but the ASCII one as its code point (`\\xa0`,
    `\\u3000`): for a tool call's command, path or arguments, where `rm -rf a<NBSP>b` names
    one file and reads as two."""
    return literal_spaces(shown(text))


def expand_tabs(text: str) -> str:
    """`text` with each tab replaced by spaces up to the next tab stop, counted in cells (a
    wide character takes two; Textual's `Content.expand_tabs` counts characters), each line
    from its own start."""
    if "\t" not in text:
        return text
    expanded = Text(text)
    expanded.expand_tabs(TAB_SIZE)
    return expanded.plain


def literal(text: str, style: str = "") -> Text:
    """`text` exactly as written (see `shown`).

    Widgets parse a plain `str` as markup: `[/x]` would crash the app and `[@click=app.quit]`
    would become an action. A `Text` is never parsed, and every widget accepts one.
    """
    return Text(shown(text), style=style, end="")
