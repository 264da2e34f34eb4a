"""Every kind with NO_COLOR set: its states (picked, ticked, focused, wrong) still tell apart."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from snapshot_app import modal_app
from test_modals import DEPLOY, FEATURES, FRAMEWORK, NAME
from test_questions import BATCH
from test_small_screen import DEPLOYMENT, EDIT

from tui.core.config_folder import CONFIG_DIR_ENV
from tui.core.models import Request, SecretRequest, UrlRequest

PASSWORD = SecretRequest(
    source="db-agent", message="Choose a password for 'billing'", min_length=12, confirm=True
)
SIGN_IN = UrlRequest(
    source="calendar", message="Sign in to connect your calendar", url="https://example.com/oauth"
)

CASES: list[tuple[str, Request, list[str]]] = [
    ("text_too_short", NAME, ["a", "b", "enter"]),
    ("choice_moved", FRAMEWORK, ["down"]),
    ("multi_choice_ticked", FEATURES, ["down", "space", "down", "down", "space"]),
    ("secret_mismatch", PASSWORD, [*"correct-horse-1", "tab", *"correct-horse-2", "enter"]),
    ("confirmation_switched", DEPLOY, ["right"]),
    ("form_invalid_and_picked", DEPLOYMENT, ["down", "enter", "enter", *"ab", "enter"]),
    ("form_switch_in_use", DEPLOYMENT, ["tab", "tab", "tab"]),
    ("questions_picked_and_ticked", BATCH, ["2", "tab", "1", "3"]),
    ("tool_approval_moved", EDIT, ["down", "down"]),
    ("url", SIGN_IN, ["tab"]),
]


@pytest.fixture(autouse=True)
def no_color(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Read (and removed) by the app as it is built; the snapshot conftest clears it otherwise.
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setenv(CONFIG_DIR_ENV, str(tmp_path))


@pytest.mark.parametrize(("name", "request_", "keys"), CASES, ids=[c[0] for c in CASES])
def test_states_read_without_colour(
    snap_compare: Any, name: str, request_: Request, keys: list[str]
) -> None:
    app, ready = modal_app(request_)
    assert app.no_color
    assert snap_compare(app, run_before=ready, press=keys, terminal_size=(80, 24))
