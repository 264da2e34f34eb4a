"""Redacting: a set of secrets and what takes each of them out of a text (a log record, an
error message). No secret is kept here: `tui.secrets.redaction` holds the process's own set."""

from __future__ import annotations

import json
import logging
import re
import threading
from collections.abc import Callable

from pydantic import BaseModel, SecretStr

from tui.core.strings_in import strings_in

MASK = "•••"
"""What a scrubbed secret becomes: the same mark the UI shows for a hidden answer."""

_FORMATTER = logging.Formatter()


def _in_single_quotes(text: str) -> str:
    # repr() of a string holding both quote marks quotes it in ' and escapes every ' inside.
    return repr(f"{text}'\"")[1:-4]


_ESCAPES: tuple[Callable[[str], str], ...] = (
    lambda text: repr(text)[1:-1],
    _in_single_quotes,
    lambda text: json.dumps(text)[1:-1],
    lambda text: json.dumps(text, ensure_ascii=False)[1:-1],
)
"""How a secret is spelled inside a repr or a JSON string, whichever quotes surround it."""


def _whole_values(secrets: frozenset[str]) -> re.Pattern[str]:
    """A pattern matching each of `secrets` spelled as a whole JSON string value, and as one
    in JSON inside a JSON string (its quotes escaped), never as a key (a colon after it)."""
    spelled = {escape(secret) for secret in secrets for escape in _ESCAPES[2:]}
    nested = {json.dumps(spelling)[1:-1] for spelling in spelled}
    either = "|".join(re.escape(spelling) for spelling in sorted(spelled, key=len, reverse=True))
    inner = "|".join(re.escape(spelling) for spelling in sorted(nested, key=len, reverse=True))
    return re.compile(rf'(?<=")(?:{either})(?="(?!\s*:))|(?<=\\")(?:{inner})(?=\\"(?!\s*:))')


class Redactor:
    """A thread-safe set of secrets, and `scrub` to take every one of them out of a text.

    Values shorter than `min_length` (3 by default) are scrubbed only where they are a whole
    JSON string value (`"e"` in `{"pw": "e"}`, also in JSON inside a JSON string), keys aside:
    replacing every "a" or "ab" in a log would wreck it while hiding nothing a guess would
    not find, but a value printed whole is the secret itself.
    """

    def __init__(self, min_length: int = 3) -> None:
        if min_length < 1:
            raise ValueError(f"min_length must be at least 1, not {min_length}")
        self._min_length = min_length
        self._lock = threading.Lock()
        # Replaced, never mutated, so `scrub` reads a consistent set without taking the lock.
        self._secrets: frozenset[str] = frozenset()
        self._short: frozenset[str] = frozenset()
        self._whole_values: re.Pattern[str] | None = None
        """Where a short secret is a whole JSON string value: the text between its quotes."""

    def register(self, value: str | SecretStr) -> bool:
        """Scrub `value` from now on; returns False if it is shorter than `min_length` (then
        scrubbed only as a whole JSON string value).

        Its repr- and JSON-escaped spellings are scrubbed too, so `%r` in a log message or a
        JSON dump of a transcript cannot carry a secret with quotes, backslashes or non-ASCII,
        nor a repr of a JSON dump (or any two escapings, one inside the other).
        """
        plain = value.get_secret_value() if isinstance(value, SecretStr) else value
        if len(plain) < self._min_length:
            if plain:
                with self._lock:
                    self._short = self._short | {plain}
                    self._whole_values = _whole_values(self._short)
            return False
        spellings = {plain}
        for _ in range(2):
            spellings |= {escape(spelling) for spelling in spellings for escape in _ESCAPES}
        with self._lock:
            self._secrets = self._secrets | spellings
        return True

    def clear(self) -> None:
        """Forget every registered secret (at the end of an app run, or between tests)."""
        with self._lock:
            self._secrets = frozenset()
            self._short = frozenset()
            self._whole_values = None

    def scrub(self, text: str) -> str:
        """`text` with every occurrence of a registered secret replaced by `MASK`.

        Overlapping and nested secrets are removed as one span, so no tail of either survives.
        """
        pieces: list[str] = []
        cursor = 0
        for start, end in self.spans(text):
            pieces += [text[cursor:start], MASK]
            cursor = end
        if not pieces:
            return text
        pieces.append(text[cursor:])
        return "".join(pieces)

    def holds_part(self, text: str, least: int = 4) -> bool:
        """Whether `text` holds `least` characters in a row of a registered secret (all of a
        shorter one): what is left of a secret typed with corrections, or in parts."""
        return any(
            secret[start : start + least] in text
            for secret in self._secrets
            for start in range(max(1, len(secret) - least + 1))
        )

    def spans(self, text: str) -> list[tuple[int, int]]:
        """Where registered secrets occur in `text`: sorted `(start, end)` pairs, overlaps merged."""
        secrets, whole_values = self._secrets, self._whole_values
        if not (secrets or whole_values) or not text:
            return []
        found: list[tuple[int, int]] = []
        if whole_values is not None:
            found += [match.span() for match in whole_values.finditer(text)]
        for secret in secrets:
            start = text.find(secret)
            while start != -1:
                found.append((start, start + len(secret)))
                start = text.find(secret, start + 1)
        found.sort()
        merged: list[tuple[int, int]] = []
        for start, end in found:
            if merged and start <= merged[-1][1]:
                merged[-1] = (merged[-1][0], max(merged[-1][1], end))
            else:
                merged.append((start, end))
        return merged

    def register_found(self, content: object) -> None:
        """Register every `SecretStr` in `content`: itself, or inside dicts, lists and models."""
        if isinstance(content, SecretStr):
            self.register(content)
        elif isinstance(content, BaseModel):
            self.register_found([getattr(content, name) for name in type(content).model_fields])
        elif isinstance(content, dict):
            self.register_found(list(content.values()))
        elif isinstance(content, list | tuple | set | frozenset):
            for item in content:
                self.register_found(item)

    def register_all(self, content: object) -> None:
        """Register every string in `content` (a sensitive answer's): itself, or inside dicts,
        lists and models, `SecretStr` included."""
        for text in strings_in(content):
            self.register(text)

    def logging_filter(self) -> logging.Filter:
        """A filter that scrubs each record it sees; attach it to handlers (it never drops one)."""
        return _RedactingFilter(self)

    def _scrub_record(self, record: logging.LogRecord) -> None:
        """Flatten `record` to scrubbed text, so no later formatter can re-insert a secret.

        The message is rendered with its args; a traceback is rendered to `exc_text` and
        `exc_info` dropped, because handlers that render frames (and their locals) from
        `exc_info` would bypass the scrub. With no secret registered the record is untouched.
        """
        if not self._secrets:
            return
        try:
            message = record.getMessage()
        except Exception:  # a bad format string must neither stop the record nor leak its args
            message = f"{record.msg!s} {record.args!r}"
        record.msg = self.scrub(message)
        record.args = ()
        if record.exc_info:
            record.exc_text = _FORMATTER.formatException(record.exc_info)
            record.exc_info = None
        if record.exc_text:
            record.exc_text = self.scrub(record.exc_text)
        if record.stack_info:
            record.stack_info = self.scrub(record.stack_info)


class _RedactingFilter(logging.Filter):
    """Scrubs records in place through its redactor and lets every one of them pass."""

    def __init__(self, redactor: Redactor) -> None:
        super().__init__()
        self._redactor = redactor

    def filter(self, record: logging.LogRecord) -> bool:
        self._redactor._scrub_record(record)
        return True
