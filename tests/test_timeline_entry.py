"""The timeline at 80x24: the call a rule allowed, which nobody saw, reads on its row, and
any row opens whole (Enter or a click), read-only, until Esc."""

from __future__ import annotations

from typing import Any

from app_driver import SIZE, screen_text, wait_for
from asking import burst

from tui.app.app import ElicitationApp
from tui.core.models import ToolApprovalRequest
from tui.core.queue import ElicitationQueue
from tui.integrations.hooks.claude_code import ClaudeCodeHook
from widgets.timeline import Timeline
from widgets.timeline_entry import TimelineEntry

COMMAND = "rm -rf /home/me/other-project/[bold]build[/bold] && echo done-with-a-long-tail"


def hook_call(command: str, call_id: str = "toolu_1") -> ToolApprovalRequest:
    """Claude Code's documented PermissionRequest input for a Bash call, as the hook reads it."""
    data: dict[str, Any] = {
        "session_id": "s1",
        "hook_event_name": "PermissionRequest",
        "tool_name": "Bash",
        "tool_input": {"command": command, "run_in_background": False},
        "tool_use_id": call_id,
        "cwd": "/tmp/explK/projA",
    }
    request = ClaudeCodeHook().read(data, wait=30).request
    assert isinstance(request, ToolApprovalRequest)
    return request


async def auto_approved(pilot: Any, request: ToolApprovalRequest) -> None:
    """Ask `request` with a rule in force that covers it, and wait for its row's outcome."""
    app = pilot.app
    app.approvals.allow(request.tool_name, request.remember, folder=request.folder)
    allowed = app.queue.submit(request)
    await wait_for(pilot, allowed.done)
    await wait_for(pilot, lambda: "auto-approved" in screen_text(app))


async def test_an_auto_approved_row_shows_the_command_first_at_80_columns() -> None:
    app = ElicitationApp(ElicitationQueue(), input_grace=0)
    async with app.run_test(size=SIZE) as pilot:
        await auto_approved(pilot, hook_call(COMMAND))
        row = next(line for line in screen_text(app).splitlines() if "auto-approved" in line)
    # It read `Claude Code (explK/projA): Bash(comman…`: the command was cut off whole.
    assert "Bash: rm -rf /home" in row, row


async def test_enter_on_a_row_opens_the_whole_call_read_only_and_escape_closes_it() -> None:
    app = ElicitationApp(ElicitationQueue(), input_grace=0)
    async with app.run_test(size=SIZE) as pilot:
        await auto_approved(pilot, hook_call(COMMAND))
        app.query_one(Timeline).focus()
        burst(app, "enter")
        await wait_for(pilot, lambda: "arguments" in screen_text(app))
        assert isinstance(app.screen, TimelineEntry)
        opened = screen_text(app)
        burst(app, "escape")
        await wait_for(pilot, lambda: not isinstance(app.screen, TimelineEntry))
    # The whole call, as sent: the markup in it literal, every argument there.
    assert "/home/me/other-project/[bold]build[/bold] && echo" in opened, opened
    assert "done-with-a-long-tail" in opened, opened
    assert '"run_in_background": false' in opened, opened
    assert "⚡ auto-approved · allowed for this session" in opened, opened
    assert "(explK/projA)" in opened, opened


async def test_a_click_on_a_row_opens_it() -> None:
    app = ElicitationApp(ElicitationQueue(), input_grace=0)
    async with app.run_test(size=SIZE) as pilot:
        await auto_approved(pilot, hook_call(COMMAND))
        timeline = app.query_one(Timeline)
        await pilot.click(Timeline, offset=(2, timeline.row_count))
        await wait_for(pilot, lambda: isinstance(app.screen, TimelineEntry))
        entry = app.screen
        assert isinstance(entry, TimelineEntry)
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is app.screen_stack[0])


async def test_a_question_asked_while_a_row_is_open_comes_over_it_and_goes_back_to_it() -> None:
    app = ElicitationApp(ElicitationQueue(), input_grace=0)
    async with app.run_test(size=SIZE) as pilot:
        await auto_approved(pilot, hook_call(COMMAND))
        app.query_one(Timeline).focus()
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, TimelineEntry))
        asked = app.queue.submit(hook_call("npm test", "toolu_2"))
        await wait_for(pilot, lambda: "npm test" in screen_text(app) and "Deny" in screen_text(app))
        burst(app, "1")
        await wait_for(pilot, asked.done)
        await wait_for(pilot, lambda: isinstance(app.screen, TimelineEntry))
    assert asked.result().action == "accept"


async def test_an_unusual_space_in_an_auto_approved_command_shows_as_its_code_point() -> None:
    app = ElicitationApp(ElicitationQueue(), input_grace=0)
    async with app.run_test(size=SIZE) as pilot:
        await auto_approved(pilot, hook_call("rm -rf a\u00a0b"))
        row = next(line for line in screen_text(app).splitlines() if "auto-approved" in line)
    assert "Bash: rm -rf a\\xa0b" in row, row
