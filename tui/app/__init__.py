"""The Textual front end: ElicitationApp and the apps behind `ask` and `serve`; imports tui.core, tui.secrets, tui.approvals, tui.mcp and widgets, never tui.cli."""
