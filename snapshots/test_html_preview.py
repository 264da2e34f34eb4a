"""What an HTML preview (PilotDeck's `previewFormat: "html"`) looks like: converted Markdown."""

from __future__ import annotations

from typing import Any

from snapshot_app import modal_app

from tui.core.models import QuestionsRequest

HTML_BATCH = QuestionsRequest(
    source="pilotdeck",
    preview_format="html",
    questions=[
        {
            "question": "How should users sign in?",
            "header": "Auth",
            "options": [
                {
                    "label": "Email and password",
                    "description": "argon2 hashes",
                    "preview": "<h3>Passwords</h3><style>h3{color:red}</style>"
                    "<script>steal()</script><p>Hashed with <b>argon2</b> &amp; salted.</p>"
                    "<ul><li>reset links by email</li><li>lockout after 5 tries</li></ul>"
                    "<pre><code>hash = argon2.hash(pw)</code></pre>",
                },
                {"label": "OAuth", "preview": "<p>Via <i>GitHub</i></p>"},
            ],
        }
    ],
)


def test_html_preview_at_80x24(snap_compare: Any) -> None:
    app, ready = modal_app(HTML_BATCH)
    assert snap_compare(app, run_before=ready, terminal_size=(80, 24))
