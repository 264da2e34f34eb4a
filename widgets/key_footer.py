"""The footer that lists the keys of the screen in front, rebuilt only when they change."""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from rich.cells import cell_len, set_cell_size
from textual.app import ComposeResult
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Footer, Label
from textual.widgets._footer import FooterKey

KeyEntry = tuple[str, str, str | None, Hashable]
"""A key a binding offers, as the footer's key for it shows it: the key, its action, how
the key is displayed, and its group."""

Keys = tuple[bool, tuple[KeyEntry, ...]]
"""Which keys the footer shows: whether the command palette's key is among them, and the
keys the bindings offer, in order."""

Labels = tuple[tuple[str, str, bool, str], ...]
"""What the footer's keys say: each key's action, description, whether it is enabled, and
its tooltip."""

LAST_ACTIONS = ("cancel", "decline", "app.quit")
"""The keys every dialog has, in this order after the dialog's own keys: in a narrow pane
they are the ones cut, not the keys only this dialog has."""

MORE = "…"
"""Shown after the last key that fits whole when the keys are cut; a click on it (a tap on a
phone, which has no keys to press) shows the keys after them, and after the last, the first."""

LABEL_CELLS = 16
"""The most cells a key's label takes when it quotes the dialog (a button's label): a longer
one is cut with …, so that the other keys keep their room (a confirmation's three, and
Cancel, Decline and Quit after them, fit 80 columns)."""


def key_label(text: str) -> str:
    """`text`, as the screen already shows it, made a key's label: on one line, cut with … to
    `LABEL_CELLS`, after a whole word where there is one."""
    label = " ".join(text.split())
    if cell_len(label) <= LABEL_CELLS:
        return label
    cut = set_cell_size(label, LABEL_CELLS - 1)
    if label[len(cut) : len(cut) + 1] not in ("", " ") and " " in cut:
        cut = cut[: cut.rindex(" ")]  # not in the middle of a word
    return cut.rstrip(" ,;:") + MORE


class KeyFooter(Footer):
    """A `Footer` that rebuilds its keys only when the keys to show differ and its screen is
    in view, and then lets go of the keys it replaced.

    Footer rebuilds all its keys whenever the screen's bindings may have changed: a modal
    opens or closes, the focus moves, a modal is reloaded with the next question. Most of
    the time the keys are the same, and rebuilding them (mounting and styling a widget per
    key) is the largest cost of showing a question. Where only what the keys say differs (a
    button's name on Enter, a key disabled for now), the keys built are relabelled instead;
    where only fewer of them are offered (the digits of a list whose labels hold digits),
    the others are hidden, and shown again when they are offered again.
    Each key built also binds itself to the footer's `compact` setting, and Textual drops
    such a binding only when `compact` changes: without pruning, every key ever shown would
    stay alive through the footer.

    A screen covered by another (the main screen under a question) rebuilds nothing: the
    question just asked would wait for it. Textual refreshes a screen's bindings as it comes
    back into view, and the footer catches up then.

    The dialog's own keys come first, then `LAST_ACTIONS`. Keys that do not fit whole are
    hidden, and "…" after the last one shown says there are more; clicked, it shows them.
    """

    _first_shown = 0
    """Which of the keys is shown first: past 0 once "…" was clicked."""

    _keys_built: Keys | None = None
    """Which keys are now in the footer (None: none yet), as `_keys_to_show` says."""

    _keys_shown: Keys | None = None
    """Which of them are offered now: those built but for `_hidden`."""

    _hidden: frozenset[str] = frozenset()
    """The actions of the keys built that are not offered now, hidden."""

    _labels_built: Labels | None = None
    """What the keys say, as `_keys_to_show` says."""

    def _keys_to_show(self) -> tuple[Keys, Labels]:
        """Everything `compose()` builds the keys from: which keys, and what each says (its
        description, whether it is enabled, its tooltip)."""
        keys: list[KeyEntry] = []
        labels = []
        for _, binding, enabled, tooltip in self.screen.active_bindings.values():
            if binding.show:
                keys.append((binding.key, binding.action, binding.key_display, binding.group))
                labels.append((binding.action, binding.description, enabled, tooltip))
        return (self.show_command_palette, tuple(keys)), tuple(labels)

    def _covered(self) -> bool:
        """Whether an opaque screen hides this footer's screen (Textual's `is_current` counts
        the screen right under the top one as in view, whatever covers it)."""
        stack = self.app.screen_stack
        screen = self.screen
        if screen not in stack:
            return False  # not shown yet (a modal built ahead): its keys are built ahead too
        above = stack[stack.index(screen) + 1 :]
        return any(covering.styles.background.a == 1 for covering in above)

    def compose(self) -> ComposeResult:
        first: list[Widget] = []
        last: list[FooterKey] = []
        for widget in super().compose():
            if isinstance(widget, FooterKey) and not widget.has_class("-command-palette"):
                # A key starts compact and its binding to the footer's `compact` then sets it
                # as the footer is: a restyle each way, for every key. Started as the footer
                # is, neither happens (a fifth of building a question's dialog ahead). The
                # command palette's key is not bound: it stays compact.
                widget.set_reactive(FooterKey.compact, self.compact)
                if widget.action in LAST_ACTIONS:
                    last.append(widget)
                    continue
            first.append(widget)
        yield from first
        yield from sorted(last, key=lambda key: LAST_ACTIONS.index(key.action))
        if first or last:  # (none before the first frame: the keys are built after it)
            more = _MoreKeys(MORE, classes="more")
            more.display = False
            yield more

    def bindings_changed(self, screen: Screen[Any]) -> None:
        # Textual's own builds no keys while the app has not the focus: a question coming to
        # a terminal or browser tab in the background had an empty footer (on a phone, the
        # Decline and Quit a person taps). Not rebuilt while covered, it costs nothing then.
        self._bindings_ready = True
        if self.is_attached and screen is self.screen:
            self.call_after_refresh(self.recompose)

    def on_resize(self) -> None:
        self._fit()

    def _fit(self) -> None:
        """Show the keys that fit whole, in order from `_first_shown`, and "…" after them if
        any do not."""
        room = self.size.width
        if not room:
            return  # not laid out yet: its first resize fits it
        keys: list[FooterKey] = []
        for child in self.children:
            if isinstance(child, FooterKey):
                if child.has_class("-command-palette"):
                    room -= _width(child)  # docked at the right
                elif child.action in self._hidden:
                    _show(child, False)
                else:
                    keys.append(child)
        widths = [_width(key) for key in keys]
        cut = sum(widths) > room
        if cut:
            room -= len(MORE)
        else:
            self._first_shown = 0
        first = self._first_shown if self._first_shown < len(keys) else 0
        for index, (key, width) in enumerate(zip(keys, widths, strict=True)):
            _show(key, index >= first and width <= room)
            if index >= first:
                room = room - width if key.display else -1
        for more in self.query_children(".more"):
            _show(more, cut)

    def show_more(self) -> None:
        """Show the keys after those in view, or after the last, the first again."""
        keys = [
            key
            for key in self.query_children(FooterKey)
            if not key.has_class("-command-palette") and key.action not in self._hidden
        ]
        shown = [index for index, key in enumerate(keys) if key.display]
        following = shown[-1] + 1 if shown else 0
        self._first_shown = following if following < len(keys) else 0
        self._fit()

    async def recompose(self) -> None:
        if not self.is_attached:
            return  # a rebuild asked for just before the screen closed
        if self._covered():
            return  # rebuilt as its screen comes back into view
        if self._bindings_ready:
            keys, labels = self._keys_to_show()
            if self._shown_in_place(keys, labels):
                return
            self._keys_built = self._keys_shown = keys
            self._labels_built = labels
        else:
            self._keys_built = self._keys_shown = self._labels_built = None
        self._hidden = frozenset()
        self._first_shown = 0
        await super().recompose()
        # Textual keeps each binding as a watcher in the watched node's "__watchers" map;
        # drop those of keys no longer in the footer (without re-running the others).
        watchers: dict[str, list[tuple[Any, Any]]] = getattr(self, "__watchers", {})
        bound = watchers.get("compact", [])
        bound[:] = [(node, callback) for node, callback in bound if node.is_attached]
        self._fit()

    async def catch_up(self) -> None:
        """Build the keys for the screen's bindings as they are now, or relabel them: not
        after the next refresh, as a change of bindings does, nor only once the screen has
        said its bindings are ready (a modal built ahead, not shown yet, may not have).
        Callable from another task: run as the footer's own, as Textual runs the callbacks
        it holds until after a refresh (each key binds itself to the footer that runs)."""
        self._bindings_ready = True
        with self._context():
            await self.recompose()

    def relabel_now(self) -> None:
        """Say at once what the keys built do now, and hide those not offered, not after
        the next refresh as a change of bindings does: for an action that has its frame
        drawn before it ends (an answer picked with a digit). Keys to build still wait for
        that refresh."""
        if self.is_attached and self._keys_built is not None and not self._covered():
            self._shown_in_place(*self._keys_to_show())

    def _shown_in_place(self, keys: Keys, labels: Labels) -> bool:
        """Show `keys`, saying what `labels` say, with the keys built, relabelled or some of
        them hidden (or shown again), if they are all built; whether they were."""
        if keys != self._keys_shown:
            hidden = _hidden_to_show(self._keys_built, keys)
            if hidden is None:
                return False
            self._keys_shown, self._hidden, self._first_shown = keys, hidden, 0
            self._labels_built = None  # fitted again below, the keys shown having changed
        self._relabel(labels)
        return True

    def _relabel(self, labels: Labels) -> None:
        """Say in the keys built what `labels` say, if they changed, and fit them again: the
        same keys, only what they say changed (Enter on another button, an answer on its
        way), so nothing is mounted."""
        if labels == self._labels_built:
            return
        self._labels_built = labels
        # As Footer builds them: one key per action, as its first binding says.
        first: dict[str, tuple[str, bool, str]] = {}
        for action, description, enabled, tooltip in labels:
            first.setdefault(action, (description, enabled, tooltip))
        for key in self.query_children(FooterKey):
            if key.action not in first or key.has_class("-command-palette"):
                continue
            description, enabled, tooltip = first[key.action]
            if (key.description, key._disabled, key.tooltip or None) == (
                description,
                not enabled,
                tooltip or None,
            ):
                continue  # a key redrawn is drawn anew: its first frame again
            key.description = description
            key._disabled = not enabled  # what a click on it checks
            key.set_class(not enabled, "-disabled")
            key.tooltip = tooltip or None
            key.refresh(layout=True)
        self._fit()


class _MoreKeys(Label):
    """The "…" after the keys that fit: a click shows the others."""

    def on_click(self) -> None:
        if isinstance(self.parent, KeyFooter):
            self.parent.show_more()


def _hidden_to_show(built: Keys | None, wanted: Keys) -> frozenset[str] | None:
    """The actions of the keys `built` to hide so that the footer shows the keys `wanted`
    as a rebuild would, in the same order; None where it cannot (a key wanted is not
    built, or built for another binding, or keys are grouped)."""
    if built is None or built[0] != wanted[0]:
        return None
    built_keys, wanted_keys = _key_per_action(built[1]), _key_per_action(wanted[1])
    if any(entry[3] is not None for entry in built_keys):
        return None  # grouped keys are built in groups of their own
    if [entry for entry in built_keys if entry in wanted_keys] != wanted_keys:
        return None
    return frozenset(entry[1] for entry in built_keys if entry not in wanted_keys)


def _key_per_action(entries: tuple[KeyEntry, ...]) -> list[KeyEntry]:
    """The key the footer builds for each action, as Footer does: its first binding's."""
    first: dict[str, KeyEntry] = {}
    for entry in entries:
        first.setdefault(entry[1], entry)
    return list(first.values())


def _show(widget: Widget, shown: bool) -> None:
    """Show or hide `widget`, leaving it be if it is so already: setting `display` redraws
    it even unchanged, and each key's first frame then comes again with the next question."""
    if widget.display != shown:
        widget.display = shown


def _width(key: FooterKey) -> int:
    """The cells `key` takes in the footer: its text and its margins."""
    return key.render().cell_len + key.styles.margin.width
