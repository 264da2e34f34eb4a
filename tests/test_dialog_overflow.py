"""A dialog taller than the screen fills it and its body scrolls, so that nothing of it is
out of reach, and the highlighted option of the list in use is always on screen."""

from __future__ import annotations

import re
import time
from typing import Any

import pexpect
import pytest
from app_driver import SIZE, screen_text, wait_for, wait_for_modal
from ask_on_a_pty import AskOnAPty
from asking import burst
from textual.pilot import Pilot

from tui import (
    ChoiceRequest,
    ConfirmationRequest,
    ElicitationApp,
    ElicitationQueue,
    MultiChoiceRequest,
    Request,
    TextRequest,
    ToolApprovalRequest,
)
from tui.cli.demo import scaffold_questions
from tui.core.models import ElicitationResult
from tui.core.options import Option
from widgets.base import ElicitationModal

REGIONS = [f"region-{n}" for n in range(1, 16)]

TALL_CHOICE = ChoiceRequest(
    message="Which region?",
    title="Deploy",
    description="Pick the region closest to your users.\n\nLatency matters more than price."
    "\n\nSee the runbook.",
    options=REGIONS,
)
"""With its title and description, too tall for 80x24 with every option's room."""


def asking(request: Request, results: list[ElicitationResult]) -> Any:
    def agent(queue: ElicitationQueue) -> None:
        results.append(queue.ask(request))

    return agent


def on_screen(app: ElicitationApp, option: str) -> bool:
    return re.search(rf"(?<![\w-]){re.escape(option)}(?![\w-])", screen_text(app)) is not None


async def test_the_highlight_moved_to_the_end_of_a_cut_list_is_on_screen() -> None:
    results: list[ElicitationResult] = []
    app = ElicitationApp(ElicitationQueue(), asking(TALL_CHOICE, results), input_grace=0)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for_modal(pilot, "Which region?")
        await pilot.pause()
        await pilot.press("end")
        await wait_for(pilot, lambda: on_screen(app, "region-15"))
        # In one burst, as a recording tool or a fast typist sends them.
        await pilot.press("up", "up", "down", "end", "up")
        await wait_for(pilot, lambda: on_screen(app, "region-14"))
        await pilot.press("enter")
        await wait_for(pilot, lambda: bool(results))
    assert results[0].content == "region-14"


async def overflowing_modal(pilot: Pilot[Any]) -> ElicitationModal[Any]:
    """The modal on screen once it has found itself too tall for the screen, laid out so."""
    modal = await wait_for_modal(pilot)
    await wait_for(pilot, lambda: modal.has_class("-overflow"))
    await pilot.pause()
    return modal


TALL_CHECKLIST = MultiChoiceRequest(
    message="Which extras?",
    title="Install",
    description="Each extra adds its dependencies.\n\nNone is needed to start.",
    options=[f"extra-{n}" for n in range(1, 21)],
)

TOP_EDGE, BOTTOM_EDGE = "▔" * 20, "▁" * 20
"""A run of a list's frame: its top and its bottom edge."""


def list_rows(app: ElicitationApp) -> list[str]:
    """The rows on screen between the list's top and bottom edge; [] if either is not."""
    rows = screen_text(app).splitlines()
    top = [i for i, row in enumerate(rows) if TOP_EDGE in row]
    bottom = [i for i, row in enumerate(rows) if BOTTOM_EDGE in row]
    if not top or not bottom:
        return []
    return rows[top[0] + 1 : bottom[0]]


@pytest.mark.parametrize(
    ("request_", "keys", "answer", "under"),
    [
        (TALL_CHOICE, ["end"], "region-15", "(15 of 15)"),
        (TALL_CHECKLIST, ["space", "end", "space"], ["extra-1", "extra-20"], "selected"),
    ],
    ids=["choice", "multi_choice"],
)
async def test_a_list_too_long_for_the_room_scrolls_in_its_whole_frame_and_the_rest_stays(
    request_: ChoiceRequest | MultiChoiceRequest, keys: list[str], answer: Any, under: str
) -> None:
    results: list[ElicitationResult] = []
    app = ElicitationApp(ElicitationQueue(), asking(request_, results), input_grace=0)
    async with app.run_test(size=SIZE) as pilot:
        await overflowing_modal(pilot)
        text = screen_text(app)
        # The list, cut by no edge, in the room its question and description leave.
        assert list_rows(app) and request_.description.splitlines()[0] in text
        assert under in text and request_.title in text
        await pilot.press(*keys)  # in one burst
        await wait_for(pilot, lambda: on_screen(app, request_.options[-1].value))
        await pilot.pause()
        text = screen_text(app)
        # The list scrolled itself: nothing above or under it has moved off the screen.
        assert list_rows(app) and request_.description.splitlines()[0] in text
        assert under in text and request_.title in text
        await pilot.press("enter")
        await wait_for(pilot, lambda: bool(results))
    assert results[0].content == answer


async def test_a_list_given_the_room_left_is_never_taller_than_its_options() -> None:
    ten = TALL_CHOICE.model_copy(update={"options": TALL_CHOICE.options[:10]})
    app = ElicitationApp(ElicitationQueue(), asking(ten, []), input_grace=0)
    async with app.run_test(size=(80, 21)) as pilot:
        modal = await overflowing_modal(pilot)
        assert len(list_rows(app)) == 7  # what the room leaves: its options scroll
        # Taller, as tall, then taller than it takes: a row for each option, none blank.
        for rows in (23, 24, 25, 26):
            await pilot.resize_terminal(80, rows)
            await pilot.pause()
            await pilot.pause()
            shown = list_rows(app)
            assert len(shown) == min(10, rows - 14), rows
            assert all("region-" in row for row in shown), rows
        assert not modal.has_class("-overflow")


async def test_under_a_description_too_long_for_the_room_the_list_keeps_its_height() -> None:
    request = ChoiceRequest(
        message="Which region?",
        description="\n\n".join(f"Paragraph {n} of the rules." for n in range(1, 21)),
        options=["eu", "us", "ap", "sa"],
    )
    app = ElicitationApp(ElicitationQueue(), asking(request, []), input_grace=0)
    async with app.run_test(size=SIZE) as pilot:
        modal = await overflowing_modal(pilot)
        # The body scrolls, its description cut at the top; the focused list is whole.
        assert modal.query_one("#body").max_scroll_y > 0
        assert [row.split()[3] for row in list_rows(app)] == ["eu", "us", "ap", "sa"]
        assert "Paragraph 1 " not in screen_text(app)


async def test_a_long_call_scrolls_in_the_room_its_tool_line_and_choices_leave() -> None:
    steps = "\n".join(f"echo step {n} && sleep 1" for n in range(1, 40))
    request = ToolApprovalRequest(
        message="Run this?", tool_call_id="c1", tool_name="bash", arguments={"command": steps}
    )
    results: list[ElicitationResult] = []
    app = ElicitationApp(ElicitationQueue(), asking(request, results), input_grace=0)
    async with app.run_test(size=SIZE) as pilot:
        modal = await overflowing_modal(pilot)
        # Which tool, whole, at the top; every choice under the call: the body has nothing
        # to scroll, the call scrolls in the room they leave.
        rows = screen_text(app).splitlines()
        assert rows[4].startswith("│ ⚙ bash · bash(") and "1 Allow once" in rows[-6]
        assert "4 Deny" in rows[-3] and modal.query_one("#body").max_scroll_y == 0
        await pilot.press("pagedown", "pagedown", "pagedown")
        await wait_for(pilot, lambda: "step 39 && sleep 1" in screen_text(app))
        assert screen_text(app).splitlines()[4].startswith("│ ⚙ bash · bash(")
        # With room for all of it, the dialog takes its own height: the call no taller than
        # its arguments.
        await pilot.resize_terminal(80, 60)
        await wait_for(pilot, lambda: not modal.has_class("-overflow"))
        assert modal.query_one("#call").max_scroll_y == 0
        await pilot.resize_terminal(*SIZE)
        await wait_for(pilot, lambda: modal.has_class("-overflow"))
        # Denying: the choices give way to the reason line, right above the dialog's edge
        # (no blank rows: the call takes all the room).
        await pilot.press("n", *"not now")
        await wait_for(pilot, lambda: "not now" in screen_text(app))
        await pilot.pause()
        rows = screen_text(app).splitlines()
        line = next(i for i, row in enumerate(rows) if "✖ Deny" in row)
        assert "╰" in rows[line + 1]
        # And it stays so: no layout after another, the dialog deciding again each time.
        layouts: list[object] = []
        modal.screen_layout_refresh_signal.subscribe(modal, layouts.append)
        await pilot.pause(0.3)
        assert layouts == []
        await pilot.press("enter")
        await wait_for(pilot, lambda: bool(results))
    assert results[0] == ElicitationResult(action="decline", content={"reason": "not now"})


async def test_once_the_screen_has_room_the_dialog_takes_its_own_height_again() -> None:
    app = ElicitationApp(ElicitationQueue(), asking(TALL_CHOICE, []), input_grace=0)
    async with app.run_test(size=SIZE) as pilot:
        modal = await wait_for_modal(pilot, "Which region?")
        await wait_for(pilot, lambda: modal.has_class("-overflow"))
        await pilot.resize_terminal(80, 40)
        await wait_for(pilot, lambda: not modal.has_class("-overflow"))
        await pilot.pause()
        # All of the list, down to its bottom edge, which the body had cut.
        assert on_screen(app, "region-1") and "▁" * 20 in screen_text(app)
        assert not modal.has_class("-overflow")
        await pilot.resize_terminal(*SIZE)
        await wait_for(pilot, lambda: modal.has_class("-overflow"))


async def test_a_field_cut_off_as_the_screen_shrinks_is_scrolled_back_into_view() -> None:
    request = TextRequest(
        message="Service name?",
        description="\n\n".join(f"Paragraph {n} of the naming rules." for n in range(1, 8)),
        placeholder="lowercase-with-dashes",
    )
    results: list[ElicitationResult] = []

    def agent(queue: ElicitationQueue) -> None:
        results.append(queue.ask(request))

    app = ElicitationApp(ElicitationQueue(), agent, input_grace=0)
    async with app.run_test(size=(80, 40)) as pilot:
        modal = await wait_for_modal(pilot, "Service name?")
        await wait_for(pilot, lambda: "lowercase-with-dashes" in screen_text(app))
        assert not modal.has_class("-overflow")
        # The field had the focus, and kept it, while the body could not scroll: now the
        # body must scroll to it, or the person types into a field they cannot see.
        await pilot.resize_terminal(80, 14)
        await wait_for(pilot, lambda: modal.has_class("-overflow"))
        await wait_for(pilot, lambda: "lowercase-with-dashes" in screen_text(app))
        await pilot.press("a", "p", "i", "enter")
        await wait_for(pilot, lambda: bool(results))
    assert results[0].content == "api"


async def test_a_text_area_too_tall_for_the_screen_keeps_the_line_typed_in_view() -> None:
    results: list[ElicitationResult] = []
    request = TextRequest(message="Release notes?", multiline=True)
    app = ElicitationApp(ElicitationQueue(), asking(request, results), input_grace=0)
    async with app.run_test(size=(100, 12)) as pilot:
        modal = await wait_for_modal(pilot, "Release notes?")
        for n in range(1, 8):
            await pilot.press(*f"line {n}", "enter")
        await pilot.press(*"TYPING HERE")
        await wait_for(pilot, lambda: "TYPING HERE" in screen_text(app))
        # The whole text area, its frame too, inside the dialog's.
        area = modal.query_one("#answer").region
        assert modal.query_one("#dialog").region.contains_region(area)
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: bool(results))
    lines = [f"line {n}" for n in range(1, 8)]
    assert results[0].content == "\n".join([*lines, "TYPING HERE"])


async def test_a_question_longer_than_the_screen_scrolls_and_its_answers_stay_on_screen() -> None:
    plan = "\n".join(f"Step {n}: migrate shard {n}." for n in range(1, 41))
    request = ConfirmationRequest(message=f"{plan}\nRun this plan?")
    results: list[ElicitationResult] = []

    def agent(queue: ElicitationQueue) -> None:
        results.append(queue.ask(request))

    app = ElicitationApp(ElicitationQueue(), agent, input_grace=0)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for_modal(pilot)
        await wait_for(pilot, lambda: "Scroll question" in screen_text(app))
        # The answers keep their room under the question's first lines.
        text = screen_text(app)
        assert "Step 1:" in text and "Yes" in text and "No" in text
        assert "Run this plan?" not in text
        # In one burst: more than it takes to reach the end, which it stays at.
        await pilot.press(*["shift+down"] * 40)
        await wait_for(pilot, lambda: "Run this plan?" in screen_text(app))
        assert "Step 1:" not in screen_text(app) and "Yes" in screen_text(app)
        await pilot.press("shift+up", "shift+up")
        await wait_for(pilot, lambda: "Run this plan?" not in screen_text(app))
        # Grown, the whole question fits: no scrolling, and no key for it in the footer.
        await pilot.resize_terminal(80, 60)
        await wait_for(pilot, lambda: "Scroll question" not in screen_text(app))
        text = screen_text(app)
        assert "Step 1:" in text and "Run this plan?" in text and "Yes" in text
        await pilot.press("y")
        await wait_for(pilot, lambda: bool(results))
    assert results[0].content is True


async def test_the_dialog_kept_after_a_long_question_shows_a_short_one_at_its_own_height() -> None:
    plan = "\n".join(f"Step {n}: migrate shard {n}." for n in range(1, 41))
    asked = [ConfirmationRequest(message=plan), ConfirmationRequest(message="Short one?")]
    results: list[ElicitationResult] = []

    def agent(queue: ElicitationQueue) -> None:
        results.extend(queue.ask(request) for request in asked)

    app = ElicitationApp(ElicitationQueue(), agent, input_grace=0)
    async with app.run_test(size=SIZE) as pilot:
        long = await wait_for_modal(pilot)
        await wait_for(pilot, lambda: "Scroll question" in screen_text(app))
        await pilot.press("y")
        short = await wait_for_modal(pilot, "Short one?")
        await wait_for(pilot, lambda: "Short one?" in screen_text(app))
        await pilot.pause()
        rows = screen_text(app).splitlines()
        top = next(i for i, row in enumerate(rows) if "╭" in row)
        bottom = next(i for i, row in enumerate(rows) if "╰" in row)
        await pilot.press("n")
        await wait_for(pilot, lambda: len(results) == 2)
    assert short is long  # the same dialog, kept for the next question of its shape
    assert "Scroll question" not in "\n".join(rows)
    # meta, question, a blank line, the buttons' three rows, inside the border
    assert bottom - top == 7
    assert [r.content for r in results] == [True, False]


async def test_a_long_title_takes_two_lines_cut_with_an_ellipsis_the_question_keeps_its_room() -> (
    None
):
    words = " ".join(f"step{n}" for n in range(300))
    asked = [
        ChoiceRequest(title=f"Plan: {words}", message="Deploy now?", options=["No", "Yes"]),
        ChoiceRequest(title="Rollback", message="Roll back?", options=["No", "Yes"]),
    ]
    results: list[ElicitationResult] = []

    def agent(queue: ElicitationQueue) -> None:
        results.extend(queue.ask(request) for request in asked)

    app = ElicitationApp(ElicitationQueue(), agent, input_grace=0)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for_modal(pilot)
        await wait_for(pilot, lambda: "Deploy now?" in screen_text(app))
        rows = screen_text(app).splitlines()
        titled = [row for row in rows if "step" in row]
        assert len(titled) == 2 and titled[0].split("│")[1].strip().startswith("Plan: step0")
        assert titled[1].split("│")[1].rstrip().endswith("…")
        assert on_screen(app, "No") and on_screen(app, "Yes")
        await pilot.press("2")
        # The same dialog, kept for the next question, shows its short title whole.
        await wait_for(pilot, lambda: "Roll back?" in screen_text(app))
        assert "Rollback" in screen_text(app) and "step" not in screen_text(app)
        await pilot.press("1")
        await wait_for(pilot, lambda: len(results) == 2)
    assert [r.content for r in results] == ["Yes", "No"]


def shows(terminal: AskOnAPty, *words: str, drawn: str = "") -> bool:
    """Whether `terminal` shows each of `words` whole, and `drawn`, within its wait."""

    def found() -> bool:
        lines = [line.split() for line in terminal.screen.display]
        return all(any(word in line for line in lines) for word in words) and (
            drawn in terminal.text
        )

    return terminal.shows(found)


def test_inline_on_a_short_terminal_the_dialog_fills_it_and_follows_the_highlight() -> None:
    options = [a for n in range(1, 16) for a in ("-o", f"opt-{n}")]
    with AskOnAPty("choice", "Pick one", *options, rows=12) as terminal:
        # As many options as the terminal has room for, not a dialog squeezed to one row: the
        # rows left by the question and the filter line, the list's frame whole around them.
        assert shows(terminal, "opt-1", "opt-3", drawn="▁" * 20)
        time.sleep(0.3)  # past the input grace period
        terminal.child.send("\x1b[F")  # End
        assert shows(terminal, "opt-15")
        terminal.child.send("\r")
        terminal.child.expect(pexpect.EOF)
        assert b'"content": "opt-15"' in terminal.child.before


LONG_DESCRIPTION = "\n".join(f"- line {n} of the description" for n in range(1, 31))
"""A description of 30 lines: with the question and its answers, too tall for 80x24."""


@pytest.mark.parametrize(
    ("request_", "answer_keys", "content"),
    [
        (
            ChoiceRequest(message="Pick one", description=LONG_DESCRIPTION, options=["a", "b"]),
            ["down", "enter"],
            "b",
        ),
        (ConfirmationRequest(message="Deploy?", description=LONG_DESCRIPTION), ["y"], True),
    ],
    ids=["choice", "confirmation"],
)
async def test_shift_up_brings_back_the_top_of_a_description_longer_than_the_screen(
    request_: Request, answer_keys: list[str], content: Any
) -> None:
    # The body keeps the answer in use on screen, so a long description opens cut at its
    # top: Shift+Up scrolls back to it, and the footer says so.
    results: list[ElicitationResult] = []
    app = ElicitationApp(ElicitationQueue(), asking(request_, results), input_grace=0)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for_modal(pilot)
        await wait_for(pilot, lambda: "⇧↑↓ Scroll question" in screen_text(app))
        assert "line 1 of" not in screen_text(app)
        # In one burst: more than it takes to reach the top, which it stays at.
        await pilot.press(*["shift+up"] * 40)
        await wait_for(pilot, lambda: "line 1 of" in screen_text(app))
        await pilot.press("shift+down", "shift+down")
        await wait_for(pilot, lambda: "line 1 of" not in screen_text(app))
        await pilot.press(*answer_keys)
        await wait_for(pilot, lambda: bool(results))
    assert results[0].action == "accept" and results[0].content == content


async def test_arrow_keys_sent_at_once_each_scroll_a_long_description_a_line() -> None:
    # The buttons of a confirmation leave Up and Down to the body, which glided from a target
    # set only after the next refresh: five Downs sent at once moved it three lines.
    request = ConfirmationRequest(message="Deploy?", description=LONG_DESCRIPTION)
    results: list[ElicitationResult] = []
    app = ElicitationApp(ElicitationQueue(), asking(request, results), input_grace=0)
    async with app.run_test(size=SIZE) as pilot:
        modal = await wait_for_modal(pilot)
        await wait_for(pilot, lambda: "⇧↑↓ Scroll question" in screen_text(app))
        body = modal.query_one("#body")
        # Once it has reached the answers it opens at (it glides there).
        await wait_for(pilot, lambda: body.scroll_y == body.max_scroll_y)
        start = body.scroll_y
        # A layout lands just before the keys, as one does at any time on a busy machine:
        # the answer it brought back into view after them undid two of them, or all five.
        modal.refresh(layout=True)
        burst(app, *["up"] * 5)
        await wait_for(pilot, lambda: body.scroll_y != start)
        await pilot.pause()
        assert body.scroll_y == start - 5
        burst(app, "down", "down", "up", "down")
        await wait_for(pilot, lambda: body.scroll_y == start - 3)
        await pilot.press("y")
        await wait_for(pilot, lambda: bool(results))
    assert results[0].content is True


INTEGRATION = (
    "Integration suite against the staging database, with the slow migration tests and the"
    " billing replay"
)
TYPES = (
    "Type-check every package of the monorepo with mypy --strict and pyright, and the plugin"
    " that checks the settings files"
)
LONG_CHECKS = MultiChoiceRequest(
    message="Which checks before the release?",
    options=[
        Option(label=INTEGRATION, value="integration", description="about 40 minutes, VPN"),
        "Lint",
        TYPES,
    ],
)


async def test_a_checklist_option_longer_than_its_line_wraps_and_is_read_whole() -> None:
    results: list[ElicitationResult] = []
    app = ElicitationApp(ElicitationQueue(), asking(LONG_CHECKS, results), input_grace=0)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for_modal(pilot)
        rows = list_rows(app)
        text = " ".join(" ".join(row.strip("│▊▎ ").split()) for row in rows)
        for option in LONG_CHECKS.options:
            assert option.label in text and (option.description or "") in text
        # One box per option, on its first line; what wraps starts under the label.
        assert sum(row.count("☐") for row in rows) == 3
        first = next(i for i, row in enumerate(rows) if "Integration" in row)
        assert rows[first + 1].index(rows[first + 1].strip("│▊▎ ")[0]) == rows[first].index("I")
        assert "…" not in text
        await pilot.press("down", "down", "space", "up", "space", "enter")  # in one burst
        await wait_for(pilot, lambda: bool(results))
    assert results[0].content == ["Lint", TYPES]


def test_inline_a_dialog_as_tall_as_the_terminal_settles_and_takes_keys() -> None:
    """A form a row short of overflowing 80x24 inline: overflowing, its button's margin goes
    and it fits; fitting, the margin comes back and it overflows. It went back and forth for
    ever, drawing an empty frame every other time, deaf to keys and SIGTERM."""
    schema = (
        '{"type":"object","properties":{"a":{"type":"string"},"t":{"type":"array",'
        '"items":{"type":"string","enum":["x","y"]}},"b":{"type":"string"},'
        '"c":{"type":"string"}}}'
    )
    with AskOnAPty("form", "Fill it", "--schema", schema) as terminal:
        assert terminal.shows(lambda: "Fill it" in terminal.text)
        time.sleep(0.5)  # past the input grace period, and time to go back and forth
        terminal.child.send("\x1b")
        terminal.child.expect(pexpect.EOF, timeout=10)
        terminal.child.close()
    assert terminal.child.exitstatus == 2


@pytest.mark.parametrize(
    ("request_", "size"),
    [
        (ConfirmationRequest(message="Deploy?", description=LONG_DESCRIPTION), SIZE),
        (TALL_CHOICE, SIZE),
        (TextRequest(message="Which file?", description=LONG_DESCRIPTION), SIZE),
        (scaffold_questions("billing-api"), (60, 20)),
    ],
    ids=["confirmation", "tall choice", "text", "batch with a preview at 60x20"],
)
async def test_a_dialog_taller_than_the_screen_comes_to_rest(
    request_: Request, size: tuple[int, int], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Laid out again before each scroll back to the answer, the batch asked for a scroll
    # after each layout and a layout before each scroll: it never rested, at full CPU, and
    # never took a key.
    runs = 0
    run_shows = ElicitationModal._run_shows

    def counted(modal: ElicitationModal[Any], *, lay_out: bool = False) -> None:
        nonlocal runs
        runs += 1
        if runs > 500:
            raise RuntimeError("the dialog never comes to rest")  # else the test hangs
        run_shows(modal, lay_out=lay_out)

    monkeypatch.setattr(ElicitationModal, "_run_shows", counted)
    results: list[ElicitationResult] = []
    app = ElicitationApp(ElicitationQueue(), asking(request_, results), input_grace=0)
    async with app.run_test(size=size) as pilot:
        modal = await wait_for_modal(pilot)
        await wait_for(pilot, lambda: modal.has_class("-overflow"))
        # At rest: no run for 0.3 s. On a loaded machine a late layout (the preview parsed
        # in its thread) may still ask for one or two: a count is what tells rest from a loop.
        deadline = time.monotonic() + 10
        before = -1
        while runs != before and time.monotonic() < deadline:
            before = runs
            await pilot.pause(0.3)
        assert runs == before, f"still scrolling after 10 s: {runs} runs"
        assert runs < 20
        await pilot.press("escape")
        await wait_for(pilot, lambda: bool(results))
    assert results[0].action == "cancel"
