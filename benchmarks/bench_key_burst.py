"""What handling keys in order costs when they arrive all at once, beside bare Textual.

A burst of keys is posted to the app without waiting (as a paste, tmux or expect delivers
them), and timed until the last one has taken effect:

* text: N characters typed into the text question's field (bare: an Input on a ModalScreen);
* arrows: N Down presses on a choice of N+1 options (bare: an OptionList on a ModalScreen);
* pages: N Right and Left presses through a batch of four questions and its Review page:
  three right, three left, and so on, then four right to end on Review, reached only then
  (bare: a `Tabs` of five tabs on a ModalScreen).

elicit-tui hands Textual a key only once the previous one is handled, except text typed into
a text field, which goes straight into the field's queue; bare Textual forwards every key at
once (and so runs priority bindings too early: the bug this ordering fixes).
Run: `python benchmarks/bench_key_burst.py [--keys N] [--runs R]`.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time
from collections.abc import Callable
from typing import Any, cast

from textual import events
from textual.app import App, ComposeResult
from textual.screen import ModalScreen
from textual.widget import Widget
from textual.widgets import Input, OptionList, Tabs

from tui.app.app import ElicitationApp
from tui.core.models import ChoiceRequest, Question, QuestionsRequest, Request, TextRequest
from tui.core.queue import ElicitationQueue
from widgets.questions import QuestionsModal


class BareModal(ModalScreen[None]):
    def __init__(self, make: Callable[[], Widget]) -> None:
        super().__init__()
        self.make = make

    def compose(self) -> ComposeResult:
        yield self.make()


class BareApp(App[None]):
    def __init__(self, make: Callable[[], Widget]) -> None:
        super().__init__()
        self.make = make

    def on_mount(self) -> None:
        self.push_screen(BareModal(self.make))


def elicit_app(request: Request) -> ElicitationApp:
    def agent(queue: ElicitationQueue) -> None:
        queue.ask(request)

    return ElicitationApp(ElicitationQueue(), agent, input_grace=0)


async def burst(
    app: App[Any], keys: list[str], done: Callable[[App[Any], Widget], bool]
) -> tuple[float, float]:
    """Seconds of wall and CPU time from posting `keys` to `done(app, widget)`, the widget
    focused before the first key."""
    async with app.run_test(size=(80, 24)) as pilot:
        while not (isinstance(app.screen, ModalScreen) and app.focused is not None):
            await pilot.pause(0.01)
        await pilot.pause(0.1)
        widget = app.focused
        assert widget is not None
        wall, cpu = time.perf_counter(), time.process_time()
        for key in keys:
            app.post_message(events.Key(key, key if len(key) == 1 else None))
        while not done(app, widget):
            await asyncio.sleep(0)
        return time.perf_counter() - wall, time.process_time() - cpu


def typed(count: int) -> Callable[[App[Any], Widget], bool]:
    return lambda _, widget: isinstance(widget, Input) and len(widget.value) == count


def moved(count: int) -> Callable[[App[Any], Widget], bool]:
    return lambda _, widget: isinstance(widget, OptionList) and widget.highlighted == count


PAGES = 5
"""A batch of four questions and its Review page."""


def paging(count: int) -> list[str]:
    """About `count` keys: right ×3 and left ×3 in turn, then right ×4 onto the last page."""
    keys = ["right"] * 3 + ["left"] * 3
    return keys * max(0, (count - 4) // 6) + ["right"] * (PAGES - 1)


def on_last_page(app: App[Any], widget: Widget) -> bool:
    """Ours on Review; bare's strip on its fifth tab (its ids count from 1)."""
    if isinstance(widget, Tabs):
        return widget.active == f"tab-{PAGES}"
    return cast("QuestionsModal", app.screen).on_review


def batch() -> QuestionsRequest:
    return QuestionsRequest(
        message="A few decisions",
        questions=[
            Question(question=f"Question {n}?", header=f"Q{n}", options=["a", "b", "c"])
            for n in range(1, PAGES)
        ],
    )


def cases(
    count: int,
) -> dict[str, tuple[Callable[[], App[Any]], Callable[[], App[Any]], list[str], Any]]:
    options = [f"option {n}" for n in range(count + 1)]
    return {
        "text": (
            lambda: elicit_app(TextRequest(message="Name?")),
            lambda: BareApp(Input),
            ["a"] * count,
            typed(count),
        ),
        "arrows": (
            lambda: elicit_app(ChoiceRequest(message="Which?", options=options)),
            lambda: BareApp(lambda: OptionList(*options)),
            ["down"] * count,
            moved(count),
        ),
        "pages": (
            lambda: elicit_app(batch()),
            lambda: BareApp(lambda: Tabs(*(f"Q{n}" for n in range(1, PAGES)), "Review")),
            paging(count),
            on_last_page,
        ),
    }


def report(name: str, figures: list[tuple[float, float]], count: int) -> None:
    walls = sorted(w * 1000 for w, _ in figures)
    cpus = sorted(c * 1000 for _, c in figures)
    p90 = max(0, int(len(walls) * 0.9) - 1)
    print(
        f"  {name:<11} wall median {statistics.median(walls):7.1f} ms  p90 {walls[p90]:7.1f} ms"
        f"   cpu median {statistics.median(cpus):7.1f} ms  p90 {cpus[p90]:7.1f} ms"
        f"   ({statistics.median(cpus) / count:.2f} ms cpu/key)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--keys", type=int, default=100, help="keys per burst")
    parser.add_argument("--runs", type=int, default=10, help="bursts per case and app")
    args = parser.parse_args()
    for case, (ours, bare, keys, done) in cases(args.keys).items():
        print(f"{case}: {len(keys)} keys in one burst, {args.runs} runs")
        for name, make in (("elicit-tui", ours), ("bare", bare)):
            figures = [asyncio.run(burst(make(), keys, done)) for _ in range(args.runs)]
            report(name, figures, len(keys))


if __name__ == "__main__":
    main()
