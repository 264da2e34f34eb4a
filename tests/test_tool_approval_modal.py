"""The `tool_approval` kind: its model, and its modal's four answers in the real app."""

from __future__ import annotations

from typing import Any

import pytest
from app_driver import SIZE, screen_text, wait_for, wait_for_modal
from asking import Asker, burst
from pydantic import ValidationError
from textual.containers import VerticalScroll
from textual.content import Content
from textual.widgets import Input, Static, TextArea

from tui.app.app import ElicitationApp
from tui.cli.demo import health_check_edit
from tui.core.models import ElicitationResult, ToolApprovalRequest, parse_request
from tui.core.queue import ElicitationQueue
from widgets.labelled_input import LabelledInput
from widgets.timeline import Timeline
from widgets.tool_approval import ToolApprovalModal

SHELL: dict[str, Any] = {
    "kind": "tool_approval",
    "tool_name": "shell",
    "summary": "Run the test suite",
    "arguments": {"command": "pytest -q", "cwd": "/work/app"},
    "tool_call_id": "call_1",
}
EDIT: dict[str, Any] = {
    "kind": "tool_approval",
    "tool_name": "edit_file",
    "summary": "Add a health check",
    "arguments": {"path": "app/main.py"},
    "diff": "--- a/app/main.py\n+++ b/app/main.py\n@@ -1 +1,2 @@\n app = App()\n+app.health()\n",
    "tool_call_id": "call_2",
}


def test_the_id_follows_the_tool_call() -> None:
    request = parse_request(SHELL)
    assert isinstance(request, ToolApprovalRequest)
    assert request.id == "toolApproval:call_1"
    assert request.message == "Run the test suite"
    with pytest.raises(ValidationError, match="toolApproval:call_1"):
        parse_request({**SHELL, "id": "call_1"})
    with pytest.raises(ValidationError, match="one line"):
        parse_request({**SHELL, "summary": "two\nlines"})


@pytest.mark.parametrize(
    ("result", "scope", "reason"),
    [
        # Protocol-driven front ends answer with the action alone.
        (ElicitationResult(action="accept"), "once", None),
        (ElicitationResult(action="decline"), None, None),
        (ElicitationResult(action="cancel"), None, None),
        (ElicitationResult(action="accept", content={"scope": "session"}), "session", None),
        (ElicitationResult(action="accept", content={"scope": "forever"}), "once", None),
        (ElicitationResult(action="decline", content={"reason": " no "}), None, "no"),
    ],
)
def test_what_a_result_allows(result: ElicitationResult, scope: str | None, reason: str) -> None:
    request = parse_request(SHELL)
    assert isinstance(request, ToolApprovalRequest)
    assert request.scope_of(result) == scope
    assert request.denial_reason(result) == reason


def styled(content: Content, text: str) -> str:
    """The style of the span that starts where `text` does in `content` and covers it."""
    start = content.plain.index(text)
    spans = [s for s in content.spans if s.start == start and s.end >= start + len(text)]
    assert spans, f"{text!r} is not highlighted"
    return str(spans[0].style)


async def approve(data: dict[str, Any], *keys: str) -> ElicitationResult:
    """Show the approval, press `keys`, and return what the agent received."""
    asker = Asker(parse_request(data))
    app = ElicitationApp(ElicitationQueue(), asker, input_grace=0)
    async with app.run_test(size=SIZE) as pilot:
        modal = await wait_for_modal(pilot)
        assert isinstance(modal, ToolApprovalModal)
        await pilot.press(*keys)
        await wait_for(pilot, lambda: bool(asker.results))
    return asker.results[0]


@pytest.mark.parametrize(
    ("keys", "result"),
    [
        (["1"], ElicitationResult(action="accept", content={"scope": "once"})),
        (["y"], ElicitationResult(action="accept", content={"scope": "once"})),
        (["enter"], ElicitationResult(action="accept", content={"scope": "once"})),
        (["2"], ElicitationResult(action="accept", content={"scope": "session"})),
        (["down", "enter"], ElicitationResult(action="accept", content={"scope": "session"})),
        (["3"], ElicitationResult(action="accept", content={"scope": "always"})),
        (["4", "enter"], ElicitationResult(action="decline")),
        (
            ["n", *"use make test", "enter"],
            ElicitationResult(action="decline", content={"reason": "use make test"}),
        ),
        (["escape"], ElicitationResult(action="cancel")),
    ],
    ids=["1", "y", "enter", "2", "arrow", "3", "4", "n-reason", "escape"],
)
async def test_each_answer(keys: list[str], result: ElicitationResult) -> None:
    assert await approve(SHELL, *keys) == result


async def test_keys_typed_right_after_the_first_deny_in_one_burst_reach_the_reason_mounted_by_it() -> (
    None
):
    # The first Deny mounts the reason line; the keys after it (a 1 and a y among them, which
    # in the choices would allow the call) must wait for it and land in it, in order.
    second = {**SHELL, "summary": "Run the linter", "tool_call_id": "call_3"}
    asker = Asker(parse_request(SHELL), parse_request(second))
    app = ElicitationApp(ElicitationQueue(), asker, input_grace=0)
    async with app.run_test(size=SIZE) as pilot:
        modal = await wait_for_modal(pilot)
        mounted_before = bool(modal.query("#deny-reason"))
        burst(app, "4", *"try 1 way", "enter")
        # The same dialog, reused: its reason line is there already, emptied.
        assert await wait_for_modal(pilot, "Run the linter") is modal
        burst(app, "down", "down", "down", "enter", *"yes", "enter")
        await wait_for(pilot, lambda: len(asker.results) == 2)
    assert not mounted_before
    assert asker.results == [
        ElicitationResult(action="decline", content={"reason": "try 1 way"}),
        ElicitationResult(action="decline", content={"reason": "yes"}),
    ]


async def test_the_first_deny_mounts_one_widget_its_labelled_reason_field() -> None:
    app = ElicitationApp(ElicitationQueue(), Asker(parse_request(SHELL)), input_grace=0)
    async with app.run_test(size=SIZE) as pilot:
        modal = await wait_for_modal(pilot)
        body = modal.query_one("#body", VerticalScroll)
        before = len(body.query("*"))
        await pilot.press("n")
        reason = modal.query_one("#deny-reason", LabelledInput)
        row = screen_text(app).splitlines()[reason.region.y][reason.region.x :]
        assert len(body.query("*")) == before + 1
    assert row.startswith("✖ Deny · reason  optional, the agent reads it")


async def test_typing_a_reason_the_field_keeps_the_focus_and_no_key_then_allows() -> None:
    # A Tab (or a click on the call) took the focus to the call's scroll area, where the
    # rest of the reason was lost and its `y` allowed the call the person was denying.
    asker = Asker(parse_request(EDIT))
    app = ElicitationApp(ElicitationQueue(), asker, input_grace=0)
    async with app.run_test(size=SIZE) as pilot:
        modal = await wait_for_modal(pilot)
        await pilot.press("n", *"use", "tab", *"yarn", "shift+tab", "y")
        reason = modal.query_one("#deny-reason", Input)
        assert app.focused is reason
        await pilot.click("#arguments")
        await pilot.press("1", "e", "enter")
        await wait_for(pilot, lambda: bool(asker.results))
    assert asker.results == [
        ElicitationResult(action="decline", content={"reason": "useyarny1e"}),
    ]


async def test_escape_in_the_reason_goes_back_to_the_choices() -> None:
    result = await approve(EDIT, "n", *"no", "escape", "2")
    assert result == ElicitationResult(action="accept", content={"scope": "session"})


async def test_the_call_is_shown_as_json_and_diff() -> None:
    app = ElicitationApp(ElicitationQueue(), Asker(parse_request(EDIT)), input_grace=0)
    async with app.run_test(size=(100, 40)) as pilot:
        modal = await wait_for_modal(pilot)
        arguments = modal.query_one("#arguments", Static).content
        assert isinstance(arguments, Content)
        assert arguments.plain.strip() == '{\n  "path": "app/main.py"\n}'
        assert styled(arguments, '"app/main.py"').startswith("$text-success")  # a JSON string
        diff = modal.query_one("#diff", Static).content
        assert isinstance(diff, Content)
        assert diff.plain.strip() == EDIT["diff"].strip()
        assert styled(diff, "+app.health()") == "$text-success on $success-muted"
        assert not modal.query("#deny-reason")  # mounted by the first Deny
        await pilot.press("n")
        assert modal.query_one("#deny-reason").display
        assert modal.focused is modal.query_one("#deny-reason", Input)


async def test_a_string_of_several_lines_is_shown_as_its_lines() -> None:
    # Shown as JSON writes it, a script of 30 lines was one line of `\n`s, wrapped anywhere.
    script = 'echo "step 1"\nmake build \\n\t--fast\nexit 0\n'
    request = parse_request(
        {
            "kind": "tool_approval",
            "tool_name": "Bash",
            "tool_call_id": "c1",
            "arguments": {"command": script, "timeout": 60},
        }
    )
    app = ElicitationApp(ElicitationQueue(), Asker(request), input_grace=0)
    async with app.run_test(size=(100, 40)) as pilot:
        modal = await wait_for_modal(pilot)
        arguments = modal.query_one("#arguments", Static).content
        assert isinstance(arguments, Content)
        # Each line under the first, after the quote; a backslash and a tab as JSON writes them.
        assert arguments.plain.strip() == (
            "{\n"
            '  "command": "echo \\"step 1\\"\n'
            "              make build \\\\n\\t--fast\n"
            "              exit 0\n"
            '              ",\n'
            '  "timeout": 60\n'
            "}"
        )
        at = arguments.plain.index("exit 0")  # still in the string, styled as one
        covering = [span for span in arguments.spans if span.start < at < span.end]
        assert styled(arguments, '"echo') in [str(span.style) for span in covering]


async def test_an_argument_the_description_shows_takes_one_line() -> None:
    # A plan to approve was shown twice: as markdown above, then whole again as its argument.
    plan = "## Plan\n\n1. Add the endpoint\n2. Test it"
    request = ToolApprovalRequest(
        tool_name="ExitPlanMode", tool_call_id="p1", arguments={"plan": plan}, description=plan
    )
    app = ElicitationApp(ElicitationQueue(), Asker(request), input_grace=0)
    async with app.run_test(size=(100, 40)) as pilot:
        modal = await wait_for_modal(pilot)
        arguments = modal.query_one("#arguments", Static).content
        assert isinstance(arguments, Content)
        assert arguments.plain.strip().splitlines()[1].startswith('  "plan": "## Plan ⏎')
        assert len(arguments.plain.strip().splitlines()) == 3


def long_edit(lines: int) -> ElicitationApp:
    """An app whose agent asks to approve an edit adding `lines` lines."""
    diff = f"--- a/x\n+++ b/x\n@@ -0,0 +1,{lines} @@\n" + "".join(
        f"+line {n}\n" for n in range(lines)
    )
    request = parse_request({**EDIT, "diff": diff})
    return ElicitationApp(ElicitationQueue(), Asker(request), input_grace=0)


async def test_page_down_scrolls_a_long_diff() -> None:
    app = long_edit(60)
    async with app.run_test(size=SIZE) as pilot:
        modal = await wait_for_modal(pilot)
        call = modal.query_one("#call", VerticalScroll)
        assert call.scroll_y == 0 and call.max_scroll_y > 0
        # Its box says there is more, and how to see it.
        await wait_for(pilot, lambda: "PgDn/PgUp, Ctrl+End/Home: more" in screen_text(app))
        await pilot.press("pagedown")
        assert call.scroll_y > 0
        assert modal.is_current  # scrolling answers nothing


async def test_page_down_in_a_burst_scrolls_a_page_for_each_key() -> None:
    """Held down or sent at once (a terminal's key repeat, a multiplexer), every PgDn moves
    a page, not only the first of them."""
    app = long_edit(200)
    async with app.run_test(size=SIZE) as pilot:
        modal = await wait_for_modal(pilot)
        call = modal.query_one("#call", VerticalScroll)
        await pilot.press("pagedown")
        page = call.scroll_y
        assert page > 0
        burst(app, "pagedown", "pagedown", "pagedown", "pageup")
        await wait_for(pilot, lambda: call.scroll_y != page)
        await pilot.pause()
        assert call.scroll_y == 3 * page


async def test_ctrl_end_and_ctrl_home_take_a_long_call_to_its_end_and_top() -> None:
    """A patch of thousands of lines is hundreds of PgDn long; Home and End move in the list
    of answers. Sent at once, each key goes on from where the one before it went."""
    app = long_edit(2000)
    async with app.run_test(size=SIZE) as pilot:
        modal = await wait_for_modal(pilot)
        call = modal.query_one("#call", VerticalScroll)
        await pilot.press("ctrl+end")
        assert call.scroll_y == call.max_scroll_y > 0
        assert "arguments" in screen_text(app)  # the call's last box, under the diff
        await pilot.press("ctrl+home")
        assert call.scroll_y == 0
        await pilot.press("pagedown")
        page = call.scroll_y
        burst(app, "ctrl+end", "pageup", "ctrl+home", "pagedown", "ctrl+end", "pageup")
        await wait_for(pilot, lambda: call.scroll_y != page)
        await pilot.pause()
        assert call.scroll_y == call.max_scroll_y - page
        assert modal.is_current  # scrolling answers nothing


DEMO_EDIT = health_check_edit("call-2", "invoice-api")
"""The demo's edit: a diff of 12 lines for a call of one argument."""


@pytest.mark.parametrize(
    ("size", "last_row_shown"),
    [
        # Every added line, the room under the choices all the call's.
        ((80, 24), '+    return {"status": "ok"}'),
        # The diff's headers and its first lines, not the arguments (the reach, "in any
        # folder", takes two lines there).
        ((60, 20), ' app = FastAPI(title="invoice-api")'),
        # The whole call: no rows left empty while some of it is cut.
        ((100, 30), '"path": "invoice_api/main.py"'),
    ],
    ids=["80x24", "60x20", "100x30"],
)
async def test_the_diff_has_the_first_claim_on_the_room(
    size: tuple[int, int], last_row_shown: str
) -> None:
    app = ElicitationApp(ElicitationQueue(), Asker(DEMO_EDIT), input_grace=0)
    async with app.run_test(size=size) as pilot:
        await wait_for_modal(pilot)
        await pilot.pause()
        screen = screen_text(app)
        assert "--- a/invoice_api/main.py" in screen and last_row_shown in screen
        assert screen.index("diff") < screen.index("@@ -3,4 +3,9 @@")
        assert "4 Deny" in screen
        if size == (100, 30):
            assert "PgDn" not in screen
        else:
            # The rest scrolls, the first box says so; every row of the dialog is used.
            assert "diff · PgDn/PgUp, Ctrl+End/Home: more" in screen and "arguments" not in screen
            assert "4 Deny" in screen.splitlines()[-3]


async def test_arguments_the_diff_shows_take_one_line_each() -> None:
    body = "".join(f"line {n}\n" for n in range(30))
    request = parse_request(
        {
            **EDIT,
            "arguments": {"path": "app/notes.txt", "content": body, "mode": "w"},
            "diff": "--- /dev/null\n+++ b/app/notes.txt\n@@ -0,0 +1,30 @@\n"
            + "".join(f"+{line}\n" for line in body.splitlines()),
        }
    )
    app = ElicitationApp(ElicitationQueue(), Asker(request), input_grace=0)
    async with app.run_test(size=(100, 60)) as pilot:
        modal = await wait_for_modal(pilot)
        arguments = modal.query_one("#arguments", Static).content
        assert isinstance(arguments, Content)
        assert arguments.plain.splitlines() == [
            "{",
            '  "path": "app/notes.txt",',
            '  "content": "line 0 ⏎ line 1 ⏎ line 2 ⏎ line 3 ⏎ lin…",',
            '  "mode": "w"',
            "}",
        ]
        # The editor has it whole.
        await pilot.press("e")
        assert "line 29" in modal.query_one("#edited", TextArea).text


async def test_the_call_boxes_titles_stand_apart_from_their_rules() -> None:
    long_diff = "--- a/x\n+++ b/x\n@@ -0,0 +1,60 @@\n" + "".join(f"+line {n}\n" for n in range(60))
    for request, titles in [
        (parse_request(EDIT), ["─ diff ─", "─ arguments ─"]),
        (parse_request({**EDIT, "diff": long_diff}), ["─ diff · PgDn/PgUp, Ctrl+End/Home: more ─"]),
    ]:
        app = ElicitationApp(ElicitationQueue(), Asker(request), input_grace=0)
        async with app.run_test(size=(100, 40)) as pilot:
            await wait_for_modal(pilot)
            await pilot.pause()
            screen = screen_text(app)
            assert all(title in screen for title in titles), screen


async def test_a_call_that_fits_says_nothing_of_scrolling() -> None:
    app = ElicitationApp(ElicitationQueue(), Asker(parse_request(EDIT)), input_grace=0)
    async with app.run_test(size=(100, 40)) as pilot:
        modal = await wait_for_modal(pilot)
        await pilot.pause()
        assert modal.query_one("#call", VerticalScroll).max_scroll_y == 0
        assert "PgDn" not in screen_text(app)


@pytest.mark.parametrize(
    ("size", "beside"), [((80, 30), True), ((40, 30), False)], ids=["80 columns", "40 columns"]
)
async def test_a_hint_goes_under_its_label_where_it_does_not_fit_beside_it(
    size: tuple[int, int], beside: bool
) -> None:
    app = ElicitationApp(ElicitationQueue(), Asker(parse_request(EDIT)), input_grace=0)
    async with app.run_test(size=size) as pilot:
        await wait_for_modal(pilot)
        await pilot.pause()
        rows = [row.strip("│ ") for row in screen_text(app).splitlines()]
    # At 40 columns the column beside the labels held 8 cells: "tell the / agent no, / and why".
    deny = next(n for n, row in enumerate(rows) if row.startswith("4 Deny"))
    if beside:
        assert rows[deny].endswith("tell the agent no, and why")
    else:
        assert (rows[deny], rows[deny + 1]) == ("4 Deny", "tell the agent no, and why")


async def test_action_only_answers_close_the_modal_and_reach_the_agent() -> None:
    queue = ElicitationQueue()
    asker = Asker(parse_request(SHELL), parse_request(EDIT))
    app = ElicitationApp(queue, asker, input_grace=0)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for_modal(pilot, "Run the test suite")
        # Another front end (a protocol client) answers with the action alone.
        queue.respond("toolApproval:call_1", ElicitationResult(action="accept"))
        await wait_for_modal(pilot, "Add a health check")
        queue.respond("toolApproval:call_2", ElicitationResult(action="decline"))
        await wait_for(pilot, lambda: len(asker.results) == 2)
        timeline = app.query_one(Timeline)
        await wait_for(pilot, lambda: "✖" in timeline.cells("toolApproval:call_2")["outcome"])
        assert timeline.cells("toolApproval:call_1")["outcome"] == "✔ allowed once"
    assert asker.results == [
        ElicitationResult(action="accept"),
        ElicitationResult(action="decline"),
    ]


async def test_a_script_of_many_lines_is_allowed_for_the_session_by_a_reach_cut_short() -> None:
    # As the Claude Code hook asks a Bash call: remembered by its exact command. (One that
    # held a secret given earlier would not be offered for the session at all.)
    script = f"echo {'v' * 50}\nexport PGHOST=db.internal.example\n" + "\n".join(
        f"psql -c 'VACUUM ANALYZE table_{n}'" for n in range(1, 40)
    )
    request = parse_request(
        {
            "kind": "tool_approval",
            "tool_call_id": "t9",
            "tool_name": "Bash",
            "arguments": {"command": script},
            "remember": {"argument": "command", "pattern": script},
        }
    )
    asker = Asker(request)
    app = ElicitationApp(ElicitationQueue(), asker, input_grace=0)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for_modal(pilot)
        await pilot.pause()
        text = screen_text(app)
        # Every choice on screen, the reach of the second on one line cut with …, under
        # its label and each of its lines starting where the label does.
        assert all(f"{n} " in text for n in ("1 Allow once", "3 Always", "4 Deny"))
        reach = text[text.index("Bash in any folder, command =") : text.index("3 Always")]
        assert "⏎" in reach and "…" in reach and "table_1'" not in reach
        rows = text.splitlines()
        session = next(i for i, row in enumerate(rows) if "2 Allow for this session" in row)
        assert rows[session + 1].startswith("│   Bash in any folder, command = echo")
        assert rows[session + 2].startswith("│   ") and rows[session + 2][4] != " "
        await pilot.press("2")
        await wait_for(pilot, lambda: bool(asker.results))
    assert asker.results[0].content == {"scope": "session"}


@pytest.mark.parametrize("modules", [8, 60], ids=["whole", "both ends"])
async def test_a_glob_s_reach_is_shown_whole_or_with_both_its_ends(modules: int) -> None:
    # Cut at 100 characters as the one call a pattern matches is, a glob hid how far it
    # reached: the person allowed "always" without seeing where it ended.
    command = "uv run pytest -q " + " ".join(f"tests/test_m{n}.py" for n in range(modules))
    request = parse_request(
        {
            "kind": "tool_approval",
            "tool_call_id": "t10",
            "tool_name": "shell",
            "arguments": {"command": command},
            "remember": {"argument": "command", "pattern": command + "*"},
        }
    )
    app = ElicitationApp(ElicitationQueue(), Asker(request), input_grace=0)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for_modal(pilot)
        await pilot.pause()
        text = screen_text(app)
        reach = " ".join(
            row.strip("│ ")
            for row in text[
                text.index("shell in any folder, command ~") : text.index("3 Always")
            ].splitlines()
        ).strip()
        assert reach.startswith("shell in any folder, command ~ uv run pytest -q tests/test_m0.py")
        assert reach.endswith(f"tests/test_m{modules - 1}.py*, any other arguments")
        assert ("…" in reach) == (modules == 60)


@pytest.mark.parametrize("rows", [24, 21])
async def test_a_long_call_gives_up_rows_down_to_two_lines_before_the_body_scrolls(
    rows: int,
) -> None:
    # With a description and four answers, a long call had fewer than a list's five rows
    # left: the body scrolled instead, and opened with the question's top or the answers
    # out of view.
    steps = " && ".join(f"step{n} --flag=value{n}" for n in range(40))
    request = parse_request(
        {
            "kind": "tool_approval",
            "tool_call_id": "t11",
            "tool_name": "Bash",
            "description": "Run the release steps",
            "arguments": {"command": steps, "description": "Run the release steps"},
            "remember": {"argument": "command", "pattern": steps},
        }
    )
    app = ElicitationApp(ElicitationQueue(), Asker(request), input_grace=0)
    async with app.run_test(size=(80, rows)) as pilot:
        modal = await wait_for_modal(pilot)
        await pilot.pause()
        text = screen_text(app)
        assert modal.query_one("#body").max_scroll_y == 0
        for shown in ("Run the release steps", '"command": "step0', "1 Allow once", "4 Deny"):
            assert shown in text, shown
        call = modal.query_one("#call")
        assert call.outer_size.height >= 3 and call.max_scroll_y > 0


def claude_code_bash(command: object, cwd: str = "/tmp/explK/projA") -> ToolApprovalRequest:
    """The approval Claude Code's documented PermissionRequest input for a Bash call asks."""
    from tui.integrations.hooks.claude_code import ClaudeCodeHook

    data = {
        "session_id": "s1",
        "hook_event_name": "PermissionRequest",
        "tool_name": "Bash",
        "tool_input": {"command": command},
        "cwd": cwd,
    }
    request = ClaudeCodeHook().read(data, wait=30).request
    assert isinstance(request, ToolApprovalRequest)
    return request


async def test_an_unusual_space_in_a_command_shows_as_its_code_point_wherever_the_call_is() -> None:
    # `rm -rf a<NBSP>b` removes one file, `a b`, and read as `rm -rf a b`, two.
    app = ElicitationApp(ElicitationQueue(), input_grace=0)
    async with app.run_test(size=SIZE) as pilot:
        allowed = app.queue.submit(claude_code_bash("rm -rf a\u00a0b c\u3000d"))
        modal = await wait_for_modal(pilot)
        await wait_for(pilot, lambda: "Always" in screen_text(app))
        shown = screen_text(app)
        burst(app, "1")
        await wait_for(pilot, allowed.done)
    assert modal.request.message == "Bash: rm -rf a\u00a0b c\u3000d"  # kept, not made a space
    lines = [line for line in shown.splitlines() if "rm -rf" in line]
    assert len(lines) >= 3, shown  # the question, the arguments, the reach
    assert all("rm -rf a\\xa0b c\\u3000d" in line for line in lines), shown


async def test_a_shell_call_whose_command_is_not_text_is_allowed_once_or_denied_only() -> None:
    app = ElicitationApp(ElicitationQueue(), input_grace=0)
    async with app.run_test(size=SIZE) as pilot:
        allowed = app.queue.submit(claude_code_bash(["rm", "-rf", "/"]))
        await wait_for_modal(pilot)
        await wait_for(pilot, lambda: "Always" in screen_text(app))
        shown = screen_text(app)
        burst(app, "2", "3", "1")
        await wait_for(pilot, allowed.done)
    assert "not offered: no rule could keep to this call" in shown, shown
    assert "every Bash call" not in shown, shown
    assert allowed.result() == ElicitationResult(action="accept", content={"scope": "once"})


async def test_a_long_file_path_in_the_reach_keeps_its_file_name_and_cuts_its_front() -> None:
    # Cut in its middle, `…/internal/render…`: the file name, what the rule is about, was lost.
    from tui.integrations.hooks.claude_code import ClaudeCodeHook

    path = "/home/me/work/projA/" + "deeply/nested/" * 6 + "internal/render/frame_buffer.go"
    data = {
        "session_id": "s1",
        "hook_event_name": "PermissionRequest",
        "tool_name": "Edit",
        "tool_input": {"file_path": path, "old_string": "a", "new_string": "b"},
        "cwd": "/home/me/work/projA",
    }
    request = ClaudeCodeHook().read(data, wait=30).request
    app = ElicitationApp(ElicitationQueue(), input_grace=0)
    async with app.run_test(size=SIZE) as pilot:
        allowed = app.queue.submit(request)
        await wait_for_modal(pilot)
        await wait_for(pilot, lambda: "Always" in screen_text(app))
        shown = screen_text(app)
        burst(app, "escape")
        await wait_for(pilot, allowed.done)
    reach = shown[shown.index("2 Allow for this session") : shown.index("3 Always allow")]
    reach = " ".join(line.strip(" │") for line in reach.splitlines()[1:]).strip()
    assert "file_path = …" in reach and "/internal/render/frame_buffer.go," in reach, reach
    assert "Edit in work/projA, " in reach and reach.endswith(
        "any old_string, new_string and replace_all"
    ), reach


async def test_a_line_break_or_control_character_in_the_folder_keeps_each_line_whole() -> None:
    # A newline in the cwd's last name broke the header over two lines,
    # `Claude Code (\u202eAjorp␛[7m` / `) · ⏱ 28s`.
    app = ElicitationApp(ElicitationQueue(), input_grace=0)
    async with app.run_test(size=SIZE) as pilot:
        asked = app.queue.submit(claude_code_bash("make", cwd="/tmp/x/\u202eAjorp\n\x1b[7m\rz"))
        await wait_for_modal(pilot)
        await wait_for(pilot, lambda: "Always" in screen_text(app))
        rows = screen_text(app).splitlines()
        burst(app, "escape")
        await wait_for(pilot, asked.done)
    header = next(row for row in rows if "Claude Code" in row)
    assert "Claude Code (x/\\u202eAjorp ⏎ ␛[7m␍z) · ⏱" in header, rows
    assert any("Bash in x/\\u202eAjorp ⏎ ␛[7m␍z, command = make" in row for row in rows), rows


def kubectl(command: str) -> ToolApprovalRequest:
    request = parse_request(
        {
            "kind": "tool_approval",
            "tool_call_id": "c9",
            "tool_name": "Bash",
            "arguments": {"command": command},
            "remember": {"argument": "command", "pattern": "kubectl *"},
        }
    )
    assert isinstance(request, ToolApprovalRequest)
    return request


@pytest.mark.parametrize(
    ("command", "note"),
    [
        ("kubectl rollout restart deploy/api && kubectl rollout status deploy/api", "it has &&"),
        ("kubectl logs api | grep error", "it has |"),
        ("helm upgrade api ./chart", "the pattern does not match it"),
        ("kubectl get pods", None),
    ],
    ids=["and", "pipe", "no-match", "covered"],
)
async def test_a_rule_that_would_not_cover_the_call_itself_says_so_on_its_row(
    command: str, note: str | None
) -> None:
    # "2 Allow for this session / Bash in any folder, command ~ kubectl *" said nothing of the
    # `&&` no wildcard covers: the same call, made again by the same CI step, was asked again.
    app = ElicitationApp(ElicitationQueue(), input_grace=0)
    async with app.run_test(size=SIZE) as pilot:
        allowed = app.queue.submit(kubectl(command))
        await wait_for_modal(pilot)
        await wait_for(pilot, lambda: "Always" in screen_text(app))
        text = screen_text(app)
        await pilot.press("2")
        await wait_for(pilot, allowed.done)
    session = text[text.index("2 Allow for this session") : text.index("3 Always")]
    if note is None:
        assert "not this call again" not in session, text
    else:
        assert f"not this call again ({note})" in " ".join(session.replace("│", " ").split()), text
    assert allowed.result().content == {"scope": "session"}
