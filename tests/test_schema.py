"""The requestedSchema subset: what is accepted, what is refused, and how content is built."""

from __future__ import annotations

import re
import string
import subprocess
import sys
import time
from datetime import datetime
from typing import Any

import jsonschema
import pydantic
import pytest
from hypothesis import given
from hypothesis import strategies as st
from schemas import EVERYTHING

from tui.core.models import FormRequest, Option, parse_request
from tui.core.schema import (
    FieldSpec,
    FormSpec,
    SchemaError,
    build_content,
    default_content,
    parse_schema,
    parse_value,
    validate_content,
)


def _schema(prop: Any, *, required: bool = False) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "object", "properties": {"p": prop}}
    if required:
        schema["required"] = ["p"]
    return schema


def _field(prop: dict[str, Any], *, required: bool = False) -> FieldSpec:
    (field,) = parse_schema(_schema(prop, required=required)).fields
    return field


def _spec(**changes: Any) -> FieldSpec:
    """The FieldSpec of property `p`, untitled and optional unless `changes` say otherwise."""
    base: dict[str, Any] = {
        "name": "p",
        "title": "p",
        "description": None,
        "required": False,
        "default": None,
    }
    return FieldSpec(**(base | changes))


def _options(*pairs: tuple[str, str]) -> tuple[Option, ...]:
    return tuple(Option(label=label, value=value) for label, value in pairs)


ABC = _options(("a", "a"), ("b", "b"), ("c", "c"))

ACCEPTED = [
    pytest.param({"type": "string"}, _spec(type="string"), id="plain string"),
    pytest.param(
        {
            "type": "string",
            "title": "Name",
            "description": "Your name",
            "minLength": 3,
            "maxLength": 50,
            "default": "Ada",
        },
        _spec(
            type="string",
            title="Name",
            description="Your name",
            min_length=3,
            max_length=50,
            default="Ada",
        ),
        id="string with everything",
    ),
    pytest.param(
        {"type": "string", "format": "email", "default": "ada@example.com"},
        _spec(type="string", format="email", default="ada@example.com"),
        id="email",
    ),
    pytest.param(
        {"type": "string", "format": "uri", "default": "https://example.com/x"},
        _spec(type="string", format="uri", default="https://example.com/x"),
        id="uri",
    ),
    pytest.param(
        {"type": "string", "format": "date", "default": "2024-02-29"},
        _spec(type="string", format="date", default="2024-02-29"),
        id="date",
    ),
    pytest.param(
        {"type": "string", "format": "date-time", "default": "2024-02-29T10:30:00Z"},
        _spec(type="string", format="date-time", default="2024-02-29T10:30:00Z"),
        id="date-time",
    ),
    pytest.param(
        {"type": "string", "format": "password", "minLength": 8},
        _spec(type="string", secret=True, min_length=8),
        id="secret by format password",
    ),
    pytest.param(
        {"type": "string", "writeOnly": True},
        _spec(type="string", secret=True),
        id="secret by writeOnly",
    ),
    pytest.param(
        {"type": "integer", "minimum": 1, "maximum": 100, "default": 42},
        _spec(type="integer", minimum=1, maximum=100, default=42),
        id="integer",
    ),
    pytest.param(
        {"type": "integer", "minimum": 0.5, "default": 3.0},
        _spec(type="integer", minimum=0.5, default=3),
        id="integer with a fractional minimum and an integral float default",
    ),
    pytest.param(
        {"type": "number", "minimum": 0, "maximum": 1000, "default": 3.14},
        _spec(type="number", minimum=0, maximum=1000, default=3.14),
        id="number",
    ),
    pytest.param(
        {"type": "boolean", "default": False},
        _spec(type="boolean", default=False),
        id="boolean",
    ),
    pytest.param(
        {"type": "string", "enum": ["a", "b", "c"], "default": "b"},
        _spec(type="enum", options=ABC, default="b"),
        id="untitled single select",
    ),
    pytest.param(
        {
            "type": "string",
            "oneOf": [
                {"const": "h1", "title": "Superman", "description": "flies"},
                {"const": "h2", "title": "Batman"},
                {"const": "h3"},
            ],
        },
        _spec(
            type="enum",
            options=(
                Option(label="Superman", value="h1", description="flies"),
                Option(label="Batman", value="h2"),
                Option(label="h3", value="h3"),
            ),
        ),
        id="titled single select",
    ),
    pytest.param(
        {"type": "string", "enum": ["p1", "p2"], "enumNames": ["Cats", "Dogs"]},
        _spec(type="enum", options=_options(("Cats", "p1"), ("Dogs", "p2"))),
        id="legacy enumNames",
    ),
    pytest.param(
        {
            "type": "array",
            "items": {"type": "string", "enum": ["a", "b", "c"]},
            "minItems": 1,
            "maxItems": 2,
            "uniqueItems": True,
            "default": ["a"],
        },
        _spec(type="multi_enum", options=ABC, min_items=1, max_items=2, default=["a"]),
        id="untitled multi select",
    ),
    pytest.param(
        {
            "type": "array",
            "items": {"anyOf": [{"const": "f1", "title": "Tuna"}, {"const": "f2", "title": "Cod"}]},
        },
        _spec(type="multi_enum", options=_options(("Tuna", "f1"), ("Cod", "f2"))),
        id="titled multi select",
    ),
    pytest.param(
        {
            "type": "string",
            "examples": ["x"],
            "$comment": "why",
            "deprecated": False,
            "readOnly": False,
            "x-widget": "wide",
            "placeholder": "anything",
        },
        _spec(type="string"),
        id="annotations are ignored",
    ),
    pytest.param(
        {"type": "integer", "default": None},
        _spec(type="integer"),
        id="a null default is no default",
    ),
]


@pytest.mark.parametrize(("prop", "expected"), ACCEPTED)
def test_accepted_property_becomes_field_spec(prop: dict[str, Any], expected: FieldSpec) -> None:
    assert _field(prop) == expected


def test_required_is_read_from_the_top_level_list() -> None:
    assert _field({"type": "string"}, required=True).required is True


def test_top_level_title_description_and_harmless_keys() -> None:
    spec = parse_schema(
        {
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "type": "object",
            "title": "Contact",
            "description": "How to reach you",
            "additionalProperties": False,
            "properties": {"b": {"type": "string"}, "a": {"type": "boolean"}},
        }
    )
    assert (spec.title, spec.description) == ("Contact", "How to reach you")
    assert [field.name for field in spec.fields] == ["b", "a"]


def test_a_form_without_properties_has_no_fields() -> None:
    assert parse_schema({"type": "object"}) == FormSpec(title=None, description=None, fields=())


REFUSED = [
    pytest.param(["not", "a", "dict"], "schema: must be an object", id="schema not a dict"),
    pytest.param({"type": "array"}, "top-level type must be 'object', not 'array'", id="array"),
    pytest.param(
        {"properties": {}}, "top-level type must be 'object', not None", id="schema without type"
    ),
    pytest.param(
        {"type": "object", "allOf": [{}]}, "schema: keyword 'allOf' is not supported", id="allOf"
    ),
    pytest.param({"type": "object", "$defs": {}}, "keyword '$defs' is not supported", id="$defs"),
    pytest.param(
        {"type": "object", "additionalProperties": {"type": "string"}},
        "'additionalProperties' may only be true or false",
        id="additionalProperties schema",
    ),
    pytest.param(
        {"type": "object", "properties": [], "required": []},
        "'properties' must be an object",
        id="properties not a dict",
    ),
    pytest.param(
        {"type": "object", "properties": {}, "required": "ghost"},
        "'required' must be a list of property names",
        id="required not a list",
    ),
    pytest.param(
        {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["ghost"]},
        "property 'ghost': listed in 'required' but not defined",
        id="required names unknown property",
    ),
    pytest.param(
        {"type": "object", "properties": {"address": {"type": "object", "properties": {}}}},
        "property 'address': nested objects are not supported (type 'object')",
        id="nested object",
    ),
    pytest.param(
        _schema({"$ref": "#/$defs/Color"}), "property 'p': $ref is not supported", id="$ref"
    ),
    pytest.param(
        _schema("string"), "property 'p': must be an object, not string", id="property not a dict"
    ),
    pytest.param(
        _schema({"title": "x"}), "property 'p': missing 'type'", id="property without type"
    ),
    pytest.param(
        _schema({"anyOf": [{"type": "string"}, {"type": "null"}]}),
        "property 'p': keyword 'anyOf' is not supported (for an optional field",
        id="nullable via anyOf",
    ),
    pytest.param(
        _schema({"type": ["string", "null"]}),
        "property 'p': 'type' must be one type name, not ['string', 'null']",
        id="type list",
    ),
    pytest.param(
        _schema({"type": "date"}), "property 'p': type 'date' is not supported", id="unknown type"
    ),
    pytest.param(
        _schema({"type": "null"}), "property 'p': type 'null' is not supported", id="null type"
    ),
    pytest.param(
        _schema({"type": "array", "items": {"type": "string"}}),
        "property 'p': arrays are only supported as a multi-select of string options",
        id="array of free strings",
    ),
    pytest.param(
        _schema({"type": "array"}),
        "property 'p': arrays are only supported as a multi-select",
        id="array without items",
    ),
    pytest.param(
        _schema({"type": "array", "items": {"type": "integer", "enum": [1, 2]}}),
        "property 'p': options must be strings, not 'integer'",
        id="array of integer options",
    ),
    pytest.param(
        _schema({"type": "array", "items": {"enum": ["a"], "minLength": 1}}),
        "property 'p': keyword 'minLength' is not supported in 'items'",
        id="constraint inside items",
    ),
    pytest.param(
        _schema({"type": "string", "format": "phone"}),
        "property 'p': unknown format 'phone' (supported: email, uri, date, date-time)",
        id="unknown format",
    ),
    pytest.param(
        _schema({"type": "string", "pattern": "^a"}),
        "property 'p': keyword 'pattern' is not supported for string",
        id="pattern",
    ),
    pytest.param(
        _schema({"type": "integer", "minLength": 1}),
        "property 'p': keyword 'minLength' is not supported for integer",
        id="keyword of another type",
    ),
    pytest.param(
        _schema({"type": "number", "exclusiveMinimum": 0}),
        "property 'p': keyword 'exclusiveMinimum' is not supported for number",
        id="exclusiveMinimum",
    ),
    pytest.param(
        _schema({"type": "string", "enum": ["a"], "format": "email"}),
        "property 'p': keyword 'format' is not supported for string with options",
        id="format on options",
    ),
    pytest.param(
        _schema({"type": "string", "required": True}),
        "property 'p': keyword 'required' is not supported for string here (list required",
        id="draft 3 required",
    ),
    pytest.param(
        _schema({"type": "string", "default": 5}),
        "property 'p': default 5 is not a string",
        id="string default of wrong type",
    ),
    pytest.param(
        _schema({"type": "integer", "default": "5"}),
        "property 'p': default '5' is not a whole number",
        id="integer default string",
    ),
    pytest.param(
        _schema({"type": "integer", "default": True}),
        "property 'p': default True is not a whole number",
        id="integer default bool",
    ),
    pytest.param(
        _schema({"type": "integer", "default": 2.5}),
        "property 'p': default 2.5 is not a whole number",
        id="integer default fraction",
    ),
    pytest.param(
        _schema({"type": "number", "default": "x"}),
        "property 'p': default 'x' is not a number",
        id="number default string",
    ),
    pytest.param(
        _schema({"type": "boolean", "default": "yes"}),
        "property 'p': default 'yes' is not true or false",
        id="boolean default string",
    ),
    pytest.param(
        _schema({"type": "string", "enum": ["a", "b"], "default": "z"}),
        "property 'p': default 'z' is invalid: 'z' is not one of: 'a', 'b'",
        id="enum default not an option",
    ),
    pytest.param(
        _schema({"type": "array", "items": {"enum": ["a"]}, "default": "a"}),
        "property 'p': default 'a' is not a list",
        id="multi default not a list",
    ),
    pytest.param(
        _schema({"type": "array", "items": {"enum": ["a"]}, "default": ["z"]}),
        "property 'p': default ['z'] is invalid: 'z' is not one of: 'a'",
        id="multi default not an option",
    ),
    pytest.param(
        _schema(
            {"type": "array", "items": {"enum": ["a", "b"]}, "maxItems": 1, "default": ["a", "b"]}
        ),
        "property 'p': default ['a', 'b'] is invalid: pick at most 1",
        id="multi default too many",
    ),
    pytest.param(
        _schema({"type": "string", "minLength": 3, "default": "ab"}),
        "property 'p': default 'ab' is invalid: at least 3 characters",
        id="string default too short",
    ),
    pytest.param(
        _schema({"type": "integer", "maximum": 100, "default": 200}),
        "property 'p': default 200 is invalid: must be at most 100",
        id="integer default above maximum",
    ),
    pytest.param(
        _schema({"type": "string", "format": "email", "default": "nobody"}),
        "property 'p': default 'nobody' is invalid: not an email address",
        id="email default invalid",
    ),
    pytest.param(
        _schema({"type": "string", "minLength": 5, "maxLength": 3}),
        "property 'p': minLength (5) is greater than maxLength (3)",
        id="minLength > maxLength",
    ),
    pytest.param(
        _schema({"type": "number", "minimum": 5.5, "maximum": 1}),
        "property 'p': minimum (5.5) is greater than maximum (1)",
        id="minimum > maximum",
    ),
    pytest.param(
        _schema({"type": "array", "items": {"enum": ["a", "b"]}, "minItems": 2, "maxItems": 1}),
        "property 'p': minItems (2) is greater than maxItems (1)",
        id="minItems > maxItems",
    ),
    pytest.param(
        _schema({"type": "array", "items": {"enum": ["a", "b"]}, "minItems": 3}),
        "property 'p': minItems (3) is more than the 2 options",
        id="minItems beyond the options",
    ),
    pytest.param(
        _schema({"type": "string", "minLength": -1}),
        "property 'p': 'minLength' must be a whole number >= 0, not -1",
        id="negative minLength",
    ),
    pytest.param(
        _schema({"type": "string", "maxLength": "3"}),
        "property 'p': 'maxLength' must be a whole number >= 0, not '3'",
        id="maxLength string",
    ),
    pytest.param(
        _schema({"type": "integer", "minimum": "0"}),
        "property 'p': 'minimum' must be a number, not '0'",
        id="minimum string",
    ),
    pytest.param(
        _schema({"type": "string", "enum": []}),
        "property 'p': 'enum' must be a non-empty list",
        id="empty enum",
    ),
    pytest.param(
        _schema({"type": "string", "enum": [1, 2]}),
        "property 'p': option values must be non-empty strings, not 1",
        id="enum of numbers",
    ),
    pytest.param(
        _schema({"type": "string", "enum": ["", "a"]}),
        "property 'p': option values must be non-empty strings, not ''",
        id="empty enum value",
    ),
    pytest.param(
        _schema({"type": "string", "enum": ["a", "a"]}),
        "property 'p': option 'a' appears more than once",
        id="duplicate enum value",
    ),
    pytest.param(
        _schema({"type": "string", "enum": ["a", "b"], "enumNames": ["A"]}),
        "property 'p': 'enumNames' must list one name per enum value",
        id="enumNames too short",
    ),
    pytest.param(
        _schema({"type": "string", "enum": ["a"], "oneOf": [{"const": "a"}]}),
        "property 'p': use one of 'enum', 'oneOf' or 'anyOf', not several",
        id="enum and oneOf",
    ),
    pytest.param(
        _schema({"type": "string", "oneOf": [{"title": "A"}]}),
        "property 'p': each 'oneOf' entry must be an object with 'const'",
        id="oneOf entry without const",
    ),
    pytest.param(
        _schema({"type": "string", "oneOf": [{"const": "a", "title": 1}]}),
        "property 'p': option titles must be strings, not 1",
        id="oneOf title not a string",
    ),
    pytest.param(
        _schema({"type": "string", "oneOf": [{"const": "a", "title": " "}]}),
        "property 'p': option 'a' has a blank title",
        id="oneOf title blank",
    ),
    pytest.param(
        _schema({"type": "string", "title": 7}),
        "property 'p': 'title' must be a string, not number",
        id="title not a string",
    ),
]


@pytest.mark.parametrize(("schema", "message"), REFUSED)
def test_refused_schema_names_property_and_reason(schema: Any, message: str) -> None:
    with pytest.raises(SchemaError) as caught:
        parse_schema(schema)
    assert message in str(caught.value)


PYDANTIC_JSON = ("$defs", "$ref", "nullable via anyOf")
"""Refused by `parse_schema`, but a form request takes them as pydantic's own schema of a
flat model (tests/test_adapter_gaps.py)."""


@pytest.mark.parametrize(
    ("schema", "message"),
    [p for p in REFUSED if p.id != "schema not a dict" and p.id not in PYDANTIC_JSON],
)
def test_refused_schema_fails_the_form_request(schema: Any, message: str) -> None:
    with pytest.raises(pydantic.ValidationError) as caught:
        parse_request({"kind": "form", "message": "m", "requestedSchema": schema})
    assert message in str(caught.value)
    assert "requestedSchema" in str(caught.value)


@pytest.mark.parametrize(
    ("schema", "message"),
    [
        ({"required": 5}, "schema: 'required' must be a list of property names"),
        ({"required": [["a"]]}, "schema: 'required' must be a list of property names"),
        ({"properties": []}, "schema: 'properties' must be an object, not array"),
        ({"properties": None}, "schema: 'properties' must be an object, not null"),
    ],
)
def test_a_pydantic_style_schema_of_the_wrong_shape_is_refused_as_invalid(
    schema: dict[str, Any], message: str
) -> None:
    # With `$defs`, read as pydantic writes it: TypeError and AttributeError escaped.
    with pytest.raises(pydantic.ValidationError, match=re.escape(message)):
        FormRequest(message="m", requested_schema={"type": "object", "$defs": {}, **schema})


def test_importing_schema_loads_neither_textual_nor_jsonschema() -> None:
    code = (
        "import sys, tui.core.schema; print(sorted({'textual', 'jsonschema'} & set(sys.modules)))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "[]"


def test_schema_error_is_a_value_error() -> None:
    assert issubclass(SchemaError, ValueError)


PARSED = [
    pytest.param({"type": "string"}, "  Ada Lovelace ", "  Ada Lovelace ", id="string verbatim"),
    pytest.param({"type": "string"}, "   ", None, id="blank string is empty"),
    pytest.param({"type": "string"}, None, None, id="None is empty"),
    pytest.param({"type": "string", "format": "email"}, " a@b.co ", "a@b.co", id="email"),
    pytest.param({"type": "string", "format": "uri"}, "mailto:a@b.co", "mailto:a@b.co", id="uri"),
    pytest.param({"type": "string", "format": "date"}, "2024-02-29", "2024-02-29", id="date"),
    pytest.param(
        {"type": "string", "format": "date-time"},
        "2024-02-29 10:30",
        datetime(2024, 2, 29, 10, 30).astimezone().isoformat(),  # with the local offset
        id="date-time normalised",
    ),
    pytest.param(
        {"type": "string", "format": "date-time"},
        "2024-02-29T10:30:00Z",
        "2024-02-29T10:30:00+00:00",
        id="date-time with Z",
    ),
    pytest.param({"type": "integer"}, " -12 ", -12, id="integer"),
    pytest.param({"type": "integer"}, "", None, id="empty integer"),
    pytest.param({"type": "number"}, "2.5", 2.5, id="number"),
    pytest.param({"type": "number"}, "3", 3.0, id="number from whole"),
    pytest.param({"type": "boolean"}, False, False, id="boolean false is a value"),
    pytest.param({"type": "string", "enum": ["a", "b"]}, "b", "b", id="enum"),
    pytest.param({"type": "string", "enum": ["a", "b"]}, "", None, id="enum unpicked"),
    pytest.param(
        {"type": "array", "items": {"enum": ["a", "b", "c"]}},
        ["c", "a", "c"],
        ["c", "a"],
        id="multi keeps order, drops repeats",
    ),
    pytest.param(
        {"type": "array", "items": {"enum": ["a", "b"]}}, [], None, id="optional multi empty"
    ),
]


@pytest.mark.parametrize(("prop", "raw", "expected"), PARSED)
def test_parse_value_types_the_raw_value(prop: dict[str, Any], raw: Any, expected: Any) -> None:
    value = parse_value(_field(prop), raw)
    assert value == expected
    assert type(value) is type(expected)


def test_required_multi_select_may_pick_nothing() -> None:
    field = _field({"type": "array", "items": {"enum": ["a"]}}, required=True)
    assert parse_value(field, []) == []


PARSE_ERRORS = [
    pytest.param({"type": "integer"}, "3.5", "must be a whole number", id="fraction"),
    pytest.param({"type": "integer"}, "ten", "must be a whole number", id="words"),
    pytest.param({"type": "number"}, "abc", "must be a number", id="not a number"),
    pytest.param({"type": "number"}, "nan", "must be a number", id="nan"),
    pytest.param({"type": "integer", "minimum": 3}, "2", "must be at least 3", id="below"),
    pytest.param({"type": "number", "maximum": 1.5}, "2", "must be at most 1.5", id="above"),
    pytest.param({"type": "string", "minLength": 3}, "ab", "at least 3 characters", id="short"),
    pytest.param({"type": "string", "maxLength": 1}, "ab", "at most 1 character", id="long"),
    pytest.param({"type": "string", "format": "email"}, "a@b", "not an email address", id="@"),
    pytest.param(
        {"type": "string", "format": "email"}, "a b@c.de", "not an email address", id="space"
    ),
    pytest.param(
        {"type": "string", "format": "uri"}, "example.com", "not a URL", id="uri no scheme"
    ),
    pytest.param({"type": "string", "format": "uri"}, "https://", "not a URL", id="uri no host"),
    pytest.param(
        {"type": "string", "format": "date"}, "2023-02-29", "not a date (YYYY-MM-DD)", id="Feb 29"
    ),
    pytest.param(
        {"type": "string", "format": "date"}, "20240101", "not a date (YYYY-MM-DD)", id="basic"
    ),
    pytest.param(
        {"type": "string", "format": "date-time"},
        "2024-01-01",
        "not a date and time (YYYY-MM-DD HH:MM)",
        id="date-time without time",
    ),
    pytest.param(
        {"type": "string", "format": "date-time"},
        "2024-01-01T25:00",
        "not a date and time",
        id="hour 25",
    ),
    pytest.param(
        {"type": "string", "enum": ["a", "b"]}, "z", "'z' is not one of: 'a', 'b'", id="enum"
    ),
    pytest.param(
        {"type": "array", "items": {"enum": ["a", "b"]}, "minItems": 2},
        ["a"],
        "pick at least 2",
        id="too few",
    ),
    pytest.param(
        {"type": "array", "items": {"enum": ["a", "b"]}, "maxItems": 1},
        ["a", "b"],
        "pick at most 1",
        id="too many",
    ),
]


def test_a_date_time_typed_without_an_offset_gets_the_persons_own(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # RFC 3339 needs one; without it, a strict server refused "2024-02-29T10:30:00".
    monkeypatch.setenv("TZ", "Asia/Kolkata")
    time.tzset()
    try:
        value = parse_value(_field({"type": "string", "format": "date-time"}), "2024-02-29 10:30")
    finally:
        monkeypatch.undo()
        time.tzset()
    assert value == "2024-02-29T10:30:00+05:30"


@pytest.mark.parametrize(("prop", "raw", "message"), PARSE_ERRORS)
def test_parse_value_says_what_to_fix(prop: dict[str, Any], raw: Any, message: str) -> None:
    with pytest.raises(ValueError) as caught:
        parse_value(_field(prop), raw)
    assert str(caught.value).startswith(message)


@pytest.mark.parametrize(
    ("prop", "raw"),
    [
        ({"type": "string"}, ""),
        ({"type": "integer"}, " "),
        ({"type": "boolean"}, None),
        ({"type": "string", "enum": ["a"]}, None),
        ({"type": "array", "items": {"enum": ["a"]}}, None),
    ],
)
def test_parse_value_empty_required_field(prop: dict[str, Any], raw: Any) -> None:
    with pytest.raises(ValueError, match=r"^required$"):
        parse_value(_field(prop, required=True), raw)


def test_parse_value_refuses_a_widget_value_of_the_wrong_kind() -> None:
    with pytest.raises(TypeError, match="field 'p' takes a bool"):
        parse_value(_field({"type": "boolean"}), "yes")


FORM = {
    "type": "object",
    "properties": {
        "name": {"type": "string", "minLength": 2},
        "age": {"type": "integer", "minimum": 0, "default": 30},
        "nick": {"type": "string"},
        "tags": {"type": "array", "items": {"enum": ["x", "y"]}, "default": ["x"]},
        "email": {"type": "string", "format": "email"},
    },
    "required": ["name", "email"],
}


def test_build_content_coerces_omits_empty_and_fills_defaults() -> None:
    content, errors = build_content(
        parse_schema(FORM), {"name": "Ada", "age": "36", "nick": "", "email": "ada@example.com"}
    )
    assert errors == {}
    assert content == {"name": "Ada", "age": 36, "tags": ["x"], "email": "ada@example.com"}
    validate_content(FORM, content)


def test_build_content_reports_errors_by_field() -> None:
    content, errors = build_content(parse_schema(FORM), {"name": "A", "age": "-1", "nick": "n"})
    assert errors == {
        "name": "at least 2 characters",
        "age": "must be at least 0",
        "email": "required",
    }
    assert content == {"nick": "n", "tags": ["x"]}


def test_build_content_does_not_share_list_defaults() -> None:
    spec = parse_schema(FORM)
    content, _ = build_content(spec, {})
    content["tags"].append("y")
    assert spec.fields[3].default == ["x"]


def test_default_content_names_required_fields_without_default() -> None:
    with pytest.raises(ValueError, match="no default for required fields: 'name', 'email'"):
        default_content(parse_schema(FORM))
    assert default_content(parse_schema(FORM | {"required": []})) == {"age": 30, "tags": ["x"]}


def test_form_request_default_content_goes_through_the_schema() -> None:
    request = parse_request(
        {"kind": "form", "message": "m", "requestedSchema": FORM | {"required": []}}
    )
    assert isinstance(request, FormRequest)
    assert request.default_content() == {"age": 30, "tags": ["x"]}


VALIDATION_ERRORS = [
    pytest.param({"email": "a@b.co"}, "property 'name': required", id="missing"),
    pytest.param(
        {"name": "Ada", "email": "a@b.co", "age": "36"},
        "property 'age': '36' is not of type 'integer'",
        id="wrong type",
    ),
    pytest.param(
        {"name": "Ada", "email": "not-an-email"},
        "property 'email': 'not-an-email' is not a 'email'",
        id="format",
    ),
    pytest.param(
        {"name": "Ada", "email": "a@b.co", "tags": ["z"]},
        "property 'tags': 'z' is not one of ['x', 'y']",
        id="option",
    ),
]


@pytest.mark.parametrize(("content", "message"), VALIDATION_ERRORS)
def test_validate_content_names_the_property(content: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError) as caught:
        validate_content(FORM, content)
    assert message in str(caught.value)


def test_validate_content_names_every_missing_property() -> None:
    with pytest.raises(ValueError) as caught:
        validate_content(FORM, {})
    assert str(caught.value) == "property 'name': required; property 'email': required"


@pytest.mark.parametrize(
    ("fmt", "value"),
    [
        ("uri", "https://"),
        ("uri", "no scheme"),
        ("date-time", "2024-01-01"),
        ("date-time", "yesterday"),
        ("date", "2024-13-01"),
    ],
)
def test_validate_content_checks_formats_like_the_form(fmt: str, value: str) -> None:
    with pytest.raises(ValueError, match=f"is not a '{fmt}'"):
        validate_content(_schema({"type": "string", "format": fmt}), {"p": value})


HINTS = [
    pytest.param({"type": "string", "format": "date"}, "YYYY-MM-DD", id="date"),
    pytest.param({"type": "string", "format": "date-time"}, "YYYY-MM-DD HH:MM", id="date-time"),
    pytest.param({"type": "string", "format": "email"}, "name@example.com", id="email"),
    pytest.param({"type": "string", "format": "uri", "minLength": 1}, "https://…", id="uri"),
    pytest.param({"type": "string", "minLength": 3, "maxLength": 50}, "3–50 characters", id="len"),
    pytest.param({"type": "string", "maxLength": 1}, "at most 1 character", id="max 1"),
    pytest.param({"type": "string", "minLength": 4}, "at least 4 characters", id="min len"),
    pytest.param({"type": "integer", "minimum": 1, "maximum": 100}, "1–100", id="range"),
    pytest.param({"type": "number", "minimum": 0.5}, "at least 0.5", id="minimum"),
    pytest.param({"type": "integer", "maximum": 9}, "at most 9", id="maximum"),
    pytest.param({"type": "integer", "minimum": 2, "maximum": 2}, "exactly 2", id="exact"),
    pytest.param(
        {"type": "number", "minimum": 0.001, "maximum": 1e21}, "0.001–1e+21", id="huge bound"
    ),
    pytest.param(
        {"type": "integer", "minimum": 1, "maximum": 999_999_999_999}, "1–999999999999", id="long"
    ),
    pytest.param({"type": "integer"}, "whole number", id="integer"),
    pytest.param({"type": "number"}, "", id="number"),
    pytest.param({"type": "boolean"}, "", id="boolean"),
    pytest.param(
        {"type": "array", "items": {"enum": ["a", "b", "c"]}, "minItems": 1, "maxItems": 3},
        "pick 1–3",
        id="pick range",
    ),
    pytest.param({"type": "array", "items": {"enum": ["a"]}}, "", id="pick any"),
    pytest.param(
        {"type": "string", "format": "email", "maxLength": 40},
        "name@example.com, at most 40 characters",
        id="format and length",
    ),
]


@pytest.mark.parametrize(("prop", "hint"), HINTS)
def test_hint(prop: dict[str, Any], hint: str) -> None:
    assert _field(prop).hint() == hint


def test_everything_server_schema() -> None:
    spec = parse_schema(EVERYTHING)
    fields = {field.name: field for field in spec.fields}
    assert list(fields) == list(EVERYTHING["properties"])
    assert {name: field.type for name, field in fields.items()} == {
        "name": "string",
        "check": "boolean",
        "firstLine": "string",
        "email": "string",
        "homepage": "string",
        "birthdate": "string",
        "meeting": "string",
        "age": "integer",
        "score": "number",
        "untitledSingleSelectEnum": "enum",
        "titledSingleSelectEnum": "enum",
        "legacyTitledEnum": "enum",
        "untitledMultipleSelectEnum": "multi_enum",
        "titledMultipleSelectEnum": "multi_enum",
    }
    assert [name for name, field in fields.items() if field.required] == ["name"]
    assert [fields[n].format for n in ("email", "homepage", "birthdate", "meeting")] == [
        "email",
        "uri",
        "date",
        "date-time",
    ]
    assert (fields["age"].minimum, fields["age"].maximum, fields["age"].default) == (1, 100, 42)
    assert fields["score"].default == 3.14
    assert fields["titledSingleSelectEnum"].options[1] == Option(
        label="Green Lantern", value="hero-2"
    )
    assert [o.label for o in fields["legacyTitledEnum"].options] == ["Cats", "Dogs", "Birds"]
    assert [o.value for o in fields["untitledMultipleSelectEnum"].options][-1] == "Bass"
    assert fields["titledMultipleSelectEnum"].options[0] == Option(label="Tuna", value="fish-1")
    assert fields["titledMultipleSelectEnum"].hint() == "pick 1–3"

    with pytest.raises(ValueError, match="no default for required field: 'name'"):
        default_content(spec)
    content, errors = build_content(
        spec,
        {
            "name": "Ada",
            "check": True,
            "email": "ada@example.com",
            "homepage": "https://ada.example.com",
            "birthdate": "1815-12-10",
            "meeting": "2025-11-25 09:00",
            "untitledMultipleSelectEnum": ["Piano", "Violin"],
        },
    )
    assert errors == {}
    assert content["age"] == 42
    assert content["titledMultipleSelectEnum"] == ["fish-1"]
    validate_content(EVERYTHING, content)


# --- generated schemas of the subset -------------------------------------------------------

FORMAT_EXAMPLES = {
    "email": ["ada@example.com", "x.y+z@mail.example.org"],
    "uri": ["https://example.com/a?b=c", "mailto:ada@example.com", "urn:isbn:0451450523"],
    "date": ["2024-02-29", "1815-12-10"],
    "date-time": ["2024-02-29T10:30:00Z", "2025-11-25T09:00:00+01:00", "2025-01-01T00:00"],
}

titles = st.none() | st.text(max_size=12)
option_values = st.lists(
    st.text(min_size=1, max_size=8).filter(str.strip), min_size=1, max_size=6, unique=True
)


def _annotated(prop: dict[str, Any], title: str | None, description: str | None) -> dict[str, Any]:
    if title is not None:
        prop["title"] = title
    if description is not None:
        prop["description"] = description
    return prop


@st.composite
def string_props(draw: st.DrawFn) -> dict[str, Any]:
    fmt = draw(st.sampled_from([None, "password", *FORMAT_EXAMPLES]))
    prop: dict[str, Any] = {"type": "string"}
    if fmt is not None:
        prop["format"] = fmt
    if fmt in FORMAT_EXAMPLES:
        # every example is 10 to 30 characters long
        low, high = draw(st.none() | st.integers(0, 10)), draw(st.none() | st.integers(30, 60))
        defaults = st.sampled_from(FORMAT_EXAMPLES[fmt])
    else:
        low = draw(st.none() | st.integers(0, 10))
        high = draw(st.none() | st.integers(low or 0, 20))
        defaults = st.text(min_size=low or 0, max_size=high if high is not None else 20)
    if low is not None:
        prop["minLength"] = low
    if high is not None:
        prop["maxLength"] = high
    if draw(st.booleans()):
        prop["default"] = draw(defaults)
    return prop


@st.composite
def number_props(draw: st.DrawFn) -> dict[str, Any]:
    kind = draw(st.sampled_from(["integer", "number"]))
    values = (
        st.integers(-1000, 1000)
        if kind == "integer"
        else st.floats(-1e6, 1e6, allow_nan=False, allow_infinity=False)
    )
    low = draw(st.none() | values)
    high = draw(st.none() | values.filter(lambda v: low is None or v >= low))
    prop: dict[str, Any] = {"type": kind}
    if low is not None:
        prop["minimum"] = low
    if high is not None:
        prop["maximum"] = high
    if draw(st.booleans()):
        lo, hi = low if low is not None else -1e6, high if high is not None else 1e6
        prop["default"] = draw(
            st.integers(int(lo), int(hi))
            if kind == "integer"
            else st.floats(lo, hi, allow_nan=False, allow_infinity=False)
        )
    return prop


@st.composite
def boolean_props(draw: st.DrawFn) -> dict[str, Any]:
    prop: dict[str, Any] = {"type": "boolean"}
    if draw(st.booleans()):
        prop["default"] = draw(st.booleans())
    return prop


def _option_list(draw: st.DrawFn, values: list[str], titled_key: str) -> dict[str, Any]:
    style = draw(st.sampled_from(["enum", "titled", "enumNames"]))
    if style == "titled":
        return {titled_key: [{"const": v, "title": v.upper() or v} for v in values]}
    if style == "enumNames":
        return {"enum": values, "enumNames": [f"Name {v}" for v in values]}
    return {"enum": values}


@st.composite
def single_select_props(draw: st.DrawFn) -> dict[str, Any]:
    values = draw(option_values)
    prop: dict[str, Any] = {"type": "string", **_option_list(draw, values, "oneOf")}
    if draw(st.booleans()):
        prop["default"] = draw(st.sampled_from(values))
    return prop


@st.composite
def multi_select_props(draw: st.DrawFn) -> dict[str, Any]:
    values = draw(option_values)
    items = _option_list(draw, values, "anyOf")
    if "enum" in items and draw(st.booleans()):
        items["type"] = "string"
    prop: dict[str, Any] = {"type": "array", "items": items}
    low = draw(st.none() | st.integers(0, len(values)))
    high = draw(st.none() | st.integers(low or 0, len(values) + 2))
    if low is not None:
        prop["minItems"] = low
    if high is not None:
        prop["maxItems"] = high
    if draw(st.booleans()):
        top = len(values) if high is None else min(high, len(values))
        prop["default"] = draw(
            st.lists(st.sampled_from(values), min_size=low or 0, max_size=top, unique=True)
        )
    return prop


@st.composite
def properties(draw: st.DrawFn) -> dict[str, Any]:
    kind = st.one_of(
        string_props(), number_props(), boolean_props(), single_select_props(), multi_select_props()
    )
    return _annotated(draw(kind), draw(titles), draw(st.none() | st.text(max_size=20)))


@st.composite
def schemas(draw: st.DrawFn) -> dict[str, Any]:
    names = st.text(string.ascii_letters + "_", min_size=1, max_size=10)
    props = draw(st.dictionaries(names, properties(), max_size=8))
    required = [name for name in props if draw(st.booleans())]
    return _annotated(
        {"type": "object", "properties": props, "required": required},
        draw(titles),
        draw(st.none() | st.text(max_size=20)),
    )


@given(schemas())
def test_generated_schemas_are_accepted_and_defaults_validate(schema: dict[str, Any]) -> None:
    spec = parse_schema(schema)
    props = schema["properties"]
    assert [field.name for field in spec.fields] == list(props)

    content, errors = build_content(spec, {})
    types = {field.name: field.type for field in spec.fields}
    # Untouched, a switch is off and a checklist has nothing ticked: answers, where required.
    shown = {"boolean": False, "multi_enum": []}
    blank = {n for n in schema["required"] if "default" not in props[n] and types[n] not in shown}
    assert {n for n, message in errors.items() if message == "required"} == blank
    assert all(
        message.startswith("pick at least") for n, message in errors.items() if n not in blank
    )
    for name, prop in props.items():
        if "default" in prop:
            assert content[name] == prop["default"]
        elif types[name] == "boolean" or (types[name] == "multi_enum" and name not in errors):
            assert content.get(name, []) == shown[types[name]]
        else:
            assert name not in content
    if not errors:
        assert default_content(spec) == content
        validate_content(schema, content)
        validator = jsonschema.Draft202012Validator
        jsonschema.validate(content, schema, validator, format_checker=validator.FORMAT_CHECKER)
    else:
        with pytest.raises(ValueError, match="no default for required field"):
            default_content(spec)


@given(
    st.integers(-50, 50),
    st.integers(-50, 50),
    st.integers(-100, 100),
)
def test_typed_integers_parse_back_or_name_the_bound(low: int, high: int, value: int) -> None:
    low, high = min(low, high), max(low, high)
    field = _field({"type": "integer", "minimum": low, "maximum": high})
    if low <= value <= high:
        assert parse_value(field, str(value)) == value
    else:
        bound = f"at least {low}" if value < low else f"at most {high}"
        with pytest.raises(ValueError, match=f"^must be {bound}$"):
            parse_value(field, str(value))
