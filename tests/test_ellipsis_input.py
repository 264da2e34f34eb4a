"""A placeholder longer than its field ends in "…" instead of stopping at a word as if it were
whole; every other line of a field is drawn as Textual's `Input` draws it."""

from __future__ import annotations

from typing import Any

from app_driver import screen_text, wait_for, wait_for_modal
from asking import Asker, burst
from textual.app import App, ComposeResult
from textual.widget import Widget
from textual.widgets import Input

from tui.app.app import ElicitationApp
from tui.core.models import Question, QuestionsRequest, SecretRequest, TextRequest
from tui.core.queue import ElicitationQueue
from widgets.ellipsis_input import EllipsisInput
from widgets.questions import QuestionsModal

LONG = "the name of a service in services.yaml, as it is spelled there (lower case, no spaces)"


def row_of(app: App[Any], field: Widget) -> str:
    """The screen's row of the one-line `field`'s text, its borders left out."""
    region = field.content_region
    return screen_text(app).splitlines()[region.y][region.x - 1 : region.right + 1]


def app_asking(*requests: Any) -> ElicitationApp:
    return ElicitationApp(ElicitationQueue(), Asker(*requests), input_grace=0)


async def test_a_text_question_s_long_placeholder_ends_in_an_ellipsis_until_typing() -> None:
    app = app_asking(TextRequest(message="Service?", placeholder=LONG))
    async with app.run_test(size=(80, 24)) as pilot:
        modal = await wait_for_modal(pilot, "Service?")
        field = modal.query_one("#answer", Input)
        field.cursor_blink = False
        await wait_for(pilot, lambda: "the name" in row_of(app, field))
        cut, width = row_of(app, field), field.content_region.width
        burst(app, *"billing")
        await wait_for(pilot, lambda: "billing" in row_of(app, field))
        typed = row_of(app, field)
        burst(app, *["backspace"] * 7)
        await wait_for(pilot, lambda: "the name" in row_of(app, field))
        again = row_of(app, field)
    assert cut.strip().startswith("the name of a service in services.yaml")
    assert cut.rstrip().endswith("(l…")
    assert len(cut.rstrip()) == width + 1  # the "…" is in the field's last cell
    assert typed.strip() == "billing"
    assert again == cut


async def test_a_secret_s_long_placeholder_ends_in_an_ellipsis() -> None:
    app = app_asking(SecretRequest(message="Token?", placeholder=LONG))
    async with app.run_test(size=(60, 24)) as pilot:
        field = (await wait_for_modal(pilot, "Token?")).query_one("#secret", Input)
        await wait_for(pilot, lambda: "the name" in row_of(app, field))
        row = row_of(app, field)
    assert row.strip().startswith("the name of a service")
    assert row.rstrip().endswith("…")


async def test_a_narrow_batch_s_note_keeps_its_label_and_ends_in_an_ellipsis() -> None:
    request = QuestionsRequest(
        message="Batch",
        questions=[Question(question="Which?", header="Which", options=["a", "b"])],
    )
    app = app_asking(request)
    async with app.run_test(size=(30, 24)) as pilot:
        modal = await wait_for_modal(pilot, "Batch")
        assert isinstance(modal, QuestionsModal)
        note = modal.panes[0].note_input
        assert note is not None

        def row() -> str:
            region = note.region
            return screen_text(app).splitlines()[region.y][region.x : region.right]

        await wait_for(pilot, lambda: row().startswith("Note"))
        shown = row()
    assert shown.startswith("Note    optional")
    assert shown.rstrip().endswith("…")


class Side(App[None]):
    """The same placeholder in an `EllipsisInput` and in an `Input`, one above the other."""

    AUTO_FOCUS = None

    def __init__(self, placeholder: str) -> None:
        super().__init__()
        self.placeholder = placeholder

    def compose(self) -> ComposeResult:
        yield EllipsisInput(placeholder=self.placeholder, id="ours")
        yield Input(placeholder=self.placeholder, id="textual")


async def test_a_placeholder_that_fits_and_a_value_are_drawn_as_input_draws_them() -> None:
    async with Side("service name").run_test(size=(40, 8)) as pilot:
        ours, textual = pilot.app.query_one("#ours", Input), pilot.app.query_one("#textual", Input)
        await pilot.pause()
        placeholder = list(ours.render_line(0)), list(textual.render_line(0))
        ours.value = textual.value = "billing-api"
        await pilot.pause()
        typed = list(ours.render_line(0)), list(textual.render_line(0))
    assert "service name" in "".join(segment.text for segment in placeholder[0])
    assert placeholder[0] == placeholder[1]
    assert typed[0] == typed[1]
