"""Store secrets in the system keyring, and remember the names (never values) of what was stored."""

from __future__ import annotations

import logging
from contextlib import AbstractContextManager
from datetime import UTC, datetime
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, SecretStr

from tui.core.config_folder import config_folder
from tui.core.json_file import JsonFileError, locked, read_model, write_model
from tui.core.models import (
    KEYRING_UNAVAILABLE,
    ElicitationResult,
    KeyringTarget,
    Request,
    SecretRequest,
)
from tui.core.secret_ref import SecretRef
from tui.secrets.redaction import Redactor

NO_BACKEND_HINT = (
    "Install a keyring backend such as keyrings.alt (`pip install keyrings.alt`), "
    "or choose one with the PYTHON_KEYRING_BACKEND environment variable "
    "(e.g. PYTHON_KEYRING_BACKEND=keyrings.alt.file.PlaintextKeyring)."
)
"""What to do on a machine without a usable keyring; the error message and README both say it."""

_INDEX_FILE = "keyring-entries.json"
_log = logging.getLogger(__name__)

KeyringProblem = Literal["no_backend", "locked", "failed", "index", "exists"]
"""What went wrong: no usable backend, a locked keyring, a backend error, or an unreadable index."""


class KeyringError(RuntimeError):
    """Storing, reading or deleting a keyring entry failed; the message says which and what to do.

    The message names the entry (service/username) and never contains the secret, even when
    the backend's own error text did. `problem` tells a front end which case it is.
    """

    def __init__(
        self,
        message: str,
        *,
        problem: KeyringProblem,
        service: str | None = None,
        username: str | None = None,
    ) -> None:
        super().__init__(message)
        self.problem: KeyringProblem = problem
        self.service = service
        self.username = username


class StoredEntry(BaseModel):
    """A keyring entry elicit-tui stored: its name and when, never its value."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    service: str
    username: str
    stored_at: datetime


class _Index(BaseModel):
    """The index file's shape."""

    model_config = ConfigDict(extra="forbid", defer_build=True)

    entries: list[StoredEntry] = Field(default_factory=list)


def index_path() -> Path:
    """The JSON file naming what elicit-tui stored (it need not exist yet).

    It lives in elicit-tui's config folder (`tui.core.config_folder`).
    """
    return config_folder() / _INDEX_FILE


def keyring_status() -> str | None:
    """None if the configured keyring can store secrets, else why not and what to do about it.

    A locked keyring still counts as usable here: only trying to store finds that out.
    """
    problem = _backend_problem()
    return None if problem is None else f"No usable keyring: {problem} {NO_BACKEND_HINT}"


def store_secret(target: KeyringTarget, value: SecretStr, *, replace: bool = False) -> SecretRef:
    """Store `value` in the keyring under `target`; returns the reference the agent gets.

    An entry already there is replaced only with `replace`; otherwise `KeyringError` (problem
    "exists") is raised and nothing changes: whoever asks must not pick an entry to overwrite.

    The value is read back to make sure the backend kept it, then the entry's name is recorded
    for `list_stored` (a failure to record is logged, not raised: the secret is stored).
    Raises `KeyringError` (without the value) when there is no usable backend, the keyring is
    locked, or the backend fails or does not keep the value.
    """
    service, username = target.service, target.username
    problem = _backend_problem()
    if problem is not None:
        raise KeyringError(
            f"Could not store keyring entry {service}/{username}: {problem} {NO_BACKEND_HINT}",
            problem="no_backend",
            service=service,
            username=username,
        )
    import keyring  # loads its backends' entry points: only when a secret is stored

    failure: KeyringError | None = None
    # The plain value is never bound to a local: traceback renderers that show locals see none.
    try:
        taken = not replace and keyring.get_password(service, username) is not None
        if not taken:
            keyring.set_password(service, username, value.get_secret_value())
        kept = keyring.get_password(service, username) == value.get_secret_value()
    except Exception as exc:
        failure = _backend_failure("store", service, username, exc, value)
    else:
        if taken:
            failure = KeyringError(
                f"Keyring entry {service}/{username} exists already: storing replaces it.",
                problem="exists",
                service=service,
                username=username,
            )
        elif not kept:
            failure = KeyringError(
                f"Could not store keyring entry {service}/{username}: the keyring accepted the "
                "value but did not return it when read back.",
                problem="failed",
                service=service,
                username=username,
            )
    if failure is not None:
        # Raised outside the `except` so neither the backend's exception nor its frames are chained.
        raise failure from None
    try:
        _record(StoredEntry(service=service, username=username, stored_at=datetime.now(UTC)))
    except KeyringError as index_failure:
        _log.warning("Stored keyring entry %s/%s, but %s", service, username, index_failure)
    return SecretRef(service=service, username=username)


def with_secret_stored(
    request: Request, result: ElicitationResult, *, replace: bool
) -> ElicitationResult:
    """`result` with a secret meant for the keyring stored there and replaced by its reference,
    as accepting it in the app gives; any other result as it is (also a secret the person chose
    to keep in memory, reason `keyring_unavailable`). An entry of that name is replaced only
    with `replace`. Raises `KeyringError` when the keyring refuses it (problem "exists" for an
    entry there without `replace`). Blocks on the keyring.
    """
    content = result.content
    if not (
        isinstance(request, SecretRequest)
        and request.store is not None
        and result.accepted
        and isinstance(content, SecretStr)
        and result.reason != KEYRING_UNAVAILABLE
    ):
        return result
    reference = store_secret(request.store, content, replace=replace)
    return ElicitationResult(action="accept", content=reference, reason=result.reason)


def list_stored() -> list[StoredEntry]:
    """The entries elicit-tui stored, sorted by service and username (names and times only).

    Raises `KeyringError` (problem "index") if the index file cannot be read.
    """
    # No lock: the index is replaced by a rename, so a reader sees the old or the new one whole.
    entries = _read_index(index_path())
    return sorted(entries, key=lambda entry: (entry.service, entry.username))


def delete_stored(service: str, username: str) -> bool:
    """Remove an entry from the keyring and from the index; True if either had it.

    An entry already gone from the keyring is not an error. Raises `KeyringError` when there is
    no usable backend, the backend refuses, or the index cannot be read or written.
    """
    problem = _backend_problem()
    if problem is not None:
        raise KeyringError(
            f"Could not delete keyring entry {service}/{username}: {problem} {NO_BACKEND_HINT}",
            problem="no_backend",
            service=service,
            username=username,
        )
    failure: KeyringError | None = None
    in_keyring = False
    try:
        in_keyring = _delete_from_keyring(service, username)
    except Exception as exc:
        failure = _backend_failure("delete", service, username, exc, None)
    if failure is not None:
        raise failure from None
    path = index_path()
    with _index_locked(path):
        entries = _read_index(path)
        remaining = [e for e in entries if (e.service, e.username) != (service, username)]
        if len(remaining) != len(entries):
            _write_index(path, remaining)
    return in_keyring or len(remaining) != len(entries)


def _backend_problem() -> str | None:
    """Why the configured keyring backend cannot keep a secret, or None if it can."""
    import keyring
    from keyring.backends import fail, null
    from keyring.backends.chainer import ChainerBackend

    try:
        backend = keyring.get_keyring()
    except Exception as exc:  # PYTHON_KEYRING_BACKEND or keyringrc.cfg names a broken backend
        return f"the keyring backend could not be loaded ({type(exc).__name__}: {exc})."
    name = f"{type(backend).__module__}.{type(backend).__qualname__}"
    if isinstance(backend, fail.Keyring):
        return f"no keyring backend is available ({name} is active)."
    if isinstance(backend, null.Keyring):
        return f"the keyring is disabled ({name} discards what is stored)."
    if isinstance(backend, ChainerBackend) and not backend.backends:
        return f"no keyring backend is available ({name} has no backends to chain)."
    return None


def _backend_failure(
    verb: str, service: str, username: str, exc: Exception, value: SecretStr | None
) -> KeyringError:
    """A `KeyringError` for a backend exception, its text scrubbed of `value`."""
    import keyring.errors

    scrubber = Redactor(min_length=1)
    if value is not None:
        scrubber.register(value)
    detail = scrubber.scrub(str(exc))
    reason = f"{type(exc).__name__}: {detail}" if detail else type(exc).__name__
    problem: KeyringProblem
    if isinstance(exc, keyring.errors.NoKeyringError):
        problem, advice = "no_backend", NO_BACKEND_HINT
    elif isinstance(exc, keyring.errors.KeyringLocked):
        problem, advice = "locked", "Unlock the keyring (or log in to the desktop) and try again."
    else:
        problem, advice = "failed", ""
    return KeyringError(
        f"Could not {verb} keyring entry {service}/{username}: {reason} {advice}".rstrip(),
        problem=problem,
        service=service,
        username=username,
    )


def _delete_from_keyring(service: str, username: str) -> bool:
    """True if the keyring had the entry and now does not; False if it never had it."""
    import keyring.errors

    try:
        keyring.delete_password(service, username)
    except keyring.errors.PasswordDeleteError:
        # Backends raise this for a missing entry too; only an entry that survives is a failure.
        if keyring.get_password(service, username) is None:
            return False
        raise
    return True


def _record(entry: StoredEntry) -> None:
    """Add `entry` to the index, replacing an older record of the same name."""
    path = index_path()
    with _index_locked(path):
        entries = [
            e
            for e in _read_index(path)
            if (e.service, e.username) != (entry.service, entry.username)
        ]
        _write_index(path, [*entries, entry])


def _index_locked(path: Path) -> AbstractContextManager[None]:
    """Hold the index's OS lock across a read-modify-write: other processes wait."""
    return locked(
        path,
        lambda reason: KeyringError(
            f"could not lock elicit-tui's list of stored keyring entries ({path}): {reason}",
            problem="index",
        ),
    )


def _read_index(path: Path) -> list[StoredEntry]:
    """The recorded entries (none if there is no index yet); `KeyringError` if unreadable."""
    try:
        index = read_model(path, _Index)
    except JsonFileError as reason:
        raise KeyringError(
            f"elicit-tui's list of stored keyring entries ({path}) is unreadable: {reason}. "
            "Delete the file to start a new list; the secrets themselves stay in the keyring.",
            problem="index",
        ) from None
    return [] if index is None else index.entries


def _write_index(path: Path, entries: list[StoredEntry]) -> None:
    """Replace the index with `entries` atomically; `KeyringError` if it cannot be written."""
    try:
        write_model(path, _Index(entries=entries))
    except JsonFileError as reason:
        raise KeyringError(
            f"could not write elicit-tui's list of stored keyring entries ({path}): {reason}",
            problem="index",
        ) from None
