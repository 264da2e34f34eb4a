"""Real processes for front-end tests and benchmarks: a headless inbox, attached TUIs on ptys,
HTTP askers, and the page script that times what reaches a browser front end."""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import re
import shutil
import signal
import struct
import subprocess
import sys
import termios
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent

# Makes the pty the session's controlling terminal, as a login shell's is.
LAUNCHER = """\
import fcntl, sys, termios
fcntl.ioctl(0, termios.TIOCSCTTY, 0)
from tui.cli.main import main
sys.exit(main(sys.argv[1:]))
"""
TOKEN = "front-end-test-token"

# Debian's headless Chromium, quiet: no updates, sync or first-run pages to time by mistake.
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

# Records each websocket message the page receives, and when: what reaches xterm.js to paint.
RECORD_FRAMES = """
window.__frames = [];
const NativeWebSocket = window.WebSocket;
window.WebSocket = function (url, protocols) {
  const socket = new NativeWebSocket(url, protocols);
  socket.addEventListener("message", (event) => {
    const data = event.data;
    const text = typeof data === "string" ? data : new TextDecoder().decode(new Uint8Array(data));
    window.__frames.push([Date.now(), text]);
  });
  return socket;
};
window.WebSocket.prototype = NativeWebSocket.prototype;
Object.assign(window.WebSocket, {CONNECTING: 0, OPEN: 1, CLOSING: 2, CLOSED: 3});
"""


def read_until_closed(fd: int) -> Iterator[bytes]:
    """The chunks read from `fd` (a pty's master) as they come, until the other end closes it."""
    while True:
        try:
            chunk = os.read(fd, 65536)
        except OSError:  # EIO: the process closed the terminal
            return
        if not chunk:
            return
        yield chunk


def environment(config: Path, **extra: str) -> dict[str, str]:
    ignored = {"COLUMNS", "LINES", "TMUX", "ELICIT_TUI_URL", "ELICIT_TUI_TOKEN"}
    env = {k: v for k, v in os.environ.items() if k not in ignored}
    env.update(
        TERM="xterm-256color",
        ELICIT_TUI_CONFIG_DIR=str(config),
        PYTHON_KEYRING_BACKEND="keyring.backends.fail.Keyring",
        ELICIT_TUI_BELL="0",
        **extra,
    )
    return env


def stop_process_group(process: subprocess.Popen[Any]) -> None:
    """Interrupt `process`'s group as Ctrl+C would, and kill it if it has not ended in 10 s."""
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGINT)
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(5)


class HeadlessInbox:
    """`elicit-tui serve --headless --port PORT ARGS` in a process of its own, `env` added to
    its environment; `url` is its base. With `token` None, serve makes one and writes it to
    the config folder's serve-token, as it does for a person."""

    def __init__(
        self,
        config: Path,
        token: str | None = TOKEN,
        port: int = 0,
        args: tuple[str, ...] = (),
        **env: str,
    ) -> None:
        if token is not None:
            env["ELICIT_TUI_TOKEN"] = token
        serve = ["serve", "--headless", "--port", str(port), *args]
        self.process = subprocess.Popen(
            [sys.executable, "-m", "tui.cli", *serve],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=REPO,
            env=environment(config, **env),
            start_new_session=True,
        )
        assert self.process.stdout is not None
        line = self.process.stdout.readline().decode()
        found = re.search(r"http://127\.0\.0\.1:(\d+)/mcp", line)
        if found is None:
            self.stop()
            raise RuntimeError(f"serve --headless printed {line!r}")
        self.url = f"http://127.0.0.1:{found.group(1)}"
        self.token = token or (config / "serve-token").read_text().strip()
        self._keys: dict[str, str] = {}
        """The key to each submitted request's result, by its id."""
        # The rest of what it prints must be drained, or it could block on a full pipe.
        threading.Thread(target=self.process.stdout.read, daemon=True).start()

    def call(
        self, method: str, path: str, body: Any = None, timeout: float = 30
    ) -> tuple[int, Any]:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.url + path, data=data, method=method)
        request.add_header("Authorization", f"Bearer {self.token}")
        if data is not None:
            request.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(request, timeout=timeout) as response:
                text = response.read()
                return response.status, json.loads(text) if text else None
        except urllib.error.HTTPError as error:
            text = error.read()
            return error.code, json.loads(text) if text else None

    def submit(self, request: dict[str, Any]) -> str:
        status, reply = self.call("POST", "/v1/requests", {"request": request})
        assert status == 201, reply
        self._keys[str(reply["id"])] = str(reply["key"])
        return str(reply["id"])

    def result(self, request_id: str, wait: float = 0) -> dict[str, Any] | None:
        """The result as its asker gets it: with the key `submit` was answered."""
        key = self._keys.get(request_id, "")
        path = f"/v1/requests/{request_id}/result?wait={wait}&key={key}"
        status, reply = self.call("GET", path)
        if status == 204 or reply is None:
            return None
        assert status == 200, reply
        result: dict[str, Any] | None = reply["result"]
        return result

    def pending_ids(self) -> list[str]:
        _, reply = self.call("GET", "/v1/requests")
        return [str(r["id"]) for r in reply["pending"]]

    def stop(self) -> None:
        stop_process_group(self.process)


class AttachedTerminal:
    """`elicit-tui attach URL` on a fresh pty of `size` (columns, rows)."""

    def __init__(
        self,
        config: Path,
        *args: str,
        size: tuple[int, int] = (80, 24),
        env: dict[str, str] | None = None,
    ) -> None:
        self._master, slave = os.openpty()
        columns, rows = size
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
        self.process = subprocess.Popen(
            [sys.executable, "-c", LAUNCHER, "attach", *args],
            stdin=slave,
            stdout=slave,
            stderr=slave,
            cwd=REPO,
            env={**environment(config), **(env or {})},
            start_new_session=True,
        )
        os.close(slave)
        self._output = bytearray()
        self._lock = threading.Lock()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        for chunk in read_until_closed(self._master):
            with self._lock:
                self._output.extend(chunk)

    @property
    def output(self) -> str:
        with self._lock:
            return self._output.decode(errors="replace")

    @property
    def plain(self) -> str:
        """The output with the control sequences taken out: each run of text as drawn."""
        return re.sub(
            r"\x1b\[[0-9;?$>=<]*[ -/]*[@-~]|\x1b[()][0-9A-Za-z]|\x1b[=>]", "", self.output
        )

    def wait_for_plain(self, text: str, timeout: float = 20.0) -> None:
        """Wait until `text` appears in `plain` (text drawn with styles between its words)."""
        deadline = time.monotonic() + timeout
        while text not in self.plain:
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise AssertionError(f"{text!r} never appeared; drawn last: {self.plain[-1500:]!r}")
            time.sleep(0.02)

    def mark(self) -> int:
        """A position in the output, to wait for text written after it."""
        with self._lock:
            return len(self._output)

    def wait_for(self, text: str, timeout: float = 20.0, since: int = 0) -> float:
        """Wait until `text` appears (after `since`); returns when it did (time.monotonic())."""
        deadline = time.monotonic() + timeout
        while True:
            with self._lock:
                seen = text.encode() in self._output[since:]
            if seen:
                return time.monotonic()
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise AssertionError(f"{text!r} never appeared; output ends {self.output[-600:]!r}")
            time.sleep(0.005)

    def type(self, *keys: str, pause: float = 0.1) -> None:
        for key in keys:
            os.write(self._master, key.encode())
            time.sleep(pause)

    def signal(self, number: int) -> None:
        os.kill(self.process.pid, number)

    def quit(self, timeout: float = 10) -> int:
        if self.process.poll() is None:
            self.type("\x11")  # Ctrl+Q
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                self.kill()
        self.close()
        return self.process.returncode

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait(5)

    def close(self) -> None:
        self.kill()
        self._reader.join(5)
        with contextlib.suppress(OSError):
            os.close(self._master)


@contextlib.contextmanager
def attached_to_inbox(folder: Path, **env: str) -> Iterator[tuple[HeadlessInbox, AttachedTerminal]]:
    """A headless inbox and `elicit-tui attach` to it, both with `env` added to their
    environment, once attached; on leaving, attach is quit (it must exit 0) and the inbox
    stopped."""
    inbox = HeadlessInbox(folder / "inbox", **env)
    try:
        terminal = AttachedTerminal(
            folder / "config", inbox.url, env={"ELICIT_TUI_TOKEN": inbox.token, **env}
        )
        try:
            terminal.wait_for_plain("Attached to")
            yield inbox, terminal
        finally:
            code = terminal.quit()
        assert code == 0
    finally:
        inbox.stop()


def elicit(
    config: Path, *args: str, stdin: str = "", **env: str
) -> subprocess.CompletedProcess[str]:
    """`elicit-tui ARGS` with no terminal (`stdin` its input), run to its end."""
    return subprocess.run(
        [sys.executable, "-m", "tui.cli", *args],
        cwd=REPO,
        env=environment(config, **env),
        capture_output=True,
        text=True,
        timeout=60,
        input=stdin,
    )


def web_link(config: Path, port: str) -> str:
    """The login link `elicit-tui web --link --port PORT` prints."""
    printed = elicit(config, "web", "--link", "--port", port)
    assert printed.returncode == 0, printed.stderr
    return printed.stdout.strip()


class WebServer:
    """`elicit-tui web URL --port 0` in a process of its own; `link` is its first login link
    (`fresh_link()` the current one).
    `token_file`: it finds the inbox's token in the config folder's serve-token, else it is
    given it in its environment. `sigint_ignored`: started with SIGINT ignored. `env` is added
    to its environment (and so to its tabs' front ends')."""

    def __init__(
        self,
        config: Path,
        inbox: HeadlessInbox,
        *,
        token_file: bool = False,
        sigint_ignored: bool = False,
        **env: str,
    ) -> None:
        if not token_file:
            env["ELICIT_TUI_TOKEN"] = inbox.token
        self.config = config
        command = [sys.executable, "-m", "tui.cli", "web", inbox.url, "--port", "0"]
        if sigint_ignored:
            # As a shell without job control starts a command in the background (`web &` in
            # a script): SIGINT ignored from the start.
            command = ["sh", "-c", 'trap "" INT; exec "$@"', "sh", *command]
        self.process = subprocess.Popen(
            command,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            cwd=REPO,
            env=environment(config, **env),
            start_new_session=True,
        )
        self.lines: list[str] = []
        assert self.process.stdout is not None
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            line = self.process.stdout.readline().decode()
            if not line:
                break
            self.lines.append(line)
            # Its output is a pipe: the link is left out, and `web --link` prints it.
            found = re.search(r"(http://127\.0\.0\.1:(\d+)/).*elicit-tui web --link", line)
            if found:
                self.url = found.group(1)
                self.link = web_link(config, found.group(2))
                break
        else:
            line = ""
        if not hasattr(self, "link"):
            self.stop()
            raise RuntimeError(f"elicit-tui web printed {self.lines!r}")
        threading.Thread(target=self._drain, daemon=True).start()

    def fresh_link(self) -> str:
        return web_link(self.config, self.url.rsplit(":", 1)[1].rstrip("/"))

    def _drain(self) -> None:
        assert self.process.stdout is not None
        for raw in self.process.stdout:
            self.lines.append(raw.decode(errors="replace"))

    @property
    def output(self) -> str:
        return "".join(self.lines)

    def stop(self) -> None:
        stop_process_group(self.process)


class CuttableProxy:
    """A TCP proxy on loopback to `target` (host, port) whose connections `cut()` drops at once,
    as a network that goes away would, or `freeze()` keeps open with no byte passing, as a
    network that goes away without a word would; it keeps listening, so clients can
    reconnect (through fresh connections, which pass bytes). The answers POSTed through it
    while `answer_errors` lists HTTP statuses are answered by it, each with the next status,
    as a proxy before an inbox in trouble does (502, 503), and never reach the inbox."""

    def __init__(self, target: tuple[str, int]) -> None:
        import socket

        self._target = target
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self._listener.getsockname()[1]}"
        self._sockets: list[Any] = []
        self._frozen: set[Any] = set()
        self._lock = threading.Lock()
        self.refusing = False
        self.answer_errors: list[int] = []
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        import socket

        while True:
            try:
                client, _ = self._listener.accept()
            except OSError:
                return
            if self.refusing:
                client.close()
                continue
            if self.answer_errors and self._answered_here(client):
                continue
            try:
                upstream = socket.create_connection(self._target)
            except OSError:
                client.close()
                continue
            with self._lock:
                self._sockets += [client, upstream]
            for source, sink in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pipe, args=(source, sink), daemon=True).start()

    def _answered_here(self, client: Any) -> bool:
        """Answer the answer `client` POSTs with the next of `answer_errors`, if it is one."""
        import socket

        request_line = client.recv(4096, socket.MSG_PEEK).split(b"\r\n", 1)[0]
        if not (request_line.startswith(b"POST ") and b"/answer " in request_line):
            return False
        status = self.answer_errors.pop(0)
        # All of it read first: closed with bytes unread, the socket resets the connection.
        received = b""
        while b"\r\n\r\n" not in received:
            received += client.recv(65536)
        head, _, sent = received.partition(b"\r\n\r\n")
        length = re.search(rb"(?i)content-length: *(\d+)", head)
        while length is not None and len(sent) < int(length.group(1)):
            sent += client.recv(65536)
        body = b"Internal Server Error"
        client.sendall(
            f"HTTP/1.1 {status} Error\r\nContent-Type: text/plain\r\n"
            f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n".encode()
            + body
        )
        client.close()
        return True

    def _pipe(self, source: Any, sink: Any) -> None:
        try:
            while chunk := source.recv(65536):
                if source not in self._frozen:
                    sink.sendall(chunk)
        except OSError:
            pass
        finally:
            for end in (source, sink):
                with contextlib.suppress(OSError):
                    end.close()

    def cut(self) -> None:
        import socket

        with self._lock:
            sockets, self._sockets = self._sockets, []
        for sock in sockets:
            try:
                sock.shutdown(socket.SHUT_RDWR)
                sock.close()
            except OSError:
                pass

    def freeze(self) -> None:
        """From now on, the connections open now pass no byte either way (and stay open)."""
        with self._lock:
            self._frozen.update(self._sockets)

    def close(self) -> None:
        self.cut()
        self._listener.close()
