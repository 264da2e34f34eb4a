"""A refused request's `ValidationError` as people read it: one line per problem, field first."""

from __future__ import annotations

from pydantic import ValidationError

from tui.core.terminal_text import literal_line


def describe_validation_error(error: ValidationError) -> str:
    """One line per problem, each naming the field: what every path prints for an invalid request
    (`elicit-tui ask`'s stderr, the inbox's 422, the MCP `elicit` tool's error). Field names
    and values quoted from the request show their control characters, never act on them."""
    return "invalid request:\n  " + "\n  ".join(validation_lines(error))


def validation_lines(error: ValidationError) -> list[str]:
    """Each problem of `error` as one line naming its field (`chapters.3.speed: Input should
    be greater than 0`), shown literally; a validator's own message without pydantic's
    "Value error, " before it."""
    lines = []
    for problem in error.errors(include_url=False):
        where = ".".join(str(part) for part in problem["loc"])
        said = problem["msg"].removeprefix("Value error, ")
        line = f"{where}: {said}" if where else said
        lines.append(literal_line(line))
    return lines
