"""`elicit-tui ask` in process: flags and JSON to requests, results to JSON, the one-modal app."""

from __future__ import annotations

import argparse
import asyncio
import datetime
import io
import json
from pathlib import Path
from typing import Any

import pytest
from app_driver import wait_for
from pydantic import BaseModel, SecretStr

from tui import (
    ChoiceRequest,
    ConfirmationRequest,
    ElicitationResult,
    FormRequest,
    KeyringTarget,
    MultiChoiceRequest,
    SecretRef,
    SecretRequest,
    TextRequest,
    parse_request,
)
from tui.app.ask_app import AskApp
from tui.app.replay_app import ReplayApp
from tui.cli.ask import (
    EXIT_INVALID,
    REDACTED,
    InvalidRequest,
    build_parser,
    build_request,
    exit_status,
    main,
    raw_text,
    result_json,
)
from tui.transcript.reader import read_transcript
from tui.transcript.timing import Timing
from widgets.base import ElicitationModal

SIZE = (80, 24)


def request_from(*argv: str, stdin: str | None = None) -> Any:
    args = build_parser().parse_args(argv)
    return build_request(args, io.StringIO(stdin) if stdin is not None else None)


# -- flags and JSON -> requests -------------------------------------------------------


def test_choice_flags() -> None:
    request = request_from(
        "choice", "Which DB?", "-o", "Postgres", "-o", "SQLite", "--default", "SQLite"
    )

    assert isinstance(request, ChoiceRequest)
    assert request.message == "Which DB?"
    assert [o.value for o in request.options] == ["Postgres", "SQLite"]
    assert request.default == "SQLite"


def test_multi_flags_and_alias() -> None:
    for kind in ("multi", "multi_choice"):
        request = request_from(
            kind, "Features?", "-o", "a", "-o", "b", "-o", "c", "--default", "a", "--default", "c",
            "--min", "1", "--max", "2",
        )  # fmt: skip

        assert isinstance(request, MultiChoiceRequest)
        assert request.default == ["a", "c"]
        assert (request.min_selected, request.max_selected) == (1, 2)


def test_text_flags() -> None:
    request = request_from("text", "Notes?", "--default", "none", "--multiline", "--timeout", "30")

    assert isinstance(request, TextRequest)
    assert (request.default, request.multiline, request.timeout) == ("none", True, 30.0)


def test_secret_store_splits_at_the_last_slash() -> None:
    request = request_from("secret", "Token?", "--store", "https://api.example.com/ada")

    assert isinstance(request, SecretRequest)
    assert request.store == KeyringTarget(service="https://api.example.com", username="ada")


@pytest.mark.parametrize(("flag", "default"), [([], False), (["--default", "yes"], True)])
def test_confirm_flags(flag: list[str], default: bool) -> None:
    request = request_from("confirm", "Deploy?", *flag, "--yes-label", "Ship it")

    assert isinstance(request, ConfirmationRequest)
    assert (request.default, request.yes_label, request.no_label) == (default, "Ship it", "No")


def test_form_schema_flag() -> None:
    schema = {"type": "object", "properties": {"name": {"type": "string"}}}
    request = request_from("form", "Who?", "--schema", json.dumps(schema), "--title", "Setup")

    assert isinstance(request, FormRequest)
    assert request.requested_schema == schema
    assert request.title == "Setup"


def test_json_flag_and_stdin_give_the_same_request() -> None:
    data = {"kind": "choice", "id": "q1", "message": "Which DB?", "options": ["a", "b"]}

    from_flag = request_from("--json", json.dumps(data))
    from_stdin = request_from(stdin=json.dumps(data))

    assert from_flag == from_stdin == parse_request(data)


@pytest.mark.parametrize(
    ("argv", "stdin", "message"),
    [
        (["choice", "Q", "-o", "a", "--default", "b"], None, "choice.default: 'b' is not one of the options: 'a'"),
        (["--json", '{"kind": "choice", "message": "Q", "options": []}'], None, "choice.options: List should have at least 1 item"),
        (["--json", '{"kind": "nope", "message": "Q"}'], None, "kind: 'nope' is not a kind registered here (registered: 'text', 'choice'"),
        (["--json", "{not json"], None, "the request is not valid JSON"),
        (["--json", "[1, 2]"], None, "the request must be a JSON object, not array"),
        (["form", "Q", "--schema", '{"type": "object", "properties": {"a": {"type": "object"}}}'], None, "form.requested_schema"),
        (["form", "Q", "--schema", "nope"], None, "the --schema is not valid JSON"),
        (["--json", "{}", "choice", "Q", "-o", "a"], None, "not both"),
        ([], "", "no request given"),
    ],
)  # fmt: skip
def test_invalid_requests_say_what_is_wrong(
    argv: list[str], stdin: str | None, message: str
) -> None:
    with pytest.raises(InvalidRequest) as raised:
        request_from(*argv, stdin=stdin)

    assert message in str(raised.value)


@pytest.mark.parametrize(
    "argv",
    [
        ["--bogus"],
        ["choice", "Q"],
        ["confirm", "Q", "--default", "maybe"],
        ["text", "Q", "--timeout", "soon"],
        ["secret", "Q", "--store", "no-slash"],
        ["nope", "Q"],
    ],
)
def test_usage_errors_exit_3_not_argparse_2(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exited:
        main(argv)

    assert exited.value.code == EXIT_INVALID
    assert "error:" in capsys.readouterr().err


def test_invalid_request_exits_3_with_the_reason_on_stderr(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code = main(["--json", '{"kind": "choice", "message": "Q", "options": ["a"], "default": "z"}'])

    captured = capsys.readouterr()
    assert code == EXIT_INVALID
    assert captured.out == ""
    assert "'z' is not one of the options" in captured.err


def test_the_reason_quotes_the_request_without_acting_on_its_escape_sequences(
    capsys: pytest.CaptureFixture[str],
) -> None:
    request = {"kind": "choice", "message": "Q", "options": ["a"], "default": "z\x1b[2J"}
    code = main(["--json", json.dumps({**request, "bo\x1b]0;owned\x07gus": 1})])

    err = capsys.readouterr().err
    assert code == EXIT_INVALID
    assert "'z\\x1b[2J' is not one of the options" in err  # the model quotes with repr()
    assert "choice.bo␛]0;owned␇gus: Extra inputs are not permitted" in err
    assert "\x1b" not in err and "\x07" not in err


def test_reveal_secret_given_before_or_after_the_kind() -> None:
    parser = build_parser()

    assert parser.parse_args(["--reveal-secret", "secret", "Q"]).reveal_secret is True
    assert parser.parse_args(["secret", "Q", "--reveal-secret"]).reveal_secret is True
    assert parser.parse_args(["secret", "Q"]).reveal_secret is False


@pytest.mark.parametrize("kind", [["text", "Q"], ["confirm", "Q"], ["choice", "Q", "-o", "a"]])
def test_where_to_ask_and_record_given_before_or_after_the_kind(
    kind: list[str], tmp_path: Path
) -> None:
    parser = build_parser()
    where = ["--to", "http://127.0.0.1:9", "--token", "t", "--transcript", str(tmp_path / "t")]

    before, after = parser.parse_args([*where, *kind]), parser.parse_args([*kind, *where])

    for args in (before, after):
        assert (args.to, args.token, args.transcript) == ("http://127.0.0.1:9", "t", tmp_path / "t")
    plain = parser.parse_args(kind)
    assert (plain.to, plain.token, plain.transcript, plain.reveal_secret) == (
        None,
        None,
        None,
        False,
    )
    assert parser.parse_args(["--to", "http://a", *kind]).to == "http://a"  # not undone after


def test_a_timeout_given_before_or_after_the_kind_or_with_json() -> None:
    # Before KIND it read as the kind: "argument KIND: invalid choice: '3'".
    assert request_from("--timeout", "3", "text", "Q").timeout == 3
    assert request_from("text", "Q", "--timeout", "3").timeout == 3
    assert request_from("--timeout", "3", "text", "Q", "--timeout", "5").timeout == 5
    assert request_from("text", "Q").timeout is None
    json_request = '{"kind": "text", "message": "Q", "timeout": 9}'
    assert request_from("--timeout", "3", "--json", json_request).timeout == 3
    assert request_from("--json", json_request).timeout == 9


def test_ask_is_registered_on_the_elicit_tui_command() -> None:
    from tui.cli.main import build_parser as cli_parser

    args = cli_parser().parse_args(["ask", "--json", "{}", "--reveal-secret"])

    assert args.arguments == ["--json", "{}", "--reveal-secret"]
    assert isinstance(args, argparse.Namespace)


# -- results -> JSON ------------------------------------------------------------------


def test_result_json_has_action_content_and_reason() -> None:
    result = ElicitationResult(action="accept", content=["a", "b"])

    assert json.loads(result_json(result)) == {
        "action": "accept",
        "content": ["a", "b"],
        "reason": None,
    }
    assert json.loads(result_json(ElicitationResult(action="cancel", reason="timeout"))) == {
        "action": "cancel",
        "content": None,
        "reason": "timeout",
    }


def test_a_typed_secret_is_redacted_unless_revealed() -> None:
    result = ElicitationResult(action="accept", content=SecretStr("sk-CANARY-never"))

    assert "sk-CANARY" not in result_json(result)
    assert json.loads(result_json(result))["content"] == REDACTED
    assert json.loads(result_json(result, reveal_secret=True))["content"] == "sk-CANARY-never"


class Login(BaseModel):
    user: str
    password: SecretStr
    when: datetime.date


@pytest.mark.parametrize(
    "content",
    [
        {"user": "ada", "password": SecretStr("pw-CANARY-form"), "when": datetime.date(2026, 1, 2)},
        Login(user="ada", password=SecretStr("pw-CANARY-form"), when=datetime.date(2026, 1, 2)),
    ],
)
def test_a_forms_password_field_is_redacted_unless_revealed(content: Any) -> None:
    result = ElicitationResult(action="accept", content=content)

    assert "pw-CANARY" not in result_json(result)
    assert json.loads(result_json(result))["content"]["password"] == REDACTED
    revealed = json.loads(result_json(result, reveal_secret=True))["content"]
    assert revealed == {"user": "ada", "password": "pw-CANARY-form", "when": "2026-01-02"}
    assert "pw-CANARY-form" in raw_text(result, reveal_secret=True)


def test_a_stored_secret_prints_its_reference_even_when_revealing() -> None:
    result = ElicitationResult(action="accept", content=SecretRef(service="github", username="ada"))

    assert json.loads(result_json(result, reveal_secret=True))["content"] == {
        "service": "github",
        "username": "ada",
    }


# -- the one-modal app ----------------------------------------------------------------


CHOICE = {"kind": "choice", "message": "Which DB?", "options": ["Postgres", "SQLite"]}


async def run_ask(data: dict[str, Any], *keys: str) -> tuple[Any, AskApp]:
    app = AskApp(parse_request(data), input_grace=0)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, ElicitationModal))
        modal = app.screen
        # The dialog fills the screen above the modal's footer.
        assert modal.query_one("#dialog").outer_size.width == SIZE[0]
        assert modal.query_one("#dialog").outer_size.height >= SIZE[1] - 1
        await pilot.press(*keys)
        await wait_for(pilot, lambda: not app.is_running)
    return app.return_value, app


async def test_the_app_builds_no_main_screen_behind_its_dialog() -> None:
    app = AskApp(parse_request(CHOICE), input_grace=0)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, ElicitationModal))
        assert list(app.screen_stack[0].walk_children()) == []
        await pilot.press("2")
        await wait_for(pilot, lambda: not app.is_running)
    assert app.return_value == ElicitationResult(action="accept", content="SQLite")


@pytest.mark.parametrize(
    ("keys", "expected"),
    [
        (("2",), ElicitationResult(action="accept", content="SQLite")),
        (("down", "enter"), ElicitationResult(action="accept", content="SQLite")),
        (("ctrl+n",), ElicitationResult(action="decline")),
        (("escape",), ElicitationResult(action="cancel")),
    ],
)
async def test_the_app_returns_the_result(
    keys: tuple[str, ...], expected: ElicitationResult
) -> None:
    result, _ = await run_ask(CHOICE, *keys)

    assert result == expected


async def test_quitting_instead_of_answering_cancels_as_closed() -> None:
    result, app = await run_ask(CHOICE, "ctrl+q")

    assert result == ElicitationResult(action="cancel", reason="closed")
    assert app.queue.closed


@pytest.mark.parametrize(
    ("how", "reason"),
    [("ctrl+c", "interrupted"), ("terminated", "terminated"), ("hung_up", "hung_up")],
)
async def test_the_transcript_records_the_reason_ask_ends_with(
    tmp_path: Path, how: str, reason: str
) -> None:
    # Ctrl+C, SIGTERM and a terminal gone were recorded as `closed`, and replayed so.
    path = tmp_path / "session.jsonl"
    app = AskApp(parse_request(CHOICE), input_grace=0, transcript=path)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, ElicitationModal))
        if how == "ctrl+c":
            await pilot.press(how)
        else:
            await getattr(app, how)()
        await wait_for(pilot, lambda: not app.is_running)

    assert app.return_value == ElicitationResult(action="cancel", reason=reason)
    records = [json.loads(line) for line in path.read_text().splitlines()]
    [result] = [record["result"] for record in records if record["type"] == "result"]
    assert result == {"action": "cancel", "content": None, "reason": reason}
    assert records[-1]["type"] == "end"
    ended = f"The request was cancelled ({reason}); no answer was given."
    assert records[-1]["returned"] == ended  # as the replay's main screen shows it
    replay = ReplayApp(read_transcript(path), timing=Timing(speed=4, max_pause=0.2))
    await replay.run_async(headless=True, size=SIZE, auto_pilot=replay.player.drive)
    assert replay.replay_agent.summary() == "1 result, all as recorded"


@pytest.mark.parametrize("second", ["hung_up", "terminated"])
async def test_keys_typed_before_an_end_from_outside_stay_in_the_transcript_if_a_second_comes(
    tmp_path: Path, second: str
) -> None:
    # `kill -HUP` and then the terminal closing (or SIGTERM after it): the second end wrote
    # the shown question's keys again, none left to write, and the empty record replaced them.
    path = tmp_path / "session.jsonl"
    app = AskApp(
        parse_request({"kind": "text", "message": "Name?"}), input_grace=0, transcript=path
    )
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, ElicitationModal))
        await pilot.press(*"ada")
        await asyncio.gather(app.hung_up(), getattr(app, second)())
        await wait_for(pilot, lambda: not app.is_running)

    assert app.return_value == ElicitationResult(action="cancel", reason="hung_up")
    [times] = read_transcript(path).key_times().values()
    assert len(times) == 3


async def test_ctrl_c_cancels_as_interrupted() -> None:
    result, app = await run_ask(CHOICE, "ctrl+c")

    assert result == ElicitationResult(action="cancel", reason="interrupted")
    assert app.queue.closed


@pytest.mark.parametrize(
    ("data", "result", "status"),
    [
        (CHOICE, ElicitationResult(action="accept", content="SQLite"), 0),
        (CHOICE, ElicitationResult(action="decline"), 1),
        (CHOICE, ElicitationResult(action="cancel", reason="timeout"), 2),
        (CHOICE, ElicitationResult(action="cancel", reason="interrupted"), 130),
        ({"kind": "confirmation", "message": "Go?"}, ElicitationResult(action="accept", content=True), 0),
        ({"kind": "confirmation", "message": "Go?"}, ElicitationResult(action="accept", content=False), 1),
        ({"kind": "confirmation", "message": "Go?"}, ElicitationResult(action="decline"), 1),
        ({"kind": "confirmation", "message": "Go?"}, ElicitationResult(action="cancel"), 2),
    ],
    ids=["accept", "decline", "cancel", "interrupted", "yes", "no", "confirm-decline", "confirm-cancel"],
)  # fmt: skip
def test_exit_status(data: dict[str, Any], result: ElicitationResult, status: int) -> None:
    assert exit_status(parse_request(data), result) == status


async def test_a_timeout_ends_the_app_with_cancel() -> None:
    app = AskApp(parse_request({**CHOICE, "timeout": 0.3}), input_grace=0)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: not app.is_running)

    assert app.return_value == ElicitationResult(action="cancel", reason="timeout")
