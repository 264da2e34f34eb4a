"""The main screen's record of every request and how it ended."""

from __future__ import annotations

import time
from collections.abc import Callable

from rich.cells import cell_len
from rich.text import Text
from textual.widgets import DataTable

from tui.core.models import AUTO_APPROVED, ENDED_UNSEEN, ElicitationResult, Request
from tui.secrets.redaction import MASK, REDACTOR

TimeLabel = Callable[[float], str]

KIND_LABELS = {"multi_choice": "multi", "confirmation": "confirm", "tool_approval": "approval"}
"""Short names for the kind column, so the question keeps the room."""

COLUMNS = ("time", "kind", "outcome", "question")
OUTCOME_SHARE = 0.4
"""The outcome column takes at most this share of the width left after time and kind."""
MIN_QUESTION = 12
WAITING = "… waiting"
"""The outcome of a request still waiting."""
REFUSED_ROW = "refused"
"""The key of the one row that counts requests `serve` turned away."""


def local_clock(at: float) -> str:
    """`at` (seconds since the epoch) as local HH:MM:SS."""
    return time.strftime("%H:%M:%S", time.localtime(at))


def outcome_text(request: Request, result: ElicitationResult) -> str:
    """How a request ended, safe to show: secrets appear only as a reference or •••."""
    if result.action == "accept":
        # A remembered approval answered, not the person: the row must say so.
        mark = "⚡ auto-approved ·" if result.reason == AUTO_APPROVED else "✔"
        shown = MASK if result.sensitive else request.describe_content(result.content)
        return f"{mark} {shown}"
    if result.reason == ENDED_UNSEEN:
        return "◌ ended while away"
    if result.action == "decline":
        reason = result.decline_reason
        return f"✖ declined: {reason}" if reason else "✖ declined"
    return f"⊘ cancelled ({result.reason})" if result.reason else "⊘ cancelled"


def fitted(text: str, width: int) -> Text:
    """`text` on one line of at most `width` cells, cut with an ellipsis if longer."""
    line = Text(" ".join(text.split()), no_wrap=True, overflow="ellipsis")
    line.truncate(max(width, 1), overflow="ellipsis")
    return line


class Timeline(DataTable[Text]):
    """One row per request: when it came, its kind, how it ended and its question.

    The columns fit the width: the outcome takes what it needs up to a share, the question
    the rest, and a cell longer than its column ends in "…". Questions and outcomes are shown
    with every secret answered so far scrubbed. Cells are `Text`, never `str`: a `str` cell
    would be parsed as markup, and agents' text is shown as written.
    """

    def __init__(self, time_label: TimeLabel = local_clock, *, id: str | None = None) -> None:
        super().__init__(cursor_type="row", zebra_stripes=True, id=id)
        self.time_label = time_label
        self._cells: dict[str, dict[str, str]] = {}
        self._widths: dict[str, int] = {}
        self._needed: dict[str, int] = {column: len(column) for column in COLUMNS}
        """The widest text each column has had to show, as it would fit with no limit."""
        # A row's key is its request's id, unless an agent reuses an id: then a fresh key.
        self._row_of: dict[str, str] = {}

    def on_mount(self) -> None:
        self._add_columns()

    def _add_columns(self) -> None:
        for column in COLUMNS:
            # The outcome before the question: questions are long, the outcome must stay in view.
            self.add_column(column, key=column)

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
            "question": REDACTOR.scrub(f"{who}{request.message}"),
        }
        key = request.id if request.id not in self._cells else f"{request.id}#{len(self._cells)}"
        self._row_of[request.id] = key
        self._add(key, cells)

    def note_refused(self, count: int, why: str, at: float) -> None:
        """Show that `count` requests were turned away at the door, the last one for `why`.

        One row, updated: a client hammering the server must not flood the timeline.
        """
        cells = {
            "time": self.time_label(at),
            "kind": "refused",
            "outcome": f"⛔ {count} refused",
            "question": REDACTOR.scrub(f"last: {why}"),
        }
        if REFUSED_ROW not in self._cells:
            self._add(REFUSED_ROW, cells)
            return
        self._cells[REFUSED_ROW] = cells
        self._note(cells)
        if not self._refit():
            for column in COLUMNS:
                self.update_cell(REFUSED_ROW, column, fitted(cells[column], self._widths[column]))

    def _add(self, key: str, cells: dict[str, str]) -> None:
        self._cells[key] = cells
        self._note(cells)
        if not self._refit():
            self.add_row(*(fitted(cells[c], self._widths[c]) for c in COLUMNS), key=key)
        self.move_cursor(row=self.row_count - 1)

    def cells(self, key: str) -> dict[str, str]:
        """The full text of a row's cells by column (the screen may show them cut short)."""
        return dict(self._cells[key])

    def resolve(
        self, request: Request, result: ElicitationResult, elsewhere: str | None = None
    ) -> None:
        """Fill in the outcome of a request's row; `elsewhere` says where and when another
        front end answered it ("answered in browser 1 at 14:02"), after the outcome."""
        key = self._row_of.get(request.id)
        if key is None:
            return
        cells = self._cells[key]
        outcome = outcome_text(request, result)
        if elsewhere is not None:
            outcome = f"{outcome} · {elsewhere}"
        cells["outcome"] = REDACTOR.scrub(outcome)
        self._note(cells)
        if not self._refit():
            self.update_cell(key, "outcome", fitted(cells["outcome"], self._widths["outcome"]))

    def on_resize(self) -> None:
        self._refit()

    def _refit(self) -> bool:
        """Recompute the column widths; if they changed, redraw every row and return True."""
        widths = self._fitting_widths()
        if widths == self._widths:
            return False
        self._widths = widths
        cursor = self.cursor_row
        # Columns too: a column keeps the widest cell it ever had, even once that cell is gone.
        self.clear(columns=True)
        self._add_columns()
        for key, cells in self._cells.items():
            self.add_row(*(fitted(cells[c], widths[c]) for c in COLUMNS), key=key)
        self.move_cursor(row=cursor)
        return True

    def _note(self, cells: dict[str, str]) -> None:
        """Widen the columns' needs to fit `cells` (kept as running maxima: no row is re-read)."""
        for column in COLUMNS:
            width = cell_len(" ".join(cells[column].split()))
            self._needed[column] = max(self._needed.get(column, len(column)), width)

    def _fitting_widths(self) -> dict[str, int]:
        needed = self._needed
        # Each column has a cell of padding either side; a vertical scrollbar may take 2 more.
        room = self.size.width - 2 * len(COLUMNS) - 2
        widths = {"time": needed["time"], "kind": needed["kind"]}
        left = room - widths["time"] - widths["kind"]
        widths["outcome"] = max(8, min(needed["outcome"], int(left * OUTCOME_SHARE)))
        widths["question"] = max(MIN_QUESTION, left - widths["outcome"])
        return widths
