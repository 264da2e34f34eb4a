"""What a tool approval looks like: the arguments as JSON, a diff, the reason for a denial,
the arguments' editor."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from snapshot_app import modal_app

from tui.core.config_folder import CONFIG_DIR_ENV
from tui.core.models import ToolApprovalRequest

SHELL = ToolApprovalRequest(
    source="coder",
    tool_name="shell",
    summary="Run the API tests",
    arguments={"command": "uv run pytest -q tests/api", "cwd": "/work/billing-api", "timeout": 120},
    tool_call_id="call_7",
    remember={"argument": "command", "pattern": "uv run pytest*"},
)
EDIT = ToolApprovalRequest(
    source="coder",
    tool_name="edit_file",
    summary="Add a /health endpoint to billing_api/main.py",
    arguments={"path": "billing_api/main.py"},
    diff=(
        "--- a/billing_api/main.py\n+++ b/billing_api/main.py\n@@ -3,4 +3,9 @@\n"
        ' app = FastAPI(title="billing-api")\n \n+\n+@app.get("/health")\n'
        "+def health() -> dict[str, str]:\n"
        '+    return {"status": "ok"}\n+\n \n @app.get("/invoices")\n'
    ),
    tool_call_id="call_8",
)

# The demo's third approval: a long command, denied with nothing typed yet (the hint shows).
RERUN = ToolApprovalRequest(
    source="setup-agent",
    tool_name="shell",
    summary="Run the test suite: uv run pytest -q tests/test_health.py",
    arguments={"command": "uv run pytest -q tests/test_health.py", "cwd": "."},
    tool_call_id="call-3",
    remember={"argument": "command", "pattern": "uv run pytest*"},
)

# "For this session" by a glob longer than its room: its start and its end, `*` and all.
SUITE = "uv run pytest -q " + " ".join(f"tests/test_m{n}.py" for n in range(60))
GLOB = ToolApprovalRequest(
    source="setup-agent",
    tool_name="shell",
    arguments={"command": SUITE},
    tool_call_id="call-4",
    remember={"argument": "command", "pattern": SUITE + "*"},
)

# A call holding a secret given earlier, as an inbox sends it to a front end elsewhere:
# masked, and allowed only once (a rule would write the secret to disk).
MASKED = 'curl -H "Authorization: Bearer •••" https://api.example.com/deploy'
SECRET_CALL = ToolApprovalRequest(
    source="setup-agent",
    tool_name="shell",
    arguments={"command": MASKED},
    tool_call_id="call-5",
    remember={"argument": "command", "pattern": MASKED},
)

# As Claude Code's hook asks a Bash call of many steps, with its one-line description: the
# call's box gives up rows down to its title and two lines, and the four answers stay.
STEPS = " && ".join(f"step{n} --flag=value{n}" for n in range(40))
STEPPED = ToolApprovalRequest(
    source="Claude Code",
    tool_name="Bash",
    description="Run the release steps",
    arguments={"command": STEPS, "description": "Run the release steps"},
    tool_call_id="call-6",
    remember={"argument": "command", "pattern": STEPS},
)

# A script of several lines, as Claude Code's Bash asks one: each line under the first.
SCRIPT = ToolApprovalRequest(
    source="Claude Code",
    tool_name="Bash",
    arguments={
        "command": 'set -e\nuv sync\nuv run pytest -q\ngit tag "v1.2"\ngit push --tags',
        "description": "Test, tag and push the release",
    },
    tool_call_id="call-9",
    remember={"argument": "command", "pattern": "set -e*"},
)

CASES: list[tuple[str, ToolApprovalRequest, list[str]]] = [
    ("json_arguments", SHELL, []),
    ("diff", EDIT, []),
    ("deny_with_reason", SHELL, ["n", *"use make test"]),
    ("edit_arguments", SHELL, ["e", "down", "end", "left", "left", *"/unit"]),
    ("deny_hint", RERUN, ["n"]),
    ("glob_reach", GLOB, []),
    ("secret_in_call", SECRET_CALL, []),
    ("long_call_described", STEPPED, []),
    ("script_of_lines", SCRIPT, []),
]


@pytest.fixture(autouse=True)
def no_remembered_approvals(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # A rule in the user's own approvals file would answer these without a modal.
    monkeypatch.setenv(CONFIG_DIR_ENV, str(tmp_path))


class TestAt80x24:
    @pytest.mark.parametrize(("name", "request_", "keys"), CASES, ids=[c[0] for c in CASES])
    def test_approval(
        self, snap_compare: Any, name: str, request_: ToolApprovalRequest, keys: list[str]
    ) -> None:
        app, ready = modal_app(request_)
        assert snap_compare(app, run_before=ready, press=keys, terminal_size=(80, 24))


class TestAt120x40:
    @pytest.mark.parametrize(("name", "request_", "keys"), CASES, ids=[c[0] for c in CASES])
    def test_approval(
        self, snap_compare: Any, name: str, request_: ToolApprovalRequest, keys: list[str]
    ) -> None:
        app, ready = modal_app(request_)
        assert snap_compare(app, run_before=ready, press=keys, terminal_size=(120, 40))


SMALL_CASES = [
    case for case in CASES if case[0] in ("json_arguments", "diff", "long_call_described")
]
"""On a small screen: the tool, then the start of the call, in view as the dialog opens."""


class TestSmall:
    @pytest.mark.parametrize("size", [(60, 15), (40, 12)], ids=["60x15", "40x12"])
    @pytest.mark.parametrize(
        ("name", "request_", "keys"), SMALL_CASES, ids=[c[0] for c in SMALL_CASES]
    )
    def test_approval(
        self,
        snap_compare: Any,
        name: str,
        request_: ToolApprovalRequest,
        keys: list[str],
        size: tuple[int, int],
    ) -> None:
        app, ready = modal_app(request_)
        assert snap_compare(app, run_before=ready, press=keys, terminal_size=size)
