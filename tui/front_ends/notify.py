"""Telling the person a question waits: a desktop notification through the terminal, a command.

Textual has no API for desktop notifications, so the app writes the terminal's own escape
sequence: OSC 9 (iTerm2, Ghostty), OSC 99 (kitty) or OSC 777 (foot, WezTerm, VTE terminals),
chosen from the environment the terminal sets, and wrapped for tmux's passthrough inside tmux.
`--notify COMMAND` runs a command of the person's with the question's source, title and kind
in its environment: agents' text reaches it only as environment values, never as part of the
command line, and no part of a secret ever does (a secret request says only what it asks).
Both are rate-limited: a burst of questions makes one notification, then one summary.
"""

from __future__ import annotations

import logging
import os
import subprocess
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from tui.core.models import Request, ToolApprovalRequest
from tui.core.one_line import one_line
from tui.core.terminal_text import literal_line, literal_text
from tui.inbox.env_names import TOKEN_ENV

if TYPE_CHECKING:
    from tui.core.queue import ElicitationQueue, QueueEvent

OscKind = Literal["9", "99", "777"]

OSC_VARIABLE = "ELICIT_TUI_OSC_NOTIFY"
"""Overrides the sequence chosen: 9, 99 or 777, or off (also 0, no, false) for none."""

BURST_INTERVAL = 2.0
"""Seconds within which further questions make no notification of their own: they are counted,
and one summary goes out when the interval ends."""

TEXT_LIMIT = 200
"""Characters of a notification's title or body at most (terminals cut or refuse long ones)."""

_log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Notice:
    """What a notification says about a waiting question, in plain one-line text."""

    title: str
    body: str
    kind: str
    source: str | None = None
    tool: str | None = None
    command: str | None = None
    request_id: str | None = None
    count: int = 1
    """1 for a question of its own; in a burst's summary, how many questions wait."""

    def environment(self) -> dict[str, str]:
        """The variables a `--notify` command gets (ELICIT_TITLE, ELICIT_SOURCE, ...)."""
        values = {
            "ELICIT_TITLE": self.title,
            "ELICIT_BODY": self.body,
            "ELICIT_KIND": self.kind,
            "ELICIT_SOURCE": self.source or "",
            "ELICIT_TOOL": self.tool or "",
            "ELICIT_COMMAND": self.command or "",
            "ELICIT_ID": self.request_id or "",
            "ELICIT_COUNT": str(self.count),
        }
        return {name: _one_line(value) for name, value in values.items()}


def notice_for(request: Request, scrub: Callable[[str], str]) -> Notice:
    """What to say about `request`: who asks, and for an approval which tool and command;
    each of the agent's texts passed through `scrub`, which masks the secrets answered so far
    (an agent may echo one in a later question)."""
    who = scrub(request.source or "an agent")
    source = None if request.source is None else scrub(request.source)
    if isinstance(request, ToolApprovalRequest):
        # The argument that names what the call does (a hook's command), where there is one:
        # the summary, `Bash: npm test`, would name the tool again after the title's.
        named = request.remember.argument if request.remember is not None else None
        value = request.arguments.get(named) if named else None
        command = literal_text(scrub(value if isinstance(value, str) else request.summary))
        return Notice(
            title=_one_line(f"{who} wants to run {scrub(request.tool_name)}"),
            body=_one_line(command),
            kind=request.kind,
            source=source,
            tool=scrub(request.tool_name),
            command=command,
            request_id=scrub(request.id),
        )
    return Notice(
        title=_one_line(f"{who} asks ({request.kind.replace('_', ' ')})"),
        body=_one_line(scrub(request.title or request.message)),
        kind=request.kind,
        source=source,
        request_id=scrub(request.id),
    )


def burst_notice(latest: Notice, count: int) -> Notice:
    """One notice for a burst of questions, `latest` the last of them, `count` questions
    waiting in all (those that came before the burst too)."""
    return Notice(
        title=f"{count} question{'' if count == 1 else 's'} waiting",
        body=_one_line(f"latest: {latest.title}: {latest.body}"),
        kind=latest.kind,
        source=latest.source,
        tool=latest.tool,
        command=latest.command,
        request_id=latest.request_id,
        count=count,
    )


def _one_line(text: str) -> str:
    """`text` with control characters and line breaks made spaces, the characters that
    reorder or hide text shown as code points (as dialogs show them), cut to `TEXT_LIMIT`."""
    clean = "".join(" " if ord(c) < 32 or 0x7F <= ord(c) < 0xA0 else c for c in text)
    return one_line(literal_line(clean), TEXT_LIMIT)


# -- the terminal's sequence --------------------------------------------------------------------


def osc_for(environ: Mapping[str, str]) -> OscKind | None:
    """The notification sequence the terminal in `environ` shows, or None if it shows none
    that is known. Inside tmux the outer terminal's own variables (inherited by tmux) decide."""
    chosen = environ.get(OSC_VARIABLE, "").strip().lower()
    if chosen in ("9", "99", "777"):
        return chosen  # type: ignore[return-value]
    if chosen in ("off", "0", "no", "false", "none"):
        return None
    term = environ.get("TERM", "")
    program = environ.get("TERM_PROGRAM", "")
    if environ.get("KITTY_WINDOW_ID") or term == "xterm-kitty":
        return "99"
    if (
        program in ("iTerm.app", "ghostty")
        or environ.get("LC_TERMINAL") == "iTerm2"
        or environ.get("ITERM_SESSION_ID")
        or environ.get("GHOSTTY_RESOURCES_DIR")
        or term == "xterm-ghostty"
    ):
        return "9"
    if (
        program == "WezTerm"
        or environ.get("WEZTERM_PANE")
        or term.startswith("foot")
        or environ.get("VTE_VERSION")
    ):
        return "777"
    return None


def osc_sequence(notice: Notice, kind: OscKind) -> str:
    """The escape sequence that shows `notice` on a terminal speaking `kind`."""
    title, body = _one_line(notice.title), _one_line(notice.body)
    if kind == "9":
        # One text only: iTerm2 and Ghostty show it as the notification's body.
        return f"\x1b]9;{title}: {body}\x1b\\"
    if kind == "99":
        # kitty: the title (d=0: more follows), then the body, one notification by its id.
        return f"\x1b]99;i=elicit:d=0:p=title;{title}\x1b\\\x1b]99;i=elicit:d=1:p=body;{body}\x1b\\"
    # OSC 777 separates its fields with ';': one in the title would start the body early.
    return f"\x1b]777;notify;{title.replace(';', ',')};{body}\x1b\\"


def tmux_wrapped(sequence: str) -> str:
    """`sequence` in tmux's passthrough (each ESC doubled), for the terminal tmux runs in.
    tmux passes it on with `set -g allow-passthrough on` (tmux 3.3 and later)."""
    return "\x1bPtmux;" + sequence.replace("\x1b", "\x1b\x1b") + "\x1b\\"


def terminal_notification(notice: Notice, environ: Mapping[str, str]) -> str | None:
    """What to write to the terminal of `environ` to show `notice`, or None if it shows none."""
    kind = osc_for(environ)
    if kind is None:
        return None
    sequence = osc_sequence(notice, kind)
    return tmux_wrapped(sequence) if environ.get("TMUX") else sequence


# -- rate limit and the command -----------------------------------------------------------------


class BurstLimiter:
    """Passes the first notice at once; those within `interval` after it are held back, and
    when the interval ends the last of them goes to `send` (two or more: one summary,
    `burst_notice`, saying how many questions `waiting` counts then; none waiting, nothing).
    Thread-safe; `waiting` is called from a timer's thread."""

    def __init__(
        self,
        send: Callable[[Notice], None],
        waiting: Callable[[], int],
        interval: float = BURST_INTERVAL,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._send = send
        self._waiting = waiting
        self._interval = interval
        self._clock = clock
        self._lock = threading.Lock()
        self._quiet_until = 0.0
        self._held: Notice | None = None
        self._held_count = 0
        self._timer: threading.Timer | None = None

    def offer(self, notice: Notice) -> None:
        """Send `notice` now, or count it into the summary of the current burst."""
        with self._lock:
            now = self._clock()
            if now >= self._quiet_until and self._timer is None:
                self._quiet_until = now + self._interval
                send = notice
            else:
                self._held, self._held_count = notice, self._held_count + 1
                if self._timer is None:
                    self._timer = threading.Timer(max(self._quiet_until - now, 0.0), self._flush)
                    self._timer.daemon = True
                    self._timer.start()
                return
        self._send(send)

    def _flush(self) -> None:
        with self._lock:
            held, count = self._held, self._held_count
            self._held, self._held_count, self._timer = None, 0, None
            self._quiet_until = self._clock() + self._interval
        if held is None:
            return
        if count == 1:
            self._send(held)
        elif waiting := self._waiting():
            self._send(burst_notice(held, waiting))

    def close(self) -> None:
        """Drop what is held: nothing more is sent."""
        with self._lock:
            if self._timer is not None:
                self._timer.cancel()
            self._held, self._held_count, self._timer = None, 0, None


def _without_token(environ: Mapping[str, str]) -> dict[str, str]:
    return {name: value for name, value in environ.items() if name != TOKEN_ENV}


def run_notify_command(command: str, notice: Notice, timeout: float = 30.0) -> None:
    """Run `command` (through the shell, as the person wrote it) with `notice` in its
    environment, in a thread of its own; its output is discarded, a failure logged."""

    def run() -> None:
        try:
            done = subprocess.run(
                command,
                shell=True,
                # The inbox's token is no business of the person's command.
                env={**_without_token(os.environ), **notice.environment()},
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                timeout=timeout,
                check=False,
            )
        except (OSError, subprocess.SubprocessError) as error:
            _log.warning("the --notify command failed: %s", error)
            return
        if done.returncode:
            _log.warning("the --notify command exited with status %s", done.returncode)

    threading.Thread(target=run, name="elicit-notify", daemon=True).start()


def notify_by_command(queue: ElicitationQueue, command: str, scrub: Callable[[str], str]) -> None:
    """From now on, run `command` (as `run_notify_command` does) for every question `queue`
    gets that no approval rule answered at once, a burst summed up as in a front end: for an
    inbox with no window of its own, so no focus to wait for (`serve --headless`). `scrub`
    masks the secrets answered so far, as in `notice_for`."""
    notices = BurstLimiter(
        lambda notice: run_notify_command(command, notice), waiting=lambda: len(queue.pending())
    )

    def heard(event: QueueEvent) -> None:
        # Subscribed after the rules: a call one of them allowed has stopped waiting already.
        if event.type == "requested" and queue.is_pending(event.request.id):
            notices.offer(notice_for(event.request, scrub))

    queue.subscribe(heard, front_end=False)
