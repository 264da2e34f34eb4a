"""An answer typed into a masked field of a dialog of one's own (`Input(password=True)`) stays
a secret through the inbox, as it does in the process it was typed in: its asker gets it
flagged `sensitive`, and the inbox's transcript, its other front ends and `ask --to` show the
mask, whichever front end gave it."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from inbox_process import InboxProcess, running_inbox
from running_inbox import running_inbox as inbox_in_thread
from stock_widget_kinds import PinRequest
from test_inbox_ask_to import ask
from test_remote_front_end import attached_app, connected, wait_for

from tui import ElicitationResult, RemoteQueue
from tui.cli.ask import REDACTED
from tui.core.queue import QueueEvent
from widgets.base import ElicitationModal

TESTS = Path(__file__).resolve().parent
KINDS = {
    "ELICIT_TUI_KINDS": "stock_widget_kinds",
    "PYTHONPATH": f"{TESTS}{os.pathsep}{TESTS.parent}",
}
"""The environment of a process that knows the masked PIN's kind."""
CANARY = "pin-CANARY-7301"


def answer_flagged(inbox: InboxProcess, front_end: str = "browser 1") -> dict[str, Any]:
    """Answer the one waiting request with the canary, flagged as a dialog's masked field's
    answer is sent; the inbox's reply to the front end."""
    (pending,) = inbox.wait_pending(1)
    answer = {"action": "accept", "content": CANARY, "reason": None, "sensitive": True}
    response = inbox.answer(pending["id"], answer, front_end)
    assert response.status_code == 200, response.text
    reply: dict[str, Any] = response.json()
    return reply


def assert_hidden(result: ElicitationResult) -> None:
    assert result.content == CANARY and result.sensitive
    assert CANARY not in repr(result) and CANARY not in str(result)
    assert CANARY not in result.to_llm_text()


def test_a_flagged_answer_reaches_the_asker_flagged_and_nobody_else_in_clear(
    tmp_path: Path,
) -> None:
    # The flag was dropped on the way in: the asker got sensitive=False and `to_llm_text()`
    # quoted the PIN, the transcript recorded it, and other front ends were sent it.
    transcript = tmp_path / "inbox.jsonl"
    with running_inbox("--transcript", str(transcript), env=KINDS) as inbox:
        watching = RemoteFrontEndWatching(inbox)
        try:
            asked = RemoteQueue(inbox.base, inbox.token).submit(PinRequest(message="PIN?"))
            reply = answer_flagged(inbox)
            result = asked.result(timeout=20)
            watching.wait_resolved()
        finally:
            watching.close()
        assert inbox.stop() == 0
    assert_hidden(result)
    assert CANARY not in str(reply)
    assert CANARY not in str(watching.events)
    assert CANARY not in transcript.read_text()


def test_ask_to_prints_a_flagged_answer_masked_as_ask_does_in_its_own_process() -> None:
    with running_inbox(env=KINDS) as inbox:
        answering = threading.Thread(target=answer_flagged, args=(inbox,))
        answering.start()
        done = ask(
            "--to",
            inbox.base,
            "--token",
            inbox.token,
            "--json",
            '{"kind": "pin_test", "message": "PIN?"}',
            env=KINDS,
        )
        answering.join()
    assert done.returncode == 0, done.stderr
    assert CANARY not in done.stdout + done.stderr
    assert REDACTED in done.stdout


async def test_a_pin_typed_in_an_attached_app_reaches_its_asker_flagged() -> None:
    # The app flagged it, but the answer it sent said nothing of it; and the inbox's reply
    # to `/v1/ask` dropped the flag too, so even the inbox's own dialogs' were lost.
    with inbox_in_thread() as inbox:
        asked = RemoteQueue(inbox.url, inbox.token).submit(PinRequest(message="PIN?"))
        front_end, app = attached_app(inbox)
        other, events = connected(inbox, "browser 1")
        try:
            async with app.run_test(size=(80, 24)) as pilot:
                await wait_for(pilot, lambda: isinstance(app.screen, ElicitationModal))
                await pilot.press(*CANARY, "enter")
                result = asked.result(timeout=10)
                await wait_for(pilot, lambda: any(e.type == "resolved" for e in events))
                assert CANARY not in app.export_screenshot()
        finally:
            other.close()
            front_end.close()
    assert_hidden(result)
    assert CANARY not in str([(event.request, event.result) for event in events])


def test_an_answer_flagged_by_the_inbox_s_own_dialog_reaches_the_asker_flagged() -> None:
    # The inbox's queue knew it was sensitive; its reply to `/v1/ask` did not say so.
    with inbox_in_thread() as inbox:
        asked = RemoteQueue(inbox.url, inbox.token).submit(PinRequest(message="PIN?"))
        wait_until(lambda: bool(inbox.queue.pending()))
        (request,) = inbox.queue.pending()
        typed = ElicitationResult(action="accept", content=CANARY, sensitive=True)
        assert inbox.inbox.answer(request, typed, "its own terminal") is None
        assert_hidden(asked.result(timeout=10))


def wait_until(condition: Callable[[], bool]) -> None:
    deadline = time.monotonic() + 10
    while not condition():
        assert time.monotonic() < deadline, "condition not met in time"
        time.sleep(0.02)


class RemoteFrontEndWatching:
    """A front end of `inbox` that only listens, keeping the events it heard."""

    def __init__(self, inbox: InboxProcess) -> None:
        from tui.front_ends.remote import RemoteFrontEnd

        self.front_end = RemoteFrontEnd(inbox.base, inbox.token, "watching")
        self.front_end.connect()
        self.events: list[QueueEvent] = []
        self._resolved = threading.Event()
        self.front_end.subscribe(self._heard)

    def _heard(self, event: QueueEvent) -> None:
        self.events.append(event)
        if event.type == "resolved":
            self._resolved.set()

    def wait_resolved(self) -> None:
        assert self._resolved.wait(20), self.events

    def close(self) -> None:
        self.front_end.close()
