"""What the form looks like: every field type, errors under fields, a long form, a small screen."""

from __future__ import annotations

from typing import Any

from snapshot_app import modal_app
from textual.pilot import Pilot
from textual.widgets._select import SelectOverlay

from tui.core.models import FormRequest

REGIONS = [
    f"{area}-{side}-{n}" for area in ("eu", "us", "ap") for side in ("west", "east") for n in (1, 2)
]

EVERY_TYPE = FormRequest(
    source="setup-agent",
    title="New service",
    message="Tell me about the service",
    requested_schema={
        "type": "object",
        "properties": {
            "name": {
                "type": "string",
                "title": "Name",
                "description": "Lower case, used in URLs",
                "minLength": 3,
            },
            "email": {"type": "string", "format": "email", "title": "Owner's email"},
            "launch": {"type": "string", "format": "date", "title": "Launch day"},
            "replicas": {
                "type": "integer",
                "title": "Replicas",
                "minimum": 1,
                "maximum": 10,
                "default": 2,
            },
            "budget": {"type": "number", "title": "Monthly budget (EUR)", "minimum": 0},
            "public": {"type": "boolean", "title": "Public", "default": True},
            "tier": {
                "type": "string",
                "title": "Tier",
                "oneOf": [
                    {"const": "free", "title": "Free", "description": "shared runners"},
                    {"const": "pro", "title": "Pro", "description": "dedicated runners"},
                ],
                "default": "pro",
            },
            "region": {
                "type": "string",
                "title": "Region",
                "enum": REGIONS,
            },
            "features": {
                "type": "array",
                "title": "Features",
                "items": {"enum": ["auth", "metrics", "jobs", "cache"]},
                "minItems": 1,
                "maxItems": 2,
                "default": ["metrics"],
            },
        },
        "required": ["name", "email", "region"],
    },
)

SIGNUP = FormRequest(
    source="setup-agent",
    message="Who should own billing-api?",
    requested_schema={
        "type": "object",
        "properties": {
            "name": {"type": "string", "title": "Name", "minLength": 3},
            "email": {"type": "string", "format": "email", "title": "Email"},
            "age": {"type": "integer", "title": "Age", "minimum": 18, "maximum": 120},
        },
        "required": ["name", "email"],
    },
)

REGION = FormRequest(
    source="setup-agent",
    message="Where should billing-api run?",
    requested_schema={
        "type": "object",
        "properties": {
            "region": {"type": "string", "title": "Region", "enum": ["eu-west", "us-east", "ap"]},
            "note": {"type": "string", "title": "Note"},
        },
        "required": ["region"],
    },
)

TIER = FormRequest(
    source="setup-agent",
    message="Which plan for billing-api?",
    requested_schema={
        "type": "object",
        "properties": {
            "tier": {"type": "string", "title": "Tier", "enum": ["free", "pro", "team"]},
            "note": {"type": "string", "title": "Note"},
        },
    },
)
"""An optional pick-one list: "(none)" leads it, numbered 0."""

OWNER = FormRequest(
    source="setup-agent",
    message="Who owns billing-api, and where does it run?",
    requested_schema={
        "type": "object",
        "properties": {
            "name": {"type": "string", "title": "Name"},
            "email": {"type": "string", "format": "email", "title": "Email"},
            "public": {"type": "boolean", "title": "Public"},
            "region": {"type": "string", "title": "Region", "enum": REGIONS},
        },
    },
)


def long_form(fields: int, required: list[str] | None = None) -> FormRequest:
    """A form of `fields` short text fields, `required` (else every third one) required."""
    properties: dict[str, Any] = {
        f"f{i}": {"type": "string", "title": f"Field {i}"} for i in range(1, fields + 1)
    }
    return FormRequest(
        message=f"A form of {fields} fields",
        requested_schema={
            "type": "object",
            "properties": properties,
            "required": list(properties)[::3] if required is None else required,
        },
    )


class TestFormLooks:
    def test_every_field_type(self, snap_compare: Any) -> None:
        app, ready = modal_app(EVERY_TYPE)
        assert snap_compare(app, run_before=ready, terminal_size=(80, 52))

    def test_validation_errors_under_fields(self, snap_compare: Any) -> None:
        app, ready = modal_app(SIGNUP)
        keys = ["a", "b", "tab", *"ada@", "tab", *"12", "ctrl+s"]
        assert snap_compare(app, run_before=ready, press=keys, terminal_size=(80, 24))

    def test_pick_list_focused_with_nothing_picked(self, snap_compare: Any) -> None:
        app, ready = modal_app(REGION)
        assert snap_compare(app, run_before=ready, terminal_size=(80, 24))

    def test_optional_pick_list_with_its_none_row(self, snap_compare: Any) -> None:
        app, ready = modal_app(TIER)
        assert snap_compare(app, run_before=ready, press=["2"], terminal_size=(80, 24))

    def test_long_form_scrolled_to_the_middle(self, snap_compare: Any) -> None:
        app, ready = modal_app(long_form(50))
        keys = ["tab"] * 24
        assert snap_compare(app, run_before=ready, press=keys, terminal_size=(80, 24))

    def test_long_form_refused_points_at_the_field(self, snap_compare: Any) -> None:
        app, ready = modal_app(long_form(50, required=["f40"]))
        assert snap_compare(app, run_before=ready, press=["ctrl+s"], terminal_size=(80, 24))

    def test_long_enum_searched_as_typed(self, snap_compare: Any) -> None:
        app, ready = modal_app(EVERY_TYPE)

        async def typed(pilot: Pilot[Any]) -> None:
            await ready(pilot)
            await pilot.press(*["tab"] * 7, "u")  # the letter opens the list
            overlay = app.screen.query_one(SelectOverlay)
            while not overlay.has_focus:
                await pilot.pause()
            # What is typed stays said however slow the screenshot: Textual's search forgets
            # it 0.7 s after the last key.
            overlay._search_reset_timer.pause()
            await pilot.press("s", "-", "e")

        assert snap_compare(app, run_before=typed, terminal_size=(80, 24))

    def test_long_enum_opened_low_in_the_form(self, snap_compare: Any) -> None:
        app, ready = modal_app(OWNER)
        keys = ["tab", "tab", "tab", "down"]
        assert snap_compare(app, run_before=ready, press=keys, terminal_size=(80, 24))

    def test_small_terminal(self, snap_compare: Any) -> None:
        app, ready = modal_app(EVERY_TYPE)
        assert snap_compare(app, run_before=ready, terminal_size=(60, 20))
