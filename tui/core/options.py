"""`Option`: one entry of a choice list, shared by the request models and the schema subset."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, model_validator


class Option(BaseModel):
    """One entry of a choice list: what is shown, what the agent gets, and a hint."""

    model_config = ConfigDict(frozen=True, defer_build=True)

    label: str = Field(min_length=1)
    value: str = ""
    description: str | None = None

    @model_validator(mode="before")
    @classmethod
    def _from_plain_string(cls, data: Any) -> Any:
        if isinstance(data, str):
            return {"label": data, "value": data}
        return data

    @model_validator(mode="after")
    def _value_defaults_to_label(self) -> Option:
        if not self.value:
            object.__setattr__(self, "value", self.label)
        return self
