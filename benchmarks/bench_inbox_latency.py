"""Ask -> painted through the inbox (HTTP and MCP) beside an in-process ask, in one run.

One `elicit-tui serve` app (`ServeApp`, headless via `run_test`, 80x24) with its server on
127.0.0.1 is asked the same choice three ways, one question at a time:

* in-process: `ElicitationQueue.ask()` from a thread of this process;
* HTTP: `tui.RemoteQueue.ask()` (`POST /v1/ask`, one call held until the answer);
* MCP: the official MCP SDK client calling the `elicit` tool over streamable HTTP.

ask -> painted: from the asker calling to the first refresh after the question's modal
became the active screen (the question's text is then on the screen). key -> answer: from
pressing Enter to the asker holding the result. The askers run in threads of this process,
so one clock times both ends. Run: `python benchmarks/bench_inbox_latency.py [--questions N]`.
"""

from __future__ import annotations

import argparse
import asyncio
import queue
import socket
import statistics
import threading
import time
from collections.abc import Awaitable, Callable
from typing import Any

import httpx2
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from textual.screen import Screen

from tui.app.serve_app import ServeApp
from tui.core.models import ChoiceRequest
from tui.core.queue import ElicitationQueue
from tui.inbox.remote_queue import RemoteQueue
from widgets.base import ElicitationModal

TOKEN = "bench-latency-token"
OPTIONS = ["FastAPI", "Django", "Flask"]
WARM_UP = 3


def choice() -> ChoiceRequest:
    return ChoiceRequest(message="Which framework?", options=OPTIONS)


class Asker:
    """A thread that asks once per `go()`, timing the call and the answer."""

    def __init__(self, ask: Callable[[], Any]) -> None:
        self._ask = ask
        self._go: queue.Queue[bool] = queue.Queue()
        self.asked = self.answered = 0.0
        self.done = threading.Event()
        threading.Thread(target=self._run, daemon=True).start()

    def go(self) -> None:
        self.done.clear()
        self._go.put(True)

    def _run(self) -> None:
        while self._go.get():
            self.asked = time.perf_counter()
            self._ask()
            self.answered = time.perf_counter()
            self.done.set()


def mcp_asker(url: str) -> Callable[[], Any]:
    """A blocking function calling `elicit` over one MCP session kept open in its own loop."""
    loop = asyncio.new_event_loop()
    threading.Thread(target=loop.run_forever, daemon=True).start()
    ready: asyncio.Future[Any] = loop.create_future()

    async def session() -> None:
        headers = {"Authorization": f"Bearer {TOKEN}"}
        async with (
            httpx2.AsyncClient(headers=headers, timeout=httpx2.Timeout(60)) as http,
            Client(streamable_http_client(url, http_client=http)) as client,
        ):
            ready.set_result(client)
            await asyncio.Event().wait()

    loop.call_soon_threadsafe(lambda: loop.create_task(session()))

    def ask() -> Any:
        async def call() -> Any:
            client = await ready
            arguments = {"kind": "choice", "message": "Which framework?", "options": OPTIONS}
            return await client.call_tool("elicit", arguments)

        return asyncio.run_coroutine_threadsafe(call(), loop).result()

    return ask


async def until(condition: Callable[[], bool], pause: Callable[[], Awaitable[Any]]) -> None:
    deadline = time.monotonic() + 30
    while not condition():
        if time.monotonic() > deadline:
            raise TimeoutError("the benchmark stalled")
        await pause()


async def measure(questions: int) -> dict[str, tuple[list[float], list[float]]]:
    listener = socket.create_server(("127.0.0.1", 0))
    serve_queue = ElicitationQueue(policy="wait")
    app = ServeApp(serve_queue, listener, token=TOKEN, input_grace=0)
    painted: list[float] = []

    def changed(screen: Screen[Any]) -> None:
        if isinstance(screen, ElicitationModal):
            screen.call_after_refresh(lambda: painted.append(time.perf_counter()))

    results: dict[str, tuple[list[float], list[float]]] = {}
    async with app.run_test(size=(80, 24)) as pilot:
        app.screen_change_signal.subscribe(app, changed)
        base = app.url.removesuffix("/mcp")
        askers = {
            "in-process ask()": Asker(lambda: serve_queue.ask(choice())),
            "HTTP RemoteQueue": Asker(lambda: RemoteQueue(base, TOKEN).ask(choice())),
            "MCP elicit tool": Asker(mcp_asker(app.url)),
        }
        for name, asker in askers.items():
            to_paint, to_answer = [], []
            for n in range(questions + WARM_UP):
                await pilot.pause(0.05)  # idle between questions, as a person is
                seen = len(painted)
                asker.go()
                await until(lambda seen=seen: len(painted) > seen, lambda: pilot.pause(0.001))
                pressed = time.perf_counter()
                await pilot.press("enter")
                await until(asker.done.is_set, lambda: pilot.pause(0.001))
                if n >= WARM_UP:
                    to_paint.append(painted[-1] - asker.asked)
                    to_answer.append(asker.answered - pressed)
            results[name] = (to_paint, to_answer)
        await app.action_quit()
    return results


def summary(values: list[float]) -> str:
    ms = sorted(v * 1000 for v in values)
    p90 = ms[min(len(ms) - 1, round(0.9 * (len(ms) - 1)))]
    return f"median {statistics.median(ms):7.2f} ms   p90 {p90:7.2f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--questions", type=int, default=20)
    args = parser.parse_args()
    results = asyncio.run(measure(args.questions))
    print(
        f"{args.questions} questions each (after {WARM_UP} to warm up), serve app headless 80x24\n"
    )
    print("ask -> question painted")
    for name, (to_paint, _) in results.items():
        print(f"  {name:<18} {summary(to_paint)}")
    print("Enter -> asker has the answer")
    for name, (_, to_answer) in results.items():
        print(f"  {name:<18} {summary(to_answer)}")


if __name__ == "__main__":
    main()
