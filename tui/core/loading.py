"""Loading modules without the garbage collector in the way.

Start-up loads Textual, pydantic and this package: hundreds of thousands of objects (modules,
classes, functions) that live as long as the process. Left running, the garbage collector
walks them again and again while they are created, for nothing: about 5 % of the time
`elicit-tui ask` takes to show its question, and about 30 ms of collections before the first
question of a program that embeds the app. Held while they load and then set aside for good
(`gc.freeze`), it never walks them at all; it runs as before for everything made afterwards.
The `elicit-tui` command loads its modules so, and `tui` its lazily loaded names.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def loading_modules() -> Iterator[None]:
    """Hold the garbage collector while the block imports; afterwards, move every object there
    is to its permanent generation and let it run again. A collector held already (by the
    caller) is left held."""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        gc.enable()
