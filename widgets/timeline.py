"""The main screen's record of every request and how it ended."""

from __future__ import annotations

import time
from collections.abc import Callable

from rich.text import Text
from textual.widgets import DataTable
from textual.widgets.data_table import RowKey

from tui.core.models import AUTO_APPROVED, ElicitationResult, Request
from widgets.literal import literal

TimeLabel = Callable[[float], str]


def local_clock(at: float) -> str:
    """`at` (seconds since the epoch) as local HH:MM:SS."""
    return time.strftime("%H:%M:%S", time.localtime(at))


def outcome_text(request: Request, result: ElicitationResult) -> str:
    """How a request ended, safe to show: secrets appear only as a reference or •••."""
    if result.action == "accept":
        # A remembered approval answered, not the person: the row must say so.
        mark = "⚡ auto-approved ·" if result.reason == AUTO_APPROVED else "✔"
        return f"{mark} {request.describe_content(result.content)}"
    if result.action == "decline":
        return "✖ declined"
    return f"⊘ cancelled ({result.reason})" if result.reason else "⊘ cancelled"


class Timeline(DataTable[Text]):
    """One row per request: when it came, its kind, its question, and its outcome.

    Cells are `Text`, never `str`: a `str` cell is parsed as markup.

    Questions and outcomes are shown with every secret answered so far scrubbed.
    """

    def __init__(self, time_label: TimeLabel = local_clock, *, id: str | None = None) -> None:
        super().__init__(cursor_type="row", zebra_stripes=True, id=id)
        self.time_label = time_label
        # A row's key is its request's id, unless an agent reuses an id: then a fresh key.
        self._row_of: dict[str, RowKey] = {}
        self._refused: RowKey | None = None

    def on_mount(self) -> None:
        self.add_column("time", key="time")
        self.add_column("kind", key="kind")
        # The outcome before the question: questions are long, and the outcome must stay in view.
        self.add_column("outcome", key="outcome")
        self.add_column("question", key="question")

    def add_request(self, request: Request, at: float) -> None:
        """Add a row for a request that has just arrived."""
        who = f"{request.source}: " if request.source else ""
        self._row_of[request.id] = self.add_row(
            Text(self.time_label(at)),
            Text(request.kind),
            Text("… waiting"),
            literal(f"{who}{request.message}"),
            key=None if request.id in self.rows else request.id,
        )
        self.move_cursor(row=self.row_count - 1)

    def note_refused(self, count: int, why: str, at: float) -> None:
        """Show that `count` requests were turned away at the door, the last one for `why`.

        One row, updated: a client hammering the server must not flood the timeline.
        """
        cells = (
            Text(self.time_label(at)),
            Text("refused"),
            Text(f"⛔ {count} refused"),
            literal(f"last: {why}"),
        )
        if self._refused is not None:
            for column, cell in zip(("time", "kind", "outcome", "question"), cells, strict=True):
                self.update_cell(self._refused, column, cell, update_width=True)
        else:
            self._refused = self.add_row(*cells)

    def resolve(self, request: Request, result: ElicitationResult) -> None:
        """Fill in the outcome of a request's row."""
        row = self._row_of.get(request.id)
        if row is not None and row in self.rows:
            self.update_cell(
                row,
                "outcome",
                literal(outcome_text(request, result)),
                update_width=True,
            )
