"""A dialog whose code raises an error (a kind of one's own, most often) ends its own question
with `dialog_failed`: the person is told, the asker hears it, and the app goes on to the next
question. Before, the error ended the whole app, and with it every waiting asker's question.
A kind's validator that raises any error refuses the request as invalid at every boundary.

Keys go in as messages, not through `Pilot.press`: Pilot waits for the screen in front to
handle a message of its own, and a modal whose message loop the error ended never does."""

from __future__ import annotations

import asyncio
import io
import json
import logging
import os
import re
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, Literal

import pexpect
import pytest
from app_driver import SIZE, error_line, screen_text
from asking import Asker, burst
from failing_kinds import (
    AsyncContentRequest,
    BrokenRequest,
    ClashingRequest,
    ContentlessRequest,
    DialogBroke,
    GateRequest,
    MisplacedRequest,
    PinCheckRequest,
    Where,
    ZoneRequest,
)
from front_end_processes import HeadlessInbox, attached_to_inbox
from pydantic import ValidationError
from rich.console import Console
from secret_session import CANARY, CANARY_PIECES
from test_ask_bursts import ask
from test_prebuilt_modals import LateAsker
from textual.notifications import Notification
from textual.pilot import Pilot
from textual.widgets import Button, Input
from textual.widgets._toast import Toast

from tui import (
    ChoiceRequest,
    ElicitationApp,
    ElicitationQueue,
    ElicitationResult,
    RequestBase,
    SecretRequest,
)
from tui.app.ask_app import AskApp
from tui.core.models import Request, parse_request
from widgets import ElicitationModal
from widgets.choice import ChoiceModal
from widgets.secret import SecretModal

REPO = Path(__file__).resolve().parent.parent
KINDS = {"ELICIT_TUI_KINDS": "failing_kinds", "PYTHONPATH": str(REPO / "tests")}
"""The environment of a process that knows this module's kinds."""
FAILED = ElicitationResult(action="cancel", reason="dialog_failed: broken_test (DialogBroke)")
FAILED_JSON = {"action": "cancel", "content": None, "reason": FAILED.reason}
"""`FAILED` as `ask` prints it and the inbox gives it."""
KEYS: dict[str, tuple[str, ...]] = {
    "handler": ("tab", "enter"),  # to the dialog's button, and press it
    "action": ("f2",),
    "content": ("x", "enter"),
}
"""The keys that reach the failing code; the other places fail as the dialog is shown."""
SHOWN_FAILING: list[Where] = ["init", "compose", "mount", "fill", "timer", "over"]


async def until(condition: Callable[[], bool], timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "condition not met in time"
        await asyncio.sleep(0.02)


def said(app: ElicitationApp) -> str:
    """The screen's words in one line: a notice's lines joined, its border left out."""
    return " ".join(screen_text(app).replace("▌", " ").split())


def showing(app: ElicitationApp, message: str) -> bool:
    screen = app.screen
    return isinstance(screen, ElicitationModal) and screen.request.message == message


@pytest.mark.parametrize("where", [*SHOWN_FAILING, *KEYS])
async def test_a_dialog_that_raises_cancels_its_question_and_the_next_one_is_asked(
    where: Where,
) -> None:
    asker = Asker(BrokenRequest(message="Broken?", where=where), BrokenRequest(message="Next?"))
    app = ElicitationApp(ElicitationQueue(), asker, input_grace=0)
    async with app.run_test(size=SIZE, notifications=True):
        if where in KEYS:
            await until(lambda: showing(app, "Broken?"))
            broken = app.screen
            burst(app, *KEYS[where])
        await until(lambda: showing(app, "Next?"))
        assert asker.results == [FAILED]
        await until(lambda: f"broke in {where}" in said(app))
        assert (
            f"The 'broken_test' dialog failed (DialogBroke: broke in {where} asking 'Broken?');"
            " its question was cancelled." in said(app)
        )
        if where in KEYS:
            # Never reused: the next question of its shape has a dialog of its own.
            assert app.screen is not broken
            assert not app.is_screen_installed(broken)
        burst(app, *"ok", "enter")
        await until(lambda: len(asker.results) == 2)
        assert asker.results[1] == ElicitationResult(action="accept", content="ok")
        assert app.is_running
    assert app.return_code is None  # not set: no error ended the app


async def test_what_a_failing_dialog_was_sent_next_is_run_or_dropped_not_left_waiting() -> None:
    # The loop holds the message after the one it handles (to merge them) outside its queue:
    # a callback there was never run, and whoever waited on it (a Pilot's pause) waited 30 s.
    asker = Asker(BrokenRequest(message="Broken?", where="handler"), BrokenRequest(message="Next?"))
    app = ElicitationApp(ElicitationQueue(), asker, input_grace=0)
    async with app.run_test(size=SIZE, notifications=True):
        await until(lambda: showing(app, "Broken?"))
        broken = app.screen
        ran = asyncio.Event()
        broken.post_message(Button.Pressed(broken.query_one(Button)))
        assert broken.call_later(ran.set)
        await asyncio.wait_for(ran.wait(), timeout=5)
        await until(lambda: showing(app, "Next?"))
        assert asker.results == [FAILED]


async def test_a_dialog_that_calls_sys_exit_ends_its_question_not_the_app() -> None:
    # SystemExit passed through, and the app ended with status 5, the agent's result lost.
    asker = Asker(BrokenRequest(message="Broken?", where="exit"), BrokenRequest(message="Next?"))
    app = ElicitationApp(ElicitationQueue(), asker, input_grace=0)
    async with app.run_test(size=SIZE, notifications=True):
        await until(lambda: showing(app, "Broken?"))
        burst(app, "x", "enter")
        await until(lambda: showing(app, "Next?"))
        assert asker.results[0].reason == "dialog_failed: broken_test (DialogExited)"
        await until(lambda: "content() raised SystemExit(5)" in said(app))
        burst(app, *"ok", "enter")
        await until(lambda: len(asker.results) == 2)
        assert app.is_running
    assert app.return_code is None


async def test_a_session_whose_dialog_failed_as_it_was_shown_renders(tmp_path: Path) -> None:
    # `replay -o` waited on the failed dialog's ended message loop for 30 s, then stopped
    # with a traceback (Textual's WaitForScreenTimeout), and wrote nothing.
    from tui.render.capture import capture
    from tui.render.script import build_script
    from tui.transcript.reader import read_transcript
    from tui.transcript.timing import Timing

    path = tmp_path / "session.jsonl"
    asker = Asker(BrokenRequest(message="Broken?", where="fill"), BrokenRequest(message="Next?"))
    app = ElicitationApp(ElicitationQueue(), asker, input_grace=0, transcript=path)
    async with app.run_test(size=SIZE, notifications=True):
        await until(lambda: showing(app, "Next?"))
        burst(app, *"ok", "enter")
        await until(lambda: len(asker.results) == 2)
    transcript = read_transcript(path)
    script = build_script(transcript, Timing(speed=8, max_pause=0.1))
    captured = await asyncio.to_thread(capture, transcript, script, SIZE, "textual-dark")
    assert captured.summary == "2 results, all as recorded"


async def error_notices_at_the_next(pilot: Pilot[Any]) -> list[Notification]:
    """The error notices up once the question "Next?" is shown."""
    app = pilot.app
    await until(lambda: showing(app, "Next?"))
    await pilot.pause()
    return [n for n in app._notifications if n.severity == "error"]


async def test_dialogs_failing_one_after_another_leave_one_notice_that_counts_them() -> None:
    # Each failure's notice stacked over the next question for its 5 s: three failing
    # dialogs covered the bottom right of the question that came after them.
    broken = [BrokenRequest(message=f"Broken {n}?", where="compose") for n in (1, 2, 3)]
    asker = Asker(*broken, BrokenRequest(message="Next?"))
    app = ElicitationApp(ElicitationQueue(), asker, input_grace=0)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        notices = await error_notices_at_the_next(pilot)
        assert len(notices) == 1
        assert notices[0].message == (
            "3 dialogs failed; the last: the 'broken_test' dialog (DialogBroke: broke in"
            " compose asking 'Broken 3?'); its question was cancelled."
        )
        assert asker.results == [FAILED] * 3


class NeverRegistered(RequestBase):
    """A kind its program never registered."""

    kind: Literal["never_registered_test"] = "never_registered_test"


async def test_kinds_that_cannot_be_shown_in_a_row_leave_one_notice_clear_of_the_next_input() -> (
    None
):
    # Each "Cannot show" notice stacked over the next question for its 5 s: three of them
    # covered the right half of the next dialog's input at 80x24.
    unshown = [
        NeverRegistered(message="Unregistered?"),
        ContentlessRequest(message="No content()?"),
        MisplacedRequest(message="Nowhere?"),
    ]
    asker = Asker(*unshown, BrokenRequest(message="Next?"))
    app = ElicitationApp(ElicitationQueue(), asker, input_grace=0)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        notices = await error_notices_at_the_next(pilot)
        assert len(notices) == 1
        assert notices[0].message.startswith(
            "Cannot show 3 questions here; the last, a 'misplaced_test' request (the modal of"
            " kind 'misplaced_test'"
        )
        assert notices[0].message.endswith("; cancelled.")
        field = app.screen.query_one(Input).region
        toasts = app.screen.query(Toast)
        assert toasts and not any(toast.region.overlaps(field) for toast in toasts)
        burst(app, *"ok", "enter")
        await until(lambda: len(asker.results) == 4)
    assert [result.reason for result in asker.results[:3]] == [
        f"unsupported_kind: {request.kind}" for request in unshown
    ]
    assert asker.results[3].content == "ok"


async def test_a_dialog_that_raises_as_it_forgets_its_answer_keeps_the_answer() -> None:
    asker = Asker(BrokenRequest(message="Broken?", where="forget"), BrokenRequest(message="Next?"))
    app = ElicitationApp(ElicitationQueue(), asker, input_grace=0)
    async with app.run_test(size=SIZE, notifications=True):
        await until(lambda: showing(app, "Broken?"))
        broken = app.screen
        burst(app, *"given", "enter")
        await until(lambda: showing(app, "Next?"))
        assert asker.results == [ElicitationResult(action="accept", content="given")]
        await until(lambda: "broke in forget" in said(app))
        assert "asking 'Broken?') after its answer was given." in said(app)
        assert app.screen is not broken
        burst(app, "escape")
        await until(lambda: len(asker.results) == 2)
    assert app.return_code is None  # not set: no error ended the app


async def test_a_kind_whose_describe_content_raises_is_shown_answered_as_its_content_is() -> None:
    # The timeline's row is written by the main screen: its error ended the app.
    asker = Asker(
        BrokenRequest(message="Broken?", where="describe"), BrokenRequest(message="Next?")
    )
    app = ElicitationApp(ElicitationQueue(), asker, input_grace=0)
    async with app.run_test(size=SIZE):
        await until(lambda: showing(app, "Broken?"))
        burst(app, *"ok", "enter")
        await until(lambda: showing(app, "Next?"))
        burst(app, *"fine", "enter")
        await until(lambda: len(asker.results) == 2)
        await until(lambda: "✔ line fine" in screen_text(app))
        assert "✔ ok " in screen_text(app)
    assert [r.content for r in asker.results] == ["ok", "fine"]
    assert app.return_code is None  # not set: no error ended the app


def test_an_answer_whose_check_raises_is_refused_with_422_naming_the_error(
    tmp_path: Path,
) -> None:
    # The inbox answered 500 Internal Server Error to the front end.
    inbox = HeadlessInbox(tmp_path / "inbox", **KINDS)
    try:
        broken = inbox.submit({"kind": "broken_test", "message": "Broken?", "where": "check"})
        answer = {"front_end": "test", "result": {"action": "accept", "content": "ok"}}
        status, reply = inbox.call("POST", f"/v1/requests/{broken}/answer", answer)
        assert status == 422
        assert reply["error"] == (
            "the answer does not fit the request: checking the answer raised DialogBroke:"
            " broke in check asking 'Broken?'"
            " (check_content refuses an answer by raising ValueError)"
        )
        assert inbox.pending_ids() == [broken]  # still waiting: it can be cancelled
        cancel = {"front_end": "test", "result": {"action": "cancel"}}
        assert inbox.call("POST", f"/v1/requests/{broken}/answer", cancel)[0] == 200
        assert inbox.result(broken, wait=5) == {"action": "cancel", "content": None, "reason": None}
    finally:
        inbox.stop()


async def test_a_dialog_error_whose_message_cannot_be_read_ends_its_question_not_the_app() -> None:
    # Saying the error raised again, and that ended the app.
    asker = Asker(
        BrokenRequest(message="Broken?", where="unsayable"), BrokenRequest(message="Next?")
    )
    app = ElicitationApp(ElicitationQueue(), asker, input_grace=0)
    async with app.run_test(size=SIZE, notifications=True):
        await until(lambda: showing(app, "Broken?"))
        burst(app, "f2")
        await until(lambda: showing(app, "Next?"))
        reason = "dialog_failed: broken_test (Unsayable)"
        assert asker.results == [ElicitationResult(action="cancel", reason=reason)]
        notes = [notice.message for notice in app._notifications]
        assert (
            "The 'broken_test' dialog failed (Unsayable: <its message could not be read:"
            " RuntimeError>); its question was cancelled." in notes
        )
        burst(app, "escape")
        await until(lambda: len(asker.results) == 2)
    assert app.return_code is None  # not set: no error ended the app


async def test_the_notice_of_a_long_error_is_cut_with_an_ellipsis() -> None:
    asker = Asker(BrokenRequest(message="Why? " * 300, where="mount"))
    app = ElicitationApp(ElicitationQueue(), asker, input_grace=0)
    async with app.run_test(size=SIZE, notifications=True):
        await until(lambda: "broke in mount" in said(app))
        assert "Why? Why…); its question was cancelled." in said(app)
        assert said(app).count("Why?") < 40
    assert asker.results == [FAILED]


async def test_a_secret_answered_earlier_is_in_no_report_of_a_failed_dialog(
    caplog: pytest.LogCaptureFixture,
) -> None:
    # The agent echoes the secret in its next question, whose dialog fails quoting it.
    asker = Asker(
        SecretRequest(message="API key?"),
        BrokenRequest(message=f"Is {CANARY} right?", where="mount"),
    )
    app = ElicitationApp(ElicitationQueue(), asker, input_grace=0)
    with caplog.at_level(logging.ERROR):
        async with app.run_test(size=SIZE, notifications=True):
            await until(lambda: isinstance(app.screen, SecretModal))
            burst(app, *CANARY, "enter")
            await until(lambda: "broke in mount" in screen_text(app))
            on_screen = screen_text(app)
    report = Console(file=io.StringIO(), width=80)
    report.print(app._failed_dialogs)
    printed = report.file.getvalue()  # type: ignore[attr-defined]
    assert "broke in mount" in printed
    assert "broke in mount" in caplog.text
    assert asker.results[1] == FAILED
    for text in (on_screen, printed, caplog.text):
        assert not any(piece in text for piece in CANARY_PIECES), text


@pytest.mark.parametrize(
    ("keys", "error"),
    [(("enter",), "ValueError"), (("f2",), "DialogBroke")],
    ids=["content", "action"],
)
async def test_what_a_masked_field_holds_is_in_no_report_of_its_dialog_s_failure(
    keys: tuple[str, ...], error: str, caplog: pytest.LogCaptureFixture
) -> None:
    # The notice, the log and the report printed as the app exited read "invalid literal for
    # int() with base 10: 'sk-…'", while the field showed the PIN as dots.
    asker = Asker(PinCheckRequest(message="PIN?"), BrokenRequest(message="Next?"))
    app = ElicitationApp(ElicitationQueue(), asker, input_grace=0)
    with caplog.at_level(logging.ERROR):
        async with app.run_test(size=SIZE, notifications=True):
            await until(lambda: showing(app, "PIN?"))
            burst(app, *CANARY, *keys)
            await until(lambda: showing(app, "Next?") and "•••" in said(app))
            on_screen = said(app)
    report = Console(file=io.StringIO(), width=80)
    report.print(app._failed_dialogs)
    printed = report.file.getvalue()  # type: ignore[attr-defined]
    assert asker.results[0] == ElicitationResult(
        action="cancel", reason=f"dialog_failed: masked_pin_test ({error})"
    )
    for text in (on_screen, printed, caplog.text):
        assert "•••" in text, text
        assert not any(piece in text for piece in CANARY_PIECES), text


async def test_a_dialog_s_refusal_quoting_what_its_masked_field_holds_shows_it_masked() -> None:
    # The line under the field read "'sk-…' is no number".
    asker = Asker(PinCheckRequest(message="PIN?", how="refuse"))
    app = ElicitationApp(ElicitationQueue(), asker, input_grace=0)
    async with app.run_test(size=SIZE):
        await until(lambda: showing(app, "PIN?"))
        modal = app.screen
        burst(app, *CANARY, "enter")
        await until(lambda: bool(error_line(modal)))
        assert error_line(modal) == "'•••' is no number"
        assert not any(piece in screen_text(app) for piece in CANARY_PIECES)
        burst(app, "escape")
        await until(lambda: bool(asker.results))
    assert asker.results == [ElicitationResult(action="cancel")]


def test_ask_reports_a_failure_quoting_what_a_masked_field_holds_masked(tmp_path: Path) -> None:
    # `ask ... 2> errors.txt` kept the PIN in clear in the report of the failure.
    errors = tmp_path / "errors.txt"
    printed: list[str] = []
    code, result = ask(
        tmp_path,
        "--json",
        json.dumps({"kind": "masked_pin_test", "message": "PIN?"}),
        shown="PIN?",
        burst=f"{CANARY}\r",
        printed=printed,
        errors=errors,
        **KINDS,
    )
    reason = "dialog_failed: masked_pin_test (ValueError)"
    assert (code, result) == (2, {"action": "cancel", "content": None, "reason": reason})
    reported = errors.read_text()
    assert "ValueError: invalid literal for int() with base 10: '•••'" in reported
    for text in (reported, printed[0]):
        assert not any(piece in text for piece in CANARY_PIECES), text


async def test_a_dialog_built_ahead_that_fails_is_dropped_and_its_shape_built_at_the_ask(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Only built-in dialogs are built ahead: one with a bug in its first filling.
    fill = ChoiceModal.fill
    fills: list[ChoiceModal] = []

    def fill_failing_first(modal: ChoiceModal) -> None:
        fills.append(modal)
        if len(fills) == 1:
            raise DialogBroke("broke as it was built ahead")
        fill(modal)

    monkeypatch.setattr(ChoiceModal, "fill", fill_failing_first)
    asker = LateAsker(ChoiceRequest(message="Region?", options=["eu", "us"]))
    app = ElicitationApp(ElicitationQueue(), asker, input_grace=0)
    async with app.run_test(size=SIZE, notifications=True):
        await until(lambda: app._prebuilt)
        assert fills[0] not in app._installed_screens.values()
        asker.go.set()
        await until(lambda: showing(app, "Region?"))
        assert app.screen is not fills[0]
        burst(app, "down", "enter")
        await until(lambda: len(asker.results) == 1)
    assert asker.results == [ElicitationResult(action="accept", content="us")]
    assert app.return_code is None  # not set: no error ended the app


async def test_an_error_of_the_app_itself_still_ends_it() -> None:
    # Only a dialog's errors are contained: the app's own are not hidden behind a notice.
    app = ElicitationApp(ElicitationQueue(), input_grace=0)
    with pytest.raises(DialogBroke, match="the app's own"):
        async with app.run_test(size=SIZE, notifications=True):
            app.call_later(lambda: (_ for _ in ()).throw(DialogBroke("the app's own")))
            await asyncio.sleep(0.5)
    assert app.return_code == 1


async def test_ask_s_app_returns_the_failure_and_keeps_its_report_for_the_exit() -> None:
    app = AskApp(BrokenRequest(message="Broken?", where="mount"), input_grace=0)
    async with app.run_test(size=SIZE, notifications=True):
        await until(lambda: app.return_value is not None)
    assert app.return_value == FAILED
    assert app.return_code == 0
    assert app._failed_dialogs  # printed on the error console as it exits (the pty test)


def test_ask_on_a_pty_exits_2_with_the_failure_and_prints_where_it_failed(
    tmp_path: Path,
) -> None:
    request = {"kind": "broken_test", "message": "Broken?", "where": "handler"}
    printed: list[str] = []
    code, result = ask(
        tmp_path,
        "--json",
        json.dumps(request),
        shown="Press",
        burst="\t\r",  # to the button and press it
        printed=printed,
        **KINDS,
    )
    assert (code, result) == (2, FAILED_JSON)
    # The traceback, without locals, for the kind's author: the line that raised.
    assert "failing_kinds.py" in printed[0]
    assert "DialogBroke: broke in handler" in printed[0]


def test_ask_with_stderr_sent_elsewhere_reports_the_failure_there_not_on_the_terminal(
    tmp_path: Path,
) -> None:
    # The report went to the terminal the dialog was drawn on, whatever `2>` said.
    request = {"kind": "broken_test", "message": "Broken?", "where": "content"}
    errors = tmp_path / "errors.txt"
    printed: list[str] = []
    code, result = ask(
        tmp_path,
        "--json",
        json.dumps(request),
        shown="Broken?",
        burst="\r",
        printed=printed,
        errors=errors,
        **KINDS,
    )
    assert (code, result) == (2, FAILED_JSON)
    reported = errors.read_text()
    assert "failing_kinds.py" in reported
    assert "DialogBroke: broke in content" in reported
    assert "DialogBroke" not in printed[0]


def test_ask_on_a_pty_says_why_a_kind_had_no_dialog_as_it_exits(tmp_path: Path) -> None:
    """The notice on screen is gone as `ask` exits at once: it said only `unsupported_kind`."""
    request = {"kind": "misplaced_test", "message": "Where?"}
    env = {**os.environ, **KINDS, "TERM": "xterm-256color"}
    env["ELICIT_TUI_CONFIG_DIR"] = str(tmp_path)
    command = ["-m", "tui.cli", "ask", "--json", json.dumps(request)]
    child = pexpect.spawn(sys.executable, command, cwd=str(REPO), env=env, dimensions=(24, 80))
    child.expect(pexpect.EOF, timeout=30)
    child.close()
    printed = " ".join(re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", child.before.decode()).split())
    assert child.exitstatus == 2
    assert '"reason": "unsupported_kind: misplaced_test"' in printed
    assert (
        "Cannot show 'misplaced_test' requests: the modal of kind 'misplaced_test',"
        " failing_kinds_nowhere:MisplacedModal, cannot load:"
        " ModuleNotFoundError: No module named 'failing_kinds_nowhere'" in printed
    )


async def cancelled_as_unshown(first: Request, kind_name: str, why: str) -> ElicitationApp:
    """Ask `first`, whose modal cannot load, then another: `first` is cancelled as a kind
    that cannot be shown, saying `why`, and the next question is shown. Returns the app."""
    asker = Asker(first, BrokenRequest(message="Next?"))
    app = ElicitationApp(ElicitationQueue(), asker, input_grace=0)
    async with app.run_test(size=SIZE, notifications=True):
        await until(lambda: showing(app, "Next?"))
        assert asker.results == [
            ElicitationResult(action="cancel", reason=f"unsupported_kind: {kind_name}")
        ]
        lead = f"Cannot show {kind_name!r} requests here ("
        notes = [n.message for n in app._notifications if n.message.startswith(lead)]
        assert len(notes) == 1 and notes[0].endswith("); cancelled.")
        # Cut to fit under the next question; the whole of it is in the exit's report.
        shown = notes[0].removeprefix(lead).removesuffix("); cancelled.")
        assert shown == why or (shown.endswith("…") and why.startswith(shown[:-1]))
        burst(app, "escape")
        await until(lambda: len(asker.results) == 2)
    return app


async def test_a_modal_whose_module_raises_any_error_as_it_loads_is_said_not_to_load() -> None:
    # Its ValueError was taken for the dialog's own: dialog_failed, and no reason given.
    why = (
        "the modal of kind 'clashing_test', clashing_modal:ClashingModal, cannot load:"
        " ValueError: kind 'broken_test' is already registered by"
        " failing_kinds.BrokenRequest"
    )
    app = await cancelled_as_unshown(ClashingRequest(message="Clash?"), "clashing_test", why)
    report = Console(file=io.StringIO(), width=400)
    report.print(app._failed_dialogs)
    assert report.file.getvalue() == f"Cannot show 'clashing_test' requests: {why}\n"  # type: ignore[attr-defined]


async def test_a_modal_without_content_is_said_not_to_load_before_anything_is_typed() -> None:
    # It was shown, and failed only once the person had typed an answer and pressed Enter.
    why = (
        "the modal of kind 'contentless_test', failing_kinds:ContentlessModal,"
        " has no content() to give an answer"
    )
    await cancelled_as_unshown(ContentlessRequest(message="Colour?"), "contentless_test", why)


async def test_a_modal_whose_content_is_async_is_said_not_to_load_before_anything_is_typed() -> (
    None
):
    # It was shown, and failed once Enter was pressed: "ContentNotJSON: ... coroutine ...".
    why = (
        "the modal of kind 'async_content_test', failing_kinds:AsyncContentModal, has an async"
        " content(): it must return the answer's content, so make it a plain def"
    )
    await cancelled_as_unshown(AsyncContentRequest(message="Colour?"), "async_content_test", why)


def test_an_attached_front_end_sends_the_failure_and_shows_the_next_question(
    tmp_path: Path,
) -> None:
    with attached_to_inbox(tmp_path, **KINDS) as (inbox, terminal):
        broken = inbox.submit({"kind": "broken_test", "message": "Broken?", "where": "mount"})
        assert inbox.result(broken, wait=10) == FAILED_JSON
        terminal.wait_for_plain("broke in mount")
        nxt = inbox.submit({"kind": "broken_test", "message": "Next?"})
        terminal.wait_for_plain("Next?")
        time.sleep(0.5)
        terminal.type("fine\r", pause=0)
        assert inbox.result(nxt, wait=10) == {"action": "accept", "content": "fine", "reason": None}
    assert "DialogBroke: broke in mount" in terminal.plain  # printed as it exited


@pytest.mark.parametrize(
    ("data", "raised"),
    [
        ({"kind": "zone_test", "message": "Deploy where?", "zone": "us"}, "KeyError: 'us'"),
        (
            {"kind": "gate_test", "message": "Open?", "gate": "mute"},
            "Unsayable: <its message could not be read: RuntimeError>",
        ),
        ({"kind": "gate_test", "message": "Open?", "gate": "exit"}, "SystemExit: 5"),
    ],
    ids=["key-error", "unreadable-message", "system-exit"],
)
def test_a_validator_that_raises_any_error_refuses_the_request_at_every_boundary(
    tmp_path: Path, data: dict[str, str], raised: str
) -> None:
    # `ask` exited 1 with a traceback: "declined", to the script that ran it (an error whose
    # message could not be read raised again as it was said; SystemExit ended `ask` with its
    # own status); the inbox answered 500 Internal Server Error.
    bug = (
        f"validating this {data['kind']!r} request raised {raised}; a validator refuses a"
        " value by raising ValueError"
    )
    with pytest.raises(ValidationError) as refused:
        parse_request(data)
    assert bug in str(refused.value)
    done = subprocess.run(
        [sys.executable, "-m", "tui.cli", "ask", "--json", json.dumps(data)],
        cwd=REPO,
        env={**os.environ, **KINDS},
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        timeout=30,
    )
    assert done.returncode == 3
    assert "Traceback" not in done.stderr
    assert bug in done.stderr
    inbox = HeadlessInbox(tmp_path / "inbox", **KINDS)
    try:
        status, reply = inbox.call("POST", "/v1/requests", {"request": data})
    finally:
        inbox.stop()
    assert status == 422
    assert bug in reply["error"]


def test_a_validator_that_raises_nothing_lets_the_request_through() -> None:
    assert isinstance(
        parse_request({"kind": "zone_test", "message": "Where?", "zone": "eu"}), ZoneRequest
    )
    assert isinstance(parse_request({"kind": "gate_test", "message": "Open?"}), GateRequest)


def test_an_answer_whose_check_raises_an_error_with_no_readable_message_is_refused_with_422(
    tmp_path: Path,
) -> None:
    # The inbox answered 500: saying the error raised again.
    inbox = HeadlessInbox(tmp_path / "inbox", **KINDS)
    try:
        gate = inbox.submit({"kind": "gate_test", "message": "Open?"})
        answer = {"front_end": "test", "result": {"action": "accept", "content": "mute"}}
        status, reply = inbox.call("POST", f"/v1/requests/{gate}/answer", answer)
        assert (status, reply["error"]) == (
            422,
            "the answer does not fit the request: checking the answer raised Unsayable:"
            " <its message could not be read: RuntimeError> (check_content refuses an answer"
            " by raising ValueError)",
        )
        assert inbox.pending_ids() == [gate]
    finally:
        inbox.stop()
