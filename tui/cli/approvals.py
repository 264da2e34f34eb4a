"""`elicit-tui approvals list|revoke`: see and forget the "always allow" rules.

`list` also shows the "for this session" rules of the running inbox (`elicit-tui serve`), if
one answers where `elicit-tui ask --to` would find it.
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

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
    listing.add_argument(
        "--to",
        dest="to_url",
        metavar="URL",
        help="the running inbox whose rules for this session to list, as `ask --to` names it"
        " (default: $ELICIT_TUI_URL, else the default port)",
    )
    add_token_option(listing)
    listing.set_defaults(handler=_list)
    revoke = actions.add_parser(
        "revoke",
        help="forget rules: every rule of a tool, one pattern of it, or --all",
        description="Forget the remembered rules of TOOL (only those with --pattern, if given), "
        "or every rule with --all. Exits 1 if no rule matched.",
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
    revoke.set_defaults(handler=_revoke)


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
    found = _inbox_session_rules(args.to_url, args.token)
    if found is not None and found[1]:
        print(f"Allowed for this session by the inbox at {found[0]}:")
        _print_rules(found[1])
    if unreadable is not None:
        print(f"elicit-tui approvals: {unreadable}", file=sys.stderr)
        return 2
    return 0


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
    from tui.inbox.discovery import find_inbox
    from tui.inbox.remote_queue import inbox_call

    try:
        address = find_inbox(url, token)
    except ValueError as problem:
        print(f"elicit-tui approvals: {problem}; no inbox asked", file=sys.stderr)
        return None
    try:
        status, body = inbox_call(address, "GET", "/v1/rules", timeout=INBOX_WAIT)
    except OSError as error:
        if url is not None:
            print(
                f"elicit-tui approvals: no inbox answers at {address.base}: {error}",
                file=sys.stderr,
            )
        return None
    if status != 200:
        if url is not None:
            print(
                f"elicit-tui approvals: the inbox at {address.base} answered {status}",
                file=sys.stderr,
            )
        return None
    rules = [ApprovalRule.model_validate(rule) for rule in body.get("rules", [])]
    return address.base, [rule for rule in rules if rule.scope == "session"]


def _revoke(args: argparse.Namespace) -> int:
    from tui.approvals.rules import ApprovalsFileError, revoke_always_rules

    try:
        removed = revoke_always_rules(
            None if args.all else args.tool, args.pattern, folder=args.folder
        )
    except ApprovalsFileError as problem:
        print(f"elicit-tui approvals: {problem}", file=sys.stderr)
        return 2
    if not removed:
        print(
            'No "always" approval matched; nothing revoked. (Approvals "for this session"'
            " end with the inbox that holds them.)",
            file=sys.stderr,
        )
        return 1
    for rule in removed:
        print(f"Revoked: {literal_line(rule.describe())}")
    return 0
