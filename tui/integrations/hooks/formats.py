"""Each CLI's hook format, by the CLI's name on the command line (see `clis.CLI_NAMES`)."""

from __future__ import annotations

from collections.abc import Callable

from tui.integrations.hooks.claude_code import ClaudeCodeHook
from tui.integrations.hooks.codex import CodexHook
from tui.integrations.hooks.flow import HookFormat
from tui.integrations.hooks.gemini import GeminiHook

_FORMATS: dict[str, Callable[[], HookFormat]] = {
    "claude-code": ClaudeCodeHook,
    "codex": CodexHook,
    "gemini": GeminiHook,
}


def hook_format(name: str) -> HookFormat:
    """The hook format of the CLI named `name` on the command line; KeyError for another name."""
    return _FORMATS[name]()
