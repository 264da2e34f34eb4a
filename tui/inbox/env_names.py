"""The environment variables that name the inbox an asker or a front end reaches, and its
token: apart from `discovery`, for a command's help to name them without loading it."""

from __future__ import annotations

URL_ENV = "ELICIT_TUI_URL"
"""Names the inbox, as `--to` does."""

TOKEN_ENV = "ELICIT_TUI_TOKEN"
"""The bearer token, as `--token` does."""
