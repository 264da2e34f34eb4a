"""What the secret modal looks like: masked, revealed, a mismatch, and the keyring's failure."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import keyring
import pytest
from keyring.backend import KeyringBackend
from keyring.backends import fail
from keyring.errors import PasswordDeleteError, PasswordSetError
from snapshot_app import modal_app
from textual.pilot import Pilot

from tui.core.models import KeyringTarget, SecretRequest
from widgets.secret import SecretModal

TYPED = "sk-live-5c2f9e1b7a"

API_KEY = SecretRequest(
    source="setup-agent",
    title="Hosting provider",
    message="Paste the deploy API key for the hosting provider",
    description="Once saved in your system keyring, the agent gets only a reference to it.",
    pattern="sk-...",
    min_length=8,
    store=KeyringTarget(service="elicit-tui-demo", username="deploy_api_key"),
)

NEW_PASSWORD = SecretRequest(
    source="db-agent",
    message="Choose a password for the database user 'billing'",
    min_length=12,
    confirm=True,
)


class RefusingKeyring(KeyringBackend):
    """A usable-looking keyring that refuses to store anything, like a daemon saying no."""

    priority = 1
    viable = False

    def get_password(self, service: str, username: str) -> str | None:
        return None

    def set_password(self, service: str, username: str, password: str) -> None:
        raise PasswordSetError("the keyring daemon refused the new item")

    def delete_password(self, service: str, username: str) -> None:
        raise PasswordDeleteError("nothing to delete")


def _use(backend: KeyringBackend) -> Iterator[None]:
    previous = keyring.get_keyring()
    keyring.set_keyring(backend)
    yield
    keyring.set_keyring(previous)


@pytest.fixture(autouse=True)
def refusing_keyring() -> Iterator[None]:
    """No snapshot reads the real keyring; a store is refused unless a test says otherwise."""
    yield from _use(RefusingKeyring())


@pytest.fixture
def no_keyring() -> Iterator[None]:
    """keyring's "no backend found" keyring, as on a server without a desktop keyring."""
    yield from _use(fail.Keyring())


def typed(request: SecretRequest, *keys: str, choosing: bool = False) -> tuple[Any, Any]:
    """An app showing `request` with `keys` pressed (and, if `choosing`, the keyring's refusal)."""
    app, ready = modal_app(request)

    async def run_before(pilot: Pilot[Any]) -> None:
        await ready(pilot)
        await pilot.press(*keys)
        modal = app.screen
        assert isinstance(modal, SecretModal)
        if choosing:
            await app.workers.wait_for_complete()
            for _ in range(50):
                if modal.choosing:
                    break
                await pilot.pause()
            assert modal.choosing
        await pilot.pause()

    return app, run_before


class TestSecretModal:
    def test_masked(self, snap_compare: Any) -> None:
        app, run_before = typed(API_KEY, *TYPED)
        assert snap_compare(app, run_before=run_before, terminal_size=(80, 24))

    def test_masked_small_terminal(self, snap_compare: Any) -> None:
        app, run_before = typed(API_KEY, *TYPED)
        assert snap_compare(app, run_before=run_before, terminal_size=(60, 20))

    def test_revealed(self, snap_compare: Any) -> None:
        app, run_before = typed(
            NEW_PASSWORD, *"correct-horse-battery", "enter", *"correct-h", "ctrl+r"
        )
        assert snap_compare(app, run_before=run_before, terminal_size=(80, 24))

    def test_mismatch_error(self, snap_compare: Any) -> None:
        keys = (*"correct-horse-battery", "enter", *"correct-horse-batery", "enter")
        app, run_before = typed(NEW_PASSWORD, *keys)
        assert snap_compare(app, run_before=run_before, terminal_size=(80, 24))


class TestKeyringProblems:
    def test_keyring_failure_choice(self, snap_compare: Any) -> None:
        app, run_before = typed(API_KEY, *TYPED, "enter", choosing=True)
        assert snap_compare(app, run_before=run_before, terminal_size=(80, 24))

    def test_no_keyring_warning_before_typing(self, no_keyring: None, snap_compare: Any) -> None:
        app, run_before = typed(API_KEY)
        assert snap_compare(app, run_before=run_before, terminal_size=(80, 24))

    def test_no_keyring_choice(self, no_keyring: None, snap_compare: Any) -> None:
        app, run_before = typed(API_KEY, *TYPED, "enter", choosing=True)
        assert snap_compare(app, run_before=run_before, terminal_size=(80, 24))
