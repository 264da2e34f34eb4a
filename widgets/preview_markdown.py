"""The Markdown of a question batch's preview: its code wraps at spaces and punctuation."""

from __future__ import annotations

from contextlib import suppress

from textual.app import ComposeResult
from textual.content import Content
from textual.css.query import NoMatches
from textual.widgets import Label, Markdown
from textual.widgets.markdown import MarkdownBlock, MarkdownFence

from widgets.code_wrap import CodeWrap
from widgets.literal_markdown import LiteralMarkdown


class _Fence(MarkdownFence):
    """A code block drawn by `CodeWrap`: a name longer than the pane goes on after a `.` or
    `_` in it, not cut wherever the pane's edge falls."""

    def set_content(self, content: Content) -> None:
        self._content = content
        with suppress(NoMatches):
            self.query_one("#code-content", Label).update(CodeWrap(content))

    def compose(self) -> ComposeResult:
        yield Label(CodeWrap(self._highlighted_code), id="code-content", expand=True)


class PreviewMarkdown(LiteralMarkdown):
    """Markdown whose code blocks wrap as `CodeWrap` does, its HTML shown as text."""

    BLOCKS: dict[str, type[MarkdownBlock]] = {  # noqa: RUF012 (declared so by Markdown)
        **Markdown.BLOCKS,
        "fence": _Fence,
        "code_block": _Fence,
    }
