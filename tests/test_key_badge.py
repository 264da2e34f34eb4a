"""`--show-keys`: a badge names the key just pressed; a key typed into a secret shows as a dot."""

from __future__ import annotations

from pathlib import Path

import pytest
from app_driver import screen_text
from cast_badges import badges_drawn
from recorded_session import run_cli
from secret_session import CANARY, asking_app, carries_canary, wait_for, wait_for_modal
from textual import events

from tui.app.app import ElicitationApp
from tui.cli.demo import health_check_edit
from tui.core.models import ChoiceRequest, SecretRequest, TextRequest
from tui.core.queue import ElicitationQueue
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


async def record_secret_typing(path: Path) -> None:
    """A session recorded at `path`: the canary typed and corrected in a secret and its
    confirmation with every kind of key that edits one (letters, Backspace, Ctrl+U, a paste)."""
    app = ElicitationApp(
        ElicitationQueue(),
        lambda queue: queue.ask(SecretRequest(message="Key?", confirm=True)).action,
        input_grace=0,
        transcript=path,
    )
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for_modal(pilot, ElicitationModal)
        # A key shown for less than a frame is in no frame of a render, nor of a live cast on
        # a busy machine: each kind of key is held for frames of its own once.
        await pilot.press(*CANARY[:4], "backspace")
        await pilot.pause(0.2)
        await pilot.press("ctrl+u")
        await pilot.pause(0.2)
        await pilot.press(*CANARY[:5])
        app.post_message(events.Paste(CANARY[5:]))
        await pilot.pause(0.2)
        await pilot.press("tab", *CANARY[-3:], "ctrl+u")
        app.post_message(events.Paste(CANARY))
        await pilot.pause(0.2)
        await pilot.press("enter")
        await wait_for(pilot, lambda: app.agent_result == "accept")


async def test_no_key_typed_into_a_secret_shows_in_the_badge_of_a_replay_or_a_render(
    tmp_path: Path,
) -> None:
    transcript, live, rendered = tmp_path / "s.jsonl", tmp_path / "live.cast", tmp_path / "r.cast"
    await record_secret_typing(transcript)
    for output in (["--cast", str(live)], ["-o", str(rendered)]):
        done = run_cli("replay", str(transcript), "--show-keys", *output)
        assert "1 result, all as recorded" in done.stdout, done.stderr
    for cast in (live, rendered):
        # Typed characters and pastes as dots; the keys that only edit, by their names.
        assert (
            {"•", "paste •••", "⌫", "ctrl+u"}
            <= badges_drawn(cast)
            <= {"•", "paste •••", "⌫", "ctrl+u", "Tab", "⏎"}
        )
        assert not carries_canary(cast.read_text(encoding="utf-8"))
