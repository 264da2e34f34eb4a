"""A front end for agent authors' tests: canned answers keyed by the request's message."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from tui.core.content_check import ContentNotJSON, ContentRefused, checked_content
from tui.core.models import (
    KEYRING_UNAVAILABLE,
    ElicitationResult,
    FormRequest,
    QuestionsRequest,
    Request,
    SecretRequest,
    ToolApprovalRequest,
)
from tui.core.queue import ElicitationQueue, QueueEvent
from tui.secrets.keyring_store import KeyringError, with_secret_stored

Answer = ElicitationResult | Callable[[Request], ElicitationResult] | Any
"""A result, a function of the request giving one, or plain content (accepted)."""


class UnscriptedRequestError(LookupError):
    """An agent asked something the script has no answer for."""


class ImpossibleAnswerError(ValueError):
    """The script accepts a request with content the UI could never give (an option that
    does not exist, text in a number field); the message names the request and why."""


class ScriptedResponder:
    """Answers each request at once from `answers`; every asked request is kept in `asked`
    (not one answered as it arrived, by an approval rule: nobody was asked).

    A request is looked up by its message; a tool approval also by its tool name, so
    `{"shell": {"scope": "session"}}` answers every approval of `shell`; a batch of questions
    also question by question, each by its own text (`{"Which database?": "SQLite", ...}`).
    An accepted answer is checked against its request and typed as the UI types it (a form
    made from a model gives a model instance; fields left out take their defaults; a secret
    to store goes to the keyring, replacing an entry of that name, and is answered with its
    `SecretRef`). An unknown message makes the agent's `ask()` raise `UnscriptedRequestError`
    naming it; an answer the UI could not give, `ImpossibleAnswerError` saying why (also a
    secret to store where the keyring refuses it: script the person's choice then).
    """

    def __init__(self, queue: ElicitationQueue, answers: Mapping[str, Answer]) -> None:
        self.answers = dict(answers)
        self.asked: list[Request] = []
        self._queue = queue
        self.unsubscribe = queue.subscribe(self._on_event)

    def _on_event(self, event: QueueEvent) -> None:
        request = event.request
        if event.type != "requested" or not self._queue.is_pending(request.id):
            return  # answered before the script saw it (a remembered rule): nobody was asked
        self.asked.append(request)
        answer = self._answer_for(request)
        if callable(answer) and not isinstance(answer, ElicitationResult):
            answer = answer(request)
        if not isinstance(answer, ElicitationResult):
            answer = ElicitationResult(action="accept", content=answer)
        if answer.action == "accept":
            answer = answer.model_copy(update={"content": _checked(request, answer.content)})
            answer = _stored(request, answer)
        self._queue.respond(request.id, answer)

    def _answer_for(self, request: Request) -> Answer:
        key = request.message
        if key not in self.answers and isinstance(request, ToolApprovalRequest):
            key = request.tool_name
        if key in self.answers and not _answers_its_question(request, self.answers[key]):
            return self.answers[key]
        if isinstance(request, QuestionsRequest):
            texts = [q.question for q in request.questions]
            answered = {text: self.answers[text] for text in texts if text in self.answers}
            if answered and len(answered) == len(texts):
                return {"answers": answered, "notes": {}}
            if answered:
                missing = ", ".join(repr(t) for t in texts if t not in answered)
                raise UnscriptedRequestError(
                    f"the batch {request.message!r} is answered question by question, "
                    f"but not {missing}"
                )
        known = ", ".join(repr(m) for m in self.answers) or "none"
        raise UnscriptedRequestError(
            f"no scripted answer for message {request.message!r} (scripted: {known})"
        )


def _answers_its_question(request: Request, answer: Answer) -> bool:
    """Whether `answer`, found by the message of a batch whose message is one of its questions
    (a batch of one without a message), answers that question rather than the batch: a
    question's answer is a string or a list, a batch's never is."""
    return (
        isinstance(request, QuestionsRequest)
        and isinstance(answer, str | list)
        and any(q.question == request.message for q in request.questions)
    )


def _checked(request: Request, content: Any) -> Any:
    if isinstance(request, FormRequest):
        # A script's answer leaves out what a person would leave untouched.
        content = request.with_untouched(content)
    try:
        return checked_content(request, content)
    except (ContentRefused, ContentNotJSON) as refused:
        raise _impossible(request, str(refused)) from None


def _stored(request: Request, result: ElicitationResult) -> ElicitationResult:
    cancel = f"ElicitationResult(action='cancel', reason='{KEYRING_UNAVAILABLE}')"
    keeps = not isinstance(request, SecretRequest) or request.memory_fallback
    if not keeps and result.reason == KEYRING_UNAVAILABLE:
        raise _impossible(
            request,
            f"it is not offered to be kept in memory (memory_fallback=False): script {cancel}.",
        )
    try:
        return with_secret_stored(request, result, replace=True)  # the script's answer
    except KeyringError as error:
        # Where the keyring refuses, the app has the person choose; a plain answer does not.
        choice = (
            "A person would choose to keep it in memory or to cancel: script that as "
            f"ElicitationResult(action='accept', content=..., reason='{KEYRING_UNAVAILABLE}') "
            f"or {cancel}."
            if keeps
            else f"A person could only cancel: script {cancel}."
        )
        raise _impossible(request, f"{error} {choice}") from None


def _impossible(request: Request, why: str) -> ImpossibleAnswerError:
    return ImpossibleAnswerError(
        f"the scripted answer to {request.kind} request {request.message!r} "
        f"(id {request.id}) is not one the UI could give: {why}"
    )
