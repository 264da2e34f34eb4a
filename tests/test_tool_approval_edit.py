"""Editing a tool call's arguments before allowing it: the dialog's editor, the content the
agent gets, and how the timeline and a transcript say the call was edited."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from app_driver import SIZE, screen_text, wait_for, wait_for_modal
from asking import burst
from test_readable_at_80x24 import footer_keys
from textual.widgets import TextArea

from tui.app.app import ElicitationApp
from tui.core.models import ElicitationResult, ToolApprovalRequest
from tui.core.queue import ElicitationQueue
from widgets.timeline import Timeline
from widgets.tool_approval import ToolApprovalModal


def shell_call() -> ToolApprovalRequest:
    return ToolApprovalRequest(
        tool_name="shell", arguments={"command": "rm -rf build", "cwd": "/work"}, tool_call_id="c1"
    )


def test_an_edited_allow_carries_the_arguments_and_says_so() -> None:
    request = shell_call()
    edited = {"scope": "once", "arguments": {"command": "rm -rf build/tmp", "cwd": "/work"}}
    assert request.check_content(edited) == edited
    result = ElicitationResult(action="accept", content=edited)
    assert request.edited_arguments(result) == edited["arguments"]
    assert request.scope_of(result) == "once"
    assert request.describe_content(edited) == "edited, allowed once"
    assert (
        request.edited_arguments(ElicitationResult(action="accept", content={"scope": "once"}))
        is None
    )
    assert request.edited_arguments(ElicitationResult(action="decline", content=edited)) is None
    with pytest.raises(ValueError, match="edited arguments as a dict"):
        request.check_content({"scope": "once", "arguments": "rm"})
    with pytest.raises(ValueError, match="the answer must be"):
        request.check_content({"scope": "once", "surprise": 1})


async def editing_app(tmp_path: Path) -> tuple[ElicitationApp, list[ElicitationResult]]:
    results: list[ElicitationResult] = []

    def agent(queue: ElicitationQueue) -> None:
        results.append(queue.ask(shell_call()))

    app = ElicitationApp(
        ElicitationQueue(), agent, input_grace=0, transcript=tmp_path / "session.jsonl"
    )
    return app, results


async def test_e_edits_the_arguments_and_ctrl_s_allows_the_edited_call(tmp_path: Path) -> None:
    app, results = await editing_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        modal = await wait_for_modal(pilot)
        assert isinstance(modal, ToolApprovalModal)
        await pilot.press("e")
        editor = modal.query_one("#edited", TextArea)
        assert app.focused is editor and json.loads(editor.text)["command"] == "rm -rf build"
        # A broken edit is refused with why, and the typed text stays.
        editor.text = '{"command": "rm -rf build/tmp", "cwd": "/work"'
        await pilot.press("ctrl+s")
        assert "Not valid JSON" in str(modal.query_one("#error").render())
        assert editor.text.endswith('"/work"') and not results
        editor.text = '{"command": "rm -rf build/tmp", "cwd": "/work"}'
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: bool(results))
        timeline = app.query_one(Timeline)

        def drawn() -> list[str]:
            return [c.plain for row in range(timeline.row_count) for c in timeline.get_row_at(row)]

        # The table is redrawn once its rows stop changing (REDRAW_DELAY).
        await wait_for(pilot, lambda: any(cell.startswith("✔") for cell in drawn()))
        cells = drawn()
    [result] = results
    assert result.content == {
        "scope": "once",
        "arguments": {"command": "rm -rf build/tmp", "cwd": "/work"},
    }
    assert any(cell.startswith("✔ edited, allowed") for cell in cells), cells
    recorded = [json.loads(line) for line in (tmp_path / "session.jsonl").read_text().splitlines()]
    [answer] = [r["result"] for r in recorded if r["type"] == "result"]
    assert answer["content"]["arguments"]["command"] == "rm -rf build/tmp"


async def test_escape_leaves_the_editor_and_an_unchanged_edit_is_a_plain_allow(
    tmp_path: Path,
) -> None:
    app, results = await editing_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        modal = await wait_for_modal(pilot)
        assert footer_keys(app)["escape"] == "Cancel"
        await pilot.press("e")
        assert footer_keys(app)["escape"] == "Back"
        await pilot.press("escape")
        assert not modal.has_class("editing") and not results
        assert footer_keys(app)["escape"] == "Cancel"
        await pilot.press("n")
        assert footer_keys(app)["escape"] == "Back"
        await pilot.press("escape")
        assert not modal.has_class("denying") and not results
        await pilot.press("e", "ctrl+s")
        await wait_for(pilot, lambda: bool(results))
    assert results[0].content == {"scope": "once"}


async def test_keys_typed_right_after_e_in_one_burst_reach_the_editor_mounted_by_it(
    tmp_path: Path,
) -> None:
    # The first `e` mounts the editor; the keys after it (a 1 among them, which in the choices
    # would allow the call as asked) must wait for it and land in it, in order.
    app, results = await editing_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        modal = await wait_for_modal(pilot)
        mounted_before = bool(modal.query(TextArea))
        burst(app, "e", "f7", *'{"command": "ls", "depth": 1}', "ctrl+s")
        await wait_for(pilot, lambda: bool(results))
    assert not mounted_before
    assert results[0].content == {"scope": "once", "arguments": {"command": "ls", "depth": 1}}


@pytest.mark.parametrize(
    ("fixture", "said"),
    [
        ("codex_permission_request_bash.json", "Ctrl+S denies the call, asking the agent"),
        ("claude_code_permission_request_bash.json", "Ctrl+S allows the call once, as edited"),
    ],
)
async def test_the_editor_says_what_ctrl_s_does_for_the_cli_that_asks(
    fixture: str, said: str
) -> None:
    # Codex cannot run a call with other arguments: an edited allow becomes a deny telling
    # the model to call again as edited, and the editor said it "allows the call once".
    from hook_schemas import FIXTURES, INPUTS

    from tui.integrations.hooks.formats import hook_format

    data = json.loads((INPUTS / fixture).read_text())
    request = hook_format(FIXTURES[fixture]).read(data, wait=30).request
    app = ElicitationApp(ElicitationQueue(), input_grace=0)
    async with app.run_test(size=SIZE) as pilot:
        asked = app.queue.submit(request)
        await wait_for_modal(pilot)
        burst(app, "e")
        await wait_for(pilot, lambda: "Arguments as JSON" in screen_text(app))
        shown = " ".join(screen_text(app).split())
        burst(app, "escape", "escape")
        await wait_for(pilot, asked.done)
    assert said in shown, shown
