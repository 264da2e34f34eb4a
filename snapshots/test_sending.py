"""An answer on its way to an inbox elsewhere: the modal while it is sent, and once it was not."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from snapshot_app import FIXED_TIME, modal_settled
from textual.pilot import Pilot

from tui.app.app import ElicitationApp
from tui.core.front_end import AnswerNotSent
from tui.core.models import ElicitationResult, Request, TextRequest
from tui.core.queue import Answered, ElicitationQueue, Subscriber

TAG = TextRequest(source="release-agent", message="Tag name for this release?")


class FarInbox:
    """The questions of an `ElicitationQueue`, answered as if by an inbox elsewhere: each
    answer waits for `reply` to be set, then is not delivered."""

    def __init__(self) -> None:
        self.queue = ElicitationQueue()
        self.reply = threading.Event()

    def subscribe(self, subscriber: Subscriber, *, front_end: bool = True) -> Callable[[], None]:
        return self.queue.subscribe(subscriber, front_end=front_end)

    def is_pending(self, request_id: str) -> bool:
        return self.queue.is_pending(request_id)

    def pending(self) -> list[Request]:
        return self.queue.pending()

    def respond(
        self, request_id: str, result: ElicitationResult, front_end: str | None = None
    ) -> bool:
        self.reply.wait(10)
        raise AnswerNotSent("the inbox did not reply in time")

    def answered(self, request_id: str) -> Answered | None:
        return self.queue.answered(request_id)

    def refusal(self, request_id: str) -> str:
        return self.queue.refusal(request_id)

    def close(self) -> None:
        self.reply.set()
        self.queue.close()


def sending_app(replied: bool) -> tuple[ElicitationApp, Callable[[Pilot[Any]], Any]]:
    inbox = FarInbox()
    if replied:
        inbox.reply.set()
    app = ElicitationApp(
        inbox, front_end_name="terminal 1", input_grace=0, time_label=lambda _at: FIXED_TIME
    )
    done = "Not sent" if replied else "Sending"

    async def ready(pilot: Pilot[Any]) -> None:
        app.animation_level = "none"
        inbox.queue.submit(TAG)
        await modal_settled(pilot)
        await pilot.press(*"v1.2", "enter")
        for _ in range(200):
            await pilot.pause(0.01)
            if done in str(app.screen.query_one("#error").render()):
                break
        await pilot.pause()

    return app, ready


def test_an_answer_on_its_way(snap_compare: Any) -> None:
    app, ready = sending_app(replied=False)
    assert snap_compare(app, run_before=ready, terminal_size=(80, 24))


def test_an_answer_not_sent_keeps_what_was_typed(snap_compare: Any) -> None:
    app, ready = sending_app(replied=True)
    assert snap_compare(app, run_before=ready, terminal_size=(80, 24))
