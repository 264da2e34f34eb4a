"""`elicit-tui web`: its door over plain HTTP, and the page in a real headless Chromium."""

from __future__ import annotations

import base64
import http.client
import os
import shutil
import signal
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from front_end_processes import CHROMIUM, CHROMIUM_ARGS, RECORD_FRAMES, HeadlessInbox, WebServer

pytest.importorskip("textual_serve", reason="elicit-tui web needs the `web` extra")

SCREENSHOTS = os.environ.get("ELICIT_WEB_SCREENSHOTS")
"""Where the browser tests also leave their screenshots, for a person to look at (not
`$ELICIT_TUI_SCREENSHOT_DIR`: the suite leaves the shell's elicit-tui settings out)."""


@pytest.fixture
def web(tmp_path: Path, inbox: HeadlessInbox) -> Iterator[WebServer]:
    server = WebServer(tmp_path / "config", inbox)
    try:
        yield server
    finally:
        server.stop()


def get(
    web: WebServer, path: str, headers: dict[str, str] | None = None, method: str = "GET"
) -> http.client.HTTPResponse:
    parts = urlsplit(web.url)
    connection = http.client.HTTPConnection(parts.netloc, timeout=10)
    connection.request(method, path, headers=headers or {})
    response = connection.getresponse()
    response.read()
    connection.close()
    return response


def log_in(web: WebServer, link: str | None = None) -> str:
    """Use a login link; returns the session cookie it set."""
    parts = urlsplit(link or web.link)
    response = get(web, f"{parts.path}?{parts.query}")
    assert response.status == 303
    assert response.getheader("Location") == "./"
    cookie = response.getheader("Set-Cookie") or ""
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie
    return cookie.split(";")[0]


def upgrade_headers(cookie: str | None, origin: str | None, host: str) -> dict[str, str]:
    headers = {
        "Host": host,
        "Connection": "Upgrade",
        "Upgrade": "websocket",
        "Sec-WebSocket-Version": "13",
        "Sec-WebSocket-Key": base64.b64encode(os.urandom(16)).decode(),
    }
    if cookie:
        headers["Cookie"] = cookie
    if origin:
        headers["Origin"] = origin
    return headers


def test_nothing_is_served_without_the_login(web: WebServer) -> None:
    host = urlsplit(web.url).netloc
    for path in ("/", "/static/js/textual.js", "/ws"):
        assert get(web, path).status == 401
    assert get(web, "/ws", upgrade_headers(None, f"http://{host}", host)).status == 401
    assert get(web, "/?token=not-the-code").status == 401


def test_the_login_link_works_once_and_leaves_no_secret_in_the_address(
    web: WebServer, inbox: HeadlessInbox
) -> None:
    cookie = log_in(web)
    assert get(web, "/", {"Cookie": cookie}).status == 200
    # Spent: a second use is refused, and the next link is printed for another browser.
    parts = urlsplit(web.link)
    assert get(web, f"{parts.path}?{parts.query}").status == 401
    # ... except by the browser it let in (from its history): that one is sent to the page.
    again = get(web, f"{parts.path}?{parts.query}", {"Cookie": cookie})
    assert (again.status, again.getheader("Location")) == (303, "./")
    deadline = time.monotonic() + 5
    while "link for another one" not in web.output and time.monotonic() < deadline:
        time.sleep(0.05)
    assert "link for another one" in web.output
    assert inbox.token not in web.output  # the inbox's token is never printed


def test_a_tab_from_before_web_restarted_is_told_so(web: WebServer) -> None:
    # "Open the link that `elicit-tui web` printed", the same as for a tab never let in.
    name = log_in(web).split("=", 1)[0]
    parts = urlsplit(web.url)
    connection = http.client.HTTPConnection(parts.netloc, timeout=10)
    connection.request("GET", "/", headers={"Cookie": f"{name}=from-the-last-run"})
    response = connection.getresponse()
    page = response.read().decode()
    connection.close()
    assert response.status == 401
    assert "restarted" in page and "the link it printed since" in page


def test_host_origin_and_method_are_checked_on_every_request(web: WebServer) -> None:
    cookie = log_in(web)
    host = urlsplit(web.url).netloc
    port = host.rsplit(":", 1)[1]
    assert get(web, "/", {"Cookie": cookie, "Host": f"evil.example:{port}"}).status == 421
    assert get(web, "/", {"Cookie": cookie, "Origin": "http://evil.example"}).status == 403
    assert get(web, "/", {"Cookie": cookie, "Origin": f"http://{host}"}).status == 200
    # Through `ssh -L 9000:127.0.0.1:PORT` the browser says localhost:9000: still this machine.
    tunnel = {"Cookie": cookie, "Host": "localhost:9000", "Origin": "http://localhost:9000"}
    assert get(web, "/", tunnel).status == 200
    assert get(web, "/", {"Cookie": cookie}, method="POST").status == 405
    evil_socket = upgrade_headers(cookie, "http://evil.example", host)
    assert get(web, "/ws", evil_socket).status == 403


def test_the_page_needs_nothing_from_the_internet(web: WebServer) -> None:
    cookie = log_in(web)
    parts = urlsplit(web.url)
    connection = http.client.HTTPConnection(parts.netloc, timeout=10)
    connection.request("GET", "/", headers={"Cookie": cookie})
    page = connection.getresponse().read().decode()
    connection.close()
    assert "googleapis" not in page and "http://" not in page and "https://" not in page
    assert 'href="static/css/xterm.css"' in page
    assert (
        get(web, "/static/fonts/RobotoMono-VariableFont_wght.ttf", {"Cookie": cookie}).status == 200
    )


# -- in a real browser ---------------------------------------------------------------------------


def browser_or_skip() -> Any:
    playwright = pytest.importorskip("playwright.sync_api", reason="needs playwright (pip)")
    if not Path(CHROMIUM).exists():
        pytest.skip("needs Debian's chromium: apt-get install -y chromium")
    return playwright


def frames_text(page: Any, since_ms: float) -> str:
    frames = page.evaluate("() => window.__frames")
    return "".join(text for at, text in frames if at >= since_ms)


def wait_painted(page: Any, text: str, since_ms: float, timeout: float = 20) -> float:
    """Wait until `text` reached the page after `since_ms`; returns when it did (epoch ms)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for at, chunk in page.evaluate("() => window.__frames"):
            if at >= since_ms and text in chunk:
                return float(at)
        time.sleep(0.02)
    raise AssertionError(f"{text!r} never reached the page")


def answered_in(
    page: Any, inbox: HeadlessInbox, request: dict[str, Any], keys: list[str], content: Any
) -> None:
    """Ask `request` in `inbox`, press `keys` in `page` once its message is painted there;
    the asker gets `content`."""
    since = time.time() * 1000
    asked = inbox.submit(request)
    wait_painted(page, request["message"], since)
    time.sleep(0.5)
    for key in keys:
        page.keyboard.press(key)
    assert inbox.result(asked, wait=10) == {"action": "accept", "content": content, "reason": None}


def screenshot(page: Any, tmp_path: Path, name: str) -> None:
    path = tmp_path / f"{name}.png"
    page.screenshot(path=str(path))
    if SCREENSHOTS:
        Path(SCREENSHOTS).mkdir(parents=True, exist_ok=True)
        shutil.copy(path, Path(SCREENSHOTS) / path.name)


@pytest.mark.parametrize("viewport", [(1000, 700), (390, 844)], ids=["desktop", "phone"])
def test_a_choice_a_secret_and_a_form_are_answered_in_the_browser(
    web: WebServer, inbox: HeadlessInbox, tmp_path: Path, viewport: tuple[int, int]
) -> None:
    sync_api = browser_or_skip()
    width, height = viewport
    phone = width < 500
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            # A phone has a touch screen: there the page is tapped, never clicked.
            page = browser.new_page(viewport={"width": width, "height": height}, has_touch=phone)

            def touch(x: int, y: int) -> None:
                if phone:
                    page.tap("body", position={"x": x, "y": y})
                else:
                    page.mouse.click(x, y)

            page.add_init_script(RECORD_FRAMES)
            page.goto(web.link)
            assert "token" not in page.url
            page.wait_for_selector("body.-first-byte", state="attached", timeout=20000)
            wait_painted(page, "Attached to", 0)
            touch(width // 2, height // 2)  # the terminal takes the keys

            # A choice.
            since = time.time() * 1000
            choice_id = inbox.submit(
                {"kind": "choice", "message": "Which database?", "options": ["Postgres", "SQLite"]}
            )
            wait_painted(page, "SQLite", since)
            time.sleep(0.5)
            screenshot(page, tmp_path, f"web-choice-{width}x{height}")
            if phone:
                page.tap("body", position={"x": 80, "y": 452})  # "2 SQLite", drawn there
            else:
                page.keyboard.press("ArrowDown")
                page.keyboard.press("Enter")
            assert inbox.result(choice_id, wait=10) == {
                "action": "accept",
                "content": "SQLite",
                "reason": None,
            }

            # A secret: masked on the page, the value only to the asker.
            since = time.time() * 1000
            secret_id = inbox.submit({"kind": "secret", "message": "API key for the deploy?"})
            wait_painted(page, "API key for the deploy?", since)
            time.sleep(0.5)
            page.keyboard.type("sk-browser-typed-1234", delay=20)
            time.sleep(0.3)
            screenshot(page, tmp_path, f"web-secret-{width}x{height}")
            assert "sk-browser-typed-1234" not in frames_text(page, since)
            page.keyboard.press("Enter")
            result = inbox.result(secret_id, wait=10)
            assert result is not None and result["content"] == "sk-browser-typed-1234"

            # A form.
            since = time.time() * 1000
            form_id = inbox.submit(
                {
                    "kind": "form",
                    "message": "Deployment",
                    "requestedSchema": {
                        "type": "object",
                        "properties": {
                            "name": {"type": "string", "title": "Service name"},
                            "replicas": {"type": "integer", "minimum": 1, "maximum": 5},
                        },
                        "required": ["name", "replicas"],
                    },
                }
            )
            wait_painted(page, "Service name", since)
            time.sleep(0.5)
            page.keyboard.type("web", delay=20)
            page.keyboard.press("Enter")
            page.keyboard.type("3", delay=20)
            time.sleep(0.3)
            screenshot(page, tmp_path, f"web-form-{width}x{height}")
            if phone:
                # A phone keyboard has no Ctrl key: a tap on Submit (drawn there) submits.
                page.tap("body", position={"x": 90, "y": 515})
            else:
                page.keyboard.press("Control+s")
            result = inbox.result(form_id, wait=10)
            assert result is not None and result["content"] == {"name": "web", "replicas": 3}
        finally:
            browser.close()


# Records the notifications the page shows (a headless browser shows none), and the
# permission asked: "default" until the page asks, then granted.
RECORD_NOTIFICATIONS = """
window.__notifications = [];
window.__permission_asked = 0;
window.Notification = class {
  constructor(title, options) { window.__notifications.push([title, options.body]); }
  close() {}
  static permission = "default";
  static requestPermission() {
    window.__permission_asked += 1;
    window.Notification.permission = "granted";
    return Promise.resolve("granted");
  }
};
"""


HIDE_TAB = """() => {
  Object.defineProperty(document, "hidden", { configurable: true, get: () => true });
  Object.defineProperty(document, "visibilityState", { configurable: true, get: () => "hidden" });
  document.dispatchEvent(new Event("visibilitychange"));
  if (document.activeElement) document.activeElement.blur();
}"""


def test_a_question_for_a_tab_in_the_background_becomes_a_browser_notification(
    web: WebServer, inbox: HeadlessInbox
) -> None:
    sync_api = browser_or_skip()
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1000, "height": 700})
            page.add_init_script(RECORD_FRAMES + RECORD_NOTIFICATIONS)
            page.goto(web.link)
            page.wait_for_selector("body.-first-byte", state="attached", timeout=20000)
            wait_painted(page, "Attached to", 0)
            assert page.evaluate("() => window.__permission_asked") == 0
            page.mouse.click(500, 350)  # a gesture: the page asks for the permission now
            assert page.evaluate("() => window.__permission_asked") == 1

            # In front, with focus: the question shows on the page, and nothing else.
            since = time.time() * 1000
            first = inbox.submit({"kind": "text", "message": "Release name?"})
            wait_painted(page, "Release name?", since)
            time.sleep(0.5)
            page.keyboard.type("spring", delay=20)
            page.keyboard.press("Enter")
            assert inbox.result(first, wait=10) is not None
            assert page.evaluate("() => window.__notifications") == []

            # The tab goes to the back: hidden, the terminal out of focus (a headless browser
            # has no other tab in front of it: the page is told so as a browser would).
            page.evaluate(HIDE_TAB)
            # The focus-out travels page -> socket -> front end, and nothing on screen shows it
            # arrived; a person does not leave a tab and get a question in the same millisecond.
            time.sleep(1.0)
            since = time.time() * 1000
            inbox.submit({"kind": "text", "message": "Deploy window?", "source": "release-bot"})
            wait_painted(page, "Deploy window?", since)
            deadline = time.monotonic() + 10
            while not page.evaluate("() => window.__notifications"):
                assert time.monotonic() < deadline, "no notification was shown"
                time.sleep(0.05)
            ((title, body),) = page.evaluate("() => window.__notifications")
            assert title == "elicit-tui"
            assert "release-bot" in body and "Deploy window?" in body
        finally:
            browser.close()


@contextmanager
def desktop_page() -> Iterator[Any]:
    """A page of a headless Chromium, 1000x700, recording the frames it is sent (more pages
    of the same browser, sharing its cookies: `page.context.new_page()`)."""
    sync_api = browser_or_skip()
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            context = browser.new_context(viewport={"width": 1000, "height": 700})
            context.add_init_script(RECORD_FRAMES)
            page = context.new_page()
            yield page
        finally:
            browser.close()


def test_a_tab_reaches_the_inbox_restarted_with_a_new_token_and_so_does_a_reload(
    tmp_path: Path,
) -> None:
    # Neither the inbox nor `web` is given a token: `serve` writes a new one at each start,
    # and each tab's front end reads it from the file, again as it reconnects.
    with inbox_restarted_under_a_tab(tmp_path, token=None) as (page, restart):
        first_token = (tmp_path / "config" / "serve-token").read_text().strip()
        second = restart(None)
        assert second.token != first_token
        text = {"kind": "text", "message": "Asked after the restart?"}
        answered_in(page, second, text, [*"yes", "Enter"], "yes")

        # A tab opened (here: reloaded) after the restart starts with the new token.
        since = time.time() * 1000
        page.reload()
        wait_painted(page, "Attached to", since)
        since = time.time() * 1000
        second.submit({"kind": "text", "message": "Asked after the reload?"})
        wait_painted(page, "Asked after the reload?", since)


def test_a_tab_given_web_s_token_refused_by_the_restarted_inbox_says_to_start_web_again(
    tmp_path: Path,
) -> None:
    # It said "quit and attach again with its token": no attach to quit in a browser.
    with inbox_restarted_under_a_tab(tmp_path, token="first-token") as (page, restart):
        since = time.time() * 1000
        restart("second-token")
        wait_painted(page, "`elicit-tui web` again with the inbox's new token", since, 30)


@contextmanager
def inbox_restarted_under_a_tab(
    tmp_path: Path, token: str | None
) -> Iterator[tuple[Any, Callable[[str | None], HeadlessInbox]]]:
    """A tab of `web` on an inbox started with `token` (None: the inbox makes one, and web
    reads the file), and a function that kills the inbox and starts another on its port with
    the token given; yields the page and that function."""
    config = tmp_path / "config"
    first = HeadlessInbox(config, token=token)
    port = int(first.url.rsplit(":", 1)[1])
    server = WebServer(config, first, token_file=token is None)
    started: list[HeadlessInbox] = [first]

    def restart(new_token: str | None) -> HeadlessInbox:
        first.process.send_signal(signal.SIGKILL)
        first.process.wait(10)
        started.append(HeadlessInbox(config, token=new_token, port=port))
        return started[-1]

    try:
        with desktop_page() as page:
            page.goto(server.link)
            wait_painted(page, "Attached to", 0)
            yield page, restart
    finally:
        server.stop()
        for inbox in started:
            inbox.stop()


def test_a_tab_whose_front_end_cannot_start_offers_to_attach_again(
    web: WebServer, inbox: HeadlessInbox
) -> None:
    # The inbox has gone: the tab's `elicit-tui attach` exits at once, and the page says so
    # instead of showing its splash forever.
    inbox.process.send_signal(signal.SIGKILL)
    inbox.process.wait(10)
    with desktop_page() as page:
        page.goto(web.link)
        page.wait_for_selector("body.-closed", state="attached", timeout=20000)
        assert page.is_visible("#restart")
        assert "could not reach the inbox" in page.inner_text(".closed-dialog")


def test_keys_reach_the_question_without_a_click_first(
    web: WebServer, inbox: HeadlessInbox
) -> None:
    with desktop_page() as page:
        page.goto(web.link)
        choice = {"kind": "choice", "message": "Which database?", "options": ["A", "SQLite"]}
        answered_in(page, inbox, choice, ["ArrowDown", "Enter"], "SQLite")


PASTE = """(text) => {
  const field = document.querySelector("#terminal .xterm-helper-textarea");
  const data = new DataTransfer();
  data.setData("text/plain", text);
  field.dispatchEvent(new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true }));
}"""
"""Paste `text` into the page's terminal, as the browser does for Ctrl+V."""


def test_a_paste_holding_the_end_of_a_paste_types_no_keys(
    web: WebServer, inbox: HeadlessInbox
) -> None:
    # Copied text with ESC[201~ in it ended the paste there: the rest was read as keys, and
    # its Enter answered the question, nobody having pressed one.
    with desktop_page() as page:
        page.goto(web.link)
        since = time.time() * 1000
        asked = inbox.submit({"kind": "text", "message": "Branch name?"})
        wait_painted(page, "Branch name?", since)
        time.sleep(0.5)
        page.keyboard.type("fix")
        page.evaluate(PASTE, "-1\x1b[201~\x1b[B\r")
        time.sleep(1.0)
        assert inbox.result(asked) is None  # still waiting: nothing pressed Enter
        page.keyboard.press("Enter")
        assert inbox.result(asked, wait=10) == {
            "action": "accept",
            "content": "fix-1[201~[B",
            "reason": None,
        }


def test_logging_in_to_a_second_web_on_this_machine_leaves_the_first_tab_logged_in(
    tmp_path: Path, web: WebServer, inbox: HeadlessInbox
) -> None:
    # A browser keeps cookies per host, not per port: one cookie name for both would be one
    # cookie, the second login's replacing the first's.
    other = WebServer(tmp_path / "config", inbox)
    try:
        with desktop_page() as page:
            page.goto(web.link)
            wait_painted(page, "Attached to", 0)
            second = page.context.new_page()
            second.goto(other.link)
            assert second.url == other.url
            reloaded = page.reload()
            assert reloaded is not None and reloaded.status == 200
            wait_painted(page, "Attached to", 0)
    finally:
        other.stop()


def test_a_link_accepted_in_the_browser_opens_in_that_browser_not_on_the_server(
    tmp_path: Path, inbox: HeadlessInbox
) -> None:
    # A browser on the machine that runs `web` (what `webbrowser` would start) writes down
    # what it was asked to open: nothing, for a link answered in a browser tab.
    opened_on_server = tmp_path / "opened-on-server"
    fake_browser = tmp_path / "browser.sh"
    fake_browser.write_text(f'#!/bin/sh\necho "$1" >> {opened_on_server}\n')
    fake_browser.chmod(0o755)
    server = WebServer(tmp_path / "config", inbox, BROWSER=f"{fake_browser} %s")
    sync_api = browser_or_skip()
    link = "https://example.com/sign-in?state=42"
    try:
        with sync_api.sync_playwright() as playwright:
            # The pop-up blocker left on, as in a person's browser.
            browser = playwright.chromium.launch(
                executable_path=CHROMIUM,
                args=CHROMIUM_ARGS,
                ignore_default_args=["--disable-popup-blocking"],
            )
            try:
                context = browser.new_context(viewport={"width": 1000, "height": 700})
                context.route(link, lambda route: route.fulfill(body="signed in"))
                page = context.new_page()
                page.add_init_script(RECORD_FRAMES)
                page.goto(server.link)
                since = time.time() * 1000
                asked = inbox.submit({"kind": "url", "message": "Sign in to go on", "url": link})
                wait_painted(page, "Sign in to go on", since)
                time.sleep(0.5)
                with context.expect_page(timeout=10000) as opening:
                    page.keyboard.press("Enter")
                opened = opening.value
                opened.wait_for_load_state()
                assert opened.url == link
                assert "signed in" in opened.inner_text("body")
                opener = opened.evaluate("() => window.opener === null")
                result = inbox.result(asked, wait=10)
            finally:
                browser.close()
    finally:
        server.stop()
    assert result == {"action": "accept", "content": True, "reason": None}
    assert not opened_on_server.exists()
    assert opener, "the page opened could reach back to the tab (window.opener)"


# -- each tab's process ends with its tab, and with `web` ----------------------------------------


def _stat(pid: int) -> list[str] | None:
    """The fields of /proc/PID/stat after the command's name; None once the process has gone
    (a zombie, ended but not yet reaped, has gone too)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return None if fields[0] in ("Z", "X") else fields


def alive(pid: int) -> bool:
    return _stat(pid) is not None


def cpu_seconds(pid: int) -> float | None:
    """The processor time `pid` has used so far (user and system); None once it has gone."""
    fields = _stat(pid)
    return (
        None if fields is None else (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    )


def descendants(pid: int) -> set[int]:
    """The processes `pid` started, the ones they started, and so on (those still running)."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and (fields := _stat(int(entry.name))) is not None:
            parents[int(entry.name)] = int(fields[1])
    found: set[int] = set()
    level = {pid}
    while level:
        level = {child for child, parent in parents.items() if parent in level} - found
        found |= level
    return found


def opened_tab(page: Any, web: WebServer, shown: str) -> set[int]:
    """Open `web`'s page in `page` until `shown` is painted; the pids of its tab's front end."""
    page.goto(web.link)
    wait_painted(page, shown, 0)
    return tab_front_ends(web)


def tab_front_ends(web: WebServer, count: int = 1, timeout: float = 20) -> set[int]:
    """The pids of the `elicit-tui attach` processes `web` runs for its tabs, once there are
    `count`."""
    deadline = time.monotonic() + timeout
    while True:
        found = set()
        for pid in descendants(web.process.pid):
            with suppress(OSError):
                if b"attach" in Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0"):
                    found.add(pid)
        if len(found) >= count or time.monotonic() > deadline:
            assert len(found) == count, f"the tabs' front ends: {found}"
            return found
        time.sleep(0.05)


def wait_ended(pids: set[int], timeout: float) -> dict[int, float]:
    """Wait up to `timeout` seconds for every process in `pids` to end; returns the processor
    time each used meanwhile (as last seen alive). Fails naming the ones still running."""
    start = {pid: cpu_seconds(pid) or 0.0 for pid in pids}
    used = dict.fromkeys(pids, 0.0)
    deadline = time.monotonic() + timeout
    while True:
        running = set()
        for pid in pids:
            if (now := cpu_seconds(pid)) is not None:
                used[pid] = now - start[pid]
                running.add(pid)
        if not running:
            return used
        if time.monotonic() > deadline:
            raise AssertionError(f"still running after {timeout} s: {running}, CPU used {used}")
        time.sleep(0.05)


@contextmanager
def killed_afterwards(pids: set[int]) -> Iterator[None]:
    """Whatever the test finds, none of `pids` outlives it."""
    try:
        yield
    finally:
        for pid in pids:
            if alive(pid):
                with suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)


def test_a_tab_closed_ends_its_front_end_at_once_idle_the_questions_left_waiting(
    web: WebServer, inbox: HeadlessInbox
) -> None:
    asked = inbox.submit({"kind": "text", "message": "Still waiting once the tab closed?"})
    with desktop_page() as page:
        front_end = opened_tab(page, web, "Still waiting once the tab closed?")
        time.sleep(0.5)
    # The browser has gone, and its tab with it.
    with killed_afterwards(front_end):
        used = wait_ended(front_end, timeout=5)
    assert sum(used.values()) < 1.5, f"processor time used while ending: {used}"
    # As any attach that quits: nothing answered, nothing cancelled.
    assert inbox.pending_ids() == [asked]
    assert inbox.result(asked) is None
    assert web.process.poll() is None  # `web` serves on, for the next tab


def test_a_tab_whose_front_end_does_not_quit_has_its_process_ended_when_the_tab_closes(
    web: WebServer, inbox: HeadlessInbox
) -> None:
    with desktop_page() as page:
        front_end = opened_tab(page, web, "Attached to")
        for pid in front_end:
            os.kill(pid, signal.SIGSTOP)  # it cannot quit when asked to, nor take SIGTERM
    with killed_afterwards(front_end):
        wait_ended(front_end, timeout=12)  # asked, 3 s; SIGTERM, 2 s; then SIGKILL
    assert web.process.poll() is None


@pytest.mark.parametrize(
    ("number", "sigint_ignored"),
    [
        (signal.SIGTERM, False),
        (signal.SIGINT, False),
        (signal.SIGINT, True),
        (signal.SIGHUP, False),
    ],
    ids=["SIGTERM", "SIGINT", "SIGINT-ignored-from-the-start", "SIGHUP"],
)
def test_web_stopped_ends_every_tab_s_front_end(
    tmp_path: Path, inbox: HeadlessInbox, number: signal.Signals, sigint_ignored: bool
) -> None:
    server = WebServer(tmp_path / "config", inbox, sigint_ignored=sigint_ignored)
    processes: set[int] = set()
    try:
        with desktop_page() as page, killed_afterwards(processes):
            page.goto(server.link)
            wait_painted(page, "Attached to", 0)
            # A second browser, through the link `web --link` prints for the next one.
            deadline = time.monotonic() + 10
            while "A browser logged in" not in server.output:
                assert time.monotonic() < deadline, server.output
                time.sleep(0.05)
            second = page.context.browser.new_page()
            second.goto(server.fresh_link())
            second.wait_for_selector("body.-first-byte", state="attached", timeout=20000)
            tab_front_ends(server, count=2)
            processes |= descendants(server.process.pid)
            # To `web` only, as `kill` sends it (Ctrl+C reaches its group: see stop()).
            server.process.send_signal(number)
            assert server.process.wait(15) == -number  # ended as that signal ends a process
            used = wait_ended(processes, timeout=5)
            assert sum(used.values()) < 3, f"processor time used while ending: {used}"
    finally:
        server.stop()


def test_a_tab_s_front_end_ends_by_itself_once_web_has_gone_without_a_word(
    web: WebServer, inbox: HeadlessInbox
) -> None:
    asked = inbox.submit({"kind": "text", "message": "Left waiting when web was killed?"})
    with desktop_page() as page:
        front_end = opened_tab(page, web, "Left waiting when web was killed?")
        with killed_afterwards(front_end):
            web.process.send_signal(signal.SIGKILL)  # no chance to end its tabs' processes
            web.process.wait(10)
            used = wait_ended(front_end, timeout=5)  # their pipes to `web` closed: hung up
    assert sum(used.values()) < 1.5, f"processor time used while ending: {used}"
    assert inbox.pending_ids() == [asked], inbox.result(asked)
    assert inbox.result(asked) is None


def test_the_symbols_roboto_mono_has_not_are_drawn_in_dejavu_in_the_browser(
    web: WebServer,
) -> None:
    # The page's Roboto Mono has no ✔, ⚙, ▊ or ⏎, nor ␛: they were drawn as nothing, and an
    # escape sequence in a question read " [2J " in the browser, where a terminal shows ␛[2J.
    # (DejaVu has no control pictures either: it draws its box for them, seen, not nothing.)
    with desktop_page() as page:
        page.goto(web.link)
        faces = page.evaluate(
            """async () => (await document.fonts.load('16px "Roboto Mono"', '✔⚙▊⏎␛'))
                .map(face => [face.unicodeRange, face.status])"""
        )
    # Declared last, the face for them is the one they are drawn with.
    assert ["U+2190-21FF, U+2300-23FF, U+2400-243F, U+2500-25FF, U+2600-27BF", "loaded"] in faces


def test_on_a_phone_a_tap_on_the_footers_ellipsis_reaches_decline(
    web: WebServer, inbox: HeadlessInbox, tmp_path: Path
) -> None:
    """At phone width the footer ends in "…" before Decline, which a phone cannot press as
    Ctrl+N: a tap on the "…" shows it, and a tap on it declines."""
    sync_api = browser_or_skip()
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 390, "height": 844}, has_touch=True)
            page.add_init_script(RECORD_FRAMES)
            page.goto(web.link)
            page.wait_for_selector("body.-first-byte", state="attached", timeout=20000)
            wait_painted(page, "Attached to", 0)
            since = time.time() * 1000
            asked = inbox.submit({"kind": "secret", "message": "API key for the deploy?"})
            wait_painted(page, "Reveal", since)
            time.sleep(0.5)
            # the cursor's cell: the terminal's cell size
            cell = page.locator(".xterm-helper-textarea").bounding_box()
            screen = page.locator(".xterm-screen").bounding_box()
            bottom = screen["height"] - cell["height"] / 2

            def tap_column(column: int) -> None:
                x = column * cell["width"] + cell["width"] / 2
                page.tap("body", position={"x": x, "y": bottom})

            tap_column(" ⏎ Accept  ^r Reveal  esc Cancel …".index("…"))
            since = time.time() * 1000
            wait_painted(page, "Decline", since)
            time.sleep(0.3)
            screenshot(page, tmp_path, "phone-footer-more")
            tap_column(" ^n Decline".index("Decline"))
            assert inbox.result(asked, wait=10) == {
                "action": "decline",
                "content": None,
                "reason": None,
            }
        finally:
            browser.close()


def test_a_log_holds_no_login_code_and_web_link_prints_a_fresh_one(web: WebServer) -> None:
    # `web > web.log` (here a pipe): whoever reads it must not be able to log in with it.
    port = urlsplit(web.url).port
    assert f"`elicit-tui web --link --port {port}` prints it" in web.output
    first = web.link
    assert first.startswith(f"{web.url}?token=")
    log_in(web, first)
    second = web.fresh_link()
    assert second != first
    log_in(web, second)
    deadline = time.monotonic() + 5
    while web.output.count("A browser logged in") < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert web.output.count("A browser logged in") == 2
    assert "token=" not in web.output
    for link in (first, second, web.fresh_link()):
        assert link.split("=", 1)[1] not in web.output
    web.stop()
    assert not (web.config / f"web-link-{port}").exists()
