"""A model's fields under the names its JSON gives them: its aliases, where it has them."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel


def fields_by_json_name(model: BaseModel) -> dict[str, Any]:
    """Each field's value of `model`, as it is (a `SecretStr` still one), keyed by the name
    the model's JSON has for it: what validating that JSON reads back, whatever the model's
    `populate_by_name` says."""
    return {
        info.serialization_alias or info.alias or name: getattr(model, name)
        for name, info in type(model).model_fields.items()
    }
