"""The main screen's record of every request and how it ended."""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable
from typing import ClassVar

from rich.cells import cell_len
from rich.text import Text
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import DataTable

from tui.core.models import (
    AUTO_APPROVED,
    DIALOG_FAILED,
    ENDED_UNSEEN,
    UNSUPPORTED_KIND,
    ElicitationResult,
    Request,
    ToolApprovalRequest,
    call_summary,
)
from tui.core.terminal_text import literal_spaces
from tui.secrets.redaction import MASK
from widgets.literal import shown, shown_in_call, shown_on_one_line
from widgets.timeline_entry import TimelineEntry

_log = logging.getLogger(__name__)

TimeLabel = Callable[[float], str]

KIND_LABELS = {"multi_choice": "multi", "confirmation": "confirm", "tool_approval": "approval"}
"""Short names for the kind column, so the question keeps the room."""

COLUMNS = ("time", "kind", "outcome", "question")
OUTCOME_SHARE = 0.4
"""The outcome column takes at most this share of the width left after time and kind."""
MIN_QUESTION = 12
"""The question column gets at least this much, room allowing; a narrower pane splits what
is left between it and the outcome."""
WAITING = "… waiting"
"""The outcome of a request still waiting."""
REFUSED_ROW = "refused"
"""The key of the one row that counts requests `serve` turned away."""
REDRAW_DELAY = 0.05
"""Seconds the table waits after its last change before it is redrawn, and only if its
screen is then in front. Questions asked back to back bring the main screen to the front for a frame
between two modals: it is drawn as it was, and the table is redrawn once, when they stop
(redrawing it, whole on any change, would delay the next question)."""
MAX_ROWS = 100
"""Rows the timeline keeps; an older one is dropped as a new one comes (a transcript keeps
every request): a long session must not slow the main screen or grow the memory."""


CANCELLED_BECAUSE = {
    "timeout": "timed out",
    "cancelled_by_agent": "withdrawn",
    "closed": "closed",
    "disconnected": "agent gone",
}
"""The outcome of a request cancelled for a common reason, in words that fit the column
(other reasons are shown as they are, after "cancelled")."""


CANCELLED_BY = {UNSUPPORTED_KIND: "cannot show here", DIALOG_FAILED: "dialog failed"}
"""The outcome of a request cancelled by a front end for a reason of the form "cause: detail",
by its cause."""


def local_clock(at: float) -> str:
    """`at` (seconds since the epoch) as local HH:MM:SS."""
    return time.strftime("%H:%M:%S", time.localtime(at))


def outcome_text(request: Request, result: ElicitationResult) -> str:
    """How a request ended, safe to show: secrets appear only as a reference or •••."""
    if result.action == "accept":
        # A remembered approval answered, not the person: the row must say so.
        mark = "⚡ auto-approved ·" if result.reason == AUTO_APPROVED else "✔"
        content = MASK if result.sensitive else _described(request, result.content)
        return f"{mark} {content}"
    if result.reason == ENDED_UNSEEN:
        return "◌ ended while away"
    if result.action == "decline":
        reason = result.decline_reason
        return f"✖ declined: {reason}" if reason else "✖ declined"
    if result.reason in CANCELLED_BECAUSE:
        return f"⊘ {CANCELLED_BECAUSE[result.reason]}"
    # "dialog_failed: card (KeyError)": the kind and the error are in the notice shown then.
    cause = (result.reason or "").partition(": ")[0]
    if cause in CANCELLED_BY:
        return f"⊘ {CANCELLED_BY[cause]}"
    return f"⊘ cancelled ({result.reason})" if result.reason else "⊘ cancelled"


def _described(request: Request, content: object) -> str:
    """`request.describe_content(content)`; if a kind's own raises, the content as it is (the
    row is written by the main screen, which an error would end, and every question with it)."""
    try:
        return request.describe_content(content)
    except Exception:
        _log.exception("describe_content of the %r kind failed", request.kind)
        return str(content)


def _unseen_call(request: ToolApprovalRequest) -> str:
    """The row of a call a rule allowed: the call, what it does first, then who asked,
    `Bash: rm -rf build (run_in_background=true) · Claude Code (work/app)`. At 80 columns,
    `Claude Code (work/app): Bash(command=` took the room, and the command was cut whole."""
    named = request.remember.argument if request.remember is not None else None
    value = request.arguments.get(named) if named else None
    if isinstance(value, str) and value:
        others = ", ".join(
            f"{key}={json.dumps(other, ensure_ascii=False, default=str)}"
            for key, other in request.arguments.items()
            if key != named
        )
        call = f"{request.tool_name}: {value}" + (f" ({others})" if others else "")
    else:
        call = call_summary(request.tool_name, request.arguments)
    who = f" · {request.source}" if request.source else ""
    return literal_spaces(shown_on_one_line(f"{call}{who}"))


def fitted(text: str, width: int) -> Text:
    """`text` on one line of at most `width` cells, cut with an ellipsis if longer."""
    line = Text(" ".join(text.split()), no_wrap=True, overflow="ellipsis")
    line.truncate(max(width, 1), overflow="ellipsis")
    return line


class Timeline(DataTable[Text]):
    """One row per request, the last `MAX_ROWS`: when it came, its kind, how it ended and
    its question. Rows are kept as they change (`cells()`); the table shows them once they
    have stopped changing for `REDRAW_DELAY` while the timeline's screen is in front.

    The columns fit the width: the outcome takes what it needs up to a share, the question
    the rest, and a cell longer than its column ends in "…". Questions and outcomes are shown
    with every secret answered so far scrubbed. Cells are `Text`, never `str`: a `str` cell
    would be parsed as markup, and agents' text is shown as written.

    The cursor stays on the newest row, in view however the table's height changes, until
    the person moves it; the footer offers the keys while there are more rows than fit.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        # Shown only while rows are cut (`check_action`); DataTable's own up/down do the rest.
        Binding("up", "row_up", "Rows", key_display="↑↓"),
        Binding("down", "row_down", "Rows", show=False),
        # DataTable's Home and End move across columns, and these all fit.
        Binding("home", "scroll_top", "First row", show=False),
        Binding("end", "scroll_bottom", "Last row", show=False),
        # DataTable's own Enter, shown: a row cut short opens whole (a click does too).
        Binding("enter", "select_cursor", "Open", key_display="⏎"),
    ]
    """
    | Key(s) | Description |
    | :- | :- |
    | up, down | Move to the row above or below. |
    | home, end | Move to the first or the last row. |
    | enter | Open the highlighted row whole (`TimelineEntry`). |
    """

    def __init__(
        self,
        time_label: TimeLabel | None = None,
        *,
        redraw_delay: float | None = None,
        id: str | None = None,
    ) -> None:
        super().__init__(cursor_type="row", zebra_stripes=True, id=id)
        self.time_label = local_clock if time_label is None else time_label
        """How a row's time is shown (None given: `local_clock`)."""
        self.redraw_delay = REDRAW_DELAY if redraw_delay is None else redraw_delay
        """`REDRAW_DELAY`, or 0 to redraw as soon as the rows change with the screen in front."""
        self._cells: dict[str, dict[str, str]] = {}
        self._widths: dict[str, int] = {}
        self._needed: dict[str, int] = {column: len(column) for column in COLUMNS}
        """The widest text each column has had to show, as it would fit with no limit."""
        # A row's key is its request's id, unless an agent reuses an id: then a fresh key.
        self._row_of: dict[str, str] = {}
        self._request_of: dict[str, str] = {}
        """The request id of each row's key: what `_row_of` maps to it."""
        self._calls: dict[str, str] = {}
        """A tool approval's arguments as JSON, by its row's key: what its row opens to."""
        self._stale = False
        """True while the table does not show the rows as they are now."""
        self._redraw: Timer | None = None
        self._drawn: dict[str, dict[str, str]] = {}
        """The cells each row of the table shows, by key."""

    def on_mount(self) -> None:
        self._add_columns()
        self.app.screen_change_signal.subscribe(self, self._screen_changed)
        if self._stale:
            self._schedule()

    def _add_columns(self) -> None:
        """The columns, as wide as `_fitting_widths` said at the last draw (their names'
        widths before the first). A width DataTable measured from the cells would change only
        once the table was next idle: a frame drawn before that showed the rows just added
        cut to the width of the columns' names."""
        for column in COLUMNS:
            # The outcome before the question: questions are long, the outcome must stay in view.
            self.add_column(column, key=column, width=self._widths.get(column, len(column)))

    def add_request(self, request: Request, at: float) -> None:
        """Add a row for a request that has just arrived (none if its row still waits: a
        front end that reconnects hears of the requests still waiting again)."""
        row = self._row_of.get(request.id)
        if row is not None and self._cells[row]["outcome"] == WAITING:
            return
        who = f"{request.source}: " if request.source else ""
        cells = {
            "time": self.time_label(at),
            "kind": KIND_LABELS.get(request.kind, request.kind),
            "outcome": WAITING,
            "question": shown(f"{who}{request.message}"),
        }
        key = request.id if request.id not in self._cells else f"{request.id}#{len(self._cells)}"
        self._row_of[request.id] = key
        self._request_of[key] = request.id
        if isinstance(request, ToolApprovalRequest):
            arguments = json.dumps(request.arguments, indent=2, ensure_ascii=False, default=str)
            self._calls[key] = shown_in_call(arguments)
        self._add(key, cells)

    def note_refused(self, count: int, why: str, at: float) -> None:
        """Show that `count` requests were turned away at the door, the last one for `why`.

        One row, updated: a client hammering the server must not flood the timeline. It
        moves to the newest place, in view and in time's order, as each refusal comes.
        """
        cells = {
            "time": self.time_label(at),
            "kind": "refused",
            "outcome": f"⛔ {count} refused",
            "question": shown(f"last: {why}"),
        }
        if self._cells.pop(REFUSED_ROW, None) is not None and REFUSED_ROW in self._drawn:
            del self._drawn[REFUSED_ROW]
            self.remove_row(REFUSED_ROW)  # drawn again, as the last row
        self._add(REFUSED_ROW, cells)
        # Refusals come from outside any question: shown at once, not once changes stop.
        if self.is_attached and self.screen.is_current:
            self._draw()

    def _add(self, key: str, cells: dict[str, str]) -> None:
        self._cells[key] = cells
        self._note(cells)
        while len(self._cells) > MAX_ROWS:
            self._drop(next(iter(self._cells)))
        self._changed()

    def _drop(self, key: str) -> None:
        """Forget the row `key`, the oldest."""
        del self._cells[key]
        self._calls.pop(key, None)
        request_id = self._request_of.pop(key, None)
        if request_id is not None and self._row_of.get(request_id) == key:
            del self._row_of[request_id]

    def cells(self, key: str) -> dict[str, str]:
        """The full text of a row's cells by column (the screen may show them cut short)."""
        return dict(self._cells[key])

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        """Enter or a click on a row: open it whole, over the main screen."""
        event.stop()
        key = event.row_key.value
        if key in self._cells:  # (not a row dropped since it was drawn)
            self.app.push_screen(TimelineEntry(self.cells(key), self._calls.get(key)))

    def resolve(
        self, request: Request, result: ElicitationResult, elsewhere: str | None = None
    ) -> None:
        """Fill in the outcome of a request's row; `elsewhere` says where and when another
        front end answered it ("answered in browser 1 at 14:02"), after the outcome."""
        key = self._row_of.get(request.id)
        if key is None:
            return
        cells = self._cells[key]
        if result.reason == AUTO_APPROVED and isinstance(request, ToolApprovalRequest):
            # Nobody saw the call a rule allowed: the row names the call itself, not the
            # agent's words about it.
            cells["question"] = _unseen_call(request)
        outcome = outcome_text(request, result)
        if elsewhere is not None:
            outcome = f"{outcome} · {elsewhere}"
        cells["outcome"] = shown(outcome)
        self._note(cells)
        self._changed()

    # -- the table drawn: redrawn once the rows have stopped changing -----------------------

    def _changed(self) -> None:
        """The rows changed: redraw the table once they have not changed for `REDRAW_DELAY`,
        if its screen is in front then, or else once its screen is back in front."""
        self._stale = True
        if self.is_mounted:
            self._schedule()

    def _schedule(self) -> None:
        if self.redraw_delay <= 0:
            self._redraw_if_in_front()
        elif self._redraw is None:
            self._redraw = self.set_timer(self.redraw_delay, self._redraw_if_in_front)
        else:
            # Another change: the wait starts again. A redraw in the middle of questions asked
            # back to back would render every row shown again in the next frame of the main
            # screen, between two of them.
            self._redraw.reset()

    def _redraw_if_in_front(self) -> None:
        self._redraw = None
        # In front itself: a screen under a modal counts as current, yet a table redrawn
        # there is painted only once the modal closes, in the very frame that closes it.
        if self._stale and self.is_attached and self.app.screen is self.screen:
            self._draw()

    def _screen_changed(self, screen: Screen[object]) -> None:
        if screen is self.screen and self._stale:
            self._schedule()

    def _draw(self) -> None:
        """Make the table show the rows as they are now, the cursor on the newest: the rows
        that changed, or every row when the columns' widths must change."""
        self._stale = False
        widths = self._fitting_widths()
        if widths != self._widths:
            self._widths = widths
            self._drawn.clear()
            # Columns too: a column's width is given as it is added.
            self.clear(columns=True)
            self._add_columns()
        for key in [key for key in self._drawn if key not in self._cells]:
            del self._drawn[key]
            self.remove_row(key)
        for key, cells in self._cells.items():
            drawn = self._drawn.get(key)
            if drawn is None:
                self.add_row(*(fitted(cells[c], widths[c]) for c in COLUMNS), key=key)
            elif drawn != cells:
                for column in COLUMNS:
                    if drawn[column] != cells[column]:
                        self.update_cell(key, column, fitted(cells[column], widths[column]))
            self._drawn[key] = dict(cells)
        if self.row_count:
            self.move_cursor(row=self.row_count - 1)
        self._forget_old_renders()
        # Whether rows are cut, and the footer offers the keys, may have changed.
        self.call_after_refresh(self.refresh_bindings)

    def _forget_old_renders(self) -> None:
        """Drop what DataTable cached of earlier renders. It keys each cached cell, row and
        line by a count of changes, which a change moves on: none of them is read again, yet
        up to 10,000 cells of them would be kept, growing with every request. (Its caches of
        styles are keyed by what they style, and are kept: they serve the next render.)"""
        for cache in (
            self._row_render_cache,
            self._cell_render_cache,
            self._row_renderable_cache,
            self._line_cache,
        ):
            cache.clear()

    def on_resize(self) -> None:
        if self._fitting_widths() != self._widths:
            self._draw()
        elif self.row_count:
            # Made shorter (the agent's summary came above it), its cursor's row stays in view.
            self.move_cursor(row=self.cursor_row)
        self.call_after_refresh(self.refresh_bindings)

    def action_row_up(self) -> None:
        self.action_cursor_up()

    def action_row_down(self) -> None:
        self.action_cursor_down()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("row_up", "row_down"):
            return self.max_scroll_y > 0
        if action == "select_cursor":
            # The rows it holds, drawn or not: the main screen coming back after a question
            # shows Open at once, not a moment later, its row drawn, in a second footer built.
            return bool(self._cells)
        return super().check_action(action, parameters)

    def _note(self, cells: dict[str, str]) -> None:
        """Widen the columns' needs to fit `cells` (kept as running maxima: no row is re-read)."""
        for column in COLUMNS:
            width = cell_len(" ".join(cells[column].split()))
            self._needed[column] = max(self._needed.get(column, len(column)), width)

    def _fitting_widths(self) -> dict[str, int]:
        """Each column's width: its widest cell, up to its share of the room. A cell wider
        than any before it widens its column (all rows are drawn again), until the share."""
        needed = self._needed
        # Each column has a cell of padding either side; a vertical scrollbar may take 2 more.
        room = self.size.width - 2 * len(COLUMNS) - 2
        widths = {"time": needed["time"], "kind": needed["kind"]}
        left = room - widths["time"] - widths["kind"]
        widths["outcome"] = max(8, min(needed["outcome"], int(left * OUTCOME_SHARE)))
        widths["question"] = left - widths["outcome"]
        if widths["question"] < MIN_QUESTION:
            # A narrow pane: the two share what is left, each cut with an ellipsis, never by
            # the screen's edge.
            widths["outcome"] = max(1, left // 2)
            widths["question"] = max(1, left - widths["outcome"])
        return {column: min(width, needed[column]) for column, width in widths.items()}
