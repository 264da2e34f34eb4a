"""The inbox inside `elicit-tui serve` with its TUI: HTTP askers see their questions painted
there, and front ends in other processes share the answering with it."""

from __future__ import annotations

import asyncio
import socket

import httpx2
import pytest
from app_driver import SIZE, screen_text, wait_for, wait_for_modal
from inbox_process import running_inbox

from tui.app.serve_app import ServeApp
from tui.approvals.rules import ApprovalPolicy
from tui.core.queue import ElicitationQueue
from tui.secrets.keyring_store import NO_BACKEND_HINT
from widgets.base import ElicitationModal

TOKEN = "serve-tui-token-0123456789"
CHOICE = {"kind": "choice", "message": "Which database?", "options": ["Postgres", "SQLite"]}


@pytest.fixture
def app(listener: socket.socket) -> ServeApp:
    return ServeApp(ElicitationQueue(policy="wait"), listener, token=TOKEN, input_grace=0)


def client(app: ServeApp) -> httpx2.AsyncClient:
    base = app.url.removesuffix("/mcp")
    headers = {"Authorization": f"Bearer {TOKEN}"}
    return httpx2.AsyncClient(base_url=base, headers=headers, timeout=30)


async def test_a_question_posted_over_http_is_painted_and_answered_in_the_tui(
    app: ServeApp,
) -> None:
    async with app.run_test(size=SIZE) as pilot, client(app) as http:
        request_id = (await http.post("/v1/requests", json={"request": CHOICE})).json()["id"]
        await wait_for_modal(pilot, "Which database?")
        await pilot.press("enter")
        result = (await http.get(f"/v1/requests/{request_id}/result", params={"wait": 10})).json()
        late = await http.post(
            f"/v1/requests/{request_id}/answer",
            json={"result": {"action": "accept", "content": "SQLite"}, "front_end": "pane-2"},
        )

    assert result["result"] == {"action": "accept", "content": "Postgres", "reason": None}
    assert late.status_code == 409
    assert late.json()["answered_by"] == "elicit-tui serve"


async def test_a_front_end_elsewhere_answering_closes_the_question_in_the_tui(
    app: ServeApp,
) -> None:
    async with app.run_test(size=SIZE) as pilot, client(app) as http:
        request_id = (await http.post("/v1/requests", json={"request": CHOICE})).json()["id"]
        await wait_for_modal(pilot, "Which database?")
        applied = await http.post(
            f"/v1/requests/{request_id}/answer",
            json={"result": {"action": "accept", "content": "SQLite"}, "front_end": "pane-2"},
        )
        await wait_for(pilot, lambda: not isinstance(app.screen, ElicitationModal))
        result = (await http.get(f"/v1/requests/{request_id}/result")).json()

        def told() -> bool:
            notices = [notification.message for notification in app._notifications]
            return any(n.startswith("Answered in pane-2 at ") for n in notices)

        # Posted as the question closes, shown a moment later: waited for, not looked for.
        await wait_for(pilot, told)

    assert applied.json()["applied"] is True
    assert result["result"]["content"] == "SQLite"


async def test_an_always_rule_answers_an_http_askers_tool_approval_without_asking(
    app: ServeApp,
) -> None:
    ApprovalPolicy().allow("shell", scope="always")
    approval = {"kind": "tool_approval", "tool_name": "shell", "tool_call_id": "c1"}
    async with app.run_test(size=SIZE), client(app) as http:
        answered = (await http.post("/v1/ask", json={"request": approval})).json()

    assert answered["result"] == {
        "action": "accept",
        "content": {"scope": "always"},
        "reason": "auto_approved",
    }


async def test_quitting_the_tui_answers_a_waiting_http_asker_closed(app: ServeApp) -> None:
    async with app.run_test(size=SIZE) as pilot, client(app) as http:
        request_id = (await http.post("/v1/requests", json={"request": CHOICE})).json()["id"]
        await wait_for_modal(pilot)
        waiting = http.get(f"/v1/requests/{request_id}/result", params={"wait": 20})
        polling = asyncio.ensure_future(waiting)
        await pilot.pause(0.2)
        await pilot.press("ctrl+q", "ctrl+q")  # a question waits: the second quits
        result = (await polling).json()

    assert result["result"]["reason"] == "closed"


async def test_the_notices_from_the_start_make_way_for_the_first_question(
    app: ServeApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Without a keyring, its notice stayed 30 s over the first questions' right half.
    monkeypatch.setattr(
        "tui.app.serve_app.keyring_status", lambda: "No keyring backend is installed."
    )
    approval = {
        "kind": "tool_approval",
        "message": "Bash: rm -rf build/ && make release",
        "tool_name": "Bash",
        "tool_call_id": "c1",
        "arguments": {"command": "rm -rf build/ && make release", "description": "Clean"},
    }
    async with app.run_test(size=SIZE, notifications=True) as pilot, client(app) as http:
        await wait_for(pilot, lambda: "Authorization: Bearer" in screen_text(app))
        assert "No keyring" in screen_text(app)
        await http.post("/v1/requests", json={"request": approval})
        await wait_for_modal(pilot, approval["message"])
        await pilot.pause(0.1)
        shown = screen_text(app)
        left = [notification.message for notification in app._notifications]

    assert left == []
    assert "Bearer" not in shown and "keyring" not in shown
    # The corner the token's notice had covered: the choices' hints and the dialog's edge.
    assert "tell the agent no, and why" in shown
    assert "╰" + "─" * 20 in shown


async def test_the_token_notice_says_where_the_token_is_saved_on_lines_of_its_own(
    listener: socket.socket,
) -> None:
    token = "ljns9qIDIIGlCrsKmFqiXf-ZgqCNtY86lgxrflge0Qg"  # as long as `serve` makes them
    note = "Also saved, readable by you only:\n/root/.config/elicit-tui/serve-token"
    app = ServeApp(ElicitationQueue(), listener, token=token, token_note=note, input_grace=0)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await wait_for(pilot, lambda: "Authorization: Bearer" in screen_text(app))
        toast = [line.partition("▌")[2].strip() for line in screen_text(app).splitlines()]
    lines = [line for line in toast if line]
    # Not run on after the token's last characters, and the path whole on a line of its own.
    assert "Also saved, readable by you only:" in lines, lines
    assert "/root/.config/elicit-tui/serve-token" in lines, lines


async def test_ctrl_q_twice_in_one_burst_quits_with_a_question_waiting(app: ServeApp) -> None:
    async with app.run_test(size=SIZE) as pilot, client(app) as http:
        await http.post("/v1/requests", json={"request": CHOICE})
        await wait_for_modal(pilot, "Which database?")
        await pilot.press("ctrl+q", "ctrl+q")
        await wait_for(pilot, lambda: not app.is_running)

    assert [notification.title for notification in app._notifications] == ["Quit serve?"]


NO_KEYRING = (
    "No usable keyring: the keyring is disabled (keyring.backends.null.Keyring discards what "
    f"is stored). {NO_BACKEND_HINT}"
)


async def test_without_a_keyring_its_notice_is_short_and_the_title_bar_stays_whole(
    listener: socket.socket, monkeypatch: pytest.MonkeyPatch
) -> None:
    # At 80x24 the notice took 14 lines for 25 s and more, and with the token's notice it
    # covered the title bar's URL: `elicit-tui · MCP on htt▌`.
    monkeypatch.setattr("tui.app.serve_app.keyring_status", lambda: NO_KEYRING)
    note = "Also saved, readable by you only:\n/home/ada/.config/elicit-tui/serve-token"
    app = ServeApp(
        ElicitationQueue(policy="wait"), listener, token=TOKEN, token_note=note, input_grace=0
    )
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await wait_for(pilot, lambda: "No keyring" in screen_text(app))
        await wait_for(pilot, lambda: "Authorization: Bearer" in screen_text(app))
        rows = screen_text(app).splitlines()

    assert rows[0].strip().endswith(f"elicit-tui · MCP on {app.url}"), rows[0]
    keyring_rows = [
        row for row in rows if "▌" in row and ("keyring" in row or "request_secret" in row)
    ]
    assert 1 <= len(keyring_rows) <= 2, "\n".join(rows)
    assert "PYTHON_KEYRING_BACKEND" not in "\n".join(rows)


def test_serve_prints_why_it_has_no_keyring_before_it_starts() -> None:
    # The notice's detail, whole, where the configuration is: on the terminal, or in the log.
    with running_inbox(env={"PYTHON_KEYRING_BACKEND": "keyring.backends.null.Keyring"}) as inbox:
        assert inbox.pending() == []  # serving: all it prints before is printed
        inbox.stop()

    assert "request_secret calls will be refused (reason keyring_unavailable)." in inbox.output
    assert "keyring.backends.null.Keyring discards what is stored" in inbox.output
