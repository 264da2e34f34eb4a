"""Requests signed with the inbox's token, and the proof the inbox gives in its answers.

A client never sends the token itself: whatever listens on the inbox's port while no inbox
runs (another user's program) would be handed it. It sends a fresh nonce, the time, and an
HMAC keyed by the token of the method, the path, both and the body's hash; the inbox checks
it (`tui.mcp.auth`) and proves in its answer that it holds the token too. An answer whose
body is known as it starts carries an HMAC of the nonce, the status and the body's hash in
`Elicit-Proof`; one streamed as it comes (a held call, the event stream) proves its status
there, and each part a client acts on carries a proof of its own. A client acts on no answer
without one (`NotProven`). Only the standard library: a hook runs this on every tool call.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import time

SCHEME = "Elicit-HMAC"
"""The `Authorization` scheme of a signed request (its value: the request's HMAC)."""

NONCE_HEADER = "Elicit-Nonce"
TIME_HEADER = "Elicit-Time"
PROOF_HEADER = "Elicit-Proof"

WINDOW = 300.0
"""Seconds a signed request's time may be off the inbox's clock: a request captured by
whatever listened meanwhile is refused once this has passed, and before, once it was used."""

DOOR_REFUSALS = frozenset({401, 403, 413, 421})
"""What the inbox's door answers before it knows a request is signed: these carry no proof."""

SIGNER_SCOPE_KEY = "elicit_tui.answer_signer"
"""Where the door leaves a signed request's `AnswerSigner` in the ASGI scope, for the
answers that stream and so sign their parts themselves."""

_WRONG = "its proof does not match (an inbox with another token, or an answer changed on the way)"


class NotProven(ConnectionError):
    """The server answered without proving it holds the token: no inbox is there to act on."""

    def __init__(self, base: str, why: str) -> None:
        super().__init__(f"the server at {base} did not prove it is the inbox: {why}")


def request_mac(token: str, method: str, target: str, stamp: str, nonce: str, body: bytes) -> str:
    """The HMAC a request to `target` (path and query, as sent) carries."""
    return _mac(token, "request", method.upper(), target, stamp, nonce, _digest(body))


def answer_proof(token: str, nonce: str, what: str, data: bytes) -> str:
    """The HMAC with which the inbox proves `data`, the part `what` of its answer to `nonce`."""
    return _mac(token, "answer", nonce, what, _digest(data))


class SignedRequest:
    """One request signed with `token` (unsigned if None: a server that wants no token is
    asked as it is), and the check of the answer it gets."""

    def __init__(self, token: str | None, method: str, target: str, body: bytes = b"") -> None:
        self._token = token
        self._nonce = os.urandom(16).hex()
        self.headers: dict[str, str] = {}
        """The headers to send it with."""
        if token is not None:
            stamp = str(int(time.time()))
            mac = request_mac(token, method, target, stamp, self._nonce, body)
            self.headers = {
                "Authorization": f"{SCHEME} {mac}",
                NONCE_HEADER: self._nonce,
                TIME_HEADER: stamp,
            }

    def answer(self, base: str, status: int, proof: str | None, body: bytes) -> bytes:
        """The body of the answer from the server at `base`, checked against its `proof`
        header: as it came, or what a held call's answer sealed in it. Raises `NotProven`."""
        token = self._token
        if token is None or _failure(status):
            return body
        if proof is None:
            raise NotProven(base, "its answer carries no proof")
        if _proves(token, self._nonce, proof, str(status), body):
            return body
        if _proves(token, self._nonce, proof, f"{status} stream", b""):
            return self._opened(token, base, body)
        raise NotProven(base, _WRONG)

    def stream(self, base: str, status: int, proof: str | None) -> None:
        """Check the `proof` header of a stream (the events) the server at `base` answers."""
        if self._token is None or _failure(status):
            return
        if proof is None:
            raise NotProven(base, "its answer carries no proof")
        if not _proves(self._token, self._nonce, proof, f"{status} stream", b""):
            raise NotProven(base, _WRONG)

    def part(self, base: str, index: int, data: str, proof: str | None) -> None:
        """Check the proof of part `index` (from 0) of a stream, whose content is `data`."""
        if self._token is None:
            return
        if proof is None:
            raise NotProven(base, f"part {index} of its stream carries no proof")
        if not _proves(self._token, self._nonce, proof, f"part {index}", data.encode()):
            raise NotProven(base, _WRONG)

    def _opened(self, token: str, base: str, body: bytes) -> bytes:
        if not body.strip():
            return body  # cut short before the answer: nothing in it to act on
        try:
            sealed = json.loads(body)
        except ValueError:
            sealed = None
        text = sealed.get("signed") if isinstance(sealed, dict) else None
        proof = sealed.get("proof") if isinstance(sealed, dict) else None
        if not isinstance(text, str) or not isinstance(proof, str):
            raise NotProven(base, "its answer carries no proof")
        if not _proves(token, self._nonce, proof, "sealed", text.encode()):
            raise NotProven(base, _WRONG)
        return text.encode()


class AnswerSigner:
    """How the inbox proves, in its answer to the signed request `nonce`, that it holds `token`."""

    def __init__(self, token: str, nonce: str) -> None:
        self._token = token
        self._nonce = nonce

    def proof(self, status: int, body: bytes) -> str:
        """The `Elicit-Proof` header of an answer sent whole."""
        return answer_proof(self._token, self._nonce, str(status), body)

    def stream_proof(self, status: int) -> str:
        """The `Elicit-Proof` header of an answer streamed, whose parts prove themselves."""
        return answer_proof(self._token, self._nonce, f"{status} stream", b"")

    def sealed(self, body: bytes) -> bytes:
        """A held call's answer `body`, sealed with its proof in the stream it ends."""
        text = body.decode()
        proof = answer_proof(self._token, self._nonce, "sealed", body)
        return json.dumps({"signed": text, "proof": proof}).encode()

    def part_proof(self, index: int, data: str) -> str:
        """The proof of part `index` (from 0) of a stream, whose content is `data`."""
        return answer_proof(self._token, self._nonce, f"part {index}", data.encode())


def _failure(status: int) -> bool:
    """Whether `status` says only that nothing was done, which may come unproven: the door's
    refusals, and a server error (a proxy before the inbox answers 502, 503, 504 itself). A
    client acts on none of them but to say so."""
    return status in DOOR_REFUSALS or status >= 500


def _proves(token: str, nonce: str, given: str, what: str, data: bytes) -> bool:
    expected = answer_proof(token, nonce, what, data)
    return hmac.compare_digest(given.encode(), expected.encode())


def _mac(token: str, *parts: str) -> str:
    message = "\n".join(parts).encode()
    return hmac.new(token.encode(), message, hashlib.sha256).hexdigest()


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()
