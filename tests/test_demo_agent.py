"""The demo agent's later questions follow the answers given to its earlier ones."""

from __future__ import annotations

from typing import Any

import pytest

from tui.cli.demo import setup_service_agent
from tui.core.models import ChoiceRequest, ToolApprovalRequest
from tui.core.queue import ElicitationQueue
from tui.core.secret_ref import SecretRef
from tui.testing.scripted import ScriptedResponder

FRAMEWORKS = {"fastapi": "FastAPI", "django": "Django", "flask": "Flask", "litestar": "Litestar"}
"""Each framework the demo offers (value: label), as its code names it."""


def answers(framework: str) -> dict[str, Any]:
    return {
        "What should the new service be called?": "billing-api",
        "Which web framework should billing-api use?": framework,
        "Which features should the scaffold include?": ["postgres"],
        "How should users sign in?": "OAuth",
        "Which API style?": "REST",
        "Which checks should CI run on every push?": ["Tests"],
        "shell": {"scope": "session"},
        "edit_file": {"scope": "once"},
        "Paste the deploy API key for the hosting provider": SecretRef(service="s", username="u"),
        "Where and how should it be deployed?": {"domain": "example.com"},
        "Everything is ready. Deploy billing-api now?": True,
    }


def hunk_fits(diff: str) -> bool:
    """Whether each hunk of `diff` holds as many old and new lines as its header says."""
    hunks: list[list[int]] = []
    for line in diff.splitlines():
        if line.startswith("@@"):
            old, new = (part.split(",") for part in line.split()[1:3])
            hunks.append([int(old[1]), int(new[1])])
        elif hunks and not line.startswith(("---", "+++")):
            mark = line[:1] or " "
            hunks[-1][0] -= mark in " -"
            hunks[-1][1] -= mark in " +"
    return bool(hunks) and all(counts == [0, 0] for counts in hunks)


@pytest.mark.parametrize("framework", list(FRAMEWORKS))
def test_the_code_the_agent_edits_is_of_the_framework_picked(framework: str) -> None:
    # Whatever was picked, the health check's edit showed FastAPI code, and the summary then
    # named Django as the service's framework.
    queue = ElicitationQueue(policy="wait")
    script = ScriptedResponder(queue, answers(framework))

    summary = setup_service_agent(queue, pause=0)

    offered = next(r for r in script.asked if isinstance(r, ChoiceRequest))
    assert {option.value: option.label for option in offered.options} == FRAMEWORKS
    edit = next(
        r for r in script.asked if isinstance(r, ToolApprovalRequest) and r.tool_name == "edit_file"
    )
    assert edit.diff is not None and hunk_fits(edit.diff)
    named = {label for label in FRAMEWORKS.values() if label.lower() in edit.diff.lower()}
    assert named == {FRAMEWORKS[framework]}
    assert summary["framework"] == FRAMEWORKS[framework]
    assert summary["edit"] == "allowed once"
