"""The base every request kind builds on: the fields all requests share, and how a kind says
what its answer's content is (pydantic v2, no Textual)."""

from __future__ import annotations

import functools
import inspect
import uuid
from typing import Annotated, Any, ClassVar, ForwardRef

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    TypeAdapter,
    field_validator,
    model_validator,
)

from tui.core.error_text import error_text
from tui.core.json_names import fields_by_json_name
from tui.core.json_type import not_json
from tui.core.limits import MAX_TIMEOUT, check_size
from tui.core.strict_content import check_strictly


def _new_id() -> str:
    return uuid.uuid4().hex[:12]


def _bounded_timeout(seconds: float) -> float:
    if not (0 < seconds <= MAX_TIMEOUT):  # NaN fails every comparison, so it lands here too
        raise ValueError(
            f"timeout must be greater than 0 and at most {MAX_TIMEOUT:.0f} seconds (30 days), "
            f"not {seconds}; leave it out to wait forever"
        )
    return seconds


def _not_a_boolean(value: Any) -> Any:
    # pydantic takes `true` for 1.0: `"timeout": true` would wait one second.
    if isinstance(value, bool):
        raise ValueError(f"timeout must be a number of seconds, not {str(value).lower()}")
    return value


Timeout = Annotated[float, BeforeValidator(_not_a_boolean), AfterValidator(_bounded_timeout)]
"""Seconds before a request times out: above 0, at most `MAX_TIMEOUT`, never inf or NaN."""

_TIMEOUT_ARGUMENT: TypeAdapter[float] = TypeAdapter(
    Timeout, config=ConfigDict(title="timeout", defer_build=True)
)


def checked_timeout(seconds: float | None) -> float | None:
    """`seconds`, a `timeout` argument (of `ask`, `submit`), checked as the request's field is;
    raises `ValidationError`, titled `timeout`, for one out of bounds."""
    return None if seconds is None else _TIMEOUT_ARGUMENT.validate_python(seconds)


class RequestBase(BaseModel):
    """Fields every request has; a kind adds its own and says how its content looks.

    A kind of your own subclasses this, declares `kind: Literal["name"] = "name"` and its
    fields, says what an accepted answer's content is (`content_type`, or `check_content`
    for rules a type cannot say), and is registered with `tui.register_kind` together with
    the modal that shows it. `queue.ask()` then asks it like any built-in kind.
    """

    model_config = ConfigDict(extra="forbid", populate_by_name=True, defer_build=True)

    content_type: ClassVar[Any] = None
    """The type an accepted answer's content has (a pydantic-validatable type); None: any
    that JSON can carry."""

    kind: str
    id: str = Field(default_factory=_new_id, min_length=1)
    message: str = Field(min_length=1)
    title: str | None = None
    description: str | None = None
    source: str | None = None
    timeout: Timeout | None = None
    metadata: dict[str, Any] = Field(default_factory=dict)
    sensitive: bool = False
    """True where the answer must never be shown, logged, recorded or sent to a model: it is
    typed masked, scrubbed from every text the program writes, and kept out of transcripts."""

    @field_validator("metadata")
    @classmethod
    def _metadata_is_json(cls, value: dict[str, Any]) -> dict[str, Any]:
        if (problem := not_json(value)) is not None:
            raise ValueError(f"metadata must be JSON data: {problem}")
        return value

    @model_validator(mode="before")
    @classmethod
    def _within_limits(cls, data: Any) -> Any:
        cls.check_limits(data)
        return data

    @classmethod
    def check_limits(cls, data: Any) -> None:
        """Raise `LimitError` naming where if `data`, a request of this kind as JSON data, is
        over the request limits (`tui.core.limits`)."""
        check_size(data)

    @field_validator("message")
    @classmethod
    def _message_not_blank(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("message must not be blank")
        return value

    def default_content(self) -> Any:
        """The content accepting the request untouched would give; raises ValueError if none."""
        raise ValueError(f"a {self.kind_name()} request has no default answer")

    @classmethod
    def kind_name(cls) -> str:
        return str(cls.model_fields["kind"].default)

    def describe_content(self, content: Any) -> str:
        """A short, display-safe rendering of accepted content for timelines and summaries: a
        model as its JSON (its repr would read `datetime.date(2024, 5, 6)`)."""
        if isinstance(content, BaseModel):
            return TypeAdapter(Any).dump_json(fields_by_json_name(content)).decode()
        return str(content)

    def check_content(self, content: Any) -> Any:
        """`content` as accepting this request in the UI gives it, if the UI could give it;
        raises ValueError saying why not. Where answers come from elsewhere (a script), this
        keeps them to what a person could have answered. By default: `content` as
        `delivered_content` types it (any content when there is no `content_type`)."""
        return self.delivered_content(content)

    @classmethod
    def content_type_problem(cls) -> str | None:
        """Why `content_type` cannot type an answer, in a clause ("name 'Colour' is not
        defined": a name no namespace here holds; a class pydantic has no validator for), or
        None: asked as the kind is registered, not first when the person answers."""
        if cls.content_type is None:
            return None
        if (misread := _misread_as_type(cls.content_type)) is not None:
            return misread
        try:
            # Built as `delivered_content` builds it: a name is looked up where it would be.
            TypeAdapter(cls.content_type).rebuild(raise_errors=True)
        except Exception as error:  # what pydantic raises for it (a PydanticUserError, ...)
            return error_text(error).splitlines()[0]  # pydantic's next lines: a link
        return None

    def delivered_content(self, content: Any) -> Any:
        """Accepted content as the asker receives it, whoever answered: validated as
        `content_type`, so a model's instance where a dialog or a front end elsewhere gave its
        JSON; as it is where there is no `content_type`. Raises `ValidationError` for content
        that is no `content_type`."""
        if self.content_type is None:
            return content
        if _is_model_of(self.content_type, content):
            # Built and validated by pydantic already: its JSON need not validate back as
            # the model (a computed field, an excluded one), which a dialog cannot help.
            return content
        adapter: TypeAdapter[Any] = TypeAdapter(self.content_type)
        check_strictly(adapter, content)
        return adapter.validate_python(content)


def _misread_as_type(content_type: Any) -> str | None:
    """What `content_type` is that pydantic would take without typing an answer by it: a
    name ("int" resolves, so the kind would depend on the module it is read in), a function
    (pydantic would call it with the answer's fields), `BaseModel` itself (every answer would
    come back as an empty model); None for anything else."""
    if isinstance(content_type, str | ForwardRef):
        return "a type's name, not the type"
    if inspect.isroutine(content_type) or isinstance(content_type, functools.partial):
        return "a function, which pydantic would call with the answer"
    if content_type is BaseModel:
        return "BaseModel itself, which keeps no field of an answer"
    return None


def _is_model_of(content_type: Any, content: Any) -> bool:
    """Whether `content_type` is a model class and `content` an instance of it."""
    return (
        isinstance(content_type, type)
        and issubclass(content_type, BaseModel)
        and isinstance(content, content_type)
    )


def require_request(value: object) -> None:
    """Raise TypeError, saying what to pass, unless `value` is a request object (a dict, the
    JSON form of one, is made one with `tui.parse_request`)."""
    if not isinstance(value, RequestBase):
        made = (
            " (a dict is made one with tui.parse_request(...))" if isinstance(value, dict) else ""
        )
        raise TypeError(
            f"a request object is asked, like TextRequest(message=...), not "
            f"{type(value).__name__}{made}"
        )


def of_unregistered_kind(data: dict[str, Any]) -> RequestBase:
    """A request of a kind not registered in this process, read as the fields every request
    has: a front end then cancels it as a kind it cannot show (`unsupported_kind: name`)."""
    return RequestBase.model_validate(
        {name: data[name] for name in RequestBase.model_fields if name in data}
    )
