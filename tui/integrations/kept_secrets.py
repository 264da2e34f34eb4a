"""Adapters whose answers go where no secret may (a checkpointer, the model): only a secret the
keyring stores is asked there, and the graph or model gets its reference."""

from __future__ import annotations

from tui.core.models import FormRequest, Request, SecretRequest


class SecretNotKept(ValueError):
    """A question asks for a secret or a sensitive answer the adapter could only pass on to
    where no secret may go (`where` says where); it is refused before anyone is asked. A
    secret request with `store` is asked: the answer is the keyring entry's reference."""

    def __init__(self, request: Request, where: str) -> None:
        super().__init__(
            f"{request.message!r} asks for a secret or a sensitive answer, which {where}: ask"
            " a secret as a secret request with `store` (a keyring entry), and the answer is"
            " its reference"
        )


def only_stored_secrets(request: Request, where: str) -> Request:
    """`request`, where a secret the keyring refuses cannot be kept in memory (nothing would
    hold it: the person is offered only to cancel); `SecretNotKept` if the answer would be
    a secret typed in (a secret request without `store`, a form with a password field, a
    `sensitive` request)."""
    if isinstance(request, SecretRequest):
        if request.store is not None:
            return request.model_copy(update={"memory_fallback": False})
        raise SecretNotKept(request, where)
    if request.sensitive or (isinstance(request, FormRequest) and request.secret_fields()):
        raise SecretNotKept(request, where)
    return request
