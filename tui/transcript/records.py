"""The lines of a transcript: one JSON object each, the first naming the format's version.

Nothing secret is ever written: requests and results go through a redactor, secret content
becomes `SECRET_SHOWN` or its keyring reference, and keys typed into a secret field are
recorded only as a count.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, SecretStr, TypeAdapter

from tui.core.json_names import fields_by_json_name
from tui.core.models import ElicitationResult, Request
from tui.core.secret_ref import SecretRef

VERSION = 2
"""The transcript format this version writes, and the newest it reads (version 1 has no
`SessionEnd.returned`; fields added since are optional: older transcripts lack them)."""

SECRET_SHOWN = "•••"
"""What a secret value becomes in a transcript."""

Scrub = Callable[[str], str]


class _Record(BaseModel):
    model_config = ConfigDict(extra="forbid", defer_build=True)


class SessionStart(_Record):
    """The first line: the format version and when the session began."""

    v: int
    type: Literal["session"] = "session"
    started: str
    """Wall-clock start, ISO 8601 in UTC."""
    agent: str | None = None
    """The name of the agent that asked."""
    title: str | None = None
    """The app's title."""
    serving: str | None = None
    """Where the inbox that recorded the session served MCP (`serve --transcript`): its
    questions came from askers in other processes, with no agent of its own (no `agent`)."""


class RequestRecord(_Record):
    """A request arrived; `request` is its JSON form (`parse_request` rebuilds it)."""

    type: Literal["request"] = "request"
    t: float
    """Seconds since the session began."""
    request: dict[str, Any]


class KeyPress(_Record):
    """One key (or paste) in a modal, `t` seconds after the modal appeared.

    Into a secret field only the fact is kept: `masked` characters went into the field `field`.
    A key of a sensitive request's answer elsewhere (a choice's number or arrow: the answer
    itself) is kept only as its time, `hidden`; a replay then gives the recorded result.
    """

    t: float
    key: str | None = None
    char: str | None = None
    paste: str | None = None
    masked: int | None = None
    field: str | None = None
    hidden: bool | None = None


class KeysRecord(_Record):
    """The keys pressed while request `id` was shown, and how long each secret field ended up."""

    type: Literal["keys"] = "keys"
    t: float
    id: str
    keys: list[KeyPress]
    secret_lengths: dict[str, int] = Field(default_factory=dict)
    scrubbed: bool | None = None
    """True when a secret given earlier was typed or pasted again here and taken out of the
    keys (they type the mask in its place, or are kept as times only): what they type may
    not be an answer the modal takes (the mask is shorter than a minimum length), so a
    replay gives the recorded result in place of the last key."""

    def replays(self, press: KeyPress) -> bool:
        """Whether a replay presses `press` (one of `keys`) again; where it does not, the
        last key gives the recorded result instead: keys kept as times only (`hidden`), and
        the key that answered, of keys a secret was scrubbed from."""
        return not press.hidden and not (self.scrubbed and press is self.keys[-1])


class ResultRecord(_Record):
    """Request `id` ended: `result` holds action, content (secrets masked) and reason."""

    type: Literal["result"] = "result"
    t: float
    id: str
    result: dict[str, Any]
    by: str | None = None
    """The front end that gave it, when another than the one recording (an inbox's attached
    front ends): no key of it was recorded, and a replay answers as that front end did."""


class RulesRevoked(_Record):
    """Remembered approval rules were revoked (`elicit-tui approvals revoke` reaching the
    inbox): `rules` in their JSON form, as `elicit-tui approvals list` shows them. A rule
    given is in the result of the answer that gave it; a replay gives it so, and revokes it
    here."""

    type: Literal["revoked"] = "revoked"
    t: float
    rules: list[dict[str, Any]]


class SessionEnd(_Record):
    """The session ended (the app closed)."""

    type: Literal["end"] = "end"
    t: float
    returned: str | dict[str, str] | None = None
    """What the agent returned, as the main screen showed it (`tui.core.returned`), secrets
    scrubbed; None if it returned None, or had not returned when the session ended."""
    failed: str | None = None
    """The error the agent raised instead, as the main screen said it (`Type: message`, no
    traceback: its calls' variables may hold anything), secrets scrubbed."""


Record = Annotated[
    RequestRecord | KeysRecord | ResultRecord | RulesRevoked | SessionEnd,
    Field(discriminator="type"),
]
"""Any line after the first."""

RECORD: TypeAdapter[Record] = TypeAdapter(Record, config=ConfigDict(defer_build=True))


def request_json(request: Request, scrub: Scrub) -> dict[str, Any]:
    """The request's JSON form with every known secret scrubbed (an agent may echo one)."""
    data: dict[str, Any] = scrubbed(request.model_dump(mode="json"), scrub)
    return data


def result_json(result: ElicitationResult, scrub: Scrub) -> dict[str, Any]:
    """The result as plain JSON: secrets and sensitive answers masked, keyring references as
    such, text scrubbed."""
    content = SECRET_SHOWN if result.sensitive else masked_content(result.content, scrub)
    return {
        "action": result.action,
        "content": content,
        "reason": result.reason,
    }


def masked_content(content: Any, scrub: Scrub) -> Any:
    """`content` as JSON data, with `SecretStr` as `SECRET_SHOWN` and `SecretRef` as its reference."""
    if isinstance(content, SecretStr):
        return SECRET_SHOWN
    if isinstance(content, SecretRef):
        return str(content)
    if isinstance(content, BaseModel):
        fields = fields_by_json_name(content)
        return {key: masked_content(value, scrub) for key, value in fields.items()}
    if isinstance(content, dict):
        return {str(key): masked_content(value, scrub) for key, value in content.items()}
    if isinstance(content, list | tuple | set | frozenset):
        return [masked_content(value, scrub) for value in content]
    if isinstance(content, str):
        return scrub(content)
    if content is None or isinstance(content, bool | int | float):
        return content
    return scrubbed(TypeAdapter(Any).dump_python(content, mode="json"), scrub)


def scrubbed(data: Any, scrub: Scrub) -> Any:
    """JSON data with `scrub` applied to every string in it, keys included."""
    if isinstance(data, str):
        return scrub(data)
    if isinstance(data, dict):
        return {scrub(str(key)): scrubbed(value, scrub) for key, value in data.items()}
    if isinstance(data, list):
        return [scrubbed(value, scrub) for value in data]
    return data
