"""Completions of URL elicitations: only those a call waits for count, and only while it waits."""

from __future__ import annotations

import anyio
from mcp_types import ElicitCompleteNotification, ElicitCompleteNotificationParams

from tui.mcp.url_required import ElicitationCompletions


def complete(elicitation_id: str) -> ElicitCompleteNotification:
    return ElicitCompleteNotification(
        params=ElicitCompleteNotificationParams(elicitation_id=elicitation_id)
    )


async def test_a_completion_marks_only_its_own_elicitation() -> None:
    completions = ElicitationCompletions()
    with completions.awaiting(["a", "b"]) as done:
        await completions(complete("b"))
        await completions(complete("nobody-asked"))
        assert [done["a"].is_set(), done["b"].is_set()] == [False, True]


async def test_completions_after_the_wait_are_ignored() -> None:
    completions = ElicitationCompletions()
    with completions.awaiting(["a"]) as first:
        pass
    await completions(complete("a"))  # already finished: ignored, no error
    assert not first["a"].is_set()
    with completions.awaiting(["a"]) as second:
        assert not second["a"].is_set()


async def test_other_messages_are_let_through_untouched() -> None:
    completions = ElicitationCompletions()
    with completions.awaiting(["a"]) as done:
        await completions(RuntimeError("a transport hiccup"))
        with anyio.move_on_after(0.05):
            await done["a"].wait()
        assert not done["a"].is_set()
