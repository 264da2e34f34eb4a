"""The inbox: one queue that every asker reaches over HTTP or MCP, and front ends answer."""
