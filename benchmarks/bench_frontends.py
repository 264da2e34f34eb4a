"""Front ends of one inbox, as real processes: how fast a question shows, and a modal closes.

First `elicit-tui serve` alone, its own TUI on an 80x24 pty: the in-process front end. Then
`elicit-tui serve --headless` with `--attach N` `elicit-tui attach` processes (each on an
80x24 pty) and, with `--browser`, one headless Chromium tab of `elicit-tui web`: all at once,
as a person with several front ends has them. Each round:

* ask: this process POSTs a choice to /v1/requests. ask -> painted is from just before the
  POST to the moment the question's text reached each front end's terminal (the pty's bytes,
  timed as they are read) or the browser's page (the websocket message, timed in the page);
* answer: this process answers as the front end "bench" (POST /v1/requests/ID/answer).
  answer -> closed is from just before that POST to the moment each front end drew
  "Answered in bench at ..." (drawn as its modal closes).

One clock for both ends (the browser's Date.now() is the same machine's). Prints p50/p90 per
front end and the targets: attached <= in-process + 5 ms; browser <= 100 ms; closed <= one
frame (1/60 s) + 5 ms. Needs the `web` extra, playwright and Debian's chromium for --browser.

With `--askers N --questions M`, then load on the attached front ends: N asker threads, each
asking M text questions one after the other through `POST /v1/ask` (all N at once, so up to N
wait in the inbox). The front ends show them in arrival order; each one shown is answered by
two answers POSTed at the same moment ("bench" and "bench 2"): exactly one must be applied and
the other refused, and every asker must get exactly one answer, that of the winner. Reported
per front end: ask -> visible (the time a question waits its turn included) and answer ->
modal closed.

Run: .venv/bin/python benchmarks/bench_frontends.py [--rounds 20] [--attach 2] [--browser]
[--askers 50 --questions 20]
"""

from __future__ import annotations

import argparse
import contextlib
import fcntl
import json
import os
import re
import signal
import statistics
import struct
import subprocess
import sys
import tempfile
import termios
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

TOKEN = "bench-front-ends-token"
FRAME = 1 / 60
REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests"))  # the front-end test helpers: same launcher, same timing
from front_end_processes import (  # noqa: E402
    CHROMIUM,
    CHROMIUM_ARGS,
    LAUNCHER,
    RECORD_FRAMES,
    read_until_closed,
)

ESCAPES = re.compile(
    r"\x1b\[[0-9;?$>=<]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(\x07|\x1b\\)|\x1b[()=>][0-9A-Za-z]?"
)


class Pty:
    """A command on an 80x24 pty; every chunk it writes is kept with when it was read."""

    def __init__(self, name: str, args: list[str], env: dict[str, str]) -> None:
        self.name = name
        self._master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
        self.process = subprocess.Popen(
            [sys.executable, "-c", LAUNCHER, *args],
            stdin=slave,
            stdout=slave,
            stderr=slave,
            cwd=REPO,
            env=env,
            start_new_session=True,
        )
        os.close(slave)
        self.chunks: list[tuple[float, str]] = []
        self._lock = threading.Lock()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for chunk in read_until_closed(self._master):
            with self._lock:
                self.chunks.append((time.monotonic(), chunk.decode(errors="replace")))

    def mark(self) -> int:
        with self._lock:
            return len(self.chunks)

    def seen_at(self, text: str, since: int) -> float | None:
        """When `text` was first drawn after chunk `since` (escape sequences taken out)."""
        with self._lock:
            chunks = self.chunks[since:]
        drawn = ""
        for at, chunk in chunks:
            drawn += chunk
            if text in ESCAPES.sub("", drawn):
                return at
        return None

    def wait(self, text: str, since: int, timeout: float = 20) -> float:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            at = self.seen_at(text, since)
            if at is not None:
                return at
            time.sleep(0.005)
        raise RuntimeError(f"{self.name}: {text!r} never drawn")

    def stop(self) -> None:
        if self.process.poll() is None:
            with contextlib.suppress(OSError):
                os.write(self._master, b"\x11")  # Ctrl+Q
            try:
                self.process.wait(5)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(5)
        with contextlib.suppress(OSError):
            os.close(self._master)


def call(base: str, method: str, path: str, body: Any = None) -> tuple[int, Any]:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data=data, method=method)
    request.add_header("Authorization", f"Bearer {TOKEN}")
    request.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            text = response.read()
            return response.status, json.loads(text) if text else None
    except urllib.error.HTTPError as error:
        return error.code, None


class Browser:
    """One headless Chromium tab on `elicit-tui web`, recording when messages reach the page."""

    def __init__(self, base: str, env: dict[str, str]) -> None:
        from playwright.sync_api import sync_playwright

        self.server = subprocess.Popen(
            [sys.executable, "-m", "tui.cli", "web", base, "--port", "0"],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            cwd=REPO,
            env=env,
            start_new_session=True,
            text=True,
        )
        assert self.server.stdout is not None
        link = None
        while link is None:
            line = self.server.stdout.readline()
            if not line:
                raise RuntimeError("elicit-tui web did not start")
            found = re.search(r"http://\S+\?token=\S+", line)
            link = found.group(0) if found else None
        threading.Thread(target=self.server.stdout.read, daemon=True).start()
        self._playwright = sync_playwright().start()
        self._browser = self._playwright.chromium.launch(
            executable_path=CHROMIUM, args=CHROMIUM_ARGS
        )
        self.page = self._browser.new_page(viewport={"width": 1000, "height": 700})
        self.page.add_init_script(RECORD_FRAMES)
        self.page.goto(link)
        self.wait("Attached to", 0)

    def wait(self, text: str, since_ms: float, timeout: float = 20) -> float:
        """When (epoch ms) `text` reached the page after `since_ms`."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            drawn = ""
            for at, chunk in self.page.evaluate("() => window.__frames"):
                if at < since_ms:
                    continue
                drawn += chunk
                if text in ESCAPES.sub("", drawn):
                    return float(at)
            time.sleep(0.01)
        raise RuntimeError(f"browser: {text!r} never reached the page")

    def stop(self) -> None:
        self._browser.close()
        self._playwright.stop()
        os.killpg(self.server.pid, signal.SIGINT)
        self.server.wait(10)


def percentiles(values: list[float]) -> str:
    ordered = sorted(values)
    p50 = statistics.median(ordered)
    p90 = ordered[min(len(ordered) - 1, round(0.9 * (len(ordered) - 1)))]
    return f"p50 {p50 * 1000:6.1f} ms  p90 {p90 * 1000:6.1f} ms"


def measure(
    base: str, front_ends: list[Pty], browser: Browser | None, rounds: int
) -> tuple[dict[str, list[float]], dict[str, list[float]]]:
    """Ask and answer `rounds` times (after 2 warm-up rounds); seconds per front end."""
    painted: dict[str, list[float]] = {f.name: [] for f in front_ends}
    closed: dict[str, list[float]] = {f.name: [] for f in front_ends}
    if browser is not None:
        painted["browser 1"] = []
    for round_ in range(rounds + 2):
        message = f"Round {round_} framework?"
        marks = [f.mark() for f in front_ends]
        asked_ms = time.time() * 1000
        asked = time.monotonic()
        request = {"kind": "choice", "message": message, "options": ["FastAPI", "Flask"]}
        status, reply = call(base, "POST", "/v1/requests", {"request": request})
        assert status == 201, reply
        times = [f.wait(message, mark) - asked for f, mark in zip(front_ends, marks, strict=True)]
        shown_ms = browser.wait(message, asked_ms) - asked_ms if browser is not None else None
        time.sleep(0.3)  # every modal past its first frames (and the input grace)
        marks = [f.mark() for f in front_ends]
        answered = time.monotonic()
        answer = {"result": {"action": "accept", "content": "Flask"}, "front_end": "bench"}
        status, _ = call(base, "POST", f"/v1/requests/{reply['id']}/answer", answer)
        assert status == 200
        gone = [
            f.wait("Answered in bench", mark) - answered
            for f, mark in zip(front_ends, marks, strict=True)
        ]
        time.sleep(0.3)
        if round_ < 2:
            continue  # warm-up: the first modals load their classes
        for front_end, took, close in zip(front_ends, times, gone, strict=True):
            painted[front_end.name].append(took)
            closed[front_end.name].append(close)
        if shown_ms is not None:
            painted["browser 1"].append(shown_ms / 1000)
    return painted, closed


def answer_twice_at_once(base: str, request_id: str) -> list[int]:
    """POST two answers to `request_id` at the same moment, as "bench" and "bench 2"; their
    HTTP statuses."""
    statuses: list[int] = []

    def answer(name: str) -> None:
        result = {"action": "accept", "content": name}
        path = f"/v1/requests/{request_id}/answer"
        statuses.append(call(base, "POST", path, {"result": result, "front_end": name})[0])

    racers = [threading.Thread(target=answer, args=(name,)) for name in ("bench", "bench 2")]
    for racer in racers:
        racer.start()
    for racer in racers:
        racer.join()
    return statuses


def load(base: str, front_ends: list[Pty], askers: int, questions: int) -> dict[str, Any]:
    """`askers` threads ask `questions` each; every question shown is answered twice at once.
    Returns seconds per front end (ask -> visible, answer -> closed) and the checks."""
    asked: dict[str, float] = {}
    results: dict[str, list[str]] = {}
    lock = threading.Lock()

    def asker(number: int) -> None:
        for question in range(questions):
            message = f"Asker {number:02d} question {question:02d} ready?"
            with lock:
                asked[message] = time.monotonic()
            status, reply = call(
                base, "POST", "/v1/ask", {"request": {"kind": "text", "message": message}}
            )
            with lock:
                results.setdefault(message, []).append(
                    reply["result"]["content"] if status == 200 else f"HTTP {status}"
                )

    threads = [threading.Thread(target=asker, args=(n,), daemon=True) for n in range(askers)]
    visible: dict[str, list[float]] = {f.name: [] for f in front_ends}
    closed: dict[str, list[float]] = {f.name: [] for f in front_ends}
    applied = refused = 0
    marks = [f.mark() for f in front_ends]
    started = time.monotonic()
    for thread in threads:
        thread.start()
    for _ in range(askers * questions):
        pending: list[dict[str, Any]] = []
        while not pending:
            status, listing = call(base, "GET", "/v1/requests")
            pending = listing["pending"] if status == 200 else []
            if not pending:
                time.sleep(0.002)
        request = pending[0]  # the oldest: the one every front end shows
        message = request["message"]
        for front_end, mark in zip(front_ends, marks, strict=True):
            visible[front_end.name].append(front_end.wait(message, mark, 60) - asked[message])
        time.sleep(0.05)  # past the modal's first frames and its input grace
        marks = [f.mark() for f in front_ends]
        answered = time.monotonic()
        statuses = answer_twice_at_once(base, request["id"])
        applied += statuses.count(200)
        refused += statuses.count(409)
        for front_end, mark in zip(front_ends, marks, strict=True):
            closed[front_end.name].append(front_end.wait("Answered in bench", mark, 60) - answered)
    for thread in threads:
        thread.join(60)
    took = time.monotonic() - started
    once = all(
        len(answers) == 1 and answers[0] in ("bench", "bench 2") for answers in results.values()
    )
    total = askers * questions
    return {
        "visible": visible,
        "closed": closed,
        "ok": once and len(results) == total and applied == total and refused == total,
        "summary": (
            f"{len(results)} of {total} questions answered, each exactly once: {once}; "
            f"answers applied {applied}, refused {refused}; {took:.1f} s"
        ),
    }


def report(title: str, values: dict[str, list[float]]) -> None:
    print(title)
    for name, seconds in values.items():
        print(f"  {name:<22} {percentiles(seconds)}")


def served_on(printer: Pty) -> str:
    printer.wait("/mcp", 0)
    printed = re.search(r"127\.0\.0\.1:(\d+)/mcp", "".join(c for _, c in printer.chunks))
    assert printed is not None
    return f"http://127.0.0.1:{printed.group(1)}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--attach", type=int, default=2)
    parser.add_argument("--browser", action="store_true")
    parser.add_argument("--askers", type=int, default=0, help="load: asker threads at once")
    parser.add_argument("--questions", type=int, default=20, help="load: questions per asker")
    args = parser.parse_args()

    config = tempfile.mkdtemp(prefix="bench-front-ends-")
    env = {k: v for k, v in os.environ.items() if k not in ("TMUX", "COLUMNS", "LINES")}
    env.update(
        TERM="xterm-256color",
        ELICIT_TUI_CONFIG_DIR=config,
        ELICIT_TUI_TOKEN=TOKEN,
        ELICIT_TUI_BELL="0",
        ELICIT_TUI_OSC_NOTIFY="off",
        PYTHON_KEYRING_BACKEND="keyring.backends.fail.Keyring",
    )
    # 1. The in-process front end alone: serve's own TUI.
    serve = Pty("serve (in-process)", ["serve", "--port", "0"], env)
    try:
        alone_painted, alone_closed = measure(served_on(serve), [serve], None, args.rounds)
    finally:
        serve.stop()
    # 2. The same inbox headless, its front ends attached (none painting in the inbox).
    inbox = Pty("inbox", ["serve", "--headless", "--port", "0"], env)
    front_ends: list[Pty] = []
    browser: Browser | None = None
    try:
        base = served_on(inbox)
        for number in range(args.attach):
            name = f"attach {number + 1}"
            attached = Pty(name, ["attach", base, "--name", name], env)
            attached.wait("Attached to", 0)
            front_ends.append(attached)
        if args.browser:
            browser = Browser(base, env)
        painted, closed = measure(base, front_ends, browser, args.rounds)
        loaded = load(base, front_ends, args.askers, args.questions) if args.askers else None
    finally:
        if browser is not None:
            browser.stop()
        for front_end in [*front_ends, inbox]:
            front_end.stop()
    print(f"{args.rounds} rounds; {args.attach} attached at once, browser: {bool(browser)}")
    report("ask -> painted", {**alone_painted, **painted})
    report(
        "answer (by another front end) -> modal closed, notice drawn", {**alone_closed, **closed}
    )
    base_p50 = statistics.median(alone_painted[serve.name])
    if front_ends:
        attach_p50 = max(statistics.median(painted[f.name]) for f in front_ends)
        extra = (attach_p50 - base_p50) * 1000
        verdict = "met" if extra <= 5 else "NOT met"
        print(f"target attached <= in-process + 5 ms: {extra:+.1f} ms ({verdict})")
    if browser is not None:
        browser_p50 = statistics.median(painted["browser 1"]) * 1000
        verdict = "met" if browser_p50 <= 100 else "NOT met"
        print(f"target browser <= 100 ms: {browser_p50:.1f} ms ({verdict})")
    worst = max(statistics.median(v) for v in closed.values()) * 1000
    limit = (FRAME + 0.005) * 1000
    verdict = "met" if worst <= limit else "NOT met"
    print(f"target closed <= 1 frame + 5 ms ({limit:.1f} ms): worst p50 {worst:.1f} ms ({verdict})")
    if loaded is not None:
        print(
            f"load: {args.askers} askers x {args.questions} questions, {len(front_ends)} attached"
        )
        report("  ask -> visible (waiting its turn included)", loaded["visible"])
        report("  answer -> modal closed, notice drawn", loaded["closed"])
        print(f"  {loaded['summary']} ({'ok' if loaded['ok'] else 'NOT ok'})")
        if not loaded["ok"]:
            sys.exit(1)


if __name__ == "__main__":
    main()
