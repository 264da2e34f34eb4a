"""elicit-tui: let an agent ask the person at the keyboard, and get a typed answer back.

Importing `tui` does not import Textual; `tui.ElicitationApp` loads it on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

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
    parse_request,
)
from tui.core.options import Option
from tui.core.queue import ElicitationQueue, Policy, QueueEvent
from tui.core.schema import SchemaError
from tui.core.scripted import ImpossibleAnswerError, ScriptedResponder, UnscriptedRequestError
from tui.core.secret_ref import SecretRef

if TYPE_CHECKING:
    from tui.app.app import ElicitationApp

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
    "Request",
    "SchemaError",
    "ScriptedResponder",
    "SecretRef",
    "SecretRequest",
    "TextRequest",
    "ToolApprovalRequest",
    "UnscriptedRequestError",
    "parse_request",
]


def __getattr__(name: str) -> Any:
    if name == "ElicitationApp":
        from tui.app.app import ElicitationApp

        return ElicitationApp
    raise AttributeError(f"module 'tui' has no attribute {name!r}")
