"""The README's loop-detection recipe, run as the README prints it."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from tui import ChoiceRequest, ElicitationQueue, ElicitationResult, ScriptedResponder

README = Path(__file__).resolve().parent.parent / "README.md"
MESSAGE = "The agent seems to be repeating itself. Keep going?"


def recipe() -> Any:
    """`ask_loop_override` as defined by the README's section's code block."""
    text = README.read_text(encoding="utf-8")
    section = text[text.index("### Loop-detection override (Gemini CLI)") :]
    [code] = re.findall(r"```python\n(.*?)```", section, re.S)[:1]
    namespace: dict[str, Any] = {}
    exec(compile(code, "README.md", "exec"), namespace)
    return namespace["ask_loop_override"]


@pytest.mark.parametrize(
    ("answer", "decision"),
    [
        ("keep_going", "keep_going"),
        ("disable_for_session", "disable_for_session"),
        ("stop", "stop"),
        (ElicitationResult(action="decline"), "stop"),
        (ElicitationResult(action="cancel", reason="timeout"), "stop"),
    ],
)
def test_the_recipe_gives_the_persons_decision_and_stops_unless_accepted(
    answer: Any, decision: str
) -> None:
    queue = ElicitationQueue()
    scripted = ScriptedResponder(queue, {MESSAGE: answer})
    assert recipe()(queue, "s-42", "read_file(path='a.py')") == decision
    [asked] = scripted.asked
    assert isinstance(asked, ChoiceRequest)
    assert asked.id == "loopDetection:s-42" and asked.default == "stop"
    assert asked.description == "Repeated: `read_file(path='a.py')`"
