"""A render or a cast recording ended from outside (Ctrl+C, SIGTERM, its terminal closed)
says what it wrote and what not, leaves every output it had not finished as it was and
nothing in the temporary folder, and then ends as that signal ends a process (a script's
loop stops at its Ctrl+C). It used to die on the spot, half a GIF written over the last
whole one, its keyring and video folders left in /tmp; Ctrl+C printed a traceback."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from shell_started import ELICIT_TUI
from test_terminal_gone import on_a_pty, on_its_terminal, read_until

REPO = Path(__file__).resolve().parent.parent
OLD = b"the GIF of the last render"

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")


def as_a_shell_starts_it() -> None:
    """Ctrl+C and SIGHUP at their defaults in the child, as a shell starts a foreground job
    (whatever the test runner inherited)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGHUP, signal.SIG_DFL)


@contextmanager
def started(tmp_path: Path, *args: str) -> Iterator[subprocess.Popen[str]]:
    """`elicit-tui ARGS`, its temporary files in `tmp_path/tmp`, no terminal; killed if
    still running once the block ends."""
    (tmp_path / "tmp").mkdir(exist_ok=True)
    env = {
        **os.environ,
        "TMPDIR": str(tmp_path / "tmp"),
        "ELICIT_TUI_CONFIG_DIR": str(tmp_path / "config"),
    }
    with subprocess.Popen(
        [*ELICIT_TUI, *args],
        cwd=REPO,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=as_a_shell_starts_it,
    ) as process:
        try:
            yield process
        finally:
            process.kill()


def once(found: Callable[[], bool], process: subprocess.Popen[Any], what: str) -> None:
    """Wait until `found()`; fails if `process` ends first or 60 s pass."""
    deadline = time.monotonic() + 60
    while not found():
        assert process.poll() is None, f"it ended before {what}: {process.communicate()}"
        assert time.monotonic() < deadline, f"never {what}"
        time.sleep(0.01)


def leftovers(tmp_path: Path) -> list[str]:
    return sorted(path.name for path in (tmp_path / "tmp").iterdir())


def drafts(folder: Path) -> list[Path]:
    return sorted(folder.glob(".*.draft*"))


def keyring_folders(folder: Path) -> list[Path]:
    return sorted(folder.glob("elicit-tui-keyring-*"))


@pytest.mark.parametrize(
    ("number", "says"), [(signal.SIGINT, "interrupted"), (signal.SIGTERM, "ended by SIGTERM")]
)
def test_a_render_ended_while_the_replay_runs_writes_nothing(
    tmp_path: Path, number: int, says: str
) -> None:
    gif = tmp_path / "demo.gif"
    gif.write_bytes(OLD)
    with started(tmp_path, "demo", "--replay", "-o", str(gif)) as render:
        # The replay runs headless, secrets going to a keyring in a temporary folder.
        once(lambda: leftovers(tmp_path) != [], render, "began its replay")

        render.send_signal(number)

        out, err = render.communicate(timeout=20)
    assert render.returncode == -number
    assert err == f"elicit-tui replay: {says}; {gif} not written\n"  # not a traceback
    assert out == ""
    assert gif.read_bytes() == OLD
    assert leftovers(tmp_path) == [] and drafts(tmp_path) == []


def test_a_render_ended_while_a_gif_is_written_leaves_the_last_one_whole(
    tmp_path: Path,
) -> None:
    gif, poster = tmp_path / "demo.gif", tmp_path / "demo.png"
    gif.write_bytes(OLD)
    with started(tmp_path, "demo", "--replay", "-o", str(poster), "-o", str(gif)) as render:
        once(lambda: drafts(tmp_path) != [] and poster.exists(), render, "began writing the GIF")

        render.terminate()

        _, err = render.communicate(timeout=20)
    assert render.returncode == -signal.SIGTERM
    # What it finished is said, as a render that ends well says it.
    assert err.splitlines() == [
        f"wrote {poster} ({poster.stat().st_size / 1000:.1f} kB, 1 frame)",
        f"elicit-tui replay: ended by SIGTERM; {gif} not written",
    ]
    assert gif.read_bytes() == OLD  # it was half overwritten
    assert leftovers(tmp_path) == [] and drafts(tmp_path) == []


def test_a_render_whose_terminal_is_closed_ends_as_hung_up_and_leaves_nothing(
    tmp_path: Path,
) -> None:
    gif = tmp_path / "demo.gif"
    env = {"TMPDIR": str(tmp_path), "ELICIT_TUI_CONFIG_DIR": str(tmp_path / "config")}
    command = on_its_terminal("hup", "demo", "--replay", "-o", str(gif))
    with on_a_pty(command, env=env) as render:
        # It says it renders only once done; the replay is under way once its keyring is.
        once(lambda: keyring_folders(tmp_path) != [], render.process, "began its replay")

        render.close()

        assert render.process.wait(timeout=20) == 129
    assert not gif.exists()
    assert sorted(tmp_path.glob("elicit-tui-*")) == []


def test_a_cast_recording_ended_by_sigterm_says_so_and_leaves_no_folder(
    tmp_path: Path,
) -> None:
    cast = tmp_path / "demo.cast"
    transcript = REPO / "tui" / "cli" / "demo_session.jsonl"
    with started(tmp_path, "replay", str(transcript), "--cast", str(cast)) as recorder:
        # The replay under way on the recorder's terminal, its keyring in the recorder's
        # folder: it goes with that folder even where the replay cannot remove it.
        replaying = "elicit-tui-replay-*/elicit-tui-keyring-*"
        once(lambda: list((tmp_path / "tmp").glob(replaying)) != [], recorder, "replayed")

        recorder.terminate()

        _, err = recorder.communicate(timeout=20)
    assert recorder.returncode == -signal.SIGTERM
    assert err.splitlines()[-1] == f"elicit-tui replay: ended by SIGTERM; {cast} not written"
    assert not cast.exists()
    assert leftovers(tmp_path) == []


def test_a_render_interrupted_on_a_terminal_says_so_there(tmp_path: Path) -> None:
    env = {"TMPDIR": str(tmp_path), "ELICIT_TUI_CONFIG_DIR": str(tmp_path / "config")}
    gif = tmp_path / "demo.gif"
    command = on_its_terminal("hup", "demo", "--replay", "-o", str(gif))
    with on_a_pty(command, env=env) as render:
        once(lambda: keyring_folders(tmp_path) != [], render.process, "began its replay")
        os.write(render.controller, b"\x03")  # Ctrl+C: the terminal sends SIGINT

        read_until(render.controller, f"interrupted; {gif} not written".encode())
        assert render.process.wait(timeout=20) == -signal.SIGINT
    assert not gif.exists()
