"""A request JSON without `kind`, or with the kind named as the CLI names it, is refused in
plain words naming the right spelling (from `parse_request`, `ask --json`, `ask` reading
stdin and `POST /v1/requests` to a real `serve --headless`); `multiSelect`, the MCP
`ask_user` tool's spelling, is read as `multi_select`."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from front_end_processes import HeadlessInbox, elicit
from pydantic import ValidationError

from tui import QuestionsRequest, parse_request
from tui.core.validation_text import describe_validation_error

MISSING = "kind: missing; one of 'text', 'choice', "
QUESTIONS = {
    "kind": "questions",
    "message": "Setup",
    "questions": [
        {"question": "Which DB?", "header": "DB", "options": ["Postgres", "SQLite"]},
        {
            "question": "Which extras?",
            "header": "Extras",
            "options": ["a", "b"],
            "multiSelect": True,
        },
    ],
}

SPELLINGS: list[tuple[dict[str, Any], str]] = [
    ({"message": "x"}, MISSING),
    ({}, MISSING),
    (
        {"kind": "confirm", "message": "Deploy?"},
        "kind: 'confirm' is not a kind registered here: did you mean 'confirmation'?"
        " (`ask confirm` is the command's name for it)",
    ),
    (
        {"kind": "multi", "message": "Which?", "options": ["a", "b"]},
        "kind: 'multi' is not a kind registered here: did you mean 'multi_choice'?"
        " (`ask multi` is the command's name for it)",
    ),
]


def refusal(data: dict[str, Any]) -> str:
    with pytest.raises(ValidationError) as refused:
        parse_request(data)
    return describe_validation_error(refused.value)


@pytest.mark.parametrize(("data", "said"), SPELLINGS)
def test_parse_request_names_the_spelling_wanted(data: dict[str, Any], said: str) -> None:
    assert said in refusal(data)
    assert "discriminator" not in refusal(data)


@pytest.mark.parametrize(("data", "said"), SPELLINGS)
def test_every_path_says_the_same(
    tmp_path: Path, inbox: HeadlessInbox, data: dict[str, Any], said: str
) -> None:
    text = json.dumps(data)
    to = ["--to", inbox.url, "--token", inbox.token]
    for done in (
        elicit(tmp_path, "ask", *to, "--json", text),
        elicit(tmp_path, "ask", *to, stdin=text),
    ):
        assert done.returncode == 3, done.stderr
        assert said in done.stderr
    status, reply = inbox.call("POST", "/v1/requests", {"request": data})
    assert status == 422
    assert said in reply["error"]


def test_multi_select_is_also_read_as_the_ask_user_tool_spells_it(inbox: HeadlessInbox) -> None:
    request = parse_request(QUESTIONS)
    assert isinstance(request, QuestionsRequest)
    assert [question.multi_select for question in request.questions] == [False, True]
    status, reply = inbox.call("POST", "/v1/requests", {"request": QUESTIONS})
    assert status == 201, reply
