"""Loading modules without the garbage collector in the way.

Start-up loads Textual, pydantic and this package: hundreds of thousands of objects (modules,
classes, functions) that live as long as the process. Left running, the garbage collector
walks them again and again while they are created, for nothing: about 5 % of the time
`elicit-tui ask` takes to show its question, and about 30 ms of collections before the first
question of a program that embeds the app. Held while they load and then set aside for good
(`gc.freeze`), it never walks them at all; it runs as before for everything made afterwards,
and a program that embeds elicit-tui has them back as it exits, to be finalized.
The `elicit-tui` command loads its modules so, and `tui` its lazily loaded names. The command
also sets aside its app's own objects once the app is set up (`set_aside_once_set_up()`).
"""

from __future__ import annotations

import atexit
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
        if not _command_process:
            _unfreeze_at_exit()


def _unfreeze_at_exit() -> None:
    """In a program that embeds elicit-tui, give the collector back what was set aside as the
    program exits. Its own module's objects were set aside with the rest (a function and the
    module's globals make a cycle), and the collector walks no set-aside object as Python
    shuts down: a file the program left open lost what it wrote, a `__del__` never ran."""
    global _unfreezing
    if not _unfreezing:
        _unfreezing = True
        atexit.register(gc.unfreeze)


_unfreezing = False
"""Whether `gc.unfreeze` runs at exit (see `_unfreeze_at_exit`)."""


_command_process = False
"""Whether this process is the `elicit-tui` command's own (see `mark_command_process()`)."""


def mark_command_process() -> None:
    """Say that this process is the `elicit-tui` command's own, not a program that embeds
    elicit-tui: what is alive once its app is set up is set aside too
    (`set_aside_once_set_up()`)."""
    global _command_process
    _command_process = True


def is_command_process() -> bool:
    """Whether `mark_command_process()` was called: the process is the `elicit-tui` command's."""
    return _command_process


def set_aside_once_set_up() -> None:
    """In the `elicit-tui` command's own process, once its app is set up (its common dialogs
    built ahead): collect what is garbage now, then move every object still alive to the
    permanent generation, as after loading.

    The app's own objects (its screens, the dialogs built ahead, Textual's caches) are tens of
    thousands that live as long as it does. Left to the collector, every full collection
    walks them: about 25 ms, once every 30 or so questions asked back to back, each a dropped
    frame or two. Set aside, a full collection takes about 3 ms. A program that embeds the app
    is left as it is: its objects are its own, and those set aside are never collected, even
    once they are garbage.
    """
    if _command_process:
        gc.collect()
        gc.freeze()
