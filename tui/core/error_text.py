"""An exception as text for a person, even one whose `__str__` raises (a kind's own error
class, say): its message stands in for it, never breaking what was reporting it."""

from __future__ import annotations


def error_message(error: BaseException) -> str:
    """`str(error)`, or, where that raises, a note naming what it raised."""
    try:
        return str(error)
    except Exception as failure:
        return f"<its message could not be read: {type(failure).__name__}>"


class RecordedFailure(Exception):
    """An agent's failure as a transcript recorded it, its `text` as `error_text` gave it: a
    replay's agent raises it to end as the recorded agent did."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.text = text


def error_text(error: BaseException) -> str:
    """`Type: message` for an exception (`Type` alone for one without a message); a
    `RecordedFailure` as it was recorded."""
    if isinstance(error, RecordedFailure):
        return error.text
    message = error_message(error)
    return f"{type(error).__name__}: {message}" if message else type(error).__name__


def os_error_text(error: OSError) -> str:
    """What went wrong, and where: `PATH: No such file or directory`, `FROM -> TO: Is a
    directory` for a rename (the reason alone for an error of no file)."""
    reason = error.strerror or error_message(error)
    if error.filename and error.filename2:
        return f"{error.filename} -> {error.filename2}: {reason}"
    return f"{error.filename}: {reason}" if error.filename else reason
