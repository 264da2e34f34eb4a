"""Ctrl+C, SIGTERM and SIGHUP raised as `EndedFromOutside` while a command works; the first
taken, those after it ignored while it cleans up; an ignored one left ignored."""

from __future__ import annotations

import os
import signal
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from tui.core import ended_from_outside
from tui.core.ended_from_outside import EndedFromOutside, signals_raise
from tui.secrets.memory_keyring import memory_keyring

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")


@pytest.fixture(autouse=True)
def signals_as_a_shell_starts_a_command() -> Iterator[None]:
    """Ctrl+C, SIGTERM and SIGHUP at their defaults, whatever the test run inherited (started
    in the background, Ctrl+C is ignored; under `nohup`, SIGHUP), and as they were after."""
    defaults = {
        signal.SIGINT: signal.default_int_handler,
        signal.SIGTERM: signal.SIG_DFL,
        signal.SIGHUP: signal.SIG_DFL,
    }
    before = {number: signal.signal(number, handler) for number, handler in defaults.items()}
    try:
        yield
    finally:
        for number, handler in before.items():
            signal.signal(number, handler)


def sent(number: int) -> None:
    """Signal `number` sent to this process, its handler run before this returns."""
    os.kill(os.getpid(), number)
    time.sleep(0.5)  # (the handler runs at the first check for signals, long before)


def test_a_signal_raises_naming_it() -> None:
    with pytest.raises(EndedFromOutside) as ended, signals_raise():
        sent(signal.SIGTERM)
    assert (ended.value.number, ended.value.says) == (signal.SIGTERM, "ended by SIGTERM")


def test_a_second_signal_does_not_cut_short_what_the_first_cleans_up() -> None:
    cleaned = False
    with pytest.raises(EndedFromOutside) as ended, signals_raise():
        try:
            sent(signal.SIGINT)
        finally:
            sent(signal.SIGTERM)  # a second Ctrl+C, or a kill, while a folder is removed
            cleaned = True
    assert cleaned and ended.value.says == "interrupted"


def test_a_signal_in_an_inner_block_is_the_one_taken() -> None:
    taken: list[int] = []
    with pytest.raises(EndedFromOutside), signals_raise():
        with signals_raise(instead=taken.append):
            sent(signal.SIGHUP)
        sent(signal.SIGTERM)  # the outer block: the command is already ending
        raise EndedFromOutside(taken[0])
    assert taken == [signal.SIGHUP]
    with pytest.raises(EndedFromOutside), signals_raise():  # a new command's block: taken
        sent(signal.SIGTERM)


@contextmanager
def ignoring(number: int) -> Iterator[None]:
    before = signal.signal(number, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(number, before)


def test_an_ignored_signal_stays_ignored() -> None:
    with ignoring(signal.SIGHUP), signals_raise():  # `nohup`
        assert signal.getsignal(signal.SIGHUP) is signal.SIG_IGN
        sent(signal.SIGHUP)


def test_the_handlers_before_come_back_after_the_block() -> None:
    before = [signal.getsignal(number) for number in (signal.SIGINT, signal.SIGTERM)]
    with signals_raise():
        pass
    assert [signal.getsignal(number) for number in (signal.SIGINT, signal.SIGTERM)] == before


def test_a_signal_left_taken_by_an_earlier_command_does_not_mute_the_next(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A second signal raised while the first block put its handlers back left the first
    # one recorded as ending, and every later block in the process ignored its signals.
    monkeypatch.setattr(ended_from_outside._COMMAND, "ending", signal.SIGTERM)
    with pytest.raises(EndedFromOutside), signals_raise():
        sent(signal.SIGTERM)


@pytest.mark.parametrize("number", [signal.SIGINT, signal.SIGTERM, signal.SIGHUP])
def test_a_signal_as_a_temporary_folder_is_made_leaves_no_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, number: int
) -> None:
    # The keyring folder of a render: Ctrl+C the moment it appeared left it behind, raised
    # after the folder was made and before its removal was set up.
    made = tempfile.mkdtemp

    def made_then_signalled(*args: Any, **kwargs: Any) -> str:
        folder = made(*args, **kwargs)
        sent(number)
        return folder

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    monkeypatch.setattr(tempfile, "mkdtemp", made_then_signalled)
    with pytest.raises(EndedFromOutside) as ended, signals_raise(), memory_keyring():
        pytest.fail("the block ran: the signal was not raised")
    assert ended.value.number == number
    assert list(tmp_path.iterdir()) == []


def test_a_signal_as_the_block_puts_its_handlers_back_goes_to_the_handler_put_back(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Sent between two handlers put back, and taken by another thread (a process's signal
    # goes to any thread not holding it back): the block's own handler ran it, raising out
    # of the block's end instead of reaching the handler the block put back.
    taken: list[int] = []
    signal.signal(signal.SIGTERM, lambda number, _frame: taken.append(number))
    other_thread_ends = threading.Event()
    other_thread = threading.Thread(target=other_thread_ends.wait)
    other_thread.start()
    put_back = signal.signal
    ending = False

    def put_back_then_signalled(number: int, handler: Any) -> Any:
        nonlocal ending
        previous = put_back(number, handler)
        if ending:
            ending = False
            sent(signal.SIGTERM)  # SIGINT's handler is back, SIGTERM's not yet
        return previous

    monkeypatch.setattr(signal, "signal", put_back_then_signalled)
    try:
        with signals_raise():
            ending = True
    finally:
        other_thread_ends.set()
        other_thread.join()
    assert taken == [signal.SIGTERM]
