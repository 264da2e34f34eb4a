"""Consent to open a link: the full URL, its real domain and warnings; nothing opens before yes."""

from __future__ import annotations

import webbrowser
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.widget import Widget
from textual.widgets import Button, Static
from textual.widgets.button import ButtonVariant

from tui.core.models import UrlRequest
from tui.core.url_check import LinkReport, check_url
from widgets.base import ElicitationModal, InvalidAnswer
from widgets.literal import literal


def open_in_browser(url: str) -> bool:
    """Open `url` in the person's browser; False when no browser could be started.

    A module-level function so that tests replace it and never start a real browser.
    """
    return webbrowser.open(url, new=2)


class UrlModal(ElicitationModal[UrlRequest]):
    """Enter or `o` opens the link in the browser (the only thing that touches it); Ctrl+N declines."""

    STYLESHEETS = ("url.tcss",)

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "submit", "Open link", priority=True),
        Binding("o", "accept", "Open link", show=False),
        Binding("left,right", "switch", "Switch", show=False),
    ]
    """
    | Key(s) | Description |
    | :- | :- |
    | enter | Press the focused button: open the link in the browser ("Go on" once no browser could), or decline. |
    | o | Open the link in the browser. |
    | left, right | Move between the two buttons. |
    """

    def __init__(
        self, request: UrlRequest, *, deadline: float | None = None, input_grace: float = 0.2
    ) -> None:
        super().__init__(request, deadline=deadline, input_grace=input_grace)
        self.link: LinkReport = check_url(request.url)
        self._no_browser = False

    def compose_body(self) -> ComposeResult:
        link = self.link
        url = Static(literal(link.url), id="url")
        url.border_title = "link"
        yield url
        domain = Text.assemble(("Domain  ", "dim"), literal(link.domain, "bold"))
        if link.internationalised:
            domain.append(literal(f"  reads as {link.shown_domain}", "italic"))
        yield Static(domain, id="domain")
        for warning in link.warnings:
            yield Static(literal(f"⚠ {warning}"), classes="warning")
        yield Static("Nothing has been opened or fetched yet.", id="hint")
        with Horizontal(id="buttons"):
            variant: ButtonVariant = "warning" if link.warnings else "primary"
            yield Button("Open in browser", id="open", variant=variant)
            yield Button("Decline", id="decline")

    def on_mount(self) -> None:
        self.query_one("#open", Button).focus()

    def asked(self) -> Widget | None:
        # The link and its domain, what the person must check before opening it.
        url = self.query("#url")  # (none before the dialog is composed)
        return url.first() if url else None

    def action_switch(self) -> None:
        on_open = self.focused is not None and self.focused.id == "open"
        self.query_one("#decline" if on_open else "#open", Button).focus()

    def action_submit(self) -> None:
        if self.focused is not None and self.focused.id == "decline":
            self.action_decline()
        else:
            self.action_accept()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "decline":
            self.action_decline()
        else:
            self.action_accept()

    def content(self) -> bool:
        """Opens the link (accepting is consent to exactly that) and says whether a browser did.

        Served to a browser (`elicit-tui web`), the link goes to that browser, the person's, to
        open in a new tab: never to a browser on the machine that serves the page. On a
        terminal, when no browser could be started, the modal stays open once so the person can
        copy the link; accepting again answers False: they agreed, and open it themselves.
        """
        if self._no_browser:
            return False
        as_recorded = getattr(self.app, "link_opened", None)
        if as_recorded is not None:  # a replay opens nothing: it answers as the recording did
            return bool(as_recorded(self.request))
        if self.app.is_web:
            self.app.open_url(self.request.url)
            return True
        if open_in_browser(self.request.url):
            return True
        self._no_browser = True
        self.query_one("#open", Button).label = "Go on"
        self.refresh_bindings()  # Enter's label in the footer names the button
        raise InvalidAnswer(
            "No browser could be opened. Open the link yourself, then press Enter to go on."
        )
