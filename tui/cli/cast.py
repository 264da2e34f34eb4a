"""Records a command's terminal output as an asciicast v2 file, under a pseudo-terminal of its own.

No terminal needs to be attached and asciinema need not be installed; `asciinema play` plays
the result.
"""

from __future__ import annotations

import codecs
import fcntl
import json
import os
import pty
import re
import select
import signal
import struct
import subprocess
import termios
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from tui.core.replaced_file import replacing

LEAVE_ALTERNATE_SCREEN = "\x1b[?1049l"
"""What a full-screen app writes as it exits; the cast ends just before it, on the last frame."""

TICK = 1.0
"""Seconds between calls of `record_cast`'s `progress`."""

HUNG_UP_GRACE = 5.0
"""Seconds a recorded command may take to end once its terminal is gone (a replay takes a
fraction of one)."""

INPUT_MODES = re.compile(
    r"\x1b\[\?(?:100[0-7]|101[56]|2004|2048)[hl]"  # reports of the mouse, focus, pastes, resizes
    r"|\x1b\[[<>=?][\d;]*u"  # how keys are sent (the kitty keyboard protocol)
    r"|\x1b\[\?[\d;]*\$p"  # questions: which modes the terminal has
    r"|\x1b\]22;[^\x07\x1b]*(?:\x07|\x1b\\)"  # the mouse pointer's shape
)
"""What an app writes for its terminal's input, not its screen: left out of a cast, which
is only watched. Played in a terminal, it set the viewer's to report the mouse and send
every key as an escape code (Ctrl+C then did not stop the player), and asked it questions
whose answers were typed into the player."""

UNFINISHED = re.compile(r"\x1b(?:\[[\x30-\x3f]*[\x20-\x2f]*|\][^\x07\x1b]*\x1b?)?")
"""The start of an escape sequence cut off by the end of a read."""


def record_cast(
    command: Sequence[str],
    out: Path,
    size: tuple[int, int],
    *,
    title: str | None = None,
    env: dict[str, str] | None = None,
    progress: Callable[[float], None] | None = None,
) -> tuple[int, float]:
    """Run `command` on a `size` (columns, rows) pseudo-terminal, write its output to `out`.

    Returns the command's exit code and the cast's length in seconds. `progress`, if given, is
    called with the seconds recorded so far every `TICK` while the command runs. The cast is
    written once the command ends; if this is interrupted (Ctrl+C, or an exception raised for
    SIGTERM), the command is hung up, waited for, and nothing is written.
    """
    columns, rows = size
    environment = dict(os.environ if env is None else env)
    environment.update(TERM="xterm-256color", COLORTERM="truecolor")
    for name in ("COLUMNS", "LINES", "NO_COLOR"):
        environment.pop(name, None)
    controller, terminal = pty.openpty()
    fcntl.ioctl(terminal, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
    started = time.monotonic()
    process = subprocess.Popen(
        list(command),
        stdin=terminal,
        stdout=terminal,
        stderr=terminal,
        env=environment,
        start_new_session=True,
        preexec_fn=_own_terminal,
    )
    os.close(terminal)
    try:
        output = _read_all(controller, started, progress)
    finally:
        os.close(controller)  # hangs the command up, if this was ended while it ran
        code = _ended(process)
    header = {
        "version": 2,
        "width": columns,
        "height": rows,
        "timestamp": int(time.time()),
        "env": {"TERM": environment["TERM"], "SHELL": environment.get("SHELL", "/bin/sh")},
    }
    if title:
        header["title"] = title
    lines = [json.dumps(header)]
    frames = _for_viewers(_until_exit(output))
    first = frames[0][0] if frames else 0.0  # the cast starts with the first output
    lines += [json.dumps([round(at - first, 6), "o", text]) for at, text in frames]
    with replacing(out) as draft:
        draft.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return code, frames[-1][0] - first if frames else 0.0


def _ended(process: subprocess.Popen[bytes]) -> int:
    """`process`'s exit status once it has ended: killed if it outlives its terminal by
    `HUNG_UP_GRACE` seconds. Waited for however this ends, so that nothing the command
    still writes (a replay's report) lands in a folder being removed."""
    try:
        return process.wait(HUNG_UP_GRACE)
    except subprocess.TimeoutExpired:
        process.kill()
        return process.wait()


def _own_terminal() -> None:
    """In the child, in its new session: make the pseudo-terminal its controlling terminal,
    and let a hangup end the command even where this process was started ignoring hangups
    (`nohup`, which the child would inherit).

    So the command is hung up (SIGHUP) when this process ends, however it ends; without it, a
    command left with a terminal nobody reads would run on, reading end-of-file forever.
    """
    signal.signal(signal.SIGHUP, signal.SIG_DFL)
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)


def _read_all(
    controller: int, started: float, progress: Callable[[float], None] | None
) -> list[tuple[float, str]]:
    """Everything the command writes, with the seconds since it started, until it closes;
    `progress` told the seconds so far every `TICK`, whether the command writes or not."""
    decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
    output: list[tuple[float, str]] = []
    told = 0.0
    while True:
        ready, _, _ = select.select([controller], [], [], TICK)
        now = time.monotonic() - started
        if progress is not None and now - told >= TICK:
            progress(now)
            told = now
        if not ready:
            continue
        try:
            data = os.read(controller, 65536)
        except OSError:  # EIO: the last process holding the terminal has gone
            break
        if not data:
            break
        text = decoder.decode(data)
        if text:
            output.append((time.monotonic() - started, text))
    rest = decoder.decode(b"", final=True)
    if rest:
        output.append((time.monotonic() - started, rest))
    return output


def _until_exit(output: list[tuple[float, str]]) -> list[tuple[float, str]]:
    """The output up to the full-screen app's exit, so the cast's last frame is the app's."""
    for index in range(len(output) - 1, -1, -1):
        at, text = output[index]
        cut = text.rfind(LEAVE_ALTERNATE_SCREEN)
        if cut >= 0:
            kept = output[:index]
            return [*kept, (at, text[:cut])] if text[:cut] else kept
    return output


def _for_viewers(output: list[tuple[float, str]]) -> list[tuple[float, str]]:
    """`output` without `INPUT_MODES`; a sequence split between two reads is judged whole,
    at the later one's time."""
    kept: list[tuple[float, str]] = []
    carried = ""
    for at, read in output:
        text = carried + read
        start = text.rfind("\x1b")
        cut = start >= 0 and UNFINISHED.fullmatch(text, start) is not None
        text, carried = (text[:start], text[start:]) if cut else (text, "")
        text = INPUT_MODES.sub("", text)
        if text:
            kept.append((at, text))
    if carried:
        kept.append((output[-1][0], carried))
    return kept
