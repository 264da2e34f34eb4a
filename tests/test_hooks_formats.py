"""Each CLI's recorded hook input becomes the right approval, and each answer its documented output."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hook_runs import run_hook_answering
from hook_schemas import FIXTURES, INPUTS, OUTPUTS, ClaudePreToolUseOutput, allows

from tui.approvals.offered import NO_RULE_FOR_THE_CALL
from tui.approvals.rules import refused_rule
from tui.core.models import (
    AUTO_APPROVED,
    ElicitationResult,
    QuestionsRequest,
    Request,
    ToolApprovalRequest,
)
from tui.integrations.hooks.flow import HookRun, exact_pattern
from tui.integrations.hooks.formats import hook_format

WAIT = 30.0


def _input(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((INPUTS / name).read_text())
    return data


def _run(name: str, result: ElicitationResult) -> tuple[HookRun, ToolApprovalRequest]:
    asked: list[ToolApprovalRequest] = []

    def ask(request: Request) -> ElicitationResult:
        assert isinstance(request, ToolApprovalRequest)
        asked.append(request)
        return result

    run = run_hook_answering(
        hook_format(FIXTURES[name]), (INPUTS / name).read_text(), ask, wait=WAIT
    )
    assert len(asked) == 1
    return run, asked[0]


def _output(name: str, run: HookRun) -> Any:
    """The run's stdout, checked against the documented schema of its CLI's event."""
    event = _input(name)["hook_event_name"]
    model = OUTPUTS[(FIXTURES[name], event)]
    return model.model_validate_json(run.stdout)


ALLOW_ONCE = ElicitationResult(action="accept", content={"scope": "once"})


@pytest.mark.parametrize("name", sorted(FIXTURES))
def test_an_allowed_call_prints_the_documented_allow(name: str) -> None:
    run, _ = _run(name, ALLOW_ONCE)
    output = _output(name, run)
    event = _input(name)["hook_event_name"]
    if event == "PreToolUse":
        assert output.hookSpecificOutput.permissionDecision == "allow"
        assert output.hookSpecificOutput.updatedInput is None
    elif event == "PermissionRequest":
        assert output.hookSpecificOutput.decision.behavior == "allow"
    else:
        assert output.decision == "allow"
        assert output.hookSpecificOutput is None


@pytest.mark.parametrize("name", sorted(FIXTURES))
def test_a_denial_carries_the_persons_reason_to_the_model(name: str) -> None:
    declined = ElicitationResult(action="decline", content={"reason": "use the staging DB"})
    run, _ = _run(name, declined)
    output = _output(name, run)
    event = _input(name)["hook_event_name"]
    if event == "PreToolUse":
        assert output.hookSpecificOutput.permissionDecision == "deny"
        said = output.hookSpecificOutput.permissionDecisionReason
    elif event == "PermissionRequest":
        assert output.hookSpecificOutput.decision.behavior == "deny"
        said = output.hookSpecificOutput.decision.message
    else:
        assert output.decision == "deny"
        said = output.reason
    assert "use the staging DB" in said
    assert not allows(run.stdout)


def test_a_denial_without_a_reason_still_says_the_person_denied_it() -> None:
    run, _ = _run("gemini_before_tool_shell.json", ElicitationResult(action="decline"))
    assert json.loads(run.stdout) == {
        "decision": "deny",
        "reason": "The person denied this call in elicit-tui.",
    }


@pytest.mark.parametrize("name", sorted(FIXTURES))
@pytest.mark.parametrize("reason", ["timeout", "closed", "cancelled_by_agent", None])
def test_a_cancel_decides_nothing(name: str, reason: str | None) -> None:
    run, _ = _run(name, ElicitationResult(action="cancel", reason=reason))
    assert run.stdout == ""
    assert run.note is not None and run.note.startswith("no decision")


def test_a_rule_allows_and_says_so() -> None:
    ruled = ElicitationResult(action="accept", content={"scope": "always"}, reason=AUTO_APPROVED)
    run, _ = _run("claude_code_pre_tool_use_bash.json", ruled)
    specific = json.loads(run.stdout)["hookSpecificOutput"]
    assert specific["permissionDecision"] == "allow"
    assert "rule" in specific["permissionDecisionReason"]


EDITED_COMMAND = {"command": "npm test -- --runInBand", "description": "Run the test suite"}


def test_claude_codes_pre_tool_use_runs_the_edited_arguments_as_updated_input() -> None:
    edited = ElicitationResult(
        action="accept", content={"scope": "once", "arguments": EDITED_COMMAND}
    )
    run, _ = _run("claude_code_pre_tool_use_bash.json", edited)
    output = _output("claude_code_pre_tool_use_bash.json", run)
    assert output.hookSpecificOutput.permissionDecision == "allow"
    assert output.hookSpecificOutput.updatedInput == EDITED_COMMAND


def test_claude_codes_permission_request_runs_the_edited_arguments_as_updated_input() -> None:
    arguments = {"command": "rm -rf node_modules/.cache"}
    edited = ElicitationResult(action="accept", content={"scope": "once", "arguments": arguments})
    run, _ = _run("claude_code_permission_request_bash.json", edited)
    output = _output("claude_code_permission_request_bash.json", run)
    assert output.hookSpecificOutput.decision.behavior == "allow"
    assert output.hookSpecificOutput.decision.updatedInput == arguments


def test_codex_cannot_take_edited_arguments_so_the_model_is_told_to_retry_with_them() -> None:
    arguments = {"command": "rm -f /tmp/example.bak"}
    edited = ElicitationResult(action="accept", content={"scope": "once", "arguments": arguments})
    run, _ = _run("codex_permission_request_bash.json", edited)
    decision = _output("codex_permission_request_bash.json", run).hookSpecificOutput.decision
    assert decision.behavior == "deny"
    assert '"command": "rm -f /tmp/example.bak"' in decision.message
    assert "again" in decision.message
    assert not allows(run.stdout)


def test_gemini_merges_edited_arguments_as_tool_input() -> None:
    arguments = {"command": "git push origin HEAD", "description": "Push"}
    edited = ElicitationResult(action="accept", content={"scope": "once", "arguments": arguments})
    run, _ = _run("gemini_before_tool_shell.json", edited)
    output = _output("gemini_before_tool_shell.json", run)
    assert output.decision == "allow"
    assert output.hookSpecificOutput.tool_input == arguments


def test_gemini_cannot_drop_an_argument_so_such_an_edit_is_a_retry() -> None:
    arguments = {"command": "git push origin HEAD"}  # description removed: a merge keeps it
    edited = ElicitationResult(action="accept", content={"scope": "once", "arguments": arguments})
    run, _ = _run("gemini_before_tool_shell.json", edited)
    output = _output("gemini_before_tool_shell.json", run)
    assert output.decision == "deny"
    assert "git push origin HEAD" in output.reason


def test_arguments_sent_back_unchanged_are_a_plain_allow() -> None:
    same = _input("claude_code_pre_tool_use_bash.json")["tool_input"]
    result = ElicitationResult(action="accept", content={"scope": "once", "arguments": same})
    run, _ = _run("claude_code_pre_tool_use_bash.json", result)
    assert "updatedInput" not in json.loads(run.stdout)["hookSpecificOutput"]


def test_claude_codes_call_id_becomes_the_approval_id() -> None:
    _, request = _run("claude_code_pre_tool_use_bash.json", ALLOW_ONCE)
    assert request.id == "toolApproval:toolu_01ABC123"
    assert request.tool_name == "Bash"
    assert request.arguments == {"command": "npm test", "description": "Run the test suite"}
    assert request.summary == "Bash: npm test"
    assert request.description == "Run the test suite"
    assert request.source == "Claude Code (user/my-project)"
    assert request.timeout == WAIT


@pytest.mark.parametrize(
    "name",
    [
        "claude_code_permission_request_bash.json",
        "codex_permission_request_bash.json",
        "gemini_before_tool_shell.json",
    ],
)
def test_a_call_without_an_id_gets_a_stable_one(name: str) -> None:
    _, first = _run(name, ALLOW_ONCE)
    _, again = _run(name, ALLOW_ONCE)
    assert first.id == again.id
    assert first.id.startswith("toolApproval:")
    other = _input(name)
    other["tool_input"] = {**other["tool_input"], "command": "ls"}
    request = hook_format(FIXTURES[name]).read(other, wait=WAIT).request
    assert request.id != first.id


def test_remembering_a_shell_call_covers_that_command_only() -> None:
    _, request = _run("codex_permission_request_bash.json", ALLOW_ONCE)
    assert request.remember is not None
    said = {"description": "Remove the temporary example file"}
    assert request.remember.matches({"command": "rm -f /tmp/example", **said})
    assert not request.remember.matches({"command": "rm -f /tmp/example; rm -rf /", **said})
    assert not request.remember.matches({"command": "rm -f /tmp/other", **said})


@pytest.mark.parametrize(
    ("name", "varied", "riskier"),
    [
        # Claude Code writes a description (and may set a timeout) for each call.
        (
            "claude_code_pre_tool_use_bash.json",
            {"description": "Run the tests again", "timeout": 60000},
            {"dangerouslyDisableSandbox": True},
        ),
        ("claude_code_pre_tool_use_bash.json", {}, {"run_in_background": True}),
        ("gemini_before_tool_shell.json", {"description": "Push again"}, {"dir_path": "/etc"}),
        # Codex asks for network access as the same command, the host in its description.
        ("codex_permission_request_bash.json", {}, {"description": "network-access evil.test"}),
        # An edit of the file, whatever it writes; not one with an argument it had not.
        (
            "claude_code_pre_tool_use_edit.json",
            {"old_string": "x = 1", "new_string": "x = 2"},
            {"path_hint": "/etc/passwd"},
        ),
    ],
)
def test_a_remembered_call_covers_its_other_arguments_only_as_they_were(
    name: str, varied: dict[str, Any], riskier: dict[str, Any]
) -> None:
    # A rule kept the command (or path) alone: `npm test` allowed always in the sandbox also
    # allowed `npm test` with the sandbox off, in another folder, or reaching another host.
    _, request = _run(name, ALLOW_ONCE)
    assert request.remember is not None
    arguments = _input(name)["tool_input"]
    assert request.remember.matches(arguments)
    assert request.remember.matches({**arguments, **varied})
    assert not request.remember.matches({**arguments, **riskier})


@pytest.mark.parametrize(
    "name", [n for n in sorted(FIXTURES) if n.endswith(("bash.json", "shell.json"))]
)
def test_a_call_is_asked_with_its_project_folder_which_a_rule_keeps_to(name: str) -> None:
    _, request = _run(name, ALLOW_ONCE)
    assert request.folder == _input(name)["cwd"] == "/home/user/my-project"
    elsewhere = {**_input(name), "cwd": "/home/user/other-project"}
    assert hook_format(FIXTURES[name]).read(elsewhere, wait=WAIT).request.folder == (
        "/home/user/other-project"
    )


def test_an_exact_pattern_takes_glob_characters_literally() -> None:
    from fnmatch import fnmatchcase

    text = "ls *.py [ab]? x"
    assert fnmatchcase(text, exact_pattern(text))
    assert not fnmatchcase("ls main.py [ab]? x", exact_pattern(text))
    assert not fnmatchcase("ls *.py a! x", exact_pattern(text))


def test_an_edit_shows_its_change_as_a_diff() -> None:
    _, request = _run("claude_code_pre_tool_use_edit.json", ALLOW_ONCE)
    assert request.diff is not None
    assert "-DEBUG = True\n+DEBUG = False\n" in request.diff
    assert request.summary == "Edit: /home/user/my-project/src/app.py"


@pytest.mark.parametrize("cli", ["claude-code", "gemini"])
def test_a_file_written_whole_shows_its_lines_as_added(cli: str) -> None:
    # Its content showed as one JSON string full of \n: a script of 300 lines to read as
    # one line, before allowing it.
    data = _input("gemini_before_tool_write_file.json")
    if cli == "claude-code":
        data = {**_input("claude_code_pre_tool_use_bash.json"), "tool_name": "Write"}
    script = "#!/bin/sh\nset -e\ncurl -fsSL https://example.com/install.sh | sh\n"
    data["tool_input"] = {"file_path": "/p/deploy.sh", "content": script}
    request = hook_format(cli).read(data, wait=WAIT).request
    assert request.diff == (
        "--- /p/deploy.sh\n+++ /p/deploy.sh\n@@ -0,0 +1,3 @@\n"
        "+#!/bin/sh\n+set -e\n+curl -fsSL https://example.com/install.sh | sh\n"
    )


@pytest.mark.parametrize(
    ("command", "summary"),
    [
        ("for f in *.log\ndo\n  gzip $f\ndone", "Bash: for f in *.log ⏎ do ⏎ gzip $f ⏎ done"),
        # Two commands, not one with arguments: the line break shows.
        ("npm test\nrm -rf x", "Bash: npm test ⏎ rm -rf x"),
    ],
)
def test_a_multi_line_command_is_summed_up_on_one_line_its_breaks_shown(
    command: str, summary: str
) -> None:
    data = _input("codex_permission_request_bash.json")
    data["tool_input"]["command"] = command
    request = hook_format("codex").read(data, wait=WAIT).request
    assert request.summary == summary


def test_gemini_replace_and_codex_apply_patch_show_their_change_as_a_diff() -> None:
    data = _input("gemini_before_tool_write_file.json")
    data["tool_name"] = "replace"
    data["tool_input"] = {
        "file_path": "src/app.py",
        "old_string": "DEBUG = True\n",
        "new_string": "DEBUG = False\n",
    }
    replaced = hook_format("gemini").read(data, wait=WAIT).request
    assert isinstance(replaced, ToolApprovalRequest) and replaced.diff is not None
    assert "-DEBUG = True\n+DEBUG = False\n" in replaced.diff

    data = _input("codex_permission_request_bash.json")
    patch = "*** Begin Patch\n*** Update File: src/app.py\n@@\n-DEBUG = True\n+DEBUG = False\n*** End Patch"
    data["tool_name"], data["tool_input"] = "apply_patch", {"command": patch}
    patched = hook_format("codex").read(data, wait=WAIT).request
    assert isinstance(patched, ToolApprovalRequest) and patched.diff == patch


def test_a_patch_of_most_of_the_text_limit_is_asked_with_its_diff() -> None:
    """The patch is the call's argument and its diff: counted once, not twice."""
    data = _input("codex_permission_request_bash.json")
    body = "".join(f"+line {n}\n" for n in range(20_000))  # about 200,000 characters
    patch = f"*** Begin Patch\n*** Add File: src/big.py\n{body}*** End Patch"
    data["tool_name"], data["tool_input"] = "apply_patch", {"command": patch}
    patched = hook_format("codex").read(data, wait=WAIT).request
    assert isinstance(patched, ToolApprovalRequest) and patched.diff == patch


ASK = "claude_code_pre_tool_use_ask_user_question.json"
QUESTION = "Which library should we use for date formatting?"


def _ask_questions(result: ElicitationResult) -> tuple[HookRun, Request]:
    asked: list[Request] = []

    def ask(request: Request) -> ElicitationResult:
        asked.append(request)
        return result

    run = run_hook_answering(hook_format("claude-code"), (INPUTS / ASK).read_text(), ask, wait=WAIT)
    [request] = asked
    return run, request


def test_claude_codes_questions_are_asked_as_questions_not_as_an_approval() -> None:
    _, request = _ask_questions(ElicitationResult(action="cancel"))
    assert isinstance(request, QuestionsRequest)
    assert request.id == "toolu_01ASK789"
    assert request.timeout == WAIT
    assert [o.label for o in request.questions[0].options] == ["date-fns", "Day.js"]


def test_answered_questions_go_back_to_claude_code_as_updated_input() -> None:
    answered = ElicitationResult(action="accept", content={"answers": {QUESTION: "Day.js"}})
    run, _ = _ask_questions(answered)
    specific = ClaudePreToolUseOutput.model_validate_json(run.stdout).hookSpecificOutput
    assert specific.permissionDecision == "allow"
    assert specific.updatedInput is not None
    assert specific.updatedInput["answers"] == {QUESTION: "Day.js"}
    assert specific.updatedInput["questions"] == _input(ASK)["tool_input"]["questions"]


def test_questions_declined_are_denied_and_cancelled_ones_left_to_claude_code() -> None:
    declined, _ = _ask_questions(ElicitationResult(action="decline"))
    specific = ClaudePreToolUseOutput.model_validate_json(declined.stdout).hookSpecificOutput
    assert specific.permissionDecision == "deny"
    cancelled, _ = _ask_questions(ElicitationResult(action="cancel", reason="timeout"))
    assert cancelled.stdout == ""


def test_a_plan_to_approve_is_shown_as_its_text() -> None:
    data = _input("claude_code_permission_request_bash.json")
    plan = "## Plan\n\n1. Add the endpoint\n2. Test it"
    data["tool_name"], data["tool_input"] = "ExitPlanMode", {"plan": plan}
    request = hook_format("claude-code").read(data, wait=WAIT).request
    assert isinstance(request, ToolApprovalRequest)
    assert request.description == plan
    # "Always" covered every later plan in the project, approved unread: now this plan only.
    assert request.remember is not None
    assert request.remember.matches({"plan": plan})
    assert not request.remember.matches({"plan": plan + "\n3. Drop the users table"})


@pytest.mark.parametrize(
    "name", [n for n in sorted(FIXTURES) if n.endswith(("bash.json", "shell.json"))]
)
@pytest.mark.parametrize("cwd", [None, ""])
def test_a_call_without_its_folder_is_asked_for_the_folder_the_hook_runs_in(
    name: str, cwd: str | None, tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Without it, "always" made a rule for every folder on the machine.
    monkeypatch.chdir(tmp_path)
    given = {key: value for key, value in _input(name).items() if key != "cwd"}
    if cwd is not None:
        given["cwd"] = cwd
    request = hook_format(FIXTURES[name]).read(given, wait=WAIT).request
    assert request.folder == str(tmp_path)
    assert request.source is not None and tmp_path.name in request.source


@pytest.mark.parametrize(
    ("tool", "asked", "other"),
    [
        ("Read", {"file_path": "/etc/hosts"}, {"file_path": "/root/.ssh/id_rsa"}),
        ("Read", {"file_path": "/etc/hosts"}, {"file_path": "/etc/hosts", "offset": 10}),
        ("Grep", {"pattern": "TODO"}, {"pattern": "TODO", "path": "/root/.aws"}),
        ("Grep", {"pattern": "TODO"}, {"pattern": "password"}),
        ("Glob", {"pattern": "**/*.py"}, {"pattern": "**/*.pem"}),
        ("NotebookRead", {"notebook_path": "a.ipynb"}, {"notebook_path": "secrets.ipynb"}),
    ],
)
def test_a_rule_for_a_claude_code_read_covers_what_it_read_not_every_file(
    tool: str, asked: dict[str, Any], other: dict[str, Any]
) -> None:
    # "Always" on a Read of /etc/hosts made a rule for every Read call in the project: the
    # agent's read of ~/.ssh/id_rsa was then allowed unseen.
    hook = {**_input("claude_code_permission_request_bash.json"), "tool_name": tool}
    request = hook_format("claude-code").read({**hook, "tool_input": asked}, wait=WAIT).request
    assert request.remember is not None and request.remember.matches(asked)
    covered = request.remember.matches(other)
    assert covered == (other.get("offset") is not None)  # a Read of the same file, further on


@pytest.mark.parametrize(
    "name", [n for n in sorted(FIXTURES) if n.endswith(("bash.json", "shell.json"))]
)
@pytest.mark.parametrize("command", [["rm", "-rf", "/"], "", None, 7], ids=repr)
def test_a_shell_call_whose_command_is_not_text_offers_no_rule(name: str, command: Any) -> None:
    # "For this session" read "every Bash call in my-project": a rule with nothing of the call
    # to keep to would have allowed any command there.
    data = _input(name)
    data["tool_input"] = {**data["tool_input"], "command": command}
    request = hook_format(FIXTURES[name]).read(data, wait=WAIT).request
    assert isinstance(request, ToolApprovalRequest)
    assert request.once_only and request.remember is None
    allowed = ElicitationResult(action="accept", content={"scope": "session"})
    assert refused_rule(request, allowed) == (
        f"{NO_RULE_FOR_THE_CALL}: it may be allowed once, never remembered"
    )
    assert refused_rule(request, ALLOW_ONCE) is None
