"""A model's fields under the names its JSON gives them: what a form made from it asks with,
and what validating that JSON reads back."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel
from pydantic.fields import FieldInfo


def json_name(name: str, info: FieldInfo) -> str:
    """The name the field `name` has in its model's JSON: its validation alias where that is
    one name, else its alias, else `name`."""
    alias = info.validation_alias
    return alias if isinstance(alias, str) else info.alias or name


def fields_by_json_name(model: BaseModel) -> dict[str, Any]:
    """Each field's value of `model`, as it is (a `SecretStr` still one), keyed by its
    `json_name`: read back by the model whatever its `populate_by_name` says."""
    return {
        json_name(name, info): getattr(model, name)
        for name, info in type(model).model_fields.items()
    }
