"""A real `elicit-tui serve --headless` process for a test, killed when the test ends."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx2
from shell_started import ELICIT_TUI

TOKEN = "inbox-test-token-0123456789"

_URL = re.compile(r"elicit-tui serve on (http://127\.0\.0\.1:\d+)/mcp")


@dataclass
class InboxProcess:
    """A running inbox: its process, base URL and token."""

    process: subprocess.Popen[str]
    base: str
    token: str
    output: str = ""
    """What the process printed after its URL, once `stop()` returned."""

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}

    def client(self, **options: Any) -> httpx2.Client:
        """An HTTP client for this inbox, sending the token."""
        return httpx2.Client(base_url=self.base, headers=self.headers, **{"timeout": 30, **options})

    def pending(self) -> list[dict[str, Any]]:
        with self.client() as http:
            data: list[dict[str, Any]] = http.get("/v1/requests").json()["pending"]
            return data

    def wait_pending(self, count: int, timeout: float = 15) -> list[dict[str, Any]]:
        """The waiting requests, once there are `count` of them."""
        deadline = time.monotonic() + timeout
        while True:
            pending = self.pending()
            if len(pending) == count or time.monotonic() > deadline:
                assert len(pending) == count, pending
                return pending
            time.sleep(0.05)

    def post(self, request: dict[str, Any], timeout: float | None = None) -> tuple[str, str]:
        """Queue `request`: its id, and the key to its result's secrets."""
        with self.client() as http:
            response = http.post("/v1/requests", json={"request": request, "timeout": timeout})
        assert response.status_code == 201, response.text
        return response.json()["id"], response.json()["key"]

    def result(self, request_id: str, key: str | None = None, wait: float = 0) -> httpx2.Response:
        """`GET /v1/requests/ID/result`, as the asker with `key`, else as anyone else."""
        params: dict[str, Any] = {"wait": wait} | ({} if key is None else {"key": key})
        with self.client() as http:
            return http.get(f"/v1/requests/{request_id}/result", params=params)

    def answer(self, request_id: str, result: dict[str, Any], front_end: str = "test") -> Any:
        with self.client() as http:
            response = http.post(
                f"/v1/requests/{request_id}/answer",
                json={"result": result, "front_end": front_end},
            )
            return response

    def stop(self, stop: signal.Signals = signal.SIGINT) -> int:
        """Interrupt the inbox (as Ctrl+C does, or with `stop`) and return its exit status."""
        if self.process.poll() is None:
            self.process.send_signal(stop)
        try:
            status = self.process.wait(timeout=15)
            if self.process.stdout is not None:
                self.output = self.process.stdout.read()
            return status
        finally:
            _kill(self.process)


@contextmanager
def running_inbox(
    *arguments: str, env: dict[str, str] | None = None, token: str = TOKEN
) -> Iterator[InboxProcess]:
    """Start `elicit-tui serve --headless --port 0 --token TOKEN`; killed however the block ends."""
    serve = [*ELICIT_TUI, "serve", "--headless", "--port", "0"]
    process = subprocess.Popen(
        [*serve, "--token", token, *arguments],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        stdin=subprocess.DEVNULL,
        text=True,
        env={**os.environ, **(env or {})},
    )
    try:
        base = _read_url(process)
        yield InboxProcess(process, base, token)
    finally:
        _kill(process)


def _read_url(process: subprocess.Popen[str]) -> str:
    assert process.stdout is not None
    seen = []
    for line in process.stdout:
        seen.append(line)
        found = _URL.search(line)
        if found:
            return found.group(1)
    raise AssertionError(f"serve --headless printed no URL: {''.join(seen)}")


def _kill(process: subprocess.Popen[str]) -> None:
    if process.poll() is None:
        process.kill()
    process.wait(timeout=10)
    if process.stdout is not None:
        process.stdout.close()


def keyring_env(folder: Path) -> dict[str, str]:
    """Environment for a process whose keyring is a plain file under `folder` (keyrings.alt)."""
    return {
        "PYTHON_KEYRING_BACKEND": "keyrings.alt.file.PlaintextKeyring",
        "XDG_DATA_HOME": str(folder),
    }
