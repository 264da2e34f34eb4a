"""At 80x24 and without colour: what the screens say, where the focus goes, what is in view."""

from __future__ import annotations

import re
import socket
import threading
from pathlib import Path
from typing import Any

import httpx
import pytest
from app_driver import screen_text
from mcp import Client
from test_app import SIZE, wait_for
from textual.widgets import Input
from textual.widgets._footer import FooterKey

from tui import ElicitationApp, ElicitationQueue, ElicitationResult, parse_request
from tui.app.app import BELL_VARIABLE
from tui.app.screenshot import SCREENSHOT_DIR_VARIABLE
from tui.app.serve_app import ServeApp
from tui.cli.ask import raw_text
from tui.cli.demo import DEPLOY_SCHEMA, health_check_edit, scaffold_questions, setup_service_agent
from tui.core.config_folder import CONFIG_DIR_ENV
from tui.core.models import (
    ConfirmationRequest,
    FormRequest,
    MultiChoiceRequest,
    TextRequest,
)
from tui.core.secret_ref import SecretRef
from tui.secrets.redaction import REDACTOR
from tui.testing.scripted import ScriptedResponder
from widgets.agent_status import AgentStatus
from widgets.base import ElicitationModal
from widgets.checklist import Checklist
from widgets.form import FormModal
from widgets.timeline import Timeline, outcome_text


@pytest.fixture(autouse=True)
def no_remembered_approvals(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(CONFIG_DIR_ENV, str(tmp_path / "config"))


def asking(*requests: Any, **kwargs: Any) -> tuple[ElicitationApp, ElicitationQueue]:
    # "wait": the requests wait for the app to subscribe, instead of being cancelled.
    queue = ElicitationQueue(policy="wait")
    app = ElicitationApp(queue, input_grace=0, **kwargs)
    for request in requests:
        queue.submit(request)
    return app, queue


def shown(app: ElicitationApp) -> ElicitationModal[Any] | None:
    screen = app.screen
    return screen if isinstance(screen, ElicitationModal) else None


def question_shown(app: ElicitationApp) -> str | None:
    """The question the modal in front asks, if one is."""
    modal = shown(app)
    return modal.request.message if modal is not None else None


def footer_keys(app: ElicitationApp) -> dict[str, str]:
    """What the footer shows: key → description, for the bindings it displays."""
    return {
        b.binding.key_display or b.binding.key: b.binding.description
        for b in app.screen.active_bindings.values()
        if b.binding.show and b.enabled
    }


# -- glyphs ------------------------------------------------------------------------------------


async def test_a_checklist_says_ticked_with_a_glyph_not_a_colour() -> None:
    request = MultiChoiceRequest(message="Which?", options=["a", "b", "c"], default=["a"])
    app, _ = asking(request)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: shown(app) is not None)
        checklist = app.screen.query_one(Checklist)
        await pilot.press("down", "space")
        lines = [checklist.render_line(y).text for y in range(3)]

    assert [line[0] for line in lines] == ["☑", "☑", "☐"]
    assert "▐X▌" not in "".join(lines)


async def test_a_form_checklist_uses_the_same_glyphs() -> None:
    schema = {
        "type": "object",
        "properties": {"checks": {"type": "array", "items": {"enum": ["tests", "lint"]}}},
    }
    app, _ = asking(FormRequest(message="CI", requested_schema=schema))
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, FormModal))
        checklist = app.screen.query_one(Checklist)
        await pilot.press("space")
        lines = [checklist.render_line(y).text for y in range(2)]

    assert [line[0] for line in lines] == ["☑", "☐"]


# -- the timeline at 80 columns ------------------------------------------------------------------


@pytest.mark.parametrize("columns", [SIZE[0], 36])
async def test_timeline_cells_fit_80_columns_and_are_cut_with_an_ellipsis(columns: int) -> None:
    # 36: `attach` in a side pane.
    question = "Which of these deployment regions should the billing service run in " * 2
    request = parse_request({"kind": "text", "source": "setup-agent", "message": question})
    app, queue = asking(request)
    async with app.run_test(size=(columns, SIZE[1])) as pilot:
        await wait_for(pilot, lambda: shown(app) is not None)
        queue.respond(request.id, ElicitationResult(action="accept", content="eu-west-1 " * 8))
        await wait_for(pilot, lambda: shown(app) is None)
        timeline = app.query_one(Timeline)
        # The table is redrawn once its rows stop changing (REDRAW_DELAY).
        await wait_for(pilot, lambda: request.id in timeline.rows)
        row = [str(cell) for cell in timeline.get_row(request.id)]
        width = sum(column.get_render_width(timeline) for column in timeline.columns.values())

    assert width <= columns
    assert row[2].endswith("…") and row[3].endswith("…")
    assert row[3].startswith("setup-agent: Which of these"[: len(row[3]) - 1])
    assert timeline.cells(request.id)["question"] == f"setup-agent: {question}"


async def test_a_denial_shows_its_reason_in_the_timeline() -> None:
    request = health_check_edit("call-2", "billing-api")
    app, queue = asking(request)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: shown(app) is not None)
        await pilot.press("n", *"not now", "enter")
        await wait_for(pilot, lambda: not queue.is_pending(request.id))
        await pilot.pause()
        outcome = app.query_one(Timeline).cells(request.id)["outcome"]

    assert outcome == "✖ declined: not now"


@pytest.mark.parametrize(
    ("reason", "outcome"),
    [
        ("timeout", "⊘ timed out"),
        ("cancelled_by_agent", "⊘ withdrawn"),
        ("closed", "⊘ closed"),
        ("keyring_unavailable", "⊘ cancelled (keyring_unavailable)"),
        ("unsupported_kind: card", "⊘ cannot show here"),
        ("dialog_failed: card (KeyError)", "⊘ dialog failed"),
        (None, "⊘ cancelled"),
    ],
)
def test_a_cancel_says_why_in_words_that_fit_the_outcome_column(
    reason: str | None, outcome: str
) -> None:
    # "cancelled (cancelled_by_agent)" was cut to "⊘ cancelled (cancell…" at 80 columns.
    request = parse_request({"kind": "text", "message": "Name?"})
    assert outcome_text(request, ElicitationResult(action="cancel", reason=reason)) == outcome


async def test_the_reason_field_of_a_denial_is_in_view_at_80x24() -> None:
    app, _ = asking(health_check_edit("call-2", "billing-api"))
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: shown(app) is not None)
        await pilot.press("n", *"not now")
        await pilot.pause()
        reason = app.screen.query_one("#deny-reason", Input)
        assert reason.has_focus and reason.value == "not now"
        # On screen, above the footer, and not scrolled out of its dialog.
        region = reason.region
        dialog = app.screen.query_one("#dialog").region
        assert region.height == 1 and 0 <= region.y < SIZE[1] - 1
        assert dialog.contains_region(region)


@pytest.mark.parametrize(
    ("width", "footer"),
    [
        (
            80,
            " ⏎ Choose  1/y Once  2 Session  3 Always  4/n Deny  e Edit  esc Cancel  ^q Quit",
        ),
        (50, " ⏎ Choose  1/y Once  2 Session  3 Always …"),
        # The call's box takes what the answers leave (their hints under their labels).
        (30, " ⏎ Choose  1/y Once …"),
    ],
)
async def test_the_footer_shows_the_dialogs_own_keys_first_and_says_when_keys_are_cut(
    width: int, footer: str
) -> None:
    app, _ = asking(health_check_edit("call-2", "billing-api"))
    async with app.run_test(size=(width, 24)) as pilot:
        await wait_for(pilot, lambda: screen_text(app).splitlines()[-1].strip() != "")
        await pilot.pause()
        assert screen_text(app).splitlines()[-1].rstrip() == footer
        if width < 80:
            # Wider again, every key shows and the "…" goes.
            await pilot.resize_terminal(80, 24)
            await wait_for(pilot, lambda: "^q Quit" in screen_text(app).splitlines()[-1])
            assert "…" not in screen_text(app).splitlines()[-1]


async def test_a_click_on_the_cut_footers_ellipsis_shows_the_keys_after_it() -> None:
    # A phone has no keys to press: Deny, Cancel and Quit were out of its reach at 30 columns.
    app, _ = asking(health_check_edit("call-2", "billing-api"))
    async with app.run_test(size=(30, 24)) as pilot:
        await wait_for(pilot, lambda: screen_text(app).splitlines()[-1].strip() != "")
        await pilot.pause()
        pages = []
        for _ in range(6):
            pages.append(screen_text(app).splitlines()[-1].rstrip())
            await pilot.click(".more")
            await pilot.pause()
        assert pages == [
            " ⏎ Choose  1/y Once …",
            " 2 Session  3 Always …",
            " 4/n Deny  e Edit …",
            " esc Cancel  ^q Quit …",
            " ⏎ Choose  1/y Once …",
            " 2 Session  3 Always …",
        ]
        # The sixth click brought Deny's page back.
        deny = next(key for key in app.screen.query(FooterKey) if key.action == "deny")
        assert deny.display
        await pilot.click(deny)
        await wait_for(pilot, lambda: app.screen.query("#deny-reason").first().has_focus)


async def test_long_yes_and_no_labels_wrap_in_their_buttons_both_in_full_view() -> None:
    yes = "Yes, delete everything including all of the nightly backups forever"
    no = "No, keep it and take me back to safety right now please"
    app, _ = asking(
        parse_request(
            {"kind": "confirmation", "message": "Drop it?", "yes_label": yes, "no_label": no}
        )
    )
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: shown(app) is not None)
        await pilot.pause()
        dialog = app.screen.query_one("#dialog").region
        widgets = [app.screen.query_one(f"#{name}") for name in ("yes", "no")]
        buttons = [widget.region for widget in widgets]
        rows = app.screen._compositor.render_strips()
        text = [
            " ".join(rows[y].text[c.x : c.right] for y in range(c.y, c.bottom))
            for c in (widget.content_region for widget in widgets)
        ]

    # Side by side, inside the dialog; every word of each label on screen, in its button.
    assert all(dialog.contains_region(button) for button in buttons)
    assert buttons[0].right <= buttons[1].x
    for label, shown_text in zip((yes, no), text, strict=True):
        assert shown_text.split() == label.split()


@pytest.mark.parametrize("size", [(60, 20), (80, 24)])
async def test_yes_and_no_labels_of_different_lengths_sit_in_buttons_of_one_height(
    size: tuple[int, int],
) -> None:
    yes = "Yes, drop the database and every nightly backup of it"
    no = "No, keep everything as it is"
    app, _ = asking(ConfirmationRequest(message="Drop it?", yes_label=yes, no_label=no))
    async with app.run_test(size=size) as pilot:
        await wait_for(pilot, lambda: shown(app) is not None)
        await pilot.pause()
        widgets = [app.screen.query_one(f"#{name}") for name in ("yes", "no")]
        heights = {widget.region.height for widget in widgets}
        rows = app.screen._compositor.render_strips()
        lines = [
            [rows[y].text[c.x : c.right].strip() for y in range(c.y, c.bottom)]
            for c in (widget.content_region for widget in widgets)
        ]

    assert len(heights) == 1
    for label, shown_lines in zip((yes, no), lines, strict=True):
        assert " ".join(shown_lines).split() == label.split()
        # The label in the middle of its button, as many blank rows above it as below, or one
        # more below.
        used = [number for number, line in enumerate(shown_lines) if line]
        above, below = used[0], len(shown_lines) - 1 - used[-1]
        assert below - above in (0, 1), shown_lines


async def test_a_label_too_long_for_a_button_is_cut_with_an_ellipsis_inside_the_dialog() -> None:
    """A label of 300 characters overran the dialog at 60x20, its buttons' foot and the
    dialog's edge off screen, the label cut there without a mark. A secret in it is masked
    before the cut, never cut in two and missed."""
    canary = "sk-canary-8d1f0c2a"
    REDACTOR.register(canary)
    yes = "x" * 70 + canary + " word" * 40
    app, _ = asking(ConfirmationRequest(message="Go?", yes_label=yes, no_label="No"))
    async with app.run_test(size=(60, 20)) as pilot:
        await wait_for(pilot, lambda: shown(app) is not None)
        await pilot.pause()
        dialog = app.screen.query_one("#dialog").region
        button = app.screen.query_one("#yes").region
        text = screen_text(app)

    assert dialog.contains_region(button)
    assert dialog.bottom <= 19  # the dialog's foot on screen, above the footer
    assert "…" in text and "canary" not in text and "8d1f" not in text


# -- the question batch --------------------------------------------------------------------------


async def test_a_batch_keeps_its_top_edge_and_offers_tick_only_where_it_ticks() -> None:
    app, _ = asking(scaffold_questions("billing-api"))
    tops: list[int] = []
    keys: list[dict[str, str]] = []
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: shown(app) is not None)
        for _ in range(3):
            await pilot.pause()
            tops.append(app.screen.query_one("#dialog").region.y)
            keys.append(footer_keys(app))
            await pilot.press("tab")

    assert len(set(tops)) == 1
    # Auth and API pick one; CI picks any.
    assert ["space" in k for k in keys] == [False, False, True]
    assert keys[2]["space"] == "Tick"


async def test_option_descriptions_hang_under_their_label() -> None:
    app, _ = asking(scaffold_questions("billing-api"))
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: shown(app) is not None)
        await pilot.pause()
        options = app.screen.query_one(".options")
        lines = [options.render_line(y).text for y in range(3)]

    # "○ 1 OAuth", then its description wrapped, each line starting under the label.
    label_at = lines[0].index("OAuth")
    assert lines[1][:label_at].strip() == "" and lines[1][label_at] != " "
    assert lines[2][:label_at].strip() == "" and lines[2][label_at] != " "


async def test_tool_approval_hints_go_beside_or_under_their_labels_in_a_narrow_pane() -> None:
    app, _ = asking(health_check_edit("call-2", "billing-api"))
    async with app.run_test(size=(45, 24)) as pilot:
        await wait_for(pilot, lambda: shown(app) is not None)
        await pilot.pause()
        choices = app.screen.query_one("#choices")
        lines = [choices.render_line(y).text.rstrip() for y in range(choices.size.height)]

    # A hint is beside its label where it fits there on one line, else under the label,
    # starting where the label does: never back at the list's left edge, under the numbers.
    numbered = [n for n, line in enumerate(lines) if line[:2] in ("1 ", "2 ", "3 ", "4 ")]
    assert len(numbered) == 4
    assert lines[0].endswith("just this call")
    under = [line for n, line in enumerate(lines) if n not in numbered and line.strip()]
    assert under
    assert all(line[:2] == "  " and line[2] != " " for line in under)


async def test_a_long_pick_one_label_in_a_form_wraps_beside_its_mark() -> None:
    long = "eu-west-1-in-the-dublin-availability-zones-behind-the-shared-edge-proxies-of-2024"
    schema = {
        "type": "object",
        "properties": {"region": {"type": "string", "enum": [long, "us-east-1"]}},
        "required": ["region"],
    }
    app, _ = asking(FormRequest(message="Where?", requested_schema=schema))
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: shown(app) is not None)
        await pilot.pause()
        options = app.screen.query_one(".radio")
        lines = [options.render_line(y).text.rstrip() for y in range(3)]

    # "○ 1 eu-west-1-…", the rest of the label under its start, never a mark alone on a line.
    assert lines[0][0] in "●○" and lines[0][1:].startswith(" 1 eu-west-1-")
    assert lines[1].startswith("    ") and lines[1].strip() and long.endswith(lines[1].strip())
    assert lines[2] == "○ 2 us-east-1"


async def test_a_long_choice_label_and_its_description_start_under_the_label() -> None:
    label = "Keep every session on the server and sign it again each hour, so stolen cookies expire"
    app, _ = asking(
        parse_request(
            {
                "kind": "choice",
                "message": "Which?",
                "options": [{"label": label, "description": "slower"}, "Short"],
            }
        )
    )
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: shown(app) is not None)
        await pilot.pause()
        options = app.screen.query_one("#options")
        lines = [options.render_line(y).text.rstrip() for y in range(4)]

    # "1 Keep every…", then the rest of the label and the description two cells in.
    assert lines[0].startswith("1 Keep every session")
    assert lines[1].startswith("  ") and label.endswith(lines[1].strip())
    assert lines[2] == "  slower"
    assert lines[3] == "2 Short"


@pytest.mark.parametrize(
    "data",
    [
        {
            "kind": "multi_choice",
            "message": "Which?",
            "options": [{"label": "first\nsecond", "description": "d1\nd2"}, "other"],
        },
        {
            "kind": "form",
            "message": "Which?",
            "requested_schema": {
                "type": "object",
                "properties": {
                    "f": {
                        "type": "array",
                        "items": {"anyOf": [{"const": "a", "title": "first\nsecond"}]},
                    }
                },
            },
        },
    ],
    ids=["multi_choice", "form"],
)
async def test_a_checklist_entry_of_several_lines_shows_them_all_on_its_one(
    data: dict[str, Any],
) -> None:
    # Textual's Selection keeps a prompt's first line only: "second" was nowhere on screen.
    app, _ = asking(parse_request(data))
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: shown(app) is not None)
        await pilot.pause()
        rows = [line for line in screen_text(app).splitlines() if "☐" in line]

    assert "first ⏎ second" in rows[0]
    if data["kind"] == "multi_choice":
        assert "— d1 ⏎ d2" in rows[0]


async def test_a_required_field_keeps_its_mark_whatever_its_title() -> None:
    long = "The fully qualified domain name under which the production service will answer"
    schema = {
        "type": "object",
        "properties": {
            "domain": {"type": "string", "title": long},
            "owner": {"type": "string", "title": "Owner\nof the service"},
        },
        "required": ["domain", "owner"],
    }
    app, _ = asking(FormRequest(message="Where?", requested_schema=schema))
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: shown(app) is not None)
        await pilot.pause()
        tops = [line for line in screen_text(app).splitlines() if _FIELD_TOP.search(line)]

    # Cut with an ellipsis before the `*`, not the `*` cut off; both lines of a title shown.
    # (The first field is in use: its border heavy.)
    assert "┏━ The fully qualified domain name under which the production serv… * ━" in tops[0]
    assert "╭─ Owner ⏎ of the service * ─" in tops[1]

    # In a narrow pane, and as one is narrowed, cut shorter: the `*` still shows.
    app, _ = asking(FormRequest(message="Where?", requested_schema=schema))
    async with app.run_test(size=(40, 20)) as pilot:
        await wait_for(pilot, lambda: shown(app) is not None)
        await pilot.pause()
        narrow = [line for line in screen_text(app).splitlines() if _FIELD_TOP.search(line)]
        await pilot.resize_terminal(32, 20)
        await pilot.pause()
        narrower = [line for line in screen_text(app).splitlines() if _FIELD_TOP.search(line)]
    assert "┏━ The fully qualified dom… * ━" in narrow[0]
    assert "┏━ The fully quali… * ━" in narrower[0]


async def test_a_required_field_keeps_its_mark_in_a_form_that_scrolls() -> None:
    # The full app's dialog (attach's) is narrower than `ask`'s, and a form taller than the
    # screen gives its scrollbar two more columns: the title was cut for a wider box, and
    # the border then cut its `*`.
    long = "Name 0 NAME with a quite long title that will not fit on one line of the dialog"
    fields = {f"field{n}": {"type": "string"} for n in range(12)}
    schema = {
        "type": "object",
        "properties": {"name": {"type": "string", "title": long}, **fields},
        "required": ["name"],
    }
    app, _ = asking(FormRequest(message="Who?", requested_schema=schema))
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: shown(app) is not None)
        await pilot.pause()
        tops = [line for line in screen_text(app).splitlines() if _FIELD_TOP.search(line)]
    assert "┏━ Name 0 NAME with a quite long title that will not fit on one … * ━┓" in tops[0]


_FIELD_TOP = re.compile("╭─ |┏━ ")
"""The top edge of a field's box, where its title is: light, or heavy for the field in use."""


async def test_a_tab_named_by_a_header_of_two_lines_shows_both() -> None:
    batch = {
        "kind": "questions",
        "questions": [
            {"question": "Q1?", "header": "Data\nstore", "options": ["a", "b"]},
            {"question": "Q2?", "header": "Cache", "options": ["c"]},
        ],
    }
    app, _ = asking(parse_request(batch))
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: shown(app) is not None)
        await pilot.pause()
        text = screen_text(app)

    assert "○ Data ⏎ store  ○ Cache  Review" in text


# -- forms: what Enter does ---------------------------------------------------------------------


async def test_enter_on_an_invalid_field_stays_there() -> None:
    app, queue = asking(FormRequest(message="Deploy", requested_schema=DEPLOY_SCHEMA))
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, FormModal) and app.screen.complete)
        form = app.screen
        assert isinstance(form, FormModal)
        await pilot.press("enter", "enter", *"ab", "enter", *"cd")
        await pilot.pause()
        domain = form.fields[2]
        assert form.focused is domain.control
        assert isinstance(domain.control, Input) and domain.control.value == "abcd"
        assert footer_keys(app)["enter"] == "Next"
        await pilot.press("enter")
        await pilot.pause()
        # On the last field, Enter says, and does, Submit.
        assert footer_keys(app)["enter"] == "Submit"
        assert queue.is_pending(form.request.id)
        await pilot.press("enter")
        await wait_for(pilot, lambda: not queue.is_pending(form.request.id))


async def test_a_lone_field_says_submit() -> None:
    schema = {"type": "object", "properties": {"replicas": {"type": "integer", "minimum": 1}}}
    app, _ = asking(FormRequest(message="Deploy", requested_schema=schema))
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, FormModal))
        await pilot.pause()
        assert footer_keys(app)["enter"] == "Submit"


# -- status line ----------------------------------------------------------------------------------


async def test_serve_says_where_it_serves_and_how_many_connections_are_open() -> None:
    listener = socket.create_server(("127.0.0.1", 0))
    app = ServeApp(ElicitationQueue(), listener, input_grace=0, token=None)
    async with app.run_test(size=SIZE) as pilot:
        status = app.query_one(AgentStatus)
        await wait_for(pilot, lambda: "Serving" in status.summary)
        assert status.summary == f"◉ Serving MCP at {app.url} · 0 connections"
        async with Client(app.url) as client:
            await client.list_tools()
            await wait_for(pilot, lambda: "· 0 connections" not in status.summary, timeout=5)
        assert "No agent attached" not in status.summary


async def test_serve_says_its_front_ends_apart_from_other_connections() -> None:
    # An `attach` or a browser tab counted as an MCP connection: "5 connections" with no MCP
    # client at all.
    listener = socket.create_server(("127.0.0.1", 0))
    app = ServeApp(ElicitationQueue(), listener, input_grace=0, token=None)
    events = f"{app.url.removesuffix('/mcp')}/v1/events"
    async with app.run_test(size=SIZE) as pilot, httpx.AsyncClient(timeout=None) as http:
        status = app.query_one(AgentStatus)
        async with http.stream("GET", events, params={"front_end": "tab"}) as stream:
            assert stream.status_code == 200
            await wait_for(pilot, lambda: "front end" in status.summary, timeout=5)
            said = status.summary
        await wait_for(pilot, lambda: "front end" not in status.summary, timeout=5)
    assert said == f"◉ Serving MCP at {app.url} · 1 front end attached · 0 other connections"


async def test_serve_refuses_a_secret_up_front_without_a_keyring(no_keyring: object) -> None:
    listener = socket.create_server(("127.0.0.1", 0))
    queue = ElicitationQueue()
    app = ServeApp(queue, listener, input_grace=0, token=None)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        async with Client(app.url) as client:
            result = await client.call_tool(
                "request_secret", {"message": "Token?", "service": "github", "username": "ada"}
            )
        await pilot.pause()
        # Nobody was asked to type a secret that could not be kept.
        assert shown(app) is None
        assert app.query_one(Timeline).row_count == 0
        assert queue.pending() == []

    assert result.structured_content == {
        "action": "cancel",
        "stored": False,
        "service": None,
        "username": None,
        "reason": "keyring_unavailable",
    }
    assert "PYTHON_KEYRING_BACKEND" in result.content[0].text


async def test_a_running_agent_can_say_what_it_does() -> None:
    app = ElicitationApp(ElicitationQueue(), input_grace=0)
    async with app.run_test(size=SIZE) as pilot:
        app.set_activity("Connected to MCP server weather")
        status = app.query_one(AgentStatus)
        await wait_for(pilot, lambda: "weather" in status.summary)
        assert status.summary == "● Connected to MCP server weather"


async def test_a_long_status_keeps_to_its_line_cut_with_an_ellipsis() -> None:
    # Textual draws a lone rich Text by its own rules, not its no_wrap: a long activity, or
    # `attach --name` with a long name, wrapped onto two or three lines over the timeline.
    app = ElicitationApp(ElicitationQueue(), input_grace=0)
    activity = "Fetching " + "the-weather-of-every-town-in-the-county " * 3 + "END"
    async with app.run_test(size=SIZE) as pilot:
        app.set_activity(activity)
        status = app.query_one(AgentStatus)
        await wait_for(pilot, lambda: "Fetching" in status.summary)
        await pilot.pause()
        assert status.size.height == 1
        line = next(line for line in screen_text(app).splitlines() if "Fetching" in line)
        assert "END" not in line and "…" in line


# -- screenshots, the bell ---------------------------------------------------------------------


async def test_a_screenshot_goes_to_the_folder_named_and_says_where(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(SCREENSHOT_DIR_VARIABLE, str(tmp_path))
    app = ElicitationApp(ElicitationQueue(), input_grace=0)
    async with app.run_test(size=SIZE) as pilot:
        saved = app.deliver_screenshot("shot.svg")
        await pilot.pause()
        said = [n.message for n in app._notifications]

    assert saved == str(tmp_path / "shot.svg")
    assert (tmp_path / "shot.svg").read_text().startswith("<svg")
    assert said == [f"Saved screenshot to {tmp_path / 'shot.svg'}"]


async def test_a_screenshot_to_a_missing_folder_says_why(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    missing = tmp_path / "nowhere"
    monkeypatch.setenv(SCREENSHOT_DIR_VARIABLE, str(missing))
    app = ElicitationApp(ElicitationQueue(), input_grace=0)
    async with app.run_test(size=SIZE) as pilot:
        assert app.deliver_screenshot() is None
        await pilot.pause()
        said = [n.message for n in app._notifications]

    assert said == [f"Screenshot not saved: {missing} is not an existing folder"]
    assert not missing.exists()


class CountingBells(ElicitationApp):
    rung = 0

    def bell(self) -> None:
        self.rung += 1


@pytest.mark.parametrize(
    ("setting", "bell", "rings"), [(None, None, 1), ("0", None, 0), (None, False, 0)]
)
async def test_the_bell_can_be_turned_off(
    monkeypatch: pytest.MonkeyPatch, setting: str | None, bell: bool | None, rings: int
) -> None:
    if setting is not None:
        monkeypatch.setenv(BELL_VARIABLE, setting)
    queue = ElicitationQueue()
    app = CountingBells(queue, input_grace=0, bell=bell)
    async with app.run_test(size=SIZE) as pilot:
        queue.submit(parse_request({"kind": "confirmation", "message": "Go?"}))
        await wait_for(pilot, lambda: shown(app) is not None)

    assert app.rung == rings


# -- the demo's summary -------------------------------------------------------------------------


def test_the_demo_summary_carries_a_denial_reason() -> None:
    queue = ElicitationQueue(policy="wait")
    health = health_check_edit("call-2", "billing-api")
    answers: dict[str, Any] = {
        "What should the new service be called?": "billing-api",
        "Which web framework should billing-api use?": "fastapi",
        "Which features should the scaffold include?": ["postgres"],
        "A few decisions before I scaffold billing-api": {
            "answers": {
                "How should users sign in?": "OAuth",
                "Which API style?": "REST",
                "Which checks should CI run on every push?": ["Tests"],
            },
            "notes": {},
        },
        "Run the test suite: uv run pytest -q": {"scope": "once"},
        health.message: ElicitationResult(action="decline", content={"reason": "not now"}),
        "Run the test suite: uv run pytest -q tests/test_health.py": {"scope": "once"},
        "Paste the deploy API key for the hosting provider": SecretRef(service="s", username="u"),
        "Where and how should it be deployed?": {
            "region": "eu-west-1",
            "instances": 2,
            "domain": "example.com",
        },
        "Everything is ready. Deploy billing-api now?": True,
    }
    ScriptedResponder(queue, answers)
    summary = setup_service_agent(queue, pause=0)

    assert summary["edit"] == "(decline: not now)"


async def test_the_finished_status_is_a_table_of_what_the_agent_returned() -> None:
    app = ElicitationApp(
        ElicitationQueue(), lambda queue: {"name": "billing-api", "status": "deployed"}
    )
    async with app.run_test(size=(80, 24)) as pilot:
        status = app.query_one(AgentStatus)
        await wait_for(pilot, lambda: status.has_class("finished"))
        lines = [status.render_line(y).text.rstrip() for y in range(3)]

    assert lines == ["✔ Agent finished and returned:", "name    billing-api", "status  deployed"]


DEMO_SUMMARY = {
    "name": "invoice-api",
    "framework": "FastAPI",
    "features": "PostgreSQL, Authentication, Metrics",
    "decisions": "Auth: OAuth; API: GraphQL; CI: Tests, Lint, Types",
    "run_tests": "allowed for this session",
    "edit": "allowed once",
    "rerun_tests": "allowed for this session",
    "api_key": "•••",
    "deployment": "region=us-east-1, instances=3, domain=invoices.example.com, https=True",
    "deploy_now": "Deploy",
    "status": "deployed",
}


@pytest.mark.parametrize(("size", "rows"), [((80, 24), 10), ((60, 20), 12)], ids=["80x24", "60x20"])
async def test_a_long_summary_leaves_the_timeline_newest_rows_in_view(
    size: tuple[int, int], rows: int
) -> None:
    drawn = threading.Event()

    def agent(queue: ElicitationQueue) -> dict[str, str]:
        for n in range(1, rows + 1):
            queue.ask(TextRequest(message=f"Question {n}?"))
        drawn.wait(10)
        return DEMO_SUMMARY

    app = ElicitationApp(ElicitationQueue(), agent, input_grace=0)
    async with app.run_test(size=size) as pilot:
        for n in range(1, rows + 1):
            await wait_for(pilot, lambda n=n: question_shown(app) == f"Question {n}?")
            await pilot.press(*"ok", "enter")
        # As in the demo: the rows drawn at full height, then the summary comes above them.
        timeline = app.query_one(Timeline)
        await wait_for(pilot, lambda: timeline.row_count == rows)
        await pilot.pause(0.2)
        drawn.set()
        status = app.query_one(AgentStatus)
        await wait_for(pilot, lambda: status.has_class("finished"))
        await pilot.pause(0.2)
        screen = screen_text(app)
        # Every key of the summary is accounted for: in its row, or counted (and named, room
        # allowing) on the line after the rows.
        more = re.search(r"^ \+(\d+) more: (.*?) *$", screen, re.M)
        assert more is not None
        in_rows = [key for key in DEMO_SUMMARY if re.search(rf"^ {key}  ", screen, re.M)]
        assert in_rows == list(DEMO_SUMMARY)[: len(in_rows)]
        assert len(in_rows) + int(more[1]) == len(DEMO_SUMMARY)
        assert more[2].startswith(list(DEMO_SUMMARY)[len(in_rows)])
        # The newest rows under it, and the keys to the rest.
        assert f"Question {rows}?" in screen
        # At 80x24 all ten fit under it, as in the demo; at 60x20 twelve do not.
        assert ("Question 1?" in screen) == (size == (80, 24))
        if "Question 1?" not in screen:
            assert footer_keys(app).get("↑↓") == "Rows"
            await pilot.press("home")
            await wait_for(pilot, lambda: "Question 1?" in screen_text(app))
            await pilot.press("end")
            await wait_for(pilot, lambda: f"Question {rows}?" in screen_text(app))


def test_raw_text_is_the_content_alone() -> None:
    accept = ElicitationResult
    assert raw_text(accept(action="accept", content=["a", "b"])) == "a\nb"
    assert raw_text(accept(action="accept", content="SQLite")) == "SQLite"
    assert raw_text(accept(action="accept", content=True)) == "true"
    assert raw_text(accept(action="accept", content={"replicas": 2})) == '{"replicas": 2}'
    assert (
        raw_text(accept(action="accept", content=SecretRef(service="github", username="ada")))
        == "github/ada"
    )
    assert raw_text(accept(action="decline")) == ""
    assert raw_text(accept(action="cancel", reason="timeout")) == ""


async def test_a_line_break_in_the_source_keeps_the_header_on_one_line() -> None:
    # A folder named with a line break split the header "Claude Code (proj⏎x) · ⏱ 28s".
    app, _ = asking(parse_request({"kind": "text", "message": "Name?", "source": "a\nb"}))
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: "Name?" in screen_text(app))
        rows = screen_text(app).splitlines()
        assert any("a ⏎ b" in row for row in rows), rows[:3]
