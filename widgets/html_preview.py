"""HTML previews (PilotDeck's `previewFormat: "html"`) made readable in a terminal: Markdown."""

from __future__ import annotations


def html_as_markdown(html: str) -> str:
    """`html` as Markdown for the `Markdown` widget: headings, emphasis, lists, code, links and
    tables kept, scripts, styles and every other tag dropped, entities decoded.

    markdownify (with BeautifulSoup) loads on the first HTML preview, about 50 ms.
    """
    from markdownify import markdownify

    return markdownify(html, heading_style="ATX", bullets="-").strip()
