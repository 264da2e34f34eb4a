"""Coding-agent question batches in, their answer shapes out.

Claude Code's `AskUserQuestion` tool input and PilotDeck's elicitation request both carry
`questions: [{question, header, options: [{label, description, preview?}], multiSelect}]`;
`from_ask_user_question` turns either into a `QuestionsRequest`, and the result of that
request converts back to what each harness expects.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tui.core.models import ElicitationResult, QuestionAnswer, QuestionsRequest

PILOTDECK_ID_KEY = "toolCallId"
"""PilotDeck's correlation key; it becomes the request id."""


def from_ask_user_question(
    tool_input: Mapping[str, Any], *, source: str | None = None
) -> QuestionsRequest:
    """A `questions` request for an AskUserQuestion input or a PilotDeck elicitation request.

    Every question offers "Other", as both harnesses do. PilotDeck's `toolCallId` becomes the
    request id, and its `toolName`, `previewFormat` and `metadata` are kept; a question's
    `multi_select` (the `questions` kind's spelling) counts as its `multiSelect`; other keys
    neither format defines (and Claude Code's own `answers`/`annotations`) are ignored. Raises
    `pydantic.ValidationError` naming the field when a question or option is malformed.
    """
    questions = tool_input.get("questions")
    data: dict[str, Any] = {
        "kind": "questions",
        "source": source,
        "questions": [_question(q) for q in questions] if isinstance(questions, list) else [],
        "metadata": dict(tool_input.get("metadata") or {}),
    }
    if tool_input.get(PILOTDECK_ID_KEY):
        data["id"] = tool_input[PILOTDECK_ID_KEY]
    if tool_input.get("toolName"):
        data["metadata"]["toolName"] = tool_input["toolName"]
    if tool_input.get("previewFormat"):
        data["preview_format"] = tool_input["previewFormat"]
    return QuestionsRequest.model_validate(data)


def to_ask_user_question_answer(
    request: QuestionsRequest, result: ElicitationResult
) -> dict[str, Any] | None:
    """Claude Code's answer shape, or None when the person did not answer.

    On accept: `{"answers": {question: label}, "annotations": {question: {"preview"?, "notes"?}}}`,
    a multi-select answer being its labels joined with ", " (as Claude Code writes them).
    Merge it into the tool input to answer the call; on None, deny the call instead.
    """
    if not result.accepted:
        return None
    answers, notes = _content(result)
    return {
        "answers": {
            question: ", ".join(answer) if isinstance(answer, list) else answer
            for question, answer in answers.items()
        },
        "annotations": _annotations(request, answers, notes),
    }


def to_pilotdeck_answer(request: QuestionsRequest, result: ElicitationResult) -> dict[str, Any]:
    """PilotDeck's answer: `{"type": "answered", "answers", "annotations"}` or `{"type": "cancelled"}`.

    Multi-select answers stay lists. A request that was not accepted is "cancelled", with the
    reason the queue gave (`timeout`, `closed`, ...) or `user_declined` / `user_cancelled`.
    """
    if not result.accepted:
        reason = result.reason or (
            "user_declined" if result.action == "decline" else "user_cancelled"
        )
        return {"type": "cancelled", "reason": reason}
    answers, notes = _content(result)
    return {
        "type": "answered",
        "answers": answers,
        "annotations": _annotations(request, answers, notes),
    }


def _question(question: Any) -> Any:
    """One question in the `questions` kind's field names (left as is if it is not a mapping)."""
    if not isinstance(question, Mapping):
        return question
    options = question.get("options")
    return {
        "question": question.get("question"),
        "header": question.get("header") or None,
        "options": [_option(o) for o in options] if isinstance(options, list) else options,
        "multi_select": bool(question.get("multiSelect") or question.get("multi_select")),
    }


def _option(option: Any) -> Any:
    if not isinstance(option, Mapping):
        return option
    return {key: option[key] for key in ("label", "description", "preview") if key in option}


def _content(result: ElicitationResult) -> tuple[dict[str, QuestionAnswer], dict[str, str]]:
    content = result.content if isinstance(result.content, Mapping) else {}
    return dict(content.get("answers") or {}), dict(content.get("notes") or {})


def _annotations(
    request: QuestionsRequest, answers: Mapping[str, QuestionAnswer], notes: Mapping[str, str]
) -> dict[str, dict[str, str]]:
    """Per question: the chosen option's preview (single-select) and the person's note."""
    annotations: dict[str, dict[str, str]] = {}
    for question in request.questions:
        entry: dict[str, str] = {}
        answer = answers.get(question.question)
        chosen = next((o for o in question.options if o.label == answer), None)
        if chosen is not None and chosen.preview:
            entry["preview"] = chosen.preview
        if notes.get(question.question):
            entry["notes"] = notes[question.question]
        if entry:
            annotations[question.question] = entry
    return annotations
