"""An auto pilot that can be stopped midway: the app is ending (quit, a signal, its terminal
gone), and it waits for its auto pilot to end before it does."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Coroutine
from typing import Any

from textual.worker import WorkerCancelled


class StoppablePilot:
    """Runs an auto pilot's steps until they end or `stop()` is called. Stopped, the running
    step is cancelled and the pilot ends as if it had returned; stopped before it began, it
    takes no step. A cancel that a wait inside it absorbs is caught by the steps' own checks
    of `stopped` between them."""

    def __init__(self) -> None:
        self.stopped = False
        self._task: asyncio.Task[Any] | None = None

    async def run(self, steps: Coroutine[Any, Any, None]) -> None:
        if self.stopped:  # (the app began to exit before its pilot began)
            steps.close()  # never started: no step taken
            return
        self._task = task = asyncio.current_task()
        try:
            await steps
        except (asyncio.CancelledError, WorkerCancelled):
            # (A worker's wait takes the cancel and raises WorkerCancelled instead.)
            if not self.stopped:
                raise
            if task is not None and task.cancelling():
                task.uncancel()  # stopped as asked: the task ends as if it had returned
        finally:
            self._task = None

    def stop(self) -> None:
        """Take no more steps. Called from a task on the pilot's loop (an app's exit), the
        running step is cancelled at once: a wake-up already due to it turns into the cancel,
        and no key is pressed after the app began to exit. From a signal handler while the
        loop waits, or from another thread, the cancel is handed to the loop (which wakes)."""
        self.stopped = True
        task = self._task
        if task is None:
            return
        loop = task.get_loop()
        if _running_loop() is loop and asyncio.current_task(loop) is not None:
            task.cancel()
            return
        with contextlib.suppress(RuntimeError):  # its loop closed meanwhile
            loop.call_soon_threadsafe(task.cancel)


def _running_loop() -> asyncio.AbstractEventLoop | None:
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None
