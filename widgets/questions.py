"""A batch of questions: a tab per question plus a Review tab, answered together."""

from __future__ import annotations

from collections.abc import Hashable
from itertools import count
from typing import Any, ClassVar

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.content import Content
from textual.widget import Widget
from textual.widgets import ContentSwitcher, Input, Static

from tui.core.models import Question, QuestionAnswer, QuestionsRequest
from widgets.base import ElicitationModal, InvalidAnswer
from widgets.frame_drawn import frame_drawn
from widgets.key_footer import KeyFooter
from widgets.literal import literal, shown_on_one_line
from widgets.page_strip import PageStrip
from widgets.question_pane import QuestionPane

REVIEW = "review"

SPARE_PANES = 8
"""At most this many panes of earlier batches are kept for later ones (bar any still mounting)."""


class QuestionsModal(ElicitationModal[QuestionsRequest]):
    """Questions on tabs: 1–9 pick, Enter moves on, and the Review tab submits them all.

    A lone question has no tabs and is submitted by Enter (a single-select one by its pick).
    """

    STYLESHEETS = ("labelled_input.tcss", "questions.tcss")

    # Priority: each key acts the moment it arrives, so keys typed in a burst (or faster
    # than the focus moves) apply in order to the question on show, never to the last one.
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "submit", "Next", priority=True),
        Binding("enter", "submit_all", "Submit", priority=True),
        # "Skip", short: at 80 columns the footer has room for every key only so.
        Binding("tab", "switch(1)", "Skip", priority=True),
        Binding("shift+tab", "switch(-1)", "Previous question", show=False, priority=True),
        Binding("right", "switch(1, True)", "Next question", show=False, priority=True),
        Binding("left", "switch(-1, True)", "Previous question", show=False, priority=True),
        Binding("down", "move(1)", "Down", show=False, priority=True),
        Binding("up", "move(-1)", "Up", show=False, priority=True),
        Binding("space", "tick", "Tick", priority=True),
        # Space on a pick-one question picks without moving on; the footer has no "Tick" then.
        Binding("space", "tick_one", "Pick", show=False, priority=True),
        *(
            Binding(str(n), f"pick({n})", "Pick", show=n == 1, key_display="1-9", priority=True)
            for n in range(1, 10)
        ),
    ]
    """
    | Key(s) | Description |
    | :- | :- |
    | enter | Take the highlighted (single-select) option and move on; on Review, submit all. |
    | enter | (a lone question, or on Review) Submit. |
    | tab, right | Next question (or Review), nothing picked; in a text field, right moves the cursor. |
    | shift+tab, left | Previous question; in a text field, left moves the cursor. |
    | down, up | Move through the options, and past the ends to "Other" and the note. |
    | space | Tick or untick (multi-select), or pick without moving on (single-select). |
    | 1-9 | Pick the numbered option and move on (multi-select: tick or untick it). |

    In a text field, space, 1-9, left and right type or move the cursor as usual.
    """

    COMPONENT_CLASSES: ClassVar[set[str]] = {"review--answered", "review--unanswered"}
    """
    | Class | Description |
    | :- | :- |
    | `review--answered` | The ✔ of an answered question on the Review tab. |
    | `review--unanswered` | The ✖ and "unanswered" of a question not answered, on the Review tab. |
    """

    def __init__(self, request: QuestionsRequest, **kwargs: Any) -> None:
        super().__init__(request, **kwargs)
        self.several = len(request.questions) > 1
        self._page = 0
        self._pane_ids = count()
        # Made here and kept: read on every key and every change, where looking them up each
        # time (a query of the dialog) was a large part of handling a key.
        self._panes = [self._new_pane(request, question) for question in request.questions]
        self._spare: list[QuestionPane] = []
        """Panes of an earlier batch that the one shown has no question for: kept, hidden,
        for a later batch that has (see `reload`)."""
        self._pages = ContentSwitcher(initial=self._panes[0].id, id="pages")
        self._strip = PageStrip(id="question-tabs") if self.several else None
        """The tab strip: a lone question has none."""
        self._progress = Static(id="progress", markup=False)
        self._review_page = Static(id=f"page-{REVIEW}", markup=False)

    def _new_pane(self, request: QuestionsRequest, question: Question) -> QuestionPane:
        return QuestionPane(
            question,
            show_question=_shows_question(request, question),
            html_previews=request.preview_format == "html",
            # Never an id of a pane being removed: ids are unique among the dialog's panes.
            id=f"page-{next(self._pane_ids)}",
        )

    @classmethod
    def body_shape(cls, request: QuestionsRequest) -> tuple[Hashable, ...]:
        # The first question's pane is drawn in the dialog's first frame; the others' panes
        # come after it (`_mount_later_panes`), so a batch of any length and any later
        # questions can be shown in a dialog kept from another (`reload`).
        first = request.questions[0]
        return (
            request.preview_format,
            len(request.questions) > 1,
            QuestionPane.shape(first, show_question=_shows_question(request, first)),
        )

    def reload(self, request: QuestionsRequest, *, deadline: float | None = None) -> None:
        old = self._panes
        old[0].load(request.questions[0])
        # A pane of the last batch, or a spare, of a later question's shape shows it; the
        # others are kept aside, hidden, and the panes still missing are made now and
        # mounted after the first frame, as a fresh dialog's are.
        unused = [*old[1:], *self._spare]
        panes = [old[0]]
        for question in request.questions[1:]:
            shape = QuestionPane.shape(question, show_question=_shows_question(request, question))
            pane = next((p for p in unused if p.composed_shape == shape), None)
            if pane is None:
                panes.append(self._new_pane(request, question))
            else:
                unused.remove(pane)
                pane.load(question)
                panes.append(pane)
        self._panes = panes
        self._spare = []
        for pane in unused:
            if pane.parent is None:
                continue  # never mounted: nothing of it is in the dialog
            if len(self._spare) < SPARE_PANES or not pane.is_mounted:
                self._spare.append(pane)
            else:
                pane.remove()
        super().reload(request, deadline=deadline)
        self.call_after_refresh(self._mount_later_panes)

    def on_mount(self) -> None:
        if self.several and self.is_current:
            # The first question is drawn first; the others' panes are built after its frame.
            # A dialog built ahead, unseen, builds them once it is shown (`reload`): building
            # them meanwhile could hold up the question that comes first.
            self.call_after_refresh(self._mount_later_panes)

    def _mount_later_panes(self) -> None:
        """Start mounting the panes of the questions after the first that are not mounted
        yet, hidden; not waited for, so that the dialog goes on meanwhile (keys typed in the
        first question, its frames)."""
        if not self._has_widgets():
            return
        later = [pane for pane in self._panes[1:] if pane.parent is None]
        for pane in later:
            pane.display = False  # the switcher shows one page: hidden as they mount
        if later:
            self._pages.mount(*later, before=self._review_page)

    async def _later_panes_mounted(self) -> None:
        """Return once every question's pane is mounted: a key that shows another question
        waits here, and the keys after it with it."""
        self._mount_later_panes()
        for pane in self._panes:
            if pane.is_attached and not pane.is_mounted:
                await pane._mounted_event.wait()

    def fill(self) -> None:
        if self._page:  # reloaded after an answer given on a later page, or the Review tab
            self._show(0)
        else:
            self._refresh_status()
            self.panes[0].focus_options()

    def forget(self) -> None:
        for pane in self.panes:
            pane.forget()
        self._review_page.update("")  # what was answered, as the Review tab last showed it

    # -- layout ---------------------------------------------------------------------------

    def compose_heading(self) -> ComposeResult:
        if self._strip is not None:
            yield self._strip
            yield self._progress

    def compose_body(self) -> ComposeResult:
        with self._pages:
            # Only the first question's pane: the others are mounted after the first frame.
            yield self._panes[0]
            if self.several:
                yield self._review_page

    @property
    def panes(self) -> list[QuestionPane]:
        return self._panes

    @property
    def on_review(self) -> bool:
        return self._page == len(self.request.questions)

    def header(self, index: int) -> str:
        """What question `index` is called on its tab and on the Review tab."""
        return self.request.questions[index].header or f"Question {index + 1}"

    def _tab_label(self, index: int, answered: bool = False) -> Content:
        mark = ("✔", "$text-success") if answered else ("○", "$text-warning")
        return Content.assemble(mark, f" {shown_on_one_line(self.header(index))}")

    # -- moving between questions ------------------------------------------------------------

    async def go_to(self, page: int) -> None:
        """Show question `page` (0-based), or the Review tab after the last question."""
        await self._later_panes_mounted()
        self._show(page)

    def _show(self, page: int) -> None:
        self._page = max(0, min(page, len(self.request.questions)))
        # Switched here, at once, so a key typed next lands on the new page.
        self._pages.current = (self._review_page if self.on_review else self.panes[self._page]).id
        if self.on_review:
            self.set_focus(None)
        else:
            self.panes[self._page].focus_options()
            # Focusing the list scrolls to it alone: its question may be left above the view.
            self._answer_to_show = True
            self.show_in_order(self._show_focused)
        self._refresh_status()
        self.refresh_bindings()

    def asked(self) -> Widget | None:
        return None if self.on_review else self.panes[self._page].question_text

    async def on_page_strip_chosen(self, event: PageStrip.Chosen) -> None:
        event.stop()
        if event.page != self._page:
            await self.go_to(event.page)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        typing = isinstance(self.focused, Input)
        if action == "switch":
            if self.on_review and parameters[0] == 1:
                return False  # nothing comes after Review: no "Skip" in its footer
            # Tab always switches; in a text field the arrows (by_arrow) move the cursor.
            return self.several and not (typing and len(parameters) > 1)
        if action == "submit":
            return self.several and not self.on_review
        if action == "submit_all":
            return not self.several or self.on_review
        if action in ("tick", "tick_one"):
            if self.on_review or typing:
                return False
            return self.panes[self._page].question.multi_select == (action == "tick")
        if action == "pick":
            # A digit the options hold is typed, one whose number is out of view does nothing
            # (QuestionPane.picks). Kept aside between batches, nothing shown, the footer
            # offers digits as most lists do: the next batch's first frame is drawn so.
            number = parameters[0]
            if self.on_review or typing or not isinstance(number, int):
                return False
            return not self.is_current or self.panes[self._page].picks(number)
        if action == "move":
            return not self.on_review
        return super().check_action(action, parameters)

    def describe_action(self, action: str, parameters: tuple[object, ...], description: str) -> str:
        if action == "pick" and not self.on_review and self.panes[self._page].question.multi_select:
            return "Tick"
        if action == "switch" and parameters == (1,) and not self.on_review:
            # Tab leaves a question unanswered ("Skip"), or moves on from one answered.
            return "Next" if self.panes[self._page].answer is not None else description
        filter_input = None if self.on_review else self.panes[self._page].filter_input
        if filter_input is not None and self.focused is filter_input:
            if action in ("submit", "submit_all"):
                return "Go to options"
            if action == "cancel" and filter_input.value:
                return "Clear filter"
        return super().describe_action(action, parameters, description)

    async def action_switch(self, step: int, by_arrow: bool = False) -> None:
        await self.go_to(self._page + step)

    def action_move(self, step: int) -> None:
        self.panes[self._page].move(step)

    async def _move_on(self) -> None:
        if self.several:
            await self.go_to(self._page + 1)
        else:
            self.action_accept()

    # -- answering ------------------------------------------------------------------------

    async def action_pick(self, number: int) -> None:
        pane = self.panes[self._page]
        if pane.pick(number) and not pane.question.multi_select:
            # Its tab ticked, the count down and the footer's keys as for an answered
            # question in the frame that shows the row picked: the pane's Changed reaches
            # this dialog only once this action is over.
            self._refresh_status()
            self.query_one(KeyFooter).relabel_now()  # tab moves on ("Next"), skips none
            await frame_drawn(self)  # the picked row highlighted, before the next question
            await self._move_on()

    def action_tick(self) -> None:
        self.panes[self._page].pick_highlighted()

    action_tick_one = action_tick

    def action_cancel(self) -> None:
        # Escape in a filter with text clears it; anywhere else it cancels the request.
        filter_input = None if self.on_review else self.panes[self._page].filter_input
        if filter_input is not None and self.focused is filter_input and filter_input.value:
            filter_input.value = ""
        else:
            super().action_cancel()

    async def action_submit_all(self) -> None:
        # Enter's label says "Submit" here; what it does depends on the page, as for "Next".
        await self.action_submit()

    async def action_submit(self) -> None:
        if self.on_review:
            self.action_accept()
            return
        pane = self.panes[self._page]
        focused = self.focused
        if focused is pane.filter_input:
            pane.focus_options()
            return
        if focused is pane.option_list and not pane.question.multi_select:
            pane.pick_highlighted()
        elif focused is pane.other_input:
            pane.choose_other()
        await self._move_on()

    async def on_question_pane_chosen(self, event: QuestionPane.Chosen) -> None:
        if not event.pane.question.multi_select:
            await self._move_on()

    def on_question_pane_changed(self) -> None:
        self.show_error("")
        self._refresh_status()
        self.refresh_bindings()  # Tab skips a question unanswered, goes on from one answered

    def _refresh_status(self) -> None:
        if not self.several:
            return
        panes = self.panes
        if self._strip is not None:
            labels = [self._tab_label(i, pane.answer is not None) for i, pane in enumerate(panes)]
            self._strip.show([*labels, Content("Review")], self._page)
        missing = sum(pane.answer is None for pane in panes)
        left = f"{missing} unanswered" if missing else "all answered"
        if self.on_review:
            # Enter, refused, says what is missing: not said here too.
            progress = f"Review · {left}" + ("" if missing else " · Enter submits")
        else:
            progress = f"Question {self._page + 1} of {len(panes)} · {left}"
        self._progress.update(progress)
        if self.on_review:
            # Built when shown: answers change on the questions' pages, never on this one.
            self._review_page.update(self._review(panes))

    def _review(self, panes: list[QuestionPane]) -> Table:
        """One row per question: a mark, its header, and the answer over the question's text."""
        table = Table.grid(padding=(0, 1))
        table.add_column(no_wrap=True)
        table.add_column(no_wrap=True, style="bold")
        table.add_column()
        answered = self.get_component_rich_style("review--answered", partial=True)
        unanswered = self.get_component_rich_style("review--unanswered", partial=True)
        for i, pane in enumerate(panes):
            answer = pane.answer
            if answer is None:
                mark, cell = Text("✖", unanswered), Text.assemble(("unanswered", unanswered))
            else:
                mark, cell = Text("✔", answered), literal(_shown(answer))
            cell.append(literal(f"\n{pane.question.question}", style="dim"))
            if pane.note:
                cell.append(literal(f"\nnote: {pane.note}", style="italic"))
            table.add_row(mark, literal(self.header(i)), cell)
        return table

    def content(self) -> dict[str, Any]:
        panes = self.panes
        missing = [pane for pane in panes if pane.answer is None]
        if missing:
            if not self.several:
                raise InvalidAnswer(
                    "Pick an option or type your own answer.", missing[0].option_list
                )
            names = ", ".join(self.header(panes.index(pane)) for pane in missing)
            raise InvalidAnswer(f"Answer every question first; unanswered: {names}.")
        answers: dict[str, QuestionAnswer] = {}
        notes: dict[str, str] = {}
        for pane in panes:
            answer = pane.answer
            if answer is not None:
                answers[pane.question.question] = answer
            if pane.note:
                notes[pane.question.question] = pane.note
        return {"answers": answers, "notes": notes}


def _shows_question(request: QuestionsRequest, question: Question) -> bool:
    """Whether the pane of `question` repeats its text: not when it is the only question and
    the message already says it."""
    return len(request.questions) > 1 or question.question != request.message


def _shown(answer: QuestionAnswer) -> str:
    return ", ".join(answer) if isinstance(answer, list) else answer
