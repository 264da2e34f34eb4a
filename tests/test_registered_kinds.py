"""A request kind of one's own: registered once, asked like any kind, recorded and replayed,
refused clearly where it cannot be shown."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, ClassVar, Literal

import pexpect
import pytest
from app_driver import SIZE, screen_text, wait_for, wait_for_modal
from level_kind import TOP, LevelModal, LevelRequest
from pydantic import BaseModel, ValidationError, create_model
from stock_widget_kinds import LinesRequest, NameRequest, PaletteRequest, PinRequest, SizeRequest
from textual.color import Color
from textual.widgets._footer import FooterKey
from tinted_kinds import README_RULE, RateRequest, RateV2Request

from tui import ElicitationApp, ElicitationQueue, ElicitationResult, RequestBase, register_kind
from tui.app.replay_app import ReplayApp
from tui.cli.plain import PlainPrompter
from tui.core.models import parse_request
from tui.examples.card_picker import EXAMPLE_CARDS, Card, CardRequest, ask_for_a_file
from tui.examples.card_picker_modal import CardPickerModal
from tui.testing.scripted import ImpossibleAnswerError, ScriptedResponder
from tui.transcript.reader import read_transcript
from tui.transcript.timing import Timing

REPO = Path(__file__).resolve().parent.parent


class NoteRequest(RequestBase):
    """A kind registered without a modal: no front end here can show it."""

    kind: Literal["sticky_note"] = "sticky_note"


register_kind(NoteRequest)


def card_request(message: str = "Which file should I open next?") -> CardRequest:
    return CardRequest(message=message, cards=EXAMPLE_CARDS)


def asking(request: RequestBase, results: list[ElicitationResult]) -> ElicitationApp:
    """An app whose agent asks `request` and appends its result to `results`."""
    return ElicitationApp(
        ElicitationQueue(), lambda queue: results.append(queue.ask(request)), input_grace=0
    )


def test_parse_request_builds_a_registered_kind_and_names_it_among_the_known_ones() -> None:
    data = {"kind": "card", "message": "Pick", "cards": [{"name": "a", "preview": "A"}]}
    request = parse_request(data)
    assert isinstance(request, CardRequest)
    assert request.cards[0].name == "a"
    with pytest.raises(ValidationError) as unknown:
        parse_request({"kind": "tarot", "message": "Pick"})
    assert "'card'" in str(unknown.value)
    assert "'text'" in str(unknown.value)
    assert "'tarot'" in str(unknown.value)
    with pytest.raises(ValidationError, match=r"card\.cards"):
        parse_request({"kind": "card", "message": "Pick", "cards": []})


def test_a_kind_is_registered_once_and_only_by_a_request_model() -> None:
    class OtherCard(RequestBase):
        kind: Literal["card"] = "card"

    with pytest.raises(ValueError, match=r"already registered by tui\.examples\.card_picker"):
        register_kind(OtherCard)
    with pytest.raises(TypeError, match="must subclass RequestBase"):
        register_kind(dict)  # type: ignore[type-var]
    for wrong in ("tui.examples.card_picker_modal.CardPickerModal", "pkg.mod:", ":Modal", "a b:C"):
        with pytest.raises(ValueError, match=r"package\.module:ClassName"):
            register_kind(CardRequest, modal=wrong)

    class PlainKind(RequestBase):
        kind: str = "plain_kind"

    # Taken, it broke every refusal of `parse_request`: "needs field 'kind' to be of type
    # Literal", not the field that was wrong.
    with pytest.raises(ValueError, match="must declare its kind as a Literal with that default"):
        register_kind(PlainKind)
    with pytest.raises(ValidationError, match=r"text\.message"):
        parse_request({"kind": "text", "message": ""})


def test_a_content_type_declared_as_a_field_is_refused_naming_the_kind_and_the_fix() -> None:
    # Registered, the kind's requests lost their line in every transcript (a type is no JSON)
    # and an asker could choose the type: `"content_type": "str"` took any text as a count.
    with pytest.warns(UserWarning, match="shadows an attribute"):

        class CountRequest(RequestBase):
            kind: Literal["count_field"] = "count_field"
            content_type: Any = int

    with pytest.raises(ValueError) as refused:
        register_kind(CountRequest)
    assert str(refused.value) == (
        "CountRequest (kind 'count_field') declares content_type as a field; declare it as a"
        " class variable, like content_type: ClassVar[Any] = int"
    )
    with pytest.raises(ValidationError):
        parse_request({"kind": "count_field", "message": "How many?"})


class Colour(BaseModel):
    name: str


class ColourRequest(RequestBase):
    """A kind whose content type is given by its name, as an annotation may be."""

    kind: Literal["colour_by_name"] = "colour_by_name"
    content_type: ClassVar[Any] = "Colour"


class ColoursRequest(RequestBase):
    """A kind whose content type names a type inside a list, as an annotation may."""

    kind: Literal["colours_by_name"] = "colours_by_name"
    content_type: ClassVar[Any] = list["Colour"]


def colour_of(name: str) -> Colour:
    return Colour(name=name)


class PathRequest(RequestBase):
    """A kind whose content type is a class pydantic has no validator for."""

    kind: Literal["plain_path"] = "plain_path"
    content_type: ClassVar[Any] = io.StringIO


def test_a_content_type_pydantic_cannot_validate_is_refused_as_the_kind_is_registered() -> None:
    # Taken, the first answer failed: "PydanticUserError: TypeAdapter[Colour] is not fully
    # defined", shown to the person answering.
    fix = "; give a type pydantic can validate: the type itself, not its name"
    with pytest.raises(ValueError) as by_name:
        register_kind(ColourRequest)
    assert str(by_name.value) == (
        "ColourRequest (kind 'colour_by_name'): content_type 'Colour' cannot type an answer"
        f" (a type's name, not the type){fix}"
    )
    with pytest.raises(ValueError) as inside:
        register_kind(ColoursRequest)
    assert str(inside.value) == (
        "ColoursRequest (kind 'colours_by_name'): content_type list['Colour'] cannot type an"
        f" answer (PydanticUndefinedAnnotation: name 'Colour' is not defined){fix}"
    )
    # Taken, each typed answers by something else than a type: "int" by whatever the
    # module reading it calls int, a function by calling it with the answer's fields,
    # BaseModel by an empty model whatever the dialog gave.
    for content_type, problem in [
        ("int", "a type's name, not the type"),
        (colour_of, "a function, which pydantic would call with the answer"),
        (BaseModel, "BaseModel itself, which keeps no field of an answer"),
    ]:

        class Misread(RequestBase):
            kind: Literal["misread"] = "misread"

        Misread.content_type = content_type
        with pytest.raises(ValueError) as misread:
            register_kind(Misread)
        assert f"cannot type an answer ({problem}){fix}" in str(misread.value)
    with pytest.raises(ValueError) as unknown:
        register_kind(PathRequest)
    assert str(unknown.value).startswith(
        "PathRequest (kind 'plain_path'): content_type <class '_io.StringIO'> cannot type an"
        " answer (PydanticSchemaGenerationError: Unable to generate pydantic-core schema"
    )
    assert str(unknown.value).endswith(fix)
    with pytest.raises(ValidationError, match="colour_by_name"):
        parse_request({"kind": "colour_by_name", "message": "Which?"})


def test_the_content_type_and_check_content_keep_scripted_answers_to_real_cards() -> None:
    queue = ElicitationQueue()
    ScriptedResponder(queue, {"Which file should I open next?": "Makefile"})
    assert queue.ask(card_request()).content == "Makefile"
    queue = ElicitationQueue()
    ScriptedResponder(queue, {"Other?": "Dockerfile"})
    with pytest.raises(ImpossibleAnswerError, match="'Dockerfile' is not one of the cards"):
        queue.ask(card_request(message="Other?"))


class LookupRequest(RequestBase):
    """A kind whose own check raises what a lookup does, not a ValueError."""

    kind: Literal["lookup_check"] = "lookup_check"

    def check_content(self, content: Any) -> Any:
        return {"teal": "#008080"}[content]


register_kind(LookupRequest)


def test_a_check_content_raising_a_key_error_refuses_a_scripted_answer_as_a_value_error_does() -> (
    None
):
    queue = ElicitationQueue()
    ScriptedResponder(queue, {"Colour?": "plum"})
    with pytest.raises(
        ImpossibleAnswerError,
        match="not one the UI could give: checking the answer raised KeyError: 'plum'",
    ):
        queue.ask(LookupRequest(message="Colour?"))


async def test_an_agent_thread_asks_a_card_and_gets_the_picked_name(tmp_path: Path) -> None:
    queue = ElicitationQueue()
    transcript = tmp_path / "cards.jsonl"
    app = ElicitationApp(queue, ask_for_a_file, input_grace=0, transcript=transcript)
    async with app.run_test(size=SIZE) as pilot:
        modal = await wait_for_modal(pilot, "Which file should I open next?")
        assert isinstance(modal, CardPickerModal)
        await pilot.press("down")
        await wait_for(pilot, lambda: "[project]" in str(modal.query_one("#preview").render()))
        await pilot.press("enter")
        await wait_for(pilot, lambda: app.agent_result is not None)
    result = app.agent_result
    assert isinstance(result, ElicitationResult)
    assert (result.action, result.content) == ("accept", "pyproject.toml")

    recorded = [json.loads(line) for line in transcript.read_text().splitlines()]
    requests = [r["request"] for r in recorded if r["type"] == "request"]
    assert requests[0]["kind"] == "card"
    assert requests[0]["cards"][1]["name"] == "pyproject.toml"
    results = [r["result"] for r in recorded if r["type"] == "result"]
    assert results == [{"action": "accept", "content": "pyproject.toml", "reason": None}]

    replay = ReplayApp(read_transcript(transcript), timing=Timing(speed=4, max_pause=0.2))
    await replay.run_async(headless=True, size=SIZE, auto_pilot=replay.player.drive)
    assert replay.replay_agent.mismatches == []
    assert replay.replay_agent.results == [(requests[0]["id"], results[0])]


AGENTS_TEXT = ["[/x]", "[b]bold[/b]", "esc\x1b[2Jhere", "rlo\u202eZ"]
"""Names an agent could send: markup that would crash or style, an escape sequence that would
reach the terminal, a character that would reorder what follows it."""

LITERALLY = ["[/x]", "[b]bold[/b]", "esc␛[2Jhere", "rlo\\u202eZ"]
"""How a dialog shows them."""


async def test_the_example_shows_agents_card_names_and_previews_literally() -> None:
    cards = [Card(name=name, preview=f"about {name}") for name in AGENTS_TEXT]

    def agent(queue: ElicitationQueue) -> None:
        queue.ask(CardRequest(message="Pick?", cards=cards))

    app = ElicitationApp(ElicitationQueue(), agent, input_grace=0)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for_modal(pilot, "Pick?")
        for n, name in enumerate(LITERALLY, 1):
            await pilot.press("down" if n > 1 else "home")
            preview = f"about {name}"
            await wait_for(pilot, lambda: preview in screen_text(app))  # noqa: B023
            assert f"{n} {name}" in screen_text(app)
        assert "\x1b" not in screen_text(app)
        assert "\u202e" not in screen_text(app)


async def test_literal_gives_any_widget_of_one_s_own_modal_agents_text_as_written() -> None:
    # A radio button parses a string label as markup: `[/x]` given as `scrubbed()` returns
    # it crashes the app.
    results: list[ElicitationResult] = []
    app = asking(PaletteRequest(message="Colour?", palette=AGENTS_TEXT), results)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for_modal(pilot, "Colour?")
        text = screen_text(app)
        for name in LITERALLY:
            assert name in text
        await pilot.press("down", "space", "enter")
        await wait_for(pilot, lambda: bool(results))
    assert (results[0].action, results[0].content) == ("accept", "[b]bold[/b]")


async def test_enter_in_the_open_menu_of_a_select_picks_and_then_accepts() -> None:
    # The dialog's Enter accepted with the menu open, whatever it highlighted.
    results: list[ElicitationResult] = []
    app = asking(SizeRequest(message="Size?", sizes=["small", "medium", "large"]), results)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for_modal(pilot, "Size?")
        await wait_for(pilot, lambda: "⏎ Accept" in screen_text(app))
        await pilot.press("down")
        await wait_for(pilot, lambda: "Dismiss menu" in screen_text(app))
        assert "⏎ Accept" not in screen_text(app)
        await pilot.press("down", "down", "enter")
        await wait_for(pilot, lambda: "⏎ Accept" in screen_text(app))
        assert results == []
        await pilot.press("enter")
        await wait_for(pilot, lambda: bool(results))
    assert (results[0].action, results[0].content) == ("accept", "medium")


async def test_enter_in_a_text_area_starts_a_line_and_ctrl_s_accepts() -> None:
    results: list[ElicitationResult] = []
    app = asking(LinesRequest(message="Release notes?"), results)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for_modal(pilot, "Release notes?")
        await wait_for(pilot, lambda: "^s Accept" in screen_text(app))
        assert "⏎ Accept" not in screen_text(app)
        await pilot.press("a", "enter", "b")
        await pilot.pause()
        assert results == []
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: bool(results))
    assert (results[0].action, results[0].content) == ("accept", "a\nb")


async def test_enter_on_a_button_of_one_s_own_presses_it() -> None:
    # Enter accepted the dialog from the button: a keyboard could not press it at all.
    results: list[ElicitationResult] = []
    app = asking(NameRequest(message="Service name?", suggestion="orders-api"), results)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for_modal(pilot, "Service name?")
        await pilot.press("tab", "enter")
        await wait_for(pilot, lambda: "orders-api" in screen_text(app))
        assert results == []
        await pilot.press("enter")
        await wait_for(pilot, lambda: bool(results))
    assert (results[0].action, results[0].content) == ("accept", "orders-api")


ODD_NAMES = {
    "colour.v2": "kind-colour_v2",
    "acme:card": "kind-acme_card",
    "acme/card": "kind-acme_card",
    "date picker": "kind-date_picker",
    "café": "kind-caf_",
    "日付": "kind-__",
    "[bold]odd": "kind-_bold_odd",
    "tool_approval-2": "kind-tool_approval-2",
}
"""Kind names a CSS class cannot hold as they are, and the class each modal has."""
ODD_KINDS = [
    register_kind(
        create_model(
            f"OddName{number}",
            __base__=CardRequest,
            kind=(Literal[name], name),  # type: ignore[valid-type]
        ),
        modal="tui.examples.card_picker_modal:CardPickerModal",
    )
    for number, name in enumerate(ODD_NAMES)
]


async def test_a_kind_of_any_name_is_shown_and_its_modal_has_a_class_made_of_it() -> None:
    # Each failed as it was shown, `dialog_failed: colour.v2 (BadIdentifier)`; "date picker"
    # was shown, with the classes `kind-date` and `picker`.
    results: list[ElicitationResult] = []

    def agent(queue: ElicitationQueue) -> None:
        for model in ODD_KINDS:
            request = model(message=f"Which {model.kind_name()}?", cards=EXAMPLE_CARDS)
            results.append(queue.ask(request))

    classes = []
    app = ElicitationApp(ElicitationQueue(), agent, input_grace=0)
    async with app.run_test(size=SIZE) as pilot:
        for name in ODD_NAMES:
            modal = await wait_for_modal(pilot, f"Which {name}?")
            classes.append(" ".join(sorted(modal.classes)))
            await pilot.press("1")
        await wait_for(pilot, lambda: len(results) == len(ODD_NAMES))
    assert [(r.action, r.content) for r in results] == [("accept", "README.md")] * len(ODD_NAMES)
    assert classes == [f"elicitation {css}" for css in ODD_NAMES.values()]


def stars_colour(app: ElicitationApp) -> tuple[int, int, int] | None:
    """The colour the stars are drawn in on the screen."""
    for strip in app.screen._compositor.render_strips():
        for segment in strip:
            if "★" in segment.text and segment.style and segment.style.color:
                return segment.style.color.get_truecolor()
    return None


async def test_the_readme_s_rule_styles_one_kind_of_a_modal_by_its_class() -> None:
    # The README said a modal's `kind-<name>` class is for its DEFAULT_CSS; the rule a reader
    # wrote, `.kind-acme_rate_v2 #stars`, matched nothing there (Textual scopes it).
    assert README_RULE in (REPO / "README.md").read_text(encoding="utf-8")
    results: list[ElicitationResult] = []

    def agent(queue: ElicitationQueue) -> None:
        results.append(queue.ask(RateV2Request(message="Rate v2?")))
        results.append(queue.ask(RateRequest(message="Rate?")))

    colours = []
    app = ElicitationApp(ElicitationQueue(), agent, input_grace=0)
    async with app.run_test(size=SIZE) as pilot:
        for message in ("Rate v2?", "Rate?"):
            await wait_for_modal(pilot, message)
            await pilot.pause()
            colours.append(stars_colour(app))
            await pilot.press("enter")
        await wait_for(pilot, lambda: len(results) == 2)
        warning = Color.parse(app.get_css_variables()["warning"]).rgb
    assert colours[0] == warning
    assert colours[1] not in (warning, None)


async def test_a_kind_of_any_name_replays_to_an_svg_named_after_it(tmp_path: Path) -> None:
    # `--svg DIR` wrote DIR/01-acme/card.svg: no such folder, a traceback; `x/../y`, elsewhere.
    from tui.app.replay_app import ReplayApp
    from tui.transcript.reader import read_transcript
    from tui.transcript.timing import Timing

    transcript = tmp_path / "odd.jsonl"
    results: list[ElicitationResult] = []

    def agent(queue: ElicitationQueue) -> None:
        for model in ODD_KINDS[:4]:
            request = model(message=f"Which {model.kind_name()}?", cards=EXAMPLE_CARDS)
            results.append(queue.ask(request))

    app = ElicitationApp(ElicitationQueue(), agent, input_grace=0, transcript=transcript)
    async with app.run_test(size=SIZE) as pilot:
        for name in list(ODD_NAMES)[:4]:
            await wait_for_modal(pilot, f"Which {name}?")
            await pilot.press("1")
        await wait_for(pilot, lambda: len(results) == 4)
    svgs = tmp_path / "svgs"
    svgs.mkdir()
    replay = ReplayApp(
        read_transcript(transcript), timing=Timing(speed=8, max_pause=0.1), svg_dir=svgs
    )
    await replay.run_async(headless=True, size=SIZE, auto_pilot=replay.player.drive)
    assert sorted(path.name for path in svgs.iterdir()) == [
        "01-colour.v2.svg",
        "02-acme_card.svg",
        "03-acme_card.svg",
        "04-date_picker.svg",
    ]


async def test_an_answer_typed_masked_in_one_s_own_modal_is_kept_as_a_secret(
    tmp_path: Path,
) -> None:
    # Its keys were recorded as masked counts, but the answer went to the transcript, the
    # timeline and later questions in clear, and its replay never matched.
    from tui.app.replay_app import ReplayApp
    from tui.transcript.reader import read_transcript

    transcript = tmp_path / "pin.jsonl"
    results: list[ElicitationResult] = []

    def agent(queue: ElicitationQueue) -> None:
        results.append(queue.ask(PinRequest(message="PIN?")))
        results.append(queue.ask(NameRequest(message="Echo pin-canary-4411?", suggestion="x")))

    app = ElicitationApp(ElicitationQueue(), agent, input_grace=0, transcript=transcript)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for_modal(pilot, "PIN?")
        await pilot.press(*"pin-canary-4411", "enter")
        await wait_for_modal(pilot, "Echo pin-canary-4411?")
        assert "pin-canary-4411" not in screen_text(app)
        await pilot.press("escape")
        await wait_for(pilot, lambda: len(results) == 2)
        assert "pin-canary-4411" not in screen_text(app)  # the timeline's row
    assert results[0].content == "pin-canary-4411" and results[0].sensitive
    assert "to_llm" not in results[0].to_llm_text() and "4411" not in results[0].to_llm_text()
    assert "pin-canary-4411" not in transcript.read_text()
    replay = ReplayApp(read_transcript(transcript))
    await replay.run_async(headless=True, size=SIZE, auto_pilot=replay.player.drive)
    assert replay.replay_agent.mismatches == []


async def test_a_kind_s_own_keys_among_the_body_s_scroll_keys_reach_it_and_show() -> None:
    # While the body had something to scroll, it took Up, Down and End to scroll it; and
    # the footer never showed them, scrolling or not.
    description = "\n\n".join(f"Paragraph {n}." for n in range(30))
    results: list[ElicitationResult] = []
    app = asking(LevelRequest(message="Level?", description=description), results)
    async with app.run_test(size=SIZE) as pilot:
        modal = await wait_for_modal(pilot, "Level?")
        assert isinstance(modal, LevelModal)
        body = modal.query_one("#body")
        await wait_for(pilot, lambda: body.max_scroll_y > 0)
        await wait_for(
            pilot,
            lambda: (
                {"Higher", "Lower", "Top"}
                <= {key.description for key in modal.query(FooterKey) if key.display}
            ),
        )
        # The body scrolls to the focused bar, last, once laid out: a moment later under load.
        await wait_for(pilot, lambda: body.scroll_y == body.max_scroll_y)
        await pilot.wait_for_animation()
        shown_at = body.scroll_y
        await pilot.press("up", "up", "up", "down")
        assert (modal.level, body.scroll_y) == (2, shown_at)
        await pilot.press("end")
        assert (modal.level, body.scroll_y) == (TOP, shown_at)
        await pilot.press("pageup")  # not the kind's: it still scrolls the body
        await wait_for(pilot, lambda: body.scroll_y < shown_at)
        await pilot.press("enter")
        await wait_for(pilot, lambda: bool(results))
    assert (results[0].action, results[0].content) == ("accept", TOP)


async def test_a_front_end_without_the_modal_cancels_naming_the_kind() -> None:
    queue = ElicitationQueue()
    results: list[ElicitationResult] = []

    def agent(queue: ElicitationQueue) -> None:
        results.append(queue.ask(NoteRequest(message="Remember to water the plants")))
        results.append(queue.ask(card_request()))

    app = ElicitationApp(queue, agent, input_grace=0)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for_modal(pilot, "Which file should I open next?")
        notes = [n.message for n in app._notifications]
        assert any("Cannot show 'sticky_note' requests here" in n for n in notes)
        await pilot.press("1")
        await wait_for(pilot, lambda: len(results) == 2)
    assert results[0].action == "cancel"
    assert results[0].reason == "unsupported_kind: sticky_note"
    assert results[1].content == "README.md"


def test_plain_mode_says_it_cannot_ask_the_kind_and_cancels() -> None:
    out = io.StringIO()
    result = PlainPrompter(io.StringIO("1\n"), out).ask(card_request())
    assert result == ElicitationResult(action="cancel", reason="unsupported_kind: card")
    # Only the refusal: how to cancel or decline a question not asked would mislead.
    assert out.getvalue() == "Plain mode cannot ask 'card' requests; cancelled.\n"


def test_elicit_tui_kinds_imports_the_modules_that_register_kinds() -> None:
    code = (
        "import sys, tui\n"
        "request = tui.parse_request({'kind': 'card', 'message': 'Pick', 'cards': [{'name': 'a'}]})\n"
        "print(type(request).__name__, 'textual' in sys.modules)\n"
    )
    env = {"ELICIT_TUI_KINDS": "tui.examples.card_picker", "PATH": "/usr/bin:/bin"}
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO, env=env, capture_output=True, text=True, check=True
    )
    assert done.stdout.split() == ["CardRequest", "False"]


def asked_with_kinds(request: dict[str, Any], kinds: str) -> subprocess.CompletedProcess[str]:
    """`elicit-tui ask --json REQUEST` run with `ELICIT_TUI_KINDS=kinds`, without a terminal."""
    return subprocess.run(
        [sys.executable, "-m", "tui.cli", "ask", "--json", json.dumps(request)],
        cwd=REPO,
        env={**os.environ, "ELICIT_TUI_KINDS": kinds},
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
    )


def test_a_module_elicit_tui_kinds_names_that_cannot_load_is_named_and_the_rest_still_load() -> (
    None
):
    # A typo raised ModuleNotFoundError out of `ask`: a traceback, and exit status 1, which
    # says "declined".
    env = {**os.environ, "ELICIT_TUI_KINDS": "no_such_kinds_module, tui.examples.card_picker"}
    card = {"kind": "card", "message": "Pick", "cards": [{"name": "a"}]}
    code = f"import tui\nprint(type(tui.parse_request({card!r})).__name__)"
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO, env=env, capture_output=True, text=True
    )
    assert (done.returncode, done.stdout) == (0, "CardRequest\n")

    done = asked_with_kinds(
        {"kind": "colour", "message": "Accent?", "palette": ["teal"]}, env["ELICIT_TUI_KINDS"]
    )
    assert done.returncode == 3
    assert "Traceback" not in done.stderr
    assert "kind: 'colour' is not a kind registered here" in done.stderr
    assert (
        "ELICIT_TUI_KINDS names no_such_kinds_module, which cannot be imported"
        " (ModuleNotFoundError: No module named 'no_such_kinds_module')" in done.stderr
    )


def test_a_kinds_module_that_fails_is_named_on_stderr_its_control_characters_shown() -> None:
    # The warning printed the setting and the module's error as they were: ESC [2J cleared
    # the terminal it was read on (the refusal's reason under it showed ␛[2J).
    done = asked_with_kinds({"kind": "card", "message": "Pick"}, "a\x1b[2Jb")
    assert done.returncode == 3
    assert "\x1b" not in done.stderr
    assert "ELICIT_TUI_KINDS names a␛[2Jb, which is no module name" in done.stderr


@pytest.mark.parametrize(
    ("value", "separator"),
    [
        ("tui.examples.card_picker no_such_kinds_module", "spaces"),
        ("tui.examples.card_picker:no_such_kinds_module", "colons"),
        ("tui.examples.card_picker;no_such_kinds_module", "semicolons"),
    ],
)
def test_elicit_tui_kinds_with_another_separator_than_a_comma_is_refused_naming_it(
    value: str, separator: str
) -> None:
    # Read as one module name: "No module named 'tui.examples.card_picker no_such_kinds_module'".
    done = asked_with_kinds({"kind": "card", "message": "Pick", "cards": [{"name": "a"}]}, value)
    assert done.returncode == 3
    assert (
        f"ELICIT_TUI_KINDS names {value}, which is no module name: separate modules with"
        f" commas, not {separator}" in done.stderr
    )


@pytest.mark.parametrize("command", ["ask", "serve", "attach", "web", "replay"])
def test_every_command_that_learns_kinds_says_how_elicit_tui_kinds_lists_them(
    command: str,
) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "tui.cli", command, "--help"],
        cwd=REPO,
        env={**os.environ, "COLUMNS": "100"},
        capture_output=True,
        text=True,
        check=True,
    )
    said = " ".join(done.stdout.split())
    assert (
        "ELICIT_TUI_KINDS: the modules that register kinds of your own, comma-separated"
        " (ELICIT_TUI_KINDS=my_package.kinds,other_package.kinds)" in said
    )


def test_the_example_runs_with_python_dash_m_and_prints_the_pick() -> None:
    child = pexpect.spawn(
        sys.executable,
        ["-m", "tui.examples.card_picker"],
        cwd=REPO,
        env={**os.environ, "TERM": "xterm"},
        encoding="utf-8",
        timeout=30,
        dimensions=(24, 80),
    )
    try:
        child.expect("Which file should I open next")
        time.sleep(0.5)  # past the modal's input grace
        child.send("2")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)

    assert "Traceback" not in child.before
    assert "action='accept' content='pyproject.toml'" in child.before
