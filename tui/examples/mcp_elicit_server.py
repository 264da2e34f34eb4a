"""An MCP server whose tools ask the person: try `elicit-tui mcp -- python -m tui.examples.mcp_elicit_server`
(stdio), or serve it on streamable HTTP with `--http PORT` (at http://127.0.0.1:PORT/mcp).

`book_table` asks for the booking's details with a form (every field has a default, so
`--auto accept-defaults` books with them); `connect_account` asks to open a sign-in page
(URL mode). Both work on 2025-11-25 sessions and on 2026-07-28 ones.
"""

from __future__ import annotations

import argparse
from typing import Annotated, Literal

from mcp.server.mcpserver import (
    AcceptedElicitation,
    Context,
    Elicit,
    ElicitationResult,
    MCPServer,
    Resolve,
)
from mcp.server.mcpserver.exceptions import ToolError
from mcp_types import ElicitRequest, ElicitRequestURLParams, ElicitResult, InputRequiredResult
from mcp_types.version import is_version_at_least
from pydantic import BaseModel, Field

server = MCPServer(
    "elicit-tui-example",
    instructions="A restaurant assistant whose tools ask the person for what they need.",
)

SIGN_IN_URL = "https://example.com/connect?service={service}"
_CONSENT = "consent"
"""The key of the URL elicitation in a 2026-07-28 `input_required` round."""


class Booking(BaseModel):
    """What `book_table` asks the person."""

    party_size: int = Field(default=2, ge=1, le=12, title="Party size")
    day: Literal["friday", "saturday", "sunday"] = Field(default="friday", title="Day")
    seating: Literal["indoors", "terrace"] = Field(default="indoors", title="Seating")
    high_chair: bool = Field(default=False, title="High chair")
    notes: str = Field(default="", max_length=200, title="Notes for the kitchen")


class Reservation(Booking):
    """What `book_table` returns."""

    restaurant: str
    confirmation: str


def ask_booking(restaurant: str) -> Elicit[Booking]:
    return Elicit(f"How should we book {restaurant}?", Booking)


@server.tool()
async def book_table(
    answer: Annotated[ElicitationResult[Booking], Resolve(ask_booking)],
    restaurant: str = "Chez Elicit",
) -> Reservation:
    """Book a table; asks the person for the party size, day, seating and notes."""
    if not isinstance(answer, AcceptedElicitation):
        raise ToolError(f"No table booked: the person chose to {answer.action}.")
    booking = answer.data
    return Reservation(
        **booking.model_dump(),
        restaurant=restaurant,
        confirmation=f"Table for {booking.party_size} at {restaurant} on {booking.day}, "
        f"{booking.seating}.",
    )


@server.tool()
async def connect_account(ctx: Context, service: str = "GitHub") -> str | InputRequiredResult:
    """Connect an account; asks the person to open the service's sign-in page."""
    message = f"Sign in to {service} so the assistant can reach your account."
    url = SIGN_IN_URL.format(service=service.lower())
    if ctx.protocol_version is not None and is_version_at_least(ctx.protocol_version, "2026-07-28"):
        # 2026-07-28: ask inside an input_required result; the client retries with the answer
        answer = (ctx.input_responses or {}).get(_CONSENT)
        if not isinstance(answer, ElicitResult):
            request = ElicitRequest(params=ElicitRequestURLParams(message=message, url=url))
            return InputRequiredResult(input_requests={_CONSENT: request})
        action = answer.action
    else:
        action = (await ctx.elicit_url(message, url, elicitation_id=f"connect-{service}")).action
    if action == "accept":
        return f"The person agreed to sign in to {service} at {url}."
    return f"Not connected: the person chose to {action}."


def main(argv: list[str] | None = None) -> None:
    """Serve on stdin/stdout until the client goes away, or with `--http PORT` on
    http://127.0.0.1:PORT/mcp until interrupted."""
    parser = argparse.ArgumentParser(prog="python -m tui.examples.mcp_elicit_server")
    parser.add_argument("--http", type=int, metavar="PORT", help="serve on streamable HTTP")
    port = parser.parse_args(argv).http
    if port is None:
        server.run()
    else:
        server.run(transport="streamable-http", host="127.0.0.1", port=port)


if __name__ == "__main__":
    main()
