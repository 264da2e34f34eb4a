"""An auto pilot stopped midway ends as if it had returned; any other cancel still cancels."""

from __future__ import annotations

import asyncio
import threading

import pytest
from textual.worker import WorkerCancelled

from tui.app.stoppable_pilot import StoppablePilot


async def _steps(pilot: StoppablePilot, taken: list[int], wait: asyncio.Event) -> None:
    for step in range(3):
        if pilot.stopped:
            return
        taken.append(step)
        await wait.wait()


async def _running(pilot: StoppablePilot, taken: list[int]) -> asyncio.Task[None]:
    """`pilot` running `_steps`, waiting in its first step."""
    task = asyncio.create_task(pilot.run(_steps(pilot, taken, asyncio.Event())))
    await asyncio.sleep(0.01)
    return task


async def test_a_stopped_pilot_ends_as_if_it_had_returned() -> None:
    pilot = StoppablePilot()
    taken: list[int] = []
    task = await _running(pilot, taken)
    pilot.stop()
    await asyncio.wait_for(task, 1)
    assert taken == [0]
    assert not task.cancelled()
    assert task.cancelling() == 0


async def test_a_pilot_stopped_as_its_wait_ends_takes_no_further_step() -> None:
    # The app's exit comes in the step that ends what the pilot waited for: handed to the
    # loop, the cancel came after the pilot's wake-up, which pressed one more key.
    pilot = StoppablePilot()
    settled = asyncio.get_running_loop().create_future()
    pressed: list[str] = []

    async def steps() -> None:
        await settled
        pressed.append("enter")

    task = asyncio.create_task(pilot.run(steps()))
    await asyncio.sleep(0.01)
    settled.set_result(None)
    pilot.stop()
    await asyncio.wait_for(task, 1)
    assert pressed == []
    assert not task.cancelled()


async def test_a_pilot_stopped_from_another_thread_ends() -> None:
    pilot = StoppablePilot()
    taken: list[int] = []
    task = await _running(pilot, taken)
    threading.Thread(target=pilot.stop).start()
    await asyncio.wait_for(task, 1)
    assert taken == [0] and not task.cancelled()


async def test_a_pilot_stopped_before_it_began_takes_no_step() -> None:
    # Steps that never look at `stopped`: the pilot itself takes none of them, and ends.
    pilot = StoppablePilot()
    pilot.stop()
    taken: list[str] = []

    async def steps() -> None:
        taken.append("enter")
        await asyncio.Event().wait()

    await asyncio.wait_for(pilot.run(steps()), 1)
    assert taken == []


async def test_a_cancel_absorbed_by_a_worker_s_wait_ends_a_stopped_pilot() -> None:
    pilot = StoppablePilot()

    async def steps() -> None:
        try:
            await asyncio.sleep(10)
        except asyncio.CancelledError:
            raise WorkerCancelled("the worker's wait took the cancel") from None

    task = asyncio.create_task(pilot.run(steps()))
    await asyncio.sleep(0.01)
    pilot.stop()
    await asyncio.wait_for(task, 1)
    assert not task.cancelled()


async def test_a_cancel_from_elsewhere_still_cancels() -> None:
    pilot = StoppablePilot()
    task = await _running(pilot, [])
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert not pilot.stopped
