"""The footer that lists the keys: built once per set of keys, each key styled once, and
not rebuilt while another screen covers its own."""

from __future__ import annotations

from typing import Any, ClassVar

import pytest
from app_driver import wait_for, wait_for_modal
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import Label
from textual.widgets._footer import FooterKey

from tui import ElicitationApp, ElicitationQueue, TextRequest
from widgets.key_footer import KeyFooter


class FooterApp(App[None]):
    """A footer with two keys; the second is shown only while `offered`."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("a", "always", "Always"),
        Binding("o", "offered", "Offered"),
    ]

    offered = True

    def compose(self) -> ComposeResult:
        yield Label("main")
        yield KeyFooter()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return self.offered if action == "offered" else True

    def action_always(self) -> None:
        """A key's action: the tests only look at the footer."""

    def action_offered(self) -> None:
        """A key's action: the tests only look at the footer."""


def descriptions(footer: KeyFooter) -> list[str]:
    """What the keys shown say."""
    return [key.description for key in footer.query(FooterKey) if key.display]


async def test_each_key_is_styled_once_as_it_mounts(monkeypatch: pytest.MonkeyPatch) -> None:
    # Textual's keys start compact and are then bound to the footer's `compact`: a restyle
    # each way for every key, unless they start as the footer is.
    restyled: list[str] = []
    restyle = FooterKey.update_node_styles

    def counted(key: FooterKey, animate: bool = True) -> None:
        restyled.append(key.description)
        restyle(key, animate)

    monkeypatch.setattr(FooterKey, "update_node_styles", counted)
    app = FooterApp()
    async with app.run_test(size=(60, 6)) as pilot:
        footer = app.query_one(KeyFooter)
        await wait_for(pilot, lambda: len(descriptions(footer)) >= 2)
        keys = list(footer.query(FooterKey))
    assert [key.description for key in keys if not key.has_class("-command-palette")] == [
        "Always",
        "Offered",
    ]
    assert not any(key.has_class("-compact") for key in keys[:2])
    # only the command palette's key, which the footer leaves compact, restyles itself
    assert all(description == "palette" for description in restyled), restyled


async def test_a_key_no_longer_offered_is_hidden_once_in_view_and_shown_when_offered_again() -> (
    None
):
    app = FooterApp()
    async with app.run_test(size=(60, 6)) as pilot:
        footer = app.query_one(KeyFooter)
        await wait_for(pilot, lambda: "Offered" in descriptions(footer))
        built = list(footer.query(FooterKey))
        await app.push_screen(Screen[Any]())
        main = app.screen_stack[0]
        app.offered = False
        main.refresh_bindings()
        for _ in range(5):
            await pilot.pause()
        covered = descriptions(footer)  # covered: nothing changes
        app.pop_screen()
        await wait_for(pilot, lambda: "Offered" not in descriptions(footer))
        hidden = descriptions(footer)
        app.offered = True
        main.refresh_bindings()
        await wait_for(pilot, lambda: "Offered" in descriptions(footer))
        shown_again = descriptions(footer)
        kept = list(footer.query(FooterKey))
    assert covered == shown_again == ["Always", "Offered", "palette"]
    assert hidden == ["Always", "palette"]
    assert kept == built  # no key built anew at any step


async def test_a_question_shown_while_the_app_is_not_focused_lists_its_keys() -> None:
    # Textual's footer builds no keys while its app has not the focus: a question that
    # came to a browser tab or a terminal window in the background showed an empty footer,
    # where a phone's reader taps Decline or Quit.
    queue = ElicitationQueue()
    app = ElicitationApp(queue, input_grace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        app.post_message(events.AppBlur())
        await wait_for(pilot, lambda: not app.app_focus)
        queue.submit(TextRequest(message="Release name?"))
        modal = await wait_for_modal(pilot)
        footer = modal.query_one(KeyFooter)
        await wait_for(pilot, lambda: "Decline" in descriptions(footer))
        assert descriptions(footer)[:2] == ["Accept", "Cancel"]
        assert not app.app_focus
