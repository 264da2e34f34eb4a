"""Clients of the inbox send it no token and act only on answers proven with it: whatever else
listens on the inbox's port while none runs (another user's program) gets neither the token
nor an answer taken from it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import httpx2
import pytest
from hook_process import BASH
from hook_schemas import INPUTS
from inbox_process import TOKEN, running_inbox

from tui.core.config_folder import CONFIG_DIR_ENV
from tui.core.models import ElicitationResult
from tui.core.signed_request import AnswerSigner, NotProven, SignedRequest
from tui.front_ends.remote import InboxRefused, RemoteFrontEnd
from tui.inbox.env_names import TOKEN_ENV, URL_ENV
from tui.mcp.auth import save_token

HERE = Path(__file__).parent
CLI = [sys.executable, "-m", "tui.cli"]


@pytest.fixture
def spy(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """A spy listening where the inbox would (its URL), and the file it logs requests to."""
    log = tmp_path / "spy.log"
    log.touch()
    process = subprocess.Popen(
        [sys.executable, str(HERE / "spy_server.py"), str(log)],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stdout is not None
        yield f"http://127.0.0.1:{int(process.stdout.readline())}", log
    finally:
        process.kill()
        process.wait(timeout=10)
        if process.stdout is not None:
            process.stdout.close()


def run_with_saved_token(
    tmp_path: Path, url: str, *args: str, stdin: str = "", timeout: float = 30
) -> subprocess.CompletedProcess[str]:
    """`elicit-tui ARGS` in an environment whose inbox is at `url`, its token only in the
    `serve-token` file (as `serve` leaves it), as a CLI's hook and a shell's `ask --to` find
    them; `stdin` is all it reads."""
    config = tmp_path / "config"
    save_token(TOKEN, config)
    environment = {**os.environ, CONFIG_DIR_ENV: str(config), URL_ENV: url}
    environment.pop(TOKEN_ENV, None)
    return subprocess.run(
        [*CLI, *args], input=stdin, capture_output=True, text=True, timeout=timeout, env=environment
    )


def test_a_hook_sends_a_listener_no_token_and_prints_no_decision_from_it(
    spy: tuple[str, Path], tmp_path: Path
) -> None:
    url, log = spy
    done = run_with_saved_token(
        tmp_path, url, "hook", "claude-code", stdin=(INPUTS / BASH).read_text()
    )
    assert (done.returncode, done.stdout) == (0, "")
    assert done.stderr.splitlines() == [
        f"elicit-tui hook claude-code: no decision: the server at {url} did not prove it is"
        " the inbox: its answer carries no proof; Claude Code asks as usual"
    ]
    seen = log.read_text()
    assert "POST /v1/hooks/claude-code" in seen  # it was asked, and given no token
    assert TOKEN not in seen


def test_ask_to_sends_a_listener_no_token_and_takes_no_answer_from_it(
    spy: tuple[str, Path], tmp_path: Path
) -> None:
    url, log = spy
    done = run_with_saved_token(tmp_path, url, "ask", "--to", url, "text", "Name?")
    assert done.returncode == 2
    assert "from the spy" not in done.stdout
    assert f"the server at {url} did not prove it is the inbox" in done.stderr
    seen = log.read_text()
    assert "POST /v1/ask" in seen
    assert TOKEN not in seen


def test_attach_shows_nothing_from_a_listener_and_sends_it_no_token(
    spy: tuple[str, Path],
) -> None:
    url, log = spy
    front_end = RemoteFrontEnd(url, TOKEN, "pane")
    with pytest.raises(InboxRefused, match=f"the server at {url} did not prove it is the inbox"):
        front_end.connect()
    assert "GET /v1/events" in log.read_text()
    assert TOKEN not in log.read_text()


def test_the_inbox_takes_a_signed_request_once_and_a_bearer_token_still() -> None:
    # A request a listener captured cannot be played to the inbox later: its nonce is spent.
    with running_inbox() as inbox:
        signed = SignedRequest(TOKEN, "GET", "/v1/requests")
        first = httpx2.get(inbox.base + "/v1/requests", headers=signed.headers)
        again = httpx2.get(inbox.base + "/v1/requests", headers=signed.headers)
        bearer = httpx2.get(inbox.base + "/v1/requests", headers=inbox.headers)
    assert (first.status_code, again.status_code, bearer.status_code) == (200, 401, 200)
    proof = first.headers.get("Elicit-Proof")
    assert json.loads(signed.answer(inbox.base, 200, proof, first.content)) == {
        "waiting": 0,
        "pending": [],
    }
    assert "Elicit-Proof" not in bearer.headers  # a bearer's client checks nothing


def test_an_attached_front_end_hears_and_answers_the_inbox_that_proves_itself() -> None:
    with running_inbox() as inbox:
        front_end = RemoteFrontEnd(inbox.base, inbox.token, "pane")
        front_end.connect()
        heard = threading.Event()
        front_end.subscribe(lambda event: heard.set())
        try:
            request_id, key = inbox.post({"kind": "text", "message": "Name?"})
            assert heard.wait(10)  # its event, each proven
            answered = front_end.respond(
                request_id, ElicitationResult(action="accept", content="Ada")
            )
        finally:
            front_end.close()
        result = inbox.result(request_id, key, wait=10).json()["result"]
    assert answered is True
    assert (result["action"], result["content"]) == ("accept", "Ada")


def _signed_pair() -> tuple[SignedRequest, AnswerSigner]:
    """A client's request and the inbox's signer for it, as the door makes it."""
    signed = SignedRequest(TOKEN, "POST", "/v1/ask", b"{}")
    return signed, AnswerSigner(TOKEN, signed.headers["Elicit-Nonce"])


def test_an_answer_changed_on_the_way_is_refused() -> None:
    signed, signer = _signed_pair()
    body = b'{"decided": false}'
    proof = signer.proof(200, body)
    assert signed.answer("http://inbox", 200, proof, body) == body
    with pytest.raises(NotProven, match="does not match"):
        signed.answer("http://inbox", 200, proof, b'{"decided": true}')
    with pytest.raises(NotProven, match="carries no proof"):
        signed.answer("http://inbox", 200, None, body)


def test_a_held_answer_changed_on_the_way_is_refused() -> None:
    signed, signer = _signed_pair()
    sealed = b"   " + signer.sealed(b'{"decided": false}')
    proof = signer.stream_proof(200)
    assert signed.answer("http://inbox", 200, proof, sealed) == b'{"decided": false}'
    changed = sealed.replace(b"false", b"true")
    with pytest.raises(NotProven, match="does not match"):
        signed.answer("http://inbox", 200, proof, changed)


def test_an_event_changed_on_the_way_is_refused() -> None:
    signed, signer = _signed_pair()
    signed.stream("http://inbox", 200, signer.stream_proof(200))
    proof = signer.part_proof(0, '{"type": "requested"}')
    signed.part("http://inbox", 0, '{"type": "requested"}', proof)
    with pytest.raises(NotProven):
        signed.part("http://inbox", 0, '{"type": "resolved"}', proof)
    with pytest.raises(NotProven):  # one event put in another's place
        signed.part("http://inbox", 1, '{"type": "requested"}', proof)


def test_mcp_url_to_the_inbox_sends_a_listener_no_token(
    spy: tuple[str, Path], tmp_path: Path
) -> None:
    url, log = spy
    done = run_with_saved_token(
        tmp_path,
        url,
        "mcp",
        "--url",
        f"{url}/mcp",
        "--call",
        "elicit",
        "--auto",
        "decline",
        timeout=120,
    )
    assert done.returncode == 1
    assert f"the server at {url} did not prove it is the inbox" in done.stderr
    seen = log.read_text()
    assert "POST /mcp" in seen
    assert TOKEN not in seen
