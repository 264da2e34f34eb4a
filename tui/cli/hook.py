"""`elicit-tui hook claude-code|codex|gemini`: a coding-agent CLI's permission hook, asked in the inbox.

The CLI runs the hook with the pending tool call as JSON on stdin; the hook hands it, as it
is, to the inbox that `elicit-tui serve` runs, which asks it as a tool approval and answers
with the person's verdict in that CLI's hook format (`tui.inbox.hook_api`); the hook prints
it. Reading the call and deciding happen in the inbox, so this process, which runs on every
tool call, loads little. When nothing is decided (no inbox, a wrong token, a cancel, no
answer within `--wait`, malformed input, any fault) it prints nothing (for Gemini CLI, `{}`),
so the CLI asks as it always does, and says why in one line on stderr. It always exits 0: Claude Code and Gemini
CLI read exit 2 as "block", and a fault must block nothing, allow nothing.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import sys
from collections.abc import Sequence
from typing import NoReturn

from tui.cli.entry import to_null_device
from tui.cli.hook_input import INPUT_WITHIN, read_hook_input
from tui.cli.token_option import add_token_option
from tui.core.ended_from_outside import EndedFromOutside, signals_raise
from tui.core.limits import MAX_TIMEOUT
from tui.inbox.discovery import find_inbox, inbox_base, listening
from tui.integrations.hooks.clis import CLI_NAMES
from tui.integrations.hooks.undecided import undecided

WAIT_ENV = "ELICIT_TUI_HOOK_WAIT"
"""Seconds to wait for the person when `--wait` is not given."""

DEFAULT_WAIT = 300.0
"""Seconds to wait for the person by default; keep each CLI's hook timeout above it."""

NO_DECISION = {"gemini": "{}"}
"""What a CLI is to read on stdout when nothing is decided, where nothing is not enough:
Gemini CLI takes a hook's stderr, when its stdout is empty, for its answer in plain text (an
allow with the note as a message, its own policy deciding after). `{}` is its "no decision"."""

GRACE = 5.0
"""Seconds past `--wait` the hook waits for the inbox's own timeout answer before giving up."""


class _HookParser(argparse.ArgumentParser):
    """An argument parser whose usage errors exit 0 with no decision: exit 2 would block.
    For a CLI that needs its "no decision" said on stdout, `no_decision` says it."""

    no_decision: str | None = None

    def error(self, message: str) -> NoReturn:
        if self.no_decision is not None:
            with contextlib.suppress(OSError):
                _print(self.no_decision)
        self.exit(0, f"{self.prog}: {message}; no decision, the CLI asks as usual\n")


def build_parser() -> _HookParser:
    """The parser of `elicit-tui hook`'s arguments."""
    parser = _HookParser(
        prog="elicit-tui hook",
        description="Run as a coding-agent CLI's permission hook: read its hook JSON on stdin, "
        "ask the tool call in the inbox of `elicit-tui serve`, print the verdict in the "
        "CLI's format. Prints nothing (the CLI then asks as usual) when no verdict comes. "
        "Reading stops at the end of the JSON, so stdin need not be closed; input not "
        f"complete within {INPUT_WITHIN:g} s decides nothing.",
    )
    parser.add_argument(
        "cli", choices=sorted(CLI_NAMES), help="whose hook input and output to speak"
    )
    parser.add_argument(
        "--to",
        metavar="URL",
        help="the inbox (default: $ELICIT_TUI_URL, else http://127.0.0.1:8765)",
    )
    add_token_option(parser)
    parser.add_argument(
        "--wait",
        type=_seconds,
        metavar="SECONDS",
        help=f"how long to wait for the person before deciding nothing (default: ${WAIT_ENV}, "
        f"else {DEFAULT_WAIT:g})",
    )
    return parser


def main(argv: Sequence[str]) -> int:
    """Run `elicit-tui hook` with `argv` (the arguments after `hook`); always returns 0."""
    parser = build_parser()
    # Named before the arguments are read: a mistake in them must not leave stdout empty.
    parser.no_decision = next((NO_DECISION[word] for word in argv if word in NO_DECISION), None)
    args = parser.parse_args(argv)
    cli = CLI_NAMES[args.cli]
    prog = f"elicit-tui hook {args.cli}"
    try:
        # The CLI's own timeout ends a hook with SIGTERM: it hangs up (the question is
        # withdrawn) and decides nothing, in the CLI's words, as for any other end.
        with signals_raise((signal.SIGTERM,)):
            decided = _run(args, cli, prog)
    except EndedFromOutside:
        _say(prog, f"no decision: ended by SIGTERM (the CLI's own timeout?); {cli} asks as usual")
        decided = False
    except BaseException as error:  # a fault (or Ctrl+C) decides nothing and blocks nothing
        said = str(error).strip().splitlines()
        fault = f"{type(error).__name__}: {said[0]}" if said else type(error).__name__
        _say(prog, f"no decision: {fault}; {cli} asks as usual")
        decided = False
    if not decided and args.cli in NO_DECISION:
        with contextlib.suppress(OSError):  # nobody reads it: nothing is decided either way
            _print(NO_DECISION[args.cli])
    return 0


def _run(args: argparse.Namespace, cli: str, prog: str) -> bool:
    """Hand the call on stdin to the inbox and print its decision; False if none was made."""
    if sys.stdin is None:
        _say(prog, f"reads {cli}'s hook input as JSON on stdin, which is closed; nothing to answer")
        return False
    if sys.stdin.isatty():
        _say(prog, f"reads {cli}'s hook input as JSON on stdin; nothing to answer")
        return False
    wait, note = _wait(args.wait)
    if note:
        _say(prog, note)
    # Read up to a complete JSON value, not to the end: a CLI may never close stdin.
    data = read_hook_input(sys.stdin.fileno())
    if data is None:
        _say(
            prog,
            f"no decision: no complete JSON on stdin within {INPUT_WITHIN:g} s; "
            f"{cli} asks as usual",
        )
        return False
    try:
        base = inbox_base(args.to)
    except ValueError as error:
        _say(prog, f"no decision: {error}; {cli} asks as usual")
        return False
    if not listening(base):
        # Said before reading the token: with no inbox running, the hook costs the CLI a
        # process start on each tool call, no more.
        _say(prog, f"{undecided('inbox_unreachable')}; {cli} asks as usual")
        return False
    try:
        address = find_inbox(args.to, args.token)
    except ValueError as error:
        _say(prog, f"no decision: {error}; {cli} asks as usual")
        return False
    # Loaded only now that an inbox listens: most tool calls of a CLI find none running.
    from tui.inbox.hook_call import run_in_inbox

    text = data.decode("utf-8", errors="replace")
    output, note = run_in_inbox(args.cli, text, address, wait=wait, give_up=wait + GRACE)
    if output:
        _print(output)
        return True
    _say(prog, f"{note}; {cli} asks as usual")
    return False


def _wait(flag: float | None) -> tuple[float, str | None]:
    """The seconds to wait: the flag, else the environment, else the default (and a note if
    the environment's value was unusable)."""
    if flag is not None:
        return flag, None
    text = os.environ.get(WAIT_ENV)
    if not text:
        return DEFAULT_WAIT, None
    try:
        return _seconds(text), None
    except argparse.ArgumentTypeError as problem:
        return DEFAULT_WAIT, f"${WAIT_ENV}: {problem}; waiting {DEFAULT_WAIT:g} s"


def _seconds(value: str) -> float:
    try:
        seconds = float(value)
    except ValueError:
        seconds = float("nan")
    if not 0 < seconds <= MAX_TIMEOUT:  # NaN fails every comparison, so it lands here too
        raise argparse.ArgumentTypeError(
            f"not a number of seconds above 0 and at most {MAX_TIMEOUT:.0f} (30 days): {value!r}"
        )
    return seconds


def _print(output: str) -> None:
    """Print the CLI's output; if nobody can read it, leave nothing for the way out to flush
    (a failed flush at exit would end the hook with status 120)."""
    try:
        print(output, flush=True)
    except OSError:
        to_null_device(sys.stdout)
        raise


def _say(prog: str, text: str) -> None:
    """One line on stderr, if it can be written: never on stdout, which only the CLI reads
    (`print` to a closed stderr, None, would write there)."""
    if sys.stderr is None:
        return
    line = f"{prog}: {text}\n"
    encoding = sys.stderr.encoding or "utf-8"
    try:
        sys.stderr.write(line.encode(encoding, "backslashreplace").decode(encoding))
        sys.stderr.flush()
    except (OSError, ValueError):
        pass  # nowhere to say it
