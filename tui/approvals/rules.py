"""Remembered tool approvals: answer matching calls at once, without asking again.

"Allow for this session" rules live in memory for as long as the `ApprovalPolicy` does;
"Always allow" rules live in `approvals.json` in elicit-tui's config folder
(`$ELICIT_TUI_CONFIG_DIR`, else `platformdirs.user_config_dir("elicit-tui")`), so they
outlast the app. A rule names a tool and, optionally, an `ArgumentPattern` its calls must
match (a rule without one covers every call of the tool) and the folder they must be made in.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from contextlib import AbstractContextManager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from tui.approvals.offered import why_not_remembered
from tui.core.json_file import JsonFileError, locked, read_model, write_model
from tui.core.models import (
    AUTO_APPROVED,
    ArgumentPattern,
    ElicitationResult,
    Folder,
    Request,
    ToolApprovalRequest,
)
from tui.core.queue import ElicitationQueue, QueueEvent
from tui.secrets.keyring_store import index_path

RULES_FILE = "approvals.json"

RuleScope = Literal["session", "always"]

_log = logging.getLogger(__name__)


class ApprovalRule(BaseModel):
    """Calls of `tool` allowed without asking: those `match` covers, or all without it."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    tool: str = Field(min_length=1)
    match: ArgumentPattern | None = None
    folder: Folder | None = None
    """The folder the rule was made in: it covers calls made there only; None: anywhere."""
    scope: RuleScope
    added_at: datetime = Field(default_factory=lambda: datetime.now(UTC))

    def covers(self, request: ToolApprovalRequest) -> bool:
        """True if this rule allows `request`'s call."""
        if request.tool_name != self.tool:
            return False
        if self.folder is not None and request.folder != self.folder:
            return False
        if self.match is None:
            return True
        # An argument the rule lets vary, which the call's own asker pins (Codex names the
        # host of a network-access request in its description; Claude Code's description is
        # a comment): the rule never saw its value, and cannot vouch for it.
        pinned = request.remember.others if request.remember is not None else None
        if pinned and any(name in pinned for name in self.match.varying or ()):
            return False
        return self.match.matches(request.arguments)

    def same_target(self, other: ApprovalRule) -> bool:
        """True if this rule allows exactly the calls `other` allows."""
        return (self.tool, self.match, self.folder) == (other.tool, other.match, other.folder)

    def describe(self) -> str:
        """`shell (command ~ pytest*)`, `shell (every call)`, then ` in FOLDER`, or ` in any
        folder` where it has none (it then allows calls wherever they are made)."""
        said = f"{self.tool} ({self.match.describe() if self.match else 'every call'})"
        return f"{said} in {self.folder or 'any folder'}"


class _RulesFile(BaseModel):
    model_config = ConfigDict(extra="forbid", defer_build=True)

    rules: list[ApprovalRule] = Field(default_factory=list)


class ApprovalsFileError(RuntimeError):
    """The file of "always" rules cannot be read or written; the message says which and why."""


def rules_path() -> Path:
    """Where "always" rules are kept: `approvals.json` beside the keyring index (may not exist)."""
    return index_path().parent / RULES_FILE


def load_always_rules(path: Path | None = None) -> list[ApprovalRule]:
    """The "always" rules in `path` (default `rules_path()`), oldest first; none without a file.

    Raises `ApprovalsFileError` if the file is unreadable or not a rules file.
    """
    path = path or rules_path()
    try:
        stored = read_model(path, _RulesFile)
    except JsonFileError as reason:
        raise ApprovalsFileError(
            f"The approvals file {path} is unreadable: {reason}. Delete it to forget every "
            "'always' rule, or fix it."
        ) from None
    return [] if stored is None else stored.rules


def revoke_always_rules(
    tool: str | None,
    pattern: str | None = None,
    path: Path | None = None,
    *,
    folder: str | None = None,
) -> list[ApprovalRule]:
    """Remove the "always" rules `chosen_rules` picks from the file; returns them. Raises
    `ApprovalsFileError`."""
    path = path or rules_path()
    with _file_locked(path):
        rules = load_always_rules(path)
        removed = chosen_rules(rules, tool, pattern, folder)
        if removed:
            _write_rules(path, [rule for rule in rules if rule not in removed])
    return removed


def chosen_rules(
    rules: list[ApprovalRule], tool: str | None, pattern: str | None, folder: str | None
) -> list[ApprovalRule]:
    """The `rules` for `tool` (every tool if None), only those whose pattern is `pattern` if
    given (as stored, or the one value it matches, as `approvals list` shows it), and only
    those made in `folder` if given."""
    where = None if not folder else TypeAdapter(Folder).validate_python(folder)
    return [
        rule
        for rule in rules
        if (tool is None or rule.tool == tool)
        and (where is None or rule.folder == where)
        and (
            pattern is None
            or (
                rule.match is not None and pattern in (rule.match.pattern, rule.match.exact_value())
            )
        )
    ]


def _add_always_rule(path: Path, rule: ApprovalRule) -> None:
    with _file_locked(path):
        rules = load_always_rules(path)
        if any(r.same_target(rule) for r in rules):
            return  # (written as the answer was given: `ApprovalPolicy.kept`)
        _write_rules(path, [*rules, rule])


def _file_locked(path: Path) -> AbstractContextManager[None]:
    """Hold the approvals file's OS lock across a read-modify-write (other processes wait)."""
    return locked(
        path,
        lambda reason: ApprovalsFileError(f"Could not lock the approvals file {path}: {reason}"),
    )


def _write_rules(path: Path, rules: list[ApprovalRule]) -> None:
    """Replace the file with `rules` atomically; `ApprovalsFileError` if it cannot be written."""
    try:
        write_model(path, _RulesFile(rules=rules))
    except JsonFileError as reason:
        raise ApprovalsFileError(f"Could not write the approvals file {path}: {reason}") from None


class ApprovalPolicy:
    """Answers tool approvals a remembered rule covers, and remembers what the person allows.

    Attached to a queue, it accepts a matching `tool_approval` request the moment it arrives
    (content `{"scope": <the rule's scope>}`, reason `auto_approved`), so no front end asks.
    When a request is answered "for this session" or "always", it remembers a rule for the
    tool and the request's `remember` pattern, and answers the matching approvals already
    waiting. "Always" rules are read from and written to `path` (default: `rules_path()`);
    with `persistent=False` no file is touched and they last as long as the policy (demos).
    """

    def __init__(self, path: Path | None = None, *, persistent: bool = True) -> None:
        self.path = path or rules_path()
        self.persistent = persistent
        self._lock = threading.Lock()
        self._session: list[ApprovalRule] = []
        self._given_always: list[ApprovalRule] = []
        """The "always" rules given in this session and written to the file: one taken out
        of it since (`elicit-tui approvals revoke`) is said to be revoked with the session's."""
        self._revoked: list[Callable[[list[dict[str, Any]]], None]] = []
        """Called with the JSON form of the rules each revocation forgets (a transcript)."""

    def attach(self, queue: ElicitationQueue) -> Callable[[], None]:
        """Start answering `queue`'s tool approvals (waiting ones too); returns a detach function.

        It is no front end: what no rule covers is left to the front end, or the queue's policy.
        """
        return queue.subscribe(lambda event: self._on_event(queue, event), front_end=False)

    def rules(self) -> list[ApprovalRule]:
        """The rules in force: those held in memory, then the persisted "always" ones.

        An unreadable approvals file counts as no "always" rules; the problem is logged.
        """
        with self._lock:
            session = list(self._session)
        if not self.persistent:
            return session
        try:
            return session + load_always_rules(self.path)
        except ApprovalsFileError as problem:
            _log.warning("%s", problem)
            return session

    def when_revoked(self, record: Callable[[list[dict[str, Any]]], None]) -> Callable[[], None]:
        """Call `record` with the JSON form of the rules each revocation forgets, from now
        on; returns a function that stops it."""
        self._revoked.append(record)
        return lambda: self._revoked.remove(record)

    def revoke_session(
        self, tool: str | None, pattern: str | None = None, folder: str | None = None
    ) -> list[ApprovalRule]:
        """Forget the "for this session" rules `chosen_rules` picks; returns them. Those it
        picks of the "always" rules given in this session that are no longer in the file are
        said to be revoked with them (`when_revoked`): `elicit-tui approvals revoke` takes
        them out of it just before."""
        with self._lock:
            removed = chosen_rules(self._session, tool, pattern, folder)
            self._session = [rule for rule in self._session if rule not in removed]
            given = chosen_rules(self._given_always, tool, pattern, folder)
        gone = self._gone_from_file(given)
        with self._lock:
            self._given_always = [rule for rule in self._given_always if rule not in gone]
        if removed or gone:
            revoked = [rule.model_dump(mode="json") for rule in removed + gone]
            for record in list(self._revoked):
                record(revoked)
        return removed

    def _gone_from_file(self, rules: list[ApprovalRule]) -> list[ApprovalRule]:
        """The "always" `rules` no longer in the approvals file (none if it is unreadable)."""
        if not rules:
            return []
        try:
            kept = load_always_rules(self.path)
        except ApprovalsFileError:
            return []
        return [rule for rule in rules if not any(rule.same_target(k) for k in kept)]

    def revoke_recorded(self, rules: list[dict[str, Any]]) -> None:
        """Forget the rules held in memory that allow what `rules` (the JSON form of rules a
        transcript recorded as revoked) allowed: a replay's own, given as the recording's were."""
        recorded = [ApprovalRule.model_validate(rule) for rule in rules]
        with self._lock:
            self._session = [
                rule for rule in self._session if not any(rule.same_target(r) for r in recorded)
            ]

    def rule_for(self, request: ToolApprovalRequest) -> ApprovalRule | None:
        """The first rule that allows `request`'s call, or None if the person must be asked."""
        return next((rule for rule in self.rules() if rule.covers(request)), None)

    def allow(
        self,
        tool: str,
        match: ArgumentPattern | None = None,
        *,
        scope: RuleScope = "session",
        folder: str | None = None,
    ) -> ApprovalRule:
        """Allow calls of `tool` (matching `match`, made in `folder` if given) from now on;
        returns the rule.

        A "session" rule lasts as long as this policy. An "always" rule is written to the
        approvals file; if that fails, it is kept as a "session" rule (listed and revoked as
        one) and the problem is logged.
        """
        rule = ApprovalRule(tool=tool, match=match, folder=folder, scope=scope)
        if scope == "always" and self.persistent:
            try:
                _add_always_rule(self.path, rule)
                with self._lock:
                    if not any(r.same_target(rule) for r in self._given_always):
                        self._given_always.append(rule)
                return rule
            except ApprovalsFileError as problem:
                _log.warning("%s; the rule holds for this session only", problem)
                rule = rule.model_copy(update={"scope": "session"})
        with self._lock:
            if not any(r.same_target(rule) for r in self._session):
                self._session.append(rule)
        return rule

    def kept(self, request: Request, result: ElicitationResult) -> ElicitationResult:
        """`result` as what it keeps holds: an "always" whose rule the approvals file cannot
        take is remembered for this session, and answered as that, so that the asker and
        every front end say what holds ("allowed for this session", not "always allowed").

        Writes the rule, holding the file's lock: call it just before the queue is given the
        result (an answer that loses a race meanwhile leaves its rule, as the person asked),
        and off an event loop."""
        if (
            not isinstance(request, ToolApprovalRequest)
            or request.scope_of(result) != "always"
            or refused_rule(request, result) is not None
        ):
            return result
        if self._remember(request, "always").scope == "always":
            return result
        return result.model_copy(update={"content": {"scope": "session"}})

    def answer_or_ask(
        self, request: ToolApprovalRequest, ask: Callable[[], ElicitationResult]
    ) -> ElicitationResult:
        """For a front end with no queue to attach to (`elicit-tui ask`, in plain text or
        without a terminal): the call allowed at once if a rule covers it, as an attached
        policy allows it; else what `ask()` answers, an "always" remembered. ("For this
        session" lasts as long as the one question.)"""
        rule = self.rule_for(request)
        if rule is not None:
            return _auto_approval(rule)
        result = ask()
        if request.scope_of(result) == "always":
            self._remember(request, "always")
        return result

    def _on_event(self, queue: ElicitationQueue, event: QueueEvent) -> None:
        # Called with the queue's lock held; the queue delivers what `respond` causes in order.
        request = event.request
        if not isinstance(request, ToolApprovalRequest):
            return
        if event.type == "requested":
            rule = self.rule_for(request)
            if rule is not None:
                queue.respond(request.id, _auto_approval(rule))
            return
        result = event.result
        if result is None or result.reason == AUTO_APPROVED:
            return
        scope = request.scope_of(result)
        if (refusal := refused_rule(request, result)) is not None:
            # A rule is written to disk ("always"), listed by `approvals list` and the inbox's
            # /v1/rules: it must not carry a secret, nor cover calls it knows nothing of. The
            # call itself is allowed, once.
            _log.warning("%s is allowed once only: %s", request.tool_name, refusal)
        elif scope == "session" or scope == "always":
            rule = self._remember(request, scope)
            for waiting in queue.pending():
                if isinstance(waiting, ToolApprovalRequest) and rule.covers(waiting):
                    queue.respond(waiting.id, _auto_approval(rule))

    def _remember(self, request: ToolApprovalRequest, scope: RuleScope) -> ApprovalRule:
        """Allow from now on what `request` says the person's answer covers."""
        return self.allow(request.tool_name, request.remember, scope=scope, folder=request.folder)


def refused_rule(request: Request, result: ElicitationResult) -> str | None:
    """Why `result` may not answer `request`, if it may not: it allows, for the session or
    always, a call no rule may be made from (`why_not_remembered`: it holds a secret given
    earlier, or asks to be allowed once only). The dialog does not offer that answer; a front
    end that sends it is refused rather than told a rule was kept that is not."""
    if not isinstance(request, ToolApprovalRequest):
        return None
    scope = request.scope_of(result)
    if scope == "session" or scope == "always":
        why = why_not_remembered(request)
        if why is not None:
            return f"{why}: it may be allowed once, never remembered"
    return None


def _auto_approval(rule: ApprovalRule) -> ElicitationResult:
    return ElicitationResult(action="accept", content={"scope": rule.scope}, reason=AUTO_APPROVED)
