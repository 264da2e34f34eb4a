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


def test_gemini_s_matcher_takes_its_shell_writes_and_mcp_tools_by_their_names() -> None:
    # Gemini names an MCP tool `mcp_<server>_<tool>`: the matcher `mcp__.*` (Claude Code's
    # naming) never matched one, and MCP calls never reached the inbox.
    [matcher] = [
        group["matcher"]
        for settings in _settings()
        for group in settings["hooks"].get("BeforeTool", [])
    ]
    taken = ["run_shell_command", "write_file", "replace", "mcp_github_create_issue"]
    passed = ["read_file", "glob", "search_file_content", "read_many_files", "run_shell_command2"]
    assert [name for name in taken + passed if re.search(matcher, name)] == taken
