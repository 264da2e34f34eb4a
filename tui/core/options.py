"""`Option`: one entry of a choice list, shared by the request models and the schema subset."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator


class Option(BaseModel):
    """One entry of a choice list: what is shown, what the agent gets, and a hint."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    label: str = Field(min_length=1)
    value: str = ""
    """What the agent gets when the option is picked, "" included; not given (or None): the
    label, filled in before validation."""
    description: str | None = None

    @model_validator(mode="before")
    @classmethod
    def _value_defaults_to_label(cls, data: Any) -> Any:
        if isinstance(data, str):
            return {"label": data, "value": data}
        if isinstance(data, dict) and data.get("value") is None and "label" in data:
            return {**data, "value": data["label"]}
        return data

    @field_validator("label")
    @classmethod
    def _label_not_blank(cls, label: str) -> str:
        if not label.strip():
            raise ValueError("an option's label must not be blank")
        return label
