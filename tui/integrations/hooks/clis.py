"""The CLIs whose permission hooks `elicit-tui hook` answers, by the name each is given on the
command line. Light to load: the hook runs on every tool call."""

from __future__ import annotations

CLI_NAMES: dict[str, str] = {
    "claude-code": "Claude Code",
    "codex": "Codex",
    "gemini": "Gemini CLI",
}
"""Each CLI as people know it, by its name on the command line (`elicit-tui hook codex`)."""
