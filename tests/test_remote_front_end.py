"""A front end over the wire: RemoteFrontEnd against a real inbox served on loopback."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from app_driver import screen_text, wait_for
from front_end_processes import HeadlessInbox
from keyring_backends import MemoryKeyring
from running_inbox import RunningInbox, running_inbox
from textual.widgets import Static

from tui import ElicitationApp, ElicitationResult, parse_request
from tui.core.front_end import AnswerNotSent
from tui.core.queue import ElicitationQueue, QueueEvent
from tui.core.secret_ref import SecretRef
from tui.front_ends.remote import RECONNECTED, RECONNECTING, InboxRefused, RemoteFrontEnd
from widgets.base import ElicitationModal
from widgets.timeline import Timeline

CHOICE = {"kind": "choice", "message": "Which database?", "options": ["Postgres", "SQLite"]}


def settle(condition: Callable[[], bool], timeout: float = 5.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError("condition not met in time")
        time.sleep(0.01)


def ask(inbox: RunningInbox, message: str, request_id: str | None = None) -> Any:
    data: dict[str, Any] = {**CHOICE, "message": message}
    if request_id is not None:
        data["id"] = request_id
    return inbox.inbox.submit(parse_request(data))


def attached_app(
    inbox: RunningInbox, name: str = "terminal 1"
) -> tuple[RemoteFrontEnd, ElicitationApp]:
    """The app as `attach` runs it, a front end of `inbox` named `name`, connected."""
    front_end = RemoteFrontEnd(inbox.url, inbox.token, name)
    front_end.connect()
    return front_end, ElicitationApp(front_end, front_end_name=name, input_grace=0)


def connected(inbox: RunningInbox, name: str) -> tuple[RemoteFrontEnd, list[QueueEvent]]:
    front_end = RemoteFrontEnd(inbox.url + "/mcp", inbox.token, name)
    front_end.connect()
    events: list[QueueEvent] = []
    front_end.subscribe(events.append)
    return front_end, events


@pytest.mark.parametrize("token", [None, "a-wrong-token"])
def test_a_wrong_or_missing_token_is_refused_before_any_question(token: str | None) -> None:
    with running_inbox() as inbox:
        ask(inbox, "Secret plans?")
        front_end = RemoteFrontEnd(inbox.url, token, "intruder")
        said = "no token for the inbox" if token is None else "refused the token given"
        with pytest.raises(InboxRefused, match=said):
            front_end.connect()
        assert front_end.pending() == []
        assert inbox.refused


def test_waiting_questions_arrive_first_in_order_then_new_ones() -> None:
    with running_inbox() as inbox:
        ask(inbox, "first")
        ask(inbox, "second")
        front_end, events = connected(inbox, "terminal 1")
        try:
            settle(lambda: len(events) == 2)
            ask(inbox, "third")
            settle(lambda: len(events) == 3)
            assert [e.request.message for e in events] == ["first", "second", "third"]
            assert [r.message for r in front_end.pending()] == ["first", "second", "third"]
        finally:
            front_end.close()


def test_an_answer_reaches_the_asker_and_every_front_end_hears_who_gave_it() -> None:
    with running_inbox() as inbox:
        future = ask(inbox, "Which?")
        one, _ = connected(inbox, "terminal 1")
        two, two_events = connected(inbox, "browser 1")
        try:
            settle(lambda: one.pending() and two.pending())
            request_id = one.pending()[0].id
            assert one.respond(request_id, ElicitationResult(action="accept", content="SQLite"))
            assert future.result(5).content == "SQLite"
            settle(lambda: any(e.type == "resolved" for e in two_events))
            resolved = next(e for e in two_events if e.type == "resolved")
            assert resolved.answered_by == "terminal 1"
            assert not two.is_pending(request_id)
            # A late answer from the other front end is refused, with who won and when.
            late = ElicitationResult(action="accept", content="Postgres")
            assert not two.respond(request_id, late)
            clock = time.strftime("%H:%M", time.localtime(resolved.at))
            assert two.refusal(request_id) == f"answered in terminal 1 at {clock}"
            assert future.result().content == "SQLite"
        finally:
            one.close()
            two.close()


def race(front_ends: list[RemoteFrontEnd], request_id: str) -> dict[str, bool]:
    """Let each front end answer at the same moment; returns whose answers counted."""
    barrier = threading.Barrier(len(front_ends))
    applied: dict[str, bool] = {}

    def answer(front_end: RemoteFrontEnd) -> None:
        barrier.wait()
        result = ElicitationResult(action="accept", content="SQLite")
        applied[front_end.name] = front_end.respond(request_id, result)

    threads = [threading.Thread(target=answer, args=(fe,)) for fe in front_ends]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return applied


def test_two_answers_at_once_yield_one_result() -> None:
    with running_inbox() as inbox:
        for round_ in range(20):
            future = ask(inbox, f"race {round_}")
            front_ends = [connected(inbox, f"front end {i}")[0] for i in range(2)]
            settle(lambda fes=front_ends: all(fe.pending() for fe in fes))
            request_id = front_ends[0].pending()[0].id
            applied = race(front_ends, request_id)
            assert sorted(applied.values()) == [False, True]
            winner = next(fe for fe in front_ends if applied[fe.name])
            loser = next(fe for fe in front_ends if not applied[fe.name])
            assert future.result(5).content == "SQLite"
            refusal = loser.refusal(request_id)
            assert refusal.startswith(f"answered in {winner.name} at "), refusal
            for front_end in front_ends:
                front_end.close()


def test_closing_a_front_end_answers_nothing() -> None:
    with running_inbox() as inbox:
        future = ask(inbox, "Still there?")
        front_end, events = connected(inbox, "terminal 1")
        settle(lambda: bool(events))
        front_end.close()
        time.sleep(0.3)
        assert not future.done()
        again, events = connected(inbox, "terminal 2")
        try:
            settle(lambda: bool(events))
            assert events[0].request.message == "Still there?"
        finally:
            again.close()


def test_a_secret_answered_remotely_is_stored_in_the_inboxs_keyring(
    isolated_keyring: MemoryKeyring,
) -> None:
    with running_inbox() as inbox:
        request = parse_request(
            {"kind": "secret", "message": "API key?", "store": {"service": "svc", "username": "me"}}
        )
        future = inbox.inbox.submit(request)
        front_end, events = connected(inbox, "browser 1")
        try:
            settle(lambda: bool(events))
            from pydantic import SecretStr

            result = ElicitationResult(action="accept", content=SecretStr("s3cr3t-value"))
            assert front_end.respond(request.id, result)
            stored = future.result(5).content
            assert (stored.service, stored.username) == ("svc", "me")
            assert stored.get().get_secret_value() == "s3cr3t-value"
            settle(lambda: any(e.type == "resolved" for e in events))
            assert "s3cr3t-value" not in repr(events)
        finally:
            front_end.close()


def noticed(app: ElicitationApp) -> list[str]:
    """The notices the app shows now."""
    return [str(notice.message) for notice in app._notifications]


async def test_the_app_closes_a_modal_another_front_end_answered_and_says_where() -> None:
    with running_inbox() as inbox:
        future = ask(inbox, "Which database?")
        front_end = RemoteFrontEnd(inbox.url, inbox.token, "terminal 1")
        front_end.connect()
        other, _ = connected(inbox, "browser 1")
        app = ElicitationApp(front_end, front_end_name="terminal 1", input_grace=0)
        try:
            async with app.run_test(size=(80, 24)) as pilot:
                await wait_for(pilot, lambda: isinstance(app.screen, ElicitationModal))
                request_id = front_end.pending()[0].id
                assert other.respond(
                    request_id, ElicitationResult(action="accept", content="SQLite")
                )
                await wait_for(pilot, lambda: not isinstance(app.screen, ElicitationModal))
                assert future.result(5).content == "SQLite"
                # The modal can close on the stream's word that the request ended, the notice
                # coming with the answer's own event a moment later.
                await wait_for(
                    pilot,
                    lambda: any(n.startswith("Answered in browser 1 at ") for n in noticed(app)),
                )
                timeline = app.query_one(Timeline)
                await wait_for(pilot, lambda: "browser 1" in timeline.cells(request_id)["outcome"])
                assert timeline.cells(request_id)["outcome"].startswith("✔ SQLite · answered in")
                await pilot.press("q")
            # Quitting an attached front end answers nothing that waits.
            second = ask(inbox, "Another?")
            time.sleep(0.2)
            assert not second.done()
        finally:
            other.close()
            front_end.close()


async def test_a_sensitive_answer_given_elsewhere_shows_masked_as_the_apps_own_would() -> None:
    # The inbox sends it masked; unflagged, the timeline showed the mask's ten asterisks.
    with running_inbox() as inbox:
        sensitive = {"kind": "text", "message": "Recovery code?", "sensitive": True}
        future = inbox.inbox.submit(parse_request(sensitive))
        front_end, app = attached_app(inbox)
        other, _ = connected(inbox, "browser 1")
        try:
            async with app.run_test(size=(80, 24)) as pilot:
                await wait_for(pilot, lambda: isinstance(app.screen, ElicitationModal))
                request_id = front_end.pending()[0].id
                answer = ElicitationResult(action="accept", content="canary-5512")
                assert other.respond(request_id, answer)
                assert future.result(5).content == "canary-5512"
                timeline = app.query_one(Timeline)
                await wait_for(pilot, lambda: "browser 1" in timeline.cells(request_id)["outcome"])
                assert timeline.cells(request_id)["outcome"].startswith("✔ ••• · answered in")
                assert "canary-5512" not in app.export_screenshot()
        finally:
            other.close()
            front_end.close()


async def test_the_app_answers_through_the_inbox_and_a_late_answer_is_refused() -> None:
    with running_inbox() as inbox:
        future = ask(inbox, "Which database?")
        front_end, app = attached_app(inbox)
        try:
            async with app.run_test(size=(80, 24)) as pilot:
                await wait_for(pilot, lambda: isinstance(app.screen, ElicitationModal))
                await pilot.press("down", "enter")
                assert future.result(5).content == "SQLite"
                # The inbox answers the next one before the app hears of it: typed late.
                late = ask(inbox, "Late?")
                await wait_for(pilot, lambda: isinstance(app.screen, ElicitationModal))
                inbox.inbox.answer(
                    late_request := inbox.queue.pending()[0],
                    ElicitationResult(action="accept", content="Postgres"),
                    "browser 2",
                )
                assert late_request.message == "Late?"
                await pilot.press("enter")
                await wait_for(pilot, lambda: any("browser 2" in n for n in noticed(app)))
                assert late.result(5).content == "Postgres"
        finally:
            front_end.close()


def test_an_answer_the_inbox_never_got_raises_and_can_be_sent_again_once() -> None:
    from front_end_processes import CuttableProxy

    with running_inbox() as inbox:
        future = ask(inbox, "Deploy?")
        port = int(inbox.url.rsplit(":", 1)[1])
        proxy = CuttableProxy(("127.0.0.1", port))
        front_end = RemoteFrontEnd(proxy.url, inbox.token, "terminal 1")
        front_end.connect()
        events: list[QueueEvent] = []
        statuses: list[str] = []
        front_end.on_status = statuses.append
        front_end.subscribe(events.append)
        try:
            settle(lambda: len(events) == 1)
            request_id = events[0].request.id
            proxy.refusing = True
            proxy.cut()
            settle(lambda: any("reconnecting" in s for s in statuses))
            answer = ElicitationResult(action="accept", content="SQLite")
            with pytest.raises(AnswerNotSent, match="could not be reached"):
                front_end.respond(request_id, answer)
            assert not future.done()
            proxy.refusing = False
            settle(lambda: any("Reconnected" in s for s in statuses))
            # The question still waits; the front end that holds it hears of it only once.
            assert [e.type for e in events] == ["requested"]
            assert front_end.is_pending(request_id)
            assert front_end.respond(request_id, answer)
            assert future.result(5).content == "SQLite"
            # Sent once more (its reply was lost, say): the same front end's answer, once.
            assert front_end.respond(request_id, answer)
            settle(lambda: len(events) == 2)
            assert events[1].type == "resolved" and events[1].answered_by == "terminal 1"
        finally:
            front_end.close()
            proxy.close()


async def test_an_answer_not_sent_to_a_modal_being_taken_down_raises_nothing() -> None:
    queue = ElicitationQueue()
    app = ElicitationApp(queue, input_grace=0)
    request = parse_request({"kind": "text", "message": "Tag name?"})
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            queue.submit(request)
            await wait_for(pilot, lambda: isinstance(app.screen, ElicitationModal))
            modal = app.screen
            assert isinstance(modal, ElicitationModal)
            modal.sending = True
            # As when the app shuts down while the answer is on its way: the widgets go first.
            await modal.remove_children()
            modal.send_failed("✖ Not sent: the inbox did not reply in time.")
            assert not modal.sending
    finally:
        queue.close()


async def test_an_answer_the_inbox_refuses_keeps_the_question_open_to_answer_again() -> None:
    # The inbox's `check_content` may refuse what the dialog's let through (the inbox runs
    # another version of a kind's module): the question still waits there, so the modal
    # stays, saying why, and can be answered again.
    with running_inbox() as inbox:
        future = ask(inbox, "Which database?")
        front_end = RemoteFrontEnd(inbox.url, inbox.token, "terminal 1")
        front_end.connect()
        refusing = ElicitationResult(action="accept", content="Oracle")
        with pytest.raises(AnswerNotSent, match=r"HTTP 422: .*Oracle"):
            front_end.respond(future_id := inbox.queue.pending()[0].id, refusing)
        app = ElicitationApp(front_end, front_end_name="terminal 1", input_grace=0)
        try:
            async with app.run_test(size=(80, 24)) as pilot:
                await wait_for(pilot, lambda: isinstance(app.screen, ElicitationModal))
                modal = app.screen
                assert isinstance(modal, ElicitationModal)
                # Sent as the modal sends an answer its own check let through.
                assert modal.send is not None
                modal.sending = True
                modal.send(refusing)
                await wait_for(pilot, lambda: "Not sent" in error_line(modal))
                assert app.screen is modal and future_id in [r.id for r in inbox.queue.pending()]
                await pilot.press("down", "enter")
                assert future.result(5).content == "SQLite"
        finally:
            front_end.close()


def error_line(modal: ElicitationModal[Any]) -> str:
    return str(modal.query_one("#error", Static).render()) if modal.error_shown else ""


async def test_a_secret_for_a_keyring_entry_that_exists_replaces_it_only_on_a_second_enter(
    isolated_keyring: MemoryKeyring,
) -> None:
    # As in the inbox's own process: the person is told, and only they may replace it.
    store = {"service": "svc", "username": "me"}
    entry = SecretRef(**store)
    with running_inbox() as inbox:
        first = inbox.inbox.submit(
            parse_request({"kind": "secret", "message": "API key?", "store": store})
        )
        front_end, app = attached_app(inbox)
        try:
            async with app.run_test(size=(80, 24)) as pilot:
                await wait_for(pilot, lambda: isinstance(app.screen, ElicitationModal))
                await pilot.press(*"old-value", "enter")
                assert first.result(5).content == entry
                again = inbox.inbox.submit(
                    parse_request({"kind": "secret", "message": "New API key?", "store": store})
                )
                await wait_for(pilot, lambda: shown_message(app) == "New API key?")
                modal = app.screen
                assert isinstance(modal, ElicitationModal)
                await pilot.press(*"new-value", "enter")
                await wait_for(pilot, lambda: "exists" in error_line(modal))
                assert "svc/me" in error_line(modal) and "replace" in error_line(modal)
                assert not again.done() and entry.get().get_secret_value() == "old-value"
                await pilot.press("enter")
                assert again.result(5).content == entry
                assert entry.get().get_secret_value() == "new-value"
        finally:
            front_end.close()


def shown_message(app: ElicitationApp) -> str | None:
    screen = app.screen
    return screen.request.message if isinstance(screen, ElicitationModal) else None


async def test_attach_says_quitting_leaves_the_questions_waiting_and_asks_before_cancel_all() -> (
    None
):
    # Ctrl+C said "questions still open are cancelled", which attach's quitting never does;
    # Ctrl+X, shown nowhere, cancelled every agent's questions at the first press.
    from tui.app.attach_app import AttachApp

    with running_inbox() as inbox:
        first, second = ask(inbox, "Which database?"), ask(inbox, "Which cache?")
        front_end = RemoteFrontEnd(inbox.url, inbox.token, "terminal 1")
        front_end.connect()
        app = AttachApp(front_end, input_grace=0)
        try:
            async with app.run_test(size=(80, 24)) as pilot:
                await wait_for(pilot, lambda: isinstance(app.screen, ElicitationModal))
                await pilot.press("ctrl+c")
                await wait_for(pilot, lambda: bool(noticed(app)))
                assert noticed(app)[-1] == (
                    "Press Ctrl+Q to quit; the questions stay waiting in the inbox."
                )
                await pilot.press("ctrl+x")
                await wait_for(pilot, lambda: "Ctrl+X again" in noticed(app)[-1])
                assert noticed(app)[-1] == (
                    "Press Ctrl+X again to cancel the 2 questions waiting in the inbox, "
                    "every agent's."
                )
                time.sleep(0.3)
                assert not first.done() and not second.done()
                await pilot.press("ctrl+x")
                await wait_for(pilot, lambda: first.done() and second.done())
                assert first.result().reason == "closed"
        finally:
            front_end.close()


async def test_attach_says_the_inbox_is_lost_for_as_long_as_it_is(tmp_path: Path) -> None:
    # Killed, the inbox was said lost for the 5 s of a notice; then the question stayed up
    # with no sign, its asker long gone, until an answer came back "Not sent".
    from tui.app.attach_app import AttachApp

    inbox = HeadlessInbox(tmp_path / "config")
    try:
        inbox.submit(CHOICE)
        front_end = RemoteFrontEnd(inbox.url, inbox.token, "terminal 1")
        front_end.connect()
        app = AttachApp(front_end, input_grace=0)
        try:
            async with app.run_test(size=(80, 24), notifications=True) as pilot:
                await wait_for(pilot, lambda: isinstance(app.screen, ElicitationModal))
                inbox.process.kill()
                inbox.process.wait(5)
                await wait_for(pilot, lambda: RECONNECTING in noticed(app))
                await pilot.pause(app.NOTIFICATION_TIMEOUT + 1)
                assert RECONNECTING in noticed(app)
                port = int(inbox.url.rsplit(":", 1)[1])
                inbox = HeadlessInbox(tmp_path / "config", port=port)
                await wait_for(pilot, lambda: RECONNECTED in noticed(app), timeout=15)
                assert RECONNECTING not in noticed(app)
        finally:
            front_end.close()
    finally:
        inbox.stop()


async def test_attach_says_when_the_session_rule_would_not_cover_the_call_in_front() -> None:
    # As the inbox's own dialog: `command ~ kubectl *` never covers a call with `&&`.
    from test_tool_approval_modal import kubectl

    with running_inbox() as inbox:
        allowed = inbox.inbox.submit(kubectl("kubectl rollout restart deploy/api && kubectl get"))
        front_end, app = attached_app(inbox)
        try:
            async with app.run_test(size=(80, 24)) as pilot:
                await wait_for(pilot, lambda: "Always" in screen_text(app))
                shown = " ".join(screen_text(app).replace("│", " ").split())
                await pilot.press("2")
                await wait_for(pilot, allowed.done)
        finally:
            front_end.close()

    assert "not this call again (it has &&): Bash in any folder, command ~ kubectl *" in shown
    assert allowed.result().content == {"scope": "session"}
