"""The `elicit-tui` command's process validates without pydantic plugins.

The first time pydantic builds a validator, it looks for plugins: it imports
`importlib.metadata` (and with it email, zipfile, csv and more) and reads the entry points of
every installed distribution. In `elicit-tui ask` that comes before the question can be
validated, so before it is shown: 9 to 13 ms of a start of about 250 ms on a 2-core machine,
more the more packages are installed. A plugin found is handed the input and the result of
every validation, the answers typed into the dialogs among them, secrets too. The command's
models are its own and no program's to observe, so its process loads none.

A program that embeds elicit-tui keeps pydantic's plugins as it has them: only the command
calls `skip_pydantic_plugins()`.
"""

from __future__ import annotations

import sys
from importlib import import_module
from importlib.machinery import PathFinder
from importlib.util import module_from_spec
from types import ModuleType
from typing import Any

LOADER = "pydantic.plugin._loader"
"""pydantic's plugin loader: `get_plugins()`, which pydantic calls for each validator it builds."""


def skip_pydantic_plugins() -> None:
    """Stand in for pydantic's plugin loader before pydantic loads it: no plugin is looked for
    or used in this process. Nothing changes where the loader has been loaded already."""
    sys.modules.setdefault(LOADER, _NoPlugins(LOADER))


class _NoPlugins(ModuleType):
    """pydantic's plugin loader, finding no plugins. Any other name pydantic imports from the
    loader (none today) is the real loader's, so a later pydantic still works, only slower."""

    @staticmethod
    def get_plugins() -> tuple[()]:
        return ()

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)  # what the import system asks of any module
        package = import_module(LOADER.rpartition(".")[0])
        spec = PathFinder.find_spec(LOADER, package.__path__)
        if spec is None or spec.loader is None:
            raise AttributeError(name)
        real = module_from_spec(spec)
        spec.loader.exec_module(real)
        value = getattr(real, name)
        setattr(self, name, value)
        return value
