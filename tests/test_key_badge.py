"""`--show-keys`: a badge names the key just pressed; a key typed into a secret shows as a dot."""

from __future__ import annotations

import pytest
from secret_session import CANARY, asking_app, wait_for_modal

from tui.core.models import SecretRequest, TextRequest
from widgets.base import ElicitationModal
from widgets.key_badge import KeyBadge, key_label


@pytest.mark.parametrize(
    ("key", "char", "label"),
    [
        ("enter", "\r", "⏎"),
        ("tab", "\t", "Tab"),
        ("3", "3", "3"),
        ("ctrl+s", "\x13", "ctrl+s"),
        ("left_square_bracket", "[", "["),
        ("shift+tab", None, "⇧Tab"),
    ],
)
def test_key_labels(key: str, char: str | None, label: str) -> None:
    assert key_label(key, char) == label


async def test_the_badge_shows_each_key_literally() -> None:
    app, _ = asking_app(TextRequest(message="Name?"))
    app.show_keys = True
    async with app.run_test(size=(80, 24)) as pilot:
        modal = await wait_for_modal(pilot, ElicitationModal)
        await pilot.press("[")
        badge = modal.query_one(KeyBadge)
        assert str(badge.content) == "["
        assert "[" in app.export_screenshot()
        await pilot.press("tab")
        assert str(badge.content) == "Tab"
        assert badge.region.right <= 80 and badge.region.bottom <= 23


async def test_a_secret_key_shows_as_a_dot() -> None:
    app, _ = asking_app(SecretRequest(message="Key?"))
    app.show_keys = True
    async with app.run_test(size=(80, 24)) as pilot:
        modal = await wait_for_modal(pilot, ElicitationModal)
        for character in CANARY:
            await pilot.press(character)
            assert str(modal.query_one(KeyBadge).content) == "•"
        await pilot.press("ctrl+r")
        assert str(modal.query_one(KeyBadge).content) == "ctrl+r"
