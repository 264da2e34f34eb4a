"""Keys are handled one at a time, in the order they were typed, even when they arrive together.

Textual runs a key's priority bindings as soon as the app reads the key, but hands every
other key to the focused widget's own message queue, to be handled later; and it picks that
widget when it reads the key. When several keys arrive in one read (pasted text, tmux, expect,
a slow link), a priority binding such as Enter then runs before the characters typed ahead
of it reach their field, and the keys typed after a Tab go to the field Tab leaves.
`KeyOrderApp` hands Textual the next key only once the previous one has been handled.
"""

from __future__ import annotations

import asyncio
import sys
import time
import weakref
from collections import deque
from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from textual import events
from textual.app import App
from textual.message import Message
from textual.screen import Screen
from textual.timer import Timer
from textual.widget import Widget
from textual.widgets import Input

ResultT = TypeVar("ResultT")

Typed = events.Key | events.Paste
"""What the keyboard delivers: a key, or a bracketed paste."""

LONGEST_WAIT = 1.0
"""Seconds a key waits for the one before it, at most: a handler stuck on something else
must not freeze the keyboard."""

SETTLE_TURNS = 20
"""Turns of the event loop a key waits, at most, for the messages the key before it caused:
each turn takes a message one widget further up (a radio button's, then its set's)."""

_CHECK_EVERY = 0.05
"""Seconds between checks, while keys wait, that the key being handled can still finish."""


def is_text_field(widget: Widget) -> bool:
    """True for an `Input` or a `TextArea`.

    TextArea's module is not imported here (it costs a cold start more than a frame): until
    something has loaded it, no widget can be a TextArea.
    """
    if isinstance(widget, Input):
        return True
    text_area = sys.modules.get("textual.widgets._text_area")
    return text_area is not None and isinstance(widget, text_area.TextArea)


def _only_types_text(widget: Widget, event: Typed) -> bool:
    """True if `widget` takes `event` as text typed into it, which triggers no binding."""
    return (
        is_text_field(widget)
        and isinstance(event, events.Key)
        and widget.check_consume_key(event.key, event.character)
    )


@dataclass
class _InFlight:
    """Keys handed to a widget whose handling has not finished yet.

    Widgets are held weakly: a modal dismissed by the key in flight must not be kept alive.
    """

    last: int
    """The number of the last of them: its `KeyHandled` says all of them are handled."""
    target: weakref.ref[Widget]
    route: list[weakref.ref[Widget]]
    """The widget the keys went to and its ancestors up to the screen: the keys' way up."""
    screen: weakref.ref[Screen[object]]
    started: float
    text_only: bool
    """True while every key in flight is text typed into a text field."""

    def can_finish(self, screen: Screen[object]) -> bool:
        """False once the keys' way up is torn down (the screen changed, a widget was removed)
        or they have taken too long; their `KeyHandled` may then never arrive."""
        route = [ref() for ref in self.route]
        return (
            screen is self.screen()
            and all(node is not None and node.is_running and node.is_attached for node in route)
            and time.monotonic() - self.started < LONGEST_WAIT
        )

    def may_follow(self, event: Typed, focused: Widget | None) -> bool:
        """True if `event` may go into the target's queue right behind the keys in flight:
        text typed into the same text field after text, handled in order by the field itself."""
        target = self.target()
        return (
            self.text_only
            and target is not None
            and focused is target
            and _only_types_text(target, event)
        )


class KeyOrderApp(App[ResultT], Generic[ResultT]):
    """An App that dispatches each key only after the previous one was handled.

    A key is handled once the focused widget, every widget the key bubbles up through and the
    binding it triggers have run: an action bound to a key (accept, next field, toggle, pick)
    sees every earlier key applied, and a key after a focus move reaches the new focus.
    Text typed into a text field is the exception that keeps bursts fast: it goes straight into
    the field's queue behind the text before it, which the field handles in order anyway.
    Subclasses may drop keys with `accepts_key()`, asked when a key's turn comes.
    """

    class KeyHandled(Message):
        """Follows keys up the way they went; reaching the app, it says they are handled."""

        def __init__(self, number: int) -> None:
            super().__init__()
            self.number = number

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._typed: deque[Typed] = deque()
        self._in_flight: _InFlight | None = None
        self._dispatched = 0
        self._check: Timer | None = None
        self._dispatching = False
        self._handed_to: weakref.WeakKeyDictionary[events.Key, Hashable] = (
            weakref.WeakKeyDictionary()
        )
        """What was in front (`showing()`) as each key was handed to Textual, until the key
        reaches the app."""

    @property
    def keys_pending(self) -> bool:
        """True while a key waits for its turn or one handed out is not handled yet."""
        return bool(self._typed) or self._in_flight is not None

    def accepts_key(self, event: Typed) -> bool:
        """Whether to handle `event` now that its turn has come; False drops it."""
        return True

    async def on_event(self, event: events.Event) -> None:
        if isinstance(event, Typed) and not event.is_forwarded:
            self._typed.append(event)
            await self._dispatch_typed()
            if self._typed and self._check is None:
                self._check = self.set_interval(_CHECK_EVERY, self._check_in_flight)
            return
        await super().on_event(event)

    def showing(self) -> Hashable:
        """What is in front for the keys: the screen (a subclass may say more, such as what
        the screen shows). A key acts only while what was in front as it was handed out is."""
        return self.screen

    def handing_out(self, key: events.Key) -> None:
        """`key` is about to be handed to Textual: what is in front is noted, so that the
        key's bindings act on nothing else."""
        self._handed_to[key] = self.showing()

    async def _on_key(self, event: events.Key) -> None:
        # Textual runs a key's bindings (those of the screen in front) as the key reaches the
        # app, some turns of the event loop after it was handed out. If what was in front
        # changed meanwhile (a dialog answered by the key before it), what is in front now
        # never saw the key: its binding must not act on it (answer a question unread).
        handed_to = self._handed_to.pop(event, None)
        if not self._screen_stack:
            # Passed up to the app once it has closed its screens, as it ends (an app under
            # `run_test` still handles messages then): nothing is left for it to act on.
            event.prevent_default()
        elif handed_to is not None and handed_to != self.showing():
            event.prevent_default()  # App's own handler, after this one, would run them

    async def on_key_order_app_key_handled(self, message: KeyOrderApp.KeyHandled) -> None:
        message.stop()
        flight = self._in_flight
        if flight is None or flight.last != message.number:
            return
        if not self._typed:
            self._in_flight = None
            return
        await self._settle(flight)
        # The keys' bindings ran as the keys reached the app, just before this message: what
        # they left in the app's own queue comes before the next key. A `focus()` is one: a
        # Select's Down opens its menu and focuses it, and the next Down is the menu's.
        self.call_later(self._next_key, flight)

    async def _next_key(self, flight: _InFlight) -> None:
        if self._in_flight is flight:
            self._in_flight = None
            await self._dispatch_typed()

    @staticmethod
    async def _settle(flight: _InFlight) -> None:
        """Let the widgets the keys in flight went to handle the messages that handling posted,
        before the next key: a radio button pressed by Space tells its set so in a message, and
        Enter right behind it would otherwise find the set with no button pressed.

        Those messages start in the target or a widget inside it and bubble up the keys' way.
        At most `SETTLE_TURNS` turns of the event loop: a widget that never stops posting must
        not hold the keyboard."""
        target = flight.target()
        if target is None:
            return
        nodes = [*target.walk_children(Widget), *filter(None, (ref() for ref in flight.route))]
        for _ in range(SETTLE_TURNS):
            if not any(node.message_queue_size for node in nodes):
                return
            await asyncio.sleep(0)

    async def _check_in_flight(self) -> None:
        if not self.is_running:
            self._typed.clear()  # shutting down: no screen is left to take them
        elif self._in_flight is not None and not self._in_flight.can_finish(self.screen):
            self._in_flight = None
            await self._dispatch_typed()
        if not self._typed and self._check is not None:
            self._check.stop()
            self._check = None

    async def _dispatch_typed(self) -> None:
        """Dispatch the keys whose turn it is; the rest wait for the keys in flight."""
        # The check's timer runs in a task of its own: one dispatcher at a time keeps the order.
        if self._dispatching:
            return
        self._dispatching = True
        try:
            await self._dispatch_in_turn()
        finally:
            self._dispatching = False

    async def _dispatch_in_turn(self) -> None:
        while self._typed and self.is_running:
            event = self._typed[0]
            flight = self._in_flight
            if flight is not None and not flight.may_follow(event, self.focused):
                return
            self._typed.popleft()
            if not self.accepts_key(event):
                continue
            # Where Textual forwards a key that no priority binding takes.
            target = self.focused or self.screen
            if isinstance(event, events.Key):
                self.handing_out(event)
            await super().on_event(event)
            if not event.is_forwarded and not self._typed:
                continue  # a priority binding handled it, here and now, and no key waits
            # Forwarded, or handled by a priority binding with keys waiting: what it set off
            # (a button's press, a focus moved) is handled before the next key.
            self._dispatched += 1
            if not target.post_message(self.KeyHandled(self._dispatched)):
                continue  # the target is closing: nothing more will come of the key
            if flight is not None:
                flight.last, flight.started = self._dispatched, time.monotonic()
                continue
            self._in_flight = _InFlight(
                last=self._dispatched,
                target=weakref.ref(target),
                route=[
                    weakref.ref(node)
                    for node in target.ancestors_with_self
                    if isinstance(node, Widget)
                ],
                screen=weakref.ref(self.screen),
                started=time.monotonic(),
                text_only=_only_types_text(target, event),
            )
