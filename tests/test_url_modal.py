"""The `url` kind: which links are refused, what is said about the rest, and consent in the modal."""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import Future

import pytest
from app_driver import SIZE, wait_for, wait_for_modal
from pydantic import ValidationError
from textual.widgets import Button, Static
from textual.widgets._footer import FooterKey

import widgets.url
from tui import ElicitationApp, ElicitationQueue, ElicitationResult, parse_request
from tui.core.models import UrlRequest
from tui.core.url_check import check_url


class Browser:
    """Stands in for `webbrowser`: records what it was asked to open, and may find none."""

    def __init__(self) -> None:
        self.opened: list[str] = []
        self.available = True

    def __call__(self, url: str) -> bool:
        self.opened.append(url)
        return self.available


@pytest.fixture
def browser(monkeypatch: pytest.MonkeyPatch) -> Iterator[Browser]:
    fake = Browser()
    monkeypatch.setattr(widgets.url, "open_in_browser", fake)
    yield fake


# -- the model -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("url", "reason"),
    [
        ("example.com/login", "has no scheme: write it in full, like https://example.com/login"),
        ("localhost:8080", "has no scheme"),
        ("javascript:alert(1)", "url scheme 'javascript' is not allowed"),
        ("file:///etc/passwd", "url scheme 'file' is not allowed"),
        ("https:example.com", "has no domain after 'https://'"),
        ("https://exa mple.com", "must not contain spaces"),
        ("https://example.com:99999/", "invalid port"),
        ("", "must not be empty"),
    ],
)
def test_a_link_that_cannot_be_opened_is_refused_naming_the_url(url: str, reason: str) -> None:
    with pytest.raises(ValidationError) as refused:
        UrlRequest(message="Open this", url=url)
    (error,) = refused.value.errors()
    assert error["loc"] == ("url",)
    assert reason in error["msg"]


def test_a_url_request_parses_from_json_and_has_no_default_answer() -> None:
    request = parse_request({"kind": "url", "message": "Sign in", "url": "https://example.com/a"})
    assert isinstance(request, UrlRequest)
    with pytest.raises(ValueError, match="no default answer"):
        request.default_content()


def test_a_policy_never_consents_for_the_person() -> None:
    queue = ElicitationQueue(policy="accept_defaults")
    result = queue.submit(UrlRequest(message="Sign in", url="https://example.com")).result()
    assert (result.action, result.reason) == ("cancel", "no_front_end")


def test_a_plain_https_link_has_no_warnings() -> None:
    link = check_url("https://docs.example.com/a?b=1#c")
    assert (link.domain, link.shown_domain, link.warnings) == (
        "docs.example.com",
        "docs.example.com",
        (),
    )


def test_http_is_warned_about() -> None:
    (warning,) = check_url("http://example.com").warnings
    assert warning.startswith("Not https")


@pytest.mark.parametrize("url", ["https://xn--pple-43d.com/login", "https://аpple.com/login"])
def test_an_internationalised_domain_is_shown_both_ways_and_warned_about(url: str) -> None:
    link = check_url(url)
    assert (link.domain, link.shown_domain) == ("xn--pple-43d.com", "аpple.com")
    assert link.internationalised
    (warning,) = link.warnings
    assert "аpple.com is really xn--pple-43d.com" in warning
    assert "cyrillic small letter a" in warning


def test_a_user_name_before_the_domain_is_warned_about() -> None:
    link = check_url("https://accounts.example.com@evil.example/login")
    assert link.domain == "evil.example"
    (warning,) = link.warnings
    assert "'accounts.example.com' before an @, but it leads to evil.example" in warning


# -- the modal -------------------------------------------------------------------------


async def _answer(request: UrlRequest, *keys: str) -> ElicitationResult:
    """Show `request`, press `keys` once it is up, and return how it ended."""
    queue = ElicitationQueue()
    app = ElicitationApp(queue, input_grace=0)
    async with app.run_test(size=SIZE) as pilot:
        future: Future[ElicitationResult] = queue.submit(request)
        await wait_for_modal(pilot)
        await pilot.press(*keys)
        await wait_for(pilot, future.done)
    return future.result()


SIGN_IN = UrlRequest(message="Sign in to continue", url="https://example.com/sign-in?state=42")


@pytest.mark.parametrize("key", ["enter", "o"])
async def test_accepting_opens_the_link_once_and_answers_true(browser: Browser, key: str) -> None:
    result = await _answer(SIGN_IN, key)
    assert (result.action, result.content) == ("accept", True)
    assert browser.opened == ["https://example.com/sign-in?state=42"]


@pytest.mark.parametrize(
    ("keys", "action"),
    [(("ctrl+n",), "decline"), (("escape",), "cancel"), (("right", "enter"), "decline")],
)
async def test_declining_or_cancelling_opens_nothing(
    browser: Browser, keys: tuple[str, ...], action: str
) -> None:
    result = await _answer(SIGN_IN, *keys)
    assert result.action == action
    assert browser.opened == []


async def test_nothing_is_opened_while_the_link_is_shown(browser: Browser) -> None:
    queue = ElicitationQueue()
    app = ElicitationApp(queue, input_grace=0)
    async with app.run_test(size=SIZE) as pilot:
        queue.submit(SIGN_IN)
        modal = await wait_for_modal(pilot)
        await pilot.pause(0.2)
        shown = " ".join(str(s.render()) for s in modal.query(Static).results())
        assert "https://example.com/sign-in?state=42" in shown
        assert "Domain  example.com" in shown
        assert browser.opened == []


async def test_without_a_browser_the_modal_says_so_and_a_second_enter_goes_on(
    browser: Browser,
) -> None:
    browser.available = False
    queue = ElicitationQueue()
    app = ElicitationApp(queue, input_grace=0)
    async with app.run_test(size=SIZE) as pilot:
        future = queue.submit(SIGN_IN)
        modal = await wait_for_modal(pilot)
        await pilot.press("enter")
        await pilot.pause()
        assert not future.done()
        assert "No browser could be opened" in str(modal.query_one("#error", Static).render())
        await pilot.pause()
        footer = [key.description for key in modal.query(FooterKey).results(FooterKey)]
        assert "Go on" in footer
        assert "Open link" not in footer
        assert str(modal.query_one("#open", Button).label) == "Go on"
        await pilot.press("enter")
        await wait_for(pilot, future.done)
    assert (future.result().action, future.result().content) == ("accept", False)
    assert browser.opened == [SIGN_IN.url]


async def test_warnings_are_shown_before_the_person_decides(browser: Browser) -> None:
    request = UrlRequest(message="Pay the invoice", url="http://xn--pple-43d.com/pay")
    queue = ElicitationQueue()
    app = ElicitationApp(queue, input_grace=0)
    async with app.run_test(size=SIZE) as pilot:
        queue.submit(request)
        modal = await wait_for_modal(pilot)
        warnings = [str(w.render()) for w in modal.query(".warning").results(Static)]
        domain = str(modal.query_one("#domain", Static).render())
    assert [w.split(":")[0] for w in warnings] == ["⚠ Not https", "⚠ Internationalised domain"]
    assert "xn--pple-43d.com  reads as аpple.com" in domain
    assert browser.opened == []
