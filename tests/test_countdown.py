"""The countdown in a modal's header reads as a person would say it, whatever the timeout."""

from __future__ import annotations

import pytest

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
