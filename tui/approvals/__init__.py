"""Remembered tool-approval rules, their file and the queue policy that applies them; imports tui.core and tui.secrets."""
