"""What an agent's own tests import: the scripted responder, answering as a person would without a screen; imports tui.core and tui.secrets, never Textual or mcp."""
