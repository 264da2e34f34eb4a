"""A question of the shape just answered is shown in the same modal, reloaded: it must show
the new request exactly as a fresh modal would, with nothing of the previous answer left."""

from __future__ import annotations

import threading
from typing import Any

import pyte
import pytest
from app_driver import SIZE, error_line, screen_text, wait_for, wait_for_modal
from asking import Asker, burst
from rich.console import Console
from textual._compositor import CompositorUpdate
from textual.color import Color
from textual.events import ScreenResume
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Button, Input, OptionList, Static, Switch, TextArea
from textual.widgets._footer import FooterKey

from tui.app.app import ElicitationApp
from tui.core.models import (
    ChoiceRequest,
    ConfirmationRequest,
    ElicitationResult,
    FormRequest,
    MultiChoiceRequest,
    Question,
    QuestionsRequest,
    Request,
    SecretRequest,
    TextRequest,
    ToolApprovalRequest,
)
from tui.core.queue import ElicitationQueue
from widgets.base import ElicitationModal
from widgets.checklist import Checklist
from widgets.question_pane import QuestionPane
from widgets.questions import SPARE_PANES

CANARY = "canary-7f3a9c"


def text_of(modal: ElicitationModal[Any], selector: str) -> str:
    return str(modal.query_one(selector, Static).render())


def app_for(asker: Asker) -> ElicitationApp:
    return ElicitationApp(ElicitationQueue(), asker, input_grace=0)


async def test_a_choice_of_the_same_shape_reloads_the_modal_with_the_new_options() -> None:
    asker = Asker(
        ChoiceRequest(
            message="Which database?", options=["pg", "sqlite", "mysql"], default="mysql"
        ),
        ChoiceRequest(message="Which region?", options=["eu", "us"], source="deployer"),
    )
    app = app_for(asker)
    async with app.run_test(size=SIZE) as pilot:
        first = await wait_for_modal(pilot, "Which database?")
        await pilot.press("enter")
        second = await wait_for_modal(pilot, "Which region?")
        assert second is first
        options = second.query_one(OptionList)
        shown = [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]
        highlighted = options.highlighted
        meta, message = text_of(second, "#meta"), text_of(second, "#message")
        await pilot.press("down", "enter")
        await wait_for(pilot, lambda: len(asker.results) == 2)
    assert shown == ["1 eu", "2 us"]
    assert highlighted == 0  # not where the previous default was
    assert (meta, message) == ("deployer", "Which region?")
    assert [r.content for r in asker.results] == ["mysql", "us"]


async def test_what_was_typed_is_gone_before_the_next_question() -> None:
    asker = Asker(
        TextRequest(message="Service name?"),
        TextRequest(message="Owner?", placeholder="team"),
        TextRequest(message="Motto?", default="ship it"),
    )
    app = app_for(asker)
    async with app.run_test(size=SIZE) as pilot:
        first = await wait_for_modal(pilot, "Service name?")
        burst(app, *"payments", "enter")
        await wait_for_modal(pilot, "Owner?")
        field = first.query_one("#answer", Input)
        empty, placeholder = field.value, field.placeholder
        burst(app, *"core", "enter")
        await wait_for_modal(pilot, "Motto?")
        default = first.query_one("#answer", Input).value
        await pilot.press("enter")
        await wait_for(pilot, lambda: len(asker.results) == 3)
    assert (empty, placeholder, default) == ("", "team", "ship it")
    assert [r.content for r in asker.results] == ["payments", "core", "ship it"]


async def test_a_secret_does_not_stay_in_the_modal_kept_for_the_next_one() -> None:
    asker = Asker(SecretRequest(message="API key?"), TextRequest(message="Anything else?"))
    app = app_for(asker)
    async with app.run_test(size=SIZE) as pilot:
        modal = await wait_for_modal(pilot, "API key?")
        burst(app, *CANARY, "ctrl+r", "enter")
        await wait_for_modal(pilot, "Anything else?")
        kept = [field.value for field in modal.query(Input)]
        revealed = modal.revealed
        await pilot.press("escape")
        await wait_for(pilot, lambda: len(asker.results) == 2)
    assert asker.results[0].content.get_secret_value() == CANARY
    assert kept == [""]
    assert not revealed


async def test_the_error_and_the_countdown_of_the_previous_question_are_not_shown() -> None:
    asker = Asker(
        TextRequest(message="Name?", min_length=3, timeout=600),
        TextRequest(message="City?"),
    )
    app = app_for(asker)
    async with app.run_test(size=SIZE) as pilot:
        modal = await wait_for_modal(pilot, "Name?")
        await pilot.press("enter")  # too short: the error line says so
        error_before = text_of(modal, "#error")
        meta_before = text_of(modal, "#meta")
        burst(app, *"Ada", "enter")
        await wait_for_modal(pilot, "City?")
        error_after, meta_after = text_of(modal, "#error"), text_of(modal, "#meta")
        count_after = text_of(modal, "#count")
        error_shown = modal.query_one("#error").has_class("visible")
        await pilot.press("escape")
        await wait_for(pilot, lambda: len(asker.results) == 2)
    assert "at least 3" in error_before and "⏱" in meta_before
    assert (error_after, meta_after, count_after, error_shown) == ("", "agent", "", False)


async def test_a_checklist_is_refilled_with_the_new_options_and_their_defaults() -> None:
    asker = Asker(
        MultiChoiceRequest(message="Which checks?", options=["lint", "test", "docs"]),
        MultiChoiceRequest(message="Which targets?", options=["x86", "arm"], default=["arm"]),
    )
    app = app_for(asker)
    async with app.run_test(size=SIZE) as pilot:
        first = await wait_for_modal(pilot, "Which checks?")
        await pilot.press("space", "down", "space", "enter")
        second = await wait_for_modal(pilot, "Which targets?")
        checklist = second.query_one(Checklist)
        count = text_of(second, "#count")
        options = checklist.option_count
        await pilot.press("enter")
        await wait_for(pilot, lambda: len(asker.results) == 2)
    assert second is first
    assert (options, count) == (2, "1 selected")
    assert [r.content for r in asker.results] == [["lint", "test"], ["arm"]]


async def test_confirmation_labels_and_the_default_follow_the_new_request() -> None:
    asker = Asker(
        ConfirmationRequest(message="Deploy?", yes_label="Ship", default=True),
        ConfirmationRequest(message="Delete?", no_label="Keep"),
    )
    app = app_for(asker)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for_modal(pilot, "Deploy?")
        await pilot.press("enter")
        modal = await wait_for_modal(pilot, "Delete?")
        labels = [str(button.label) for button in modal.query(Button)]
        await pilot.press("enter")
        await wait_for(pilot, lambda: len(asker.results) == 2)
    assert labels == ["Yes", "Keep"]
    assert [r.content for r in asker.results] == [True, False]  # Enter: each one's default


async def test_a_different_shape_gets_its_own_modal() -> None:
    asker = Asker(
        TextRequest(message="One line?"),
        TextRequest(message="Many lines?", multiline=True, default="a\nb"),
        TextRequest(message="One line again?"),
    )
    app = app_for(asker)
    async with app.run_test(size=SIZE) as pilot:
        single = await wait_for_modal(pilot, "One line?")
        await pilot.press("enter")
        multi = await wait_for_modal(pilot, "Many lines?")
        area = multi.query_one(TextArea).text
        await pilot.press("ctrl+s")
        again = await wait_for_modal(pilot, "One line again?")
        await pilot.press("enter")
        await wait_for(pilot, lambda: len(asker.results) == 3)
    assert multi is not single and again is single
    assert area == "a\nb"
    assert [r.content for r in asker.results] == ["", "a\nb", ""]


async def test_the_footer_keys_are_not_rebuilt_for_a_question_of_the_same_shape() -> None:
    questions = [ChoiceRequest(message=f"Question {n}?", options=["a", "b"]) for n in range(5)]
    asker = Asker(*questions)
    app = app_for(asker)
    async with app.run_test(size=SIZE) as pilot:
        modal = await wait_for_modal(pilot, "Question 0?")
        await wait_for(pilot, lambda: bool(modal.query(FooterKey)))
        keys = list(modal.query(FooterKey))
        for n in range(1, 5):
            await pilot.press("enter")
            await wait_for_modal(pilot, f"Question {n}?")
            await pilot.pause()
        still = list(modal.query(FooterKey))
        await pilot.press("enter")
        await wait_for(pilot, lambda: len(asker.results) == 5)
    assert len(keys) > 3
    assert all(a is b for a, b in zip(keys, still, strict=True))
    assert [r.action for r in asker.results] == ["accept"] * 5


async def test_answers_keep_arriving_in_order_when_the_agent_asks_in_a_burst() -> None:
    questions = [TextRequest(message=f"Word {n}?") for n in range(20)]
    asker = Asker(*questions)
    app = app_for(asker)
    async with app.run_test(size=SIZE) as pilot:
        for n in range(20):
            await wait_for_modal(pilot, f"Word {n}?")
            burst(app, *f"w{n}", "enter")
        await wait_for(pilot, lambda: len(asker.results) == 20)
    expected = [ElicitationResult(action="accept", content=f"w{n}") for n in range(20)]
    assert asker.results == expected


async def test_a_reloaded_modal_is_painted_as_it_resumes_not_at_its_next_update_tick(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A screen shown again at its old size is otherwise painted by its update timer, whose
    # ticks keep the pace of the frames of the question before: up to a frame later.
    log: list[tuple[str, Any]] = []
    tick = Timer._tick

    async def logged_tick(timer: Timer, *, next_timer: float, count: int) -> None:
        if timer.name == "screen_update":
            log.append(("tick", timer._target()))
        await tick(timer, next_timer=next_timer, count=count)

    monkeypatch.setattr(Timer, "_tick", logged_tick)
    resume = ElicitationModal.on_screen_resume

    def logged_resume(modal: ElicitationModal[Any], event: ScreenResume) -> None:
        log.append(("resume", modal))
        resume(modal, event)

    monkeypatch.setattr(ElicitationModal, "on_screen_resume", logged_resume)
    asker = Asker(
        ChoiceRequest(message="First?", options=["north", "south"]),
        ChoiceRequest(message="Second?", options=["east", "west"]),
    )
    app = app_for(asker)
    async with app.run_test(size=SIZE) as pilot:
        display = app._display

        def logged_display(screen: Screen[Any], update: Any) -> None:
            display(screen, update)
            shows_second = isinstance(update, CompositorUpdate) and "east" in "".join(
                update.render_segments(app.console)
            )
            log.append(("frame with the second question" if shows_second else "frame", screen))

        app._display = logged_display  # type: ignore[method-assign]
        first = await wait_for_modal(pilot, "First?")
        log.clear()
        await pilot.press("enter")
        second = await wait_for_modal(pilot, "Second?")
        await wait_for(pilot, lambda: ("frame with the second question", second) in log)
        await pilot.press("enter")
        await wait_for(pilot, lambda: len(asker.results) == 2)
    assert second is first
    resumed = log.index(("resume", second))
    shown = log.index(("frame with the second question", second))
    # (A tick left over from the first question may paint it even before it resumes.)
    assert ("tick", second) not in log[resumed:shown]


class GatedAsker(Asker):
    """An Asker that waits for `go` before each request after the first."""

    def __init__(self, *requests: Any) -> None:
        super().__init__(*requests)
        self.go = threading.Event()

    def __call__(self, queue: ElicitationQueue) -> str:
        for n, request in enumerate(self.requests):
            if n:
                self.go.wait(10)
                self.go.clear()
            self.results.append(queue.ask(request))
        return "done"


async def test_a_theme_chosen_while_the_modal_was_kept_shows_when_it_is_reloaded() -> None:
    asker = GatedAsker(TextRequest(message="Service name?"), TextRequest(message="Owner?"))
    app = app_for(asker)
    async with app.run_test(size=SIZE) as pilot:
        app.theme = "textual-dark"
        first = await wait_for_modal(pilot, "Service name?")
        dark = first.query_one("#dialog").styles.background
        await pilot.press("enter")
        await wait_for(pilot, lambda: len(asker.results) == 1)
        app.theme = "textual-light"
        await pilot.pause()
        asker.go.set()
        second = await wait_for_modal(pilot, "Owner?")
        light = second.query_one("#dialog").styles.background
        expected = app.current_theme.to_color_system().generate()["surface"]
        await pilot.press("enter")
        await wait_for(pilot, lambda: len(asker.results) == 2)
    assert second is first
    assert light != dark
    assert light == Color.parse(expected)


def form(title: str, **fields: dict[str, Any]) -> FormRequest:
    return FormRequest(
        message=title,
        requested_schema={"type": "object", "properties": fields, "required": list(fields)[:1]},
    )


FIRST_FORM = form(
    "Deploy where?",
    host={"type": "string", "title": "Host", "description": "where it runs"},
    port={"type": "integer", "title": "Port", "minimum": 1, "maximum": 65535},
    token={"type": "string", "title": "Token", "format": "password"},
    tls={"type": "boolean", "title": "TLS"},
)

SECOND_FORM = form(
    "Who owns it?",
    team={"type": "string", "title": "Team", "description": "the owners", "default": "infra"},
    budget={"type": "integer", "title": "Budget", "default": 9},
    email={"type": "string", "title": "Contact", "format": "email"},
    paging={"type": "boolean", "title": "Paging", "default": True},
)


async def test_a_form_of_the_same_fields_is_shown_as_a_fresh_one_would_be() -> None:
    asker = Asker(FIRST_FORM, SECOND_FORM)
    app = app_for(asker)
    async with app.run_test(size=SIZE) as pilot:
        first = await wait_for_modal(pilot, "Deploy where?")
        burst(app, *"db1", "tab", *"99999", "ctrl+s")  # the port is out of range: refused
        await wait_for(pilot, lambda: "Port" in error_line(first))
        burst(app, *["backspace"] * 5, *"5432", "tab", *CANARY, "tab", "space", "ctrl+s")
        second = await wait_for_modal(pilot, "Who owns it?")
        assert second is first
        # the switch's knob is in place at once, not sliding over from the last answer
        assert not app.animator.is_being_animated(second.query_one(Switch), "_slider_position")
        await pilot.pause()
        reloaded = screen_text(app)
        values = [str(i.value) for i in second.query(Input)]
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: len(asker.results) == 2)
    fresh_app = app_for(Asker(SECOND_FORM))
    async with fresh_app.run_test(size=SIZE) as pilot:
        await wait_for_modal(pilot, "Who owns it?")
        await pilot.pause()
        fresh = screen_text(fresh_app)
    token = asker.results[0].content.pop("token")
    assert token.get_secret_value() == CANARY
    assert asker.results[0].content == {"host": "db1", "port": 5432, "tls": True}
    assert asker.results[1].content == {"team": "infra", "budget": 9, "paging": True}
    assert values == ["infra", "9", ""]
    assert CANARY not in reloaded
    assert reloaded == fresh


async def test_what_was_typed_in_a_form_is_dropped_once_it_is_answered() -> None:
    asker = Asker(FIRST_FORM)
    app = app_for(asker)
    async with app.run_test(size=SIZE) as pilot:
        modal = await wait_for_modal(pilot, "Deploy where?")
        burst(app, *"db1", "tab", *"5432", "tab", *CANARY, "tab", "space", "ctrl+s")
        await wait_for(pilot, lambda: len(asker.results) == 1)
        await pilot.pause()
        kept = [str(i.value) for i in modal.query(Input)], modal.query_one(Switch).value
    assert asker.results[0].content["token"].get_secret_value() == CANARY
    assert kept == (["", "", ""], False)


FIRST_PICKS = form(
    "Which size?",
    size={"type": "string", "title": "Size", "enum": ["s", "m", "l"], "default": "m"},
    extras={"type": "array", "title": "Extras", "items": {"enum": ["auth", "logs", "cdn"]}},
)

SECOND_PICKS = form(
    "Which tier?",
    tier={"type": "string", "title": "Tier", "enum": ["free", "pro", "team"], "default": "team"},
    regions={
        "type": "array",
        "title": "Regions",
        "items": {"enum": ["eu", "us", "ap"]},
        "default": ["us"],
    },
)


async def test_pick_lists_of_as_many_rows_are_refilled_as_a_fresh_form_shows_them() -> None:
    asker = Asker(FIRST_PICKS, SECOND_PICKS)
    app = app_for(asker)
    async with app.run_test(size=SIZE) as pilot:
        first = await wait_for_modal(pilot, "Which size?")
        burst(app, "up", "tab", "space", "down", "space", "ctrl+s")
        second = await wait_for_modal(pilot, "Which tier?")
        await pilot.pause()
        reloaded = screen_text(app), [c.highlighted for c in second.query(OptionList)]
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: len(asker.results) == 2)
    fresh_app = app_for(Asker(SECOND_PICKS))
    async with fresh_app.run_test(size=SIZE) as pilot:
        shown = await wait_for_modal(pilot, "Which tier?")
        await pilot.pause()
        fresh = screen_text(fresh_app), [c.highlighted for c in shown.query(OptionList)]
    assert second is first
    assert asker.results[0].content == {"size": "s", "extras": ["auth", "logs"]}
    assert asker.results[1].content == {"tier": "team", "regions": ["us"]}
    assert reloaded == fresh


async def test_a_form_with_a_long_list_of_options_is_composed_afresh() -> None:
    regions = [f"region-{i}" for i in range(12)]
    with_options = form("Which region?", region={"type": "string", "enum": regions})
    asker = Asker(with_options, with_options)
    app = app_for(asker)
    async with app.run_test(size=SIZE) as pilot:
        first = await wait_for_modal(pilot, "Which region?")
        await pilot.press("escape")
        await wait_for(pilot, lambda: len(asker.results) == 1)
        second = await wait_for_modal(pilot, "Which region?")
        await pilot.press("escape")
        await wait_for(pilot, lambda: len(asker.results) == 2)
    assert second is not first


async def test_a_long_form_of_the_same_fields_is_reloaded_field_by_field() -> None:
    def long_form(name: str) -> FormRequest:
        fields = {f"{name}_{i}": {"type": "string", "default": f"{name} {i}"} for i in range(30)}
        return form(f"{name}?", **fields)

    asker = Asker(long_form("alpha"), long_form("beta"))
    app = app_for(asker)
    async with app.run_test(size=SIZE) as pilot:
        first = await wait_for_modal(pilot, "alpha?")
        await wait_for(pilot, lambda: len(first.query(Input)) == 30)
        burst(app, "end", *"!", "ctrl+s")
        second = await wait_for_modal(pilot, "beta?")
        values = [str(i.value) for i in second.query(Input)]
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: len(asker.results) == 2)
    assert second is first
    assert values == [f"beta {i}" for i in range(30)]
    assert asker.results[0].content["alpha_0"] == "alpha 0!"
    assert asker.results[1].content == {f"beta_{i}": f"beta {i}" for i in range(30)}


@pytest.mark.parametrize(
    ("earlier", "keys", "later", "typed"),
    [
        (
            TextRequest(message="Name?"),
            (*"db1", "enter"),
            TextRequest(message="Motto?", default="ship it"),
            ("x", "enter"),
        ),
        (FIRST_FORM, (*"db1", "ctrl+s"), SECOND_FORM, ("x", "ctrl+s")),
    ],
)
async def test_typing_over_a_reloaded_default_replaces_it_as_in_a_fresh_modal(
    earlier: TextRequest | FormRequest,
    keys: tuple[str, ...],
    later: TextRequest | FormRequest,
    typed: tuple[str, ...],
) -> None:
    # The field keeps the focus from the answer before: no focus event selects its default.
    answers = []
    for requests in ([later], [earlier, later]):
        asker = Asker(*requests)
        app = app_for(asker)
        async with app.run_test(size=SIZE) as pilot:
            if len(requests) == 2:
                await wait_for_modal(pilot, earlier.message)
                burst(app, *keys)
            await wait_for_modal(pilot, later.message)
            burst(app, *typed)
            count = len(requests)
            await wait_for(pilot, lambda asker=asker, count=count: len(asker.results) == count)
        answers.append(asker.results[-1].content)
    fresh, reloaded = answers
    assert reloaded == fresh
    assert fresh in ("x", {"team": "x", "budget": 9, "paging": True})


async def test_a_form_whose_inputs_take_other_types_is_shown_in_the_same_modal() -> None:
    # Every input is a text input, its field's check saying what the type refuses.
    asker = Asker(
        form("How many?", count={"type": "integer", "title": "Count"}),
        form("Which name?", name={"type": "string", "title": "Name"}),
    )
    app = app_for(asker)
    async with app.run_test(size=SIZE) as pilot:
        first = await wait_for_modal(pilot, "How many?")
        burst(app, *"3", "ctrl+s")
        second = await wait_for_modal(pilot, "Which name?")
        burst(app, *"abc", "ctrl+s")
        await wait_for(pilot, lambda: len(asker.results) == 2)
        valid = second.query_one(Input).is_valid
    assert second is first
    assert valid
    assert [r.content for r in asker.results] == [{"count": 3}, {"name": "abc"}]


FIRST_CALL = ToolApprovalRequest(
    tool_name="shell", arguments={"command": "rm -rf build"}, tool_call_id="call-1"
)
SECOND_CALL = ToolApprovalRequest(
    tool_name="deploy",
    summary="Deploy payments to staging",
    arguments={"env": "staging", "replicas": 3},
    tool_call_id="call-2",
)


async def test_a_tool_call_is_shown_in_the_kept_approval_as_a_fresh_one_would_be() -> None:
    asker = Asker(FIRST_CALL, SECOND_CALL)
    app = app_for(asker)
    async with app.run_test(size=SIZE) as pilot:
        first = await wait_for_modal(pilot, FIRST_CALL.message)
        # The arguments edited, then left; then denied with a reason.
        burst(app, "e", *CANARY, "escape", "4", *f"no {CANARY}", "enter")
        second = await wait_for_modal(pilot, SECOND_CALL.message)
        assert second is first
        await pilot.pause()
        reloaded = screen_text(app)
        classes = set(second.classes)
        # Ctrl+S from the editor allows the call as it is there: exactly the second's arguments.
        burst(app, "e", "ctrl+s")
        await wait_for(pilot, lambda: len(asker.results) == 2)
    fresh_app = app_for(Asker(SECOND_CALL))
    async with fresh_app.run_test(size=SIZE) as pilot:
        await wait_for_modal(pilot, SECOND_CALL.message)
        await pilot.pause()
        fresh = screen_text(fresh_app)
    assert [(r.action, r.content) for r in asker.results] == [
        ("decline", {"reason": f"no {CANARY}"}),
        ("accept", {"scope": "once"}),
    ]
    assert "editing" not in classes and "denying" not in classes
    assert CANARY not in reloaded
    assert reloaded == fresh


async def test_what_was_typed_in_an_approval_is_dropped_once_it_is_answered() -> None:
    asker = Asker(FIRST_CALL)
    app = app_for(asker)
    async with app.run_test(size=SIZE) as pilot:
        modal = await wait_for_modal(pilot, FIRST_CALL.message)
        burst(app, "e", *CANARY, "escape", "4", *CANARY, "enter")
        await wait_for(pilot, lambda: len(asker.results) == 1)
        await pilot.pause()
        kept = modal.query_one("#deny-reason", Input).value, modal.query_one(TextArea).text
    assert asker.results[0].content == {"reason": CANARY}
    assert kept == ("", "")


async def test_a_tool_call_with_a_diff_gets_its_own_modal_and_the_next_one_reloads_it() -> None:
    calls = [
        ToolApprovalRequest(tool_name="shell", arguments={"command": "ls"}, tool_call_id="c1"),
        *(
            ToolApprovalRequest(
                tool_name="edit",
                arguments={"path": f"{name}.py"},
                diff=f"--- a/{name}.py\n+++ b/{name}.py\n@@ -1 +1 @@\n-old_{name}\n+new_{name}\n",
                tool_call_id=name,
            )
            for name in ("alpha", "beta")
        ),
    ]
    asker = Asker(*calls)
    app = app_for(asker)
    async with app.run_test(size=SIZE) as pilot:
        plain = await wait_for_modal(pilot, calls[0].message)
        await pilot.press("4", "enter")
        with_diff = await wait_for_modal(pilot, calls[1].message)
        await pilot.press("4", "enter")
        again = await wait_for_modal(pilot, calls[2].message)
        await pilot.pause()
        shown = screen_text(app)
        # The same tool as the call before: its choices stay, the highlight goes back up.
        highlighted = again.query_one("#choices", OptionList).highlighted
        await pilot.press("1")
        await wait_for(pilot, lambda: len(asker.results) == 3)
    assert with_diff is not plain and again is with_diff
    assert "+new_beta" in shown and "alpha" not in shown
    assert highlighted == 0 and "every edit call" in shown
    assert [r.action for r in asker.results] == ["decline", "decline", "accept"]


def terminal_frames(app: ElicitationApp, shown: str) -> list[str]:
    """Once the app draws `shown`, every frame it draws, as a terminal shows it (a frame
    updates only what changed)."""
    terminal = pyte.Screen(*SIZE)
    stream = pyte.ByteStream(terminal)
    frames: list[str] = []
    display = app._display

    def emulated(screen: Screen[Any], update: Any) -> None:
        display(screen, update)
        if isinstance(update, CompositorUpdate):
            stream.feed(update.render_segments(app.console).encode())
            if frames or any(shown in line for line in terminal.display):
                frames.append("\n".join(terminal.display))

    app._display = emulated  # type: ignore[method-assign]
    return frames


@pytest.mark.parametrize(
    "first, second",
    [
        (
            ChoiceRequest(message="Region?", options=["eu", "us"]),
            ChoiceRequest(message="Zones?", options=["ab", "cd"]),
        ),
        (TextRequest(message="Service?"), TextRequest(message="Owners?")),
        (ConfirmationRequest(message="Deploy?"), ConfirmationRequest(message="Revert?")),
    ],
    ids=["choice", "text", "confirmation"],
)
async def test_a_question_in_a_kept_dialog_is_drawn_whole_in_its_first_frame(
    first: Request, second: Request
) -> None:
    # The dialog is the same size for both, and the screen under it is drawn between them:
    # a first frame of only what changed would show the new question without its frame.
    asker = Asker(first, second)
    app = app_for(asker)
    async with app.run_test(size=SIZE) as pilot:
        frames = terminal_frames(app, second.message)
        await wait_for_modal(pilot, first.message)
        burst(app, "enter" if isinstance(first, ChoiceRequest) else "escape")
        await wait_for_modal(pilot, second.message)
        for _ in range(3):
            await pilot.pause()
        settled = frames[-1]
        burst(app, "escape")
        await wait_for(pilot, lambda: len(asker.results) == 2)
    assert "╭" in settled
    assert frames[0] == settled


def batch(message: str, single: tuple[str, list[str]], multi: tuple[str, list[str]]) -> Any:
    """A batch of a pick-one question and a pick-any one, each with "Other" and a note."""
    return QuestionsRequest(
        message=message,
        questions=[
            Question(question=single[0], header=single[0].split()[-1], options=single[1]),
            Question(
                question=multi[0], header=multi[0].split()[-1], options=multi[1], multi_select=True
            ),
        ],
    )


FIRST_BATCH = batch(
    "Set up the service",
    ("Which framework?", ["Flask", "Django", "FastAPI"]),
    ("Which features?", ["Auth", "Cache", "Metrics"]),
)
SECOND_BATCH = batch(
    "Set up the data",
    ("Which database?", ["pg", "sqlite"]),
    ("Which regions?", ["eu", "us", "ap"]),
)
TYPED = ("xyzzy-other", "plugh-note")
"""Typed for the first batch; neither may show in the second."""


async def screens_of_a_batch(pilot: Any, questions: int = 2) -> list[str]:
    """The screen on each page of the batch shown: each question, then Review."""
    app = pilot.app
    screens = []
    for _ in range(questions + 1):
        await pilot.pause()
        screens.append(screen_text(app))
        await pilot.press("tab")
    return screens


def underline_rows(frames: list[str]) -> list[str]:
    """The tab strip's underline row of each of `frames`."""
    return [line for frame in frames for line in frame.splitlines() if "╸" in line]


async def test_a_batch_of_the_same_shape_is_shown_as_a_fresh_one_would_be() -> None:
    asker = Asker(FIRST_BATCH, SECOND_BATCH)
    app = app_for(asker)
    async with app.run_test(size=SIZE) as pilot:
        frames = terminal_frames(app, "Set up the data")
        first = await wait_for_modal(pilot, "Set up the service")
        # Django (and on), tick Auth, "Other" and a note, Review, submit: in one burst.
        burst(app, "2", "1", *TYPED[0], "down", *TYPED[1], "enter", "enter")
        second = await wait_for_modal(pilot, "Set up the data")
        assert second is first
        await wait_for(pilot, lambda: bool(frames))
        drawn_before_a_key = underline_rows(frames)
        reloaded = await screens_of_a_batch(pilot)
        burst(app, "shift+tab", "shift+tab", "1", "2", "3", "enter", "enter")
        await wait_for(pilot, lambda: len(asker.results) == 2)
    fresh_app = app_for(Asker(SECOND_BATCH))
    async with fresh_app.run_test(size=SIZE) as pilot:
        await wait_for_modal(pilot, "Set up the data")
        fresh = await screens_of_a_batch(pilot)
    assert asker.results[0].content == {
        "answers": {"Which framework?": "Django", "Which features?": ["Auth", TYPED[0]]},
        "notes": {"Which features?": TYPED[1]},
    }
    assert asker.results[1].content == {
        "answers": {"Which database?": "pg", "Which regions?": ["us", "ap"]},
        "notes": {},
    }
    assert not [typed for typed in TYPED for screen in reloaded if typed in screen]
    assert reloaded == fresh
    # From its first frame, the underline is under the new first label, as in a fresh batch,
    # not at the width of the last batch's.
    fresh_underline = next(row for row in fresh[0].splitlines() if "╸" in row)
    assert set(drawn_before_a_key) == {fresh_underline}


async def test_a_kept_batch_dialog_holds_nothing_of_the_answers_given_in_it() -> None:
    """Its Review page, hidden until the next batch's Review is shown, is emptied with the
    rest of what was typed, not left holding the last batch's answers."""
    asker = Asker(FIRST_BATCH, SECOND_BATCH)
    app = app_for(asker)
    async with app.run_test(size=SIZE) as pilot:
        first = await wait_for_modal(pilot, "Set up the service")
        burst(app, "2", "1", *TYPED[0], "down", *TYPED[1], "enter")
        await wait_for(pilot, lambda: TYPED[0] in screen_text(app))  # on the Review tab
        burst(app, "enter")
        second = await wait_for_modal(pilot, "Set up the data")
        await pilot.pause()
        console = Console(width=100, color_system=None)
        with console.capture() as captured:
            console.print(second.query_one("#page-review", Static).content)
    assert second is first
    review = captured.get()
    assert not [typed for typed in TYPED if typed in review]


LONGER_BATCH = QuestionsRequest(
    message="Set up the deploy",
    questions=[
        Question(question="Which cloud?", header="Cloud", options=["aws", "gcp", "azure"]),
        Question(question="Which size?", options=["small", "large"], allow_other=False),
        Question(
            question="Which alerts?",
            header="Alerts",
            options=["pager", "mail"],
            multi_select=True,
            allow_other=False,
        ),
    ],
)
"""Its first question of the first batch's first shape, the others of shapes it has not."""


async def test_batches_of_other_lengths_and_later_questions_are_shown_as_fresh_ones_would_be() -> (
    None
):
    # One dialog shows them all: its first question's shape decides it; a later question's
    # pane is taken from an earlier batch if one of its shape is there, else made.
    asker = Asker(FIRST_BATCH, LONGER_BATCH, SECOND_BATCH, LONGER_BATCH)
    app = app_for(asker)
    reloaded = []
    async with app.run_test(size=SIZE) as pilot:
        frames = terminal_frames(app, "Set up the deploy")
        first = await wait_for_modal(pilot, "Set up the service")
        burst(app, "2", *TYPED[0], "down", *TYPED[1], "enter", "enter")
        longer = await wait_for_modal(pilot, "Set up the deploy")
        await wait_for(pilot, lambda: bool(frames))
        drawn_before_a_key = underline_rows(frames)
        reloaded.append(await screens_of_a_batch(pilot, 3))
        longer_panes = list(longer.panes)
        # aws, large, pager and mail, submit: in one burst.
        burst(app, "shift+tab", "shift+tab", "shift+tab", "1", "2", "1", "2", "enter", "enter")
        shorter = await wait_for_modal(pilot, "Set up the data")
        reloaded.append(await screens_of_a_batch(pilot, 2))
        burst(app, "shift+tab", "shift+tab", "2", "3", "enter", "enter")
        again = await wait_for_modal(pilot, "Set up the deploy")
        reloaded.append(await screens_of_a_batch(pilot, 3))
        # Kept aside while the shorter batch was shown, not built again.
        again_panes = list(again.panes)
        burst(app, "escape")
        await wait_for(pilot, lambda: len(asker.results) == 4)
    fresh = []
    for request, count in ((LONGER_BATCH, 3), (SECOND_BATCH, 2)):
        async with app_for(Asker(request)).run_test(size=SIZE) as pilot:
            await wait_for_modal(pilot, request.message)
            fresh.append(await screens_of_a_batch(pilot, count))
    assert first is longer is shorter is again
    assert again_panes == longer_panes
    assert [r.content for r in asker.results[1:3]] == [
        {
            "answers": {
                "Which cloud?": "aws",
                "Which size?": "large",
                "Which alerts?": ["pager", "mail"],
            },
            "notes": {},
        },
        {"answers": {"Which database?": "sqlite", "Which regions?": ["ap"]}, "notes": {}},
    ]
    assert asker.results[3].action == "cancel"
    assert not [
        typed for typed in TYPED for screens in reloaded for screen in screens if typed in screen
    ]
    assert reloaded == [fresh[0], fresh[1], fresh[0]]
    fresh_underline = next(row for row in fresh[0][0].splitlines() if "╸" in row)
    assert set(drawn_before_a_key) == {fresh_underline}


async def test_a_dialog_keeps_a_bounded_number_of_panes_from_earlier_batches() -> None:
    def numbered(count: int, topic: str) -> QuestionsRequest:
        return QuestionsRequest(
            message=f"{count} {topic}",
            questions=[
                Question(question=f"{topic} {n}?", options=["a", "b"]) for n in range(count)
            ],
        )

    many, few = numbered(12, "Service"), numbered(2, "Region")
    asker = Asker(many, few, many)
    app = app_for(asker)
    async with app.run_test(size=SIZE) as pilot:
        first = await wait_for_modal(pilot, many.message)
        burst(app, *"1" * 12, "enter")
        second = await wait_for_modal(pilot, few.message)
        # The 10 panes this batch has no question for: 8 are kept aside, 2 are removed.
        await wait_for(pilot, lambda: len(second.query(QuestionPane)) == 2 + SPARE_PANES)
        burst(app, "2", "2", "enter")
        third = await wait_for_modal(pilot, many.message)
        burst(app, *"2" * 12, "enter")
        await wait_for(pilot, lambda: len(asker.results) == 3)
        panes_once_all_shown = len(third.query(QuestionPane))
    assert first is second is third
    assert panes_once_all_shown == 12
    assert [r.content["answers"] for r in asker.results] == [
        {f"Service {n}?": "a" for n in range(12)},
        {f"Region {n}?": "b" for n in range(2)},
        {f"Service {n}?": "b" for n in range(12)},
    ]


async def test_a_batch_of_another_shape_gets_its_own_modal() -> None:
    lone = QuestionsRequest(questions=[Question(question="Which one?", options=["a", "b"])])
    asker = Asker(FIRST_BATCH, lone)
    app = app_for(asker)
    async with app.run_test(size=SIZE) as pilot:
        first = await wait_for_modal(pilot, "Set up the service")
        burst(app, "1", "1", "enter", "enter")
        second = await wait_for_modal(pilot, "Which one?")
        await pilot.press("2")
        await wait_for(pilot, lambda: len(asker.results) == 2)
    assert second is not first
    assert asker.results[1].content == {"answers": {"Which one?": "b"}, "notes": {}}


async def test_a_reloaded_batch_shows_the_preview_of_its_own_first_option() -> None:
    def with_previews(label: str) -> Any:
        lines = "\n\n".join(f"line {i}" for i in range(30))  # longer than the pane
        options = [
            {"label": f"{label} {n}", "preview": f"preview of {label} {n}\n\n{lines}"}
            for n in (1, 2)
        ]
        return QuestionsRequest(questions=[Question(question=f"{label}?", options=options)])

    asker = Asker(with_previews("Left"), with_previews("Right"))
    app = app_for(asker)
    async with app.run_test(size=SIZE) as pilot:
        first = await wait_for_modal(pilot, "Left?")
        await pilot.press("down")
        await wait_for(pilot, lambda: "preview of Left 2" in screen_text(app))
        await pilot.pause()
        pane = first.query_one(".preview-pane")
        pane.scroll_to(y=5, animate=False, immediate=True)
        scrolled = pane.scroll_y
        await pilot.press("enter")
        second = await wait_for_modal(pilot, "Right?")
        shown = screen_text(app)  # the first frame, before any message is handled
        scrolled_after = pane.scroll_y
        await pilot.press("enter")
        await wait_for(pilot, lambda: len(asker.results) == 2)
    assert second is first
    assert (scrolled, scrolled_after) == (5, 0)
    assert "preview of Right 1" in shown
    assert "Left" not in shown
    assert asker.results[1].content == {"answers": {"Right?": "Right 1"}, "notes": {}}


async def test_a_highlight_sent_before_the_reload_shows_nothing_of_the_last_batch() -> None:
    def with_previews(label: str, count: int) -> Any:
        options = [{"label": f"{label} {n}", "preview": f"about {label} {n}"} for n in range(count)]
        return QuestionsRequest(questions=[Question(question=f"{label}?", options=options)])

    asker = Asker(with_previews("Left", 3), with_previews("Right", 2))
    app = app_for(asker)
    async with app.run_test(size=SIZE) as pilot:
        first = await wait_for_modal(pilot, "Left?")
        options = first.query_one(".options", OptionList)
        # As the list sends it when its last option is highlighted, held until the reload.
        late = OptionList.OptionHighlighted(options, options.get_option_at_index(2), 2)
        await pilot.press("enter")
        await wait_for_modal(pilot, "Right?")
        options.post_message(late)
        await pilot.pause()
        shown = screen_text(app)
        await pilot.press("enter")
        await wait_for(pilot, lambda: len(asker.results) == 2)
    assert "about Right 0" in shown
    assert "Left" not in shown
    assert asker.results[1].content == {"answers": {"Right?": "Right 0"}, "notes": {}}


async def test_a_reloaded_batch_renders_its_first_preview_once(monkeypatch: Any) -> None:
    from textual.widgets import Markdown

    rendered: list[str] = []
    update = Markdown.update

    def counted(self: Markdown, markdown: str) -> Any:
        rendered.append(markdown)
        return update(self, markdown)

    monkeypatch.setattr(Markdown, "update", counted)

    def with_previews(label: str) -> Any:
        options = [{"label": f"{label} {n}", "preview": f"about {label} {n}"} for n in (1, 2)]
        return QuestionsRequest(questions=[Question(question=f"{label}?", options=options)])

    asker = Asker(with_previews("Left"), with_previews("Right"))
    app = app_for(asker)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for_modal(pilot, "Left?")
        await pilot.pause()
        await pilot.press("enter")
        await wait_for_modal(pilot, "Right?")
        await pilot.pause()
        await pilot.press("enter")
        await wait_for(pilot, lambda: len(asker.results) == 2)
    # Shown at once as the pane is loaded; the list's highlight of the same option adds none.
    assert rendered.count("about Right 1") == 1
