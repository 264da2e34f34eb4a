"""What every widget's styles depend on, so that a screen can skip Textual's restyle on resume."""

from __future__ import annotations

from collections.abc import Hashable

from textual.app import App
from textual.events import ScreenResume


def style_context(app: App[object]) -> Hashable:
    """What of the app every widget's styles depend on: its CSS (themes, variables) and its
    pseudo-classes (focus, dark, inline, ansi, ...)."""
    return app._css_update_count, app.pseudo_classes


def skip_needless_restyle(event: ScreenResume, app: App[object], styled_for: Hashable) -> Hashable:
    """Tell Textual not to restyle a resuming screen's widgets when they were styled for
    `app` as it is now, and return what they are styled for once the screen has resumed.

    Textual restyles every widget of a screen as it resumes (in its own handler, after ours);
    what changed since the widgets were styled (a class, the focus, a reload) restyled itself,
    so with the same context that pass would find nothing new."""
    now = style_context(app)
    if styled_for == now:
        event.refresh_styles = False
    return now
