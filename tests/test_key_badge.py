"""`--show-keys`: a badge names the key just pressed; a key typed into a secret shows as a dot."""

from __future__ import annotations

import pytest
from app_driver import screen_text
from secret_session import CANARY, asking_app, wait_for_modal

from tui.cli.demo import health_check_edit
from tui.core.models import ChoiceRequest, SecretRequest, TextRequest
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


EDGES = frozenset(" ─╰╯")
"""What the badge may hide: blank screen, or a dialog's bottom edge."""


async def test_the_badge_hides_nothing_typed_in_a_dialog_as_tall_as_the_screen() -> None:
    app, _ = asking_app(health_check_edit("call-1", "invoice-api"))
    app.show_keys = True
    async with app.run_test(size=(80, 24)) as pilot:
        modal = await wait_for_modal(pilot, ElicitationModal)
        # Deny, and a reason as long as its line, on the dialog's last row but its edge.
        await pilot.press("4", *"add a test for the endpoint first, then ask me again, thanks")
        badge = modal.query_one(KeyBadge)
        region = badge.region
        badge.display = False
        await pilot.pause()
        rows = screen_text(app).splitlines()
        hidden = {
            rows[y][x]
            for y in range(region.y, region.bottom)
            for x in range(region.x, region.right)
        }
        assert hidden <= EDGES, hidden


async def test_the_dialog_stays_put_when_the_first_key_is_shown() -> None:
    app, _ = asking_app(ChoiceRequest(message="Which?", options=["a", "b", "c"]))
    app.show_keys = True
    async with app.run_test(size=(80, 24)) as pilot:
        modal = await wait_for_modal(pilot, ElicitationModal)
        await pilot.pause()
        dialog = modal.query_one("#dialog")
        before = dialog.region
        await pilot.press("down")
        await pilot.pause()
        assert modal.query(KeyBadge) and dialog.region == before
