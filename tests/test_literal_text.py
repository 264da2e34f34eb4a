"""Text an agent or a server supplies is shown exactly as written: markup is never parsed, and
control characters are shown as their pictures, never sent on to the terminal to act on."""

from __future__ import annotations

import asyncio
import socket
from typing import Any

import pytest
from app_driver import screen_text, wait_for, wait_for_modal
from mcp import Client
from mcp.types import Implementation

from tui import ElicitationApp, ElicitationQueue, ElicitationResult, parse_request
from tui.app.serve_app import ServeApp

MARKUP = "[/x] [bold]b[/bold] [link=https://e.x]l[/link] [@click=app.quit]q[/]"
"""Each of these, parsed as markup, crashes the app, styles text, adds a link or an action."""

CONTROLS = "\x1b[2J\x1b]0;owned\x07\u202e\u200b"
"""Sent to the terminal, these clear the screen and retitle the window (up to the bell); then
a right-to-left override, which reverses the text after it where text is laid out both ways,
and a zero-width space, which draws nothing."""
CONTROLS_SHOWN = "␛[2J␛]0;owned␇\\u202e\\u200b"

BIG = (160, 50)
"""Wide enough that every field shows its start unwrapped."""


def marked(tag: str) -> str:
    return f"{tag} {MARKUP} {CONTROLS}"


REQUESTS: dict[str, tuple[dict[str, Any], list[str]]] = {
    "text": (
        {
            "kind": "text",
            "message": marked("msg"),
            "title": marked("title"),
            "source": marked("src"),
            "description": marked("desc"),
            "default": marked("default"),
        },
        ["msg", "title", "src", "desc"],
    ),
    "choice": (
        {
            "kind": "choice",
            "message": marked("msg"),
            "options": [{"label": marked("label"), "description": marked("hint")}, "[/y]"],
        },
        ["msg", "label", "hint"],
    ),
    "multi_choice": (
        {
            "kind": "multi_choice",
            "message": marked("msg"),
            "options": [{"label": marked("label"), "value": "v"}, "[/y]"],
        },
        ["msg", "label"],
    ),
    "secret": (
        {
            "kind": "secret",
            "message": marked("msg"),
            "placeholder": marked("placeholder"),
            "pattern": marked("pattern"),
            "store": {"service": marked("service"), "username": "u"},
        },
        ["msg", "placeholder", "pattern"],
    ),
    "confirmation": (
        {
            "kind": "confirmation",
            "message": marked("msg"),
            "yes_label": "[/yes]",
            "no_label": "[bold]no",
        },
        ["msg", "[/yes]", "[bold]no"],
    ),
    "form": (
        {
            "kind": "form",
            "message": marked("msg"),
            "requested_schema": {
                "type": "object",
                "properties": {
                    "a": {"type": "string", "title": "[/title]", "description": marked("help")},
                    "b": {"type": "string", "enum": ["x", "y"], "enumNames": [marked("en"), "z"]},
                    "c": {
                        "type": "array",
                        "items": {"anyOf": [{"const": "p", "title": marked("any")}]},
                    },
                    "d": {"type": "string", "enum": [f"[/e{n}]" for n in range(12)]},
                },
            },
        },
        ["msg", "[/title]", "help", "en", "any"],
    ),
    "questions": (
        {
            "kind": "questions",
            "questions": [
                {
                    "question": marked("q1"),
                    "header": "[/h1]",
                    "options": [
                        {"label": marked("label"), "description": "[/d]", "preview": marked("pv")},
                        "[/o]",
                    ],
                },
                {"question": marked("q2"), "header": "[bold]h2", "options": ["[/p]"]},
            ],
        },
        ["q1", "[/h1]", "[bold]h2", "label", "pv"],
    ),
    "tool_approval": (
        {
            "kind": "tool_approval",
            "tool_name": marked("tool"),
            "summary": marked("summary"),
            "arguments": {"cmd": marked("arg")},
            "diff": marked("diff"),
            "tool_call_id": "call_1",
        },
        ["tool", "summary", "arg", "diff"],
    ),
    "url": (
        {"kind": "url", "message": marked("msg"), "url": "https://example.com/[/x]"},
        ["msg", "https://example.com/[/x]"],
    ),
}


@pytest.mark.parametrize("kind", list(REQUESTS))
async def test_every_field_of_every_kind_is_shown_literally(kind: str) -> None:
    data, tags = REQUESTS[kind]
    results: list[ElicitationResult] = []

    def agent(queue: ElicitationQueue) -> str:
        results.append(queue.ask(parse_request(data)))
        return MARKUP + CONTROLS

    app = ElicitationApp(ElicitationQueue(), agent, input_grace=0)
    async with app.run_test(size=BIG) as pilot:
        await wait_for_modal(pilot)
        await pilot.pause(0.1)
        shown = screen_text(app)
        if kind == "questions":  # the second tab, then Review, quote headers and questions too
            await pilot.press("right")
            await pilot.pause(0.1)
            shown += screen_text(app)
            await pilot.press("right")
            await pilot.pause(0.1)
            shown += screen_text(app)
        await pilot.press("escape")
        await wait_for(pilot, lambda: bool(results) and app.agent_result is not None)
        shown += screen_text(app)
        assert app.is_running

    for tag in tags:
        literal = tag if "[" in tag else f"{tag} [/x] [bold]b[/bold]"
        assert literal in shown, f"{tag!r} is not shown literally"
    assert "[@click=app.quit]q[/]" in shown
    assert CONTROLS_SHOWN in shown
    assert "\x1b" not in shown and "\x07" not in shown, "a control character reached the screen"
    assert "\u202e" not in shown and "\u200b" not in shown, "a hiding character reached it"
    assert results == [ElicitationResult(action="cancel")]


async def test_a_notification_quotes_the_question_literally() -> None:
    queue = ElicitationQueue()
    app = ElicitationApp(queue, input_grace=0)
    async with app.run_test(size=BIG) as pilot:
        request = parse_request({"kind": "text", "message": marked("late")})
        queue.submit(request)
        await wait_for_modal(pilot)
        queue.cancel(request.id)
        await wait_for(pilot, lambda: bool(app._notifications))
        message = next(iter(app._notifications)).message
        assert app.is_running
    assert f"late {MARKUP}" in message


async def test_an_agent_error_is_shown_literally() -> None:
    def agent(queue: ElicitationQueue) -> None:
        raise RuntimeError(marked("boom"))

    app = ElicitationApp(ElicitationQueue(), agent, input_grace=0)
    async with app.run_test(size=BIG) as pilot:
        await wait_for(pilot, lambda: bool(app._notifications))
        await pilot.pause(0.1)
        shown = screen_text(app)
        assert app.is_running
    assert f"boom {MARKUP}"[:60] in shown


async def test_through_serve_questions_and_client_names_are_shown_literally(
    listener: socket.socket,
) -> None:
    app = ServeApp(ElicitationQueue(policy="wait"), listener, token=None, input_grace=0)
    question = {
        "question": marked("q"),
        "header": "[/h]",
        "options": [{"label": marked("label"), "description": marked("hint")}, {"label": "[/o]"}],
    }

    async def ask() -> Any:
        client_info = Implementation(name="[/x]claude", title=marked("client"), version="1")
        async with Client(app.url, client_info=client_info) as client:
            return await client.call_tool("ask_user", {"questions": [question]})

    async with app.run_test(size=BIG) as pilot:
        task = asyncio.ensure_future(ask())
        await wait_for_modal(pilot, timeout=15)
        await pilot.pause(0.1)
        shown = screen_text(app)
        await pilot.press("1")
        result = await asyncio.wait_for(task, 15)
        assert app.is_running

    for tag in ("q", "label", "hint", "client"):
        assert f"{tag} [/x] [bold]b[/bold]" in shown, tag
    assert result.structured_content["answers"] == {marked("q"): marked("label")}


TABBED = {
    "text": {"kind": "text", "message": "m1\tm2", "placeholder": "p1\tp2"},
    "choice": {"kind": "choice", "message": "m1\tm2", "options": ["o1\to2", "数据\tw2"]},
    "multi_choice": {"kind": "multi_choice", "message": "m", "options": ["o1\to2"]},
    "confirmation": {"kind": "confirmation", "message": "m1\tm2", "yes_label": "y1\ty2"},
    "questions": {
        "kind": "questions",
        "questions": [{"question": "q1\tq2", "header": "h", "options": ["o1\to2", "x"]}],
    },
    "form": {
        "kind": "form",
        "message": "m",
        "requested_schema": {
            "type": "object",
            "properties": {
                "a": {"type": "string", "title": "t1\tt2", "enum": ["x"], "enumNames": ["o1\to2"]},
                "b": {"type": "array", "items": {"anyOf": [{"const": "p", "title": "c1\tc2"}]}},
            },
        },
    },
    "tool_approval": {
        "kind": "tool_approval",
        "tool_name": "edit",
        "arguments": {"path": "main.go"},
        "diff": "+func main() {\n+\td1\td2\n+}",
        "tool_call_id": "call_1",
    },
}
"""A tab in each kind of text an agent writes: a question, a placeholder, an option (one
after wide characters), a button's label, a diff's indent."""

TABBED_SHOWN = {
    "text": ["m1      m2", "p1      p2"],
    "choice": ["m1      m2", "o1      o2", "数据    w2"],
    "multi_choice": ["o1      o2"],
    "confirmation": ["m1      m2", "y1      y2"],
    "questions": ["q1      q2", "o1      o2"],
    "form": ["t1      t2", "o1      o2", "c1      c2"],
    "tool_approval": ["+       d1      d2"],
}
"""The same, each tab shown as the spaces to the next tab stop (every 8 cells, counted from
the start of its own text), as a terminal shows it."""


@pytest.mark.parametrize("kind", list(TABBED))
async def test_a_tab_is_shown_as_the_room_it_takes_never_as_nothing(kind: str) -> None:
    queue = ElicitationQueue()
    app = ElicitationApp(queue, input_grace=0)
    async with app.run_test(size=BIG) as pilot:
        queue.submit(parse_request(TABBED[kind]))
        await wait_for_modal(pilot)
        await pilot.pause(0.1)
        shown = screen_text(app)
    for text in TABBED_SHOWN[kind]:
        assert text in shown, f"{text!r} is not on the screen"
    assert "m1m2" not in shown and "d1d2" not in shown


HTML = "Run cp <src> <dst>, then <b>check</b> it."
"""Markdown's inline HTML: a terminal draws none, and Textual dropped it ("Run cp , then")."""

HTML_BLOCK = "<details>\nopen <kbd>Enter</kbd>\n</details>"
"""An HTML block, which Textual dropped whole."""


async def test_html_in_markdown_is_shown_as_written() -> None:
    queue = ElicitationQueue()
    app = ElicitationApp(queue, input_grace=0)
    async with app.run_test(size=BIG) as pilot:
        queue.submit(parse_request({"kind": "text", "message": "m", "description": HTML}))
        await wait_for_modal(pilot)
        await pilot.pause(0.1)
        described = screen_text(app)
        await pilot.press("escape")
        preview = {"label": "a", "preview": f"{HTML}\n\n{HTML_BLOCK}"}
        queue.submit(
            parse_request(
                {"kind": "questions", "questions": [{"question": "q", "options": [preview, "b"]}]}
            )
        )
        await wait_for(pilot, lambda: "Run cp" in screen_text(app))
        await pilot.pause(0.1)
        previewed = screen_text(app)
    assert HTML in described
    assert HTML in previewed
    for line in HTML_BLOCK.splitlines():
        assert line in previewed
