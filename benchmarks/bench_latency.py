"""How fast a question appears and an answer wakes the agent, beside bare Textual.

Two figures, each for a choice and a form, over many runs in one process, headless:

* ask → painted: from the agent thread calling `ask()` (bare: posting a message) to the
  first refresh after the modal became the active screen (`call_after_refresh`).
* key → wake: from the app receiving the Enter key event to the agent thread returning
  from `ask()` (bare: from `threading.Event.wait()`).

The bare-Textual baseline is a ModalScreen with the same widget (an OptionList, or one
Input per field) pushed on a message from a thread, and dismissed by Enter, which sets
an Event. Run: `python benchmarks/bench_latency.py [--questions N]`.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import threading
import time
from collections.abc import Callable
from typing import Any, ClassVar

from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.message import Message
from textual.screen import ModalScreen, Screen
from textual.widgets import Input, OptionList

from tui.app.app import ElicitationApp
from tui.cli.demo import DEPLOY_SCHEMA
from tui.core.models import ChoiceRequest, FormRequest, Request
from tui.core.queue import ElicitationQueue

CHOICE = ChoiceRequest(message="Which framework?", options=["FastAPI", "Django", "Flask"])
# The demo's deploy form, with a default for every field so Ctrl+S accepts it at once.
_DOMAIN = {**DEPLOY_SCHEMA["properties"]["domain"], "default": "api.example.com"}
FORM = FormRequest(
    message="Deploy where?",
    requested_schema={
        **DEPLOY_SCHEMA,
        "properties": {**DEPLOY_SCHEMA["properties"], "domain": _DOMAIN},
    },
)


class Timings:
    """Times of one question: when asked, painted, key received, agent woke."""

    def __init__(self) -> None:
        self.asked = self.painted = self.key = self.woke = 0.0


class Run:
    """The timings of every question asked in one app, and a flag per step for the driver."""

    def __init__(self, questions: int) -> None:
        self.timings = [Timings() for _ in range(questions)]
        self.current = 0
        self.painted = threading.Event()
        self.woke = threading.Event()

    @property
    def now(self) -> Timings:
        return self.timings[self.current]


def watch_paint(app: App[Any], run: Run, is_modal: Callable[[Screen[Any]], bool]) -> None:
    """Record the first refresh after a modal becomes the active screen."""

    def changed(screen: Screen[Any]) -> None:
        if is_modal(screen):

            def painted() -> None:
                run.now.painted = time.perf_counter()
                run.painted.set()

            screen.call_after_refresh(painted)

    app.screen_change_signal.subscribe(app, changed)


def agent_loop(run: Run, ask: Callable[[], None]) -> None:
    """Ask one question after another, each once the app has been idle for a moment."""
    for index in range(len(run.timings)):
        time.sleep(IDLE)
        run.current = index
        run.now.asked = time.perf_counter()
        ask()
        run.now.woke = time.perf_counter()
        run.woke.set()


IDLE = 0.05
"""Seconds the app is left idle before each question, so every ask meets a settled app."""


# -- elicit-tui ----------------------------------------------------------------------


class TimedElicitationApp(ElicitationApp):
    def __init__(self, request: Request, run: Run) -> None:
        self.run_timings = run
        self.request = request
        super().__init__(ElicitationQueue(), self.agent, input_grace=0)

    def agent(self, queue: ElicitationQueue) -> None:
        def ask() -> None:
            queue.ask(self.request.model_copy(update={"id": f"q{time.perf_counter_ns()}"}))

        agent_loop(self.run_timings, ask)

    def on_load(self) -> None:
        watch_paint(self, self.run_timings, lambda s: s.__class__.__name__.endswith("Modal"))

    async def on_event(self, event: events.Event) -> None:
        if isinstance(event, events.Key) and event.key in ACCEPT_KEYS:
            self.run_timings.now.key = time.perf_counter()
        await super().on_event(event)


ACCEPT_KEYS = ("enter", "ctrl+s")


# -- bare Textual ----------------------------------------------------------------------


class Ask(Message):
    """A request from the thread: show the modal."""


class BareModal(ModalScreen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [Binding("enter,ctrl+s", "done", priority=True)]

    def __init__(self, fields: int) -> None:
        super().__init__()
        self.fields = fields

    def compose(self) -> ComposeResult:
        if self.fields:
            for n in range(self.fields):
                yield Input(placeholder=f"field {n}")
        else:
            yield OptionList("FastAPI", "Django", "Flask")

    def action_done(self) -> None:
        self.dismiss(None)


class BareApp(App[None]):
    def __init__(self, fields: int, run: Run) -> None:
        super().__init__()
        self.fields = fields
        self.run_timings = run
        self.answered = threading.Event()

    def on_load(self) -> None:
        watch_paint(self, self.run_timings, lambda screen: isinstance(screen, BareModal))

    def on_mount(self) -> None:
        threading.Thread(target=agent_loop, args=(self.run_timings, self.ask), daemon=True).start()

    def ask(self) -> None:
        self.answered.clear()
        self.post_message(Ask())
        self.answered.wait()

    def on_ask(self) -> None:
        self.push_screen(BareModal(self.fields), callback=lambda _: self.answered.set())

    async def on_event(self, event: events.Event) -> None:
        if isinstance(event, events.Key) and event.key in ACCEPT_KEYS:
            self.run_timings.now.key = time.perf_counter()
        await super().on_event(event)


# -- measuring ---------------------------------------------------------------------------


async def drive(app: App[Any], run: Run, key: str) -> list[Timings]:
    """Answer every question the app shows with `key`, and return the timings."""
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in run.timings:
            await wait_until(pilot, run.painted.is_set)
            run.painted.clear()
            await pilot.press(key)
            await wait_until(pilot, run.woke.is_set)
            run.woke.clear()
    return run.timings


async def wait_until(pilot: Any, condition: Callable[[], bool], timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise TimeoutError("the benchmark run stalled")
        await pilot.pause(0.001)


def summary(values: list[float]) -> str:
    ms = sorted(v * 1000 for v in values)
    p90 = ms[min(len(ms) - 1, round(0.9 * (len(ms) - 1)))]
    return f"median {statistics.median(ms):7.2f} ms   p90 {p90:7.2f} ms"


async def measure(questions: int) -> None:
    cases: list[tuple[str, Callable[[Run], App[Any]], str]] = [
        ("choice  elicit-tui", lambda run: TimedElicitationApp(CHOICE, run), "enter"),
        ("choice  bare Textual", lambda run: BareApp(0, run), "enter"),
        ("form(4) elicit-tui", lambda run: TimedElicitationApp(FORM, run), "ctrl+s"),
        ("form(4) bare Textual", lambda run: BareApp(4, run), "ctrl+s"),
    ]
    results: dict[str, list[Timings]] = {}
    for name, make, key in cases:
        run = Run(questions + WARM_UP)
        results[name] = (await drive(make(run), run, key))[WARM_UP:]
    print(f"{questions} questions each (after {WARM_UP} to warm up), headless, 80x24\n")
    print("ask() -> modal painted")
    for name, timings in results.items():
        print(f"  {name:<22} {summary([t.painted - t.asked for t in timings])}")
    print("key press -> agent thread wakes")
    for name, timings in results.items():
        print(f"  {name:<22} {summary([t.woke - t.key for t in timings])}")


WARM_UP = 3


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--questions", type=int, default=40)
    asyncio.run(measure(parser.parse_args().questions))


if __name__ == "__main__":
    main()
