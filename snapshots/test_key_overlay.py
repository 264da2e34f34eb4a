"""What `--show-keys` draws: a badge in the bottom-right corner naming the key just pressed."""

from __future__ import annotations

from typing import Any

from snapshot_app import modal_app
from textual.pilot import Pilot

from tui.core.models import ChoiceRequest, SecretRequest

FRAMEWORK = ChoiceRequest(
    source="setup-agent",
    message="Which web framework should billing-api use?",
    options=["FastAPI", "Django", "Flask", "Litestar"],
)

API_KEY = SecretRequest(source="setup-agent", message="Paste the deploy API key", pattern="sk-...")


def pressed(request: Any, *keys: str) -> tuple[Any, Any]:
    app, ready = modal_app(request)
    app.show_keys = True

    async def run_before(pilot: Pilot[Any]) -> None:
        await ready(pilot)
        await pilot.press(*keys)
        await pilot.pause()

    return app, run_before


class TestKeyBadge:
    def test_arrow_key(self, snap_compare: Any) -> None:
        app, run_before = pressed(FRAMEWORK, "down", "down")
        assert snap_compare(app, run_before=run_before, terminal_size=(80, 24))

    def test_key_typed_into_a_secret_is_a_dot(self, snap_compare: Any) -> None:
        app, run_before = pressed(API_KEY, *"sk-live-5c2f")
        assert snap_compare(app, run_before=run_before, terminal_size=(80, 24))
