"""The app's main screen: the timeline and agent status that the app composes into it."""

from __future__ import annotations

from collections.abc import Hashable

from textual import events
from textual.screen import Screen

from widgets.style_context import skip_needless_restyle


class MainScreen(Screen[None]):
    """Textual's default screen, except that it is not restyled on resuming when nothing its
    styles depend on has changed: its first resume comes just after the app's widgets were
    mounted, and restyling them all again there took the UI thread 2.6 to 4 ms before the
    first frame, and before a question asked as the app starts."""

    def __init__(self) -> None:
        super().__init__(id="_default")
        self.styled_for: Hashable = None
        """What of the app the screen's widgets were last styled for (see `style_context`);
        set by the app once it has mounted them."""

    def on_screen_resume(self, event: events.ScreenResume) -> None:
        self.styled_for = skip_needless_restyle(event, self.app, self.styled_for)
