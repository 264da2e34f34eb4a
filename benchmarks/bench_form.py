"""ask() → form painted, for 10 and 50 fields: elicit-tui's form beside a naive bare-Textual form.

Both are measured in the same process, headless (`run_test`), with the same clock and hook:

- start: a clock reading in the agent thread just before `queue.ask(request)` (which submits);
- painted: the modal screen has been pushed, composed and mounted (its Mount handlers ran,
  the first field has focus) and then a compositor refresh of that screen has completed —
  the moment the first `call_after_refresh` callback queued on the screen as it is pushed
  runs. In headless mode the refresh lays out and renders every visible line; only the write
  to the terminal is skipped;
- all: the first refresh after which every field is mounted. elicit-tui's form builds only
  the fields that fill the first screen before that first paint and mounts the rest right
  after it; the naive form mounts everything first, so for it "all" is "painted".

The naive form is what a Textual app does without care: one `Label` + `Input` per property
in a fresh `ModalScreen`, inside a `VerticalScroll`, with a Submit button.

Each configuration runs in one app (as a person would have it open): `--warmup` requests
first (not counted: the first one loads CSS for new widget types), then `--runs` measured
ones. Once a form is whole it is dismissed, and the next request is submitted only when the
UI is idle again (Pilot's `pause()`).

Run: .venv/bin/python benchmarks/bench_form.py [--runs 20] [--warmup 2] [--fields 10 50]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from textual.app import App, ComposeResult
from textual.containers import VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, Input, Label

from tui.app.app import ElicitationApp
from tui.app.messages import QueueEventPosted
from tui.core.models import ElicitationResult, FormRequest
from tui.core.queue import ElicitationQueue, QueueEvent
from widgets.base import ElicitationModal
from widgets.form import FormModal

SIZE = (100, 40)
_KINDS: list[dict[str, Any]] = [
    {"type": "string", "minLength": 2, "description": "Who to call"},
    {"type": "string", "format": "email"},
    {"type": "integer", "minimum": 1, "maximum": 100, "default": 42},
    {"type": "number", "minimum": 0, "maximum": 1},
    {"type": "boolean", "default": True},
    {"type": "string", "enum": ["low", "medium", "high"], "default": "medium"},
    {"type": "string", "enum": [f"region-{i}" for i in range(12)]},
    {"type": "array", "items": {"enum": ["a", "b", "c", "d"]}, "minItems": 1},
    {"type": "string", "format": "date"},
]
"""Property shapes cycled through to build a form: every kind of field the subset has."""


def schema(fields: int) -> dict[str, Any]:
    """A form of `fields` properties cycling through every field kind, a third required."""
    properties = {
        f"field_{i}": {**_KINDS[i % len(_KINDS)], "title": f"Field {i}"} for i in range(fields)
    }
    return {"type": "object", "properties": properties, "required": list(properties)[::3]}


class NaiveForm(ModalScreen[ElicitationResult]):
    """One Label + Input per property, the way a first Textual form is written."""

    def __init__(self, request: FormRequest) -> None:
        super().__init__()
        self.request = request

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield Label(self.request.message)
            for name, prop in self.request.requested_schema["properties"].items():
                yield Label(prop.get("title", name))
                yield Input(placeholder=prop.get("description", ""))
            yield Button("Submit")

    def on_mount(self) -> None:
        self.query(Input).first().focus()


class NaiveApp(App[None]):
    """Shows each queued form request as a `NaiveForm`, and answers with its result."""

    def __init__(self, queue: ElicitationQueue) -> None:
        super().__init__()
        self.queue = queue

    def on_mount(self) -> None:
        self.queue.subscribe(self._post)

    def _post(self, event: QueueEvent) -> None:
        self.post_message(QueueEventPosted(event))

    def on_queue_event_posted(self, message: QueueEventPosted) -> None:
        request = message.event.request
        if message.event.type == "requested" and isinstance(request, FormRequest):

            def answer(result: ElicitationResult | None) -> None:
                if result is not None:
                    self.queue.respond(request.id, result)

            self.push_screen(NaiveForm(request), callback=answer)


Clock = tuple[float, float]
"""A wall-clock (`perf_counter`) and a CPU-time (`process_time`) reading, in seconds."""


def _now() -> Clock:
    return time.perf_counter(), time.process_time()


@dataclass(frozen=True)
class Timing:
    """One request, in milliseconds from the submit."""

    painted: float
    """Until the form was first painted (wall clock)."""
    cpu: float
    """The process's CPU time until then: robust to other work on a busy machine."""
    whole: float
    """Until every field was mounted and painted (the same as `painted` for the naive form)."""


def _asker(
    queue: ElicitationQueue, fields: int, go: threading.Semaphore, started: list[Clock]
) -> Callable[[], None]:
    def ask_all() -> None:
        while go.acquire() and not queue.closed:
            request = FormRequest(
                message=f"A form of {fields} fields", requested_schema=schema(fields)
            )
            started.append(_now())
            queue.ask(request)

    return ask_all


async def measure(kind: str, fields: int, runs: int, warmup: int) -> list[Timing]:
    """Timings of `runs` requests, after `warmup` ones, shown by `kind` ("ours" or "naive")."""
    queue = ElicitationQueue()
    app: App[Any] = ElicitationApp(queue, input_grace=0) if kind == "ours" else NaiveApp(queue)
    modal_type: type[Screen[Any]] = ElicitationModal if kind == "ours" else NaiveForm
    started: list[Clock] = []
    painted: list[Clock] = []
    whole: list[Clock] = []
    shown = asyncio.Event()

    def mark(screen: Screen[Any]) -> None:
        now = _now()
        if len(painted) < len(started):
            painted.append(now)
        if isinstance(screen, FormModal) and not screen.complete:
            screen.call_after_refresh(mark, screen)
            return
        whole.append(now)
        screen.dismiss(ElicitationResult(action="cancel"))
        shown.set()

    def on_screen_change(screen: Screen[Any]) -> None:
        if isinstance(screen, modal_type):  # a new modal, or one kept and reloaded
            screen.call_after_refresh(mark, screen)

    go = threading.Semaphore(0)
    async with app.run_test(size=SIZE) as pilot:
        app.screen_change_signal.subscribe(app, on_screen_change, immediate=True)
        threading.Thread(target=_asker(queue, fields, go, started), daemon=True).start()
        for _ in range(warmup + runs):
            # every run starts from an idle UI: the last form gone, the main screen redrawn
            await pilot.pause()
            await pilot.pause()
            shown.clear()
            go.release()
            await asyncio.wait_for(shown.wait(), 60)
        await pilot.pause()
        queue.close()
        go.release()
    return [
        Timing(
            painted=(first[0] - start[0]) * 1000,
            cpu=(first[1] - start[1]) * 1000,
            whole=(last[0] - start[0]) * 1000,
        )
        for start, first, last in zip(started, painted, whole, strict=True)
    ][warmup:]


def _p90(values: list[float]) -> float:
    return statistics.quantiles(values, n=10, method="inclusive")[-1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--warmup", type=int, default=2)
    parser.add_argument("--fields", type=int, nargs="+", default=[10, 50])
    args = parser.parse_args()
    print(f"ask() → form painted, ms ({args.runs} runs after {args.warmup} warm-up, {SIZE})")
    print("painted: first paint (wall); cpu: the process's CPU time until then; all: every field")
    header = ["fields", "form", "median", "p90", "cpu med", "cpu p90", "all med", "all p90"]
    print(f"{header[0]:>6}  {header[1]:<6}" + "".join(f"  {h:>7}" for h in header[2:]))
    for fields in args.fields:
        for kind in ("ours", "naive"):
            timings = asyncio.run(measure(kind, fields, args.runs, args.warmup))
            columns = [[t.painted for t in timings], [t.cpu for t in timings]]
            columns.append([t.whole for t in timings])
            figures = [f(c) for c in columns for f in (statistics.median, _p90)]
            print(f"{fields:>6}  {kind:<6}" + "".join(f"  {x:7.1f}" for x in figures))


if __name__ == "__main__":
    main()
