"""How fast a replay runs: every pause divided by `speed`, none longer than `max_pause`."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True)
class Timing:
    speed: float = 1.0
    max_pause: float | None = None

    def __post_init__(self) -> None:
        if self.speed <= 0:
            raise ValueError(f"speed must be above 0, not {self.speed}")
        if self.max_pause is not None and self.max_pause < 0:
            raise ValueError(f"max_pause must not be negative, not {self.max_pause}")

    def pause(self, seconds: float) -> float:
        """How long a recorded pause of `seconds` lasts in the replay."""
        scaled = max(0.0, seconds) / self.speed
        return scaled if self.max_pause is None else min(scaled, self.max_pause)

    def schedule(self, times: Iterable[float]) -> list[float]:
        """Recorded times (from one starting point, in order) as replay times from the same point."""
        replayed: list[float] = []
        previous_recorded = previous_replayed = 0.0
        for recorded in times:
            previous_replayed += self.pause(recorded - previous_recorded)
            previous_recorded = recorded
            replayed.append(previous_replayed)
        return replayed
