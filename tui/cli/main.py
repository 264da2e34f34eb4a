"""The `elicit-tui` command."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from functools import partial

from tui.cli.approvals import add_approvals_command
from tui.cli.ask import add_ask_command
from tui.cli.attach import add_attach_command
from tui.cli.mcp import add_mcp_command
from tui.cli.passthrough import add_passthrough_command, imported_when_run
from tui.cli.replay import add_replay_command, add_replay_options, run_replay
from tui.cli.seconds_type import seconds
from tui.cli.secrets import add_secrets_command
from tui.cli.serve import add_serve_command
from tui.cli.token import add_token_command
from tui.cli.transcript_option import add_transcript_option
from tui.cli.web import add_web_command
from tui.core.loading import loading_modules

DEMO_SESSION = "demo_session.jsonl"
"""A transcript of the demo agent's session, shipped with the package for `demo --replay`."""


def _run_demo(args: argparse.Namespace) -> int:
    if args.replay:
        return _replay_demo(args)
    if not sys.stdin.isatty():
        # With no keys to read, Textual's driver spun a core and the demo never ended.
        print("elicit-tui demo: stdin is no terminal: nobody can answer the demo", file=sys.stderr)
        return 1
    with loading_modules():
        from tui.app.app import ElicitationApp
        from tui.approvals.rules import ApprovalPolicy
        from tui.cli.demo import setup_service_agent
        from tui.core.queue import ElicitationQueue

    agent = partial(setup_service_agent, pause=args.pause)
    app = ElicitationApp(
        ElicitationQueue(),
        agent,
        agent_name="setup-agent",
        title="elicit-tui demo",
        # The demo's "shell" rules must never approve a real agent's calls, nor real rules its.
        approvals=ApprovalPolicy(persistent=False),
        transcript=args.transcript,
    )
    summary = app.run()
    if not summary:
        print("The demo ended before the agent finished.")
        return app.return_code or 1  # 143 when ended by SIGTERM
    print("The agent set up a service with these answers:")
    for key, value in summary.items():
        print(f"  {key:<12} {value}")
    return 0


def _replay_demo(args: argparse.Namespace) -> int:
    """Play the recorded session of the demo agent: every kind answered, nothing to type."""
    from importlib.resources import as_file, files

    with as_file(files("tui.cli") / DEMO_SESSION) as path:
        args.file = path
        return run_replay(args)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser for every sub-command."""
    parser = argparse.ArgumentParser(
        prog="elicit-tui",
        description="A terminal UI through which AI agents ask you structured questions.",
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    demo = commands.add_parser(
        "demo",
        help="run a demo agent that sets up a service, asking every kind of question",
        description="Run a demo agent that sets up a service: it asks for a service name, a "
        "framework and features, three decisions in one batch, three tool approvals, an API "
        "key, a deployment form and a final confirmation; prints a summary on exit.",
    )
    demo.add_argument(
        "--pause",
        type=seconds,
        default=0.6,
        metavar="SECONDS",
        help="how long the agent 'thinks' between questions (default: 0.6)",
    )
    add_transcript_option(demo)
    demo.add_argument(
        "--replay",
        action="store_true",
        help="play a recorded session of the demo instead: every question answered, "
        "no typing (takes the options below)",
    )
    add_replay_options(demo.add_argument_group("with --replay"))
    demo.set_defaults(handler=_run_demo, report=None)
    add_ask_command(commands)
    add_attach_command(commands)
    add_approvals_command(commands)
    add_passthrough_command(
        commands,
        "hook",
        help="answer Claude Code's, Codex's or Gemini CLI's permission hook in the inbox",
        # Its hook formats load only when a hook runs.
        main=imported_when_run("tui.cli.hook"),
    )
    add_mcp_command(commands)
    add_replay_command(commands)
    add_secrets_command(commands)
    add_serve_command(commands)
    add_token_command(commands)
    add_web_command(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the `elicit-tui` console script; returns the exit code."""
    args = build_parser().parse_args(argv)
    return int(args.handler(args))


if __name__ == "__main__":
    # Not the command (`python -m tui.cli` is): a run that did nothing must not read as an
    # answer (0 is `ask`'s "accepted").
    print("elicit-tui: run `elicit-tui` or `python -m tui.cli`", file=sys.stderr)
    sys.exit(2)
