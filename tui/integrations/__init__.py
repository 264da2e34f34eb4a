"""Adapters to other harnesses' formats and hooks (Claude Code's AskUserQuestion, agent frameworks); import tui.core, tui.secrets and tui.approvals, never Textual."""
