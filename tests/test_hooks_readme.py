"""The README's hook settings are pasteable: valid JSON, each CLI's own event and command."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

README = Path(__file__).resolve().parent.parent / "README.md"
SECTION = "## Permission hooks for Claude Code, Codex and Gemini CLI"


def _settings() -> list[dict[str, Any]]:
    text = README.read_text()
    section = text[text.index(SECTION) :]
    section = section[: section.index("\n## ", len(SECTION))]
    return [json.loads(block) for block in re.findall(r"```json\n(.*?)```", section, re.S)]


def test_each_cli_gets_a_settings_block_for_its_own_hook_event() -> None:
    commands = {
        (event, hook["command"], hook["timeout"])
        for settings in _settings()
        for event, groups in settings["hooks"].items()
        for group in groups
        for hook in group["hooks"]
    }
    assert commands == {
        ("PermissionRequest", "elicit-tui hook claude-code", 310),
        ("PreToolUse", "elicit-tui hook claude-code", 310),
        ("PermissionRequest", "elicit-tui hook codex", 310),
        ("BeforeTool", "elicit-tui hook gemini", 310000),  # Gemini CLI counts milliseconds
    }
