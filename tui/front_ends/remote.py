"""A front end's view of an inbox in another process: its events over SSE, answers by POST.

`RemoteFrontEnd` is a `FrontEndSource`, so the Textual app shows an inbox's questions as it
shows its own queue's. A reader thread keeps one `GET /v1/events` stream open; when it drops
(the inbox restarts, the network goes, the process was stopped), the thread reconnects with
backoff and re-syncs: the inbox replays what is pending, and requests that ended meanwhile
are reported ended. Closing it answers nothing: the inbox keeps every question waiting.
Every request is signed with the token, never carries it, and what answers is heard only
once it proved it holds the token too: the stream as it opens, then each event, and each
other answer (`tui.core.signed_request`).
"""

from __future__ import annotations

import contextlib
import http.client
import json
import logging
import socket
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator
from typing import Any
from urllib.parse import quote

from pydantic import ValidationError

from tui.core.front_end import AnswerNeedsConfirming, AnswerNotSent, AnswerUnconfirmed
from tui.core.http_url import http_url_parts
from tui.core.kinds import kind
from tui.core.models import ENDED_UNSEEN, ElicitationResult, Request, flagged, parse_request
from tui.core.queue import ANSWERS_KEPT, Answered, QueueEvent, Subscriber
from tui.core.request_base import of_unregistered_kind
from tui.core.signed_request import PROOF_HEADER, NotProven, SignedRequest
from tui.inbox.discovery import InboxAddress, checked_token
from tui.inbox.door_refusal import DOOR, door_refusal
from tui.inbox.held_call import json_object
from tui.inbox.wire import request_path, result_json

_log = logging.getLogger(__name__)

STALE_AFTER = 40.0
"""Seconds without a byte (the inbox sends a keepalive every 15) before the stream counts as
dropped and is opened again."""

BACKOFF = (0.1, 0.25, 0.5, 1.0, 2.0)
"""Seconds between attempts to reconnect, the last repeated."""

HTTP_TIMEOUT = 5.0
"""Seconds an answer or a look at the pending list may take before it counts as failed."""

RECONNECTING = "Lost the inbox; reconnecting…"
RECONNECTED = "Reconnected to the inbox."
TOKEN_REFUSED = (
    "The inbox refuses this front end's token now (restarted with a new one?); still trying: "
    "{remedy}"
)

TOKEN_REMEDY = "quit and attach again with its token"
"""What `TOKEN_REFUSED` tells a terminal's front end to do; a browser's is told its own."""

Status = Callable[[str], None]
"""Told, in words for the person, when the connection drops and when it is back."""


class InboxRefused(Exception):
    """The inbox turned this front end away (a wrong or missing token, not an inbox, ...)."""


class InboxUnreachable(Exception):
    """Nothing answered at the inbox's address."""


class RemoteFrontEnd:
    """The questions of the inbox at `url` (its base, or the `/mcp` URL `serve` prints), for
    the front end called `name`; `token` is the inbox's bearer token (None: none sent).

    Call `connect()` first: it raises `InboxRefused` or `InboxUnreachable` before any question
    is seen. `on_status`, if set, hears when the connection drops and comes back. The stream
    counts as dropped when it closes, or when no byte has come for `stale_after` seconds
    (the inbox's keepalives stopped: a network that went away without a word).
    """

    def __init__(
        self,
        url: str,
        token: str | None,
        name: str,
        *,
        stale_after: float = STALE_AFTER,
        reread_token: Callable[[], str | None] | None = None,
        token_remedy: str = TOKEN_REMEDY,
    ) -> None:
        parts = http_url_parts(url)
        self.base = f"{parts.scheme}://{parts.netloc}{parts.path.rstrip('/').removesuffix('/mcp')}"
        self.name = name
        self.on_status: Status | None = None
        self._stale_after = stale_after
        self._scheme = parts.scheme
        self._netloc = parts.netloc
        self._prefix = parts.path.rstrip("/").removesuffix("/mcp")
        self._token = checked_token(token)
        self._reread_token = reread_token
        self._token_remedy = token_remedy
        """Where the token is read again before each reconnection, if given: the file an
        inbox writes anew as it starts, so that one restarted is reached with its new token."""
        self._lock = threading.RLock()
        self._pending: dict[str, QueueEvent] = {}
        self._answered: OrderedDict[str, Answered] = OrderedDict()
        self._refusals: OrderedDict[str, str] = OrderedDict()
        self._subscribers: list[Subscriber] = []
        self._stream: http.client.HTTPResponse | None = None
        self._signed: SignedRequest | None = None
        """The request that opened the stream, which each of its events must prove."""
        self._connection: http.client.HTTPConnection | None = None
        self._closed = threading.Event()
        self._reader: threading.Thread | None = None

    @property
    def _address(self) -> InboxAddress:
        """The inbox and the token sent to it, as a refusal names them."""
        return InboxAddress(self.base, self._token, token_saved=self._reread_token is not None)

    # -- connection ----------------------------------------------------------------------

    def connect(self, timeout: float = HTTP_TIMEOUT) -> None:
        """Open the event stream and start reading it in a thread of its own.

        Raises `InboxRefused` (with the inbox's reason, or saying that what answers did not
        prove it is the inbox) or `InboxUnreachable`; nothing has been received then.
        """
        self._open(timeout)
        self._reader = threading.Thread(
            target=self._read_forever, name=f"inbox-events-{self.name}", daemon=True
        )
        self._reader.start()

    def _http(self, timeout: float) -> http.client.HTTPConnection:
        kind = (
            http.client.HTTPSConnection if self._scheme == "https" else http.client.HTTPConnection
        )
        return kind(self._netloc, timeout=timeout)

    def _open(self, timeout: float) -> None:
        connection = self._http(timeout)
        path = f"{self._prefix}/v1/events?front_end={quote(self.name)}"
        signed = SignedRequest(self._token, "GET", path)
        try:
            connection.request(
                "GET", path, headers={**signed.headers, "Accept": "text/event-stream"}
            )
            response = connection.getresponse()
        except OSError as error:
            connection.close()
            raise InboxUnreachable(f"no inbox answers at {self.base}: {error}") from error
        if response.status == 503:
            connection.close()
            raise InboxUnreachable(f"the inbox at {self.base} is shutting down")
        proof = response.getheader(PROOF_HEADER)
        try:
            if response.status != 200:
                body = signed.answer(self.base, response.status, proof, response.read(2000))
                raise InboxRefused(
                    _refusal_text(self._address, response.status, body.decode("utf-8", "replace"))
                )
            signed.stream(self.base, response.status, proof)
        except (InboxRefused, NotProven) as error:
            connection.close()
            raise InboxRefused(str(error)) from None
        if connection.sock is not None:
            connection.sock.settimeout(self._stale_after)
        with self._lock:
            self._connection, self._stream, self._signed = connection, response, signed

    def _read_forever(self) -> None:
        attempt = 0
        refused = False  # said so since the last connection
        while not self._closed.is_set():
            stream, signed = self._stream, self._signed
            if stream is not None and signed is not None:
                try:
                    for message in _messages(stream, signed, self.base):
                        attempt = 0
                        self._on_message(message)
                except (OSError, http.client.HTTPException, ValueError) as error:
                    _log.info("the inbox's event stream ended: %s", error)
                self._drop_stream()
                if self._closed.is_set():
                    return
                self._say(RECONNECTING)
            time.sleep(BACKOFF[min(attempt, len(BACKOFF) - 1)])
            attempt += 1
            try:
                if self._reread_token is not None:
                    self._token = checked_token(self._reread_token())
                self._open(HTTP_TIMEOUT)
            # (ValueError: a token read again that no header can carry)
            except (InboxRefused, InboxUnreachable, ValueError) as error:
                _log.info("reconnecting to the inbox failed: %s", error)
                if isinstance(error, InboxRefused) and not refused:
                    refused = True
                    self._say(TOKEN_REFUSED.format(remedy=self._token_remedy))
                continue
            refused = False
            if self._closed.is_set():
                self._drop_stream()
                return
            self._resync()
            self._say(RECONNECTED)

    def _drop_stream(self) -> None:
        with self._lock:
            connection, self._connection, self._stream = self._connection, None, None
            self._signed = None
        if connection is not None:
            connection.close()

    def _resync(self) -> None:
        """End the requests this front end holds that the inbox no longer has waiting."""
        try:
            listing = self._get_json(f"{self._prefix}/v1/requests")
            waiting = {str(request["id"]) for request in listing["pending"]}
        except (OSError, http.client.HTTPException, ValueError, KeyError, TypeError) as error:
            _log.info("could not re-read the inbox's pending requests: %s", error)
            return
        with self._lock:
            gone = [rid for rid in self._pending if rid not in waiting]
        for request_id in gone:
            self._end_unseen(request_id)

    def _end_unseen(self, request_id: str) -> None:
        """Report a request that ended while this front end was away. How it ended is not
        asked: the result belongs to its asker (reading it may hand it over)."""
        result = ElicitationResult(action="cancel", reason=ENDED_UNSEEN)
        with self._lock:
            requested = self._pending.pop(request_id, None)
            if requested is None:
                return
            event = QueueEvent("resolved", requested.request, result)
            _keep(self._answered, request_id, Answered(None, event.at))
            self._dispatch(event)

    def _say(self, text: str) -> None:
        if self.on_status is not None:
            self.on_status(text)

    # -- events ---------------------------------------------------------------------------

    def _on_message(self, data: dict[str, Any]) -> None:
        try:
            event = event_from_wire(data)
        except (KeyError, TypeError, ValueError) as error:
            _log.warning("the inbox sent an event this front end cannot read: %s", error)
            return
        request_id = event.request.id
        with self._lock:
            if event.type == "requested":
                if request_id in self._pending:
                    return  # heard of already: a reconnect replays what is pending
                self._pending[request_id] = event
            else:
                if self._pending.pop(request_id, None) is None and request_id in self._answered:
                    return
                action = event.result.action if event.result is not None else "accept"
                _keep(self._answered, request_id, Answered(event.answered_by, event.at, action))
            self._dispatch(event)

    def _dispatch(self, event: QueueEvent) -> None:
        for subscriber in list(self._subscribers):
            try:
                subscriber(event)
            except Exception:
                _log.exception(
                    "a front end failed on the %s event of %s", event.type, event.request.id
                )

    # -- FrontEndSource ----------------------------------------------------------------------

    def subscribe(self, subscriber: Subscriber, *, front_end: bool = True) -> Callable[[], None]:
        """Receive events from now on, after a `requested` event for every request waiting.

        `front_end` changes nothing here: the connection itself makes this a front end.
        """
        with self._lock:
            self._subscribers.append(subscriber)
            for event in list(self._pending.values()):
                subscriber(event)

        def unsubscribe() -> None:
            with self._lock:
                if subscriber in self._subscribers:
                    self._subscribers.remove(subscriber)

        return unsubscribe

    def is_pending(self, request_id: str) -> bool:
        """True while the inbox has the request waiting, as far as its events have said."""
        with self._lock:
            return request_id in self._pending

    def pending(self) -> list[Request]:
        """The requests waiting in the inbox, oldest first, as far as its events have said."""
        with self._lock:
            return [event.request for event in self._pending.values()]

    def respond(
        self, request_id: str, result: ElicitationResult, front_end: str | None = None
    ) -> bool:
        """Send an answer to the inbox (blocking, up to `HTTP_TIMEOUT`); True if it counted.

        Sent once, never again on its own: raises `AnswerNotSent` if the inbox could not be
        reached or did not reply in time (it may still apply it, if it got it: sending it
        again then counts as this front end's answer, once), or replied that it did not
        apply it for any other reason than the request having ended (422: it does not fit
        the request; a 5xx of the inbox or of a proxy before it): the request still waits,
        to be answered again. `AnswerNeedsConfirming` if the inbox held it until the person
        agrees (a secret for a keyring entry that exists): sent again, it is applied. False: the request had ended (409), or is not there (404).
        """
        name = front_end or self.name
        body = json.dumps(
            {"result": result_json(result, reveal_secrets=True), "front_end": name}
        ).encode()
        path = self._prefix + request_path(request_id, "answer")
        try:
            status, reply = self._post(path, body)
        except TimeoutError as error:
            raise AnswerUnconfirmed(
                "the inbox did not reply in time (it may still apply this answer)"
            ) from error
        except (OSError, http.client.HTTPException) as error:
            raise AnswerNotSent(f"the inbox could not be reached ({error})") from error
        if status == 200:
            return True
        if status == 409 and isinstance(reply, dict):
            by = reply.get("answered_by")
            answered = Answered(by if isinstance(by, str) else None, float(reply.get("at") or 0))
            if answered.by == name:
                return True  # an answer of this front end's that was applied
            # The inbox's own words, where given: a request that ended without any front end
            # ("ended (timeout) at 14:02") is not said to be answered.
            message = reply.get("message")
            with self._lock:
                _keep(self._answered, request_id, answered)
                _keep(
                    self._refusals,
                    request_id,
                    message if isinstance(message, str) and message else answered.describe(),
                )
            return False
        if status == 422 and isinstance(reply, dict) and reply.get("problem") == "exists":
            raise AnswerNeedsConfirming(str(reply.get("error")))
        if status not in (404, 409):
            raise AnswerNotSent(_refusal_text(self._address, status, json.dumps(reply)))
        with self._lock:
            _keep(
                self._refusals, request_id, _refusal_text(self._address, status, json.dumps(reply))
            )
        return False

    def answered(self, request_id: str) -> Answered | None:
        """Who ended a request, and when, as the inbox told this front end."""
        with self._lock:
            return self._answered.get(request_id)

    def refusal(self, request_id: str) -> str:
        """Why the last answer to `request_id` was not applied, in words for the person."""
        with self._lock:
            why = self._refusals.get(request_id)
            answered = self._answered.get(request_id)
        if why is not None:
            return why
        return "it was no longer waiting" if answered is None else answered.describe()

    def close(self) -> None:
        """Stop listening; answers nothing: the inbox keeps the questions for other front ends."""
        self._closed.set()
        with self._lock:
            connection = self._connection
            self._subscribers.clear()
        sock = None if connection is None else connection.sock
        if sock is not None:
            # Wakes the reader thread, blocked in a read; it closes the connection itself.
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
        if self._reader is None or not self._reader.is_alive():
            self._drop_stream()

    def cancel_all(self) -> int | None:
        """Ask the inbox to cancel every waiting request; how many it cancelled (None: it
        could not be reached or refused)."""
        try:
            status, reply = self._post(f"{self._prefix}/v1/cancel-all", b"{}")
        except (OSError, http.client.HTTPException):
            return None
        count = reply.get("cancelled") if isinstance(reply, dict) else None
        return count if status == 200 and isinstance(count, int) else None

    # -- plain requests -----------------------------------------------------------------------

    def _post(self, path: str, body: bytes) -> tuple[int, Any]:
        connection = self._http(HTTP_TIMEOUT)
        signed = SignedRequest(self._token, "POST", path, body)
        try:
            headers = {**signed.headers, "Content-Type": "application/json"}
            connection.request("POST", path, body=body, headers=headers)
            response = connection.getresponse()
            text = response.read()
        finally:
            connection.close()
        text = signed.answer(self.base, response.status, response.getheader(PROOF_HEADER), text)
        try:
            reply: Any = json.loads(text) if text else None
        except ValueError:
            reply = None
        return response.status, reply

    def _get_json(self, path: str) -> Any:
        connection = self._http(HTTP_TIMEOUT)
        signed = SignedRequest(self._token, "GET", path)
        try:
            connection.request("GET", path, headers=signed.headers)
            response = connection.getresponse()
            text = response.read()
        finally:
            connection.close()
        text = signed.answer(self.base, response.status, response.getheader(PROOF_HEADER), text)
        if response.status != 200:
            raise ValueError(f"HTTP {response.status}")
        return json.loads(text)


def _keep(kept: OrderedDict[str, Any], request_id: str, value: Any) -> None:
    """Remember `value` for `request_id`, forgetting the oldest beyond `ANSWERS_KEPT`."""
    kept[request_id] = value
    kept.move_to_end(request_id)
    if len(kept) > ANSWERS_KEPT:
        kept.popitem(last=False)


def _messages(
    stream: http.client.HTTPResponse, signed: SignedRequest, base: str
) -> Iterator[dict[str, Any]]:
    """The data of each server-sent event on `stream`, each checked against the proof it
    carries for `signed`, until it ends (then OSError, `NotProven` among them, or ValueError)."""
    data: list[str] = []
    proof: str | None = None
    index = 0
    while True:
        raw = stream.readline()
        if not raw:
            raise ConnectionResetError("the inbox closed the event stream")
        line = raw.decode("utf-8").rstrip("\r\n")
        if not line:
            if data:
                text = "\n".join(data)
                signed.part(base, index, text, proof)
                index += 1
                message = json.loads(text)
                data, proof = [], None
                if isinstance(message, dict):
                    yield message
            continue
        if line.startswith(":"):
            continue  # a keepalive
        field, _, value = line.partition(":")
        if field == "data":
            data.append(value.removeprefix(" "))
        elif field == "proof":
            proof = value.removeprefix(" ")


def _refusal_text(address: InboxAddress, status: int, body: str) -> str:
    if status in DOOR:
        return door_refusal(address, status, json_object(body.encode()))
    try:
        error = json.loads(body).get("error")
    except (ValueError, AttributeError):
        error = None
    why = f": {error}" if isinstance(error, str) else ""
    return f"the inbox answered HTTP {status}{why}"


def event_from_wire(data: dict[str, Any]) -> QueueEvent:
    """A `QueueEvent` from one SSE message's data; raises `ValidationError`/`KeyError`/`ValueError`
    if malformed. The deadline is turned from seconds left into this process's clock."""
    kind = data["type"]
    if kind not in ("requested", "resolved"):
        raise ValueError(f"unknown event type {kind!r}")
    result = data.get("result")
    deadline_in = data.get("deadline_in")
    by = data.get("answered_by")
    request = request_from_wire(data["request"])
    return QueueEvent(
        kind,
        request,
        # Flagged, a sensitive answer (sent masked) is shown as the app shows one: •••.
        result=None
        if result is None
        else flagged(request, ElicitationResult.model_validate(result)),
        deadline=None if deadline_in is None else time.monotonic() + float(deadline_in),
        at=float(data.get("at") or time.time()),
        answered_by=by if isinstance(by, str) else None,
    )


def request_from_wire(data: Any) -> Request:
    """The request an event carries; raises `ValidationError` if it is malformed.

    A request of a kind registered in the inbox but not here (its module is not named by
    `ELICIT_TUI_KINDS` in this process) is read as the fields every request has: the app then
    shows it as a kind it cannot show (the person is told, the asker hears `unsupported_kind:
    name`), as it does any kind it has no modal for, instead of it waiting unseen.
    """
    try:
        return parse_request(data)
    except ValidationError:
        name = data.get("kind") if isinstance(data, dict) else None
        if not isinstance(name, str) or kind(name) is not None:
            raise
        return of_unregistered_kind(data)
