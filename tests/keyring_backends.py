"""Keyring backends for tests, installed with `keyring.set_keyring`; never the real keyring."""

from __future__ import annotations

from typing import ClassVar

from keyring.backend import KeyringBackend
from keyring.backends.chainer import ChainerBackend
from keyring.errors import PasswordSetError

from tui.secrets.memory_keyring import MemoryKeyring


class FailingKeyring(MemoryKeyring):
    """Refuses to store or delete, with an error that quotes the password, as careless backends do.

    Set `error_type` to choose the exception (PasswordSetError unless changed).
    """

    error_type: type[Exception] = PasswordSetError

    def set_password(self, service: str, username: str, password: str) -> None:
        raise self.error_type(f"backend said: {password!r} rejected ({password})")

    def delete_password(self, service: str, username: str) -> None:
        raise self.error_type(f"backend cannot delete {service}/{username}")


class ForgetfulKeyring(MemoryKeyring):
    """Accepts every password and keeps none, without saying so."""

    def set_password(self, service: str, username: str, password: str) -> None:
        return None


class EmptyChainerKeyring(ChainerBackend):
    """keyring's chainer when no viable backend is installed: it stores nothing."""

    backends: ClassVar[list[KeyringBackend]] = []
    viable = False
