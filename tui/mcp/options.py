"""What `elicit-tui mcp` was asked to do (`McpOptions`), checked, and the error for a command line that does not say it."""

from __future__ import annotations

import argparse
import json
import shlex
from dataclasses import dataclass, field
from typing import Any

from tui.core.http_url import http_url_parts


class UsageError(ValueError):
    """The command line does not say what to do; the message says what to change."""


@dataclass(frozen=True)
class McpOptions:
    """What `elicit-tui mcp` was asked to do, checked."""

    command: tuple[str, ...] = ()
    """The stdio server's command line, or empty with `url`."""
    url: str | None = None
    call: str | None = None
    arguments: dict[str, Any] = field(default_factory=dict)
    auto: str | None = None
    protocol: str = "auto"
    """The SDK's `mode`: "auto", "legacy" (2025-11-25 handshake) or a 2026-era version."""
    token: str | None = field(default=None, repr=False)
    """The bearer token sent to the server at `url`, if any (`elicit-tui mcp` works out
    which: see `tui.cli.mcp`)."""
    signed: bool = False
    """Whether the server at `url` is the inbox, whose requests are signed with the token
    instead of carrying it, and whose answers must prove it holds the token too."""

    @classmethod
    def from_args(cls, args: argparse.Namespace) -> McpOptions:
        """Options from the parsed command line; `UsageError` says what is wrong with it."""
        command = tuple(args.server_command)
        if bool(command) == bool(args.url):
            raise UsageError(
                "give the server either as a command after -- or with --url, not both"
                if command
                else "say which server: a command after -- (stdio), or --url URL (streamable HTTP)"
            )
        if args.url is not None:
            try:
                http_url_parts(args.url)
            except ValueError as error:
                raise UsageError(f"--url: {error}") from None
        if args.token is not None and args.url is None:
            raise UsageError("--token is for a server at --url: a stdio server is sent none")
        if args.call is None and args.args is not None:
            raise UsageError("--args needs --call TOOL")
        if args.call is None and args.auto is not None:
            raise UsageError("--auto needs --call TOOL: without a person nobody can pick a tool")
        return cls(
            command=command,
            url=args.url,
            call=args.call,
            arguments=_arguments(args.args),
            auto=args.auto,
            protocol=args.protocol,
        )

    @property
    def label(self) -> str:
        """The server as the person knows it, until it tells its own name."""
        return self.url or shlex.join(self.command)


def _arguments(text: str | None) -> dict[str, Any]:
    if text is None:
        return {}
    try:
        value = json.loads(text)
    except json.JSONDecodeError as error:
        raise UsageError(f"--args is not JSON: {error}") from None
    if not isinstance(value, dict):
        raise UsageError('--args must be a JSON object, like {"name": "value"}')
    return value
