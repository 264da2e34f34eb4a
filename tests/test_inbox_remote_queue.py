"""`tui.RemoteQueue` asks a real `serve --headless` inbox from another process."""

from __future__ import annotations

import asyncio
import http.server
import json
import os
import signal
import socket
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from inbox_process import InboxProcess, keyring_env, running_inbox
from pydantic import BaseModel, SecretStr, field_validator
from secret_field_kind import TokenCheckRequest

import tui
from tui import ChoiceRequest, SecretRequest, TextRequest
from tui.core.config_folder import CONFIG_DIR_ENV
from tui.core.secret_ref import SecretRef
from tui.inbox import remote_queue
from tui.inbox.discovery import find_inbox
from tui.inbox.env_names import TOKEN_ENV, URL_ENV
from tui.inbox.remote_queue import INBOX_REFUSED, INBOX_UNREACHABLE, InboxRefusedError, RemoteQueue
from tui.inbox.wire import MODEL_REFUSED
from tui.mcp.auth import save_token


@pytest.fixture
def inbox() -> Iterator[InboxProcess]:
    with running_inbox() as running:
        yield running


def answer_when_asked(inbox: InboxProcess, content: object) -> None:
    (pending,) = inbox.wait_pending(1)
    assert inbox.answer(pending["id"], {"action": "accept", "content": content}).status_code == 200


def test_ask_blocks_until_a_front_end_answers(inbox: InboxProcess) -> None:
    queue = tui.RemoteQueue(inbox.base + "/mcp", inbox.token)
    future = queue.submit(ChoiceRequest(message="Which?", options=["a", "b"]))
    answer_when_asked(inbox, "b")

    result = future.result(timeout=10)
    assert (result.action, result.content, result.reason) == ("accept", "b", None)


async def test_ask_async_awaits_and_cancelling_the_task_withdraws(inbox: InboxProcess) -> None:
    queue = RemoteQueue(inbox.base, inbox.token)
    task = asyncio.create_task(queue.ask_async(TextRequest(message="Name?", id="named")))
    await asyncio.to_thread(inbox.wait_pending, 1)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    await asyncio.to_thread(inbox.wait_pending, 0)

    late = inbox.answer("named", {"action": "accept", "content": "x"})
    assert late.json()["answered_by"] == "cancelled_by_agent"


def test_cancelling_the_future_of_submit_withdraws(inbox: InboxProcess) -> None:
    queue = RemoteQueue(inbox.base, inbox.token)
    future = queue.submit(TextRequest(message="Name?"))
    inbox.wait_pending(1)

    assert future.cancel()
    assert inbox.wait_pending(0) == []


def test_secrets_come_back_as_secretstr_or_as_the_keyring_reference(tmp_path: Path) -> None:
    with running_inbox(env=keyring_env(tmp_path)) as inbox:
        queue = RemoteQueue(inbox.base, inbox.token)
        typed = queue.submit(SecretRequest(message="Password?"))
        answer_when_asked(inbox, "hunter2")
        stored = queue.submit(
            SecretRequest(message="Token?", store={"service": "gh", "username": "me"})
        )
        answer_when_asked(inbox, "ghp-123")

        assert typed.result(10).content == SecretStr("hunter2")
        assert stored.result(10).content == SecretRef(service="gh", username="me")


def test_a_sensitive_answer_comes_back_flagged_so_no_model_is_told_it(
    inbox: InboxProcess,
) -> None:
    queue = tui.RemoteQueue(inbox.base, inbox.token)
    future = queue.submit(TextRequest(message="Recovery code?", sensitive=True))
    answer_when_asked(inbox, "canary-5512")

    result = future.result(timeout=10)
    assert (result.content, result.sensitive) == ("canary-5512", True)
    assert "canary-5512" not in result.to_llm_text() + repr(result)


def test_a_form_made_from_a_model_comes_back_as_the_model(inbox: InboxProcess) -> None:
    class Person(BaseModel):
        name: str
        age: int

    queue = RemoteQueue(inbox.base, inbox.token)
    future = queue.submit(tui.FormRequest.from_model(Person, message="Who?"))
    answer_when_asked(inbox, {"name": "Ada", "age": 36})

    assert future.result(10).content == Person(name="Ada", age=36)


class Account(BaseModel):
    name: str
    key: SecretStr

    @field_validator("key")
    @classmethod
    def _key_shape(cls, key: SecretStr) -> SecretStr:
        if not key.get_secret_value().startswith("ok-"):
            raise ValueError(f"the key must start with ok-, not {key.get_secret_value()!r}")
        return key


def test_an_answer_the_form_s_model_refuses_is_a_cancel_naming_why_without_the_secret(
    inbox: InboxProcess,
) -> None:
    # `ask_form` raised pydantic's ValidationError, quoting the key typed in clear.
    queue = RemoteQueue(inbox.base, inbox.token)
    future = queue.submit(tui.FormRequest.from_model(Account, message="Account?"))
    answer_when_asked(inbox, {"name": "ok", "key": "sk-CANARY-ATT"})

    result = future.result(10)
    assert result.action == "cancel"
    assert result.reason == f"{MODEL_REFUSED}: key: the key must start with ok-, not '•••'"
    assert "CANARY" not in repr(result) + result.to_llm_text()


def test_an_inbox_that_vanishes_mid_wait_answers_cancel_saying_so(inbox: InboxProcess) -> None:
    queue = RemoteQueue(inbox.base, inbox.token)
    future = queue.submit(TextRequest(message="Name?"))
    inbox.wait_pending(1)
    inbox.process.kill()

    result = future.result(timeout=15)
    assert (result.action, result.reason) == ("cancel", INBOX_UNREACHABLE)


def test_no_inbox_at_all_answers_cancel_at_once() -> None:
    with socket_free_port() as port:
        started = time.monotonic()
        result = RemoteQueue(f"http://127.0.0.1:{port}", "x").ask(TextRequest(message="Hi?"))

    assert (result.action, result.reason) == ("cancel", INBOX_UNREACHABLE)
    assert time.monotonic() - started < 5


def test_a_url_no_connection_can_be_made_from_is_refused_naming_it() -> None:
    with pytest.raises(ValueError, match=r"not an http\(s\) URL: 'http://\[::1'"):
        RemoteQueue("http://[::1", "x")


def test_a_fault_while_asking_is_raised_to_the_asker_not_left_waiting(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def broken(*_: object, **__: object) -> None:
        raise RuntimeError("the call broke")

    monkeypatch.setattr("tui.inbox.remote_queue.held_call", broken)
    future = RemoteQueue("http://127.0.0.1:9", "x").submit(TextRequest(message="Hi?"))

    with pytest.raises(RuntimeError, match="the call broke"):
        future.result(timeout=15)


def test_quitting_the_inbox_answers_closed(inbox: InboxProcess) -> None:
    queue = RemoteQueue(inbox.base, inbox.token)
    future = queue.submit(TextRequest(message="Name?"))
    inbox.wait_pending(1)
    inbox.stop()

    assert future.result(timeout=15).reason == "closed"


def killed_once_its_request_waits(
    inbox: InboxProcess, script: str, *, after: float = 0
) -> list[dict[str, Any]]:
    """Run the asker `script` until its request has waited in `inbox` for `after` seconds,
    kill it (SIGKILL), and return what waits in the inbox after."""
    asker = subprocess.Popen([sys.executable, "-c", script])
    try:
        inbox.wait_pending(1)
        time.sleep(after)
        asker.kill()
        asker.wait(10)
        return inbox.wait_pending(0)
    finally:
        if asker.poll() is None:
            asker.kill()
            asker.wait(10)


def test_an_asker_process_that_dies_withdraws_its_request(inbox: InboxProcess) -> None:
    script = textwrap.dedent(
        f"""
        import tui
        tui.RemoteQueue({inbox.base!r}, {inbox.token!r}).ask(tui.TextRequest(message="Hi?"))
        """
    )
    assert killed_once_its_request_waits(inbox, script) == []


def test_an_asker_killed_at_any_moment_of_its_wait_withdraws_its_request(
    inbox: InboxProcess,
) -> None:
    # An asker that waited by one call, then by the next, left the person a question nobody
    # would read if it died between two of them (a crash, a slow machine). This one never
    # gets through a second connection, so it is killed in such a gap if there is one.
    script = textwrap.dedent(
        f"""
        import socket, time, tui
        connect = socket.create_connection
        made = []

        def only_once(*args, **kwargs):
            made.append(args)
            if len(made) > 1:
                time.sleep(3600)
            return connect(*args, **kwargs)

        socket.create_connection = only_once
        tui.RemoteQueue({inbox.base!r}, {inbox.token!r}).ask(tui.TextRequest(message="Hi?"))
        """
    )
    assert killed_once_its_request_waits(inbox, script, after=4) == []


def test_a_stopped_asker_keeps_its_question_and_gets_the_answer_once_continued(
    inbox: InboxProcess,
) -> None:
    script = textwrap.dedent(
        f"""
        import tui
        queue = tui.RemoteQueue({inbox.base!r}, {inbox.token!r})
        print(queue.ask(tui.TextRequest(message="Hi?")).content, flush=True)
        """
    )
    asker = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    try:
        (pending,) = inbox.wait_pending(1)
        asker.send_signal(signal.SIGSTOP)  # Ctrl+Z
        time.sleep(3)
        assert [p["id"] for p in inbox.pending()] == [pending["id"]]
        inbox.answer(pending["id"], {"action": "accept", "content": "Ada"})
        asker.send_signal(signal.SIGCONT)
        out, _ = asker.communicate(timeout=15)
    finally:
        asker.kill()
        asker.wait(10)
    assert out == "Ada\n"


def test_a_stopped_inbox_answers_cancel_after_its_silence_not_never(
    inbox: InboxProcess, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(remote_queue, "SILENCE", 2.0)
    result, took = asked_of_a_stopped_inbox(inbox, None)
    assert (result.action, result.reason) == ("cancel", INBOX_UNREACHABLE)
    assert 1.5 < took < 5


def asked_of_a_stopped_inbox(
    inbox: InboxProcess, timeout: float | None
) -> tuple[tui.ElicitationResult, float]:
    """The result of a question the inbox is stopped (Ctrl+Z) under once it waits, and the
    seconds from the stop to the result."""
    future = RemoteQueue(inbox.base, inbox.token).submit(TextRequest(message="Name?"), timeout)
    inbox.wait_pending(1)
    inbox.process.send_signal(signal.SIGSTOP)  # Ctrl+Z
    try:
        started = time.monotonic()
        result = future.result(timeout=40)
        return result, time.monotonic() - started
    finally:
        inbox.process.send_signal(signal.SIGCONT)


def test_a_question_with_a_timeout_gives_up_on_a_stopped_inbox_after_it_not_the_silence(
    inbox: InboxProcess,
) -> None:
    # A CI step bounded its question with `--timeout 1`: with the inbox stopped, it waited
    # the 30 s silence all the same.
    result, took = asked_of_a_stopped_inbox(inbox, 1)
    assert (result.action, result.reason) == ("cancel", INBOX_UNREACHABLE)
    assert took < 1 + remote_queue.TIMEOUT_GRACE + 2


@contextmanager
def not_an_inbox() -> Iterator[str]:
    """A web server that answers 501 to a POST, as `python -m http.server` does; its URL."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), http.server.BaseHTTPRequestHandler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def test_a_server_that_is_no_inbox_is_named_as_such_not_taken_for_a_wrong_token(
    inbox: InboxProcess,
) -> None:
    # Any status but 200 and the refusals of a request was "refused (a wrong token?)": a wrong
    # path or another service on the port sent people after a token that was right.
    with not_an_inbox() as url:
        with pytest.raises(InboxRefusedError) as other:
            RemoteQueue(url, "t").ask(TextRequest(message="Name?"))
        wrong_path = RemoteQueue(f"{inbox.base}/v1", inbox.token).submit(
            TextRequest(message="Name?")
        )
    wrong_token = RemoteQueue(inbox.base, "not-the-token").ask(TextRequest(message="Name?"))

    assert other.value.status == 501
    assert str(other.value) == (
        f"{url} answered HTTP 501: is an elicit-tui inbox (`elicit-tui serve`) there, at this URL?"
    )
    assert isinstance(wrong_path.exception(timeout=10), InboxRefusedError)
    assert (wrong_token.action, wrong_token.reason) == ("cancel", INBOX_REFUSED)


@pytest.mark.parametrize(
    ("url", "sent"),
    [
        ("http://127.0.0.1:8765", True),
        ("http://127.0.0.2:9000/mcp", True),
        ("http://localhost:8765", True),
        ("http://[::1]:8765", True),
        ("http://10.0.0.5:8765", False),
        ("https://inbox.example.com", False),
    ],
)
def test_the_token_file_is_sent_to_an_inbox_on_this_machine_only(
    monkeypatch: pytest.MonkeyPatch, url: str, sent: bool
) -> None:
    # A project's $ELICIT_TUI_URL naming another host got this machine's inbox token, with
    # every hook's call.
    monkeypatch.delenv(TOKEN_ENV, raising=False)
    save_token("from-file", Path(os.environ[CONFIG_DIR_ENV]))
    assert find_inbox(url).token == ("from-file" if sent else None)
    assert find_inbox(url, "given").token == "given"


def test_discovery_takes_the_flag_then_the_environment_then_the_token_file(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv(URL_ENV, raising=False)
    monkeypatch.delenv(TOKEN_ENV, raising=False)
    save_token("from-file", Path(os.environ[CONFIG_DIR_ENV]))

    from_file = find_inbox()
    assert (from_file.base, from_file.token) == ("http://127.0.0.1:8765", "from-file")
    assert from_file.token_saved  # read again by a front end that reconnects
    monkeypatch.setenv(URL_ENV, "http://127.0.0.1:9/mcp")
    monkeypatch.setenv(TOKEN_ENV, "from-env")
    from_env = find_inbox()
    assert (from_env.base, from_env.token, from_env.token_saved) == (
        "http://127.0.0.1:9",
        "from-env",
        False,
    )
    flagged = find_inbox("http://localhost:7/", "from-flag")
    assert (flagged.base, flagged.token, flagged.token_saved) == (
        "http://localhost:7",
        "from-flag",
        False,
    )


def test_import_tui_stays_light_with_remote_queue_named() -> None:
    code = (
        "import sys, tui; tui.RemoteQueue; "
        "print(sorted(m for m in ('textual', 'starlette', 'mcp', 'httpx2', 'uvicorn', 'keyring') "
        "if m in sys.modules))"
    )
    loaded = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )

    assert loaded.stdout.strip() == "[]"


@contextmanager
def socket_free_port() -> Iterator[int]:
    """A port nothing listens on (bound, never listening), while the block runs."""
    with socket.socket() as bound:
        bound.bind(("127.0.0.1", 0))
        yield bound.getsockname()[1]


def test_a_whole_number_a_front_end_sends_as_a_float_is_taken_as_an_integer(
    inbox: InboxProcess,
) -> None:
    # The inbox refused {"n": 4.0} with a 422, "must be a whole number".
    schema = {"type": "object", "properties": {"n": {"type": "integer"}}}
    asked = RemoteQueue(inbox.base, inbox.token).submit(
        tui.FormRequest(message="How many?", requested_schema=schema)
    )
    answer_when_asked(inbox, {"n": 4.0})
    content = asked.result(10).content
    assert content == {"n": 4} and type(content["n"]) is int


SENT_SECRET = (
    "TokenCheckRequest holds a SecretStr in its field 'token', which cannot be sent to an inbox"
    " (it would arrive as '**********', not its value): ask it in the process that holds the"
    " secret, with an ElicitationQueue, or send what its dialog needs instead"
)


def test_a_request_holding_a_secret_is_refused_before_it_is_sent_naming_the_field() -> None:
    # It went out as "token": "**********": the inbox, its front ends and the dialog took the
    # mask for the value, and nothing said so.
    queue = RemoteQueue("http://127.0.0.1:9221", "token")
    with pytest.raises(ValueError) as refused:
        queue.submit(TokenCheckRequest(message="Right token?", token=SecretStr("sk-canary-77")))
    assert str(refused.value) == SENT_SECRET


def test_ask_to_exits_3_for_a_request_holding_a_secret_naming_the_field() -> None:
    request = {"kind": "token_check_test", "message": "Right token?", "token": "sk-canary-77"}
    to = ("--to", "http://127.0.0.1:9221", "--token", "x")
    done = subprocess.run(
        [sys.executable, "-m", "tui.cli", "ask", *to, "--json", json.dumps(request)],
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        timeout=30,
        env={
            **os.environ,
            "TERM": "dumb",
            "ELICIT_TUI_KINDS": "secret_field_kind",
            "PYTHONPATH": str(Path(__file__).resolve().parent),
        },
    )
    assert (done.returncode, done.stdout) == (3, "")
    assert done.stderr == f"elicit-tui ask: {SENT_SECRET}\n"
