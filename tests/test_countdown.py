"""The countdown in a modal's header reads as a person would say it, whatever the timeout."""

from __future__ import annotations

import pytest
from app_driver import wait_for, wait_for_modal
from textual.widgets import Static

from tui import ElicitationApp, ElicitationQueue, TextRequest
from widgets.base import format_seconds


@pytest.mark.parametrize(
    ("seconds", "shown"),
    [
        (0, "0s"),
        (0.2, "1s"),
        (59.5, "60s"),
        (119, "119s"),
        (120, "2m 00s"),
        (185, "3m 05s"),
        (7199, "119m 59s"),
        (7200, "2h 00m"),
        (7620, "2h 07m"),
        (47 * 3600 + 59 * 60, "47h 59m"),
        (48 * 3600, "2d 00h"),
        (30 * 24 * 3600, "30d 00h"),
    ],
)
def test_countdown_text(seconds: float, shown: str) -> None:
    assert format_seconds(seconds) == shown


async def test_in_a_narrow_pane_the_source_is_cut_never_the_count_or_the_countdown() -> None:
    queue = ElicitationQueue()
    app = ElicitationApp(queue, input_grace=0)
    source = "Claude Code (my-project-with-a-long-name)"
    async with app.run_test(size=(50, 20)) as pilot:
        for n in range(3):
            queue.submit(
                TextRequest(message=f"Question {n}?", source=source, timeout=300), timeout=300
            )
        modal = await wait_for_modal(pilot)
        meta = modal.query_one("#meta", Static)
        await wait_for(pilot, lambda: "…" in str(meta.render()))
        shown = str(meta.render())
        assert "\n" not in shown and meta.size.height == 1
        assert shown.startswith("Claude Code (my-") and "…" in shown
        assert shown.endswith(("· 2 more waiting · ⏱ 5m 00s", "· 2 more waiting · ⏱ 4m 59s"))
        await pilot.resize_terminal(100, 20)
        await wait_for(pilot, lambda: str(meta.render()).startswith(source))
