"""What each simple modal looks like: as first shown, after a key or two, and on a small terminal."""

from __future__ import annotations

from typing import Any

import pytest
from snapshot_app import modal_app

from tui.core.models import (
    ChoiceRequest,
    ConfirmationRequest,
    MultiChoiceRequest,
    Request,
    TextRequest,
)

FRAMEWORK = ChoiceRequest(
    source="setup-agent",
    title="New service",
    message="Which web framework should billing-api use?",
    description="All of them run on **Python 3.11+**.",
    options=[
        {"label": "FastAPI", "value": "fastapi", "description": "async, typed, OpenAPI docs"},
        {"label": "Django", "value": "django", "description": "batteries included"},
        {"label": "Flask", "value": "flask", "description": "small core"},
    ],
    default="django",
)
REGIONS = ChoiceRequest(
    source="setup-agent",
    message="Which region?",
    options=[
        f"{area}-{side}-{n}"
        for area in ("eu", "us", "ap")
        for side in ("west", "east")
        for n in (1, 2)
    ],
)
FEATURES = MultiChoiceRequest(
    source="setup-agent",
    message="Which features should the scaffold include?",
    options=[
        {"label": "PostgreSQL", "value": "postgres", "description": "database + migrations"},
        {"label": "Redis cache", "value": "redis"},
        {"label": "Authentication", "value": "auth", "description": "OAuth2 login"},
        {"label": "Metrics", "value": "metrics"},
    ],
    default=["postgres"],
    min_selected=1,
    max_selected=3,
)
RELEASE_CHECKS = MultiChoiceRequest(
    source="release-agent",
    message="Which checks before the release?",
    options=[
        {
            "label": "Integration suite against the staging database, with the slow migration"
            " tests and the billing replay",
            "value": "integration",
            "description": "about 40 minutes, needs the VPN",
        },
        {"label": "Lint", "value": "lint"},
        {"label": "Type-check every package with mypy --strict and pyright", "value": "types"},
    ],
)
PACKAGES = MultiChoiceRequest(
    source="deps-agent",
    message="Which packages should be upgraded?",
    options=[
        {"label": name, "value": name, "description": f"{old} → {new}"}
        for name, old, new in [
            ("aiohttp", "3.9.5", "3.10.2"),
            ("attrs", "23.2.0", "24.2.0"),
            ("black", "24.4.2", "24.8.0"),
            ("certifi", "2024.2.2", "2024.7.4"),
            ("click", "8.1.6", "8.1.7"),
            ("django", "5.0.6", "5.1"),
            ("fastapi", "0.111.0", "0.112.0"),
            ("httpcore", "1.0.4", "1.0.5"),
            ("httpx", "0.26.0", "0.27.0"),
            ("idna", "3.6", "3.7"),
            ("jinja2", "3.1.3", "3.1.4"),
            ("mypy", "1.10.0", "1.11.1"),
            ("pydantic", "2.7.1", "2.8.2"),
            ("pytest", "8.2.0", "8.3.2"),
            ("pytest-httpx", "0.29.0", "0.30.0"),
            ("requests", "2.31.0", "2.32.3"),
            ("ruff", "0.4.4", "0.6.1"),
            ("urllib3", "2.2.1", "2.2.2"),
        ]
    ],
    default=["django"],
    max_selected=5,
)
DEPLOY = ConfirmationRequest(
    source="setup-agent",
    message="Deploy billing-api to production now?",
    default=True,
    yes_label="Deploy",
    no_label="Not yet",
)
DROP = ConfirmationRequest(
    source="db-agent",
    message="Drop the production database and its backups?",
    yes_label="Yes, drop the database and every nightly backup of it",
    no_label="No, keep everything as it is",
)
NAME = TextRequest(
    source="setup-agent",
    message="What should the new service be called?",
    placeholder="lowercase, dashes allowed",
    min_length=3,
    max_length=40,
)
NOTES = TextRequest(
    source="setup-agent",
    message="Release notes for this deploy?",
    multiline=True,
    default="- first release\n- health checks",
)

CASES: list[tuple[str, Request, list[str]]] = [
    ("choice", FRAMEWORK, []),
    ("choice_moved", FRAMEWORK, ["down"]),
    ("choice_filter_first", REGIONS, []),
    ("choice_filtered", REGIONS, ["u", "s"]),
    ("multi_choice", FEATURES, []),
    ("multi_choice_toggled", FEATURES, ["down", "space", "3"]),
    ("multi_choice_too_many", FEATURES, ["a", "enter"]),
    ("multi_choice_long_labels", RELEASE_CHECKS, ["space"]),
    ("multi_choice_filtered", PACKAGES, [*"http", "down", "space"]),
    ("confirmation", DEPLOY, []),
    ("confirmation_switched", DEPLOY, ["right"]),
    ("confirmation_long_labels", DROP, []),
    ("text", NAME, []),
    ("text_too_short", NAME, ["a", "b", "enter"]),
    ("text_multiline", NOTES, []),
]


class TestAt80x24:
    @pytest.mark.parametrize(("name", "request_", "keys"), CASES, ids=[c[0] for c in CASES])
    def test_modal(self, snap_compare: Any, name: str, request_: Request, keys: list[str]) -> None:
        app, ready = modal_app(request_)
        assert snap_compare(app, run_before=ready, press=keys, terminal_size=(80, 24))


SMALL = [case for case in CASES if not case[2]]


class TestAt60x20:
    @pytest.mark.parametrize(("name", "request_", "keys"), SMALL, ids=[c[0] for c in SMALL])
    def test_modal(self, snap_compare: Any, name: str, request_: Request, keys: list[str]) -> None:
        app, ready = modal_app(request_)
        assert snap_compare(app, run_before=ready, press=keys, terminal_size=(60, 20))


class TestMainScreen:
    def test_waiting_count_and_timeline(self, snap_compare: Any) -> None:
        app, ready = modal_app(DEPLOY, NAME, FRAMEWORK)
        assert snap_compare(app, run_before=ready, press=["y"], terminal_size=(80, 24))


DATABASE = ChoiceRequest(
    source="setup-agent",
    title="New service",
    message="Which database should billing-api use?",
    description="Managed by the **platform team**.",
    options=[
        {"label": "PostgreSQL", "value": "postgres", "description": "the default"},
        {"label": "SQLite", "value": "sqlite"},
    ],
    timeout=90,
)
ZONES = ChoiceRequest(
    source="setup-agent",
    message="Which zone?",
    options=[f"zone-{letter}" for letter in "abcdefghijkl"],
    default="zone-c",
)


class TestReloaded:
    """The modal kept from the previous question of the same shape, showing the next one:
    nothing of the previous question (its options, filter, highlight, timer) is left."""

    def test_choice(self, snap_compare: Any) -> None:
        app, ready = modal_app(FRAMEWORK, DATABASE)
        assert snap_compare(app, run_before=ready, press=["enter"], terminal_size=(80, 24))

    def test_filtered_choice(self, snap_compare: Any) -> None:
        app, ready = modal_app(REGIONS, ZONES)
        keys = ["u", "s", "enter"]
        assert snap_compare(app, run_before=ready, press=keys, terminal_size=(80, 24))
