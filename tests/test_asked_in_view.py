"""On a small screen a dialog opens with what it asks about in view: a tool's call, a link and
its domain, a batch's question; the answer stays within reach of a key the footer names."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from app_driver import SIZE, screen_text, wait_for, wait_for_modal
from asking import Asker
from textual.pilot import Pilot

from tui.app.app import ElicitationApp
from tui.cli.demo import health_check_edit
from tui.core.config_folder import CONFIG_DIR_ENV
from tui.core.models import Request, parse_request
from tui.core.queue import ElicitationQueue

COMMAND = (
    "rm -rf /var/lib/postgresql/data/pg_wal/archive_status && "
    "systemctl restart postgresql@14-main.service --no-block"
)
WAL = parse_request(
    {
        "kind": "tool_approval",
        "tool_name": "Bash",
        "tool_call_id": "c1",
        "summary": "Clean up WAL archive status and restart the database server",
        "arguments": {"command": COMMAND},
        "remember": {"argument": "command", "pattern": "rm -rf /var/lib/postgresql*"},
    }
)
"""The explorer's approval: at 60x15 it opened on the arguments' closing `}` alone."""

LINK = parse_request(
    {
        "kind": "url",
        "message": "Sign in to continue",
        "url": "https://accounts.example.com/oauth/authorize?client_id=abc&redirect_uri=x",
    }
)
BATCH = parse_request(
    {
        "kind": "questions",
        "message": "A few choices",
        "questions": [
            {
                "header": "Auth",
                "question": "How should users sign in?",
                "options": ["OAuth", "Magic links", "Passwords"],
            },
            {
                "header": "CI",
                "question": "Which checks should CI run?",
                "multi_select": True,
                "options": ["Tests", "Lint", "Types"],
            },
        ],
    }
)

SMALL = [(60, 15), (40, 12)]


@pytest.fixture(autouse=True)
def no_remembered_approvals(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # A rule in the user's own approvals file would answer the approval without a dialog.
    monkeypatch.setenv(CONFIG_DIR_ENV, str(tmp_path))


def _app(request: Request) -> ElicitationApp:
    return ElicitationApp(ElicitationQueue(), Asker(request), input_grace=0)


async def _settled(pilot: Pilot[Any]) -> str:
    for _ in range(5):
        await pilot.pause()
    return screen_text(pilot.app)


def _call_start_shown(text: str) -> None:
    rows = [row.strip("│ ") for row in text.splitlines()]
    assert "⚙ Bash" in text
    assert '"command": "rm -rf' in text
    assert "}" not in rows, "the arguments' end, not their start"
    assert "PgDn/PgUp" in text, "the call's box says how to see the rest"


@pytest.mark.parametrize("size", SMALL, ids=lambda size: f"{size[0]}x{size[1]}")
async def test_an_approval_opens_on_the_tool_and_the_start_of_its_call(
    size: tuple[int, int],
) -> None:
    app = _app(WAL)
    async with app.run_test(size=size) as pilot:
        await wait_for_modal(pilot)
        text = await _settled(pilot)
        _call_start_shown(text)
        assert "⇧↑↓ Scroll question" in text  # the body, to the answers under the call
        # The rest of the command, a page on.
        await pilot.press("pagedown")
        await wait_for(pilot, lambda: "systemctl" in screen_text(app))
        # Every answer is reached with the arrows, the highlight in view at each.
        for label in ("Allow for this session", "Always allow", "Deny"):
            await pilot.press("down")
            await wait_for(pilot, lambda label=label: label in screen_text(app))
        await pilot.press("up", "up", "up")
        await wait_for(pilot, lambda: "Allow once" in screen_text(app))


async def test_at_60x15_the_first_choice_shows_under_the_start_of_the_call() -> None:
    app = _app(WAL)
    async with app.run_test(size=(60, 15)) as pilot:
        modal = await wait_for_modal(pilot)
        text = await _settled(pilot)
        assert text.index("⚙ Bash") < text.index('"command"') < text.index("1 Allow once")
        # And it stays so: no layout after another, the body scrolled to the answer and back.
        layouts: list[object] = []
        modal.screen_layout_refresh_signal.subscribe(modal, layouts.append)
        await pilot.pause(0.3)
        assert layouts == []


@pytest.mark.parametrize("size", SMALL, ids=lambda size: f"{size[0]}x{size[1]}")
async def test_an_edit_opens_on_its_diff(size: tuple[int, int]) -> None:
    app = _app(health_check_edit("call-2", "invoice-api"))
    async with app.run_test(size=size) as pilot:
        await wait_for_modal(pilot)
        text = await _settled(pilot)
        assert "⚙ edit_file" in text and "--- a/invoice_api/main.py" in text
        assert '"new_string"' not in text and "diff · PgDn" in text


async def test_an_approval_keeps_its_call_in_view_as_the_screen_shrinks_and_grows() -> None:
    app = _app(WAL)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for_modal(pilot)
        await _settled(pilot)
        for size in [(60, 15), SIZE, (60, 15), (40, 12), SIZE]:
            await pilot.resize_terminal(*size)
            text = await _settled(pilot)
            assert "⚙ Bash" in text and '"command": "rm -rf' in text, size
            if size == SIZE:
                assert "1 Allow once" in text and "4 Deny" in text


async def test_a_link_at_40x12_opens_with_its_url_and_domain_in_view() -> None:
    app = _app(LINK)
    async with app.run_test(size=(40, 12)) as pilot:
        await wait_for_modal(pilot)
        text = await _settled(pilot)
        assert "https://accounts.example.com" in text
        assert "Domain  accounts.example.com" in text
        # The buttons under them: Shift+Down scrolls to them (its key follows "…" in a footer
        # this narrow).
        await pilot.press(*["shift+down"] * 8)
        await wait_for(pilot, lambda: "Decline" in "".join(screen_text(app).splitlines()[:-1]))


async def test_a_batch_at_60x15_shows_each_question_s_text() -> None:
    app = _app(BATCH)
    async with app.run_test(size=(60, 15)) as pilot:
        await wait_for_modal(pilot)
        text = await _settled(pilot)
        assert "How should users sign in?" in text and "1 OAuth" in text
        await pilot.press("tab")
        await wait_for(pilot, lambda: "Which checks should CI run?" in screen_text(app))
        assert "1 Tests" in screen_text(app)
        await pilot.press("shift+tab")
        await wait_for(pilot, lambda: "How should users sign in?" in screen_text(app))
