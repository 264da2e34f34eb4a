"""`elicit-tui approvals list|revoke`: see and forget the "always allow" rules.

Both also reach the "for this session" rules of the running inbox (`elicit-tui serve`), if
one answers where `elicit-tui ask --to` would find it.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import TYPE_CHECKING, Any

from tui.cli.token_option import add_token_option
from tui.core.terminal_text import literal_line

if TYPE_CHECKING:
    from tui.approvals.rules import ApprovalRule

# The rules (and pydantic, the keyring index's folder) load only when a subcommand runs: the
# parser of every `elicit-tui` command registers this one, `ask` and `hook` among them.

INBOX_WAIT = 2.0
"""Seconds `list` waits for a running inbox to tell its session rules."""


def add_approvals_command(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register `approvals list` and `approvals revoke` on the `elicit-tui` parser."""
    approvals = commands.add_parser(
        "approvals",
        help='list or revoke the tool approvals remembered with "Always allow"',
        description='Manage the tool approvals remembered with "Always allow" (kept in '
        "approvals.json in elicit-tui's configuration folder, which `approvals list` names; "
        "ELICIT_TUI_CONFIG_DIR moves it). "
        '"Allow for this session" rules live only as long as the app.',
    )
    actions = approvals.add_subparsers(dest="approvals_command", metavar="ACTION", required=True)
    listing = actions.add_parser(
        "list",
        help="list the remembered rules, and the running inbox's rules for this session",
    )
    _add_inbox_option(listing, "whose rules for this session to list")
    listing.set_defaults(handler=_list)
    revoke = actions.add_parser(
        "revoke",
        help="forget rules: every rule of a tool, one pattern of it, or --all",
        description="Forget the rules of TOOL (only those with --pattern, if given), or every "
        'rule with --all: the "always" ones, and the running inbox\'s "for this session" ones. '
        "Exits 1 if no rule matched, 2 if the approvals file is unreadable or the running "
        "inbox refused (a stale token).",
    )
    target = revoke.add_mutually_exclusive_group(required=True)
    target.add_argument("tool", nargs="?", metavar="TOOL", help="the tool whose rules to forget")
    target.add_argument("--all", action="store_true", help="forget every remembered rule")
    revoke.add_argument(
        "--pattern", metavar="GLOB", help="forget only the rule with this argument pattern"
    )
    revoke.add_argument(
        "--folder", metavar="PATH", help="forget only the rules made in this project folder"
    )
    _add_inbox_option(revoke, "whose rules for this session to forget too")
    revoke.set_defaults(handler=_revoke)


def _add_inbox_option(parser: argparse.ArgumentParser, which: str) -> None:
    parser.add_argument(
        "--to",
        dest="to_url",
        metavar="URL",
        help=f"the running inbox {which}, as `ask --to` names it"
        " (default: $ELICIT_TUI_URL, else the default port)",
    )
    add_token_option(parser)


def _list(args: argparse.Namespace) -> int:
    from tui.approvals.rules import ApprovalsFileError, load_always_rules, rules_path

    # An unreadable file is said, and exits 2, after the inbox's rules: they are in force.
    unreadable = None
    try:
        rules = load_always_rules()
    except ApprovalsFileError as problem:
        unreadable, rules = problem, []
    if unreadable is None and not rules:
        print(f"No remembered approvals ({rules_path()}).")
    elif rules:
        print(f"Always allowed ({rules_path()}):")
        _print_rules(rules)
    refused = None
    try:
        found = _inbox_session_rules(args.to_url, args.token)
    except _InboxRefused as problem:
        found, refused = None, problem
    if found is not None and found[1]:
        print(f"Allowed for this session by the inbox at {found[0]}:")
        _print_rules(found[1])
    if refused is not None:
        print(
            f"elicit-tui approvals: {refused}; its rules for this session, in force, are not "
            "listed",
            file=sys.stderr,
        )
    if unreadable is not None:
        print(f"elicit-tui approvals: {unreadable}", file=sys.stderr)
    return 2 if unreadable is not None or refused is not None else 0


def _print_rules(rules: list[ApprovalRule]) -> None:
    for rule in rules:
        added = rule.added_at.astimezone().strftime("%Y-%m-%d %H:%M")
        print(f"  {literal_line(rule.describe()):<50} since {added}")


def _inbox_session_rules(
    url: str | None, token: str | None
) -> tuple[str, list[ApprovalRule]] | None:
    """Where the running inbox is (at `url`, else where `ask --to` finds it) and its "for
    this session" rules; None if none answers. An inbox named by `url` that does not answer
    is said on stderr: its rules are not listed."""
    from tui.approvals.rules import ApprovalRule

    answered = _inbox_call(url, token, "GET", "/v1/rules")
    if answered is None:
        return None
    rules = [ApprovalRule.model_validate(rule) for rule in answered[1].get("rules", [])]
    return answered[0], [rule for rule in rules if rule.scope == "session"]


def _inbox_call(
    url: str | None, token: str | None, method: str, path: str
) -> tuple[str, dict[str, Any]] | None:
    """Where the running inbox is (at `url`, else where `ask --to` finds it) and its JSON
    answer to `method path`; None if none answers. One named by `url` that does not answer
    is said on stderr; one that answers but refuses (a stale token) raises `_InboxRefused`."""
    from tui.inbox.discovery import find_inbox
    from tui.inbox.remote_queue import inbox_call

    try:
        address = find_inbox(url, token)
    except ValueError as problem:
        print(f"elicit-tui approvals: {problem}; no inbox asked", file=sys.stderr)
        return None
    try:
        status, body = inbox_call(address, method, path, timeout=INBOX_WAIT)
    except OSError as error:
        if url is not None:
            print(
                f"elicit-tui approvals: no inbox answers at {address.base}: {error}",
                file=sys.stderr,
            )
        return None
    if status != 200:
        # An inbox that answers but refuses (a stale token): its rules are in force.
        said = body.get("error") or f"answered HTTP {status}"
        raise _InboxRefused(f"the inbox at {address.base} refused: {said}")
    return address.base, body


class _InboxRefused(Exception):
    """The running inbox answered, but refused (a stale token): its session rules are in
    force, neither listed nor revoked; the command exits 2, saying so."""


def _revoke(args: argparse.Namespace) -> int:
    from tui.approvals.rules import ApprovalsFileError, revoke_always_rules

    tool = None if args.all else args.tool
    if args.folder is not None:
        # Named as a shell names it (`.`, `../app`): rules keep their folders whole.
        args.folder = os.path.abspath(os.path.expanduser(args.folder))
    # The file first: the inbox, told next, records the "always" rules gone from it with its
    # own for this session (in force whatever the file) in its transcript.
    unwritable = None
    try:
        removed = revoke_always_rules(tool, args.pattern, folder=args.folder)
    except ApprovalsFileError as problem:
        removed, unwritable = [], problem
    refused = None
    try:
        revoked = _inbox_session_revoked(args, tool)
    except _InboxRefused as problem:
        revoked, refused = [], problem
    for rule in revoked:
        print(f"Revoked for this session: {literal_line(rule.describe())}")
    if unwritable is not None:
        print(f"elicit-tui approvals: {unwritable}", file=sys.stderr)
        return 2
    for rule in removed:
        print(f"Revoked: {literal_line(rule.describe())}")
    if refused is not None:
        print(
            f"elicit-tui approvals: {refused}; its rules for this session were NOT revoked",
            file=sys.stderr,
        )
        return 2
    if not removed and not revoked:
        print("No approval matched; nothing revoked.", file=sys.stderr)
        return 1
    return 0


def _inbox_session_revoked(args: argparse.Namespace, tool: str | None) -> list[ApprovalRule]:
    """The running inbox's "for this session" rules that `args` name, which it forgot."""
    from urllib.parse import urlencode

    from tui.approvals.rules import ApprovalRule

    named = {"tool": tool, "all": "1" if tool is None else None}
    named |= {"pattern": args.pattern, "folder": args.folder}
    query = urlencode({key: value for key, value in named.items() if value is not None})
    answered = _inbox_call(args.to_url, args.token, "DELETE", f"/v1/rules?{query}")
    if answered is None:
        return []
    return [ApprovalRule.model_validate(rule) for rule in answered[1].get("revoked", [])]
