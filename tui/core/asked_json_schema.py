"""pydantic's JSON schema of a model as a form asks for its fields: a `Decimal` as a number."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from pydantic.json_schema import GenerateJsonSchema, JsonSchemaValue
from pydantic_core import core_schema


class AskedJsonSchema(GenerateJsonSchema):
    """pydantic's own schema, but for a `Decimal`: pydantic says a number or a string (the
    text it also reads one from), a union no form field is, where a person types a number
    and the model makes it a `Decimal`."""

    def decimal_schema(self, schema: core_schema.DecimalSchema) -> JsonSchemaValue:
        number: JsonSchemaValue = super().decimal_schema(schema)["anyOf"][0]
        return number

    def encode_default(self, dft: Any) -> Any:
        # A Decimal's default as the number its field is asked as, not pydantic's text of it.
        return float(dft) if isinstance(dft, Decimal) else super().encode_default(dft)
