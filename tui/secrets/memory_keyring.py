"""A keyring in memory, for runs that must never write the person's real keyring (replays)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager

import keyring
from keyring.backend import KeyringBackend
from keyring.backends import fail
from keyring.errors import PasswordDeleteError

from tui.core.config_folder import CONFIG_DIR_ENV
from tui.core.ended_from_outside import temporary_folder


class MemoryKeyring(KeyringBackend):
    """Keeps entries in a dict; forgotten when the process ends."""

    priority = 1
    viable = False  # never chosen by keyring's own detection

    def __init__(self) -> None:
        super().__init__()  # type: ignore[no-untyped-call]
        self.entries: dict[tuple[str, str], str] = {}

    def get_password(self, service: str, username: str) -> str | None:
        return self.entries.get((service, username))

    def set_password(self, service: str, username: str, password: str) -> None:
        self.entries[(service, username)] = password

    def delete_password(self, service: str, username: str) -> None:
        if self.entries.pop((service, username), None) is None:
            raise PasswordDeleteError(f"no entry {service}/{username}")


@contextmanager
def memory_keyring(*, usable: bool = True) -> Iterator[MemoryKeyring]:
    """Within the block, secrets go to a `MemoryKeyring` and the stored-entry list to a temp folder.

    With `usable` False the block has no keyring at all (keyring's own "no backend" one), as
    a machine without a keyring; the `MemoryKeyring` yielded then stays empty.
    """
    previous_backend = keyring.get_keyring()
    previous_dir = os.environ.get(CONFIG_DIR_ENV)
    backend = MemoryKeyring()
    with temporary_folder("elicit-tui-keyring-") as folder:
        unusable = fail.Keyring()  # type: ignore[no-untyped-call]
        keyring.set_keyring(backend if usable else unusable)
        os.environ[CONFIG_DIR_ENV] = folder
        try:
            yield backend
        finally:
            keyring.set_keyring(previous_backend)
            if previous_dir is None:
                os.environ.pop(CONFIG_DIR_ENV, None)
            else:
                os.environ[CONFIG_DIR_ENV] = previous_dir
