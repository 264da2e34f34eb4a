"""A kind of one's own whose request holds a secret: a `SecretStr` field, for a dialog that
checks a typed token against it. No inbox in another process can be sent such a request."""

from __future__ import annotations

from typing import Literal

from pydantic import SecretStr

from tui import RequestBase, register_kind


class TokenCheckRequest(RequestBase):
    """Asks whether `token` is the right one (the dialog shows only its length)."""

    kind: Literal["token_check_test"] = "token_check_test"
    token: SecretStr


register_kind(TokenCheckRequest)
