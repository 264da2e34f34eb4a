"""What an agent process imports: request models, the schema subset, the queue; imports nothing of tui outside tui.core, never Textual or mcp."""
