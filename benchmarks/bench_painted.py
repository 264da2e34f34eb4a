"""ask() → the question visible, where a person sees it: elicit-tui beside bare Textual.

"Painted" has two definitions here, and where they disagree the terminal wins:

* terminal: the real app runs on a pseudo-terminal of 80x24 in a child process (the full
  `ElicitationApp` with an agent thread, its own driver and its default input grace); every
  byte it writes is fed to a terminal emulator (pyte), and a question is painted at the first
  read from the pty after which its marker is on the emulated screen. The agent writes the
  time of each `ask()` (`perf_counter`, the system's monotonic clock) to a pipe; the parent
  answers with a key once the question is visible.
* headless: in this process (`run_test`), the first compositor frame (`App._display`, each
  frame rendered to terminal text as a real driver would) in which the modal is the active
  screen, a widget of it has focus, and the frame's text holds the question's marker.

Ours must also have drawn its dialog's frame (a corner of it) since the question was asked:
a frame of only what changed would show the question's text without the dialog around it.

A marker is what the answer widget shows of this question alone: its first option, its
placeholder, its yes label, its first field's title, the tool call's command; each question
has its own.

The bare app is a plain `App` with a header, a label and a footer; a thread posts a message
and waits, and the app pushes a fresh `ModalScreen` with the stock widget (`OptionList`,
`SelectionList`, `Input`, two `Button`s, one `Label` + `Input` per form field; for a tool
approval, the call's arguments highlighted as JSON above an `OptionList` of the four answers;
for a batch of questions, `Tabs` of their headers above the first question and its
`OptionList`). Ours and bare alternate in one run; figures are medians and p90 of wall time
and of CPU time (`process_time`, in-process rows), ours ÷ bare, and how many milliseconds
later than bare ours is there at the median wall time ("later"; a frame at 60 Hz is 16.7 ms).

Cases, headless: simple kinds asked from an idle app; the first question of each kind in a
fresh app (asked at once, while it builds the common modals ahead, once they are built, with
how long that took), and asked at once in a fresh process;
a form of 4 fields; N choice questions back to back, each answered the moment it is painted
(no idle gap, input grace 0), each side in a process of its own: requests per second, ask →
painted over the run, first and last 100, and the growth of RSS and gc-tracked objects from
question 100 to the last.
On the terminal: each kind asked 0.3 s after the last answer; the first question of each kind
asked by an agent that asks as the app starts, a fresh process each; choices back to back;
and `elicit-tui ask` from the process start.

Each row ends with the target it must reach (`Target`) and ✓ or ✗; the lines under the
back-to-back rows check the rate and the growth against theirs.

Run: `.venv/bin/python benchmarks/bench_painted.py [--reps 30] [--burst 1000]
[--only headless terminal]`.
"""

from __future__ import annotations

import argparse
import asyncio
import compileall
import contextlib
import gc
import json
import os
import pty
import re
import select
import signal
import statistics
import struct
import sys
import termios
import threading
import time
import weakref
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from fcntl import ioctl
from pathlib import Path
from typing import Any, ClassVar

import pyte
from bench_form import NaiveForm, schema
from fresh_process import run_child
from textual import events
from textual._compositor import CompositorUpdate
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.highlight import highlight
from textual.message import Message
from textual.screen import ModalScreen, Screen
from textual.widget import Widget
from textual.widgets import (
    Button,
    Footer,
    Header,
    Input,
    Label,
    OptionList,
    SelectionList,
    Static,
    Tabs,
)

from tui.app.app import ElicitationApp
from tui.core.models import (
    ChoiceRequest,
    ConfirmationRequest,
    FormRequest,
    MultiChoiceRequest,
    Question,
    QuestionsRequest,
    Request,
    SecretRequest,
    TextRequest,
    ToolApprovalRequest,
)
from tui.core.queue import ElicitationQueue
from widgets.base import ElicitationModal

SIZE = (80, 24)
Clock = tuple[float, float]
"""A wall-clock (`perf_counter`) and a CPU-time (`process_time`) reading, in seconds."""

KINDS = (
    "choice",
    "multi_choice",
    "text",
    "secret",
    "confirmation",
    "tool_approval",
    "form",
    "questions",
)


def _now() -> Clock:
    return time.perf_counter(), time.process_time()


# -- questions: ours, bare, and the marker each shows ------------------------------------


def options(n: int, count: int = 10) -> list[str]:
    """`count` option labels; the first names question `n` and is its marker."""
    return [f"q{n} alpha", *(f"option {i}" for i in range(1, count))]


FRAME_CORNER = "╭"
"""The top left corner of our dialog: a frame that draws the question but not the dialog
around it (only what changed, over what the screen under it drew) is not a painted question.
Bare Textual's modal has no frame; a fresh screen's first frame is always drawn whole."""


def marker(kind: str, n: int) -> str:
    """What the answer widget of question `n` of `kind` shows of it alone."""
    return {
        "choice": f"q{n} alpha",
        "multi_choice": f"q{n} alpha",
        "text": f"q{n} name here",
        "secret": f"q{n} key here",
        "confirmation": f"Yes q{n}",
        "tool_approval": f"q{n} make test",
        "form": f"Field 0 q{n}",
        "questions": f"q{n} alpha",
    }[kind]


def form_schema(n: int) -> dict[str, Any]:
    """A form of 4 fields of different kinds; the first field's title is the marker."""
    form = schema(4)
    form["properties"]["field_0"]["title"] = marker("form", n)
    return form


def approval_arguments(n: int) -> dict[str, Any]:
    """A tool call's arguments; the command is the marker."""
    return {"command": marker("tool_approval", n), "cwd": "/srv/app", "timeout": 60}


BATCH = (("Which framework?", "Framework", False), ("Which features?", "Features", True))
"""A batch's questions: text, header, and whether more than one answer may be picked. Each
has 4 options; the first option of the first is the marker."""


def batch_questions(n: int) -> list[Question]:
    return [
        Question(question=text, header=header, options=options(n, 4), multi_select=several)
        for text, header, several in BATCH
    ]


APPROVAL_ANSWERS = ("Allow once", "Allow for this session", "Always allow", "Deny")


def our_request(kind: str, n: int) -> Request:
    if kind == "choice":
        return ChoiceRequest(message="Which one?", options=options(n))
    if kind == "multi_choice":
        return MultiChoiceRequest(message="Which ones?", options=options(n))
    if kind == "text":
        return TextRequest(message="Service name?", placeholder=marker(kind, n))
    if kind == "secret":
        return SecretRequest(message="API key?", placeholder=marker(kind, n))
    if kind == "confirmation":
        return ConfirmationRequest(message="Deploy now?", yes_label=marker(kind, n))
    if kind == "tool_approval":
        call = approval_arguments(n)
        return ToolApprovalRequest(tool_name="shell", arguments=call, tool_call_id=f"call-{n}")
    if kind == "questions":
        return QuestionsRequest(questions=batch_questions(n))
    return FormRequest(message="A form of 4 fields", requested_schema=form_schema(n))


class BareModal(ModalScreen[None]):
    """A stock ModalScreen holding `widgets`; Enter and Escape dismiss it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter,escape", "done", priority=True),
    ]

    def __init__(self, *widgets: Widget) -> None:
        super().__init__()
        self.widgets = widgets

    def compose(self) -> ComposeResult:
        yield from self.widgets

    def action_done(self) -> None:
        self.dismiss(None)


class BareForm(NaiveForm):
    BINDINGS: ClassVar[list[BindingType]] = [Binding("enter,escape", "done", priority=True)]

    def action_done(self) -> None:
        self.dismiss(None)  # type: ignore[arg-type]


def bare_modal(kind: str, n: int) -> ModalScreen[Any]:
    if kind == "choice":
        return BareModal(OptionList(*options(n)))
    if kind == "multi_choice":
        return BareModal(SelectionList[str](*((p, p) for p in options(n))))
    if kind == "text":
        return BareModal(Input(placeholder=marker(kind, n)))
    if kind == "secret":
        return BareModal(Input(placeholder=marker(kind, n), password=True))
    if kind == "confirmation":
        return BareModal(Horizontal(Button(marker(kind, n)), Button("No")))
    if kind == "tool_approval":
        call = json.dumps(approval_arguments(n), indent=2)
        return BareModal(Static(highlight(call, language="json")), OptionList(*APPROVAL_ANSWERS))
    if kind == "questions":
        tabs = Tabs(*(header for _, header, _ in BATCH))
        return BareModal(tabs, Label(BATCH[0][0]), OptionList(*options(n, 4)))
    return BareForm(FormRequest(message="A form of 4 fields", requested_schema=form_schema(n)))


class Ask(Message):
    """From the asking thread: push a fresh modal built by `make`."""

    def __init__(self, make: Callable[[], ModalScreen[Any]]) -> None:
        super().__init__()
        self.make = make


class BareApp(App[None]):
    """A header, a label and a footer; each request pushes a fresh modal."""

    def __init__(self) -> None:
        super().__init__()
        self.answered = threading.Event()

    def compose(self) -> ComposeResult:
        yield Header()
        yield Label("bare Textual")
        yield Footer()

    def ask(self, make: Callable[[], ModalScreen[Any]]) -> None:
        """From another thread: show the modal and wait until it is dismissed."""
        self.answered.clear()
        self.post_message(Ask(make))
        self.answered.wait()

    def on_ask(self, message: Ask) -> None:
        self.push_screen(message.make(), callback=lambda _: self.answered.set())


def asker(ours: bool, app: App[Any], queue: ElicitationQueue, kind: str) -> Callable[[int], None]:
    """A function that asks question `n` of `kind` and returns once it is answered."""
    if ours:

        def ask(n: int) -> None:
            queue.ask(our_request(kind, n))

        return ask
    assert isinstance(app, BareApp)
    return lambda n: app.ask(lambda: bare_modal(kind, n))


# -- headless: the first frame that shows the question ----------------------------------

_ESCAPE = re.compile(r"\x1b\[[0-9;?<>=]*[A-Za-z]")


def _is_modal(screen: Screen[Any], ours: bool) -> bool:
    return isinstance(screen, ElicitationModal) if ours else isinstance(screen, ModalScreen)


@dataclass
class HeadlessRun:
    """One app in `run_test`, asked from a thread, its frames watched for the marker."""

    ours: bool
    kind: str
    asked: list[Clock] = field(default_factory=list)
    painted: list[Clock] = field(default_factory=list)
    answered: int = 0
    pending: str | None = None
    """The marker of the question asked and not yet painted."""

    def __post_init__(self) -> None:
        self.queue = ElicitationQueue()
        self.app: App[Any] = ElicitationApp(self.queue, input_grace=0) if self.ours else BareApp()
        self.ask = asker(self.ours, self.app, self.queue, self.kind)

    def watch_frames(self) -> None:
        _watch_textual_frames()
        _FRAME_WATCHERS[self.app] = self._frame_written

    def _frame_written(self, screen: Screen[Any], renderable: Any) -> None:
        app = self.app
        if not isinstance(renderable, CompositorUpdate):
            return
        # What a terminal driver does with every frame; headless Textual skips it.
        text = renderable.render_segments(app.console)
        wanted = self.pending
        if wanted is None or screen is not app.screen or not _is_modal(screen, self.ours):
            return
        if self.ours and FRAME_CORNER not in text:
            return  # the question without its dialog around it
        focused = app.focused
        if focused is None or focused.screen is not screen:
            return
        if wanted not in _ESCAPE.sub("", text):
            return
        self.pending = None
        self.painted.append(_now())
        if self.kind == "choice":
            # Answered the moment it is painted, as a key from the terminal would arrive.
            app.post_message(events.Key("enter", "\r"))
        else:
            # Only choices are asked back to back; the others are dismissed a moment later.
            app.set_timer(0.01, lambda: app.post_message(events.Key("escape", "\x1b")))

    def ask_one(self, n: int) -> None:
        self.pending = marker(self.kind, n)
        self.asked.append(_now())
        self.ask(n)
        self.answered += 1

    def spans(self, skip: int = 0) -> list[tuple[float, float]]:
        pairs = zip(self.asked, self.painted, strict=True)
        return [((p[0] - a[0]) * 1000, (p[1] - a[1]) * 1000) for a, p in pairs][skip:]


_FRAME_WATCHERS: weakref.WeakKeyDictionary[App[Any], Callable[[Screen[Any], Any], None]] = (
    weakref.WeakKeyDictionary()
)
"""The frame watcher of each app under test, called with each frame Textual writes."""


def _watch_textual_frames() -> None:
    """Call each app's watcher with every frame where Textual's own `App._display` writes it
    to the driver: for both sides the moment a real driver's frame leaves for the terminal.
    Not after an app's own `_display` around it: what ours does there once the frame is
    written (a garbage collection held back while the question was drawn) comes after the
    frame on a terminal too."""
    if getattr(App._display, "watched", False):
        return
    write = App._display

    def display(app: App[Any], screen: Screen[Any], renderable: Any) -> None:
        write(app, screen, renderable)
        if (watcher := _FRAME_WATCHERS.get(app)) is not None:
            watcher(screen, renderable)

    display.watched = True  # type: ignore[attr-defined]
    App._display = display  # type: ignore[method-assign]


async def _until(condition: Callable[[], bool], timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise TimeoutError("the benchmark run stalled")
        await asyncio.sleep(0.002)


IDLE = 0.05
"""Seconds an app is left idle before each question asked "from idle"."""


async def idle_case(ours: bool, kind: str, reps: int, warmup: int) -> list[tuple[float, float]]:
    """ask → painted of `reps` questions of `kind` after `warmup`, each from an idle app."""
    run = HeadlessRun(ours, kind)
    async with run.app.run_test(size=SIZE):
        run.watch_frames()
        for n in range(warmup + reps):
            await asyncio.sleep(IDLE)
            thread = threading.Thread(target=run.ask_one, args=(n,), daemon=True)
            thread.start()
            await _until(lambda n=n: run.answered > n)
    return run.spans(warmup)


async def first_case(
    ours: bool, kind: str, reps: int, idle: float | None, built_in: list[float] | None = None
) -> list[tuple[float, float]]:
    """ask → painted of the first question of `kind`, each in a fresh app left `idle`
    seconds first; `idle` None: ours until it has built the common modals ahead (the
    seconds that took, from when `run_test` hands the app over, are added to `built_in`),
    bare for 0.3 s."""
    spans = []
    for n in range(reps):
        run = HeadlessRun(ours, kind)
        async with run.app.run_test(size=SIZE):
            started = time.perf_counter()
            run.watch_frames()
            if idle is not None:
                await asyncio.sleep(idle)
            elif isinstance(run.app, ElicitationApp):
                await _until(lambda app=run.app: app._prebuilt)
                if built_in is not None:
                    built_in.append(time.perf_counter() - started)
            else:
                await asyncio.sleep(0.3)
            threading.Thread(target=run.ask_one, args=(n,), daemon=True).start()
            await _until(lambda run=run: run.answered > 0)
        spans += run.spans()
    return spans


@dataclass
class Burst:
    per_second: float
    spans: list[tuple[float, float]]
    rss_growth_mib: float
    objects_growth: int


def _rss_mib() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


async def burst_case(ours: bool, questions: int) -> Burst:
    """`questions` choice questions back to back, each answered the moment it is painted."""
    run = HeadlessRun(ours, "choice")
    marks: list[tuple[float, int]] = []
    timing: dict[str, float] = {"paused": 0.0}

    def agent() -> None:
        timing["begin"] = time.perf_counter()
        for n in range(1, questions + 1):
            run.ask_one(n)
            if n in (100, questions):
                pause = time.perf_counter()
                gc.collect()
                marks.append((_rss_mib(), len(gc.get_objects())))
                timing["paused"] += time.perf_counter() - pause
        timing["end"] = time.perf_counter()

    async with run.app.run_test(size=SIZE):
        run.watch_frames()
        await asyncio.sleep(0.2)
        threading.Thread(target=agent, daemon=True).start()
        await _until(lambda: "end" in timing, timeout=3600)
    elapsed = timing["end"] - timing["begin"] - timing["paused"]
    (rss0, objects0), (rss1, objects1) = marks
    return Burst(questions / elapsed, run.spans(), rss1 - rss0, objects1 - objects0)


# -- terminal: a pty, read into a terminal emulator --------------------------------------

CHILD = """
import os, sys, threading, time
sys.path.insert(0, {benchmarks!r})
import bench_painted as bench
ours, kind, questions, grace, gap = sys.argv[1] == "ours", sys.argv[2], int(sys.argv[3]), float(sys.argv[4]), float(sys.argv[5])
side = os.fdopen(int(os.environ["BENCH_SIDE_FD"]), "w", buffering=1)
from tui.app.app import ElicitationApp
from tui.core.queue import ElicitationQueue
queue = ElicitationQueue()
def agent(_queue=None):
    ask = bench.asker(ours, app, queue, kind)
    for n in range(questions):
        time.sleep(gap)
        side.write(f"{{n}} {{time.perf_counter()}}\\n")
        ask(n)
    if not ours:
        app.call_from_thread(app.exit)
if ours:
    app = ElicitationApp(queue, agent, input_grace=grace, exit_when_agent_done=True, bell=False)
else:
    app = bench.BareApp()
    app.call_later(lambda: threading.Thread(target=agent, daemon=True).start())
app.run()
"""


@dataclass
class TerminalRun:
    spans: list[float]
    cpu_ms: float
    wall: float
    """Seconds from the fork to the last question seen: the process start included."""
    asking: float
    """Seconds from the first `ask()` to the last question seen: the questions alone."""


def fork_terminal() -> tuple[int, int]:
    """`pty.fork()`, the child's terminal 80x24 before it runs anything, as a terminal
    emulator's is: sized by the parent after the fork, the child could start at 0x0 and
    then be resized (and redraw) while it shows its first frame."""
    pid, fd = pty.fork()
    if pid == 0:
        ioctl(pty.STDIN_FILENO, termios.TIOCSWINSZ, struct.pack("HHHH", SIZE[1], SIZE[0], 0, 0))
    return pid, fd


def terminal_run(
    ours: bool, kind: str, questions: int, *, back_to_back: bool, at_once: bool = False
) -> TerminalRun:
    """`questions` of `kind` asked in a child process on an 80x24 pty; ask → visible (ms).
    The agent waits 0.3 s before each question, or asks at once (`back_to_back`, and the first
    question asked `at_once` as the app starts)."""
    grace = 0.0 if back_to_back else 0.2
    gap = 0.0 if back_to_back or at_once else 0.3
    side_read, side_write = os.pipe()
    start = time.perf_counter()
    pid, fd = fork_terminal()
    if pid == 0:
        os.environ.update(TERM="xterm-256color", BENCH_SIDE_FD=str(side_write))
        os.set_inheritable(side_write, True)
        code = CHILD.format(benchmarks=str(Path(__file__).resolve().parent))
        os.execv(
            sys.executable,
            [
                sys.executable,
                "-c",
                code,
                "ours" if ours else "bare",
                kind,
                str(questions),
                str(grace),
                str(gap),
            ],
        )
    os.close(side_write)
    screen = pyte.Screen(*SIZE)
    stream = pyte.ByteStream(screen)
    asked: dict[int, float] = {}
    spans: list[float] = []
    side_buffer = b""
    current = 0
    answer_at: float | None = None
    framed_at = 0.0
    """When a read last held a corner of our dialog's frame (see `FRAME_CORNER`)."""
    deadline = time.perf_counter() + 60 + questions * 2
    alive = True
    # Until the last question is answered too: the child then exits on its own.
    while (
        alive
        and (len(spans) < questions or answer_at is not None)
        and time.perf_counter() < deadline
    ):
        timeout = 0.5 if answer_at is None else max(0.0, answer_at - time.perf_counter())
        ready = select.select([fd, side_read], [], [], timeout)[0]
        if side_read in ready:
            side_buffer += os.read(side_read, 65536)
            *lines, side_buffer = side_buffer.split(b"\n")
            for line in lines:
                n, at = line.split()
                asked[int(n)] = float(at)
        if fd in ready:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                chunk = b""
            now = time.perf_counter()  # the read, not the emulator's work on it
            if not chunk:
                alive = False
            if FRAME_CORNER.encode() in chunk:
                framed_at = now
            stream.feed(chunk)
            visible = "\n".join(screen.display)
            drawn_whole = not ours or framed_at >= asked.get(current, now)
            if (
                current in asked
                and answer_at is None
                and drawn_whole
                and marker(kind, current) in visible
            ):
                spans.append((now - asked[current]) * 1000)
                answer_at = now if back_to_back else now + 0.25
        if answer_at is not None and time.perf_counter() >= answer_at:
            os.write(fd, b"\r" if kind == "choice" else b"\x1b")
            answer_at = None
            current += 1
    wall = time.perf_counter() - start
    asking = time.perf_counter() - asked.get(0, start)
    cpu_ms = _reap(pid, fd)
    os.close(side_read)
    if len(spans) < questions:
        raise RuntimeError(f"{'ours' if ours else 'bare'} {kind}: {len(spans)} of {questions} seen")
    return TerminalRun(spans, cpu_ms, wall, asking)


def _reap(pid: int, fd: int) -> float:
    """Let the child exit on its own (reading what it still writes), or kill it after 5 s;
    its CPU time in milliseconds."""
    end = time.perf_counter() + 5
    while True:
        done, _, usage = os.wait4(pid, os.WNOHANG)
        if done:
            break
        if time.perf_counter() > end:
            os.kill(pid, signal.SIGKILL)
            _, _, usage = os.wait4(pid, 0)
            break
        if select.select([fd], [], [], 0.05)[0]:
            with contextlib.suppress(OSError):
                os.read(fd, 65536)
    os.close(fd)
    return (usage.ru_utime + usage.ru_stime) * 1000


def cold_ask(ours: bool) -> float:
    """From fork to the question visible on an 80x24 pty: `elicit-tui ask choice` or a bare
    app that pushes the same ModalScreen+OptionList on mount; milliseconds."""
    argv = (
        [str(Path(sys.executable).with_name("elicit-tui")), "ask", "choice", "Zebra?"]
        + [a for n in range(10) for a in ("-o", options(0)[n])]
        if ours
        else [sys.executable, "-c", BARE_COLD]
    )
    start = time.perf_counter()
    pid, fd = fork_terminal()
    if pid == 0:
        os.environ["TERM"] = "xterm-256color"
        os.execv(argv[0], argv)
    screen = pyte.Screen(*SIZE)
    stream = pyte.ByteStream(screen)
    seen = False
    while not seen and time.perf_counter() - start < 30:
        if select.select([fd], [], [], 0.5)[0]:
            try:
                stream.feed(os.read(fd, 65536))
            except OSError:
                break
            seen = marker("choice", 0) in "\n".join(screen.display)
    wall = (time.perf_counter() - start) * 1000
    os.kill(pid, signal.SIGKILL)
    os.wait4(pid, 0)
    os.close(fd)
    if not seen:
        raise RuntimeError("the question never appeared")
    return wall


BARE_COLD = """
from textual.app import App
from textual.screen import ModalScreen
from textual.widgets import OptionList
class Modal(ModalScreen):
    def compose(self):
        yield OptionList("q0 alpha", *(f"option {i}" for i in range(1, 10)))
class Bare(App):
    def on_mount(self):
        self.push_screen(Modal())
Bare().run()
"""


# -- report -------------------------------------------------------------------------------


def _p90(values: list[float]) -> float:
    if len(values) == 1:
        return values[0]
    return statistics.quantiles(values, n=10, method="inclusive")[-1]


NOTE_WIDTH = 42
"""Characters a terminal row's note takes, in place of the CPU columns."""

HEADER = (
    f"{'case':<34} {'n':>4} │ {'ours wall':>13} {'bare wall':>13} {'ratio':>11} │"
    f" {'ours cpu':>13} {'bare cpu':>13} {'ratio':>14} │ {'later':>6} │ target"
)


@dataclass(frozen=True)
class Target:
    """What a row must reach: ours ÷ bare in wall time at the median (`p50`) and at p90
    (`p90`), or ours at most `later` ms after bare at the median; None: no bound there."""

    p50: float | None = None
    p90: float | None = None
    later: float | None = None

    def verdict(self, ours: list[float], bare: list[float]) -> str:
        """The bounds, then ✓ if ours is within all of them, else ✗."""
        median, bare_median = statistics.median(ours), statistics.median(bare)
        bounds, met = [], []
        if self.p50 is not None:
            bounds.append(f"≤{self.p50:.1f}")
            met.append(median / bare_median <= self.p50)
        if self.p90 is not None:
            bounds.append(f"≤{self.p90:.1f}")
            met.append(_p90(ours) / _p90(bare) <= self.p90)
        text = "/".join(bounds) + "×" if bounds else ""
        if self.later is not None:
            text += f"≤+{self.later:.1f} ms"
            met.append(median - bare_median <= self.later)
        return f"{text} {'✓' if all(met) else '✗'}"


SIMPLE = Target(p50=1.0, p90=1.2)
"""A question from an idle app, a form of 4, each of questions asked back to back."""

FIRST = Target(p50=1.2)
"""The first question of a kind, and the cold start."""

FRAME = Target(later=1000 / 60)
"""On the terminal: a question visible at most one frame (at 60 Hz) after bare Textual's."""


def check(met: bool) -> str:
    """✓ or ✗: whether a figure that is not a row meets its target."""
    return "✓" if met else "✗"


def _cells(ours: list[float], bare: list[float]) -> str:
    o = (statistics.median(ours), _p90(ours))
    b = (statistics.median(bare), _p90(bare))
    return f"{o[0]:6.1f}/{o[1]:6.1f} {b[0]:6.1f}/{b[1]:6.1f} {o[0] / b[0]:4.2f}/{o[1] / b[1]:4.2f}×"


def _later(ours: list[float], bare: list[float]) -> str:
    """How many milliseconds after bare Textual's ours is there, at the median wall time."""
    return f"{statistics.median(ours) - statistics.median(bare):+6.1f}"


def row(
    case: str, ours: list[tuple[float, float]], bare: list[tuple[float, float]], target: Target
) -> None:
    ours_wall, bare_wall = [s[0] for s in ours], [s[0] for s in bare]
    walls = _cells(ours_wall, bare_wall)
    cpus = _cells([s[1] for s in ours], [s[1] for s in bare])
    later = _later(ours_wall, bare_wall)
    verdict = target.verdict(ours_wall, bare_wall)
    print(f"{case:<34} {len(ours):>4} │ {walls} │ {cpus}    │ {later} │ {verdict}", flush=True)


def wall_row(
    case: str, ours: list[float], bare: list[float], target: Target, note: str = ""
) -> None:
    later = _later(ours, bare)
    cells = _cells(ours, bare)
    verdict = target.verdict(ours, bare)
    print(
        f"{case:<34} {len(ours):>4} │ {cells} │ {note:<{NOTE_WIDTH}} │ {later} │ {verdict}",
        flush=True,
    )


def section(title: str) -> None:
    print(
        f"\n{title}  (median/p90 ms, ratio p50/p90; later: ours − bare at p50, ms, a frame"
        f" is 16.7)\n{HEADER}\n{'─' * len(HEADER)}",
        flush=True,
    )


async def headless(args: argparse.Namespace) -> None:
    section("headless: first frame with the question, answer widget focused")
    for kind in KINDS:
        ours: list[tuple[float, float]] = []
        bare: list[tuple[float, float]] = []
        for _ in range(args.rounds):  # alternating, so a drift in the machine's speed is shared
            ours += await idle_case(True, kind, args.reps // args.rounds, 2)
            bare += await idle_case(False, kind, args.reps // args.rounds, 2)
        row(
            f"{kind}{' of 10' if 'choice' in kind else ''}{' of 4' if kind == 'form' else ''}",
            ours,
            bare,
            SIMPLE,
        )
    built_in: list[float] = []
    for idle in [*args.first_idle, None] if args.first_reps else []:
        for kind in KINDS:
            ours, bare = [], []
            for _ in range(args.first_reps):
                ours += await first_case(True, kind, 1, idle, built_in)
                bare += await first_case(False, kind, 1, idle)
            case = f"first {kind}, {'once built' if idle is None else f'{idle:g} s idle'}"
            row(case, ours, bare, FIRST)
    if built_in:
        print(
            f"common modals built ahead {statistics.median(built_in) * 1000:.0f} ms (median; "
            f"p90 {_p90(built_in) * 1000:.0f} ms) after the app was ready"
        )
    for kind in KINDS if args.fresh_reps else []:
        ours, bare = [], []
        for _ in range(args.fresh_reps):
            ours.append(fresh_process_first(True, kind))
            bare.append(fresh_process_first(False, kind))
        row(f"first {kind}, fresh process", ours, bare, FIRST)
    if args.burst:
        burst_rows(args.burst)


def fresh_process_first(ours: bool, kind: str) -> tuple[float, float]:
    """ask → painted of the first question of `kind`, asked at once in a fresh app in a
    fresh process: what a program meets the first time it asks. Nothing of pydantic's or
    ours has run in that process before, so what the first question loads or builds is
    timed too (in the rows above, only the first app of the run pays it)."""
    wall, cpu = run_child(__file__, "--fresh-child", "ours" if ours else "bare", kind)
    return wall, cpu


def fresh_child(side: str, kind: str) -> None:
    """The child of `fresh_process_first`: one question, its span printed as JSON."""
    [(wall, cpu)] = asyncio.run(first_case(side == "ours", kind, 1, 0.0))
    print(json.dumps([wall, cpu]))


def burst_in_process(ours: bool, questions: int) -> Burst:
    """`burst_case` in a process of its own: memory one side has freed is not the other's to
    reuse (in one process, the side run second grew by nothing), and neither side finds
    what the rows before it loaded and built."""
    burst = run_child(__file__, "--burst-child", "ours" if ours else "bare", str(questions))
    burst["spans"] = [tuple(span) for span in burst["spans"]]
    return Burst(**burst)


def burst_child(side: str, questions: str) -> None:
    """The child of `burst_in_process`: its `Burst` printed as JSON."""
    print(json.dumps(asdict(asyncio.run(burst_case(side == "ours", int(questions))))))


def burst_rows(questions: int) -> None:
    ours = burst_in_process(True, questions)
    bare = burst_in_process(False, questions)
    section(f"headless: {questions:,} choice questions back to back")
    row("ask → painted, all", ours.spans, bare.spans, SIMPLE)
    first, last = ours.spans[:100], ours.spans[-100:]
    row("ask → painted, first 100", first, bare.spans[:100], SIMPLE)
    row("ask → painted, last 100", last, bare.spans[-100:], SIMPLE)
    # "As fast as the first 100": within the rows' own bound on ours against bare.
    last_p50, first_p50 = (statistics.median(s[0] for s in spans) for spans in (last, first))
    drift = last_p50 / first_p50
    rate = ours.per_second / bare.per_second
    rss = ours.rss_growth_mib / max(bare.rss_growth_mib, 0.1)
    objects = ours.objects_growth / max(bare.objects_growth, 1)
    print(
        f"last 100 as fast as the first 100: p50 {last_p50:.1f} against {first_p50:.1f} ms,"
        f" {drift:.2f}× (target ≤1.2× {check(drift <= 1.2)})\n"
        f"requests per second: ours {ours.per_second:.1f}, bare {bare.per_second:.1f},"
        f" {rate:.2f}× (target ≥1.0× {check(rate >= 1.0)})\n"
        f"RSS growth, question 100 → {questions}: ours {ours.rss_growth_mib:.1f} MiB,"
        f" bare {bare.rss_growth_mib:.1f} MiB (target ≤1.2× {check(rss <= 1.2)})\n"
        f"gc-tracked objects growth, same span: ours {ours.objects_growth:,},"
        f" bare {bare.objects_growth:,} (target ≤2× {check(objects <= 2)})",
        flush=True,
    )


def terminal(args: argparse.Namespace) -> None:
    section("terminal (pty + pyte): ask → question on the emulated screen; wall only")
    for kind in TERMINAL_KINDS:
        ours: list[float] = []
        bare: list[float] = []
        cpu = {"ours": 0.0, "bare": 0.0}
        for _ in range(args.rounds):
            o = terminal_run(True, kind, args.pty_reps // args.rounds, back_to_back=False)
            b = terminal_run(False, kind, args.pty_reps // args.rounds, back_to_back=False)
            ours += o.spans
            bare += b.spans
            cpu["ours"] += o.cpu_ms
            cpu["bare"] += b.cpu_ms
        wall_row(kind, ours, bare, FRAME, f"process CPU ours/bare {cpu['ours'] / cpu['bare']:.2f}×")
    for kind in TERMINAL_KINDS:
        ours, bare = [], []
        for _ in range(args.pty_first_reps):
            ours += terminal_run(True, kind, 1, back_to_back=False, at_once=True).spans
            bare += terminal_run(False, kind, 1, back_to_back=False, at_once=True).spans
        wall_row(f"first {kind}, asked at once", ours, bare, FRAME, "a fresh process each")
    if args.pty_burst:
        o = terminal_run(True, "choice", args.pty_burst, back_to_back=True)
        b = terminal_run(False, "choice", args.pty_burst, back_to_back=True)
        rate = b.asking / o.asking
        with_start = b.wall / o.wall
        wall_row(
            f"{args.pty_burst} back to back, all",
            o.spans,
            b.spans,
            FRAME,
            f"req/s {rate:.2f}× ({with_start:.2f}× from the process start)",
        )
        wall_row("  first 100", o.spans[:100], b.spans[:100], FRAME)
        wall_row("  last 100", o.spans[-100:], b.spans[-100:], FRAME)
    cold_ours, cold_bare = [], []
    for _ in range(args.cold_reps):
        cold_ours.append(cold_ask(True))
        cold_bare.append(cold_ask(False))
    if args.cold_reps:
        wall_row("cold: elicit-tui ask vs bare modal", cold_ours, cold_bare, FIRST)


TERMINAL_KINDS = ("choice", "text", "confirmation", "tool_approval", "form", "questions")
"""The kinds timed on the terminal: one of each shape of dialog (a secret is drawn as a text
is, a multiple choice as a choice)."""


PROJECT = Path(__file__).resolve().parent.parent


def compile_project() -> None:
    """Write the bytecode of the project's packages, as installing a wheel does: an editable
    install under `PYTHONDONTWRITEBYTECODE` would otherwise compile every module of ours at
    each process start, while Textual's come compiled, and the cold start would time that."""
    for package in ("tui", "widgets", "styles"):
        compileall.compile_dir(PROJECT / package, quiet=1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--reps", type=int, default=30, help="questions per kind, headless")
    parser.add_argument("--rounds", type=int, default=2, help="alternations of ours and bare")
    parser.add_argument("--first-reps", type=int, default=10, help="fresh apps per kind")
    parser.add_argument(
        "--first-idle",
        type=float,
        nargs="+",
        default=[0.0, 0.1],
        help="seconds a fresh app is idle before its first question: the common modals are "
        "built ahead from its first frame on (0: asked before that, 0.1: while); a row of "
        "questions asked once they are built follows",
    )
    parser.add_argument(
        "--fresh-reps", type=int, default=6, help="fresh processes per kind, first question"
    )
    parser.add_argument("--fresh-child", nargs=2, metavar=("SIDE", "KIND"), help=argparse.SUPPRESS)
    parser.add_argument("--burst-child", nargs=2, metavar=("SIDE", "N"), help=argparse.SUPPRESS)
    parser.add_argument("--burst", type=int, default=1000, help="questions back to back")
    parser.add_argument("--pty-reps", type=int, default=20, help="questions per kind, pty")
    parser.add_argument("--pty-burst", type=int, default=300, help="back to back on the pty")
    parser.add_argument(
        "--pty-first-reps",
        type=int,
        default=8,
        help="fresh processes per kind whose agent asks at once as the app starts, pty",
    )
    parser.add_argument("--cold-reps", type=int, default=6, help="cold starts a side (0: none)")
    parser.add_argument(
        "--only",
        nargs="+",
        choices=["headless", "burst", "terminal"],
        default=["headless", "terminal"],
    )
    args = parser.parse_args()
    if args.fresh_child:
        fresh_child(*args.fresh_child)
        return
    if args.burst_child:
        burst_child(*args.burst_child)
        return
    print(
        f"elicit-tui vs bare Textual, {SIZE[0]}x{SIZE[1]}, python {sys.version.split()[0]},"
        f" load {os.getloadavg()[0]:.2f}"
    )
    started = time.perf_counter()
    if "headless" in args.only:
        asyncio.run(headless(args))
    elif "burst" in args.only:
        burst_rows(args.burst)
    if "terminal" in args.only:
        compile_project()
        terminal(args)
    print(f"\nwhole run: {time.perf_counter() - started:.0f} s, load {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
