"""The form modal in the real app, driven by the keyboard: checks, errors, content, models."""

from __future__ import annotations

import threading
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any, Literal

import jsonschema
import pytest
from app_driver import screen_text
from pydantic import BaseModel, Field, SecretStr, field_validator
from schemas import EVERYTHING
from test_app import wait_for
from textual import events
from textual.pilot import Pilot
from textual.widgets import Footer, Input, OptionList, Select, Static, Switch
from textual.widgets._footer import FooterKey
from textual.widgets._select import SelectCurrent, SelectOverlay
from textual.widgets.option_list import Option

from tui.app.app import ElicitationApp
from tui.cli.demo import DEPLOY_SCHEMA
from tui.core.models import ElicitationResult, FormRequest
from tui.core.queue import ElicitationQueue
from tui.core.schema import SchemaError
from tui.secrets.redaction import REDACTOR
from widgets.form import FormModal

SIZE = (80, 24)


@dataclass
class Session:
    """A running app showing one form, and what the agent got back."""

    app: ElicitationApp
    pilot: Pilot[Any]
    results: list[ElicitationResult] = field(default_factory=list)

    @property
    def modal(self) -> FormModal:
        screen = self.app.screen
        assert isinstance(screen, FormModal)
        return screen

    def error(self, name: str) -> str | None:
        """The message shown under the field called `name`, if any."""
        return next(f.error for f in self.modal.fields if f.field.name == name)

    def value(self, name: str) -> Any:
        return next(f.raw for f in self.modal.fields if f.field.name == name)

    def modal_error(self) -> str:
        return str(self.modal.query_one("#error", Static).render())

    async def answered(self) -> ElicitationResult:
        await wait_for(self.pilot, lambda: bool(self.results), timeout=10)
        return self.results[0]


@asynccontextmanager
async def showing(
    ask: Callable[[ElicitationQueue], ElicitationResult], size: tuple[int, int] = SIZE
) -> AsyncIterator[Session]:
    """Run the app with an agent thread that asks once; yield when the form is complete."""
    queue = ElicitationQueue()
    app = ElicitationApp(queue, input_grace=0)
    async with app.run_test(size=size) as pilot:
        session = Session(app, pilot)
        threading.Thread(target=lambda: session.results.append(ask(queue)), daemon=True).start()
        await wait_for(
            pilot,
            lambda: isinstance(app.screen, FormModal) and app.screen.complete,
            timeout=10,
        )
        yield session


def form(schema: dict[str, Any]) -> Callable[[ElicitationQueue], ElicitationResult]:
    return lambda queue: queue.ask(FormRequest(message="Fill this in", requested_schema=schema))


TWO_PICK_LISTS = {
    "type": "object",
    "properties": {
        "region": {"type": "string", "enum": ["eu", "us", "ap"]},
        "tier": {"type": "string", "enum": ["free", "pro"]},
    },
    "required": ["region"],
}
"""A required pick-one list, then an optional one (led by "(none)")."""

SIGNUP = {
    "type": "object",
    "properties": {
        "name": {"type": "string", "title": "Name", "minLength": 3},
        "email": {"type": "string", "format": "email", "title": "Email"},
        "age": {"type": "integer", "title": "Age", "minimum": 18, "maximum": 120},
        "birthday": {"type": "string", "format": "date", "title": "Birthday"},
        "tags": {
            "type": "array",
            "title": "Tags",
            "items": {"enum": ["news", "tips", "offers"]},
            "minItems": 2,
        },
    },
    "required": ["name", "email", "tags"],
}


class TestValidation:
    async def test_invalid_values_are_shown_refused_and_kept_then_fixed(self) -> None:
        async with showing(form(SIGNUP)) as s:
            await s.pilot.press(*"ab", "tab", *"ada@", "tab", *"12", "tab", *"2024-13-01")
            await s.pilot.press("tab", "space")
            assert s.error("name") == "at least 3 characters"
            assert s.error("email") == "not an email address"
            assert s.error("age") == "must be at least 18"
            assert s.error("birthday") == "not a date (YYYY-MM-DD)"
            assert s.error("tags") == "pick at least 2"
            name_box = s.modal.fields[0].box
            assert name_box.has_class("invalid")
            assert "✖ at least 3 characters" in str(name_box.border_subtitle)

            await s.pilot.press("ctrl+s")
            assert s.results == []
            assert isinstance(s.app.screen, FormModal)
            # A few names, then a count: the line leaves the dialog room for the fields.
            assert s.modal_error() == "Fix 5 fields first: Name, Email, Age and 2 more"
            assert s.app.focused is s.modal.fields[0].control
            assert [s.value(n) for n in ("name", "email", "age", "birthday", "tags")] == [
                "ab",
                "ada@",
                "12",
                "2024-13-01",
                ["news"],
            ]

            # focus selects the field's text, so typing replaces it
            await s.pilot.press(*"Ada", "tab", *"ada@example.com", "tab", *"36", "tab")
            await s.pilot.press(*"1989-05-17", "tab", "down", "space", "ctrl+s")
            result = await s.answered()
        assert result.action == "accept"
        assert result.content == {
            "name": "Ada",
            "email": "ada@example.com",
            "age": 36,
            "birthday": "1989-05-17",
            "tags": ["news", "tips"],
        }

    async def test_required_is_not_nagged_before_the_first_submit(self) -> None:
        async with showing(form(SIGNUP)) as s:
            await s.pilot.press("x", "backspace")
            assert s.error("name") is None
            await s.pilot.press("ctrl+s")
            assert s.error("name") == "required"
            assert s.error("email") == "required"
            assert s.error("age") is None
            await s.pilot.press("x")
            assert s.error("name") == "at least 3 characters"

    async def test_out_of_range_number_names_the_bound(self) -> None:
        schema = {
            "type": "object",
            "properties": {"ratio": {"type": "number", "minimum": 0, "maximum": 1}},
        }
        async with showing(form(schema)) as s:
            await s.pilot.press(*"1.5", "enter")
            assert s.error("ratio") == "must be at most 1"
            assert s.results == []


EVERY_TYPE = {
    "type": "object",
    "properties": {
        "name": {"type": "string"},
        "count": {"type": "integer"},
        "ratio": {"type": "number"},
        "public": {"type": "boolean"},
        "tier": {"type": "string", "enum": ["free", "pro"]},
        "region": {"type": "string", "enum": [f"region-{n}" for n in range(10)]},
        "tags": {"type": "array", "items": {"enum": ["a", "b", "c"]}},
        "token": {"type": "string", "format": "password"},
    },
}


class TestContent:
    async def test_values_come_back_typed(self) -> None:
        async with showing(form(EVERY_TYPE), size=(80, 40)) as s:
            await s.pilot.press(*"Ada", "enter", *"42", "enter", *"0.5", "enter", "space")
            await s.pilot.press("enter", "down", "down", "enter")
            # type to search: the closed Select opens on the first letter and jumps to it
            await s.pilot.press(*"region-7")
            await s.pilot.press("enter")
            await s.pilot.press("enter", "space", "down", "down", "space", "enter")
            await s.pilot.press(*"s3cret", "enter")
            result = await s.answered()
        content = result.content
        assert content == {
            "name": "Ada",
            "count": 42,
            "ratio": 0.5,
            "public": True,
            "tier": "pro",
            "region": "region-7",
            "tags": ["a", "c"],
            "token": SecretStr("s3cret"),
        }
        assert [type(content[k]) for k in content] == [
            str,
            int,
            float,
            bool,
            str,
            str,
            list,
            SecretStr,
        ]
        assert content["token"].get_secret_value() == "s3cret"

    async def test_untouched_optional_fields_are_left_out_a_switch_saying_no(self) -> None:
        async with showing(form(EVERY_TYPE), size=(80, 40)) as s:
            await s.pilot.press("ctrl+s")
            result = await s.answered()
        assert result.content == {"public": False}

    async def test_an_optional_pick_can_be_taken_back(self) -> None:
        schema = {"type": "object", "properties": {"tier": {"enum": ["free", "pro"]}}}
        schema["properties"]["tier"]["type"] = "string"
        async with showing(form(schema)) as s:
            assert s.value("tier") is None
            await s.pilot.press("down")
            assert s.value("tier") == "free"
            await s.pilot.press("up")
            assert s.value("tier") is None
            await s.pilot.press("enter")
            result = await s.answered()
        assert result.content == {}

    async def test_a_required_pick_without_default_shows_nothing_picked_until_one_is(
        self,
    ) -> None:
        schema = {
            "type": "object",
            "properties": {"region": {"type": "string", "enum": ["eu", "us", "ap"]}},
            "required": ["region"],
        }

        def marks(s: Session) -> list[str]:
            radio = s.modal.fields[0].control
            assert isinstance(radio, OptionList)
            return [str(option.prompt)[0] for option in radio.options]

        async with showing(form(schema)) as s:
            await s.pilot.pause()
            assert s.value("region") is None
            assert marks(s) == ["○", "○", "○"]
            await s.pilot.press("ctrl+s")
            assert s.error("region") == "required"
            assert marks(s) == ["○", "○", "○"]
            await s.pilot.press("down")
            assert (s.value("region"), marks(s)) == ("eu", ["●", "○", "○"])
            await s.pilot.press("down", "enter")
            result = await s.answered()
        assert result.content == {"region": "us"}

    async def test_a_focused_pick_list_with_nothing_picked_shows_its_cursor(self) -> None:
        schema = {
            "type": "object",
            "properties": {
                "region": {"type": "string", "enum": ["eu", "us", "ap"]},
                "note": {"type": "string"},
            },
            "required": ["region"],
        }
        async with showing(form(schema)) as s:
            radio = s.modal.fields[0].control
            cursor = radio.get_visual_style(
                "option-list--option", "option-list--option-highlighted"
            ).rich_style.bgcolor

            async def cursor_rows() -> list[str]:
                """The list's rows on screen drawn with the cursor's background."""
                await s.pilot.pause()
                strips = s.app.screen._compositor.render_strips()
                region = radio.content_region
                rows = [strips[y].crop(region.x, region.right) for y in range(*region.line_span)]
                return [
                    row.text.strip()
                    for row in rows
                    if any(segment.style and segment.style.bgcolor == cursor for segment in row)
                ]

            assert s.app.focused is radio
            assert (await cursor_rows(), s.value("region")) == (["○ 1 eu"], None)
            await s.pilot.press("tab")
            assert await cursor_rows() == []
            await s.pilot.press("shift+tab")
            assert (await cursor_rows(), s.value("region")) == (["○ 1 eu"], None)
            await s.pilot.press("down", "down")
            assert (await cursor_rows(), s.value("region")) == (["● 2 us"], "us")

    async def test_numbers_and_space_pick_in_a_pick_list(self) -> None:
        """1–9 pick the row of that number, as in a list of choices; Space the row the cursor
        is drawn on; in a burst, each key in its turn."""
        async with showing(form(TWO_PICK_LISTS)) as s:
            await s.pilot.press("3")
            assert s.value("region") == "ap"
            await s.pilot.press("9")  # no ninth row: the pick stays
            assert s.value("region") == "ap"
            await s.pilot.press("1", "tab", "space")
            # the optional list leads with "(none)": Space picks that row, the one shown
            assert (s.value("region"), s.value("tier")) == ("eu", None)
            # its options are numbered from 1, as everywhere, and "(none)" 0
            assert "● 0 (none)" in screen_text(s.app) and "○ 2 pro" in screen_text(s.app)
            await s.pilot.press("2")
            assert s.value("tier") == "pro"
            await s.pilot.press("0", "3")  # no third option: "(none)" stays picked
            assert s.value("tier") is None
            await s.pilot.press("2", "shift+tab", "2", "enter", "enter")
            result = await s.answered()
        assert result.content == {"region": "us", "tier": "pro"}

    async def test_numbers_tick_in_a_checklist_as_in_a_list_of_choices(self) -> None:
        """1–9 tick or untick the row of that number, numbered as in a pick-one list; in a
        burst, each key in its turn."""
        schema = {
            "type": "object",
            "properties": {"tags": {"type": "array", "items": {"enum": ["a", "b", "c"]}}},
        }
        async with showing(form(schema)) as s:
            text = screen_text(s.app)
            assert "☐ 1 a" in text and "☐ 3 c" in text
            await s.pilot.press("3", "1", "9", "3", "2")  # no ninth row: nothing happens
            assert s.value("tags") == ["a", "b"]
            await s.pilot.press("1", "1")  # ticked after b: still in the order offered
            assert s.value("tags") == ["a", "b"]
            await s.pilot.press("enter")
            result = await s.answered()
        assert result.content == {"tags": ["a", "b"]}

    async def test_space_picks_the_first_row_of_a_list_with_nothing_picked(self) -> None:
        schema = {
            "type": "object",
            "properties": {"region": {"type": "string", "enum": ["eu", "us"]}},
            "required": ["region"],
        }
        async with showing(form(schema)) as s:
            await s.pilot.press("space")
            assert s.value("region") == "eu"
            await s.pilot.press("down", "space")  # picked already: Space keeps it
            assert s.value("region") == "us"

    async def test_a_switch_says_yes_or_no(self) -> None:
        schema = {"type": "object", "properties": {"ok": {"type": "boolean", "default": True}}}
        async with showing(form(schema)) as s:
            state = s.modal.query_one(".switch-state", Static)
            assert str(state.render()) == "yes"
            assert isinstance(s.app.focused, Switch)
            await s.pilot.press("space")
            assert str(state.render()) == "no"
            await s.pilot.press("enter")
            result = await s.answered()
        assert result.content == {"ok": False}

    async def test_a_form_without_fields_submits_empty(self) -> None:
        async with showing(form({"type": "object", "properties": {}})) as s:
            await s.pilot.press("enter")
            result = await s.answered()
        assert (result.action, result.content) == ("accept", {})


async def test_everything_server_schema_renders_and_returns_valid_content() -> None:
    async with showing(form(EVERYTHING)) as s:
        assert [f.field.name for f in s.modal.fields] == list(EVERYTHING["properties"])
        assert len(s.modal.query(".form-field")) == len(EVERYTHING["properties"])
        await s.pilot.press("ctrl+s")
        assert s.error("name") == "required"
        await s.pilot.press(*"Ada Lovelace", "ctrl+s")
        result = await s.answered()
    assert result.content == {
        "name": "Ada Lovelace",
        "firstLine": "It was a dark and stormy night.",
        "age": 42,
        "score": 3.14,
        "untitledSingleSelectEnum": "Monica",
        "titledSingleSelectEnum": "hero-1",
        "legacyTitledEnum": "pet-1",
        "untitledMultipleSelectEnum": ["Guitar"],
        "titledMultipleSelectEnum": ["fish-1"],
        "check": False,
    }
    validator = jsonschema.Draft202012Validator
    jsonschema.validate(
        result.content, EVERYTHING, validator, format_checker=validator.FORMAT_CHECKER
    )


class Profile(BaseModel):
    """Who is deploying."""

    name: str = Field(min_length=2, description="Your name")
    age: int = Field(30, ge=18, le=120)
    plan: Literal["free", "pro"] = "free"
    topics: list[Literal["news", "tips"]] = Field(default=["news"])
    nickname: str | None


class Nested(BaseModel):
    profile: Profile


class Release(BaseModel):
    tag: str = Field(title="Release tag")

    @field_validator("tag")
    @classmethod
    def _release_tag(cls, value: str) -> str:
        if not value.startswith("release-"):
            raise ValueError("a tag starts with 'release-'")
        return value


class Login(BaseModel):
    password: SecretStr

    @field_validator("password")
    @classmethod
    def _issued(cls, value: SecretStr) -> SecretStr:
        if not value.get_secret_value().startswith("sk-"):
            raise ValueError(f"{value.get_secret_value()} does not start with sk-")
        return value


class TestPydanticModels:
    async def test_ask_form_returns_a_model_instance(self) -> None:
        def ask(queue: ElicitationQueue) -> ElicitationResult:
            return queue.ask_form(Profile, message="Who are you?", source="deployer")

        async with showing(ask) as s:
            assert s.modal.request.source == "deployer"
            await s.pilot.press(*"Ada", "enter", *"36", "ctrl+s")
            result = await s.answered()
        assert result.content == Profile(
            name="Ada", age=36, plan="free", topics=["news"], nickname=None
        )
        assert isinstance(result.content, Profile)

    async def test_a_models_own_validator_refuses_under_its_field_and_keeps_the_form(
        self,
    ) -> None:
        def ask(queue: ElicitationQueue) -> ElicitationResult:
            return queue.ask_form(Release, message="Which release?")

        async with showing(ask) as s:
            await s.pilot.press(*"v1.2", "ctrl+s")
            await wait_for(s.pilot, lambda: s.modal_error() != "")
            assert s.results == []
            assert s.error("tag") == "a tag starts with 'release-'"
            assert s.modal_error() == "Release tag: a tag starts with 'release-'"
            assert s.app.focused is s.modal.fields[0].control
            assert s.value("tag") == "v1.2"  # kept, to fix
            await s.pilot.press("ctrl+u", *"release-1.2", "ctrl+s")
            result = await s.answered()
        assert result.content == Release(tag="release-1.2")

    async def test_a_validator_quoting_a_rejected_secret_shows_it_masked_under_its_field(
        self,
    ) -> None:
        # The line under the masked field showed the secret in clear; the error line under
        # the form was scrubbed.
        def ask(queue: ElicitationQueue) -> ElicitationResult:
            return queue.ask_form(Login, message="Log in")

        async with showing(ask) as s:
            await s.pilot.press(*"pw-canary-5521", "ctrl+s")
            await wait_for(s.pilot, lambda: s.modal_error() != "")
            assert s.error("password") == "••• does not start with sk-"
            assert "canary" not in screen_text(s.app)

    def test_a_model_outside_the_subset_fails_when_asked(self) -> None:
        queue = ElicitationQueue()
        with pytest.raises(SchemaError, match=r"^model Nested: property 'profile': .*nested"):
            queue.ask_form(Nested, message="?")


def long_form(fields: int) -> dict[str, Any]:
    properties = {f"f{i}": {"type": "string", "title": f"Field {i}"} for i in range(1, fields + 1)}
    return {"type": "object", "properties": properties}


async def test_a_long_form_scrolls_to_keep_the_focused_field_in_view() -> None:
    async with showing(form(long_form(50))) as s:
        body = s.modal.query_one("#body")
        assert body.max_scroll_y > 0
        await s.pilot.press(*["tab"] * 29)
        focused = s.app.focused
        assert isinstance(focused, Input)
        assert focused is s.modal.fields[29].control
        assert body.scroll_y > 0
        assert body.content_region.contains_region(focused.region)


async def test_a_refused_long_form_says_why_in_view() -> None:
    schema = {**long_form(50), "required": ["f40"]}
    async with showing(form(schema)) as s:
        await s.pilot.press("ctrl+s")
        assert s.modal_error() == "Fix 1 field first: Field 40"
        assert s.app.focused is s.modal.fields[39].control
        dialog = s.modal.query_one("#dialog").content_region
        error = s.modal.query_one("#error").region
        body = s.modal.query_one("#body").region
        assert dialog.contains_region(error)
        assert body.bottom <= error.y
        # The field scrolls into view over a few frames: wait for it to arrive, not forever.
        control = s.modal.fields[39].control
        for _ in range(100):
            if body.contains_region(control.region):
                break
            await s.pilot.pause(0.02)
        assert body.contains_region(control.region)


FIVE = {**long_form(5), "required": ["f1"]}


def submit_in_view(s: Session) -> bool:
    """Whether all of the Submit button, its three rows, is on screen inside the dialog."""
    rows = screen_text(s.app).splitlines()
    at = next((i for i, row in enumerate(rows) if "│      Submit " in row), None)
    return at is not None and "▔▔▔▔" in rows[at - 1] and "▁▁▁▁" in rows[at + 1]


@pytest.mark.parametrize(
    ("schema", "size"),
    [(DEPLOY_SCHEMA, (80, 24)), (FIVE, (80, 24)), (FIVE, (60, 20))],
    ids=["demo-80x24", "5-fields-80x24", "5-fields-60x20"],
)
async def test_submit_stays_in_view_under_fields_that_scroll(
    schema: dict[str, Any], size: tuple[int, int]
) -> None:
    async with showing(form(schema), size) as s:
        await s.pilot.pause()
        assert submit_in_view(s)
        # Down to the last field and back, and with the error line under it.
        await s.pilot.press(*["tab"] * (len(s.modal.fields) - 1))
        await s.pilot.pause()
        assert submit_in_view(s)
        await s.pilot.press("shift+tab", "ctrl+s")
        await s.pilot.pause()
        assert s.modal_error().startswith("Fix 1 field first") and submit_in_view(s)


async def test_enter_moves_on_and_shift_tab_goes_back() -> None:
    async with showing(form(long_form(3))) as s:
        controls = [f.control for f in s.modal.fields]
        assert s.app.focused is controls[0]
        await s.pilot.press("enter")
        assert s.app.focused is controls[1]
        await s.pilot.press("shift+tab")
        assert s.app.focused is controls[0]
        await s.pilot.press("enter", "enter", "enter")
        result = await s.answered()
    assert result.action == "accept"


def footer_keys(app: ElicitationApp) -> list[tuple[str, str]]:
    """The keys the footer shows, as (key, description)."""
    return [(key.key, key.description) for key in app.screen.query(FooterKey) if key.display]


async def test_the_footer_says_submit_once_whichever_key_submits() -> None:
    async with showing(form(long_form(2))) as s:
        await wait_for(s.pilot, lambda: ("enter", "Next") in footer_keys(s.app))
        assert ("ctrl+s", "Submit") in footer_keys(s.app)
        await s.pilot.press("tab")
        # Enter submits on the last field: Ctrl+S still does, and is not listed twice.
        await wait_for(s.pilot, lambda: ("enter", "Submit") in footer_keys(s.app))
        assert [d for _, d in footer_keys(s.app)].count("Submit") == 1
        await s.pilot.press("ctrl+s")
        result = await s.answered()
    assert result.action == "accept"


async def test_a_click_on_submit_submits_the_form_or_says_what_to_fix() -> None:
    schema = {
        "type": "object",
        "properties": {"name": {"type": "string", "title": "Name"}},
        "required": ["name"],
    }
    async with showing(form(schema)) as s:
        # A click (or a tap, in a browser) presses the button: the form is checked first.
        await s.pilot.click("#submit")
        await wait_for(s.pilot, lambda: "Fix 1 field first" in s.modal_error())
        assert not s.results
        await s.pilot.press(*"web")
        await s.pilot.click("#submit")
        result = await s.answered()
    assert result.action == "accept" and result.content == {"name": "web"}


async def test_keys_typed_in_a_burst_land_in_their_fields() -> None:
    schema = {
        "type": "object",
        "properties": {
            "name": {"type": "string"},
            "count": {"type": "integer"},
            "public": {"type": "boolean", "default": True},
            "note": {"type": "string"},
        },
    }
    keys = ["A", "d", "a", "tab", "4", "2", "tab", "space", "tab", "o", "k", "shift+tab"]
    async with showing(form(schema)) as s:
        # all at once, as a terminal delivers a fast typist's or a multiplexer's keys
        for key in keys:
            character = " " if key == "space" else key if len(key) == 1 else None
            s.app.post_message(events.Key(key, character))
        # the burst is over once "ok" is typed and Shift+Tab is back on the switch
        switch = s.modal.fields[2].control
        await wait_for(
            s.pilot, lambda: s.value("note") == "ok" and s.app.focused is switch, timeout=10
        )
        assert [s.value(n) for n in ("name", "count", "public")] == ["Ada", "42", False]


async def test_picks_typed_in_a_burst_land_in_their_lists() -> None:
    keys = ["3", "tab", "space", "1", "shift+tab", "2", "tab", "2", "enter"]
    async with showing(form(TWO_PICK_LISTS)) as s:
        for key in keys:  # all at once, as a terminal delivers them
            character = " " if key == "space" else key if len(key) == 1 else None
            s.app.post_message(events.Key(key, character))
        result = await s.answered()
    assert result.content == {"region": "us", "tier": "pro"}


async def test_a_pick_reported_after_the_answer_leaves_the_form_working() -> None:
    # The last pick of a burst can reach the form after Enter answered and cleared its lists.
    async with showing(form(TWO_PICK_LISTS)) as s:
        modal = s.modal
        region = modal.fields[0].control
        assert isinstance(region, OptionList)
        await s.pilot.press("2", "ctrl+s")
        assert (await s.answered()).content == {"region": "us"}
        assert region.option_count == 0  # the answer cleared it
        modal.post_message(OptionList.OptionHighlighted(region, Option("us"), 1))
        await s.pilot.pause()
        assert modal.failed is None and "failed" not in screen_text(s.app)
        # the form, kept for the next question of its shape, still answers it
        again: list[ElicitationResult] = []
        threading.Thread(target=lambda: again.append(form(TWO_PICK_LISTS)(s.app.queue))).start()
        await wait_for(s.pilot, lambda: s.app.screen is modal and modal.complete, timeout=10)
        await s.pilot.press("3", "ctrl+s")
        await wait_for(s.pilot, lambda: bool(again), timeout=10)
        assert again[0].content == {"region": "ap"}


async def test_a_form_withdrawn_while_it_mounts_does_not_break_the_app() -> None:
    schema = {
        "type": "object",
        "properties": {
            f"f{i}": {"type": "string", "enum": [f"v{n}" for n in range(12)]} for i in range(40)
        },
    }
    queue = ElicitationQueue()
    app = ElicitationApp(queue, input_grace=0)
    async with app.run_test(size=SIZE) as pilot:
        future = queue.submit(FormRequest(message="Many", requested_schema=schema), timeout=0.05)
        await wait_for(pilot, future.done)
        await pilot.pause(0.3)
        assert not isinstance(app.screen, FormModal)
    assert future.result().reason == "timeout"
    assert app.return_code in (None, 0)


async def test_a_long_enum_is_a_select() -> None:
    async with showing(form(EVERY_TYPE), size=(80, 40)) as s:
        region = next(f for f in s.modal.fields if f.field.name == "region")
        assert isinstance(region.control, Select)


async def test_the_letter_that_opens_a_long_enum_starts_the_search() -> None:
    schema = {
        "type": "object",
        "properties": {"pick": {"type": "string", "enum": [f"option {n}" for n in range(100)]}},
    }
    async with showing(form(schema)) as s:
        await s.pilot.press("1", "2", "enter")
        await wait_for(s.pilot, lambda: s.value("pick") is not None)
        assert s.value("pick") == "option 12"


async def test_a_long_enum_s_list_says_what_was_typed_to_search_it() -> None:
    """Textual's search moves the highlight and shows nothing of the keys: here the list's
    bottom edge says them, and when nothing matches, until the search forgets them."""
    schema = {
        "type": "object",
        "properties": {"pick": {"type": "string", "enum": [f"option {n}" for n in range(100)]}},
    }
    async with showing(form(schema)) as s:
        await s.pilot.press("1", "2")
        overlay = s.modal.query_one(SelectOverlay)
        await wait_for(s.pilot, lambda: overlay.has_focus)
        assert str(overlay.border_subtitle) == " 12 "
        await s.pilot.press("x")
        assert str(overlay.border_subtitle) == " 12x · no match "
        # The search forgets the keys 0.7 to 1.4 s after the last; the edge then says nothing.
        await wait_for(s.pilot, lambda: str(overlay.border_subtitle) == "", timeout=3)
        assert overlay._search_query == ""
        await s.pilot.press("[", "7")
        assert str(overlay.border_subtitle) == " [7 · no match "  # literally, never markup


async def test_a_long_enum_shows_its_labels_literally_and_scrubbed() -> None:
    labels = [f"[b]{n}[/b] hunter22" for n in range(20)]
    schema = {"type": "object", "properties": {"pick": {"type": "string", "enum": labels}}}

    def ask(queue: ElicitationQueue) -> ElicitationResult:
        REDACTOR.register("hunter22")
        return form(schema)(queue)

    async with showing(ask) as s:
        await s.pilot.press("[", "b", "]", "7")
        await s.pilot.pause()
        overlay = s.modal.query_one(SelectOverlay)
        shown = [overlay.render_line(y).text for y in range(overlay.size.height)]
        assert any("[b]7[/b] •••" in line for line in shown), shown
        assert not any("hunter22" in line for line in shown)
        await s.pilot.press("enter")
        await s.pilot.pause()
        assert s.value("pick") == "[b]7[/b] hunter22"
        closed = s.modal.query_one(SelectCurrent)
        assert "[b]7[/b] •••" in str(closed.query_one("#label", Static).render())


async def test_a_long_enum_low_in_the_form_opens_clear_of_the_footer() -> None:
    schema = {
        "type": "object",
        "properties": {
            "name": {"type": "string"},
            "email": {"type": "string", "format": "email"},
            "public": {"type": "boolean"},
            "region": {"type": "string", "enum": [f"region {n}" for n in range(12)]},
        },
    }
    async with showing(form(schema)) as s:
        await s.pilot.press("tab", "tab", "tab", "down")
        await s.pilot.pause()
        overlay = s.modal.query_one(SelectOverlay)
        footer = s.modal.query_one(Footer)
        assert overlay.has_focus
        assert s.app.screen.region.contains_region(overlay.region)
        assert not overlay.region.overlaps(footer.region)


LONG_TITLES = {
    "type": "object",
    "properties": {
        "a": {
            "type": "string",
            "title": "An extremely long field title that will not fit in eighty columns, required",
        },
        "b": {
            "type": "string",
            "title": "An extremely long field title that will not fit in eighty columns, optional",
            "description": "What it is for",
        },
        "c": {"type": "string", "title": "Short"},
    },
    "required": ["a"],
}


async def test_a_title_cut_to_fit_its_border_is_shown_whole_under_its_field() -> None:
    # Cut with "…", the rest of it was shown nowhere.
    async with showing(form(LONG_TITLES)) as s:
        # Titles are fitted once the boxes are laid out, a moment after the form is complete.
        await wait_for(s.pilot, lambda: "…" in screen_text(s.app))
        helps = [str(f.help.render()) if f.help else None for f in s.modal.fields]
    assert helps == [
        LONG_TITLES["properties"]["a"]["title"],
        f"{LONG_TITLES['properties']['b']['title']}\nWhat it is for",
        None,
    ]


async def test_a_title_cut_once_the_screen_narrows_is_shown_whole_under_its_field() -> None:
    title = "A title of fifty characters, it fits at 80 columns"
    schema = {"type": "object", "properties": {"a": {"type": "string", "title": title}}}
    async with showing(form(schema)) as s:
        (field,) = s.modal.fields
        assert field.help is None
        await s.pilot.resize_terminal(60, 24)
        await wait_for(s.pilot, lambda: field.help is not None and field.help.is_mounted)
        assert field.help is not None
        assert str(field.help.render()) == title
        assert title in screen_text(s.app)
        await s.pilot.resize_terminal(80, 24)
        await wait_for(s.pilot, lambda: field.help is not None and not field.help.display)
