"""ask() → form painted, for 10 and 50 fields: elicit-tui's form beside a naive bare-Textual form.

Both are measured in the same process, headless (`run_test`), with the same clock and hook:

- start: `perf_counter()` in the agent thread, just before `queue.submit(request)`;
- painted: the modal screen has been pushed, composed and mounted (its Mount handlers ran,
  the first field has focus) and then a compositor refresh of that screen has completed —
  the moment the first `call_after_refresh` callback queued on the screen as it is pushed
  runs. In headless mode the refresh lays out and renders every visible line; only the write
  to the terminal is skipped.

The naive form is what a Textual app does without care: one `Label` + `Input` per property
in a fresh `ModalScreen`, inside a `VerticalScroll`, with a Submit button.

Each configuration runs in one app (as a person would have it open): `--warmup` requests
first (not counted: the first one loads CSS for new widget types), then `--runs` measured
ones. After each paint the modal is dismissed, and the next request is submitted only once
the UI is idle again (Pilot's `pause()`).

Run: .venv/bin/python benchmarks/bench_form.py [--runs 20] [--warmup 2] [--fields 10 50]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import threading
import time
from collections.abc import Callable
from typing import Any

from textual.app import App, ComposeResult
from textual.containers import VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, Input, Label

from tui.app import ElicitationApp
from tui.messages import QueueEventPosted
from tui.models import ElicitationResult, FormRequest
from tui.queue import ElicitationQueue, QueueEvent
from widgets.base import ElicitationModal

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
        self.queue.subscribe(lambda event: self.post_message(QueueEventPosted(event)))

    def on_queue_event_posted(self, message: QueueEventPosted) -> None:
        event: QueueEvent = message.event
        if event.type == "requested" and isinstance(event.request, FormRequest):
            request_id = event.request.id
            self.push_screen(
                NaiveForm(event.request),
                callback=lambda result: (
                    self.queue.respond(request_id, result) if result is not None else None
                ),
            )


Clock = tuple[float, float]
"""A wall-clock (`perf_counter`) and a CPU-time (`process_time`) reading, in seconds."""


def _now() -> Clock:
    return time.perf_counter(), time.process_time()


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


async def measure(kind: str, fields: int, runs: int, warmup: int) -> list[Clock]:
    """Wall and CPU milliseconds from submit to paint, for `runs` requests after `warmup` ones."""
    queue = ElicitationQueue()
    app: App[Any] = ElicitationApp(queue, input_grace=0) if kind == "ours" else NaiveApp(queue)
    modal_type: type[Screen[Any]] = ElicitationModal if kind == "ours" else NaiveForm
    started: list[Clock] = []
    painted: list[Clock] = []
    shown = asyncio.Event()

    def mark(screen: Screen[Any]) -> None:
        painted.append(_now())
        screen.dismiss(ElicitationResult(action="cancel"))
        shown.set()

    def on_screen_change(screen: Screen[Any]) -> None:
        if isinstance(screen, modal_type) and not screen.is_mounted:
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
        ((end[0] - start[0]) * 1000, (end[1] - start[1]) * 1000)
        for start, end in zip(started, painted, strict=True)
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
    print("wall: perf_counter; cpu: the process's CPU time (robust to a busy machine)")
    print(f"{'fields':>6}  {'form':<6}  {'median':>7}  {'p90':>7}  {'cpu med':>7}  {'cpu p90':>7}")
    for fields in args.fields:
        for kind in ("ours", "naive"):
            clocks = asyncio.run(measure(kind, fields, args.runs, args.warmup))
            wall, cpu = [c[0] for c in clocks], [c[1] for c in clocks]
            print(
                f"{fields:>6}  {kind:<6}  {statistics.median(wall):7.1f}  {_p90(wall):7.1f}  "
                f"{statistics.median(cpu):7.1f}  {_p90(cpu):7.1f}"
            )


if __name__ == "__main__":
    main()
