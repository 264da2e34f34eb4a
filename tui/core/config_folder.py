"""Where elicit-tui keeps its files (the keyring index, approval rules, the inbox's token), and their names.

Light to load: a permission hook finds the inbox's token here on every tool call.
"""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs

CONFIG_DIR_ENV = "ELICIT_TUI_CONFIG_DIR"
"""Moves the folder, for tests and for people who keep several setups."""

TOKEN_FILE = "serve-token"
"""Where the token of the running inbox is kept for scripts and hooks, owner-only."""


def config_folder() -> Path:
    """`$ELICIT_TUI_CONFIG_DIR` if set, else the user config folder
    (`platformdirs.user_config_dir("elicit-tui")`); it need not exist yet."""
    folder = os.environ.get(CONFIG_DIR_ENV) or platformdirs.user_config_dir(
        "elicit-tui", appauthor=False
    )
    return Path(folder)
