"""The main screen at 80x24 in each state: idle, running, connected, serving, finished, failed,
a long timeline whose cells are cut with an ellipsis instead of pushed off the edge, and a
question whose dialog failed."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from snapshot_app import FIXED_TIME
from textual.pilot import Pilot

from tui.app.app import ElicitationApp
from tui.app.serve_app import ServeApp
from tui.core.config_folder import CONFIG_DIR_ENV
from tui.core.models import ElicitationResult, parse_request
from tui.core.queue import ElicitationQueue
from widgets.agent_status import AgentStatus
from widgets.choice import ChoiceModal

SIZE = (80, 24)

SUMMARY = {
    "name": "billing-api",
    "framework": "FastAPI",
    "features": "PostgreSQL, Metrics",
    "edit": "(decline: not now, the tests are red)",
    "deployment": "region=eu-west-1, instances=2, domain=billing.example.com, https=True",
    "status": "deployed",
}

ROWS: list[tuple[dict[str, Any], ElicitationResult]] = [
    (
        {"kind": "text", "message": "What should the new service be called?"},
        ElicitationResult(action="accept", content="billing-api"),
    ),
    (
        {
            "kind": "multi_choice",
            "message": "Which features should the scaffold include?",
            "options": ["PostgreSQL", "Redis cache", "Authentication", "Metrics"],
        },
        ElicitationResult(action="accept", content=["PostgreSQL", "Redis cache", "Metrics"]),
    ),
    (
        {
            "kind": "tool_approval",
            "tool_name": "edit_file",
            "summary": "Add a /health endpoint to billing_api/main.py",
            "tool_call_id": "call-2",
        },
        ElicitationResult(action="decline", content={"reason": "not now, the tests are red"}),
    ),
    (
        {
            "kind": "form",
            "message": "Where and how should it be deployed?",
            "requested_schema": {
                "type": "object",
                "properties": {"region": {"type": "string"}, "https": {"type": "boolean"}},
            },
        },
        ElicitationResult(action="accept", content={"region": "eu-west-1", "https": True}),
    ),
    (
        {"kind": "confirmation", "message": "Everything is ready. Deploy billing-api now?"},
        ElicitationResult(action="cancel", reason="timeout"),
    ),
]


@pytest.fixture(autouse=True)
def no_remembered_approvals(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(CONFIG_DIR_ENV, str(tmp_path))


@pytest.fixture
def release() -> Iterator[threading.Event]:
    """Set at the end of the test: agents that wait on it return, no thread is left blocked."""
    event = threading.Event()
    yield event
    event.set()


def main_app(agent: Any = None, **kwargs: Any) -> ElicitationApp:
    return ElicitationApp(
        ElicitationQueue(),
        agent,
        input_grace=0,
        time_label=lambda _at: FIXED_TIME,
        bell=False,
        **kwargs,
    )


async def settle(pilot: Pilot[Any], until: Any = lambda: True) -> None:
    for _ in range(100):
        await pilot.pause()
        if until():
            break
    await pilot.wait_for_scheduled_animations()
    await pilot.pause()


def fill_timeline(app: ElicitationApp) -> None:
    """Rows as the app shows them once each request has ended (without showing the modals)."""
    from widgets.timeline import Timeline

    timeline = app.query_one(Timeline)
    for data, result in ROWS:
        request = parse_request({"source": "setup-agent", **data})
        timeline.add_request(request, 0)
        timeline.resolve(request, result)


class TestMainScreen:
    def test_idle(self, snap_compare: Any) -> None:
        assert snap_compare(main_app(), terminal_size=SIZE)

    def test_running_with_a_long_timeline(
        self, snap_compare: Any, release: threading.Event
    ) -> None:
        app = main_app(lambda queue: release.wait(), agent_name="setup-agent")

        async def ready(pilot: Pilot[Any]) -> None:
            fill_timeline(app)
            await settle(pilot)

        assert snap_compare(app, run_before=ready, terminal_size=SIZE)

    def test_an_auto_approved_call_opened_whole(self, snap_compare: Any) -> None:
        """The call a rule allowed, which nobody saw, read whole from its row (Enter)."""
        from tui.core.models import AUTO_APPROVED, ElicitationResult
        from widgets.timeline import Timeline

        app = main_app()

        async def ready(pilot: Pilot[Any]) -> None:
            fill_timeline(app)
            request = parse_request(
                {
                    "kind": "tool_approval",
                    "source": "Claude Code (explK/projA)",
                    "tool_name": "Bash",
                    "tool_call_id": "toolu_1",
                    "arguments": {
                        "command": "rm -rf /home/me/other-project/[bold]build[/bold]",
                        "run_in_background": False,
                    },
                    "remember": {"argument": "command", "pattern": "rm -rf *"},
                }
            )
            timeline = app.query_one(Timeline)
            timeline.add_request(request, 0)
            allowed = {"scope": "always"}
            timeline.resolve(
                request, ElicitationResult(action="accept", content=allowed, reason=AUTO_APPROVED)
            )
            await settle(pilot)
            timeline.focus()
            await pilot.press("enter")
            await settle(pilot)

        assert snap_compare(app, run_before=ready, terminal_size=SIZE)

    def test_connected_to_an_mcp_server(self, snap_compare: Any, release: threading.Event) -> None:
        def agent(queue: ElicitationQueue) -> None:
            app.set_activity("Connected to MCP server elicit-tui-example")
            release.wait()

        app = main_app(agent, agent_name="python -m tui.examples.mcp_elicit_server")

        async def ready(pilot: Pilot[Any]) -> None:
            status = app.query_one(AgentStatus)
            await settle(pilot, lambda: "Connected" in status.summary)

        assert snap_compare(app, run_before=ready, terminal_size=SIZE)

    def test_finished_with_a_summary_table(self, snap_compare: Any) -> None:
        app = main_app(lambda queue: SUMMARY, agent_name="setup-agent")

        async def ready(pilot: Pilot[Any]) -> None:
            fill_timeline(app)
            status = app.query_one(AgentStatus)
            await settle(pilot, lambda: status.has_class("finished"))

        assert snap_compare(app, run_before=ready, terminal_size=SIZE)

    def test_failed(self, snap_compare: Any) -> None:
        def agent(queue: ElicitationQueue) -> None:
            raise RuntimeError("the deploy target is unreachable")

        app = main_app(agent, agent_name="setup-agent")

        async def ready(pilot: Pilot[Any]) -> None:
            status = app.query_one(AgentStatus)
            await settle(pilot, lambda: status.has_class("failed"))
            app.clear_notifications()
            # The trace names this file's lines and paths: shown for an error never raised,
            # which has none.
            status.show_failed(RuntimeError("the deploy target is unreachable"))
            await settle(pilot)

        assert snap_compare(app, run_before=ready, terminal_size=SIZE)

    def test_serving(self, snap_compare: Any) -> None:
        listener = socket.create_server(("127.0.0.1", 0))
        app = ServeApp(ElicitationQueue(), listener, input_grace=0, token=None)
        # The port is whatever was free: shown as the default one, so the SVG stays the same.
        app.url = "http://127.0.0.1:8765/mcp"
        app.title = f"elicit-tui · MCP on {app.url}"

        async def ready(pilot: Pilot[Any]) -> None:
            status = app.query_one(AgentStatus)
            await settle(pilot, lambda: "Serving" in status.summary)
            app.clear_notifications()
            await settle(pilot)

        assert snap_compare(app, run_before=ready, terminal_size=SIZE)

    def test_serving_without_a_keyring(
        self, snap_compare: Any, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        # The keyring's notice took 14 lines at 80 columns, and with the token's it covered the
        # title bar's URL: one line now, the reason printed with the configuration.
        monkeypatch.setattr("tui.app.serve_app.keyring_status", lambda: "No usable keyring.")
        listener = socket.create_server(("127.0.0.1", 0))
        note = "Also saved, readable by you only:\n/home/ada/.config/elicit-tui/serve-token"
        app = ServeApp(ElicitationQueue(), listener, input_grace=0, token="t" * 43, token_note=note)
        app.url = "http://127.0.0.1:8765/mcp"
        app.title = f"elicit-tui · MCP on {app.url}"

        async def ready(pilot: Pilot[Any]) -> None:
            status = app.query_one(AgentStatus)
            await settle(pilot, lambda: "Serving" in status.summary)

        assert snap_compare(app, run_before=ready, terminal_size=SIZE)

    def test_a_question_whose_dialog_failed(
        self, snap_compare: Any, release: threading.Event, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        def broken(modal: ChoiceModal) -> Any:
            raise RuntimeError("the palette file is missing")

        monkeypatch.setattr(ChoiceModal, "compose_body", broken)
        results: list[ElicitationResult] = []

        def agent(queue: ElicitationQueue) -> None:
            request = {"kind": "choice", "message": "Accent colour?", "options": ["teal", "plum"]}
            results.append(queue.ask(parse_request({"source": "designer", **request})))
            release.wait()

        app = main_app(agent, agent_name="designer")

        async def ready(pilot: Pilot[Any]) -> None:
            await settle(pilot, lambda: bool(results))
            await settle(pilot)

        assert snap_compare(app, run_before=ready, terminal_size=SIZE)
