"""Which request kinds exist: each kind's model, and the import path of the modal that shows it.

The built-in kinds register here exactly as a developer's own kinds do (`register_kind`), so
`parse_request`, the front ends, plain mode and transcripts know every kind the same way.
A modal is named by its import path (`"package.module:ModalClass"`) and imported only when a
front end first shows that kind, so registering a kind never loads Textual.
"""

from __future__ import annotations

import importlib
import logging
import os
import re
import threading
from dataclasses import dataclass
from typing import TypeVar, get_args

from tui.core.request_base import RequestBase
from tui.core.terminal_text import literal_text

ModelT = TypeVar("ModelT", bound=RequestBase)

KINDS_VARIABLE = "ELICIT_TUI_KINDS"
"""Modules (comma-separated) imported the first time a request of an unknown kind arrives, so
that their `register_kind` calls run: how `serve`, `ask` and `replay` learn a program's kinds."""


@dataclass(frozen=True)
class Kind:
    """A registered kind: its request model and where its modal lives (None: no modal)."""

    model: type[RequestBase]
    modal: str | None


_lock = threading.Lock()
_kinds: dict[str, Kind] = {}
_modules_loaded: str | None = None
"""The value of `ELICIT_TUI_KINDS` whose modules were imported last."""
_import_failures: dict[str, str] = {}
"""Each module of that value that could not be imported, and why, as a clause ("which
cannot be imported (...)")."""

_log = logging.getLogger(__name__)


_IMPORT_PATH = re.compile(r"\w+(?:\.\w+)*:\w+")
"""`package.module:ClassName`: a module to import and a class in it, both named."""

_MODULE_NAME = re.compile(r"\w+(?:\.\w+)*")
"""`package.module`: what `ELICIT_TUI_KINDS` lists, separated by commas."""

_SEPARATORS = {" ": "spaces", "\t": "tabs", ":": "colons", ";": "semicolons"}
"""What else might have been meant to separate the modules, and what to call it."""


def register_kind(model: type[ModelT], *, modal: str | None = None) -> type[ModelT]:
    """Make `model`'s kind known everywhere; returns `model`, so it can be a class decorator's
    result too.

    `model` subclasses `RequestBase` and declares `kind: Literal["name"] = "name"`, and its
    `content_type`, if any, as a class variable holding a type pydantic validates (a field, a
    type's name, a function, `BaseModel` itself, a class pydantic cannot validate raise
    ValueError). `modal`
    is the import path of its `ElicitationModal` subclass, `"package.module:ClassName"`;
    without one, front ends cancel such requests with the reason `unsupported_kind: name`.
    Registering the same model again replaces its modal; another model of a taken kind raises
    ValueError.
    """
    if not (isinstance(model, type) and issubclass(model, RequestBase)):
        raise TypeError(f"a request kind must subclass RequestBase, not {model!r}")
    field = model.model_fields.get("kind")
    name, literal = (field.default, get_args(field.annotation)) if field else (None, ())
    # A Literal: `parse_request` tells kinds apart by it (a `str` broke its errors for all).
    if not isinstance(name, str) or not name or literal != (name,):
        raise ValueError(
            f"{model.__name__} must declare its kind as a Literal with that default, "
            f'like kind: Literal["card"] = "card"'
        )
    named = f"{model.__name__} (kind {name!r})"
    if "content_type" in model.model_fields:
        # A field: each request would carry a type (no JSON has one), its asker choosing it.
        raise ValueError(
            f"{named} declares content_type as a field; declare it as a class variable,"
            " like content_type: ClassVar[Any] = int"
        )
    if (problem := model.content_type_problem()) is not None:
        raise ValueError(
            f"{named}: content_type {model.content_type!r} cannot type an answer ({problem});"
            " give a type pydantic can validate: the type itself, not its name"
        )
    if modal is not None and not _IMPORT_PATH.fullmatch(modal):
        raise ValueError(f'modal must be "package.module:ClassName", not {modal!r}')
    with _lock:
        taken = _kinds.get(name)
        if taken is not None and taken.model is not model:
            raise ValueError(
                f"kind {name!r} is already registered by {taken.model.__module__}."
                f"{taken.model.__qualname__}"
            )
        _kinds[name] = Kind(model, modal)
    return model


def kind(name: str) -> Kind | None:
    """The registered kind called `name`, or None; modules named by `ELICIT_TUI_KINDS` are
    imported the first time a kind is missing."""
    found = _kinds.get(name)
    if found is None and _load_kind_modules():
        found = _kinds.get(name)
    return found


def kind_names() -> list[str]:
    """Every registered kind's name, in registration order (the built-in kinds first)."""
    return list(_kinds)


def _load_kind_modules() -> bool:
    """Import the modules `ELICIT_TUI_KINDS` names, once per value; True if this call did.

    A module that cannot be imported (a typo, a module of the program that raises) is noted,
    not raised: the request that wanted a kind from it is refused as of an unknown kind, with
    the reason (`unloaded_kind_modules`), and the process goes on.
    """
    global _modules_loaded
    wanted = os.environ.get(KINDS_VARIABLE, "")
    with _lock:
        if not wanted.strip() or wanted == _modules_loaded:
            return False
        _modules_loaded = wanted
        _import_failures.clear()
    for name in filter(None, (part.strip() for part in wanted.split(","))):
        if not _MODULE_NAME.fullmatch(name):
            _import_failures[name] = f"which is no module name{_separator_advice(name)}"
            continue
        try:
            importlib.import_module(name)
        except Exception as error:  # a program's module: its failure must not end this process
            _import_failures[name] = f"which cannot be imported ({type(error).__name__}: {error})"
    for name, why in _import_failures.items():
        # (Its words are the module's and the setting's: shown, not acted on, on a terminal.)
        _log.warning("%s names %s, %s", KINDS_VARIABLE, literal_text(name), literal_text(why))
    return True


def _separator_advice(name: str) -> str:
    """How to list modules, if `name` holds what looks meant to separate them ("" if not)."""
    for separator, called in _SEPARATORS.items():
        if separator in name.strip():
            return f": separate modules with commas, not {called}"
    return ""


def unloaded_kind_modules() -> str:
    """The modules `ELICIT_TUI_KINDS` names that could not be imported, and why, as a clause
    for an error message about an unknown kind ("" if every one was imported)."""
    return "".join(
        f"; {KINDS_VARIABLE} names {name}, {why}" for name, why in list(_import_failures.items())
    )
