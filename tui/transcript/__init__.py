"""Transcripts: a session written down as JSON lines as it happens, and read back to replay it."""
