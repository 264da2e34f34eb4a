"""Textual's own log file (`TEXTUAL_LOG`) is left unwritten while the app runs.

Textual writes every message it handles there as text: each key pressed, with its character,
and each change of a field with its whole value. A secret typed into a masked field is then
in a file, key by key, before it is an answer anything could scrub. So the app stops that
log and says so; Python's logging, scrubbed of secrets, goes on as configured.
"""

from __future__ import annotations

import textual.constants

TEXTUAL_LOG_IGNORED = (
    "TEXTUAL_LOG is ignored: Textual's log would keep every key typed, a secret's too."
)


def textual_log_stopped() -> bool:
    """Stop Textual's log file, if `TEXTUAL_LOG` named one; whether it did."""
    if not textual.constants.LOG_FILE:
        return False
    # Read by Textual's logger at each call: set here, it writes no file from now on.
    setattr(textual.constants, "LOG_FILE", None)  # noqa: B010 (a Final, to type checkers)
    return True
