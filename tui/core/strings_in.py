"""Every string in an answer's content: itself, or inside dicts, lists, sets and models."""

from __future__ import annotations

from collections.abc import Iterator

from pydantic import BaseModel, SecretStr

__all__ = ["strings_in"]


def strings_in(content: object) -> Iterator[str | SecretStr]:
    """Each `str` and `SecretStr` in `content`, depth first: a dict's values, a list's, tuple's
    or set's items, a model's fields."""
    if isinstance(content, str | SecretStr):
        yield content
    elif isinstance(content, BaseModel):
        for name in type(content).model_fields:
            yield from strings_in(getattr(content, name))
    elif isinstance(content, dict):
        for value in content.values():
            yield from strings_in(value)
    elif isinstance(content, list | tuple | set | frozenset):
        for item in content:
            yield from strings_in(item)
