"""The process's secrets, scrubbed out of text: log records, timelines, notifications,
exports (`Redactor`, the set and its scrubbing, lives in `tui.core.redactor`)."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

from tui.core.models import ElicitationResult, flagged
from tui.core.redactor import MASK, Redactor
from tui.core.request_base import RequestBase

__all__ = [
    "MASK",
    "REDACTOR",
    "Redactor",
    "holds_secret",
    "install_log_redaction",
    "registered",
]

REDACTOR = Redactor()
"""The process-wide redactor: every secret answered during the app's life is registered here."""


def holds_secret(text: str) -> bool:
    """Whether `text` holds a secret answered earlier: one `REDACTOR` knows, or one an inbox
    masked as `MASK` before sending the text here."""
    return MASK in text or REDACTOR.scrub(text) != text


_install_lock = threading.Lock()
_uninstall: Callable[[], None] | None = None


def install_log_redaction() -> Callable[[], None]:
    """Scrub `REDACTOR`'s secrets from every log record; returns a callable that undoes it.

    The filter goes on the root logger's current handlers, and the log record factory is
    wrapped so records are scrubbed at creation, whichever handler (added now or later)
    sees them. Installing again while installed returns the same uninstall callable.
    """
    global _uninstall
    with _install_lock:
        if _uninstall is not None:
            return _uninstall
        redacting = REDACTOR.logging_filter()
        handlers = list(logging.getLogger().handlers)
        for handler in handlers:
            handler.addFilter(redacting)
        previous = logging.getLogRecordFactory()
        active = True

        def factory(*args: object, **kwargs: object) -> logging.LogRecord:
            record = previous(*args, **kwargs)
            if active:
                redacting.filter(record)
            return record

        logging.setLogRecordFactory(factory)

        def uninstall() -> None:
            nonlocal active
            global _uninstall
            with _install_lock:
                if not active:
                    return
                active = False
                for handler in handlers:
                    handler.removeFilter(redacting)
                # Under another wrapper ours must stay in the chain; `active` makes it pass through.
                if logging.getLogRecordFactory() is factory:
                    logging.setLogRecordFactory(previous)
                _uninstall = None

        _uninstall = uninstall
        return uninstall


def registered(
    request: RequestBase, result: ElicitationResult, redactor: Redactor = REDACTOR
) -> ElicitationResult:
    """`result` flagged as sensitive where it is, its secrets registered with `redactor`: done
    where an answer enters (a front end, an inbox), before it goes anywhere, so that nothing
    written later (the agent echoing a secret in its next question, a transcript, a log) can
    show it."""
    result = flagged(request, result)
    if result.sensitive:
        redactor.register_all(result.content)
    else:
        redactor.register_found(result.content)
    return result
