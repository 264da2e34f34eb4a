"""Shared fixtures."""

from __future__ import annotations

import os
import socket
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import keyring
import pytest
from front_end_processes import HeadlessInbox
from keyring.backend import KeyringBackend
from keyring.backends import fail
from keyring_backends import FailingKeyring, MemoryKeyring

from tui.core.config_folder import CONFIG_DIR_ENV
from tui.inbox.env_names import URL_ENV
from tui.secrets.redaction import REDACTOR

SETTINGS_PREFIX = "ELICIT_TUI_"
"""What the names of elicit-tui's environment settings start with."""


@pytest.hookimpl(tryfirst=True)
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int | None:
    """`-n auto` starts a worker more than the machine has cores: the suite's tests spend about
    a third of their time waiting on the processes, sockets and terminals they start, so as
    many workers as cores leave the cores a third idle (on 2 cores, the whole suite took 19
    minutes with 2 workers and 14 with 3). `--maxprocesses` still caps it, and
    `PYTEST_XDIST_AUTO_NUM_WORKERS` still names a number of its own."""
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return None
    if hasattr(os, "sched_getaffinity"):  # the cores this process may run on (Linux)
        return len(os.sched_getaffinity(0)) + 1
    return (os.cpu_count() or 1) + 1  # macOS, Windows


def pytest_configure(config: pytest.Config) -> None:
    """The suite runs as on a machine of its own: the elicit-tui settings of the shell that
    started it (an inbox named by `$ELICIT_TUI_URL`, its token, plain mode, kinds to load...)
    reach no test and no process a test starts; a test that wants one sets it."""
    for name in [name for name in os.environ if name.startswith(SETTINGS_PREFIX)]:
        del os.environ[name]


@contextmanager
def _installed(backend: KeyringBackend) -> Iterator[None]:
    previous = keyring.get_keyring()
    keyring.set_keyring(backend)
    try:
        yield
    finally:
        keyring.set_keyring(previous)


@pytest.fixture
def config_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A temp folder set as ELICIT_TUI_CONFIG_DIR, so the stored-entry index never touches ~."""
    folder = tmp_path / "config"
    monkeypatch.setenv(CONFIG_DIR_ENV, str(folder))
    return folder


@pytest.fixture
def memory_keyring(config_dir: Path) -> Iterator[MemoryKeyring]:
    """An empty in-memory keyring installed as keyring's backend for one test (temp config)."""
    backend = MemoryKeyring()
    with _installed(backend):
        yield backend


@pytest.fixture
def failing_keyring(config_dir: Path) -> Iterator[FailingKeyring]:
    """A keyring whose set/delete raise `error_type` quoting the password (temp config)."""
    backend = FailingKeyring()
    with _installed(backend):
        yield backend


@pytest.fixture
def no_keyring(config_dir: Path) -> Iterator[fail.Keyring]:
    """keyring's "no backend found" keyring, as on a server without one (temp config)."""
    backend = fail.Keyring()
    with _installed(backend):
        yield backend


@pytest.fixture(autouse=True)
def isolated_keyring(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> MemoryKeyring:
    """Every test starts on an empty in-memory keyring and a temp config folder, never the user's.

    Subprocesses a test starts inherit PYTHON_KEYRING_BACKEND naming keyring's "no backend"
    keyring, so they cannot reach the real one either.
    """
    monkeypatch.setenv(CONFIG_DIR_ENV, str(tmp_path_factory.mktemp("config")))
    monkeypatch.setenv("PYTHON_KEYRING_BACKEND", "keyring.backends.fail.Keyring")
    backend = MemoryKeyring()
    # Set, not swapped with the previous one: reading that would make keyring probe the system.
    keyring.set_keyring(backend)
    return backend


@pytest.fixture(autouse=True)
def forgotten_secrets() -> Iterator[None]:
    """Every test starts with no secret registered with the redactor, and leaves none: a
    secret one test registered outside an app run (which forgets them as it ends) would scrub
    the next test's text wherever it occurs, depending on which tests ran before in that
    worker (a session recorded with "done" registered is a different session)."""
    REDACTOR.clear()
    yield
    REDACTOR.clear()


@pytest.fixture
def opened(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The links the url modal opened: a list instead of a real browser."""
    import widgets.url

    links: list[str] = []

    def open_in_browser(url: str) -> bool:
        links.append(url)
        return True

    monkeypatch.setattr(widgets.url, "open_in_browser", open_in_browser)
    return links


@pytest.fixture(scope="session")
def closed_port() -> Iterator[int]:
    """A port of 127.0.0.1 held for the whole run and refusing every connection: bound, so
    nothing else can listen on it, and never listening."""
    with socket.socket() as held:
        held.bind(("127.0.0.1", 0))
        yield held.getsockname()[1]


@pytest.fixture
def no_inbox(closed_port: int, monkeypatch: pytest.MonkeyPatch) -> str:
    """`$ELICIT_TUI_URL` naming a port where nothing listens, for a test that means "no inbox
    runs": without it, clients look at the default address, where a person's own inbox may be.
    Processes the test starts inherit it; returns the URL."""
    url = f"http://127.0.0.1:{closed_port}"
    monkeypatch.setenv(URL_ENV, url)
    return url


@pytest.fixture
def listener() -> Iterator[socket.socket]:
    """A socket bound to a free port on 127.0.0.1, for a `ServeApp` to serve on."""
    sock = socket.create_server(("127.0.0.1", 0))
    yield sock
    sock.close()


@pytest.fixture
def inbox(tmp_path: Path) -> Iterator[HeadlessInbox]:
    """`elicit-tui serve --headless` in a process of its own, stopped after the test; test
    files that need another kind of inbox define their own `inbox`."""
    running = HeadlessInbox(tmp_path / "config")
    try:
        yield running
    finally:
        running.stop()
