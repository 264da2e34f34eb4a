"""Textual restyles every widget of a screen as it resumes. The app's screens skip that pass
when nothing their styles depend on has changed since their widgets were styled, and keep it
when something has (a new theme while they were hidden)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest
from app_driver import SIZE, screen_text, wait_for, wait_for_modal
from asking import burst
from textual.app import App
from textual.dom import DOMNode
from textual.events import ScreenResume

from tui.app.app import ElicitationApp
from tui.core.models import ChoiceRequest
from tui.core.queue import ElicitationQueue
from widgets.main_screen import MainScreen
from widgets.style_context import skip_needless_restyle


@pytest.fixture
def restyled(monkeypatch: pytest.MonkeyPatch) -> list[DOMNode]:
    """Every node that Textual restyles with its descendants, in order."""
    nodes: list[DOMNode] = []
    update_styles = App.update_styles

    def recording(app: App[Any], node: DOMNode, animate: bool = True) -> None:
        nodes.append(node)
        update_styles(app, node, animate)

    monkeypatch.setattr(App, "update_styles", recording)
    return nodes


class AppBuildingNothingAhead(ElicitationApp):
    prebuilds_modals = False


async def test_the_main_screen_is_not_restyled_as_the_app_starts(restyled: list[DOMNode]) -> None:
    app = AppBuildingNothingAhead(ElicitationQueue())
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: "nothing waiting" in screen_text(app))
        await pilot.pause()
        main = app.screen
        assert main not in restyled
        assert isinstance(main, MainScreen)
        # Styled once, as the widgets mounted: what the CSS says is in force.
        assert main.query_one("#timeline").styles.height.value > 0


def ask(*messages: str) -> Any:
    def agent(queue: ElicitationQueue) -> None:
        for message in messages:
            queue.ask(ChoiceRequest(message=message, options=["a", "b"]))

    return agent


async def test_a_modal_shown_again_is_restyled_only_once_the_theme_has_changed(
    restyled: list[DOMNode],
) -> None:
    app = AppBuildingNothingAhead(
        ElicitationQueue(), ask("First?", "Second?", "Third?"), input_grace=0
    )
    async with app.run_test(size=SIZE) as pilot:
        first = await wait_for_modal(pilot, "First?")
        burst(app, "enter")
        second = await wait_for_modal(pilot, "Second?")
        assert second is first  # the same modal, reloaded
        assert first not in restyled
        before = first.query_one("#dialog").styles.background
        app.theme = "textual-light" if app.theme != "textual-light" else "nord"
        await pilot.pause()
        after = first.query_one("#dialog").styles.background
        assert after != before
        burst(app, "enter")
        third = await wait_for_modal(pilot, "Third?")
        assert third is first
        # The CSS changed since it was styled: shown again, it is restyled, and keeps the theme.
        assert first in restyled
        assert third.query_one("#dialog").styles.background == after


def app_styled(css_updates: int, *pseudo_classes: str) -> Any:
    """What `style_context` reads of an app: its CSS update count and pseudo-classes."""
    return SimpleNamespace(_css_update_count=css_updates, pseudo_classes=frozenset(pseudo_classes))


@pytest.mark.parametrize(
    ("styled_for", "app", "refresh_styles"),
    [
        ((1, frozenset({"focus"})), app_styled(1, "focus"), False),
        ((1, frozenset({"focus"})), app_styled(2, "focus"), True),
        ((1, frozenset({"focus"})), app_styled(1, "blur"), True),
        (None, app_styled(1), True),
    ],
)
def test_a_resume_skips_restyling_only_for_the_context_the_widgets_were_styled_for(
    styled_for: Any, app: Any, refresh_styles: bool
) -> None:
    event = ScreenResume()
    now = skip_needless_restyle(event, app, styled_for)
    assert event.refresh_styles is refresh_styles
    assert now == (app._css_update_count, app.pseudo_classes)
