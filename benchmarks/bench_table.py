"""Every figure of the performance budget in one run: elicit-tui beside bare Textual.

Each case runs elicit-tui's app and a bare Textual app one after the other in this process,
headless at 80x24, and reports the median and p90 of wall time and of the process's CPU time
(`time.process_time`, steadier than wall time on a busy machine), and ours ÷ bare.

* ask → painted: from a thread calling `queue.ask()` (bare: posting a message and waiting)
  to the first compositor refresh after the modal became the active screen. The bare app
  pushes a fresh `ModalScreen` holding the equivalent stock widget (`OptionList`,
  `SelectionList`, `Input`, two `Button`s, `Select`, one `Label` + `Input` per form field).
* filter key → repainted: one letter or Backspace typed on a 10,000-option choice; the bare
  app re-fills its `OptionList` with the options that match.
* back to back: the thread asks choice questions one after another and each is answered
  with Enter as soon as it is painted, each side in a process of its own; requests per second, ask → painted over the run and
  for the first and last 100, the growth of RSS and of gc-tracked objects from request 100
  to the last, and the widgets still alive that no screen holds any more.
* `import` and cold start run in fresh processes, alternating ours and bare, with the
  project's bytecode compiled first; cold start is from process start to the question
  painted on a pseudo-terminal. Beside `import pydantic` (lazy, as `import tui` is) the
  request models and queue are set against a one-model pydantic program, and a bare app
  that validates one pydantic model shows the least a pydantic front end pays.

Repetitions are small so that one run takes a few minutes: `--reps` for the simple kinds,
fewer for forms, the 10,000- and 100,000-option cases (`--big-reps`), `--burst` questions
back to back. Run: `.venv/bin/python benchmarks/bench_table.py [--reps 20] [--burst 1000]`
(`--only processes` or `--only in-process` for one part; `--only big filter` for some
sections: simple, big, filter, burst, process).
"""

from __future__ import annotations

import argparse
import asyncio
import compileall
import gc
import json
import os
import pty
import queue
import resource
import select
import signal
import statistics
import struct
import subprocess
import sys
import termios
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import asdict, dataclass
from fcntl import ioctl
from pathlib import Path
from typing import Any, ClassVar
from unittest.mock import patch

from bench_form import NaiveForm, schema
from fresh_process import run_child
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
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
    Select,
    SelectionList,
)

from tui.app.app import ElicitationApp
from tui.core import limits
from tui.core.models import (
    ChoiceRequest,
    ConfirmationRequest,
    ElicitationResult,
    FormRequest,
    MultiChoiceRequest,
    Request,
    SecretRequest,
    TextRequest,
)
from tui.core.queue import ElicitationQueue
from widgets.base import ElicitationModal
from widgets.form import FormModal

SIZE = (80, 24)
Clock = tuple[float, float]
"""A wall-clock (`perf_counter`) and a CPU-time (`process_time`) reading, in seconds."""


def _now() -> Clock:
    return time.perf_counter(), time.process_time()


@dataclass(frozen=True)
class Span:
    """Milliseconds between two clock readings: wall and CPU."""

    wall: float
    cpu: float

    @classmethod
    def between(cls, start: Clock, end: Clock) -> Span:
        return cls((end[0] - start[0]) * 1000, (end[1] - start[1]) * 1000)


WORDS = [
    "alpha",
    "bravo",
    "charlie",
    "delta",
    "echo",
    "foxtrot",
    "golf",
    "hotel",
    "india",
    "juliet",
    "kilo",
    "lima",
]


def labels(count: int) -> list[str]:
    """`count` distinct option labels that a typed letter narrows down."""
    return [f"{WORDS[i % len(WORDS)]} {i}" for i in range(count)]


# -- the bare Textual app ---------------------------------------------------------------


class Ask(Message):
    """From the asking thread: push a fresh modal built by `make`."""

    def __init__(self, make: Callable[[], ModalScreen[None]]) -> None:
        super().__init__()
        self.make = make


class BareModal(ModalScreen[None]):
    """A stock ModalScreen holding `widgets`; Enter dismisses it."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("enter", "done", priority=True)]

    def __init__(self, *widgets: Widget) -> None:
        super().__init__()
        self.widgets = widgets

    def compose(self) -> ComposeResult:
        yield from self.widgets

    def action_done(self) -> None:
        self.dismiss(None)


class FilteringModal(BareModal):
    """An OptionList that a typed letter filters, the way a bare app would."""

    def __init__(self, prompts: list[str]) -> None:
        super().__init__(OptionList(*prompts))
        self.prompts = prompts
        self.needle = ""

    def on_key(self, event: Any) -> None:
        if event.key == "backspace":
            self.needle = self.needle[:-1]
        elif event.is_printable and event.character:
            self.needle += event.character
        else:
            return
        event.stop()
        self.query_one(OptionList).set_options(p for p in self.prompts if self.needle in p)


class BareApp(App[None]):
    """A header, a label and a footer; each request pushes a fresh modal."""

    def __init__(self) -> None:
        super().__init__()
        self.answered = threading.Event()

    def compose(self) -> ComposeResult:
        yield Header()
        yield Label("bare Textual")
        yield Footer()

    def ask(self, make: Callable[[], ModalScreen[None]]) -> None:
        """From another thread: show the modal and wait until it is dismissed."""
        self.answered.clear()
        self.post_message(Ask(make))
        self.answered.wait()

    def on_ask(self, message: Ask) -> None:
        self.push_screen(message.make(), callback=lambda _: self.answered.set())


def bare_modal(kind: str, count: int = 10) -> Callable[[], ModalScreen[None]]:
    """The stock widgets that show what a request of `kind` shows."""
    makers: dict[str, Callable[[], ModalScreen[None]]] = {
        "choice": lambda: BareModal(OptionList(*labels(count))),
        "multi_choice": lambda: BareModal(SelectionList[str](*((p, p) for p in labels(count)))),
        "text": lambda: BareModal(Input()),
        "secret": lambda: BareModal(Input(password=True)),
        "confirmation": lambda: BareModal(Horizontal(Button("Yes"), Button("No"))),
        "form_enum": lambda: BareModal(Select((p, p) for p in labels(count))),
        "filter": lambda: FilteringModal(labels(count)),
    }
    return makers[kind]


def bare_form(fields: int) -> Callable[[], ModalScreen[Any]]:
    request = FormRequest(message=f"A form of {fields} fields", requested_schema=schema(fields))
    return lambda: NaiveForm(request)  # type: ignore[return-value]


# -- elicit-tui's requests ---------------------------------------------------------------


def our_request(kind: str, count: int = 10) -> Request:
    if count > limits.MAX_ITEMS:
        # Past the request limits, which refuse it from an agent; the limits are lifted here
        # to see how the screen scales.
        text = max(limits.MAX_TEXT, sum(map(len, labels(count))) + 1024)
        with patch.multiple(limits, MAX_ITEMS=count, MAX_TEXT=text):
            return our_request(kind, count)
    if kind == "choice":
        return ChoiceRequest(message="Which one?", options=labels(count))
    if kind == "multi_choice":
        return MultiChoiceRequest(message="Which ones?", options=labels(count))
    if kind == "text":
        return TextRequest(message="Service name?")
    if kind == "secret":
        return SecretRequest(message="API key?")
    if kind == "confirmation":
        return ConfirmationRequest(message="Deploy now?")
    if kind == "form_enum":
        prop = {"type": "string", "enum": labels(count), "title": "Region"}
        return FormRequest(
            message="Where?", requested_schema={"type": "object", "properties": {"region": prop}}
        )
    raise ValueError(kind)


def our_form(fields: int) -> Request:
    return FormRequest(message=f"A form of {fields} fields", requested_schema=schema(fields))


def fresh(request: Request) -> Request:
    return request.model_copy(update={"id": f"q{time.perf_counter_ns()}"})


# -- one app, asked from a thread ---------------------------------------------------------


class Session:
    """An app running headless, asked from a thread; records when each question painted."""

    def __init__(self, ours: bool) -> None:
        self.ours = ours
        self.queue = ElicitationQueue()
        self.app: App[Any] = ElicitationApp(self.queue, input_grace=0) if ours else BareApp()
        self.jobs: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self.started: list[Clock] = []
        self.painted: list[Clock] = []
        self.shown = asyncio.Event()
        self.woke = asyncio.Event()
        self.modal: Screen[Any] | None = None

    def is_modal(self, screen: Screen[Any]) -> bool:
        return isinstance(screen, ElicitationModal if self.ours else ModalScreen)

    def _asker(self, loop: asyncio.AbstractEventLoop) -> None:
        while (job := self.jobs.get()) is not None:
            self.started.append(_now())
            if self.ours:
                self.queue.ask(fresh(job))
            else:
                assert isinstance(self.app, BareApp)
                self.app.ask(job)
            loop.call_soon_threadsafe(self.woke.set)

    def _on_screen_change(self, screen: Screen[Any]) -> None:
        if self.is_modal(screen):
            screen.call_after_refresh(self._mark, screen)

    def _mark(self, screen: Screen[Any]) -> None:
        self.painted.append(_now())
        self.modal = screen
        self.shown.set()

    async def ask(self, job: Any) -> Screen[Any]:
        """Ask `job` (a request, or a bare modal's maker) and return the painted modal."""
        self.shown.clear()
        self.woke.clear()
        self.jobs.put(job)
        await asyncio.wait_for(self.shown.wait(), 600)
        modal, self.modal = self.modal, None
        assert modal is not None
        return modal

    def dismiss(self, screen: Screen[Any]) -> None:
        if isinstance(screen, ElicitationModal):
            screen.dismiss(ElicitationResult(action="cancel"))
        else:
            screen.dismiss(None)

    def spans(self, skip: int = 0) -> list[Span]:
        pairs = zip(self.started, self.painted, strict=True)
        return [Span.between(s, p) for s, p in pairs][skip:]

    async def __aenter__(self) -> Any:
        self._context = self.app.run_test(size=SIZE)
        pilot = self._pilot = await self._context.__aenter__()
        self.app.screen_change_signal.subscribe(self.app, self._on_screen_change, immediate=True)
        loop = asyncio.get_running_loop()
        threading.Thread(target=self._asker, args=(loop,), daemon=True).start()
        return pilot

    async def __aexit__(self, *exc: object) -> None:
        await settle(self._pilot)
        self.jobs.put(None)
        self.queue.close()
        await self._context.__aexit__(*exc)


async def settle(pilot: Any) -> None:
    await pilot.pause()
    await pilot.pause()


async def paint_case(ours: bool, job: Any, reps: int, warmup: int) -> list[Span]:
    """ask → painted of `reps` questions after `warmup`, each from an idle app."""
    session = Session(ours)
    async with session as pilot:
        for _ in range(warmup + reps):
            await settle(pilot)
            session.dismiss(await session.ask(job))
            await asyncio.wait_for(session.woke.wait(), 60)
    return session.spans(warmup)


async def form_case(ours: bool, fields: int, reps: int, warmup: int) -> tuple[list[Span], ...]:
    """First paint and every field mounted, for a form of `fields` fields."""
    session = Session(ours)
    whole: list[Span] = []
    async with session as pilot:
        for _ in range(warmup + reps):
            await settle(pilot)
            job = our_form(fields) if ours else bare_form(fields)
            modal = await session.ask(job)
            while isinstance(modal, FormModal) and not modal.complete:
                done = asyncio.Event()
                modal.call_after_refresh(done.set)
                await done.wait()
            whole.append(Span.between(session.started[-1], _now()))
            session.dismiss(modal)
            await asyncio.wait_for(session.woke.wait(), 60)
    return session.spans(warmup), whole[warmup:]


async def filter_case(ours: bool, count: int) -> list[Span]:
    """Key → repainted for letters narrowing a `count`-option list, then Backspaces."""
    session = Session(ours)
    keys = ["a", "l", "p", "h", "backspace", "backspace", "backspace", "backspace"]
    spans: list[Span] = []
    async with session as pilot:
        modal = await session.ask(
            our_request("choice", count) if ours else bare_modal("filter", count)
        )
        await settle(pilot)
        for key in keys:
            start = _now()
            await pilot.press(key)
            done = asyncio.Event()
            modal.call_after_refresh(done.set)
            await done.wait()
            spans.append(Span.between(start, _now()))
        session.dismiss(modal)
        await asyncio.wait_for(session.woke.wait(), 60)
    return spans


@dataclass
class Burst:
    """Figures of many questions answered back to back."""

    per_second: float
    spans: list[Span]
    rss_growth_mib: float
    objects_growth: int
    detached: Counter[str]


def _rss_mib() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def _detached_widgets(app: App[Any]) -> Counter[str]:
    """Widgets alive that no screen holds: what a closed modal left behind. A screen on the
    stack holds its widgets, and so does an installed one (a modal kept for reuse); a held
    widget holds its scroll bars, which are not among its children."""
    installed = [s for s in app._installed_screens.values() if isinstance(s, Screen)]
    held = {
        id(node)
        for screen in [*app.screen_stack, *installed]
        for node in screen.walk_children(with_self=True)
    }
    gc.collect()
    return Counter(
        type(o).__name__
        for o in gc.get_objects()
        if isinstance(o, Widget)
        and id(o) not in held
        and id(o.parent) not in held
        and not isinstance(o, App)
    )


async def burst_case(ours: bool, questions: int) -> Burst:
    session = Session(ours)
    job = our_request("choice") if ours else bare_modal("choice")
    marks: list[tuple[float, int]] = []
    paused = 0.0
    async with session as pilot:
        await settle(pilot)
        begin = time.perf_counter()
        for n in range(1, questions + 1):
            await session.ask(job)
            await pilot.press("enter")
            await asyncio.wait_for(session.woke.wait(), 60)
            if n in (100, questions):
                pause = time.perf_counter()
                gc.collect()
                marks.append((_rss_mib(), len(gc.get_objects())))
                paused += time.perf_counter() - pause
        elapsed = time.perf_counter() - begin - paused
        detached = _detached_widgets(session.app)
    (rss0, objects0), (rss1, objects1) = marks[0], marks[-1]
    return Burst(questions / elapsed, session.spans(), rss1 - rss0, objects1 - objects0, detached)


# -- fresh processes ---------------------------------------------------------------------


def _child_cpu_ms(run: Callable[[], None]) -> float:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    run()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return ((after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)) * 1000


IMPORTS = {
    "import tui": "import tui",
    "import pydantic": "import pydantic",
    "tui's models and queue": "from tui import ChoiceRequest, ElicitationQueue",
    "one pydantic model": (
        "from pydantic import BaseModel, Field\n"
        "class Question(BaseModel):\n"
        "    message: str = Field(min_length=1)\n"
    ),
}
"""`import tui` loads its names on first use, as `import pydantic` does; the second pair is
what an agent loads to ask: the request models and the queue, beside a one-model program."""


def import_span(code: str) -> Span:
    start = time.perf_counter()
    cpu = _child_cpu_ms(lambda: subprocess.run([sys.executable, "-c", code], check=True))
    return Span((time.perf_counter() - start) * 1000, cpu)


BARE_APP = """
from textual.app import App
from textual.widgets import Label
class Bare(App):
    def compose(self):
        yield Label("Zebra?")
Bare().run()
"""

PYDANTIC_APP = """
from pydantic import BaseModel, Field
from textual.app import App
from textual.widgets import Label
class Question(BaseModel):
    message: str = Field(min_length=1)
class Bare(App):
    def compose(self):
        yield Label(Question(message="Zebra?").message)
Bare().run()
"""
"""The bare app with one pydantic model validated before its first frame: what any
pydantic-based front end pays at least."""

OUR_APP = """
from tui import ChoiceRequest, ElicitationApp, ElicitationQueue
def agent(queue):
    queue.ask(ChoiceRequest(message="Zebra?", options=["yes", "no"]))
ElicitationApp(ElicitationQueue(), agent).run()
"""

ELICIT_TUI = str(Path(sys.executable).with_name("elicit-tui"))
COLD_STARTS: dict[str, list[str]] = {
    "elicit-tui ask": [ELICIT_TUI, "ask", "choice", "Zebra?", "-o", "yes", "-o", "no"],
    "ElicitationApp": [sys.executable, "-c", OUR_APP],
    "bare App+Label": [sys.executable, "-c", BARE_APP],
    "App+Label with pydantic": [sys.executable, "-c", PYDANTIC_APP],
}


def cold_start(argv: list[str], marker: bytes = b"Zebra?") -> Span:
    """From fork to `marker` drawn on a pseudo-terminal of 80x24; CPU time of the child."""
    start = time.perf_counter()
    pid, fd = pty.fork()
    if pid == 0:
        # Sized before the program starts, as a terminal emulator's pty is (not resized
        # from 0x0 while it draws its first frame).
        ioctl(pty.STDIN_FILENO, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
        os.environ["TERM"] = "xterm-256color"
        os.execv(argv[0], argv)
    seen = b""
    deadline = start + 30
    while marker not in seen and time.perf_counter() < deadline:
        if select.select([fd], [], [], 0.5)[0]:
            try:
                seen = seen[-200:] + os.read(fd, 65536)
            except OSError:
                break
    wall = (time.perf_counter() - start) * 1000
    os.kill(pid, signal.SIGKILL)
    _, _, usage = os.wait4(pid, 0)
    os.close(fd)
    if marker not in seen:
        raise RuntimeError(f"{argv[:3]} never drew {marker!r}")
    return Span(wall, (usage.ru_utime + usage.ru_stime) * 1000)


# -- report ---------------------------------------------------------------------------------


def _p90(values: list[float]) -> float:
    if len(values) == 1:
        return values[0]
    return statistics.quantiles(values, n=10, method="inclusive")[-1]


def _figures(spans: list[Span]) -> tuple[float, float, float, float]:
    walls, cpus = [s.wall for s in spans], [s.cpu for s in spans]
    return statistics.median(walls), _p90(walls), statistics.median(cpus), _p90(cpus)


HEADER = (
    f"{'case':<40} {'n':>4} │ {'ours wall':>15} {'bare wall':>15} {'ratio':>6} │"
    f" {'ours cpu':>15} {'bare cpu':>15} {'ratio':>6}"
)


def row(case: str, ours: list[Span], bare: list[Span]) -> None:
    o, b = _figures(ours), _figures(bare)
    print(
        f"{case:<40} {len(ours):>4} │ {o[0]:7.1f}/{o[1]:7.1f} {b[0]:7.1f}/{b[1]:7.1f}"
        f" {o[0] / b[0]:5.2f}× │ {o[2]:7.1f}/{o[3]:7.1f} {b[2]:7.1f}/{b[3]:7.1f}"
        f" {o[2] / b[2]:5.2f}×",
        flush=True,
    )


def section(title: str) -> None:
    print(f"\n{title}  (median/p90 ms)\n{HEADER}\n{'─' * len(HEADER)}", flush=True)


async def in_process(args: argparse.Namespace) -> None:
    if "simple" in args.only:
        await simple_rows(args)
    if "big" in args.only:
        await big_rows(args)
    if "filter" in args.only:
        await filter_rows(args)
    if "burst" in args.only:
        burst_rows(args)


async def simple_rows(args: argparse.Namespace) -> None:
    section("ask() → modal painted")
    for kind in ("choice", "multi_choice", "text", "secret", "confirmation"):
        ours = await paint_case(True, our_request(kind), args.reps, 2)
        bare = await paint_case(False, bare_modal(kind), args.reps, 2)
        row(f"{kind} (10 options)" if "choice" in kind else kind, ours, bare)
    for fields in (4, 50):
        reps = args.reps if fields < 10 else max(3, args.reps // 2)
        ours_first, ours_whole = await form_case(True, fields, reps, 2)
        bare_first, bare_whole = await form_case(False, fields, reps, 2)
        row(f"form {fields} fields: first paint", ours_first, bare_first)
        row(f"form {fields} fields: all mounted", ours_whole, bare_whole)


async def big_rows(args: argparse.Namespace) -> None:
    section("ask() → modal painted, long option lists")
    slowest = 0.0
    for count in args.big:
        reps = args.big_reps if count <= 10_000 else 1
        kinds = ("choice", "multi_choice", "form_enum") if count <= 10_000 else ("choice",)
        for kind in kinds:
            if count > 10_000 and slowest > 10_000:
                print(f"{kind} of {count:,} options: not run, 10,000 took {slowest / 1000:.0f} s")
                continue
            ours = await paint_case(True, our_request(kind, count), reps, 1)
            bare = await paint_case(False, bare_modal(kind, count), reps, 1)
            row(f"{kind} of {count:,} options", ours, bare)
            slowest = max(slowest, *(s.wall for s in ours))


async def filter_rows(args: argparse.Namespace) -> None:
    count = args.big[0]
    section(f"filter key → repainted, {count:,} options (a, l, p, h, 4× Backspace)")
    row("filter key stroke", await filter_case(True, count), await filter_case(False, count))


def burst_in_process(ours: bool, questions: int) -> Burst:
    """`burst_case` in a process of its own: memory one side has freed is not the other's to
    reuse (in one process, the side run second grew by nothing)."""
    burst = run_child(__file__, "--burst-child", "ours" if ours else "bare", str(questions))
    burst["spans"] = [Span(**span) for span in burst["spans"]]
    burst["detached"] = Counter(burst["detached"])
    return Burst(**burst)


def burst_child(side: str, questions: str) -> None:
    """The child of `burst_in_process`: its `Burst` printed as JSON."""
    burst = asyncio.run(burst_case(side == "ours", int(questions)))
    # `asdict` would rebuild the Counter from its items, counting them as keys.
    print(json.dumps({**asdict(burst), "detached": dict(burst.detached)}))


def burst_rows(args: argparse.Namespace) -> None:
    print(f"\n{args.burst:,} choice questions back to back (Enter as soon as painted)", flush=True)
    results = {
        "ours": burst_in_process(True, args.burst),
        "bare": burst_in_process(False, args.burst),
    }
    ours, bare = results["ours"], results["bare"]
    section("ask() → painted during the run")
    row("all questions", ours.spans, bare.spans)
    row("first 100", ours.spans[:100], bare.spans[:100])
    row("last 100", ours.spans[-100:], bare.spans[-100:])
    print(f"{'':<40}        {'ours':>15} {'bare':>15} {'ratio':>6}")
    print(
        f"{'requests per second':<40}        {ours.per_second:15.2f} {bare.per_second:15.2f}"
        f" {ours.per_second / bare.per_second:5.2f}×"
    )
    print(
        f"{'RSS growth, request 100 → last (MiB)':<40}        {ours.rss_growth_mib:15.1f}"
        f" {bare.rss_growth_mib:15.1f}"
    )
    print(
        f"{'gc objects growth, 100 → last':<40}        {ours.objects_growth:15,}"
        f" {bare.objects_growth:15,}"
    )
    for name, burst in results.items():
        total = sum(burst.detached.values())
        common = ", ".join(f"{n} {c}" for n, c in burst.detached.most_common(4))
        print(f"detached widgets alive, {name}: {total}" + (f" ({common})" if total else ""))


ROOT = Path(__file__).resolve().parent.parent


def compile_project() -> None:
    """Write the project's bytecode cache, as installing a wheel does for it and for Textual.

    Otherwise, under PYTHONDONTWRITEBYTECODE, every fresh process would compile our sources
    again while the bare app loads Textual's precompiled bytecode."""
    for package in ("tui", "widgets", "styles"):
        compileall.compile_dir(ROOT / package, quiet=1)


def out_of_process(args: argparse.Namespace) -> None:
    compile_project()
    section(f"fresh processes ({args.process_reps} each, alternating)")
    imports: dict[str, list[Span]] = {name: [] for name in IMPORTS}
    for _ in range(args.process_reps):
        for name, code in IMPORTS.items():
            imports[name].append(import_span(code))
    row("import tui vs import pydantic", imports["import tui"], imports["import pydantic"])
    row(
        "tui's models+queue vs one pydantic model",
        imports["tui's models and queue"],
        imports["one pydantic model"],
    )
    starts: dict[str, list[Span]] = {name: [] for name in COLD_STARTS}
    for _ in range(args.process_reps):
        for name, argv in COLD_STARTS.items():
            starts[name].append(cold_start(argv))
    row(
        "cold start: elicit-tui ask vs App+Label",
        starts["elicit-tui ask"],
        starts["bare App+Label"],
    )
    row(
        "cold start: ElicitationApp vs App+Label",
        starts["ElicitationApp"],
        starts["bare App+Label"],
    )
    row(
        "cold start: App+Label+pydantic vs bare",
        starts["App+Label with pydantic"],
        starts["bare App+Label"],
    )


IN_PROCESS = ["simple", "big", "filter", "burst"]
SECTIONS = [*IN_PROCESS, "process"]
"""The benchmark's sections: simple kinds and forms, long option lists, filtering, questions
back to back, and fresh processes (import and cold start)."""

PARTS = {"in-process": IN_PROCESS, "processes": ["process"]}
"""Names for the sections run in this process and those run in fresh processes."""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--reps", type=int, default=20, help="questions per simple case")
    parser.add_argument("--big", type=int, nargs="+", default=[10_000, 100_000])
    parser.add_argument("--big-reps", type=int, default=3, help="questions per 10,000 case")
    parser.add_argument("--burst", type=int, default=1000, help="questions back to back")
    parser.add_argument("--process-reps", type=int, default=8)
    parser.add_argument("--burst-child", nargs=2, metavar=("SIDE", "N"), help=argparse.SUPPRESS)
    parser.add_argument(
        "--only",
        nargs="+",
        choices=[*SECTIONS, *PARTS],
        default=SECTIONS,
        help="run only these sections, or one part: in-process or processes (default: all)",
    )
    args = parser.parse_args()
    if args.burst_child:
        burst_child(*args.burst_child)
        return
    args.only = [section for name in args.only for section in PARTS.get(name, [name])]
    print(
        f"elicit-tui vs bare Textual, headless {SIZE[0]}x{SIZE[1]}, python {sys.version.split()[0]};"
        f" {args.reps} questions per simple kind after 2 warm-up, {args.big_reps} per 10,000"
        f" case, 1 per 100,000 case"
    )
    started = time.perf_counter()
    if set(args.only) & set(IN_PROCESS):
        asyncio.run(in_process(args))
    if "process" in args.only:
        out_of_process(args)
    print(f"\nwhole run: {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
