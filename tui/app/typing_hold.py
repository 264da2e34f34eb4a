"""Keys typed on as the question in front changes without the person's doing are held off
until the typing pauses.

A question can end under the fingers of someone typing its answer: its agent withdraws it,
another front end answers it, it times out. Or a question appears over the main screen while
they type. The next dialog's grace period (0.2 s) ignores the keys typed as it appears, but
a person goes on typing for longer than that before they notice: the `y` of "yet" in a
denial's reason would allow the call shown next, the `3` of "3 times" allow it always.
So when what is in front changes that way while keys come, no key is taken until the keys
have stopped for a pause (`TYPED_THROUGH_GRACES` grace periods, 1 s); each key that comes
meanwhile starts the pause again. A question that changed because the person answered it
needs none of this: they know it changed. But a key typed in its grace period, ignored, holds
off the keys typed on after it the same way: typed ahead, `n` for the next question then
Enter, the Enter alone would answer it with its default. So does a key that comes in the
pause after a question closes, before the next one appears: typed ahead for that one, an
Enter would open the main screen's highlighted row, a `q` quit.
"""

from __future__ import annotations

CHANGED = "The question changed as you typed."
TOO_SOON = "A key came as this question appeared, too soon to be meant for it."
JUST_CLOSED = "A key came as the question closed, typed ahead for the next one."

TYPED_THROUGH_GRACES = 5
"""The pause asked for, in grace periods: 1 s with the usual 0.2 s grace (none without one,
as in a replay, where keys come as recorded)."""


class TypingHold:
    """When keys were read last, and until when keys are held off after a change under them."""

    def __init__(self, pause: float) -> None:
        self.pause = pause
        """Seconds without a key before keys are taken again after a change under typing."""
        self._last_key_at = float("-inf")
        self._answered_at = float("-inf")
        self._held_until = float("-inf")
        self._said = True
        """Whether the person has been told of the hold in progress (or there is none)."""
        self.why = CHANGED
        """What began the hold in progress, in words for the person."""

    @property
    def last_key_at(self) -> float:
        """When the last key was read (monotonic)."""
        return self._last_key_at

    def answered(self, now: float) -> None:
        """The person answered the question in front at `now` (monotonic): the keys typed so
        far were theirs to answer it, not typing on."""
        self._answered_at = now

    def question_changed(self, now: float) -> None:
        """What is in front changed without the person's doing, at `now` (monotonic): if they
        were typing (since their last answer), keys are held off until they pause."""
        if self._answered_at < self._last_key_at and now - self._last_key_at < self.pause:
            self._held_until = now + self.pause
            self._said = False
            self.why = CHANGED

    def hold_from(self, typed_at: float, why: str = TOO_SOON) -> None:
        """A key typed at `typed_at` came too soon for what is in front (`why`: in a
        question's grace period), and was ignored: the keys typed on after it are held off
        until the typing pauses. Else the rest of that typing, its first keys lost (a pick),
        would answer the question (an Enter: its default) as the person never meant."""
        if self._held_until < typed_at:
            self._said = False
            self.why = why
        self._held_until = max(self._held_until, typed_at + self.pause)

    def holds(self, typed_at: float) -> bool:
        """Whether the key typed at `typed_at` (monotonic) is held off: ignored, the pause
        started again from it. Every key read is to be passed here, held or not."""
        self._last_key_at = max(self._last_key_at, typed_at)
        if typed_at >= self._held_until:
            return False
        self._held_until = max(self._held_until, typed_at + self.pause)
        return True

    def first_held(self) -> bool:
        """True once per hold, as it holds off its first key: the time to say so."""
        said, self._said = self._said, True
        return not said

    def notice(self) -> str:
        """What the person is told as the hold holds off its first key."""
        return f"Keys are ignored until you stop typing for {self.pause:g} s: read it, then answer."
