"""Requests an agent can make and the results it gets back (pydantic v2, no Textual)."""

from __future__ import annotations

import fnmatch
import json
import posixpath
import re
from collections.abc import Sequence
from contextvars import ContextVar
from decimal import Decimal
from typing import Annotated, Any, Literal, Union, get_args

from pydantic import (
    AfterValidator,
    AliasChoices,
    BaseModel,
    ConfigDict,
    Field,
    ModelWrapValidatorHandler,
    PrivateAttr,
    SecretStr,
    TypeAdapter,
    ValidationError,
    ValidationInfo,
    field_validator,
    model_validator,
)
from pydantic_core import InitErrorDetails, PydanticCustomError

from tui.core.error_text import error_text
from tui.core.json_names import fields_by_json_name, json_name
from tui.core.json_type import not_json
from tui.core.kinds import kind, kind_names, register_kind, unloaded_kind_modules
from tui.core.limits import check_size
from tui.core.one_line import has_line_break, one_line
from tui.core.options import Option
from tui.core.request_base import RequestBase
from tui.core.schema import (
    FormSpec,
    SchemaError,
    build_content,
    check_as_typed,
    default_content,
    parse_schema,
    schema_from_model,
    schema_from_pydantic_json,
    uses_pydantic_json,
    validate_content,
)
from tui.core.secret_ref import SecretRef

Action = Literal["accept", "decline", "cancel"]
"""What the person (or the queue on their behalf) did with a request, in MCP's words."""


def _check_range(low: int | None, high: int | None, low_name: str, high_name: str) -> None:
    if low is not None and high is not None and low > high:
        raise ValueError(f"{low_name} ({low}) is greater than {high_name} ({high})")


def _options_unique(options: list[Option]) -> list[Option]:
    seen: set[str] = set()
    for option in options:
        if option.value in seen:
            raise ValueError(f"option value {option.value!r} appears more than once")
        seen.add(option.value)
    return options


def _expect(request: RequestBase, content: Any, kind: type | tuple[type, ...], what: str) -> None:
    """Refuse `content` unless it is of `kind`, quoting it, but not for a sensitive request
    (a secret's answer, a recovery code, sent as a list by mistake)."""
    if not isinstance(content, kind):
        quoted = "" if request.sensitive else f" {content!r}"
        raise ValueError(f"the answer must be {what}, not {type(content).__name__}{quoted}")


def _check_length(text: str, low: int | None, high: int | None, what: str) -> None:
    if low is not None and len(text) < low:
        raise ValueError(f"{what} is {len(text)} characters long, less than {low}")
    if high is not None and len(text) > high:
        raise ValueError(f"{what} is {len(text)} characters long, more than {high}")


def _not_an_option(value: str, options: list[Option]) -> ValueError:
    allowed = ", ".join(repr(o.value) for o in options)
    return ValueError(f"{value!r} is not one of the options: {allowed}")


class TextRequest(RequestBase):
    """Free text: one line, or several with `multiline`."""

    kind: Literal["text"] = "text"
    default: str | None = None
    placeholder: str | None = None
    multiline: bool = False
    min_length: int | None = Field(default=None, ge=0)
    max_length: int | None = Field(default=None, ge=1)

    @model_validator(mode="after")
    def _lengths_hold(self) -> TextRequest:
        _check_range(self.min_length, self.max_length, "min_length", "max_length")
        if self.default:
            # Accepted untouched, the default is the answer: one a person could give.
            self._check_text(self.default, "the default")
        return self

    def default_content(self) -> str:
        return self.default or ""

    def check_content(self, content: Any) -> str:
        _expect(self, content, str, "a string")
        self._check_text(content, "the answer")
        return str(content)

    def _check_text(self, text: str, what: str) -> None:
        """ValueError unless `text` (`what`: the answer, the default) fits the field's rules."""
        if not self.multiline and has_line_break(text):
            raise ValueError(f"{what} has a line break, which a one-line text cannot have")
        _check_length(text, self.min_length, self.max_length, what)


class ChoiceRequest(RequestBase):
    """Pick exactly one option; the content is the option's value."""

    kind: Literal["choice"] = "choice"
    options: list[Option] = Field(min_length=1)
    default: str | None = None

    _unique = field_validator("options")(_options_unique)

    @field_validator("default")
    @classmethod
    def _default_is_option(cls, value: str | None, info: ValidationInfo) -> str | None:
        options: list[Option] = info.data.get("options", [])
        if value is not None and options and value not in {o.value for o in options}:
            raise _not_an_option(value, options)
        return value

    def default_content(self) -> str:
        return self.default if self.default is not None else self.options[0].value

    def check_content(self, content: Any) -> str:
        if content not in {o.value for o in self.options}:
            raise _not_an_option(content, self.options)
        return str(content)

    def describe_content(self, content: Any) -> str:
        return next((o.label for o in self.options if o.value == content), str(content))


class MultiChoiceRequest(RequestBase):
    """Pick any number of options (within bounds); the content is the list of values."""

    kind: Literal["multi_choice"] = "multi_choice"
    options: list[Option] = Field(min_length=1)
    default: list[str] = Field(default_factory=list)
    min_selected: int = Field(default=0, ge=0)
    max_selected: int | None = Field(default=None, ge=1)

    _unique = field_validator("options")(_options_unique)

    @field_validator("default")
    @classmethod
    def _defaults_are_options(cls, value: list[str], info: ValidationInfo) -> list[str]:
        options: list[Option] = info.data.get("options", [])
        known = {o.value for o in options}
        for item in value:
            if options and item not in known:
                raise _not_an_option(item, options)
        return value

    @model_validator(mode="after")
    def _bounds_hold(self) -> MultiChoiceRequest:
        _check_range(self.min_selected, self.max_selected, "min_selected", "max_selected")
        if self.min_selected > len(self.options):
            raise ValueError(
                f"min_selected ({self.min_selected}) is more than the "
                f"{len(self.options)} options offered"
            )
        if len(set(self.default or ())) < len(self.default or ()):
            # Ticked first, fewer or more than the bounds is a start the person goes on from;
            # an option named twice is no state a checklist can show.
            raise ValueError(f"the default names an option twice: {self.default!r}")
        return self

    def default_content(self) -> list[str]:
        return list(self.default)

    def check_content(self, content: Any) -> list[str]:
        _expect(self, content, list, "a list of option values")
        self._check_picks(content, "the answer")
        return list(content)

    def _check_picks(self, values: list[str], what: str) -> None:
        """ValueError unless `values` (`what`: the answer, the default) could be ticked."""
        known = {o.value for o in self.options}
        for value in values:
            if value not in known:
                raise _not_an_option(value, self.options)
        if len(set(values)) < len(values):
            raise ValueError(f"{what} names an option twice: {values!r}")
        if len(values) < self.min_selected:
            raise ValueError(f"{what} picks {len(values)} options, fewer than {self.min_selected}")
        if self.max_selected is not None and len(values) > self.max_selected:
            raise ValueError(f"{what} picks {len(values)} options, more than {self.max_selected}")

    def describe_content(self, content: Any) -> str:
        labels = {o.value: o.label for o in self.options}
        return ", ".join(labels.get(v, v) for v in content) or "(none)"


class KeyringTarget(BaseModel):
    """Where a secret is stored in the system keyring."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    service: str = Field(min_length=1)
    username: str = Field(min_length=1)


class SecretRequest(RequestBase):
    """A password, token or API key, typed masked; never shown, logged or sent to a model."""

    kind: Literal["secret"] = "secret"
    sensitive: Literal[True] = True
    placeholder: str | None = None
    min_length: int | None = Field(default=None, ge=1)
    pattern: str | None = None
    """A hint of the expected shape, like `sk-...`: `...` stands for any characters."""
    confirm: bool = False
    store: KeyringTarget | None = None
    memory_fallback: bool = True
    """Whether the person may keep the secret in memory for this run when the keyring cannot
    store it; False where the asker cannot hold a value in memory (LangGraph writes every
    answer to its checkpointer): then the dialog offers only to cancel."""

    def fits_pattern(self, value: str) -> bool:
        """Whether `value` has the shape `pattern` hints at (`...`: one or more characters)."""
        if self.pattern is None:
            return True
        parts = (re.escape(part) for part in self.pattern.split("..."))
        return re.fullmatch(".+".join(parts), value) is not None

    def pattern_problem(self, value: str) -> str | None:
        """What to tell a person whose `value` does not have the shape of `pattern` (one
        sentence, "sk-..." not followed by a fourth dot), else None."""
        if self.pattern is None or self.fits_pattern(value):
            return None
        return f"That does not look like {self.pattern}" + ("" if self.pattern[-1:] == "." else ".")

    def describe_content(self, content: Any) -> str:
        if isinstance(content, SecretRef):
            return f"stored in keyring {content.service}/{content.username}"
        return "•••"

    def delivered_content(self, content: Any) -> Any:
        """A typed secret as `SecretStr`; a stored one's `SecretRef` as it is."""
        return SecretStr(content) if isinstance(content, str) else content

    def check_content(self, content: Any) -> SecretStr | SecretRef:
        if isinstance(content, SecretRef):
            return content
        _expect(self, content, (str, SecretStr), "a string or SecretStr")
        secret = content if isinstance(content, SecretStr) else SecretStr(content)
        value = secret.get_secret_value()
        # Only the length and the request's own pattern: a message never carries the secret.
        if self.min_length is not None and len(value) < self.min_length:
            raise ValueError(
                f"the secret is {len(value)} characters long, less than {self.min_length}"
            )
        if not value:
            raise ValueError("the secret is empty")
        if has_line_break(value):
            raise ValueError("the secret has a line break, which its one-line field cannot have")
        if (problem := self.pattern_problem(value)) is not None:
            raise ValueError(problem)
        return secret


class ConfirmationRequest(RequestBase):
    """Yes or no; the content is a bool."""

    kind: Literal["confirmation"] = "confirmation"
    default: bool = False
    yes_label: str = Field(default="Yes", min_length=1)
    no_label: str = Field(default="No", min_length=1)

    def default_content(self) -> bool:
        return self.default

    def describe_content(self, content: Any) -> str:
        return self.yes_label if content else self.no_label

    def check_content(self, content: Any) -> bool:
        _expect(self, content, bool, "True or False")
        return bool(content)


_PARSED: ContextVar[tuple[dict[str, Any], FormSpec] | None] = ContextVar("_PARSED", default=None)
"""The schema a form request's validation is checking, and its spec."""


class FormRequest(RequestBase):
    """Several typed fields described by a JSON schema (MCP's `requestedSchema` subset)."""

    kind: Literal["form"] = "form"
    requested_schema: dict[str, Any] = Field(
        validation_alias=AliasChoices("requested_schema", "requestedSchema", "schema"),
        serialization_alias="requestedSchema",
    )

    _model: type[BaseModel] | None = PrivateAttr(default=None)
    _parsed: tuple[dict[str, Any], FormSpec] | None = PrivateAttr(default=None)

    @field_validator("requested_schema")
    @classmethod
    def _schema_in_subset(cls, value: dict[str, Any]) -> dict[str, Any]:
        # pydantic's own schema of a flat model (`$defs`, `anyOf` with null) becomes the subset
        if isinstance(value, dict) and uses_pydantic_json(value):
            value = schema_from_pydantic_json(value)
        _PARSED.set((value, parse_schema(value)))
        return value

    @model_validator(mode="wrap")
    @classmethod
    def _keep_spec(cls, data: Any, handler: ModelWrapValidatorHandler[FormRequest]) -> FormRequest:
        # the schema is parsed once: the field's check hands its spec over to the request
        token = _PARSED.set(None)
        try:
            request = handler(data)
            parsed = _PARSED.get()
        finally:
            _PARSED.reset(token)
        request._parsed = parsed
        return request

    @property
    def spec(self) -> FormSpec:
        """The form the schema asks for (parsed when the request was made)."""
        schema = self.requested_schema
        if self._parsed is None or self._parsed[0] is not schema:
            # a copy with another schema, or one given another since
            self._parsed = schema, parse_schema(schema)
        return self._parsed[1]

    @classmethod
    def from_model(cls, model: type[BaseModel], *, message: str, **fields: Any) -> FormRequest:
        """A form asking for `model`'s fields; the accepted content is a `model` instance.

        A model with a field outside the form subset raises `SchemaError` (a `ValueError`,
        like pydantic's `ValidationError`) naming the model, the field and why — here, when
        the request is made, not when it is shown.
        """
        if not (isinstance(model, type) and issubclass(model, BaseModel)):
            raise TypeError(f"a form is made from a pydantic model class, not {model!r}")
        try:
            schema = schema_from_model(model)
        except SchemaError as error:
            raise SchemaError(f"model {model.__name__}: {error}") from None
        request = cls(message=message, requested_schema=schema, **fields)
        masked = request.secret_fields()
        for name, info in model.model_fields.items():
            if json_name(name, info) in masked and SecretStr not in _types_of(info.annotation):
                # typed masked, then handed over in clear: in `to_llm_text()`, a repr, a log
                raise SchemaError(
                    f"model {model.__name__}: field {name!r} is typed masked (a password) but"
                    " is no SecretStr: declare it SecretStr, or its value reaches the agent"
                    " in clear"
                )
        request._model = model
        return request

    @property
    def model(self) -> type[BaseModel] | None:
        """The pydantic model the content becomes, if the request was made from one."""
        return self._model

    def finish_content(self, content: dict[str, Any]) -> dict[str, Any] | BaseModel:
        """Validated form content as the agent receives it: the model instance, if any.

        Without a model, secret fields (format "password", `writeOnly`) become `SecretStr`,
        and integer fields' whole numbers written as floats (4.0, an integer to JSON Schema)
        `int`, as a person's typing gives them; a model's own field types decide (declare
        secrets as `SecretStr`).
        """
        if self._model is not None:
            # an `X | None` field without a default is required by the model but optional in
            # the form: left empty, it is None
            asked = set(self.requested_schema.get("required", ()))
            empty = {
                key: None
                for name, info in self._model.model_fields.items()
                if info.is_required()
                and (key := json_name(name, info)) not in asked
                and key not in content
            }
            return self._model.model_validate(content | empty)
        secret = self.secret_fields()
        whole = {f.name for f in self.spec.fields if f.type == "integer"}
        typed = {}
        for key, value in content.items():
            if key in secret and isinstance(value, str):
                value = SecretStr(value)
            elif key in whole and isinstance(value, float) and value.is_integer():
                value = int(value)
            typed[key] = value
        return typed

    def delivered_content(self, content: Any) -> Any:
        """The fields' values as `finish_content` gives them."""
        return self.finish_content(content) if isinstance(content, dict) else content

    def secret_fields(self) -> frozenset[str]:
        """The names of the fields typed masked and never shown."""
        return frozenset(f.name for f in self.spec.fields if f.secret)

    def default_content(self) -> dict[str, Any] | BaseModel:
        return self.finish_content(default_content(self.spec))

    def check_content(self, content: Any) -> dict[str, Any] | BaseModel:
        """The content as given: a field left out stays out, as the form leaves out an
        optional field the person emptied (its default is no answer then; see
        `with_untouched` for an answer given without the form)."""
        if isinstance(content, BaseModel):
            content = self._form_values(content)
        _expect(self, content, dict, "a dict of field values")
        fields = self.spec.fields
        unknown = [name for name in content if name not in {f.name for f in fields}]
        if unknown:
            raise ValueError(f"the form has no field {unknown[0]!r}")
        # In the schema's order, as the form's own content is, whoever answered.
        filled = {f.name: content[f.name] for f in fields if f.name in content}
        plain = {
            k: v.get_secret_value() if isinstance(v, SecretStr) else v for k, v in filled.items()
        }
        hidden = self.secret_fields()
        secrets = [
            str(plain[k]) for k, v in filled.items() if k in hidden or isinstance(v, SecretStr)
        ]
        try:
            validate_content(self.requested_schema, plain)
            check_as_typed(self.spec, plain)
            return self.finish_content(plain)
        except ValueError as error:
            # The messages quote values; a secret's must not leave in one.
            message = str(error)
            for secret in filter(None, secrets):
                message = message.replace(secret, "•••")
            raise ValueError(message) from None

    def with_untouched(self, content: Any) -> Any:
        """`content` (a dict) with each field it leaves out as the form gives it untouched (its
        default): the answer of a script, which never showed the form. Other content as it is."""
        if not isinstance(content, dict):
            return content
        untouched, _required = build_content(self.spec, {})
        return untouched | content

    def _form_values(self, model: BaseModel) -> dict[str, Any]:
        """`model`, given as the answer, as the form's own content would be: each field under
        its name in the form, as JSON for the schema's checks (a SecretStr as itself, not as
        its mask; a Decimal as the number its field asks, not pydantic's text of it), and a
        field the form left empty or did not ask (None in the model) left out, as the form
        leaves it."""
        required = set(self.requested_schema.get("required", ()))
        as_json = model.model_dump(mode="json")
        values: dict[str, Any] = {}
        for name, info in type(model).model_fields.items():
            value = getattr(model, name)
            key = json_name(name, info)
            if value is not None or key in required:
                if isinstance(value, Decimal):
                    values[key] = float(value)
                else:
                    values[key] = value if isinstance(value, SecretStr) else as_json[name]
        return values

    def describe_content(self, content: Any) -> str:
        if isinstance(content, BaseModel):
            content = content.model_dump(mode="json")
        secret = self.secret_fields()
        shown = {k: "•••" if k in secret else v for k, v in dict(content).items()}
        return ", ".join(f"{k}={v}" for k, v in shown.items()) or "(empty)"


def _types_of(annotation: Any) -> tuple[Any, ...]:
    """`annotation` and, for a union (`X | None`), each type in it."""
    return (annotation, *get_args(annotation))


class QuestionOption(BaseModel):
    """One answer a question offers: its label (what the agent gets back), a hint and a preview."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    label: str = Field(min_length=1)
    description: str | None = None
    preview: str | None = None
    """Shown beside the list while this option is highlighted (markdown, or the request's format)."""

    @model_validator(mode="before")
    @classmethod
    def _from_plain_string(cls, data: Any) -> Any:
        return {"label": data} if isinstance(data, str) else data


class Question(BaseModel):
    """One question of a batch; its answer is an option label, or the text typed as "Other"."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    question: str = Field(min_length=1)
    header: str | None = None
    """A short tab label; without one the tab says "Question n"."""
    options: list[QuestionOption] = Field(min_length=1)
    multi_select: bool = Field(
        default=False, validation_alias=AliasChoices("multi_select", "multiSelect")
    )
    """Pick several; also read as `multiSelect`, the MCP `ask_user` tool's spelling."""
    allow_other: bool = True
    """Offer an "Other" field whose typed text becomes the answer (or one more item of it)."""

    @field_validator("options")
    @classmethod
    def _labels_unique(cls, value: list[QuestionOption]) -> list[QuestionOption]:
        seen: set[str] = set()
        for option in value:
            if option.label in seen:
                raise ValueError(f"option label {option.label!r} appears more than once")
            seen.add(option.label)
        return value


QuestionAnswer = str | list[str]
"""A single-select question's answer is one string; a multi-select one's is a list."""


class QuestionsRequest(RequestBase):
    """A batch of multiple-choice questions answered together.

    The content is `{"answers": {question: str | list[str]}, "notes": {question: str}}`:
    every question is answered, and `notes` holds only the questions given a note.
    Without a `message`, the message is the question (one) or "n questions" (several).
    """

    kind: Literal["questions"] = "questions"
    message: str = Field(default="", min_length=1)
    questions: list[Question] = Field(min_length=1)
    preview_format: Literal["markdown", "html"] = "markdown"
    """How previews are written; HTML previews are shown converted to Markdown (scripts and
    styles dropped), as a terminal cannot render HTML."""

    @model_validator(mode="before")
    @classmethod
    def _default_message(cls, data: Any) -> Any:
        questions = data.get("questions") if isinstance(data, dict) else None
        if not isinstance(questions, list) or not questions or "message" in data:
            return data
        first = questions[0]
        text = first.question if isinstance(first, Question) else None
        if isinstance(first, dict):
            text = first.get("question")
        single = len(questions) == 1 and isinstance(text, str)
        return {**data, "message": text if single else f"{len(questions)} questions"}

    @field_validator("questions")
    @classmethod
    def _questions_unique(cls, value: list[Question]) -> list[Question]:
        # Answers are keyed by the question's text, so two equal texts would share one answer.
        seen: set[str] = set()
        for question in value:
            if question.question in seen:
                raise ValueError(f"question {question.question!r} appears more than once")
            seen.add(question.question)
        return value

    def describe_content(self, content: Any) -> str:
        answers = content.get("answers") if isinstance(content, dict) else None
        if not isinstance(answers, dict):
            return "(no answers)"
        parts = []
        for number, question in enumerate(self.questions, 1):
            answer = answers.get(question.question)
            shown = ", ".join(answer) if isinstance(answer, list) else str(answer)
            parts.append(f"{question.header or f'Q{number}'}: {shown}")
        return "; ".join(parts)

    def check_content(self, content: Any) -> dict[str, Any]:
        _expect(self, content, dict, 'a dict {"answers": ..., "notes": ...}')
        answers = content.get("answers")
        notes = content.get("notes", {})
        _expect(self, answers, dict, "a dict of answers by question")
        _expect(self, notes, dict, "a dict of notes by question")
        asked = {q.question: q for q in self.questions}
        for text in [*answers, *notes]:
            if text not in asked:
                raise ValueError(f"no question {text!r} was asked")
        for text, question in asked.items():
            if text not in answers:
                raise ValueError(f"question {text!r} has no answer")
            answer = answers[text]
            if question.multi_select:
                _expect(self, answer, list, f"a list of answers to {text!r}")
            items = answer if question.multi_select else [answer]
            for item in items:
                _expect(self, item, str, f"an answer to {text!r} (an option's label or other text)")
                labels = [o.label for o in question.options]
                if item not in labels and not question.allow_other:
                    raise ValueError(f"{item!r} is not an answer to {text!r}: {labels!r}")
        return {"answers": dict(answers), "notes": dict(notes)}


ApprovalScope = Literal["once", "session", "always"]
"""How far an approval reaches: this call only, the rest of this session, or from now on."""

_SCOPES: dict[str, ApprovalScope] = {"once": "once", "session": "session", "always": "always"}
_SCOPE_TEXT: dict[ApprovalScope, str] = {
    "once": "allowed once",
    "session": "allowed for this session",
    "always": "always allowed",
}


SHELL_OPERATORS = ";&|<>$`()\n\r"
"""Characters that chain, pipe, substitute or redirect shell commands: no wildcard of an
`ArgumentPattern` stands for one."""


def _outside_sets(pattern: str) -> str:
    """The characters of an fnmatch `pattern` outside its `[...]` sets (as fnmatch reads a
    set: a `]` first, or after `!`, is part of it; a `[` never closed is a literal)."""
    kept: list[str] = []
    at = 0
    while at < len(pattern):
        if pattern[at] == "[":
            end = at + 1
            if end < len(pattern) and pattern[end] == "!":
                end += 1
            if end < len(pattern) and pattern[end] == "]":
                end += 1
            end = pattern.find("]", end)
            if end != -1:
                at = end + 1
                continue
        kept.append(pattern[at])
        at += 1
    return "".join(kept)


class ArgumentPattern(BaseModel):
    """Which calls of a tool a remembered approval covers, by a glob over their arguments.

    With `argument`, `pattern` (fnmatch, case-sensitive) is matched against that argument's
    value (strings as they are, anything else as JSON); a call without the argument never
    matches. Without `argument`, it is matched against all arguments as compact JSON with
    sorted keys, e.g. `{"command":"pytest -q"}`.

    A wildcard (`*`, `?`, `[...]`) never stands for a shell operator (`SHELL_OPERATORS`):
    `uv run pytest*` covers `uv run pytest -q`, not `uv run pytest -q; curl … | sh`. A
    pattern that spells an operator out covers calls with it there.

    With `others` too, a call's other arguments must be just those, with those values, but
    the ones `varying` names: `npm test` allowed in the sandbox does not cover `npm test`
    with `dangerouslyDisableSandbox`, nor in another `dir_path`.
    """

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    argument: str | None = None
    pattern: str = Field(min_length=1)
    others: dict[str, Any] | None = None
    """With `argument`: every other argument a covered call has, and its value, but those in
    `varying`; None: any others."""
    varying: tuple[str, ...] | None = None
    """The arguments `others` leaves out, which a covered call may give any value (what an
    edit writes, a command's description)."""

    def matches(self, arguments: dict[str, Any]) -> bool:
        """True if a call with these `arguments` is covered."""
        return self.why_unmatched(arguments) is None

    def why_unmatched(self, arguments: dict[str, Any]) -> str | None:
        """Why a call with these `arguments` is not covered, in words (`it has &&`), or None
        if it is."""
        if self.argument is None:
            subject = json.dumps(arguments, sort_keys=True, separators=(",", ":"), default=str)
        elif self.argument not in arguments:
            return f"it has no {self.argument}"
        else:
            value = arguments[self.argument]
            subject = value if isinstance(value, str) else json.dumps(value, default=str)
        if not fnmatch.fnmatchcase(subject, self.pattern):
            return "the pattern does not match it"
        if not self._others_match(arguments):
            return "its other arguments differ"
        # Each operator the pattern spells out matches one in the subject; any more were
        # matched by a wildcard.
        spelled = _outside_sets(self.pattern)
        extra = {c for c in SHELL_OPERATORS if subject.count(c) > spelled.count(c)}
        if not extra:
            return None
        runs = re.findall(f"[{re.escape(SHELL_OPERATORS)}]+", subject)
        shown = dict.fromkeys(
            "a line break" if {"\n", "\r"} & set(run) else run for run in runs if extra & set(run)
        )
        return f"it has {_listed(list(shown))}"

    @model_validator(mode="after")
    def _others_need_an_argument(self) -> ArgumentPattern:
        if self.others is not None and self.argument is None:
            raise ValueError(
                "others needs an argument: without one, the pattern is matched"
                " against every argument"
            )
        if self.others is not None and (problem := not_json(self.others)) is not None:
            raise ValueError(f"others must be JSON data: {problem}")
        return self

    def _others_match(self, arguments: dict[str, Any]) -> bool:
        if self.others is None or self.argument is None:
            return True
        left_out = {self.argument, *(self.varying or ())}
        rest = {key: value for key, value in arguments.items() if key not in left_out}
        # As JSON: `true` is not `1` (as Python's True == 1 would have it).
        return _canonical(rest) == _canonical(self.others)

    def exact_value(self) -> str | None:
        """The one value the pattern matches if it has no wildcard (`ls [*].py`: `ls *.py`,
        each `[c]` a character spelled out), else None."""
        value, rest = [], self.pattern
        while rest:
            if rest[0] in "*?":
                return None
            if rest[0] == "[":
                if len(rest) < 3 or rest[2] != "]" or rest[1] in "!^]":
                    return None  # a set of characters, or a range: a wildcard
                value.append(rest[1])
                rest = rest[3:]
            else:
                value.append(rest[0])
                rest = rest[1:]
        return "".join(value)

    def describe(self) -> str:
        """A short rendering for people: `command ~ pytest*` for a glob, `command = ls *.py`
        for a pattern that matches one value (written without its escapes), or `arguments`
        for the whole call; then each of `others`, `run_in_background = true`, and what may
        be anything: `any description`, or `any other arguments` without `others`."""
        exact = self.exact_value()
        named = self.argument or "arguments"
        said = f"{named} = {exact}" if exact is not None else f"{named} ~ {self.pattern}"
        return said + self.describe_others()

    def describe_others(self) -> str:
        """The end of `describe()`: what a covered call's other arguments must be, and which
        may be anything (`, run_in_background = true, any description`)."""
        if self.argument is None:
            return ""
        if self.others is None:
            return ", any other arguments"
        said = "".join(
            f", {key} = {json.dumps(value, ensure_ascii=False)}"
            for key, value in self.others.items()
        )
        return said + (f", any {_listed(self.varying)}" if self.varying else "")


def _listed(names: Sequence[str]) -> str:
    """`a`, `a and b`, `a, b and c`."""
    return " and ".join([", ".join(names[:-1]), names[-1]] if len(names) > 1 else names)


def folder_name(folder: str) -> str:
    """A folder by its last two names (`work/app`), or whole where it has no more."""
    parent, name = posixpath.split(folder.rstrip("/") or "/")
    above = posixpath.basename(parent)
    return f"{above}/{name}" if above and name else folder


def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), default=str)


_SUMMARY_LENGTH = 120


def call_summary(tool_name: str, arguments: Any) -> str:
    """One line naming a tool call, like `shell(command="pytest -q")`, cut with … when long."""
    if isinstance(arguments, dict):
        shown = ", ".join(
            f"{key}={json.dumps(value, ensure_ascii=False, default=str)}"
            for key, value in arguments.items()
        )
    else:
        shown = json.dumps(arguments, ensure_ascii=False, default=str)
    return one_line(f"{tool_name}({shown})", _SUMMARY_LENGTH)


def _normal_folder(path: str) -> str:
    """`path` as every folder is compared: `~` expanded, `.`, `..` and a trailing `/` gone."""
    return posixpath.normpath(posixpath.expanduser(path))


Folder = Annotated[str, Field(min_length=1), AfterValidator(_normal_folder)]
"""A folder a call runs in, or a rule holds in: `/home/me/app/` and `~/app` are `/home/me/app`."""


class ToolApprovalRequest(RequestBase):
    """May the agent run this tool call? The id is `toolApproval:{tool_call_id}`.

    Accepting allows the call; the content is `{"scope": "once" | "session" | "always"}`,
    and an accept without content (as protocol-driven front ends send) allows it once. When
    the person edited the call's arguments first, the content also holds them,
    `{"scope": "once", "arguments": {...}}` (`edited_arguments()`): run the call with those.
    An edited call is allowed once only: a rule is made from the call as asked.
    Declining denies it; the content is `{"reason": str}` when the person gave one, else None.
    Cancelling means the agent should stop its turn. Without a `message`, it is the `summary`.
    """

    kind: Literal["tool_approval"] = "tool_approval"
    message: str = Field(default="", min_length=1)
    tool_name: str = Field(min_length=1)
    summary: str = Field(default="", min_length=1)
    """One line saying what the call will do; without one, the call itself: `shell(command="ls")`."""
    arguments: dict[str, Any] = Field(default_factory=dict)
    diff: str | None = None
    """A unified diff of the change the call would make, if it edits files."""
    tool_call_id: str = Field(min_length=1)
    remember: ArgumentPattern | None = None
    """What "for this session" and "always" allow from then on: calls of this tool that match
    (None: every call of this tool)."""
    folder: Folder | None = None
    """The folder the call runs in, where the agent works in one (a coding CLI's project): what
    "for this session" and "always" allow is then allowed in this folder only."""
    edits_retried: bool = False
    """True where the harness cannot run a call with other arguments (Codex): allowed with
    edited arguments, the call is denied and the model told to call it again so edited."""
    once_only: bool = False
    """True: the call may be allowed once or denied, never remembered, as no rule could keep to
    it (a hook's shell call whose command is not text: a rule would cover every command)."""

    @model_validator(mode="before")
    @classmethod
    def _derived_fields(cls, data: Any) -> Any:
        if isinstance(data, dict):
            call_id = data.get("tool_call_id")
            if isinstance(call_id, str) and call_id and "id" not in data:
                data = {**data, "id": f"toolApproval:{call_id}"}
            name = data.get("tool_name")
            arguments = data.get("arguments") or {}
            summed_up = isinstance(name, str) and name and not_json(arguments) is None
            if not data.get("summary") and summed_up:
                data = {**data, "summary": call_summary(name, arguments)}
            if "message" not in data and "summary" in data:
                data = {**data, "message": data["summary"]}
        return data

    @field_validator("arguments")
    @classmethod
    def _arguments_are_json(cls, value: dict[str, Any]) -> dict[str, Any]:
        if (problem := not_json(value)) is not None:
            raise ValueError(f"arguments must be JSON data: {problem}")
        return value

    @field_validator("summary")
    @classmethod
    def _summary_one_line(cls, value: str) -> str:
        if "\n" in value.strip():
            raise ValueError("summary must be one line")
        return value.strip()

    @model_validator(mode="after")
    def _id_follows_call(self) -> ToolApprovalRequest:
        expected = f"toolApproval:{self.tool_call_id}"
        if self.id != expected:
            raise ValueError(f"id must be {expected!r} (toolApproval:{{tool_call_id}})")
        return self

    @classmethod
    def check_limits(cls, data: Any) -> None:
        """As every request's, but `remember` and `diff` each count apart from the rest: the
        pattern repeats the call's command or path, the diff its old and new text or its
        patch, which may then take the whole text limit, not half."""
        if not isinstance(data, dict):
            check_size(data)
            return
        apart = ("remember", "diff")
        check_size({key: value for key, value in data.items() if key not in apart})
        for key in apart:
            if data.get(key) is not None:
                check_size({key: data[key]})

    def reach(self) -> str:
        """What "for this session" and "always" would allow from now on, in words:
        `every shell call in any folder`, or `shell in work/app, command ~ pytest*` (the
        folder by its last two names: two projects called `app` read apart)."""
        where = f" in {folder_name(self.folder)}" if self.folder else " in any folder"
        if self.remember is None:
            return f"every {self.tool_name} call{where}"
        return f"{self.tool_name}{where}, {self.remember.describe()}"

    def rule_text(self) -> str:
        """All a rule remembered for this call would hold, as text: the tool's name and the
        `remember` pattern, as written and as read (to look for a secret in)."""
        remember = self.remember
        reach = "" if remember is None else f" {remember.describe()} {remember.pattern}"
        return self.tool_name + reach

    def scope_of(self, result: ElicitationResult) -> ApprovalScope | None:
        """How far `result` allows this call, or None if it does not (declined or cancelled).

        An accept without content, or with content that names no known scope, allows this
        call once: an unclear answer never grants more. So does an accept with edited
        arguments, whatever its scope: a rule would cover the call as asked, which the
        person did not allow.
        """
        if result.action != "accept":
            return None
        if self._edited(result.content):
            return "once"
        content = result.content
        scope = content.get("scope") if isinstance(content, dict) else None
        return _SCOPES.get(scope, "once") if isinstance(scope, str) else "once"

    def edited_arguments(self, result: ElicitationResult) -> dict[str, Any] | None:
        """The arguments the person edited the call to, if they allowed it edited; else None."""
        content = result.content
        if result.action != "accept" or not isinstance(content, dict):
            return None
        arguments = content.get("arguments")
        return dict(arguments) if isinstance(arguments, dict) else None

    def call_again_as_edited(self, edited: dict[str, Any]) -> str:
        """What the model reads where its harness can run a call only with the model's own
        arguments and the person allowed it edited: the call did not run, and how to make it
        as the person edited it."""
        return (
            "The person allowed this call only with edited arguments, so it did not run. "
            f"Call {self.tool_name} again with exactly these arguments: "
            + json.dumps(edited, ensure_ascii=False, sort_keys=True)
        )

    def denial_reason(self, result: ElicitationResult) -> str | None:
        """What the person told the agent when denying, if they said anything."""
        content = result.content
        if result.action == "decline" and isinstance(content, dict):
            reason = content.get("reason")
            if isinstance(reason, str) and reason.strip():
                return reason.strip()
        return None

    def describe_content(self, content: Any) -> str:
        result = ElicitationResult(action="accept", content=content)
        scope = _SCOPE_TEXT[self.scope_of(result) or "once"]
        return f"edited, {scope}" if self.edited_arguments(result) is not None else scope

    def check_content(self, content: Any) -> dict[str, Any]:
        if content is None:
            return {"scope": "once"}
        shape = '{"scope": "once" | "session" | "always"} (with "arguments": {...} if edited)'
        _expect(self, content, dict, f"a dict {shape}")
        scope = content.get("scope")
        if scope not in _SCOPES or not set(content) <= {"scope", "arguments"}:
            raise ValueError(f"the answer must be {shape}, not {content!r}")
        if "arguments" not in content:
            return {"scope": _SCOPES[scope]}
        _expect(self, content["arguments"], dict, "edited arguments as a dict")
        if scope != "once" and self._edited(content):
            raise ValueError(
                f'edited arguments are allowed "once" only, not {scope!r}: a rule remembers the '
                "call as it was asked, which the person did not allow"
            )
        return {"scope": _SCOPES[scope], "arguments": dict(content["arguments"])}

    def _edited(self, content: Any) -> bool:
        """Whether `content` carries arguments other than the call's own."""
        arguments = content.get("arguments") if isinstance(content, dict) else None
        return isinstance(arguments, dict) and arguments != self.arguments


class UrlRequest(RequestBase):
    """Consent to open a web page (MCP's URL mode); the content says whether a browser opened it.

    Only http and https links with a domain are accepted. Nothing is fetched: the front end
    shows the full URL, its real domain and warnings, and opens it only on accept. There is
    no default answer, so a policy never consents on the person's behalf.
    """

    kind: Literal["url"] = "url"
    url: str

    @field_validator("url")
    @classmethod
    def _openable(cls, value: str) -> str:
        from tui.core.url_check import check_url

        check_url(value)
        return value

    def describe_content(self, content: Any) -> str:
        return "opened in the browser" if content else "agreed; no browser could open it"

    def check_content(self, content: Any) -> bool:
        _expect(self, content, bool, "True (opened) or False (no browser could open it)")
        return bool(content)


Request = RequestBase
"""Any request, of a built-in kind or a registered one; `kind` says which."""

for _model, _modal in (
    (TextRequest, "widgets.text:TextModal"),
    (ChoiceRequest, "widgets.choice:ChoiceModal"),
    (MultiChoiceRequest, "widgets.multi_choice:MultiChoiceModal"),
    (SecretRequest, "widgets.secret:SecretModal"),
    (ConfirmationRequest, "widgets.confirmation:ConfirmationModal"),
    (FormRequest, "widgets.form:FormModal"),
    (QuestionsRequest, "widgets.questions:QuestionsModal"),
    (ToolApprovalRequest, "widgets.tool_approval:ToolApprovalModal"),
    (UrlRequest, "widgets.url:UrlModal"),
):
    register_kind(_model, modal=_modal)

_union_adapters: dict[tuple[type[RequestBase], ...], TypeAdapter[Any]] = {}


def request_adapter() -> TypeAdapter[Any]:
    """A validator of the union of every registered kind, discriminated by `kind`: its errors
    name the field and kind at fault, or list the registered kinds for an unknown one."""
    models = tuple(found.model for name in kind_names() if (found := kind(name)) is not None)
    adapter = _union_adapters.get(models)
    if adapter is None:
        union = Annotated[Union[models], Field(discriminator="kind")]  # type: ignore[valid-type]  # noqa: UP007
        adapter = TypeAdapter(union, config=ConfigDict(title="Request", defer_build=True))
        _union_adapters[models] = adapter
    return adapter


def parse_request(data: dict[str, Any]) -> Request:
    """Build a request of any registered kind from plain JSON-like data; raises
    `pydantic.ValidationError` naming the field, or the registered kinds for an unknown one."""
    if isinstance(data, dict) and "kind" not in data:
        raise _kind_problem("missing_kind", "missing; one of {known}", None)
    name = data.get("kind") if isinstance(data, dict) else None
    found = kind(name) if isinstance(name, str) else None
    if isinstance(name, str) and found is None:
        raise _unknown_kind(name)
    try:
        if found is not None:
            # A request of a known kind is validated by its own model alone, so the first one
            # builds one validator, not one for every kind (a cold start's largest single cost).
            try:
                return found.model.model_validate(data)
            except ValidationError:
                pass  # refused the same either way; the union's error says which kind it tried
        request: Request = request_adapter().validate_python(data)
    except ValidationError:
        raise
    except (Exception, SystemExit) as error:
        # A validator of a kind's model that raised what pydantic does not turn into an
        # error of the request (a KeyError, a TypeError, SystemExit): refused all the same,
        # saying so. (A KeyboardInterrupt is the person's Ctrl+C: it goes on.)
        raise _validator_failed(name, data, error) from error
    return request


def _validator_failed(name: object, data: object, error: BaseException) -> ValidationError:
    problem = PydanticCustomError(
        "validator_failed",
        "validating this {kind} request raised {error}; a validator refuses a value by"
        " raising ValueError",
        {"kind": repr(name), "error": error_text(error)},
    )
    return ValidationError.from_exception_data(
        "Request", [InitErrorDetails(type=problem, loc=(), input=data)]
    )


CLI_KIND_NAMES = {"confirm": "confirmation", "multi": "multi_choice"}
"""The `ask` command's names of kinds whose names in a request differ."""


def _unknown_kind(name: str) -> ValidationError:
    """The refusal of a request whose kind is not registered in this process: the kind meant
    where `name` is the `ask` command's name for it, else how a kind of one's own gets
    registered (a process that never imported its module: `serve`, `ask`, `replay`)."""
    if name in CLI_KIND_NAMES:
        return _kind_problem(
            "unknown_kind",
            "{kind} is not a kind registered here: did you mean {meant}? (`ask {command}` is"
            " the command's name for it)",
            name,
            meant=repr(CLI_KIND_NAMES[name]),
            command=name,
        )
    return _kind_problem(
        "unknown_kind",
        "{kind} is not a kind registered here (registered: {known}); a kind of your own is"
        " registered in a process whose ELICIT_TUI_KINDS names the module that registers"
        " it{unloaded}",
        name,
        unloaded=unloaded_kind_modules(),
    )


def _kind_problem(code: str, text: str, name: str | None, **context: str) -> ValidationError:
    """A refusal of the request's `kind` (`name`, None if missing): `text` with `{kind}` and
    `{known}` (the registered kinds) filled in, and `context`."""
    known = ", ".join(repr(known) for known in kind_names())
    problem = PydanticCustomError(code, text, {"kind": repr(name), "known": known, **context})
    return ValidationError.from_exception_data(
        "Request", [InitErrorDetails(type=problem, loc=("kind",), input=name)]
    )


UNSUPPORTED_KIND = "unsupported_kind"
"""The start of a result's reason when a front end cannot show a request's kind."""


def unsupported(request: RequestBase) -> ElicitationResult:
    """The cancel a front end answers with when it has no way to show `request`'s kind."""
    return ElicitationResult(action="cancel", reason=f"{UNSUPPORTED_KIND}: {request.kind}")


DIALOG_FAILED = "dialog_failed"
"""The start of a result's reason when the dialog showing a request raised an error."""


def dialog_failed(request: RequestBase, error: BaseException) -> ElicitationResult:
    """The cancel a front end answers with when the dialog showing `request` raised `error`:
    the kind and the error's type, not its message, which may quote what was typed."""
    reason = f"{DIALOG_FAILED}: {request.kind} ({type(error).__name__})"
    return ElicitationResult(action="cancel", reason=reason)


KEYRING_UNAVAILABLE = "keyring_unavailable"
"""A result's reason when a secret meant for the keyring could not be stored there."""

ENDED_UNSEEN = "ended_unseen"
"""The `reason` a front end gives a request that ended while it was not connected: it knows
that it ended, not how (the result belongs to the asker)."""

AUTO_APPROVED = "auto_approved"
"""The `reason` of a result given by a remembered rule instead of the person."""


class ElicitationResult(BaseModel):
    """How a request ended: the action, the typed content on accept, and why if not the user."""

    model_config = ConfigDict(arbitrary_types_allowed=True, frozen=True, defer_build=True)

    action: Action
    content: Any = None
    reason: str | None = None
    """Why the request ended without the person: `timeout`, `closed`, `cancelled_by_agent`, ...

    Also `keyring_unavailable` when a secret was to be stored and the keyring could not: with
    `accept` the person chose to keep it in memory (content is a `SecretStr`), with `cancel`
    they chose not to give it.
    """
    sensitive: bool = False
    """True when the content answers a `sensitive` request: it is the asker's alone, so a
    repr, a transcript, a timeline and `to_llm_text()` show a mask instead (see `flagged`)."""

    @property
    def accepted(self) -> bool:
        return self.action == "accept"

    @property
    def decline_reason(self) -> str | None:
        """The reason the person gave with a refusal (a denied tool call's), if any."""
        content: Any = self.content
        if self.action == "decline" and isinstance(content, dict):
            reason = content.get("reason")
            return reason if isinstance(reason, str) and reason else None
        return None

    def __repr_args__(self) -> Any:
        for name, value in super().__repr_args__():
            if name == "content" and self.sensitive:
                yield name, "<sensitive>"
            else:
                yield name, ("SecretStr('**********')" if isinstance(value, SecretStr) else value)

    def to_llm_text(self) -> str:
        """A short sentence safe to hand to a model: secrets become references or a mention."""
        if self.action == "decline":
            reason = self.decline_reason
            if reason is not None and not self.sensitive:
                return f"The user declined, saying: {json.dumps(reason, ensure_ascii=False)}"
            return "The user declined to answer."
        if self.action == "cancel":
            why = f" ({self.reason})" if self.reason else ""
            return f"The request was cancelled{why}; no answer was given."
        content = self.content
        if self.sensitive:
            return "The user answered; the answer is sensitive and not shown here."
        if isinstance(content, SecretRef):
            return (
                f"The user stored the secret as keyring entry {content.service}/{content.username}."
            )
        if isinstance(content, SecretStr) and self.reason == KEYRING_UNAVAILABLE:
            return (
                "The user provided the secret; the keyring could not store it, so the program "
                "holds it in memory for this run only and it is not shown here."
            )
        if isinstance(content, SecretStr):
            return "The user provided the secret; it is held by the program and not shown here."
        if isinstance(content, BaseModel):
            content = fields_by_json_name(content)  # the names a form asked with
        return f"The user answered: {TypeAdapter(Any).dump_json(content).decode()}"


def delivered(request: RequestBase, result: ElicitationResult) -> ElicitationResult:
    """`result` as the asker receives it, wherever it was given: accepted content as its
    request's `delivered_content` types it (a typed secret as `SecretStr`, a form's fields as
    its model, a kind's content as its `content_type`), the answer to a sensitive request
    flagged. Raises `ValidationError` for content that cannot be so typed."""
    if result.accepted:
        content = request.delivered_content(result.content)
        if content is not result.content:
            result = result.model_copy(update={"content": content})
    return flagged(request, result)


def flagged(request: RequestBase, result: ElicitationResult) -> ElicitationResult:
    """`result`, marked `sensitive` if it accepts a sensitive request with content of its own;
    a secret's `SecretStr` or `SecretRef` needs no mark, it never shows its value anyway."""
    content = result.content
    if not request.sensitive or result.sensitive or not result.accepted:
        return result
    if isinstance(content, SecretStr | SecretRef) or content is None:
        return result
    return result.model_copy(update={"sensitive": True})
