"""Forms from schemas: the MCP elicitation `requestedSchema` subset as field specs.

`parse_schema` turns a schema into a `FormSpec` (or refuses it, naming the property
and why), `parse_value` and `build_content` turn what the form's widgets hold into
typed content, `validate_content` is the final check with `jsonschema`, and
`schema_from_model` derives a schema of the subset from a pydantic model.
Pure Python: nothing here imports Textual.
"""

from __future__ import annotations

import functools
import math
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import date, datetime
from typing import TYPE_CHECKING, Any, Literal, cast, get_args
from urllib.parse import urlsplit

from tui.core.json_type import json_type
from tui.core.limits import MAX_PROPERTIES
from tui.core.one_line import has_line_break
from tui.core.options import Option

if TYPE_CHECKING:
    from pydantic import BaseModel

__all__ = [
    "FieldSpec",
    "FieldType",
    "FormSpec",
    "SchemaError",
    "StringFormat",
    "build_content",
    "check_as_typed",
    "default_content",
    "parse_schema",
    "parse_value",
    "schema_from_model",
    "schema_from_pydantic_json",
    "uses_pydantic_json",
    "validate_content",
]

FieldType = Literal["string", "integer", "number", "boolean", "enum", "multi_enum"]
"""What a field holds; `enum` is a single pick, `multi_enum` a list of picks."""

StringFormat = Literal["email", "uri", "date", "date-time"]
"""The string formats of the subset."""

_FORMATS: tuple[StringFormat, ...] = get_args(StringFormat)

# fmt: off
_MEANINGFUL = frozenset({
    # core and applicators
    "$ref", "$dynamicRef", "$defs", "definitions", "allOf", "anyOf", "oneOf", "not", "if",
    "then", "else", "dependentSchemas", "dependencies", "prefixItems", "items",
    "additionalItems", "contains", "properties", "patternProperties", "additionalProperties",
    "propertyNames", "unevaluatedItems", "unevaluatedProperties",
    # validation
    "type", "enum", "const", "multipleOf", "maximum", "exclusiveMaximum", "minimum",
    "exclusiveMinimum", "maxLength", "minLength", "pattern", "maxItems", "minItems",
    "uniqueItems", "maxContains", "minContains", "maxProperties", "minProperties", "required",
    "dependentRequired", "format",
})
# fmt: on
"""JSON Schema keywords that change what a schema accepts; any other key is an annotation."""

_KEYWORDS: dict[str, frozenset[str]] = {
    "string": frozenset({"type", "minLength", "maxLength", "format"}),
    "enum": frozenset({"type", "enum", "oneOf"}),
    "integer": frozenset({"type", "minimum", "maximum"}),
    "number": frozenset({"type", "minimum", "maximum"}),
    "boolean": frozenset({"type"}),
    "multi_enum": frozenset({"type", "items", "minItems", "maxItems", "uniqueItems"}),
}
"""The meaning-changing keywords each kind of property understands."""

_TOP_KEYWORDS = frozenset({"type", "properties", "required", "additionalProperties"})

_EMAIL = re.compile(r"[^@\s]+@[^@\s.]+(\.[^@\s.]+)+")
_SCHEME = re.compile(r"[a-z][a-z0-9+.-]*")
_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
_DATE_TIME_START = re.compile(r"\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}")
_INTEGER = re.compile(r"[+-]?\d+")


class SchemaError(ValueError):
    """A schema outside the supported subset; the message names the property and the reason."""


@dataclass(frozen=True)
class FieldSpec:
    """One form field, read from one property of the schema."""

    name: str
    type: FieldType
    title: str
    """The schema's title, else the property name."""
    description: str | None
    required: bool
    default: Any
    """The schema's default, typed like the content; None when the schema gives none."""
    min_length: int | None = None
    max_length: int | None = None
    format: StringFormat | None = None
    minimum: float | None = None
    maximum: float | None = None
    options: tuple[Option, ...] = ()
    """For `enum` and `multi_enum`: what is shown (title, enumNames or value) and the value."""
    min_items: int | None = None
    max_items: int | None = None
    secret: bool = False
    """A string typed masked: format "password" or `writeOnly: true` (what SecretStr gives)."""

    def hint(self) -> str:
        """A short reminder of what the field takes ("YYYY-MM-DD", "1–100", "pick 1–3"), or ""."""
        if self.type in ("integer", "number"):
            span = _span(self.minimum, self.maximum)
            return span or ("whole number" if self.type == "integer" else "")
        if self.type == "multi_enum":
            span = _span(self.min_items or None, self.max_items)
            return f"pick {span}" if span else ""
        if self.type != "string":
            return ""
        parts = [_FORMAT_HINTS[self.format]] if self.format else []
        # "at least 1 character" says no more than the field being there
        low = self.min_length if self.min_length and self.min_length > 1 else None
        lengths = _span(low, self.max_length)
        if lengths:
            parts.append(f"{lengths} {_characters(self.max_length or self.min_length or 0)}")
        return ", ".join(parts)


@dataclass(frozen=True)
class FormSpec:
    """A whole form: the schema's title and description, and its fields in schema order."""

    title: str | None
    description: str | None
    fields: tuple[FieldSpec, ...]


def parse_schema(schema: dict[str, Any]) -> FormSpec:
    """The form a `requestedSchema` asks for; `SchemaError` names what is outside the subset."""
    if not isinstance(schema, dict):
        raise SchemaError(f"schema: must be an object, not {json_type(schema)}")
    if schema.get("type") != "object":
        raise SchemaError(f"schema: top-level type must be 'object', not {schema.get('type')!r}")
    for key in schema:
        if key in _MEANINGFUL and key not in _TOP_KEYWORDS:
            raise SchemaError(f"schema: keyword {key!r} is not supported{_ADVICE.get(key, '')}")
    if not isinstance(schema.get("additionalProperties", False), bool):
        raise SchemaError("schema: 'additionalProperties' may only be true or false")
    properties = schema.get("properties", {})
    if not isinstance(properties, dict):
        raise SchemaError("schema: 'properties' must be an object")
    if len(properties) > MAX_PROPERTIES:
        raise SchemaError(
            f"schema: {len(properties)} properties; a form has at most {MAX_PROPERTIES} (the limit)"
        )
    required = schema.get("required", [])
    if not isinstance(required, list) or not all(isinstance(n, str) for n in required):
        raise SchemaError("schema: 'required' must be a list of property names")
    for name in required:
        if name not in properties:
            raise SchemaError(f"property {name!r}: listed in 'required' but not defined")
    return FormSpec(
        title=_text("schema", schema, "title"),
        description=_text("schema", schema, "description"),
        fields=tuple(_parse_property(n, p, n in required) for n, p in properties.items()),
    )


def parse_value(field: FieldSpec, raw: str | bool | list[str] | None) -> Any:
    """The typed value of what a widget holds (None when empty), or ValueError saying what to fix.

    Text inputs give `str` (numbers, dates and strings alike), a switch `bool`, a single
    picker `str | None`, a checklist `list[str]`. Date-times come back in ISO form.
    """
    value = _coerce(field, raw)
    if value is None:
        if field.required:
            raise ValueError("required")
        return None
    _check(field, value)
    return value


def build_content(spec: FormSpec, raws: dict[str, Any]) -> tuple[dict[str, Any], dict[str, str]]:
    """The content of a filled-in form and the errors by field name (both in field order).

    Fields in `raws` are coerced with `parse_value`; fields not in it (untouched) take their
    default, or without one what their control shows: a switch off, a checklist nothing
    ticked (an answer where the field is required), an input or a list empty. Optional
    fields left empty are left out of the content; keys naming no field are ignored.
    """
    content: dict[str, Any] = {}
    errors: dict[str, str] = {}
    for field in spec.fields:
        if field.name in raws or field.default is None:
            try:
                value = parse_value(field, raws.get(field.name, _blank(field)))
            except ValueError as error:
                errors[field.name] = str(error)
                continue
        else:
            # a copy, so that nobody changing the content changes the spec's default
            value = list(field.default) if isinstance(field.default, list) else field.default
        if value is not None:
            content[field.name] = value
    return content, errors


def _blank(field: FieldSpec) -> str | bool | list[str] | None:
    """What the control of `field` holds untouched, with no default."""
    if field.type == "boolean":
        return False
    return [] if field.type == "multi_enum" else None


def default_content(spec: FormSpec) -> dict[str, Any]:
    """What accepting the form untouched gives; ValueError names required fields with no default."""
    content, errors = build_content(spec, {})
    if errors:
        names = ", ".join(repr(name) for name in errors)
        raise ValueError(f"no default for required field{'s' if len(errors) > 1 else ''}: {names}")
    return content


def validate_content(schema: dict[str, Any], content: dict[str, Any]) -> None:
    """Check content against the schema (JSON Schema 2020-12 with the subset's formats).

    Raises ValueError naming each offending property, like "property 'age': 200 is greater
    than the maximum of 100".
    """
    # jsonschema takes a fifth of a second to import; only a form's final check needs it
    from jsonschema import Draft202012Validator

    validator = Draft202012Validator(schema, format_checker=_format_checker())
    problems: list[str] = []
    for error in sorted(validator.iter_errors(content), key=lambda e: [str(p) for p in e.path]):
        if error.validator == "required" and not error.path:
            # jsonschema reports a missing property on the object, once per missing name
            missing = [n for n in error.validator_value if n not in error.instance]
            problems.extend(f"property {name!r}: required" for name in missing)
        elif error.path:
            problems.append(f"property {error.path[0]!r}: {error.message}")
        else:
            problems.append(f"content: {error.message}")
    if problems:
        raise ValueError("; ".join(dict.fromkeys(problems)))


def check_as_typed(spec: FormSpec, content: dict[str, Any]) -> None:
    """Check content from elsewhere (a script) against what the form's fields give when typed
    in (see `parse_value`), after `validate_content` has checked it against the schema.

    Raises ValueError naming each property whose value the schema allows but no field gives:
    a number that is inf or NaN, text with a line break (a field's default aside), a required
    text left blank. (A whole number written as a float, 5.0, is an integer, as JSON Schema
    counts it: `FormRequest.finish_content` makes it an `int`.)
    """
    problems = [
        f"property {field.name!r}: {problem}"
        for field in spec.fields
        if field.name in content and (problem := _untypable(field, content[field.name]))
    ]
    if problems:
        raise ValueError("; ".join(problems))


def schema_from_model(model: type[BaseModel]) -> dict[str, Any]:
    """A schema of the subset asking for the fields of a pydantic model.

    Enums and Literals are inlined, `X | None` becomes an optional X, SecretStr a secret
    string, a Decimal a number, integer gt/lt inclusive bounds. Raises `SchemaError` naming a field outside
    the subset (nested models, dicts, lists of anything but options, unions).
    """
    from pydantic import PydanticUserError  # loaded with the model anyway

    from tui.core.asked_json_schema import AskedJsonSchema

    try:
        generated = model.model_json_schema(schema_generator=AskedJsonSchema)
    except PydanticUserError as error:  # a field no JSON schema can describe (a Callable)
        raise SchemaError(error.message) from None
    return schema_from_pydantic_json(generated)


def uses_pydantic_json(schema: dict[str, Any]) -> bool:
    """True if `schema` uses what pydantic generates but the subset lacks: `$defs`, or a
    property that is a `$ref` or an `anyOf` (an Enum field, an `X | None` field)."""
    properties = schema.get("properties")
    return "$defs" in schema or (
        isinstance(properties, dict)
        and any(isinstance(p, dict) and ("$ref" in p or "anyOf" in p) for p in properties.values())
    )


def schema_from_pydantic_json(source: dict[str, Any]) -> dict[str, Any]:
    """The subset schema for a flat model's JSON schema as pydantic generates it
    (`TypeAdapter(Model).json_schema()`), with the same rules as `schema_from_model`."""
    if not isinstance(source, dict) or source.get("type") != "object":
        raise SchemaError("schema: top-level type must be 'object'")
    for key in source:
        if key in _MEANINGFUL and key not in _TOP_KEYWORDS and key != "$defs":
            raise SchemaError(f"schema: keyword {key!r} is not supported{_ADVICE.get(key, '')}")
    defs: dict[str, Any] = source.get("$defs", {})
    listed, given = source.get("required", []), source.get("properties", {})
    if not isinstance(listed, list) or not all(isinstance(name, str) for name in listed):
        raise SchemaError("schema: 'required' must be a list of property names")
    if not isinstance(given, dict):
        raise SchemaError(f"schema: 'properties' must be an object, not {json_type(given)}")
    required = set(listed)
    properties: dict[str, Any] = {}
    for name, prop in given.items():
        if not isinstance(prop, dict):
            raise SchemaError(f"property {name!r}: must be an object, not {json_type(prop)}")
        properties[name], nullable = _property_from_model(name, prop, defs)
        if nullable:
            required.discard(name)
    schema: dict[str, Any] = {"type": "object", "properties": properties}
    for key in ("title", "description", "additionalProperties"):
        if key in source:
            schema[key] = source[key]
    if required:
        schema["required"] = [name for name in properties if name in required]
    parse_schema(schema)
    return schema


_ADVICE = {
    "$ref": " (inline the definition)",
    "$defs": " (inline the definitions)",
    "anyOf": " (for an optional field, leave it out of 'required')",
    "required": " here (list required properties in the top-level 'required')",
}
"""What to do instead, for the refusals people run into most."""

_DEFAULT_TYPES: dict[str, tuple[tuple[type, ...], str]] = {
    "string": ((str,), "a string"),
    "enum": ((str,), "a string"),
    "integer": ((int,), "a whole number"),
    "number": ((int, float), "a number"),
    "boolean": ((bool,), "true or false"),
    "multi_enum": ((list,), "a list of option values"),
}
"""The Python types a default of each kind may have, and how to say so."""

_FORMAT_HINTS: dict[str, str] = {
    "email": "name@example.com",
    "uri": "https://…",
    "date": "YYYY-MM-DD",
    "date-time": "YYYY-MM-DD HH:MM",
}

_FORMAT_ERRORS: dict[str, str] = {
    "email": "not an email address",
    "uri": "not a URL (like https://example.com)",
    "date": "not a date (YYYY-MM-DD)",
    "date-time": "not a date and time (YYYY-MM-DD HH:MM)",
}


def _is_email(text: str) -> bool:
    return _EMAIL.fullmatch(text) is not None


def _is_uri(text: str) -> bool:
    if any(c.isspace() for c in text):
        return False
    try:
        parts = urlsplit(text)
        host = parts.hostname
    except ValueError:
        return False
    if not _SCHEME.fullmatch(parts.scheme) or not (parts.netloc or parts.path):
        return False
    return parts.scheme not in ("http", "https") or bool(host)


def _is_date(text: str) -> bool:
    if not _DATE.fullmatch(text):
        return False
    try:
        date.fromisoformat(text)
    except ValueError:
        return False
    return True


def _is_date_time(text: str) -> bool:
    # fromisoformat alone would take a bare date or an hour without minutes
    if not _DATE_TIME_START.match(text):
        return False
    try:
        datetime.fromisoformat(text)
    except ValueError:
        return False
    return True


_FORMAT_CHECKS: dict[str, Callable[[str], bool]] = {
    "email": _is_email,
    "uri": _is_uri,
    "date": _is_date,
    "date-time": _is_date_time,
}


def _for_strings(check: Callable[[str], bool]) -> Callable[[object], bool]:
    """A jsonschema format check: formats say nothing about values that are not strings."""
    return lambda value: not isinstance(value, str) or check(value)


@functools.cache
def _format_checker() -> Any:
    from jsonschema import FormatChecker

    # our own checks: jsonschema's need optional packages for uri and date-time, and
    # would otherwise disagree with what the form accepts
    checker = FormatChecker(formats=())
    for name, check in _FORMAT_CHECKS.items():
        checker.checks(name)(_for_strings(check))
    return checker


def _num(value: float) -> str:
    text = str(int(value)) if isinstance(value, float) and value.is_integer() else str(value)
    # A hint has a few cells: 1e+21, not 1000000000000000000000.
    return text if len(text) <= _NUMBER_CELLS else f"{value:.6g}"


_NUMBER_CELLS = 12
"""The longest number a hint spells out in full."""


def _span(low: float | None, high: float | None) -> str:
    if low is not None and high is not None:
        return f"exactly {_num(low)}" if low == high else f"{_num(low)}–{_num(high)}"
    if low is not None:
        return f"at least {_num(low)}"
    if high is not None:
        return f"at most {_num(high)}"
    return ""


def _characters(count: float) -> str:
    return "character" if count == 1 else "characters"


def _options_text(options: tuple[Option, ...]) -> str:
    return ", ".join(repr(o.value) for o in options)


def _text(where: str, node: dict[str, Any], key: str) -> str | None:
    value = node.get(key)
    if value is not None and not isinstance(value, str):
        raise SchemaError(f"{where}: {key!r} must be a string, not {json_type(value)}")
    return value


def _kind(where: str, prop: dict[str, Any]) -> FieldType:
    if "$ref" in prop:
        raise SchemaError(f"{where}: $ref is not supported (inline the definition)")
    if "type" not in prop:
        for key in ("anyOf", "oneOf", "allOf"):
            if key in prop:
                advice = _ADVICE.get(key, "")
                raise SchemaError(f"{where}: keyword {key!r} is not supported{advice}")
        raise SchemaError(f"{where}: missing 'type'")
    kind = prop["type"]
    if not isinstance(kind, str):
        raise SchemaError(f"{where}: 'type' must be one type name, not {kind!r}")
    if kind == "object":
        raise SchemaError(f"{where}: nested objects are not supported (type 'object')")
    if kind == "array":
        return "multi_enum"
    if kind == "string":
        return "enum" if "enum" in prop or "oneOf" in prop else "string"
    if kind in ("integer", "number", "boolean"):
        return cast(FieldType, kind)
    raise SchemaError(f"{where}: type {kind!r} is not supported")


def _parse_property(name: str, prop: Any, required: bool) -> FieldSpec:
    where = f"property {name!r}"
    if not isinstance(prop, dict):
        raise SchemaError(f"{where}: must be an object, not {json_type(prop)}")
    kind = _kind(where, prop)
    for key in prop:
        if key in _MEANINGFUL and key not in _KEYWORDS[kind]:
            shown = prop["type"] if kind != "enum" else "string with options"
            advice = _ADVICE.get(key, "")
            raise SchemaError(f"{where}: keyword {key!r} is not supported for {shown}{advice}")
    spec = FieldSpec(
        name=name,
        type=kind,
        title=_text(where, prop, "title") or name,
        description=_text(where, prop, "description"),
        required=required,
        default=None,
    )
    if kind == "string":
        spec = _string_field(where, prop, spec)
    elif kind in ("integer", "number"):
        spec = replace(
            spec, minimum=_bound(where, prop, "minimum"), maximum=_bound(where, prop, "maximum")
        )
        _ordered(where, spec.minimum, spec.maximum, "minimum", "maximum")
    elif kind == "enum":
        spec = replace(spec, options=_options(where, prop))
    elif kind == "multi_enum":
        spec = _multi_field(where, prop, spec)
    # a null default says no more than no default at all
    if prop.get("default") is None:
        return spec
    default = _typed_default(where, spec, prop["default"])
    try:
        _check(spec, default)
    except ValueError as error:
        raise SchemaError(f"{where}: default {_short(default)} is invalid: {error}") from None
    return replace(spec, default=default)


def _string_field(where: str, prop: dict[str, Any], spec: FieldSpec) -> FieldSpec:
    fmt = prop.get("format")
    secret = fmt == "password" or prop.get("writeOnly") is True
    if fmt is not None and fmt != "password" and fmt not in _FORMATS:
        supported = ", ".join(_FORMATS)
        raise SchemaError(f"{where}: unknown format {fmt!r} (supported: {supported})")
    spec = replace(
        spec,
        min_length=_count(where, prop, "minLength"),
        max_length=_count(where, prop, "maxLength"),
        format=None if fmt == "password" else fmt,
        secret=secret,
    )
    _ordered(where, spec.min_length, spec.max_length, "minLength", "maxLength")
    return spec


def _multi_field(where: str, prop: dict[str, Any], spec: FieldSpec) -> FieldSpec:
    items = prop.get("items")
    if not isinstance(items, dict) or not ("enum" in items or "anyOf" in items):
        raise SchemaError(
            f"{where}: arrays are only supported as a multi-select of string options "
            "('items' needs 'enum' or 'anyOf')"
        )
    for key in items:
        if key in _MEANINGFUL and key not in ("type", "enum", "anyOf"):
            raise SchemaError(f"{where}: keyword {key!r} is not supported in 'items'")
    if items.get("type", "string") != "string":
        raise SchemaError(f"{where}: options must be strings, not {items['type']!r}")
    spec = replace(
        spec,
        options=_options(where, items),
        min_items=_count(where, prop, "minItems"),
        max_items=_count(where, prop, "maxItems"),
    )
    _ordered(where, spec.min_items, spec.max_items, "minItems", "maxItems")
    if spec.min_items is not None and spec.min_items > len(spec.options):
        raise SchemaError(
            f"{where}: minItems ({spec.min_items}) is more than the {len(spec.options)} options"
        )
    return spec


def _options(where: str, node: dict[str, Any]) -> tuple[Option, ...]:
    """Options from `enum` (with legacy `enumNames`) or a titled `oneOf`/`anyOf` of consts."""
    keys = [key for key in ("enum", "oneOf", "anyOf") if key in node]
    if len(keys) > 1:
        raise SchemaError(f"{where}: use one of 'enum', 'oneOf' or 'anyOf', not several")
    key = keys[0]
    entries = node[key]
    if not isinstance(entries, list) or not entries:
        raise SchemaError(f"{where}: {key!r} must be a non-empty list")
    if key == "enum":
        names = node.get("enumNames", entries)
        if not isinstance(names, list) or len(names) != len(entries):
            raise SchemaError(f"{where}: 'enumNames' must list one name per enum value")
        pairs = [
            (_option_value(where, value), name) for value, name in zip(entries, names, strict=True)
        ]
        options = [Option(label=_label(where, name, value), value=value) for value, name in pairs]
    else:
        options = [_const_option(where, key, entry) for entry in entries]
    seen: set[str] = set()
    for option in options:
        if option.value in seen:
            raise SchemaError(f"{where}: option {option.value!r} appears more than once")
        seen.add(option.value)
    return tuple(options)


def _option_value(where: str, value: Any) -> str:
    # a form reads an empty enum value as nothing picked: "" could not come back as itself
    if not isinstance(value, str) or not value:
        raise SchemaError(f"{where}: option values must be non-empty strings, not {value!r}")
    return value


def _label(where: str, label: Any, value: str) -> str:
    if not isinstance(label, str):
        raise SchemaError(f"{where}: option titles must be strings, not {label!r}")
    shown: str = label or value
    if not shown.strip():
        raise SchemaError(f"{where}: option {value!r} has a blank title")
    return shown


def _const_option(where: str, key: str, entry: Any) -> Option:
    if not isinstance(entry, dict) or "const" not in entry:
        raise SchemaError(f"{where}: each {key!r} entry must be an object with 'const'")
    for name in entry:
        if name in _MEANINGFUL and name != "const":
            raise SchemaError(f"{where}: keyword {name!r} is not supported in {key!r} entries")
    value = _option_value(where, entry["const"])
    description = _text(where, entry, "description")
    return Option(
        label=_label(where, entry.get("title", value), value),
        value=value,
        description=description,
    )


def _count(where: str, prop: dict[str, Any], key: str) -> int | None:
    value = prop.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise SchemaError(f"{where}: {key!r} must be a whole number >= 0, not {_short(value)}")
    return value


def _bound(where: str, prop: dict[str, Any], key: str) -> float | None:
    value = prop.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not _finite(value):
        raise SchemaError(f"{where}: {key!r} must be a number, not {_short(value)}")
    return float(value) if isinstance(value, float) else int(value)


def _finite(value: Any) -> bool:
    """True for an int or float a float can hold: not inf or NaN, not an int like 10**400."""
    if isinstance(value, float):
        return math.isfinite(value)
    return isinstance(value, int) and abs(value) <= sys.float_info.max


def _short(value: Any) -> str:
    """`value`'s repr, cut to a readable length (an int of 5,000 digits has no repr at all)."""
    if isinstance(value, int) and not isinstance(value, bool) and not _finite(value):
        return f"an integer of about {int(value.bit_length() * math.log10(2)) + 1} digits"
    text = repr(value)
    return text if len(text) <= 60 else f"{text[:57]}..."


def _ordered(
    where: str, low: float | None, high: float | None, low_key: str, high_key: str
) -> None:
    if low is not None and high is not None and low > high:
        raise SchemaError(
            f"{where}: {low_key} ({_num(low)}) is greater than {high_key} ({_num(high)})"
        )


def _typed_default(where: str, spec: FieldSpec, value: Any) -> Any:
    """The schema's default as content holds it; SchemaError when it has the wrong type."""
    if spec.type == "integer" and isinstance(value, float) and value.is_integer():
        return int(value)
    types, wanted = _DEFAULT_TYPES[spec.type]
    # bool is an int to Python, but not a number to JSON Schema
    wrong_bool = isinstance(value, bool) and spec.type != "boolean"
    not_finite = isinstance(value, int | float) and not wrong_bool and not _finite(value)
    # option values are strings: anything else in a list (a dict, a list) is no option
    not_options = isinstance(value, list) and not all(isinstance(item, str) for item in value)
    if wrong_bool or not_finite or not_options or not isinstance(value, types):
        raise SchemaError(f"{where}: default {_short(value)} is not {wanted}")
    return list(value) if isinstance(value, list) else value


def _coerce(field: FieldSpec, raw: str | bool | list[str] | None) -> Any:
    """What a widget holds as the field's type, or None when it holds nothing."""
    if raw is None:
        return None
    if field.type == "boolean":
        if not isinstance(raw, bool):
            raise TypeError(f"field {field.name!r} takes a bool, not {type(raw).__name__}")
        return raw
    if field.type == "multi_enum":
        if not isinstance(raw, list):
            raise TypeError(f"field {field.name!r} takes a list, not {type(raw).__name__}")
        picked = list(dict.fromkeys(raw))
        # nothing picked is an answer to a required question, and no answer to an optional one
        return picked if picked or field.required else None
    if not isinstance(raw, str):
        raise TypeError(f"field {field.name!r} takes a str, not {type(raw).__name__}")
    if field.type == "enum":
        return raw or None
    text = raw.strip()
    if not text:
        return None
    if field.type == "integer":
        if not _INTEGER.fullmatch(text):
            raise ValueError("must be a whole number")
        return int(text)
    if field.type == "number":
        try:
            number = float(text)
        except ValueError:
            raise ValueError("must be a number") from None
        if not math.isfinite(number):
            raise ValueError("must be a number")
        return number
    if field.format == "date-time" and _is_date_time(text):
        # RFC 3339, as JSON Schema's date-time is: with its offset, the person's own when
        # none was typed (a strict server refuses a time without one, and it is ambiguous)
        return datetime.fromisoformat(text).astimezone().isoformat()
    # plain strings are kept as typed; formatted ones lose stray spaces
    return text if field.format else raw


def _check(field: FieldSpec, value: Any) -> None:
    """ValueError with a short message when a typed value breaks the field's constraints."""
    if field.type == "string":
        if field.format and not _FORMAT_CHECKS[field.format](value):
            raise ValueError(_FORMAT_ERRORS[field.format])
        if field.min_length is not None and len(value) < field.min_length:
            raise ValueError(f"at least {field.min_length} {_characters(field.min_length)}")
        if field.max_length is not None and len(value) > field.max_length:
            raise ValueError(f"at most {field.max_length} {_characters(field.max_length)}")
    elif field.type in ("integer", "number"):
        if field.minimum is not None and value < field.minimum:
            raise ValueError(f"must be at least {_num(field.minimum)}")
        if field.maximum is not None and value > field.maximum:
            raise ValueError(f"must be at most {_num(field.maximum)}")
    elif field.type in ("enum", "multi_enum"):
        picked = value if isinstance(value, list) else [value]
        known = {option.value for option in field.options}
        for item in picked:
            if item not in known:
                raise ValueError(f"{item!r} is not one of: {_options_text(field.options)}")
        if len(set(picked)) != len(picked):
            raise ValueError("an option is picked more than once")
        if field.min_items is not None and len(picked) < field.min_items:
            raise ValueError(f"pick at least {field.min_items}")
        if field.max_items is not None and len(picked) > field.max_items:
            raise ValueError(f"pick at most {field.max_items}")


def _untypable(field: FieldSpec, value: Any) -> str | None:
    """Why no control of `field` gives `value`, of the field's JSON type, or None if one does
    (the messages are the form's own)."""
    if field.type == "number" and not _finite(value):
        return "must be a number"
    if field.type == "string" and value != field.default:
        if field.required and not value.strip():
            return "required"
        if has_line_break(value):
            return "must be one line"
    return None


def _is_number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def _pydantic_title(name: str) -> str:
    """The title pydantic gives a field; it leaves it out where a field is a $ref or a union."""
    return name.title().replace("_", " ").strip()


def _inline(where: str, node: dict[str, Any], defs: dict[str, Any]) -> dict[str, Any]:
    """The node with a `$ref` replaced by its definition, the node's own keys winning."""
    if "$ref" not in node:
        return node
    ref = node["$ref"]
    target = defs.get(str(ref).removeprefix("#/$defs/")) if isinstance(defs, dict) else None
    if not isinstance(target, dict):
        raise SchemaError(f"{where}: cannot resolve $ref {ref!r}")
    # the definition's title names the type (an Enum class), not this field
    inlined = {key: value for key, value in target.items() if key != "title"}
    return inlined | {key: value for key, value in node.items() if key != "$ref"}


def _property_from_model(
    name: str, prop: dict[str, Any], defs: dict[str, Any]
) -> tuple[dict[str, Any], bool]:
    """One model field as a property of the subset, and whether it accepts None."""
    where = f"property {name!r}"
    prop = dict(prop)
    nullable = False
    if "anyOf" in prop:
        branches = prop.pop("anyOf")
        if not isinstance(branches, list) or not all(isinstance(b, dict) for b in branches):
            raise SchemaError(f"{where}: anyOf must be a list of schemas")
        kept = [branch for branch in branches if branch != {"type": "null"}]
        if len(kept) != 1:
            raise SchemaError(f"{where}: unions are not supported (anyOf with {len(kept)} types)")
        nullable = len(kept) < len(branches)
        prop = _inline(where, kept[0], defs) | prop
    prop = _inline(where, prop, defs)
    if prop.get("default", 0) is None:
        del prop["default"]
    if isinstance(prop.get("items"), dict):
        prop["items"] = _inline(where, prop["items"], defs)
    if "const" in prop:  # a Literal with a single value
        prop["enum"] = [prop.pop("const")]
    for bound in ("exclusiveMinimum", "exclusiveMaximum"):
        if bound in prop and not _is_number(prop[bound]):
            raise SchemaError(f"{where}: {bound} must be a number")
    if prop.get("type") == "integer":
        if "exclusiveMinimum" in prop:
            low = math.floor(prop.pop("exclusiveMinimum")) + 1
            given = prop.get("minimum", low)
            prop["minimum"] = max(low, given) if _is_number(given) else given
        if "exclusiveMaximum" in prop:
            high = math.ceil(prop.pop("exclusiveMaximum")) - 1
            given = prop.get("maximum", high)
            prop["maximum"] = min(high, given) if _is_number(given) else given
    elif "exclusiveMinimum" in prop or "exclusiveMaximum" in prop:
        raise SchemaError(f"{where}: gt/lt bounds are only supported on integers (use ge/le)")
    if prop.get("format") == "password" or prop.get("writeOnly") is True:
        # pydantic shows a SecretStr default masked; a secret is never offered pre-filled
        prop.pop("default", None)
    prop.setdefault("title", _pydantic_title(name))
    return prop, nullable
