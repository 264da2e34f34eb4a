"""The `questions` kind in the real app: a batch answered with the keyboard only."""

from __future__ import annotations

from typing import Any

import pytest
from app_driver import SIZE, screen_text, wait_for, wait_for_modal
from asking import Asker, burst
from pydantic import ValidationError
from rich.console import Console
from textual.widget import Widget
from textual.widgets import Markdown, Static

from tui.app.app import ElicitationApp
from tui.core.models import ElicitationResult, Question, QuestionsRequest, parse_request
from tui.core.queue import ElicitationQueue
from tui.integrations.claude_code import (
    from_ask_user_question,
    to_ask_user_question_answer,
    to_pilotdeck_answer,
)
from widgets.page_strip import PageStrip
from widgets.questions import QuestionsModal

AUTH = "How should users sign in?"
STORAGE = "Which datastores do you need?"
DEPLOY = "Where will it run?"
LICENSE = "Which license?"

BATCH: dict[str, Any] = {
    "kind": "questions",
    "message": "A few decisions before I scaffold the service",
    "questions": [
        {
            "question": AUTH,
            "header": "Auth",
            "options": [
                {"label": "OAuth", "description": "no passwords", "preview": "# OAuth\nredirect"},
                {"label": "Email + password", "preview": "# Passwords\nargon2"},
                {"label": "Magic links"},
            ],
        },
        {
            "question": STORAGE,
            "header": "Storage",
            "multi_select": True,
            "options": ["PostgreSQL", "Redis", "S3"],
        },
        {"question": DEPLOY, "header": "Deploy", "options": ["Fly.io", "AWS ECS"]},
        {
            "question": LICENSE,
            "header": "License",
            "allow_other": False,
            "options": ["MIT", "Apache-2.0"],
        },
    ],
}


def plain(renderable: Any) -> str:
    """`renderable` as the terminal would show it, without styles."""
    console = Console(width=100, color_system=None)
    with console.capture() as captured:
        console.print(renderable)
    return captured.get()


async def modal_of(pilot: Any) -> QuestionsModal:
    modal = await wait_for_modal(pilot)
    assert isinstance(modal, QuestionsModal)
    return modal


async def test_four_questions_answered_with_the_keyboard_give_exactly_the_content() -> None:
    asker = Asker(parse_request(BATCH))
    app = ElicitationApp(ElicitationQueue(), asker, input_grace=0)
    async with app.run_test(size=SIZE) as pilot:
        await modal_of(pilot)
        # Auth: highlight the second option, pick it without moving on, add a note.
        await pilot.press("down", "space", "down", "down", "down", *"keep sessions short")
        await pilot.press("enter")
        # Storage: tick 1 and 3, then type one more in "Other" (the list's last row leads there).
        await pilot.press("1", "3", "down", *"DuckDB", "enter")
        # Deploy: printable keys on the list go to "Other".
        await pilot.press(*"Hetzner", "enter")
        # License (no "Other"): 2 picks and moves on to Review, where Enter submits.
        await pilot.press("2", "enter")
        await wait_for(pilot, lambda: bool(asker.results))
    assert asker.results == [
        ElicitationResult(
            action="accept",
            content={
                "answers": {
                    AUTH: "Email + password",
                    STORAGE: ["PostgreSQL", "S3", "DuckDB"],
                    DEPLOY: "Hetzner",
                    LICENSE: "Apache-2.0",
                },
                "notes": {AUTH: "keep sessions short"},
            },
        )
    ]


async def test_the_other_questions_panes_are_built_after_the_first_frame_unasked() -> None:
    app = ElicitationApp(ElicitationQueue(), Asker(parse_request(BATCH)), input_grace=0)
    async with app.run_test(size=SIZE) as pilot:
        modal = await modal_of(pilot)
        # Built after the first frame, with no key asking for them.
        await wait_for(pilot, lambda: all(pane.is_mounted for pane in modal.panes))
        await pilot.press("tab")
        await wait_for(pilot, lambda: STORAGE in screen_text(app))


async def test_keys_typed_before_the_other_questions_panes_are_built_wait_for_them(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Held back until a key needs them, as a burst typed the moment the batch appears finds
    # them: the keys that move on must wait for them, and the keys after those with them.
    monkeypatch.setattr(QuestionsModal, "on_mount", lambda self: None)
    asker = Asker(parse_request(BATCH))
    app = ElicitationApp(ElicitationQueue(), asker, input_grace=0)
    async with app.run_test(size=SIZE) as pilot:
        modal = await modal_of(pilot)
        await wait_for(pilot, lambda: AUTH in screen_text(app))
        await pilot.pause()
        built_for_the_first_frame = [pane.is_attached for pane in modal.panes]
        burst(app, "2", "1", "3", "enter", *"Hetzner", "enter", "2", "enter")
        await wait_for(pilot, lambda: bool(asker.results))
    assert built_for_the_first_frame == [True, False, False, False]
    assert asker.results[0].content == {
        "answers": {
            AUTH: "Email + password",
            STORAGE: ["PostgreSQL", "S3"],
            DEPLOY: "Hetzner",
            LICENSE: "Apache-2.0",
        },
        "notes": {},
    }


async def test_switching_tabs_never_carries_text_across() -> None:
    app = ElicitationApp(ElicitationQueue(), Asker(parse_request(BATCH)), input_grace=0)
    async with app.run_test(size=SIZE) as pilot:
        modal = await modal_of(pilot)
        auth, storage, deploy, _ = modal.panes
        await pilot.press(*"alpha", "down", *"first note", "tab")
        assert modal.focused is storage.option_list
        assert (storage.other_input.value, storage.note) == ("", "")  # type: ignore[union-attr]
        await pilot.press(*"beta", "shift+tab")
        assert auth.other_input.value == "alpha"  # type: ignore[union-attr]
        assert (auth.answer, auth.note) == ("alpha", "first note")
        assert storage.answer == ["beta"]
        # Keys sent faster than the focus moves still land where they were typed, in order:
        # the space after a character sent to "Other" is typed there, it ticks nothing.
        burst(app, "tab", "x", "space", "y", "tab", *"gamma")
        await wait_for(pilot, lambda: deploy.answer == "gamma")
        assert (auth.answer, storage.answer) == ("alpha", ["betax y"])


def row_of(app: ElicitationApp, field: Widget) -> str:
    """The screen's row of the one-line `field`, from its left edge to the dialog's border."""
    region = field.region
    return screen_text(app).splitlines()[region.y][region.x : region.right]


async def test_other_and_note_are_labelled_fields_whose_label_stays_as_text_scrolls() -> None:
    app = ElicitationApp(ElicitationQueue(), Asker(parse_request(BATCH)), input_grace=0)
    async with app.run_test(size=SIZE) as pilot:
        modal = await modal_of(pilot)
        auth = modal.panes[0]
        other, note = auth.other_input, auth.note_input
        assert other is not None
        assert row_of(app, other).startswith("Other   type your own answer")
        assert row_of(app, note).startswith("Note    optional note for the agent")
        # Longer than the field: the text scrolls under the label, which stays.
        await pilot.press(*"start", *("x" * 90), *"end")
        assert other.value == "start" + "x" * 90 + "end"
        shown = row_of(app, other)
        assert shown.startswith("Other   x")
        assert shown.rstrip().endswith("xend")
        # A click on a label puts the focus in its field, and leaves its cursor where it was.
        assert await pilot.click(offset=(note.region.x + 1, note.region.y))
        assert modal.focused is note
        await pilot.press(*"why")
        assert await pilot.click(offset=(other.region.x + 1, other.region.y))
        assert modal.focused is other
        await pilot.press("!")
        assert (auth.answer, auth.note) == ("start" + "x" * 90 + "end!", "why")
        assert row_of(app, note).startswith("Note    why")
        assert row_of(app, other).rstrip().endswith("xend!")


async def test_submit_with_an_unanswered_question_is_refused_on_the_review_tab() -> None:
    asker = Asker(parse_request(BATCH))
    app = ElicitationApp(ElicitationQueue(), asker, input_grace=0)
    async with app.run_test(size=SIZE) as pilot:
        modal = await modal_of(pilot)
        await pilot.press("1", "2")  # Auth, then a Storage tick (a multi-select stays)
        await pilot.press("tab", "tab", "2", "enter")  # skip Deploy; License; on Review, submit
        await pilot.pause()
        assert modal.is_current and not asker.results
        assert modal.on_review
        assert "unanswered: Deploy" in str(modal.query_one("#error").render())
        # Said once: the line over the answers counts them, and no more.
        assert str(modal.query_one("#progress").render()) == "Review · 1 unanswered"
        review = plain(modal.query_one("#page-review", Static).content)
        assert "✖ Deploy  unanswered" in review and "✔ Auth    OAuth" in review
        assert modal.query_one(PageStrip).labels[2].plain == "○ Deploy"
        await pilot.press("left", "left", "1", "enter", "enter")  # Deploy; License; submit
        await wait_for(pilot, lambda: bool(asker.results))
    assert asker.results[0].content["answers"][DEPLOY] == "Fly.io"


async def test_review_offers_no_key_past_it_and_tab_there_keeps_it() -> None:
    asker = Asker(parse_request(BATCH))
    app = ElicitationApp(ElicitationQueue(), asker, input_grace=0)
    async with app.run_test(size=SIZE) as pilot:
        modal = await modal_of(pilot)
        await pilot.pause()
        assert "tab Skip" in screen_text(app).splitlines()[-1]
        await pilot.press("1", "2", "tab", "1", "1")  # Auth; Storage; Deploy; License: Review
        await pilot.pause()
        assert modal.on_review
        footer = screen_text(app).splitlines()[-1]
        assert "Submit" in footer and "Skip" not in footer
        await pilot.press("tab", "right", "tab", "enter")  # nothing after Review; submit there
        await wait_for(pilot, lambda: bool(asker.results))
    assert asker.results[0].content["answers"][LICENSE] == "MIT"


async def test_a_lone_single_select_question_is_answered_by_its_pick() -> None:
    request = QuestionsRequest(
        questions=[{"question": LICENSE, "header": "License", "options": ["MIT", "Apache-2.0"]}]
    )
    asker = Asker(request)
    app = ElicitationApp(ElicitationQueue(), asker, input_grace=0)
    async with app.run_test(size=SIZE) as pilot:
        modal = await modal_of(pilot)
        assert not modal.query(PageStrip)
        await pilot.press("2")
        await wait_for(pilot, lambda: bool(asker.results))
    assert asker.results[0].content == {"answers": {LICENSE: "Apache-2.0"}, "notes": {}}


async def test_a_long_option_wraps_under_its_label_not_under_its_mark() -> None:
    label = "Keep every session on the server " + "and sign it again each hour " * 3
    request = QuestionsRequest(
        questions=[
            {
                "question": AUTH,
                "header": "Auth",
                "multi_select": True,
                "options": [
                    {"label": label.strip(), "description": "[b]short[/b] sessions\nno refresh"},
                    "OAuth",
                ],
            }
        ]
    )
    app = ElicitationApp(ElicitationQueue(), Asker(request), input_grace=0)
    async with app.run_test(size=SIZE) as pilot:
        await modal_of(pilot)
        await pilot.press("space")
        await wait_for(pilot, lambda: "☑ 1" in screen_text(app))
        lines = screen_text(app).splitlines()
    first = next(n for n, line in enumerate(lines) if "☑ 1 Keep every session" in line)
    after = next(n for n, line in enumerate(lines) if "☐ 2 OAuth" in line)
    column = lines[first].index("Keep")
    rows = [line[column:].rstrip(" │") for line in lines[first:after]]
    # Wrapped on words, every row of the label and of its description under the label's
    # first letter: the mark's column stays clear.
    assert len(rows) == 4
    assert " ".join(rows[:2]).split() == label.split()
    assert rows[2:] == ["[b]short[/b] sessions", "no refresh"]
    assert all(line[:column].strip(" │") == "" for line in lines[first + 1 : after])


async def test_the_highlighted_option_s_preview_is_shown() -> None:
    app = ElicitationApp(ElicitationQueue(), Asker(parse_request(BATCH)), input_grace=0)
    async with app.run_test(size=SIZE) as pilot:
        modal = await modal_of(pilot)
        preview = modal.panes[0].query_one(".preview", Markdown)
        await wait_for(pilot, lambda: preview.source == "# OAuth\nredirect")
        await pilot.press("down")
        await wait_for(pilot, lambda: preview.source == "# Passwords\nargon2")
        await pilot.press("down")
        await wait_for(pilot, lambda: "No preview" in preview.source)


async def test_a_long_list_scrolls_and_filters() -> None:
    request = QuestionsRequest(
        questions=[
            {
                "question": "Which region?",
                "allow_other": False,
                "options": [f"{area}-{n}" for area in ("eu", "us", "ap", "sa") for n in (1, 2, 3)],
            }
        ]
    )
    asker = Asker(request)
    app = ElicitationApp(ElicitationQueue(), asker, input_grace=0)
    async with app.run_test(size=SIZE) as pilot:
        modal = await modal_of(pilot)
        await pilot.press("a", "p", "-", "2")  # no "Other": typing filters the list
        pane = modal.panes[0]
        assert pane.filter_input is not None and pane.filter_input.value == "ap-2"
        await pilot.press("down", "1")
        await wait_for(pilot, lambda: bool(asker.results))
    assert asker.results[0].content["answers"] == {"Which region?": "ap-2"}


def test_questions_are_refused_when_they_cannot_be_told_apart() -> None:
    twice = {"question": AUTH, "options": ["a"]}
    with pytest.raises(ValidationError, match="appears more than once"):
        QuestionsRequest(questions=[twice, twice])
    with pytest.raises(ValidationError, match="appears more than once"):
        QuestionsRequest(questions=[{"question": AUTH, "options": ["a", "a"]}])


# -- Claude Code's AskUserQuestion and PilotDeck's elicitation shapes ------------------------

CLAUDE_INPUT: dict[str, Any] = {
    "questions": [
        {
            "question": "Which library should we use for date formatting?",
            "header": "Library",
            "options": [
                {"label": "date-fns", "description": "Modular and tree-shakeable"},
                {"label": "Day.js", "description": "Tiny, with a Moment-compatible API"},
            ],
            "multiSelect": False,
        },
        {
            "question": "Which features do you want to enable?",
            "header": "Features",
            "options": [
                {"label": "Dark mode", "description": "Follow the system theme"},
                {"label": "Offline cache", "description": "Service worker with a cache"},
                {"label": "Analytics", "description": "Privacy-friendly page views"},
            ],
            "multiSelect": True,
        },
    ]
}

PILOTDECK_REQUEST: dict[str, Any] = {
    "toolCallId": "toolu_01",
    "toolName": "AskUserQuestion",
    "previewFormat": "markdown",
    "questions": [
        {
            "question": "Which layout for the settings page?",
            "header": "Layout",
            "options": [
                {
                    "label": "Sidebar",
                    "description": "Sections in a left column",
                    "preview": "| nav | form |",
                },
                {"label": "Tabs", "description": "Sections as tabs", "preview": "[a] [b] [c]"},
            ],
        },
        {
            "question": "Which sections ship first?",
            "header": "Sections",
            "options": [
                {"label": "Profile", "description": "Name and avatar"},
                {"label": "Billing", "description": "Plan and invoices"},
            ],
            "multiSelect": True,
        },
    ],
}


async def answered(request: QuestionsRequest, *keys: str) -> ElicitationResult:
    asker = Asker(request)
    app = ElicitationApp(ElicitationQueue(), asker, input_grace=0)
    async with app.run_test(size=SIZE) as pilot:
        await modal_of(pilot)
        await pilot.press(*keys)
        await wait_for(pilot, lambda: bool(asker.results))
    return asker.results[0]


async def test_claude_code_s_input_renders_and_round_trips_to_its_answer_shape() -> None:
    request = from_ask_user_question(CLAUDE_INPUT, source="claude-code")
    assert request.message == "2 questions"
    assert [q.multi_select for q in request.questions] == [False, True]
    # date-fns with a note; Dark mode and Analytics; Review submits.
    result = await answered(
        request, "space", "down", "down", "down", *"v3 only", "enter", "1", "3", "enter", "enter"
    )
    assert to_ask_user_question_answer(request, result) == {
        "answers": {
            "Which library should we use for date formatting?": "date-fns",
            "Which features do you want to enable?": "Dark mode, Analytics",
        },
        "annotations": {"Which library should we use for date formatting?": {"notes": "v3 only"}},
    }
    assert to_ask_user_question_answer(request, ElicitationResult(action="decline")) is None


async def test_pilotdeck_s_request_renders_and_round_trips_to_its_answer_shape() -> None:
    request = from_ask_user_question(PILOTDECK_REQUEST)
    assert request.id == "toolu_01"
    assert request.metadata == {"toolName": "AskUserQuestion"}
    assert request.questions[0].options[1].preview == "[a] [b] [c]"
    result = await answered(request, "2", "1", "2", "down", *"Teams", "enter", "enter")
    assert to_pilotdeck_answer(request, result) == {
        "type": "answered",
        "answers": {
            "Which layout for the settings page?": "Tabs",
            "Which sections ship first?": ["Profile", "Billing", "Teams"],
        },
        "annotations": {"Which layout for the settings page?": {"preview": "[a] [b] [c]"}},
    }


@pytest.mark.parametrize(
    ("result", "answer"),
    [
        (ElicitationResult(action="decline"), {"type": "cancelled", "reason": "user_declined"}),
        (ElicitationResult(action="cancel"), {"type": "cancelled", "reason": "user_cancelled"}),
        (
            ElicitationResult(action="cancel", reason="timeout"),
            {"type": "cancelled", "reason": "timeout"},
        ),
    ],
)
def test_an_unanswered_pilotdeck_request_is_cancelled(
    result: ElicitationResult, answer: dict[str, str]
) -> None:
    assert to_pilotdeck_answer(from_ask_user_question(PILOTDECK_REQUEST), result) == answer


def test_html_previews_and_malformed_input() -> None:
    request = from_ask_user_question({**PILOTDECK_REQUEST, "previewFormat": "html"})
    assert request.preview_format == "html"
    with pytest.raises(ValidationError, match=r"questions\.0\.options"):
        from_ask_user_question({"questions": [{"question": "Why?", "header": "Why"}]})
    with pytest.raises(ValidationError, match="questions"):
        from_ask_user_question({})


async def test_clicking_a_tab_shows_its_question_also_in_a_reloaded_batch() -> None:
    def two(label: str) -> QuestionsRequest:
        return QuestionsRequest(
            message=f"{label} batch",
            questions=[
                Question(question=f"{label} first?", header="First", options=["a", "b"]),
                Question(question=f"{label} second?", header="Second", options=["c", "d"]),
            ],
        )

    asker = Asker(two("Old"), two("New"))
    app = ElicitationApp(ElicitationQueue(), asker, input_grace=0)
    async with app.run_test(size=SIZE) as pilot:
        first = await wait_for_modal(pilot, "Old batch")
        await click_tab(pilot, 1)
        await wait_for(pilot, lambda: "Old second?" in screen_text(app))
        # d, back to the first: a, Enter keeps d, Enter on Review submits
        burst(app, "2", "shift+tab", "shift+tab", "1", "enter", "enter")
        second = await wait_for_modal(pilot, "New batch")
        await pilot.pause()
        reloaded_first_page = "New first?" in screen_text(app)
        await click_tab(pilot, 1)
        await wait_for(pilot, lambda: "New second?" in screen_text(app))
        burst(app, "1", "shift+tab", "shift+tab", "2", "enter", "enter")
        await wait_for(pilot, lambda: len(asker.results) == 2)
    assert second is first
    assert reloaded_first_page
    assert [r.content["answers"] for r in asker.results] == [
        {"Old first?": "a", "Old second?": "d"},
        {"New first?": "b", "New second?": "c"},
    ]


def label_x(strip: PageStrip, page: int) -> int:
    """The strip's column of the first cell of page `page`'s label (its mark)."""
    return sum(label.cell_length + 2 for label in strip.labels[:page]) + 1


async def click_tab(pilot: Any, page: int) -> None:
    """Click the label of page `page` where the dialog's tab strip shows it."""
    strip = pilot.app.screen.query_one(PageStrip)
    row = screen_text(pilot.app).splitlines()[strip.region.y]
    assert await pilot.click(offset=(row.index(strip.labels[page].plain), strip.region.y))


def underlined(text: str) -> str:
    """The label over the tab strip's underline on the screen `text`."""
    lines = text.splitlines()
    row = next(n for n, line in enumerate(lines) if "━" in line and "╺" in line)
    bar = lines[row]
    start = bar.index("╸") + 1 if "╸" in bar[: bar.index("╺")] else bar.index("━")
    return lines[row - 1][start : bar.index("╺")]


async def test_the_tab_strip_underlines_the_question_shown_in_the_frame_that_shows_it() -> None:
    app = ElicitationApp(ElicitationQueue(), Asker(parse_request(BATCH)), input_grace=0)
    async with app.run_test(size=SIZE) as pilot:
        await modal_of(pilot)
        assert underlined(screen_text(app)) == "○ Auth"
        shown = []
        for key in ("tab", "tab", "shift+tab", "right", "tab", "tab"):
            burst(app, key)
            await pilot.pause()
            shown.append(underlined(screen_text(app)))
        await click_tab(pilot, 0)
        await pilot.pause()
        shown.append(underlined(screen_text(app)))
    assert shown == [
        "○ Storage",
        "○ Deploy",
        "○ Storage",
        "○ Deploy",
        "○ License",
        "Review",
        "○ Auth",
    ]


async def test_the_label_under_the_mouse_is_lit_as_the_shown_one_is() -> None:
    app = ElicitationApp(ElicitationQueue(), Asker(parse_request(BATCH)), input_grace=0)
    async with app.run_test(size=SIZE) as pilot:
        await modal_of(pilot)
        strip = app.screen.query_one(PageStrip)

        def colour_of(page: int) -> object:
            x = label_x(strip, page) + 2  # the header's first letter, after the mark and a space
            segments = list(strip.render_line(0).crop(x, x + 1))
            return segments[0].style.color if segments[0].style else None

        shown, dimmed = colour_of(0), colour_of(2)
        assert shown != dimmed
        x = strip.region.x + label_x(strip, 2)
        await pilot.hover(offset=(x, strip.region.y))
        await pilot.pause()
        assert colour_of(2) == shown
        await pilot.hover(offset=(x, strip.region.y + 3))
        await pilot.pause()
        assert colour_of(2) == dimmed


REGION = "Which region?"
SIGN_IN = "How should users sign in to the dashboard?"
TALL_OPTIONS = QuestionsRequest(
    message="Setup",
    questions=[
        Question(
            question=REGION,
            header="Region",
            options=[{"label": f"region-{n}"} for n in range(1, 16)],
        ),
        Question(
            question=SIGN_IN,
            header="Auth",
            options=[
                {
                    "label": label,
                    "description": f"{label} needs a setup and keys of its own, described in"
                    " the runbook the team keeps for the dashboard.",
                }
                for label in ["OAuth", "Magic links", "SSO", "Passwords"]
            ],
        ),
    ],
)
"""Options taller than their share of 80x24: 15 with a filter, then 4 of 3 rows each (as
Claude Code's AskUserQuestion asks, with descriptions)."""


async def test_options_taller_than_their_share_scroll_and_the_rest_of_the_page_stays() -> None:
    asker = Asker(TALL_OPTIONS)
    app = ElicitationApp(ElicitationQueue(), asker, input_grace=0)
    async with app.run_test(size=SIZE) as pilot:
        modal = await modal_of(pilot)
        for question, last in [(REGION, "region-15"), (SIGN_IN, "Passwords")]:
            await wait_for(pilot, lambda q=question: q in screen_text(app))
            await pilot.pause()
            rows = screen_text(app).splitlines()
            # The tabs, the question, its "Other" and note lines, all in view: the dialog's
            # body has nothing to scroll, and no blank row is left under the options.
            assert " Region  " in rows[4] and "Question" in rows[6]
            other = next(i for i, row in enumerate(rows) if "Other   type" in row)
            assert "Note" in rows[other + 1] and "╰" in rows[other + 2]
            assert rows[other - 1].strip("│ ") == "" and rows[other - 2].strip("│ ") != ""
            assert modal.query_one("#body").max_scroll_y == 0
            await pilot.press("end")  # the options scroll, in their own room
            await wait_for(pilot, lambda last=last: last in screen_text(app))
            assert " Region  " in screen_text(app).splitlines()[4]
            await pilot.press("enter")
        await pilot.press("enter")  # on Review: submit
        await wait_for(pilot, lambda: bool(asker.results))
    assert asker.results[0].content == {
        "answers": {REGION: "region-15", SIGN_IN: "Passwords"},
        "notes": {},
    }


LONG_QUESTION = (
    "We found three ways to store uploaded files and each has different costs for latency, "
    "durability and price; which storage backend should the new upload service use in "
    "production and in staging?"
)
DESCRIBED = QuestionsRequest(
    message="A few decisions before I scaffold the service",
    questions=[
        {
            "question": LONG_QUESTION,
            "header": "Storage",
            "options": [
                {"label": "S3", "description": "managed, durable", "preview": "one bucket"},
                {"label": "Local disk"},
                {"label": "Postgres large objects"},
                {"label": "GCS", "description": "google"},
                {"label": "Azure blob", "description": "microsoft"},
                {"label": "MinIO", "description": "self-hosted"},
            ],
        },
        {"question": "Deploy target?", "header": "Deploy", "options": ["Fly", "Render"]},
    ],
)
"""A question of three lines over options of two lines each: the page is taller than 80x24."""


async def test_the_tabs_and_the_progress_stay_in_view_while_a_tall_page_scrolls() -> None:
    # The body scrolled as a whole: the tab strip went off the top, and the person could not
    # see which question they were on.
    app = ElicitationApp(ElicitationQueue(), Asker(DESCRIBED), input_grace=0)
    async with app.run_test(size=SIZE) as pilot:
        await modal_of(pilot)
        await wait_for(pilot, lambda: "MinIO" in screen_text(app))
        for _ in range(8):  # down the options, to Other and Note
            await pilot.press("down")
            await pilot.pause()
            text = screen_text(app)
            assert "○ Storage  ○ Deploy  Review" in text
            assert "Question 1 of 2 · 2 unanswered" in text


MANY = QuestionsRequest(
    questions=[
        {
            "question": f"Which option for step {n}?",
            "header": f"Step {n} of setup",
            "options": ["a"],
        }
        for n in range(1, 9)
    ]
)
"""Eight questions: their tabs are twice as wide as the dialog at 80 columns."""


def strip_row(app: ElicitationApp) -> str:
    """The tab strip's labels, as far as the strip reaches on the screen (a scroll bar beside
    a long page takes the dialog's last columns)."""
    region = app.screen.query_one(PageStrip).region
    return screen_text(app).splitlines()[region.y][region.x : region.right]


async def test_tabs_wider_than_the_dialog_keep_the_one_shown_in_view_cut_with_an_ellipsis() -> None:
    app = ElicitationApp(ElicitationQueue(), Asker(MANY), input_grace=0)
    async with app.run_test(size=SIZE) as pilot:
        await modal_of(pilot)
        seen = [(strip_row(app), underlined(screen_text(app)))]
        for _ in range(8):
            burst(app, "tab")
            await pilot.pause()
            seen.append((strip_row(app), underlined(screen_text(app))))
        await click_tab(pilot, 5)
        await pilot.pause()
        clicked = underlined(screen_text(app))
    labels = [f"○ Step {n} of setup" for n in range(1, 9)] + ["Review"]
    # Each page's label is on screen and underlined as it is shown.
    assert [shown for _, shown in seen] == labels
    first, *middle, review = [row for row, _ in seen]
    assert first.startswith(" ○ Step 1 of setup ") and first.endswith("…")
    assert review.startswith("…") and review.endswith(" Review ")
    assert all(row.startswith("…") and row.endswith("…") for row in middle[2:-2])
    assert clicked == "○ Step 6 of setup"


@pytest.mark.parametrize("size", [(80, 24), (70, 24), (60, 20)], ids=str)
async def test_code_in_a_preview_wraps_at_spaces_and_after_punctuation_not_inside_a_word(
    size: tuple[int, int],
) -> None:
    from tui.cli.demo import scaffold_questions

    app = ElicitationApp(
        ElicitationQueue(), Asker(scaffold_questions("billing-api")), input_grace=0
    )
    async with app.run_test(size=size) as pilot:
        modal = await wait_for_modal(pilot)
        await pilot.pause()
        fence = modal.query_one(".preview MarkdownFence")
        region = fence.content_region
        rows = screen_text(app).splitlines()[region.y : region.bottom]
        code = [row[region.x : region.right].strip() for row in rows]
    # `oauth.google.authorize_redirect(request)` is longer than the pane: it was cut inside
    # a word ("authorize_redire" / "ct(request)"); after a `.`, `_` or `(` it still reads.
    joined = [row for row in code if row]
    assert not any(row.startswith(("ct(", "quest)", "ect(")) for row in joined)
    assert "redirect(request)" in " ".join(joined).replace("_ ", "_").replace("( ", "(")


def test_code_wrapped_at_a_space_still_breaks_after_punctuation_past_it() -> None:
    from widgets.code_wrap import _breaks

    # The `.` after "cdefg" was forgotten at the break at the space before it: "cdefg.hijk"
    # then "lmnopq", cut inside a word.
    text = "ab cdefg.hijklmnopq"
    rows = [
        text[start:end]
        for start, end in zip([0, *_breaks(text, 10)], [*_breaks(text, 10), None], strict=True)
    ]
    assert rows == ["ab ", "cdefg.", "hijklmnopq"]
