"""elicit-tui: let an agent ask the person at the keyboard, and get a typed answer back.

Every name here is loaded on first use (PEP 562), so `import tui` costs next to nothing:
the request models and the queue load pydantic on first access, `tui.ElicitationApp` loads
Textual.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from tui.core.loading import loading_modules

if TYPE_CHECKING:
    from tui.app.app import ElicitationApp
    from tui.core.kinds import register_kind
    from tui.core.models import (
        KEYRING_UNAVAILABLE,
        Action,
        ArgumentPattern,
        ChoiceRequest,
        ConfirmationRequest,
        ElicitationResult,
        FormRequest,
        KeyringTarget,
        MultiChoiceRequest,
        Question,
        QuestionOption,
        QuestionsRequest,
        Request,
        SecretRequest,
        TextRequest,
        ToolApprovalRequest,
        UrlRequest,
        parse_request,
    )
    from tui.core.options import Option
    from tui.core.queue import ElicitationQueue, Policy, QueueEvent
    from tui.core.request_base import RequestBase
    from tui.core.schema import SchemaError
    from tui.core.secret_ref import SecretRef
    from tui.inbox.remote_queue import RemoteQueue
    from tui.testing.scripted import (
        ImpossibleAnswerError,
        ScriptedResponder,
        UnscriptedRequestError,
    )

__all__ = [
    "KEYRING_UNAVAILABLE",
    "Action",
    "ArgumentPattern",
    "ChoiceRequest",
    "ConfirmationRequest",
    "ElicitationApp",
    "ElicitationQueue",
    "ElicitationResult",
    "FormRequest",
    "ImpossibleAnswerError",
    "KeyringTarget",
    "MultiChoiceRequest",
    "Option",
    "Policy",
    "Question",
    "QuestionOption",
    "QuestionsRequest",
    "QueueEvent",
    "RemoteQueue",
    "Request",
    "RequestBase",
    "SchemaError",
    "ScriptedResponder",
    "SecretRef",
    "SecretRequest",
    "TextRequest",
    "ToolApprovalRequest",
    "UnscriptedRequestError",
    "UrlRequest",
    "parse_request",
    "register_kind",
]

_HOMES = {
    "ElicitationApp": "tui.app.app",
    "ElicitationQueue": "tui.core.queue",
    "Policy": "tui.core.queue",
    "QueueEvent": "tui.core.queue",
    "Option": "tui.core.options",
    "RequestBase": "tui.core.request_base",
    # the built-in kinds register first, so a program's kind can never take one's name
    "register_kind": "tui.core.models",
    "SchemaError": "tui.core.schema",
    "ImpossibleAnswerError": "tui.testing.scripted",
    "ScriptedResponder": "tui.testing.scripted",
    "UnscriptedRequestError": "tui.testing.scripted",
    "SecretRef": "tui.core.secret_ref",
    "RemoteQueue": "tui.inbox.remote_queue",
}
"""The module each name lives in; every other name of `__all__` lives in `tui.core.models`."""


def __getattr__(name: str) -> Any:
    if name not in __all__:
        raise AttributeError(f"module 'tui' has no attribute {name!r}")
    # Pydantic, Textual and the app: long-lived objects the collector need never walk.
    with loading_modules():
        module = importlib.import_module(_HOMES.get(name, "tui.core.models"))
    value = getattr(module, name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
