"""Counts that keep the app quick: nothing of an answered question stays alive, and a long
option list builds only the rows it shows. (Counts, not times: timings live in benchmarks/.)"""

from __future__ import annotations

import asyncio
import gc
from collections import Counter
from collections.abc import Awaitable, Callable, Iterable
from typing import Any

import pytest
from app_driver import SIZE, error_line, screen_text, wait_for, wait_for_modal
from asking import Asker, burst
from rich.table import Table
from textual._styles_cache import StylesCache
from textual.pilot import Pilot
from textual.widget import Widget
from textual.widgets import Footer, Select
from textual.widgets._footer import FooterKey
from textual.widgets._select import SelectOverlay

from tui.app.app import ElicitationApp
from tui.core import models
from tui.core.models import (
    ChoiceRequest,
    ElicitationResult,
    FormRequest,
    MultiChoiceRequest,
    Question,
    QuestionsRequest,
    Request,
    TextRequest,
)
from tui.core.queue import ElicitationQueue
from widgets.key_footer import KeyFooter
from widgets.labelled_input import LabelledInput
from widgets.long_lists import LongOptionList
from widgets.long_selection_list import LongSelectionList
from widgets.page_strip import PageStrip
from widgets.questions import QuestionsModal
from widgets.timeline import MAX_ROWS, Timeline


def live_widgets() -> Counter[str]:
    gc.collect()
    return Counter(type(o).__name__ for o in gc.get_objects() if isinstance(o, Widget))


async def settled_widgets(pilot: Pilot[Any]) -> Counter[str]:
    """The live widgets once the modal answered last has been taken apart (Textual removes a
    dismissed screen's widgets a few frames later), or as they are after 50 frames."""
    for _ in range(50):
        counts = live_widgets()
        if counts["ChoiceModal"] <= 1:
            return counts
        await pilot.pause(0.02)
    return counts


async def nothing(n: int) -> None:
    """No check before an answer."""


def ask_all(requests: list[Request]) -> Any:
    def agent(queue: ElicitationQueue) -> None:
        for request in requests:
            queue.ask(request)

    return agent


def calls_of(monkeypatch: pytest.MonkeyPatch, owner: object, name: str) -> list[tuple[Any, ...]]:
    """The arguments of each call of `owner.name` from now on, as it goes on working."""
    calls: list[tuple[Any, ...]] = []
    original = getattr(owner, name)

    def recording(*args: Any) -> Any:
        calls.append(args)
        return original(*args)

    monkeypatch.setattr(owner, name, recording)
    return calls


def tracked_objects() -> int:
    gc.collect()
    return len(gc.get_objects())


async def answer_each(
    pilot: Pilot[Any], count: int, check: Callable[[int], Awaitable[None]]
) -> None:
    """Answer questions 0 to `count - 1` with Enter the moment each is on screen, calling
    `check(n)` with question n on screen, before its answer."""
    for n in range(count):
        await wait_for_modal(pilot, f"Question {n}?")
        await check(n)
        burst(pilot.app, "enter")


def live_styles_caches() -> int:
    gc.collect()
    return sum(isinstance(o, StylesCache) for o in gc.get_objects())


async def test_an_app_that_has_ended_keeps_none_of_its_widgets_rendered_lines() -> None:
    """A program may run the app again and again: an app that has ended keeps nothing of its
    widgets alive, not even through Textual's cache of styles by widget (Textual issue
    #6665, which kept up to 1,024 widgets' rendered lines), and each run leaves fewer than
    500 gc-tracked objects behind (it left about 4,000; a bare Textual app leaves about 300)."""

    async def run_once(n: int) -> None:
        question = ChoiceRequest(message=f"Question {n}?", options=["yes", "no"])
        app = ElicitationApp(ElicitationQueue(), ask_all([question]), input_grace=0)
        async with app.run_test(size=SIZE) as pilot:
            await wait_for_modal(pilot, f"Question {n}?")
            burst(app, "enter")
            await wait_for(pilot, lambda: app._prebuilt and app.screen is app.screen_stack[0])

    await run_once(0)
    await asyncio.sleep(0.1)
    # Counted from here: apps of earlier tests in this process may still be referenced (a
    # failed test's traceback, a snapshot report); the runs below must add nothing to them.
    caches_before = live_styles_caches()
    before = tracked_objects()
    runs = 5
    for n in range(runs):
        await run_once(n)
    # Callbacks the last app left on the event loop (its timers' handles) run out first.
    await asyncio.sleep(0.1)
    left = live_styles_caches() - caches_before
    grown = tracked_objects() - before
    assert left == 0
    assert grown / runs < 500


async def test_answered_questions_leave_no_widgets_and_no_garbage_behind() -> None:
    """With the 301st question on screen as many widgets are alive as with the 131st, and from
    the 101st to the 301st the gc-tracked objects grow by fewer than 15 per question: what a
    question leaves (its timeline row, cached renders) is bounded.

    (From the 20th row on, the timeline has a scroll bar: one widget more, once.)
    """
    first, widgets_from, last = 100, 130, 300
    requests: list[Request] = [
        ChoiceRequest(message=f"Question {n}?", options=["yes", "no"]) for n in range(last + 1)
    ]
    app = ElicitationApp(ElicitationQueue(), ask_all(requests), input_grace=0)
    widgets: dict[int, Counter[str]] = {}
    objects: dict[int, int] = {}

    async def count(n: int) -> None:
        # The timeline redraws whenever questions pause, which back to back is a matter of
        # timing: drawn at every question, each count holds the same bounded history (its
        # `MAX_ROWS` rows drawn), and drawing leaves no garbage either.
        app.query_one(Timeline)._draw()
        if n in (widgets_from, last):
            widgets[n] = await settled_widgets(pilot)
        if n in (first, last):
            await settled_widgets(pilot)
            objects[n] = tracked_objects()

    async with app.run_test(size=SIZE) as pilot:
        await answer_each(pilot, last + 1, count)
    grown = widgets[last] - widgets[widgets_from]
    assert sum(widgets[last].values()) == sum(widgets[widgets_from].values()), grown
    assert objects[last] - objects[first] < 15 * (last - first), objects


PORTS = [f"port {8000 + n}" for n in range(12)]


@pytest.mark.parametrize(
    ("ask", "modal", "content"),
    [
        (lambda n: ChoiceRequest(message=f"Question {n}?", options=PORTS), "ChoiceModal", PORTS[0]),
        (
            lambda n: MultiChoiceRequest(message=f"Question {n}?", options=PORTS),
            "MultiChoiceModal",
            [],
        ),
    ],
    ids=["choice", "checklist"],
)
async def test_long_lists_of_ports_back_to_back_build_their_footer_keys_once(
    monkeypatch: pytest.MonkeyPatch, ask: Callable[[int], Request], modal: str, content: object
) -> None:
    """A long list whose options hold digits (ports) offers no `1-9 Pick` (or `Tick`), its
    digits filter: the dialog set aside between such questions keeps the footer so, where it
    offered the digits there and the footer was built anew twice a question, once each way
    (the most garbage back-to-back questions left)."""
    requests = [ask(n) for n in range(8)]
    answered: list[ElicitationResult] = []

    def agent(queue: ElicitationQueue) -> None:
        # All waiting at once, as several agents' questions are: each Enter answers one and
        # the next is there already.
        futures = [queue.submit(request) for request in requests]
        answered.extend(future.result() for future in futures)

    app = ElicitationApp(ElicitationQueue(), agent, input_grace=0)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for_modal(pilot, "Question 0?")
        await pilot.pause(0.1)  # its footer built
        built_on: list[str] = []  # the screens whose footer was built
        build = Footer.recompose

        async def counted(footer: Footer) -> None:
            built_on.append(type(footer.screen).__name__)
            await build(footer)

        monkeypatch.setattr(Footer, "recompose", counted)
        # Each answered the moment it can be, no pause between them: typed ahead.
        burst(app, *["enter"] * len(requests))
        await wait_for(pilot, lambda: len(answered) == len(requests))
        await pilot.pause(0.1)
    assert [result.content for result in answered] == [content] * len(requests)
    # (The main screen's footer, in view again at the end, is built then.)
    assert modal not in built_on, built_on


async def test_the_main_screen_builds_its_keys_once_as_it_comes_back_after_a_question(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Back after the first question, the main screen built its footer's keys twice: first
    as for a timeline without rows (Quit alone), then, the question's row drawn a moment
    later, again with Enter's Open."""
    asker = Asker(ChoiceRequest(message="Pick?", options=["a", "b"]))
    app = ElicitationApp(ElicitationQueue(), asker, input_grace=0)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for_modal(pilot, "Pick?")
        main = app.screen_stack[0].query_one(KeyFooter)
        built: list[list[str]] = []  # the keys of each build of the main screen's footer
        compose = KeyFooter.compose

        def counted(footer: KeyFooter) -> Iterable[Widget]:
            widgets = list(compose(footer))
            if footer is main:
                built.append([w.description for w in widgets if isinstance(w, FooterKey)])
            return widgets

        monkeypatch.setattr(KeyFooter, "compose", counted)
        burst(app, "enter")
        await wait_for(pilot, lambda: bool(asker.results) and app.screen is app.screen_stack[0])
        timeline = app.query_one(Timeline)
        await wait_for(pilot, lambda: timeline.row_count == 1)
        await pilot.pause(0.1)  # what the drawn row set off has run
    assert built == [["Open", "Quit", "palette"]]


async def test_the_timeline_keeps_the_last_rows_and_shows_them_once_questions_stop() -> None:
    """Questions answered back to back: the table catches up once they stop, with the last
    `MAX_ROWS` requests, the newest answered, and the model forgets the older ones too."""
    total = MAX_ROWS + 20
    requests: list[Request] = [
        ChoiceRequest(message=f"Question {n}?", options=["yes", "no"]) for n in range(total)
    ]
    app = ElicitationApp(ElicitationQueue(), ask_all(requests), input_grace=0)
    async with app.run_test(size=SIZE) as pilot:
        await answer_each(pilot, total, nothing)
        timeline = app.query_one(Timeline)
        newest = requests[-1].id
        await wait_for(pilot, lambda: newest in timeline.rows)
        await wait_for(pilot, lambda: str(timeline.get_row(newest)[2]) == "✔ yes")
        keys = [key.value for key in timeline.rows]
    assert keys == [request.id for request in requests[-MAX_ROWS:]]
    with pytest.raises(KeyError):
        timeline.cells(requests[0].id)


async def test_the_timeline_is_redrawn_once_after_changes_closer_than_its_delay() -> None:
    """Each change starts the wait again: rows changing in a stream (questions asked back to
    back) are drawn once, when the stream stops, not every `redraw_delay` during it."""
    delay = 0.4
    app = ElicitationApp(ElicitationQueue(), input_grace=0)
    async with app.run_test(size=SIZE) as pilot:
        timeline = app.query_one(Timeline)
        timeline.redraw_delay = delay
        await pilot.pause(delay * 2)
        draws: list[int] = []
        draw = timeline._draw

        def counted_draw() -> None:
            draws.append(len(timeline._cells))
            draw()

        timeline._draw = counted_draw  # type: ignore[method-assign]
        for n in range(8):
            timeline.add_request(ChoiceRequest(message=f"Question {n}?", options=["yes"]), 0)
            await pilot.pause(delay / 4)
        during = list(draws)
        await wait_for(pilot, lambda: bool(draws), timeout=10)
        await pilot.pause(delay * 2)
    assert during == []
    assert draws == [8]


async def first_paint(pilot: Pilot[Any], message: str) -> Widget:
    modal = await wait_for_modal(pilot, message)
    await pilot.pause()
    return modal.query_one("#options")


async def test_a_long_choice_builds_only_the_rows_on_screen() -> None:
    options = [f"option {n}" for n in range(10_000)]
    request = ChoiceRequest(message="Which one?", options=options)
    app = ElicitationApp(ElicitationQueue(), ask_all([request]), input_grace=0)
    async with app.run_test(size=SIZE) as pilot:
        option_list = await first_paint(pilot, "Which one?")
        assert isinstance(option_list, LongOptionList)
        assert option_list.option_count == 10_000
        assert 0 < option_list.built_count <= option_list.size.height
        await pilot.press("end")
        await pilot.pause()
        assert option_list.highlighted == 9_999
        assert option_list.built_count <= 2 * option_list.size.height


async def test_a_long_checklist_builds_only_the_rows_on_screen() -> None:
    options = [f"option {n}" for n in range(10_000)]
    request = MultiChoiceRequest(message="Which ones?", options=options)
    app = ElicitationApp(ElicitationQueue(), ask_all([request]), input_grace=0)
    async with app.run_test(size=SIZE) as pilot:
        checklist = await first_paint(pilot, "Which ones?")
        assert isinstance(checklist, LongSelectionList)
        assert checklist.option_count == 10_000
        assert 0 < checklist.built_count <= checklist.size.height


async def test_a_long_enum_s_list_builds_only_the_rows_it_draws() -> None:
    labels = [f"option {n}" for n in range(10_000)]
    prop = {"type": "string", "title": "Pick", "enum": labels}
    request = FormRequest(
        message="Which one?", requested_schema={"type": "object", "properties": {"pick": prop}}
    )
    app = ElicitationApp(ElicitationQueue(), ask_all([request]), input_grace=0)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for_modal(pilot, "Which one?")
        await pilot.pause()
        select = app.screen.query_one(Select)
        overlay = select.query_one(SelectOverlay)
        assert isinstance(overlay, LongOptionList)
        assert overlay.built_count == 0  # closed: nothing drawn
        # type to search: each letter moves to the match, drawing (at most) a screenful there
        await pilot.press(*"9998")
        await pilot.pause()
        assert select.expanded
        assert 0 < overlay.built_count <= (len("9998") + 1) * overlay.size.height
        await pilot.press("enter")
        await pilot.pause()
        assert select.value == "option 9998"


async def test_a_form_request_s_schema_is_parsed_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Made, shown, answered: the schema of 10,000 options is read into options once."""
    parsed = calls_of(monkeypatch, models, "parse_schema")
    prop = {"type": "string", "enum": [f"option {n}" for n in range(10_000)]}
    schema = {"type": "object", "properties": {"pick": prop}, "required": ["pick"]}
    request = FormRequest(message="Which one?", requested_schema=schema)
    app = ElicitationApp(ElicitationQueue(), ask_all([request]), input_grace=0)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for_modal(pilot, "Which one?")
        await pilot.press(*"option 7", "enter", "ctrl+s")
        await pilot.pause()
    assert request.check_content({"pick": "option 7"}) == {"pick": "option 7"}
    assert len(parsed) == 1


async def test_a_batch_s_options_are_drawn_without_rich_s_table_layout(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A batch's options, measured and drawn for its first frame and again at each tick, go
    through Textual's own text layout: rich's table layout made up most of their cost."""
    laid_out = calls_of(monkeypatch, Table, "__rich_console__")
    questions = [
        Question(question="Which?", header="Pick", options=["Alpha", "Beta"], multi_select=True)
    ]
    request = QuestionsRequest(questions=questions)
    app = ElicitationApp(ElicitationQueue(), ask_all([request]), input_grace=0)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for_modal(pilot, "Which?")
        await pilot.press("space", "down", "space")
        await wait_for(pilot, lambda: "☑ 2 Beta" in screen_text(app))
    assert laid_out == []


TWO_QUESTIONS = QuestionsRequest(
    questions=[
        Question(question="Which?", header="One", options=["Alpha", "Beta"]),
        Question(question="Which ones?", header="Two", options=["Gamma"], multi_select=True),
    ]
)
"""A batch: a tab each, and a Review tab."""


async def test_a_batch_s_first_frame_is_made_of_fifteen_widgets_its_tab_strip_one() -> None:
    """Each widget of a dialog's first frame is mounted, styled and laid out before it: a
    batch of two questions has 15 (Textual's tab strip alone was 8, and a layout pass; the
    "Other" and "Note" lines were a label and a field in a row, 3 widgets each, now 1; the
    error line waits for something to say)."""
    app = ElicitationApp(ElicitationQueue(), ask_all([TWO_QUESTIONS]), input_grace=0)
    async with app.run_test(size=SIZE) as pilot:
        modal = await wait_for_modal(pilot)
        widgets = list(modal.query("*"))
        strips = list(modal.query(PageStrip))
        lines = list(modal.query(LabelledInput))
    assert len(widgets) == 15
    assert len(strips) == 1
    assert [line.label for line in lines] == ["Other", "Note"]


async def test_a_dialog_mounts_its_error_line_with_the_first_thing_it_says() -> None:
    asker = Asker(TextRequest(message="Name?", min_length=3), TextRequest(message="City?"))
    app = ElicitationApp(ElicitationQueue(), asker, input_grace=0)
    async with app.run_test(size=SIZE) as pilot:
        modal = await wait_for_modal(pilot, "Name?")
        before = len(modal.query("#error"))
        await pilot.press("enter")  # nothing typed: too short
        await wait_for(pilot, lambda: "at least 3" in error_line(modal))
        error = modal.query_one("#error")
        await wait_for(pilot, lambda: bool(error.region))
        regions = [modal.query_one(part).region for part in ("#body", "#error", KeyFooter)]
        burst(app, *"Ada", "enter")
        second = await wait_for_modal(pilot, "City?")
        said_then = error_line(second)
        await pilot.press("escape")
        await wait_for(pilot, lambda: len(asker.results) == 2)
    assert before == 0
    # Under the body, above the keys; and kept, hidden, for the next question of the dialog.
    body, line, footer = regions
    assert body.bottom <= line.y < footer.y
    assert second is modal and said_then == "" and not error.has_class("visible")
    assert asker.results[0].content == "Ada"


async def test_a_batch_s_review_is_built_when_it_is_shown_not_at_every_key(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    built = calls_of(monkeypatch, QuestionsModal, "_review")
    app = ElicitationApp(ElicitationQueue(), ask_all([TWO_QUESTIONS]), input_grace=0)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for_modal(pilot)
        await pilot.press("down", "1", "space", "down", "down", *"a note")
        await wait_for(pilot, lambda: "a note" in screen_text(app))
        while_answering = len(built)
        await pilot.press("tab")
        await wait_for(pilot, lambda: "Review ·" in screen_text(app))
    assert while_answering == 0
    assert built
