"""Front ends that die, stop or lose the inbox, and many front ends at once: real processes."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from front_end_processes import (
    REPO,
    AttachedTerminal,
    CuttableProxy,
    HeadlessInbox,
    environment,
)

from tui import ElicitationResult
from tui.front_ends.remote import HTTP_TIMEOUT, RemoteFrontEnd

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs POSIX processes and ptys")

ENTER = "\r"
GRACE = 0.5
SETTLED = 1.2
"""Past the grace, and past the pause that a key typed in the grace asks for (1 s): a key
left over from the question before (an Enter read late) holds off the next keys until then."""
OUTAGE = 10.0
"""Seconds a process is stopped for: how long the connection is gone."""


def text(message: str) -> dict[str, object]:
    return {"kind": "text", "message": message}


def attach(
    tmp_path: Path, inbox: HeadlessInbox, name: str, url: str | None = None
) -> AttachedTerminal:
    return AttachedTerminal(
        tmp_path / "config", url or inbox.url, "--token", inbox.token, "--name", name
    )


def answered_in(terminal: AttachedTerminal, inbox: HeadlessInbox, message: str, typed: str) -> None:
    """Ask `message` in `inbox`, type `typed` and Enter in `terminal` once it shows; the
    asker gets it."""
    asked = inbox.submit(text(message))
    terminal.wait_for(message)
    time.sleep(SETTLED)
    terminal.type(typed, ENTER)
    assert inbox.result(asked, wait=10) == {"action": "accept", "content": typed, "reason": None}


def test_a_front_end_killed_mid_answer_answers_nothing_and_the_question_moves_on(
    inbox: HeadlessInbox, tmp_path: Path
) -> None:
    request_id = inbox.submit(text("Release notes?"))
    first = attach(tmp_path, inbox, "terminal A")
    try:
        first.wait_for("Release notes?")
        time.sleep(GRACE)
        first.type("half-typed answer")
        first.wait_for("half-typed")
        first.signal(signal.SIGKILL)
        first.process.wait(5)
    finally:
        first.close()
    time.sleep(0.5)
    assert inbox.result(request_id) is None
    assert request_id in inbox.pending_ids()
    second = attach(tmp_path, inbox, "terminal B")
    try:
        second.wait_for("Release notes?")
        time.sleep(GRACE)
        second.type("done", ENTER)
        result = inbox.result(request_id, wait=10)
        assert result is not None and result["content"] == "done"
    finally:
        second.quit()


def test_a_stopped_front_end_catches_up_and_its_late_answer_is_refused_not_applied(
    inbox: HeadlessInbox, tmp_path: Path
) -> None:
    request_id = inbox.submit(text("Which branch?"))
    stopped = attach(tmp_path, inbox, "terminal A")
    other = RemoteFrontEnd(inbox.url, inbox.token, "browser 1")
    other.connect()
    try:
        stopped.wait_for("Which branch?")
        time.sleep(GRACE)
        stopped.type("from-A")
        stopped.signal(signal.SIGSTOP)
        assert other.respond(request_id, ElicitationResult(action="accept", content="from-B"))
        later = inbox.submit(text("Asked while it slept?"))
        stopped.type(ENTER)  # typed during the outage, read when the process runs again
        time.sleep(OUTAGE)
        stopped.signal(signal.SIGCONT)
        stopped.wait_for("Asked while it slept?")
        # The modal closed, or the late answer refused: either way it says who answered first.
        stopped.wait_for_plain("in browser 1 at")
        assert inbox.result(request_id) == {"action": "accept", "content": "from-B", "reason": None}
        # Drawn in the timeline, then in its modal: the Enter typed for the first is not its
        # (read in its grace, it holds off the keys typed on until a pause).
        deadline = time.monotonic() + 10
        while stopped.plain.count("Asked while it slept?") < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(SETTLED)
        assert inbox.result(later) is None
        stopped.type("ok", ENTER)
        result = inbox.result(later, wait=10)
        assert result is not None and result["content"] == "ok"
    finally:
        other.close()
        stopped.quit()


def test_an_answer_to_a_stopped_inbox_is_sent_off_the_ui_thread_and_never_lost(
    inbox: HeadlessInbox, tmp_path: Path
) -> None:
    request_id = inbox.submit(text("Tag name?"))
    terminal = attach(tmp_path, inbox, "terminal A")
    try:
        terminal.wait_for("Tag name?")
        time.sleep(GRACE)
        terminal.type("v1.2")
        terminal.wait_for("v1.2")
        inbox.process.send_signal(signal.SIGSTOP)
        stopped_at = time.monotonic()
        try:
            mark = terminal.mark()
            terminal.type(ENTER, pause=0)
            terminal.wait_for("Sending", since=mark, timeout=HTTP_TIMEOUT / 2)
            # The UI runs while the answer waits for the inbox: a key typed now is drawn now.
            mark = terminal.mark()
            terminal.type("3", pause=0)
            terminal.wait_for("v1.23", since=mark, timeout=HTTP_TIMEOUT / 2)
            assert time.monotonic() - stopped_at < HTTP_TIMEOUT
            # The inbox never replies: the modal says so and keeps what was typed.
            terminal.wait_for("Not confirmed", since=mark, timeout=HTTP_TIMEOUT + 5)
            assert "v1.23" in terminal.plain[-3000:]
            time.sleep(max(0.0, OUTAGE - (time.monotonic() - stopped_at)))
        finally:
            inbox.process.send_signal(signal.SIGCONT)
        # Back: the inbox may have read the first answer after all (it is then this front
        # end's, once, and the modal closes saying so); if not, it is sent again from here.
        if request_id in inbox.pending_ids():
            terminal.type(ENTER)
        else:
            # Its own answer, not another front end's: said so, not by its name.
            terminal.wait_for("Answered here at")
        result = inbox.result(request_id, wait=10)
        assert result is not None and result["content"] in ("v1.2", "v1.23")
        # The modal closed (one is shown at a time): the next question is answered as usual.
        answered_in(terminal, inbox, "Next?", "fine")
    finally:
        terminal.quit()


@pytest.mark.parametrize("status", [500, 503])
def test_an_answer_the_inbox_did_not_apply_for_an_error_leaves_the_question_to_answer_again(
    inbox: HeadlessInbox, tmp_path: Path, status: int
) -> None:
    # The dialog closed, and the question, still waiting, could not be had again: the header
    # said "nothing waiting", and the notice's text after "HTTP 500:" was the question's.
    port = int(inbox.url.rsplit(":", 1)[1])
    proxy = CuttableProxy(("127.0.0.1", port))
    request_id = inbox.submit(text("Tag name?"))
    terminal = attach(tmp_path, inbox, "terminal A", url=proxy.url)
    try:
        terminal.wait_for("Tag name?")
        time.sleep(GRACE)
        proxy.answer_errors = [status]
        terminal.type("v1.2", ENTER)
        terminal.wait_for_plain(f"✖ Not sent: the inbox answered HTTP {status}. Answer again")
        assert inbox.pending_ids() == [request_id]
        terminal.type(ENTER)
        assert inbox.result(request_id, wait=10) == {
            "action": "accept",
            "content": "v1.2",
            "reason": None,
        }
    finally:
        terminal.quit()
        proxy.close()


def test_a_front_end_reconnects_after_the_connection_drops_and_resyncs(
    inbox: HeadlessInbox, tmp_path: Path
) -> None:
    port = int(inbox.url.rsplit(":", 1)[1])
    proxy = CuttableProxy(("127.0.0.1", port))
    first = inbox.submit(text("Answered elsewhere meanwhile?"))
    terminal = attach(tmp_path, inbox, "terminal A", url=proxy.url)
    other = RemoteFrontEnd(inbox.url, inbox.token, "terminal B")
    other.connect()
    try:
        terminal.wait_for("Answered elsewhere meanwhile?")
        proxy.refusing = True
        proxy.cut()
        terminal.wait_for("reconnecting")
        assert other.respond(first, ElicitationResult(action="accept", content="by B"))
        second = inbox.submit(text("New while it was away?"))
        time.sleep(1)
        proxy.refusing = False
        terminal.wait_for("Reconnected")
        terminal.wait_for("New while it was away?")
        time.sleep(GRACE)
        terminal.type("yes", ENTER)
        result = inbox.result(second, wait=10)
        assert result is not None and result["content"] == "yes"
        assert inbox.result(first) == {"action": "accept", "content": "by B", "reason": None}
    finally:
        other.close()
        terminal.quit()
        proxy.close()


SCRIPTED_FRONT_END = """
import json, sys, threading
from tui import ElicitationResult
from tui.front_ends.remote import HTTP_TIMEOUT, RemoteFrontEnd

url, token, name, total = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
front_end = RemoteFrontEnd(url, token, name)
front_end.connect()
applied = refused = 0
seen = set()
done = threading.Event()
work = []
lock = threading.Condition()

def heard(event):
    with lock:
        work.append(event)
        lock.notify()

front_end.subscribe(heard)
print("ready", flush=True)
while len(seen) < total:
    with lock:
        while not work:
            lock.wait()
        event = work.pop(0)
    seen.add(event.request.id)
    if event.type != "requested":
        continue
    result = ElicitationResult(action="accept", content=name)
    if front_end.respond(event.request.id, result):
        applied += 1
    else:
        refused += 1
front_end.close()
print(json.dumps({"applied": applied, "refused": refused}), flush=True)
"""


def test_three_front_ends_many_askers_every_question_answered_exactly_once(
    inbox: HeadlessInbox, tmp_path: Path
) -> None:
    askers, questions = 20, 10
    total = askers * questions
    front_ends = [
        subprocess.Popen(
            [
                sys.executable,
                "-c",
                SCRIPTED_FRONT_END,
                inbox.url,
                inbox.token,
                f"fe {i}",
                str(total),
            ],
            stdout=subprocess.PIPE,
            cwd=REPO,
            env=environment(tmp_path / "config"),
            text=True,
        )
        for i in range(3)
    ]
    for process in front_ends:
        assert process.stdout is not None
        assert process.stdout.readline().strip() == "ready"
    results: dict[str, str] = {}
    lock = threading.Lock()

    def asker(number: int) -> None:
        for question in range(questions):
            message = f"asker {number} question {question}"
            status, reply = inbox.call("POST", "/v1/ask", {"request": text(message)}, timeout=60)
            assert status == 200, reply
            with lock:
                assert message not in results
                results[message] = reply["result"]["content"]

    threads = [threading.Thread(target=asker, args=(n,)) for n in range(askers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    counts = []
    for process in front_ends:
        out, _ = process.communicate(timeout=60)
        counts.append(json.loads(out.strip().splitlines()[-1]))
    assert len(results) == total
    assert set(results.values()) <= {"fe 0", "fe 1", "fe 2"}
    assert sum(c["applied"] for c in counts) == total
    # Every front end heard every question; the two that lost each race were refused.
    assert sum(c["applied"] + c["refused"] for c in counts) == 3 * total
    by_front_end = {f"fe {i}": c["applied"] for i, c in enumerate(counts)}
    assert by_front_end == {
        name: sum(1 for v in results.values() if v == name) for name in by_front_end
    }


def test_a_front_end_that_read_the_token_file_reaches_the_inbox_restarted_with_a_new_one(
    tmp_path: Path,
) -> None:
    # No token given anywhere: `serve` writes a new one at each start, and the front end,
    # which read the first from the file, reads the file again as it reconnects.
    config = tmp_path / "config"
    first = HeadlessInbox(config, token=None)
    port = int(first.url.rsplit(":", 1)[1])
    terminal = AttachedTerminal(config, first.url, "--name", "terminal A")
    try:
        first.submit(text("Asked before the restart?"))
        terminal.wait_for("Asked before the restart?")
        first.process.send_signal(signal.SIGKILL)
        first.process.wait(10)
        terminal.wait_for("reconnecting")
        second = HeadlessInbox(config, token=None, port=port)
        try:
            assert second.token != first.token
            terminal.wait_for("Reconnected")
            answered_in(terminal, second, "Asked after the restart?", "yes")
        finally:
            second.stop()
    finally:
        terminal.quit()
        first.stop()


def test_a_front_end_given_a_token_says_so_when_the_restarted_inbox_refuses_it(
    tmp_path: Path,
) -> None:
    config = tmp_path / "config"
    first = HeadlessInbox(config, token="first-token")
    port = int(first.url.rsplit(":", 1)[1])
    terminal = AttachedTerminal(config, first.url, "--token", "first-token")
    try:
        terminal.wait_for("nothing waiting")
        first.process.send_signal(signal.SIGKILL)
        first.process.wait(10)
        terminal.wait_for("reconnecting")
        second = HeadlessInbox(config, token="second-token", port=port)
        try:
            # It kept trying in silence, its questions never shown.
            terminal.wait_for("again with its token")  # the notice's last words
        finally:
            second.stop()
    finally:
        terminal.quit()
        first.stop()


def choice(message: str) -> dict[str, object]:
    return {"kind": "choice", "message": message, "options": ["yes", "no"]}


def approval(command: str) -> dict[str, object]:
    return {
        "kind": "tool_approval",
        "tool_name": "shell",
        "arguments": {"command": command},
        "tool_call_id": command.replace(" ", "-"),
    }


def test_a_burst_that_answers_one_question_never_answers_the_next_one_unseen(
    inbox: HeadlessInbox, tmp_path: Path
) -> None:
    # The answer is sent, and the next question shown, while the burst's second key is on
    # its way up from the first question's widget: that key must not pick in the next one,
    # shown in the same dialog reloaded (a choice after a choice) or in another (a choice
    # after a tool approval, whose 1 allows once).
    terminal = attach(tmp_path, inbox, "terminal A")
    try:
        for round_ in range(10):
            if round_ % 2:
                shown = f"make deploy-{round_}"
                first = inbox.submit(approval(shown))
                allowed = {"action": "accept", "content": {"scope": "once"}, "reason": None}
            else:
                shown = f"Deploy {round_}?"
                first = inbox.submit(choice(shown))
                allowed = {"action": "accept", "content": "yes", "reason": None}
            second = inbox.submit(choice(f"Drop the database {round_}?"))
            terminal.wait_for(shown)
            time.sleep(GRACE)
            terminal.type("11", pause=0)
            assert inbox.result(first, wait=10) == allowed
            terminal.wait_for(f"Drop the database {round_}?")
            # The burst's second key, read late, may reach it and hold what follows (SETTLED).
            time.sleep(SETTLED)
            assert inbox.result(second) is None, f"answered unseen in round {round_}"
            terminal.type("2", pause=0)
            assert inbox.result(second, wait=10) == {
                "action": "accept",
                "content": "no",
                "reason": None,
            }
    finally:
        terminal.quit()


def test_ctrl_x_in_attach_cancels_every_question_even_over_a_dialog_but_not_in_a_field(
    inbox: HeadlessInbox, tmp_path: Path
) -> None:
    terminal = attach(tmp_path, inbox, "terminal A")
    try:
        shown = inbox.submit(choice("Deploy?"))
        behind = inbox.submit(text("Release name?"))
        terminal.wait_for("Deploy?")
        time.sleep(GRACE)
        terminal.type("\x18")  # Ctrl+X, the choice's dialog in front: it asks first
        terminal.wait_for_plain("Press Ctrl+X again to cancel the 2")
        assert inbox.result(shown) is None
        terminal.type("\x18")
        closed = {"action": "cancel", "content": None, "reason": "closed"}
        assert inbox.result(shown, wait=10) == closed
        assert inbox.result(behind, wait=10) == closed
        terminal.wait_for_plain("Cancelled 2 waiting questions")

        typed = inbox.submit(text("Tag?"))
        terminal.wait_for("Tag?")
        time.sleep(GRACE)
        terminal.type("v1", "\x18")  # in the text field: cuts, cancels nothing
        time.sleep(1)
        assert inbox.result(typed) is None
        terminal.type(ENTER)
        assert inbox.result(typed, wait=10) == {"action": "accept", "content": "v1", "reason": None}
    finally:
        terminal.quit()


def test_a_question_cancelled_in_another_front_end_is_said_cancelled_there_not_answered(
    inbox: HeadlessInbox, tmp_path: Path
) -> None:
    terminal = attach(tmp_path, inbox, "terminal A")
    other = RemoteFrontEnd(inbox.url, inbox.token, "browser 1")
    other.connect()
    try:
        cancelled = inbox.submit(text("Release name?"))
        terminal.wait_for("Release name?")
        assert other.respond(cancelled, ElicitationResult(action="cancel"))
        terminal.wait_for_plain("Cancelled in browser 1 at")
        declined = inbox.submit(text("Tag?"))
        terminal.wait_for("Tag?")
        assert other.respond(declined, ElicitationResult(action="decline"))
        terminal.wait_for_plain("Declined in browser 1 at")
        assert "Answered in browser 1" not in terminal.plain
    finally:
        other.close()
        terminal.quit()
