"""`elicit-tui ask`: one request from the shell, answered in a dialog under the prompt.

The result is one line of JSON on stdout, `{"action": ..., "content": ..., "reason": ...}` (with
`--raw`, only the content), and the exit status says how the request ended (see `exit_status`):
0 accept (a confirmation: yes), 1 decline (a confirmation: no), 2 cancel, 3 invalid request,
130 interrupted with Ctrl+C, 143 ended by SIGTERM. `--fullscreen` takes the whole screen;
`--plain` asks with line prompts instead.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import signal
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from textwrap import fill
from typing import Any, NoReturn, TextIO

from pydantic import BaseModel, SecretStr, TypeAdapter, ValidationError

from tui.cli.kinds_note import KINDS_NOTE
from tui.cli.passthrough import add_passthrough_command
from tui.cli.plain import PlainPrompter, plain_wanted
from tui.cli.plain_terminal import discard_typed, plain_streams
from tui.cli.timed_out import TimedOut, timed_out_after
from tui.cli.token_option import add_token_option
from tui.cli.transcript_option import add_transcript_option
from tui.core.ended_from_outside import EndedFromOutside, signals_raise
from tui.core.json_names import fields_by_json_name
from tui.core.json_type import json_type
from tui.core.loading import loading_modules
from tui.core.models import (
    KEYRING_UNAVAILABLE,
    Action,
    ElicitationResult,
    Request,
    SecretRequest,
    ToolApprovalRequest,
    parse_request,
)
from tui.core.secret_ref import SecretRef
from tui.core.validation_text import describe_validation_error
from tui.inbox.env_names import URL_ENV

EXIT_CODES: dict[Action, int] = {"accept": 0, "decline": 1, "cancel": 2}
"""The exit status for each way a request can end."""

EXIT_NO = 1
"""The exit status of a confirmation answered no, as `gum confirm`: `if elicit-tui ask confirm`."""

EXIT_INVALID = 3
"""The exit status when the command line or JSON does not describe a valid request."""

EXIT_SECRET_HIDDEN = 4
"""The exit status of `--raw` with an accepted secret (or sensitive) answer and no
`--reveal-secret`: its mask printed alone would be taken for the value, so nothing is."""

EXIT_INTERRUPTED = 130
"""The exit status after Ctrl+C, as a shell reports a command ended by SIGINT (128 + 2)."""

EXIT_TERMINATED = 143
"""The exit status after SIGTERM (`kill`, `timeout`), as a shell reports a command it ended
(128 + 15)."""

EXIT_HUNG_UP = 129
"""The exit status once the terminal has gone, as a shell reports a command a hangup ended
(128 + 1)."""

REDACTED = "**********"
"""What a typed secret is printed as without `--reveal-secret`."""

_EPILOG = f"""\
exit status:
  0    accepted; for confirm: yes
  1    declined (Ctrl+N); for confirm: no
  2    cancelled (Escape, Ctrl+Q, timeout, no terminal)
  3    invalid request (the reason on stderr; no UI is shown)
  4    --raw, and the answer is a secret: printed only with --reveal-secret
  129  the terminal went away (reason "hung_up")
  130  interrupted with Ctrl+C (reason "interrupted")
  143  ended by SIGTERM: kill, timeout (reason "terminated")
The UI is drawn on the terminal (/dev/tty), so stdin and stdout may be pipes or files.
With --to URL (or ELICIT_TUI_URL) the question goes to the inbox of `elicit-tui serve`
instead, and no terminal is needed; exit 2 if no inbox answers there.
ELICIT_TUI_PLAIN=1 (or TERM=dumb) asks with plain line prompts; ELICIT_TUI_BELL=0 keeps quiet.
{fill(KINDS_NOTE, 92)}
"""

Fields = Callable[[argparse.Namespace], dict[str, Any]]
"""Turns one kind's parsed flags into that kind's request fields."""


class InvalidRequest(ValueError):
    """The command line or JSON does not describe a valid request; the message says why."""


class _AskParser(argparse.ArgumentParser):
    """An argument parser whose usage errors exit 3: argparse's own 2 means "cancel" here."""

    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        self.exit(EXIT_INVALID, f"{self.prog}: error: {message}\n")


def add_ask_command(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register `ask` on the `elicit-tui` parser; its arguments are read by `build_parser()`,
    whose usage errors exit 3 as documented."""
    add_passthrough_command(
        commands,
        "ask",
        help="ask one question from the shell and print the answer as JSON",
        main=main,
    )


def main(argv: Sequence[str]) -> int:
    """Run `elicit-tui ask` with `argv` (the arguments after `ask`); returns the exit status."""
    args = build_parser().parse_args(argv)
    try:
        request = build_request(args)
    except InvalidRequest as invalid:
        print(f"elicit-tui ask: {invalid}", file=sys.stderr)
        return EXIT_INVALID
    inbox = args.to or os.environ.get(URL_ENV)
    if inbox:
        from tui.inbox.discovery import find_inbox

        try:
            find_inbox(inbox, args.token)  # a URL or token no request could go with
        except ValueError as error:
            print(f"elicit-tui ask: {error}", file=sys.stderr)
            return EXIT_INVALID
    if args.transcript is not None and (inbox or plain_wanted(args.plain)):
        why = (
            "with --to, the inbox records it: `elicit-tui serve --transcript FILE`"
            if inbox
            else "in plain mode (--plain, ELICIT_TUI_PLAIN or TERM=dumb) there is none"
        )
        print(
            f"elicit-tui ask: --transcript records the dialog on this terminal; {why}",
            file=sys.stderr,
        )
        return EXIT_INVALID
    refusal = None if inbox else _keyring_refusal(request)
    if inbox:
        from tui.cli.ask_inbox import InvalidInInbox, ask_inbox

        try:
            result = ask_inbox(request, inbox, args.token)
        except InvalidInInbox as invalid:
            print(f"elicit-tui ask: {invalid}", file=sys.stderr)
            return EXIT_INVALID
    elif refusal is not None:
        print(f"elicit-tui ask: {refusal}", file=sys.stderr)
        result = ElicitationResult(action="cancel", reason=KEYRING_UNAVAILABLE)
    else:
        result = _ask_here(request, args)
    if args.raw:
        if not args.reveal_secret and _hides_a_secret(result):
            print(f"elicit-tui ask: {SECRET_HIDDEN}", file=sys.stderr)
            return EXIT_SECRET_HIDDEN
        text = raw_text(result, reveal_secret=args.reveal_secret)
        if text:
            print(text, flush=True)
    else:
        print(result_json(result, reveal_secret=args.reveal_secret), flush=True)
    return exit_status(request, result)


def exit_status(request: Request, result: ElicitationResult) -> int:
    """The exit status `ask` ends with once `request` ended with `result`."""
    if result.reason == "interrupted":
        return EXIT_INTERRUPTED
    if result.reason == "terminated":
        return EXIT_TERMINATED
    if result.reason == "hung_up":
        return EXIT_HUNG_UP
    if request.kind == "confirmation" and result.action == "accept" and result.content is False:
        return EXIT_NO
    return EXIT_CODES[result.action]


def _keyring_refusal(request: Request) -> str | None:
    """Why a secret to be stored cannot be asked for (no usable keyring), or None."""
    if not isinstance(request, SecretRequest) or request.store is None:
        return None
    from tui.secrets.keyring_store import keyring_status

    problem = keyring_status()
    if problem is None:
        return None
    return f"cannot store the secret, so it is not asked for: {problem}"


def build_parser() -> argparse.ArgumentParser:
    """The parser of `elicit-tui ask`: a request as JSON, or a kind and its flags."""
    parser = _AskParser(
        prog="elicit-tui ask",
        description="Ask the person at the terminal one question and print the answer as JSON. "
        "Name a KIND with its flags, or give the request as JSON (a `kind` plus the "
        "request's fields) with --json or on stdin.",
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--json", metavar="JSON", help="the request as a JSON object")
    _add_timeout_flag(parser, default=None)
    _add_where_flags(parser, default=None)
    _add_output_flags(parser, default=False)
    kinds = parser.add_subparsers(dest="kind", metavar="KIND", parser_class=_AskParser)

    common = _AskParser(add_help=False)
    common.add_argument("message", help="the question")
    common.add_argument("--title", help="a heading above the question")
    common.add_argument("--description", help="more detail, in markdown")
    common.add_argument("--source", help="who is asking (shown above the question)")
    # Unset unless given after KIND, so they cannot undo the same flag given before it.
    _add_timeout_flag(common, default=argparse.SUPPRESS)
    _add_where_flags(common, default=argparse.SUPPRESS)
    _add_output_flags(common, default=argparse.SUPPRESS)

    choice = kinds.add_parser("choice", parents=[common], help="pick one option")
    _add_options(choice)
    choice.add_argument("--default", metavar="OPTION", help="the option highlighted first")
    choice.set_defaults(fields=_choice_fields)

    multi = kinds.add_parser(
        "multi", aliases=["multi_choice"], parents=[common], help="pick any number of options"
    )
    _add_options(multi)
    multi.add_argument(
        "--default",
        dest="defaults",
        action="append",
        metavar="OPTION",
        help="an option ticked at first (repeat for more)",
    )
    multi.add_argument("--min", type=int, metavar="N", help="at least N options")
    multi.add_argument("--max", type=int, metavar="N", help="at most N options")
    multi.set_defaults(fields=_multi_fields)

    text = kinds.add_parser("text", parents=[common], help="type free text")
    text.add_argument("--default", help="the text filled in at first")
    text.add_argument("--placeholder", help="a hint shown while the field is empty")
    text.add_argument("--multiline", action="store_true", help="allow several lines")
    text.set_defaults(fields=_text_fields)

    secret = kinds.add_parser("secret", parents=[common], help="type a secret, masked")
    secret.add_argument(
        "--store",
        type=_keyring_target,
        metavar="SERVICE/USERNAME",
        help="store the secret in the system keyring and print only its reference",
    )
    secret.add_argument("--confirm", action="store_true", help="ask for the secret twice")
    secret.add_argument("--placeholder", help="a hint shown while the field is empty")
    secret.set_defaults(fields=_secret_fields)

    confirm = kinds.add_parser(
        "confirm", aliases=["confirmation"], parents=[common], help="answer yes or no"
    )
    confirm.add_argument("--default", choices=["yes", "no"], help="the answer focused first")
    confirm.add_argument("--yes-label", help="the label of the yes button")
    confirm.add_argument("--no-label", help="the label of the no button")
    confirm.set_defaults(fields=_confirm_fields)

    form = kinds.add_parser("form", parents=[common], help="fill in fields described by a schema")
    form.add_argument(
        "--schema",
        required=True,
        metavar="JSON",
        help="an MCP requestedSchema: a flat JSON object schema",
    )
    form.set_defaults(fields=_form_fields)
    return parser


def _add_timeout_flag(parser: argparse.ArgumentParser, default: Any) -> None:
    """--timeout, accepted before and after KIND, and with --json (where it wins)."""
    parser.add_argument(
        "--timeout",
        type=float,
        default=default,
        metavar="SECONDS",
        help="cancel unanswered after this long",
    )


def _add_where_flags(parser: argparse.ArgumentParser, default: Any) -> None:
    """The flags saying where to ask, what to record and whether to reveal; accepted before
    and after KIND."""
    parser.add_argument(
        "--to",
        metavar="URL",
        default=default,
        help="ask in the inbox of `elicit-tui serve` at URL (as it prints it, or its base) "
        "instead of on this terminal; the inbox answers only to 127.0.0.1 or localhost, not "
        f"to this machine's host name; default: ${URL_ENV} if set",
    )
    add_token_option(parser, default)
    add_transcript_option(parser, default)
    parser.add_argument(
        "--reveal-secret",
        action="store_true",
        default=False if default is None else default,  # SUPPRESS: after KIND, unset unless given
        help="print a typed secret's (or a sensitive answer's) value instead of a redacted marker "
        "(a secret stored in the keyring is always printed as its reference)",
    )


def _add_output_flags(parser: argparse.ArgumentParser, default: Any) -> None:
    """The flags saying how to ask and what to print; accepted before and after KIND."""
    flags = {
        "--raw": "print only the content: one value per line for a list, nothing for "
        "decline or cancel (the exit status says which); a secret only with --reveal-secret "
        "(else exit 4)",
        "--fullscreen": "take the whole screen instead of drawing the dialog under the prompt",
        "--plain": "ask with plain line prompts (numbered options, no redraws): for screen "
        "readers, dumb terminals and logs",
        "--no-bell": "do not ring the terminal bell when the question appears",
    }
    for flag, text in flags.items():
        parser.add_argument(flag, action="store_true", default=default, help=text)


def _add_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "-o",
        "--option",
        dest="options",
        action="append",
        required=True,
        metavar="LABEL",
        help="an option (repeat for each)",
    )


def _keyring_target(value: str) -> dict[str, str]:
    # The username is after the last slash: service names are often URLs.
    service, _, username = value.rpartition("/")
    if not service or not username:
        raise argparse.ArgumentTypeError(f"expected SERVICE/USERNAME, like github/token: {value!r}")
    return {"service": service, "username": username}


def _choice_fields(args: argparse.Namespace) -> dict[str, Any]:
    return {"kind": "choice", "options": args.options, "default": args.default}


def _multi_fields(args: argparse.Namespace) -> dict[str, Any]:
    return {
        "kind": "multi_choice",
        "options": args.options,
        "default": args.defaults,
        "min_selected": args.min,
        "max_selected": args.max,
    }


def _text_fields(args: argparse.Namespace) -> dict[str, Any]:
    return {
        "kind": "text",
        "default": args.default,
        "placeholder": args.placeholder,
        "multiline": args.multiline,
    }


def _secret_fields(args: argparse.Namespace) -> dict[str, Any]:
    return {
        "kind": "secret",
        "store": args.store,
        "confirm": args.confirm,
        "placeholder": args.placeholder,
    }


def _confirm_fields(args: argparse.Namespace) -> dict[str, Any]:
    return {
        "kind": "confirmation",
        "default": None if args.default is None else args.default == "yes",
        "yes_label": args.yes_label,
        "no_label": args.no_label,
    }


def _form_fields(args: argparse.Namespace) -> dict[str, Any]:
    return {"kind": "form", "requested_schema": _json_object(args.schema, "--schema")}


def build_request(args: argparse.Namespace, stdin: TextIO | None = None) -> Request:
    """The request the parsed arguments describe (JSON from `stdin`, default `sys.stdin`, if
    neither a kind nor --json is given); raises `InvalidRequest` saying what is wrong."""
    if args.kind is None:
        data = _json_object(args.json if args.json is not None else _read_stdin(stdin), "request")
        if args.timeout is not None:
            data["timeout"] = args.timeout
    elif args.json is not None:
        raise InvalidRequest("give the request either as KIND and flags or as --json, not both")
    else:
        fields: Fields = args.fields
        data = {
            "message": args.message,
            "title": args.title,
            "description": args.description,
            "source": args.source,
            "timeout": args.timeout,
            **fields(args),
        }
        # Unset flags leave the request's own defaults in place.
        data = {name: value for name, value in data.items() if value is not None}
    try:
        return parse_request(data)
    except ValidationError as error:
        raise InvalidRequest(describe_validation_error(error)) from None


def _read_stdin(stdin: TextIO | None) -> str:
    stream = sys.stdin if stdin is None else stdin
    text = "" if stream is None or stream.isatty() else stream.read()
    if not text.strip():
        raise InvalidRequest(
            "no request given: name a KIND (choice, multi, text, secret, confirm, form), "
            "pass --json, or pipe the request's JSON to stdin"
        )
    return text


def _json_object(text: str, what: str) -> dict[str, Any]:
    try:
        value = json.loads(text)
    except RecursionError:
        raise InvalidRequest(f"the {what} nests lists and objects too deep to read") from None
    except ValueError as error:  # bad JSON, or an integer of more digits than Python reads
        raise InvalidRequest(f"the {what} is not valid JSON: {error}") from None
    if not isinstance(value, dict):
        raise InvalidRequest(f"the {what} must be a JSON object, not {json_type(value)}")
    return value


def _ask_here(request: Request, args: argparse.Namespace) -> ElicitationResult:
    """`request` asked on this terminal, in plain text or in the dialog. A tool call a
    remembered rule allows is allowed at once, either way and without a terminal at all;
    "always" answered in plain text is remembered, as the dialog remembers it."""

    def ask() -> ElicitationResult:
        if plain_wanted(args.plain):
            return _ask_plainly(request)
        return _ask_on_terminal(
            request, args.transcript, inline=not args.fullscreen, bell=not args.no_bell
        )

    if not isinstance(request, ToolApprovalRequest):
        return ask()
    from tui.approvals.rules import ApprovalPolicy  # only for a tool call

    return ApprovalPolicy().answer_or_ask(request, ask)


def _ask_plainly(request: Request) -> ElicitationResult:
    with plain_streams(sys.stdin, sys.stderr) as (inp, out):
        try:
            with signals_raise(_ENDING_PLAINLY), timed_out_after(request.timeout):
                return PlainPrompter(inp, out).ask(request)
        except KeyboardInterrupt:
            reason = "interrupted"
        except EndedFromOutside as ended:
            # (SIGHUP: its terminal went away, or `kill -HUP`, as the dialog says it.)
            reason = "terminated" if ended.number == signal.SIGTERM else "hung_up"
        except TimedOut:
            reason = "timeout"
        # Ended with a line half typed: it is not left on the terminal for the shell to run
        # (a terminal gone takes neither; the answer still goes to standard output).
        with contextlib.suppress(OSError):
            discard_typed(inp)
            out.write("\n")
        return ElicitationResult(action="cancel", reason=reason)


_ENDING_PLAINLY = tuple(
    getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name)
)
"""The signals that end a plain question as the dialog's: Ctrl+C comes as KeyboardInterrupt."""


def _ask_on_terminal(
    request: Request, transcript: Path | None = None, *, inline: bool, bell: bool
) -> ElicitationResult:
    # Textual is imported only here: an invalid request is refused without loading it.
    with loading_modules():
        from rich.console import Console

        from tui.app.ask_app import INTERRUPTED, AskApp
        from tui.app.terminal import NoTerminalError, streams_on_terminal

    app = AskApp(request, transcript=transcript, bell=None if bell else False)
    try:
        with streams_on_terminal() as own_stderr:
            # A dialog's failure, reported as the app exits, goes where `2>` sent stderr.
            app.error_console = Console(file=own_stderr, markup=False, highlight=False)
            result = app.run(inline=inline)
    except NoTerminalError as error:
        print(f"elicit-tui ask: {error}; the request is cancelled", file=sys.stderr)
        return ElicitationResult(action="cancel", reason="no_terminal")
    except KeyboardInterrupt:
        # SIGINT from outside the terminal's keyboard (kill -INT): Ctrl+C arrives as a key.
        return INTERRUPTED
    if isinstance(result, ElicitationResult):
        return result
    # The app failed (Textual printed the traceback), or quit before the agent returned.
    return ElicitationResult(action="cancel", reason="closed" if not app.return_code else "error")


def result_json(result: ElicitationResult, *, reveal_secret: bool = False) -> str:
    """The one-line JSON `ask` prints: a typed secret redacted unless `reveal_secret`."""
    return json.dumps(
        {
            "action": result.action,
            "content": _shown(result, reveal_secret),
            "reason": result.reason,
        },
        ensure_ascii=False,
    )


def raw_text(result: ElicitationResult, *, reveal_secret: bool = False) -> str:
    """What `--raw` prints: the content alone ("" for decline and cancel).

    A list gives one value a line, text as it is, a keyring reference as service/username,
    yes/no as true/false, anything else (a form, a batch) as one line of JSON.
    """
    if result.action != "accept" or result.content is None:
        return ""
    content = result.content
    if isinstance(content, SecretRef):
        return f"{content.service}/{content.username}"
    value = _shown(result, reveal_secret)
    if isinstance(value, list):
        return "\n".join(v if isinstance(v, str) else json.dumps(v) for v in value)
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False)


SECRET_HIDDEN = (
    "the answer is a secret, and --raw would print only its mask: add --reveal-secret to "
    "print its value (or ask with --store SERVICE/USER for a keyring reference)"
)


def _hides_a_secret(result: ElicitationResult) -> bool:
    """Whether what `--raw` prints of `result` would hold a mask where a value was given."""
    return bool(_shown(result, False) != _shown(result, True))


def _shown(result: ElicitationResult, reveal_secret: bool) -> Any:
    # A sensitive answer is printed as a secret is: only when the caller asks to see it.
    if result.sensitive and not reveal_secret:
        return REDACTED
    return _jsonable(result.content, reveal_secret)


def _jsonable(content: Any, reveal_secret: bool) -> Any:
    """`content` as JSON data, each `SecretStr` in it (a form's password field too) as its
    value if `reveal_secret`, else as `REDACTED`."""
    if isinstance(content, SecretStr):
        return content.get_secret_value() if reveal_secret else REDACTED
    if isinstance(content, BaseModel):
        # A keyring reference prints as {"service": ..., "username": ...}.
        return _jsonable(fields_by_json_name(content), reveal_secret)
    if isinstance(content, dict):
        return {key: _jsonable(value, reveal_secret) for key, value in content.items()}
    if isinstance(content, list | tuple):
        return [_jsonable(item, reveal_secret) for item in content]
    return TypeAdapter(Any).dump_python(content, mode="json")
