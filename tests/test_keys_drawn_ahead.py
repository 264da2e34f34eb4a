"""The footer of a modal built ahead is drawn ahead with the keys the modal offers between
questions: the first question of a common shape draws none of its keys anew (a key's first
frame is most of what a footer costs), as the questions after it do not."""

from __future__ import annotations

from typing import Any

import pytest
from app_driver import SIZE, wait_for, wait_for_modal
from textual.widgets._footer import FooterKey

from tui.app.app import ElicitationApp
from tui.core.models import (
    ChoiceRequest,
    ConfirmationRequest,
    MultiChoiceRequest,
    Request,
    SecretRequest,
    TextRequest,
    ToolApprovalRequest,
)
from tui.core.queue import ElicitationQueue

FIRST_QUESTIONS = {
    "short choice": ChoiceRequest(message="Region?", options=["eu", "us"]),
    # Digits go into a long list's filter: the footer offers no digit keys.
    "long choice of ports": ChoiceRequest(
        message="Port?", options=[str(n) for n in range(8000, 8012)]
    ),
    "long choice of names": ChoiceRequest(
        message="Zone?", options=[f"zone {chr(97 + n)}" for n in range(12)]
    ),
    "text": TextRequest(message="Service name?"),
    "confirmation": ConfirmationRequest(message="Deploy?"),
    "multiple choice": MultiChoiceRequest(message="Which?", options=["a", "b", "c"]),
    "secret": SecretRequest(message="API key?"),
    "tool approval": ToolApprovalRequest(
        message="Drop it?", tool_name="drop_table", tool_call_id="call-1"
    ),
    "long multiple choice": MultiChoiceRequest(
        message="Which ports?", options=[str(n) for n in range(8000, 8012)]
    ),
}


@pytest.mark.parametrize("request_", FIRST_QUESTIONS.values(), ids=FIRST_QUESTIONS.keys())
async def test_the_first_question_of_a_shape_built_ahead_draws_no_footer_key_anew(
    monkeypatch: pytest.MonkeyPatch, request_: Request
) -> None:
    drawn: list[FooterKey] = []
    render = FooterKey.render_line

    def drawing(key: FooterKey, y: int) -> Any:
        drawn.append(key)  # a line not in the key's cache: drawn anew
        return render(key, y)

    monkeypatch.setattr(FooterKey, "render_line", drawing)
    queue = ElicitationQueue()
    app = ElicitationApp(queue, input_grace=0)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: app._prebuilt)
        await pilot.pause(0.1)  # whatever building ahead left to do after the refresh
        built = {id(modal) for modal in app._modals._idle.values()}
        drawn.clear()
        queue.submit(request_)
        modal = await wait_for_modal(pilot, request_.message)
        await pilot.pause(0.1)
        shown = [key for key in modal.query(FooterKey) if key.display]
        drawn_anew = [key.description for key in shown if key in drawn]
        await pilot.press("escape")
    assert id(modal) in built
    assert "Quit" in [key.description for key in shown]
    # (A key the question does not offer may be drawn in its first frame, and hidden right
    # after, as the footer catches up with the bindings after each refresh.)
    assert drawn_anew == []
