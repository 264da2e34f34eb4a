"""Loading the command's modules without the garbage collector in the way.

Start-up loads Textual, pydantic and this package: hundreds of thousands of objects (modules,
classes, functions) that live as long as the process. Left running, the garbage collector
walks them again and again while they are created, in vain, for about a sixth of the time to
the first frame. Held while they load and then set aside for good (`gc.freeze`), it never
walks them at all; the collector runs as before for everything made afterwards.
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
