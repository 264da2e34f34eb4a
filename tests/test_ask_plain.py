"""`elicit-tui ask --plain`: line prompts through a pipe, the same JSON and exit status as the UI."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from asking import ended_by
from test_ask_terminal import REPO, environment

CANARY = "sk-CANARY-41d0-never-print-me"


def plain(
    tmp_path: Path, typed: str, *args: str, env: dict[str, str] | None = None
) -> tuple[int, Any, str]:
    """Run `elicit-tui ask ARGS` without a terminal, `typed` piped to its stdin; the exit
    status, the JSON printed, and the prompts."""
    finished = run_plain(tmp_path, typed, *args, env=env)
    out = finished.stdout
    return finished.returncode, json.loads(out) if out.strip() else None, finished.stderr


def run_plain(
    tmp_path: Path, typed: str, *args: str, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "tui.cli", "ask", *args],
        input=typed,
        capture_output=True,
        text=True,
        cwd=REPO,
        env={**environment(tmp_path), **(env or {})},
        # No controlling terminal: the prompts go to stderr, the answers come from stdin.
        start_new_session=True,
        timeout=30,
    )


def asking_plainly(tmp_path: Path, *args: str) -> subprocess.Popen[str]:
    """`elicit-tui ask ARGS` without a terminal, its stdin a pipe kept open: nobody answers."""
    return subprocess.Popen(
        [sys.executable, "-m", "tui.cli", "ask", *args],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=REPO,
        env=environment(tmp_path),
        start_new_session=True,
    )


def accepted(content: Any) -> dict[str, Any]:
    return {"action": "accept", "content": content, "reason": None}


def shell_approval(command: str, pattern: str) -> dict[str, Any]:
    """A tool approval of a shell `command`, "always" remembering the commands `pattern` matches."""
    return {
        "kind": "tool_approval",
        "tool_name": "shell",
        "arguments": {"command": command},
        "tool_call_id": "c1",
        "remember": {"argument": "command", "pattern": pattern},
    }


def test_choice_numbered_and_a_wrong_number_asked_again(tmp_path: Path) -> None:
    code, result, prompts = plain(
        tmp_path, "7\n2\n", "choice", "Which DB?", "-o", "Postgres", "-o", "SQLite", "--plain"
    )

    assert (code, result) == (0, accepted("SQLite"))
    assert "  1) Postgres\n  2) SQLite\n" in prompts
    assert prompts.count("Type a number, 1-2:") == 2
    assert "✖ Type a number from 1 to 2." in prompts


def test_an_agents_control_characters_are_shown_not_acted_on(tmp_path: Path) -> None:
    code, result, prompts = plain(
        tmp_path,
        "1\n",
        "choice",
        "Wipe \x1b[2Jthe screen?\x07",
        "-o",
        "yes\x1b]0;owned\x07",
        "-o",
        "no",
        "--plain",
    )

    assert (code, result) == (0, accepted("yes\x1b]0;owned\x07"))  # the answer as it was
    assert "\x1b" not in prompts and "\x07" not in prompts
    assert "Wipe ␛[2Jthe screen?␇" in prompts
    assert "  1) yes␛]0;owned␇\n" in prompts


def test_choice_default_on_an_empty_line(tmp_path: Path) -> None:
    args = ("choice", "Which DB?", "-o", "Postgres", "-o", "SQLite", "--default", "SQLite")
    code, result, prompts = plain(tmp_path, "\n", *args, "--plain")

    assert (code, result) == (0, accepted("SQLite"))
    assert "Type a number, 1-2 [2]:" in prompts


def test_multi_numbers_separated_by_spaces_within_bounds(tmp_path: Path) -> None:
    args = ("multi", "Which?", "-o", "auth", "-o", "jobs", "-o", "metrics", "--min", "2")
    code, result, prompts = plain(tmp_path, "2\n1 3\n", *args, "--plain")

    assert (code, result) == (0, accepted(["auth", "metrics"]))
    assert "✖ Pick at least 2 (you picked 1)." in prompts
    assert "☐ 1) auth" in prompts
    # "- for none" was offered where none is not an answer.
    assert "Type numbers separated by spaces, at least 2:" in prompts


def test_multi_says_how_to_pick_none_where_none_is_an_answer(tmp_path: Path) -> None:
    # "-" itself was refused as no number, and the question asked again.
    args = ("multi", "Which?", "-o", "auth", "-o", "jobs", "--default", "jobs")
    code, result, prompts = plain(tmp_path, "-\n", *args, "--plain")

    assert (code, result) == (0, accepted([]))
    assert "Type numbers separated by spaces (- for none) [2]:" in prompts


def test_multi_names_the_most_it_takes_as_well(tmp_path: Path) -> None:
    # Only the least was named: "at least 1:", then "Pick at most 2 (you picked 3)".
    options = ("-o", "auth", "-o", "jobs", "-o", "metrics")
    code, result, prompts = plain(
        tmp_path, "1 3\n", "multi", "Which?", *options, "--min", "1", "--max", "2", "--plain"
    )
    assert (code, result) == (0, accepted(["auth", "metrics"]))
    assert "Type numbers separated by spaces, 1 to 2:" in prompts
    code, result, prompts = plain(
        tmp_path, "-\n", "multi", "Which?", *options, "--max", "2", "--plain"
    )
    assert (code, result) == (0, accepted([]))
    assert "Type numbers separated by spaces, at most 2 (- for none) [none]:" in prompts
    _, _, prompts = plain(
        tmp_path, "1 2\n", "multi", "Which?", *options, "--min", "2", "--max", "2", "--plain"
    )
    assert "Type numbers separated by spaces, exactly 2:" in prompts


def test_text_too_short_asked_again(tmp_path: Path) -> None:
    request = {"kind": "text", "message": "Name?", "min_length": 3}
    code, result, prompts = plain(tmp_path, "ab\nabc\n", "--json", json.dumps(request), "--plain")

    assert (code, result) == (0, accepted("abc"))
    assert "✖ Too short: at least 3 characters (you typed 2)." in prompts


def test_multiline_text_ends_with_a_dot(tmp_path: Path) -> None:
    code, result, _ = plain(tmp_path, "one\ntwo\n.\n", "text", "Notes?", "--multiline", "--plain")

    assert (code, result) == (0, accepted("one\ntwo"))


def test_confirm_yes_and_no(tmp_path: Path) -> None:
    code, result, prompts = plain(tmp_path, "maybe\ny\n", "confirm", "Deploy?", "--plain")
    assert (code, result) == (0, accepted(True))
    assert "✖ Type y (Yes) or n (No)." in prompts

    code, result, _ = plain(tmp_path, "n\n", "confirm", "Deploy?", "--plain")
    assert result == accepted(False)


def test_secret_never_echoed_and_checked(tmp_path: Path) -> None:
    request = {"kind": "secret", "message": "Token?", "pattern": "sk-...", "min_length": 8}
    code, result, prompts = plain(
        tmp_path, f"nope-nope\n{CANARY}\n", "--json", json.dumps(request), "--plain"
    )
    assert (code, result) == (0, accepted("**********"))
    assert "✖ That does not look like sk-...\n" in prompts  # one sentence, not "sk-...."
    assert "nope-nope" not in prompts
    assert CANARY not in prompts

    code, result, _ = plain(
        tmp_path, f"{CANARY}\n", "secret", "Token?", "--plain", "--reveal-secret"
    )
    assert (code, result) == (0, accepted(CANARY))


def test_form_field_by_field_with_its_error_repeated(tmp_path: Path) -> None:
    schema = {
        "type": "object",
        "properties": {
            "replicas": {"type": "integer", "title": "Replicas", "minimum": 1},
            "region": {"type": "string", "enum": ["eu", "us"]},
            "https": {"type": "boolean", "default": True},
        },
        "required": ["replicas", "region"],
    }
    typed = "0\nlots\n3\n5\n2\n\n"
    args = ("form", "Deploy", "--schema", json.dumps(schema), "--plain")
    code, result, prompts = plain(tmp_path, typed, *args)

    assert (code, result) == (0, accepted({"replicas": 3, "region": "us", "https": True}))
    assert prompts.count("Replicas (required, at least 1)") == 1
    assert prompts.count("  Value:") == 3
    assert "  Value: 0\n  ✖ " in prompts
    assert "✖ Type a number from 1 to 2." in prompts


def test_a_form_with_a_password_field_is_accepted_its_value_masked(tmp_path: Path) -> None:
    # It was refused as a SecretStr "not of type 'string'", and asked again for ever.
    schema = {
        "type": "object",
        "properties": {
            "user": {"type": "string", "title": "User"},
            "pw": {"type": "string", "format": "password", "minLength": 8},
        },
        "required": ["user", "pw"],
    }
    typed = f"ada\nshort\n{CANARY}\n"
    args = ("form", "Login", "--schema", json.dumps(schema), "--plain")
    code, result, prompts = plain(tmp_path, typed, *args)

    assert (code, result) == (0, accepted({"user": "ada", "pw": "**********"}))
    assert "  ✖ At least 8 characters\n" in prompts  # the field asked again, not the form
    assert "Fill in the form again." not in prompts
    assert "short" not in prompts
    assert CANARY not in prompts

    args = ("form", "Login", "--schema", json.dumps(schema), "--plain", "--reveal-secret")
    code, result, _ = plain(tmp_path, f"ada\n{CANARY}\n", *args)
    assert (code, result) == (0, accepted({"user": "ada", "pw": CANARY}))


def test_a_fields_error_keeps_its_words_as_written(tmp_path: Path) -> None:
    schema = {
        "type": "object",
        "properties": {"site": {"type": "string", "format": "uri", "title": "Site"}},
        "required": ["site"],
    }
    typed = "nowhere\nhttps://example.com\n"
    args = ("form", "Where?", "--schema", json.dumps(schema), "--plain")
    code, result, prompts = plain(tmp_path, typed, *args)

    assert (code, result) == (0, accepted({"site": "https://example.com"}))
    assert "✖ Not a URL (like https://example.com)" in prompts  # not "Not a url"


def test_questions_tool_approval_and_url(tmp_path: Path) -> None:
    batch = {
        "kind": "questions",
        "questions": [
            {"question": "Auth?", "options": ["OAuth", "Magic links"]},
            {"question": "CI?", "multi_select": True, "options": ["Tests", "Lint"]},
        ],
    }
    code, result, _ = plain(
        tmp_path, "9\n1\n\n1 2\nfast please\n", "--json", json.dumps(batch), "--plain"
    )
    assert (code, result) == (
        0,
        accepted(
            {
                "answers": {"Auth?": "OAuth", "CI?": ["Tests", "Lint"]},
                "notes": {"CI?": "fast please"},
            }
        ),
    )

    approval = {
        "kind": "tool_approval",
        "tool_name": "shell",
        "summary": "Run the tests",
        "arguments": {"command": "pytest"},
        "tool_call_id": "c1",
    }
    code, result, prompts = plain(
        tmp_path, "4\nnot now\n", "--json", json.dumps(approval), "--plain"
    )
    assert (code, result) == (
        1,
        {"action": "decline", "content": {"reason": "not now"}, "reason": None},
    )
    assert 'command = "pytest"' in prompts

    url = {"kind": "url", "message": "Sign in", "url": "https://example.com/login"}
    code, result, prompts = plain(tmp_path, "n\n", "--json", json.dumps(url), "--plain")
    assert (code, result) == (1, {"action": "decline", "content": None, "reason": None})
    assert "Domain: example.com" in prompts


def test_a_look_alike_domain_is_led_by_the_one_the_browser_contacts(tmp_path: Path) -> None:
    # It led with the look-alike ("Domain: аpple.com", a Cyrillic а), as the dialog does not.
    url = {"kind": "url", "message": "Sign in", "url": "https://\u0430pple.com/login"}
    _, _, prompts = plain(tmp_path, "n\n", "--json", json.dumps(url), "--plain")
    assert "Domain: xn--pple-43d.com  reads as \u0430pple.com" in prompts


@pytest.mark.parametrize(
    ("request_", "typed"),
    [
        ({"kind": "text", "message": "PIN?", "sensitive": True}, f"{CANARY}\n"),
        (
            {"kind": "choice", "message": "Account?", "options": [CANARY, "b"], "sensitive": True},
            "1\n",
        ),
    ],
    ids=["text", "choice"],
)
def test_a_sensitive_answer_is_printed_masked_as_the_dialog_prints_it(
    tmp_path: Path, request_: dict[str, Any], typed: str
) -> None:
    # Plain mode never flagged it: `"content": "sk-CANARY..."` on stdout, the value with --raw.
    code, result, _ = plain(tmp_path, typed, "--json", json.dumps(request_), "--plain")
    assert (code, result) == (0, accepted("**********"))
    done = run_plain(tmp_path, typed, "--json", json.dumps(request_), "--plain", "--raw")
    # With --raw, its mask would be read as the value: nothing printed, exit 4, as with --to.
    assert (done.returncode, done.stdout) == (4, "")


def test_a_tool_approval_says_what_each_answer_allows(tmp_path: Path) -> None:
    # The dialog says "every shell call"; plain mode said nothing, and a 3 for `pytest -q`
    # allowed every later shell call, of any agent, always.
    approval = {
        "kind": "tool_approval",
        "tool_name": "shell",
        "arguments": {"command": "pytest -q"},
        "tool_call_id": "c1",
    }
    _, _, prompts = plain(tmp_path, "1\n", "--json", json.dumps(approval), "--plain")
    assert "2) Allow for this session — every shell call" in prompts
    assert "3) Always allow — as 2, and remembered" in prompts
    narrow = {
        **approval,
        "remember": {"argument": "command", "pattern": "pytest*"},
        "folder": "/work/app",
    }
    _, _, prompts = plain(tmp_path, "1\n", "--json", json.dumps(narrow), "--plain")
    assert "2) Allow for this session — shell in work/app, command ~ pytest*" in prompts
    chained = {**narrow, "arguments": {"command": "pytest -q && git push"}}
    _, _, prompts = plain(tmp_path, "1\n", "--json", json.dumps(chained), "--plain")
    assert "2) Allow for this session — not this call again (it has &&): shell in" in prompts


def test_a_tool_calls_other_spaces_show_as_their_code_points_as_in_the_dialog(
    tmp_path: Path,
) -> None:
    # `rm -rf a<NBSP>b` names one file; printed as it is, it read as two.
    approval = shell_approval("rm -rf a\u00a0b\u3000c", "rm -rf a\u00a0b*")
    _, _, prompts = plain(tmp_path, "1\n", "--json", json.dumps(approval), "--plain")
    assert '  command = "rm -rf a\\xa0b\\u3000c"' in prompts
    assert "command ~ rm -rf a\\xa0b*" in prompts
    assert "\u00a0" not in prompts and "\u3000" not in prompts


def test_a_question_times_out_as_in_the_dialog(tmp_path: Path) -> None:
    # Plain mode waited for a line however long the question's timeout.
    for timeout in (["--timeout", "1"], []):
        request_ = {"kind": "confirmation", "message": "Deploy?"}
        if not timeout:
            request_["timeout"] = 1
        done = asking_plainly(tmp_path, "--plain", *timeout, "--json", json.dumps(request_))
        try:
            assert done.wait(timeout=20) == 2  # its stdin still open
            assert done.stdout is not None
            assert json.loads(done.stdout.read()) == {
                "action": "cancel",
                "content": None,
                "reason": "timeout",
            }
        finally:
            done.kill()
            done.communicate()


def test_always_in_plain_text_is_remembered_and_a_rule_answers_with_or_without_a_terminal(
    tmp_path: Path,
) -> None:
    """The dialog remembered "always" and allowed what a rule covered; plain text and a
    process without a terminal asked again (or cancelled) every time."""
    approval = shell_approval("pytest", "pytest*")
    code, result, _ = plain(tmp_path, "3\n", "--json", json.dumps(approval), "--plain")
    assert (code, result) == (0, accepted({"scope": "always"}))

    auto = {"action": "accept", "content": {"scope": "always"}, "reason": "auto_approved"}
    for mode in (("--plain",), ()):  # plain text; the dialog, with no terminal to show it on
        code, result, prompts = plain(tmp_path, "", "--json", json.dumps(approval), *mode)
        assert (code, result, prompts) == (0, auto, "")

    other = {**approval, "arguments": {"command": "rm -rf build"}}
    code, result, _ = plain(tmp_path, "", "--json", json.dumps(other))
    assert (code, result["reason"]) == (2, "no_terminal")


def test_end_of_input_cancels_and_the_decline_word_declines(tmp_path: Path) -> None:
    args = ("choice", "Which DB?", "-o", "Postgres", "-o", "SQLite", "--plain")
    # A last line without its newline is the input's end, as Ctrl+D after typing on a
    # terminal: "2" was taken for the answer.
    for typed in ("", "2"):
        code, result, _ = plain(tmp_path, typed, *args)
        assert (code, result) == (2, {"action": "cancel", "content": None, "reason": None})

    code, result, _ = plain(tmp_path, "!decline\n", *args)
    assert (code, result) == (1, {"action": "decline", "content": None, "reason": None})


@pytest.mark.parametrize("env", [{"ELICIT_TUI_PLAIN": "1"}, {"TERM": "dumb"}])
def test_plain_without_the_flag(tmp_path: Path, env: dict[str, str]) -> None:
    args = ("choice", "Which DB?", "-o", "Postgres", "-o", "SQLite")
    code, result, _ = plain(tmp_path, "1\n", *args, env=env)

    assert (code, result) == (0, accepted("Postgres"))


def test_raw_prints_the_content_alone(tmp_path: Path) -> None:
    args = ("multi", "Which?", "-o", "auth", "-o", "jobs", "-o", "metrics", "--plain", "--raw")
    finished = run_plain(tmp_path, "1 3\n", *args)
    assert (finished.returncode, finished.stdout) == (0, "auth\nmetrics\n")


def test_a_secret_to_store_without_a_keyring_is_refused_up_front(tmp_path: Path) -> None:
    # environment() chooses keyring's "no backend" stand-in.
    code, result, said = plain(
        tmp_path, f"{CANARY}\n", "secret", "Token?", "--store", "github/ada", "--plain"
    )

    assert (code, result) == (
        2,
        {"action": "cancel", "content": None, "reason": "keyring_unavailable"},
    )
    assert said.startswith("elicit-tui ask: cannot store the secret, so it is not asked for: ")
    assert "PYTHON_KEYRING_BACKEND" in said
    assert "Token?" not in said


@pytest.mark.parametrize(
    ("where", "why"),
    [
        (("--plain",), "in plain mode (--plain, ELICIT_TUI_PLAIN or TERM=dumb) there is none"),
        (
            ("--to", "http://127.0.0.1:9"),
            "with --to, the inbox records it: `elicit-tui serve --transcript FILE`",
        ),
    ],
)
def test_a_transcript_with_no_dialog_to_record_is_refused_before_asking(
    tmp_path: Path, where: tuple[str, ...], why: str
) -> None:
    transcript = tmp_path / "session.jsonl"
    args = ("--transcript", str(transcript), *where, "choice", "Which DB?", "-o", "Postgres")
    code, result, said = plain(tmp_path, "1\n", *args)

    assert (code, result) == (3, None)
    assert said == f"elicit-tui ask: --transcript records the dialog on this terminal; {why}\n"
    assert not transcript.exists()


@pytest.mark.parametrize(
    ("number", "status", "reason"),
    [(signal.SIGTERM, 143, "terminated"), (signal.SIGHUP, 129, "hung_up")],
    ids=["SIGTERM", "SIGHUP"],
)
def test_kill_while_a_plain_question_waits_exits_as_the_dialog_saying_why(
    tmp_path: Path, number: int, status: int, reason: str
) -> None:
    # As `ask` on a terminal ends on SIGTERM and SIGHUP; in plain text it ended printing
    # nothing (SIGHUP: killed by it, a secret's prompt leaving the terminal's echo off).
    asking = asking_plainly(tmp_path, "text", "Name?", "--plain")
    assert asking.stderr is not None
    assert "Name?" in asking.stderr.readline()  # asked, and reading the answer
    out = ended_by(asking, lambda: asking.send_signal(number))

    assert asking.returncode == status
    assert json.loads(out) == {"action": "cancel", "content": None, "reason": reason}


def test_a_call_holding_a_secret_given_earlier_is_offered_once_or_deny_only() -> None:
    import io

    from pydantic import SecretStr

    from tui.cli.plain import PlainPrompter
    from tui.core.models import ToolApprovalRequest
    from tui.secrets.redaction import REDACTOR

    REDACTOR.register(SecretStr(CANARY))
    command = f"deploy --key {CANARY}"
    call = ToolApprovalRequest(
        tool_name="shell",
        tool_call_id="c1",
        arguments={"command": command},
        remember={"argument": "command", "pattern": command},
    )
    out = io.StringIO()
    result = PlainPrompter(io.StringIO("3\n1\n"), out).ask(call)
    assert result.content == {"scope": "once"}
    said = out.getvalue()
    assert "3) Always allow — not offered: the call holds a secret given earlier" in said
    assert "✖ Always allow is not offered: the call holds a secret given earlier." in said
    assert CANARY not in said and 'command = "deploy --key •••"' in said


def test_an_optional_yes_no_field_is_skipped_with_enter(tmp_path: Path) -> None:
    # Asked again for ever: "Type y (yes) or n (no)."
    schema = {
        "type": "object",
        "properties": {"debug": {"type": "boolean"}, "name": {"type": "string"}},
        "required": ["name"],
    }
    code, result, prompts = plain(
        tmp_path, "\nada\n", "form", "Setup?", "--schema", json.dumps(schema), "--plain"
    )
    assert (code, result) == (0, accepted({"name": "ada"}))
    assert "debug (optional: Enter skips)" in prompts
