"""What a permission hook's question looks like: the approvals built from recorded hook inputs."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from snapshot_app import modal_app

from tui.core.config_folder import CONFIG_DIR_ENV
from tui.core.models import ToolApprovalRequest
from tui.integrations.hooks.formats import hook_format

INPUTS = Path(__file__).resolve().parent.parent / "tests" / "hook_inputs"


def _asked(cli: str, fixture: str) -> ToolApprovalRequest:
    """The approval `elicit-tui hook CLI` asks for the recorded input, without its countdown."""
    request = hook_format(cli).read(json.loads((INPUTS / fixture).read_text()), wait=300).request
    assert isinstance(request, ToolApprovalRequest)
    return request.model_copy(update={"timeout": None})


CASES = [
    ("claude_code_edit", "claude-code", "claude_code_pre_tool_use_edit.json"),
    ("codex_shell", "codex", "codex_permission_request_bash.json"),
]


@pytest.fixture(autouse=True)
def no_remembered_approvals(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # A rule in the user's own approvals file would answer these without a modal.
    monkeypatch.setenv(CONFIG_DIR_ENV, str(tmp_path))


class TestAt80x24:
    @pytest.mark.parametrize(("name", "cli", "fixture"), CASES, ids=[c[0] for c in CASES])
    def test_hook_approval(self, snap_compare: Any, name: str, cli: str, fixture: str) -> None:
        app, ready = modal_app(_asked(cli, fixture))
        assert snap_compare(app, run_before=ready, terminal_size=(80, 24))
