"""Notifications of a waiting question: the terminal's sequence, tmux's wrapping, --notify."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from app_driver import wait_for
from front_end_processes import HeadlessInbox

from tui import ElicitationApp, ElicitationQueue, parse_request
from tui.front_ends.notify import (
    BurstLimiter,
    Notice,
    burst_notice,
    notice_for,
    osc_for,
    osc_sequence,
    run_notify_command,
    terminal_notification,
    tmux_wrapped,
)

APPROVAL = {
    "kind": "tool_approval",
    "tool_name": "Bash",
    "arguments": {"command": "rm -rf build"},
    "tool_call_id": "call-1",
    "source": "claude-code",
}
NOTICE = Notice(title="claude-code wants to run Bash", body="rm -rf build", kind="tool_approval")


@pytest.mark.parametrize(
    ("environ", "expected"),
    [
        ({"TERM": "xterm-kitty"}, "99"),
        ({"TERM": "tmux-256color", "KITTY_WINDOW_ID": "3"}, "99"),
        ({"TERM_PROGRAM": "iTerm.app"}, "9"),
        ({"TERM": "screen", "LC_TERMINAL": "iTerm2"}, "9"),
        ({"TERM": "xterm-ghostty"}, "9"),
        ({"TERM_PROGRAM": "ghostty"}, "9"),
        ({"TERM": "foot"}, "777"),
        ({"TERM": "foot-extra"}, "777"),
        ({"TERM_PROGRAM": "WezTerm"}, "777"),
        ({"TERM": "xterm-256color", "VTE_VERSION": "7600"}, "777"),
        ({"TERM": "xterm-256color"}, None),
        ({"TERM": "linux"}, None),
        ({"TERM": "xterm-256color", "ELICIT_TUI_OSC_NOTIFY": "777"}, "777"),
        ({"TERM": "xterm-kitty", "ELICIT_TUI_OSC_NOTIFY": "off"}, None),
    ],
)
def test_the_sequence_is_chosen_from_the_terminal(
    environ: dict[str, str], expected: str | None
) -> None:
    assert osc_for(environ) == expected


def test_each_sequence_carries_title_and_body() -> None:
    assert osc_sequence(NOTICE, "9") == "\x1b]9;claude-code wants to run Bash: rm -rf build\x1b\\"
    assert osc_sequence(NOTICE, "99") == (
        "\x1b]99;i=elicit:d=0:p=title;claude-code wants to run Bash\x1b\\"
        "\x1b]99;i=elicit:d=1:p=body;rm -rf build\x1b\\"
    )
    semicolon = Notice(title="a;b", body="c;d", kind="text")
    assert osc_sequence(semicolon, "777") == "\x1b]777;notify;a,b;c;d\x1b\\"


def test_inside_tmux_the_sequence_is_wrapped_for_passthrough() -> None:
    plain = terminal_notification(NOTICE, {"TERM": "foot"})
    wrapped = terminal_notification(NOTICE, {"TERM": "foot", "TMUX": "/tmp/tmux-0/default,1,0"})
    assert plain is not None and wrapped is not None
    assert wrapped == tmux_wrapped(plain)
    assert wrapped.startswith("\x1bPtmux;\x1b\x1b]777;notify;")
    assert wrapped.endswith("\x1b\x1b\\\x1b\\")
    # Inside, every ESC is doubled: none left single before the final terminator.
    inner = wrapped[len("\x1bPtmux;") : -2]
    assert inner.replace("\x1b\x1b", "").count("\x1b") == 0


def test_an_agents_text_cannot_end_the_sequence_early() -> None:
    hostile = parse_request(
        {
            "kind": "text",
            "message": "hi\x1b\\\x1b]52;c;Y3VybA==\x07\nsecond line",
            "source": "x\x1b",
        }
    )
    sequence = terminal_notification(notice_for(hostile, str), {"TERM": "foot"})
    assert sequence is not None
    assert sequence.count("\x1b") == 2  # the opening and the terminator, nothing of the agent's
    assert "\x07" not in sequence and "\n" not in sequence


def test_characters_that_reorder_or_hide_text_show_as_their_code_points() -> None:
    # A right-to-left override reached the desktop raw: `rm -rf /` read backwards there,
    # though the dialog showed it as \u202e.
    hostile = parse_request({**APPROVAL, "arguments": {"command": "echo \u202e; rm -rf /"}})
    notice = notice_for(hostile, str)
    assert "\u202e" not in notice.body + (notice.command or "")
    assert "echo \\u202e; rm -rf /" in notice.body


def test_the_notify_command_gets_no_inbox_token(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "env.txt"
    monkeypatch.setenv("ELICIT_TUI_TOKEN", "canary-token-8812")
    run_notify_command(f"env > {out}.part && mv {out}.part {out}", NOTICE)
    seen = "\n".join(wait_for_lines(out, 1))
    assert "ELICIT_KIND=tool_approval" in seen and "canary-token-8812" not in seen


def test_an_approval_says_who_which_tool_and_what_command() -> None:
    notice = notice_for(parse_request(APPROVAL), str)
    assert notice.title == "claude-code wants to run Bash"
    assert "rm -rf build" in notice.body
    env = notice.environment()
    assert env["ELICIT_SOURCE"] == "claude-code"
    assert env["ELICIT_TOOL"] == "Bash"
    assert "rm -rf build" in env["ELICIT_COMMAND"]
    assert env["ELICIT_KIND"] == "tool_approval"


def test_a_hooks_approval_names_its_command_once_and_gives_it_whole() -> None:
    # "latest: Claude Code wants to run Bash: Bash: npm test", and ELICIT_COMMAND was the
    # summary "Bash: npm test", not the command.
    hook_call = {
        **APPROVAL,
        "summary": "Bash: npm test",
        "arguments": {"command": "npm test", "description": "Run the tests"},
        "remember": {"argument": "command", "pattern": "npm test"},
    }
    notice = notice_for(parse_request(hook_call), str)
    assert notice.body == "npm test"
    assert notice.environment()["ELICIT_COMMAND"] == "npm test"
    assert burst_notice(notice, 3).body == "latest: claude-code wants to run Bash: npm test"


def test_a_burst_makes_one_notification_then_one_summary_counting_all_that_wait() -> None:
    sent: list[Notice] = []
    now = [100.0]
    waiting = [12]  # the 10 of the burst, and 2 that waited before it
    limiter = BurstLimiter(sent.append, lambda: waiting[0], interval=0.2, clock=lambda: now[0])
    for i in range(10):
        limiter.offer(Notice(title=f"q{i}", body="b", kind="text"))
    assert [n.title for n in sent] == ["q0"]
    now[0] += 0.2
    deadline = time.monotonic() + 3
    while len(sent) < 2 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert sent[1].count == 12
    assert sent[1].title == "12 questions waiting"
    assert "q9" in sent[1].body
    now[0] += 10
    limiter.offer(Notice(title="later", body="b", kind="text"))
    assert sent[-1].title == "later"
    limiter.close()


async def test_notify_runs_the_command_with_the_question_in_its_environment_rate_limited(
    tmp_path: Path,
) -> None:
    out = tmp_path / "notified.txt"
    command = (
        'printf "%s|%s|%s|%s|%s\\n" "$ELICIT_SOURCE" "$ELICIT_TITLE" "$ELICIT_KIND" '
        f'"$ELICIT_COUNT" "$ELICIT_TOOL" >> {out}'
    )
    queue = ElicitationQueue()
    app = ElicitationApp(queue, notify_command=command, input_grace=0, bell=False)
    async with app.run_test(size=(80, 24)) as pilot:
        # Two questions wait already, seen here: no notification, but counted in the summary.
        for i in range(2):
            queue.submit(parse_request({"kind": "text", "message": f"Seen {i}?"}))
        await pilot.pause(0.3)
        app.app_focus = False
        queue.submit(parse_request(APPROVAL))
        for i in range(4):
            queue.submit(
                parse_request({"kind": "secret", "message": f"Key {i}?", "source": "deployer"})
            )
        await wait_for(pilot, lambda: out.exists() and len(out.read_text().splitlines()) >= 2)
        await pilot.pause(0.5)
        lines = out.read_text().splitlines()
        assert lines[0] == "claude-code|claude-code wants to run Bash|tool_approval|1|Bash"
        assert lines[1] == "deployer|7 questions waiting|secret|7|"
        assert len(lines) == 2
        # With focus, the person sees it: nothing runs.
        app.app_focus = True
        await pilot.pause(2.2)
        queue.submit(parse_request({"kind": "text", "message": "Seen here?"}))
        await pilot.pause(0.5)
        assert len(out.read_text().splitlines()) == 2


def wait_for_lines(path: Path, count: int, timeout: float = 10.0) -> list[str]:
    deadline = time.monotonic() + timeout
    while not path.exists() or len(path.read_text().splitlines()) < count:
        assert time.monotonic() < deadline, f"fewer than {count} lines in {path}"
        time.sleep(0.05)
    return path.read_text().splitlines()


def test_a_headless_inbox_runs_notify_for_each_question_but_those_a_rule_answers(
    tmp_path: Path,
) -> None:
    # No window, so no focus: the person is away from every front end, or has none open yet.
    out = tmp_path / "notified.txt"
    command = f'printf "%s|%s|%s\\n" "$ELICIT_TITLE" "$ELICIT_BODY" "$ELICIT_COUNT" >> {out}'
    inbox = HeadlessInbox(tmp_path / "config", args=("--notify", command))
    try:
        inbox.submit({"kind": "text", "message": "Release name?", "source": "release-bot"})
        assert wait_for_lines(out, 1) == ["release-bot asks (text)|Release name?|1"]
        for i in range(3):
            inbox.submit({"kind": "text", "message": f"Question {i}?"})
        assert wait_for_lines(out, 2)[1] == (
            "4 questions waiting|latest: an agent asks (text): Question 2?|4"
        )

        time.sleep(2.2)  # the burst is over
        first = inbox.submit(APPROVAL)
        assert wait_for_lines(out, 3)[2] == (
            'claude-code wants to run Bash|Bash(command="rm -rf build")|1'
        )
        answer = {"result": {"action": "accept", "content": {"scope": "session"}}, "front_end": "t"}
        assert inbox.call("POST", f"/v1/requests/{first}/answer", answer)[0] == 200
        # Allowed by the rule just made, at once: nobody is told.
        again = inbox.submit({**APPROVAL, "tool_call_id": "call-2"})
        assert inbox.result(again, wait=5) is not None
        time.sleep(2.5)
        assert len(out.read_text().splitlines()) == 3
    finally:
        inbox.stop()


CANARY = "sk-NOTIFY-CANARY-777"
ECHOED = {
    "kind": "choice",
    "message": f"Is {CANARY} the right key?",
    "title": f"Check {CANARY}",
    "source": f"bot {CANARY}",
    "options": ["yes", "no"],
}


def test_a_secret_an_agent_echoes_is_masked_in_the_headless_inbox_notify_command(
    tmp_path: Path,
) -> None:
    out = tmp_path / "notified.txt"
    command = f'env | grep ^ELICIT_ >> {out}; echo "--" >> {out}'
    inbox = HeadlessInbox(tmp_path / "config", args=("--notify", command))
    try:
        asked = inbox.submit({"kind": "secret", "message": "Key?"})
        answer = {"result": {"action": "accept", "content": CANARY}, "front_end": "t"}
        assert inbox.call("POST", f"/v1/requests/{asked}/answer", answer)[0] == 200
        time.sleep(2.2)  # past the first notice's burst
        inbox.submit(ECHOED)
        deadline = time.monotonic() + 10
        while out.read_text().count("--") < 2:
            assert time.monotonic() < deadline, out.read_text()
            time.sleep(0.05)
        told = out.read_text()
        assert "ELICIT_BODY=Check •••" in told and "ELICIT_SOURCE=bot •••" in told
        assert CANARY not in told and "NOTIFY-CANARY" not in told
    finally:
        inbox.stop()


async def test_a_secret_an_agent_echoes_is_masked_in_the_apps_notification(
    tmp_path: Path,
) -> None:
    out = tmp_path / "notified.txt"
    queue = ElicitationQueue()
    app = ElicitationApp(
        queue, notify_command=f"env | grep ^ELICIT_ >> {out}", input_grace=0, bell=False
    )
    async with app.run_test(size=(80, 24)) as pilot:
        queue.submit(parse_request({"kind": "secret", "message": "Key?"}))
        await pilot.pause(0.3)
        await pilot.press(*CANARY, "enter")
        await pilot.pause(0.3)
        app.app_focus = False
        queue.submit(parse_request(ECHOED))
        await wait_for(pilot, lambda: out.exists() and "ELICIT_BODY" in out.read_text())
        told = out.read_text()
        assert "ELICIT_BODY=Check •••" in told and "ELICIT_SOURCE=bot •••" in told
        assert CANARY not in told
