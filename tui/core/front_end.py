"""What a front end needs of the questions it shows, wherever the queue lives.

The Textual app answers one `FrontEndSource`: the `ElicitationQueue` in its own process, or
an inbox in another process reached over HTTP (`tui.front_ends.remote.RemoteFrontEnd`). Both
deliver the same `QueueEvent`s in the same order, so every modal, the timeline and replays
work the same on either.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from tui.core.models import ElicitationResult, Request
from tui.core.queue import Answered, Subscriber


class AnswerNotSent(Exception):
    """An answer could not be delivered: the queue's process could not be reached, or did not
    reply in time. It was not applied by this front end's doing, unless it arrived after all;
    sending it again is safe: the first answer to arrive wins, and a front end's own answer
    arriving twice counts once."""


class AnswerUnconfirmed(AnswerNotSent):
    """The answer was sent but no reply came in time: the queue's process may apply it still."""


class AnswerNeedsConfirming(AnswerNotSent):
    """The answer was held, not applied: it would do what the person must agree to first
    (replace a keyring entry). The message says what; answering again agrees."""


class FrontEndSource(Protocol):
    """The questions a front end shows and the way its answers go back."""

    def subscribe(self, subscriber: Subscriber, *, front_end: bool = True) -> Callable[[], None]:
        """Receive events from now on, after a `requested` event for every request already
        waiting (oldest first); `front_end=False` for an observer that never answers.
        Returns a function that unsubscribes."""
        ...

    def is_pending(self, request_id: str) -> bool:
        """True while the request waits for an answer, as far as this front end knows."""
        ...

    def pending(self) -> list[Request]:
        """The requests still waiting, oldest first."""
        ...

    def respond(
        self, request_id: str, result: ElicitationResult, front_end: str | None = None
    ) -> bool:
        """Answer a waiting request in the name of `front_end`; True if this answer counted.

        False when another answer came first (`refusal` then says whose and when). Raises
        `AnswerNotSent` when the answer could not be delivered: it is never sent again on its
        own; `AnswerNeedsConfirming` when it was held until the person agrees to what it does. May block (an inbox elsewhere): a UI calls it off its own thread.
        """
        ...

    def answered(self, request_id: str) -> Answered | None:
        """Who ended a request that no longer waits, and when, if known."""
        ...

    def refusal(self, request_id: str) -> str:
        """Why the last answer to `request_id` was not applied, in words for the person:
        "answered in browser 1 at 14:02"."""
        ...

    def close(self) -> None:
        """This front end is done. A queue in the app's own process ends every waiting
        request (`cancel`/`closed`), as its askers have nobody else; a remote inbox keeps
        them waiting for the next front end."""
        ...
