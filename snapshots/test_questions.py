"""What a batch of questions looks like: the tab strip, a preview, "Other", the Review tab."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from snapshot_app import modal_app
from textual.pilot import Pilot

from tui.core.config_folder import CONFIG_DIR_ENV
from tui.core.models import QuestionsRequest

BATCH = QuestionsRequest(
    source="claude-code",
    message="A few decisions before I scaffold billing-api",
    questions=[
        {
            "question": "How should users sign in?",
            "header": "Auth",
            "options": [
                {
                    "label": "OAuth",
                    "description": "Google and GitHub; no passwords to keep",
                    "preview": "```python\n@app.get('/login')\nasync def login(request):\n"
                    "    return await oauth.redirect(request)\n```",
                },
                {
                    "label": "Email and password",
                    "description": "argon2 hashes, reset links",
                    "preview": "Passwords are hashed with **argon2**.\n\n"
                    "- reset links by email\n- lockout after 5 tries",
                },
                {"label": "Magic links", "description": "a one-time link by email"},
            ],
        },
        {
            "question": "Which datastores do you need?",
            "header": "Storage",
            "multi_select": True,
            "options": [
                {"label": "PostgreSQL", "description": "primary database"},
                {"label": "Redis", "description": "cache and queues"},
                {"label": "S3", "description": "file uploads"},
            ],
        },
        {
            "question": "Where will it run?",
            "header": "Deploy",
            "options": ["Fly.io", "AWS ECS", "Kubernetes"],
        },
        {
            "question": "Which license?",
            "header": "License",
            "allow_other": False,
            "options": ["MIT", "Apache-2.0", "Proprietary"],
        },
    ],
)

CASES: list[tuple[str, list[str]]] = [
    ("tab_strip", ["1", "1", "3", "tab"]),
    ("preview_shown", ["down"]),
    ("other_typed", ["tab", "tab", *"Hetzner"]),
    ("review_one_unanswered", ["1", "1", "tab", "tab", "2", "enter"]),
]


@pytest.fixture(autouse=True)
def no_remembered_approvals(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(CONFIG_DIR_ENV, str(tmp_path))


def answered(keys: list[str]) -> tuple[Any, Any]:
    """The app and a `run_before` that shows the batch, presses `keys` and lets previews render."""
    app, ready = modal_app(BATCH)

    async def run_before(pilot: Pilot[Any]) -> None:
        await ready(pilot)
        await pilot.press(*keys)
        # Previews render in the background: wait until the screen stops changing.
        shot = ""
        for _ in range(50):
            await pilot.wait_for_scheduled_animations()
            await pilot.pause(0.05)
            previous, shot = shot, app.export_screenshot()
            if shot == previous:
                break

    return app, run_before


class TestAt80x24:
    @pytest.mark.parametrize(("name", "keys"), CASES, ids=[c[0] for c in CASES])
    def test_questions(self, snap_compare: Any, name: str, keys: list[str]) -> None:
        app, run_before = answered(keys)
        assert snap_compare(app, run_before=run_before, terminal_size=(80, 24))


class TestAt120x40:
    @pytest.mark.parametrize(("name", "keys"), CASES, ids=[c[0] for c in CASES])
    def test_questions(self, snap_compare: Any, name: str, keys: list[str]) -> None:
        app, run_before = answered(keys)
        assert snap_compare(app, run_before=run_before, terminal_size=(120, 40))


MANY = QuestionsRequest(
    source="claude-code",
    message="Set up the service step by step",
    questions=[
        {
            "question": f"Which option for step {n}?",
            "header": f"Step {n} of setup",
            "options": ["a", "b"],
        }
        for n in range(1, 9)
    ],
)
"""Eight questions, their tabs twice as wide as the dialog at 80 columns."""


def test_tabs_wider_than_the_screen_at_80x24(snap_compare: Any) -> None:
    """On the sixth question: the strip scrolled to it, "…" where the tabs are cut."""
    app, ready = modal_app(MANY)

    async def run_before(pilot: Pilot[Any]) -> None:
        await ready(pilot)
        await pilot.press(*["tab"] * 5)

    assert snap_compare(app, run_before=run_before, terminal_size=(80, 24))


TALL = QuestionsRequest(
    source="claude-code",
    message="A few decisions before I scaffold the upload service",
    questions=[
        {
            "question": "We found three ways to store uploaded files, each with its own cost in "
            "latency, durability and price: which storage backend should the new upload "
            "service use in production and in staging?",
            "header": "Storage",
            "options": [
                {"label": "S3", "description": "managed, durable", "preview": "one bucket"},
                {"label": "Local disk"},
                {"label": "Postgres large objects"},
                {"label": "GCS", "description": "Google Cloud Storage"},
                {"label": "Azure Blob", "description": "Microsoft's"},
                {"label": "MinIO", "description": "self-hosted, S3's API"},
            ],
        },
        {"question": "Where will it run?", "header": "Deploy", "options": ["Fly.io", "AWS"]},
    ],
)
"""A long question over options of two lines: the page is taller than 80x24."""


def test_the_tabs_stay_in_view_over_a_tall_page_at_80x24(snap_compare: Any) -> None:
    """Down to the note: the page scrolls under the tabs and the progress, which stay."""
    app, ready = modal_app(TALL)

    async def run_before(pilot: Pilot[Any]) -> None:
        await ready(pilot)
        await pilot.press(*["down"] * 8)

    assert snap_compare(app, run_before=run_before, terminal_size=(80, 24))
