"""Markdown as a dialog shows an agent's: HTML in it shown as written, not dropped."""

from __future__ import annotations

from typing import Any

from markdown_it import MarkdownIt
from textual.widgets import Markdown


def literal_html_parser() -> MarkdownIt:
    """Textual's parser ("gfm-like": tables, strikethrough, links) with HTML read as text: a
    terminal draws no HTML, so Textual dropped it, and "cp <src> <dst>" read "cp  "."""
    return MarkdownIt("gfm-like", {"html": False})


class LiteralMarkdown(Markdown):
    """`Markdown` that shows the HTML in its text as text."""

    def __init__(self, markdown: str | None = None, **kwargs: Any) -> None:
        super().__init__(markdown, parser_factory=literal_html_parser, **kwargs)
