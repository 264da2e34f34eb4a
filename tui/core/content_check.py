"""An answer's content checked as its request's kind checks it (`check_content`), the same
way wherever the answer is given: in a dialog, by a front end over an inbox, by a script;
and checked to be content JSON can carry, as every answer may travel as JSON (to an inbox,
out of `elicit-tui ask`, into a transcript)."""

from __future__ import annotations

import json
from typing import Any, NoReturn

from pydantic import ValidationError
from pydantic_core import to_json

from tui.core.error_text import error_message, error_text
from tui.core.redactor import Redactor
from tui.core.request_base import RequestBase
from tui.core.strings_in import strings_in

CHECK_WENT_WRONG = (
    "This answer could not be checked: the question's own check went wrong."
    " Try another answer, or cancel."
)
"""What the person answering is told where the request's `check_content` raised what it
should not (a KeyError): the error itself is for the developer."""


class ContentRefused(ValueError):
    """Content that is not an answer the request takes; the message says why, in a line.
    `check_failed`: the request's own check raised what it should not, and the message
    names that error, for the developer (`plain` is what the person is told)."""

    def __init__(self, why: str, *, check_failed: bool = False) -> None:
        super().__init__(why)
        self.check_failed = check_failed

    @property
    def plain(self) -> str:
        """Why, for the person answering: the message, or, where the check failed, that it
        could not check the answer."""
        return CHECK_WENT_WRONG if self.check_failed else str(self)


class ContentNotJSON(TypeError):
    """Content no JSON can carry (an `object()`, bytes that are no UTF-8 text): not the
    person's doing, but that of the code that gave it (a dialog's `content()`)."""


def checked_content(request: RequestBase, content: Any) -> Any:
    """`content` as `request.check_content` gives it back; raises `ContentRefused` where the
    check raised anything: a `ValueError` says why, and any other error (a `KeyError`, even
    `SystemExit`) refuses the answer too, named, as a kind's check that went wrong. What the
    check gives back is then held to `check_sendable`."""
    try:
        checked = request.check_content(content)
    except ValidationError as error:
        raise _refused(request, content, validation_problems(error)) from None
    except ValueError as error:
        raise _refused(request, content, error_message(error)) from None
    except (Exception, SystemExit) as error:  # a kind's own check, raising what it should not
        raise _refused(
            request,
            content,
            f"checking the answer raised {error_text(error)} (check_content refuses an answer"
            " by raising ValueError)",
            check_failed=True,
        ) from None
    check_sendable(request, checked)
    return checked


def _refused(
    request: RequestBase, content: Any, why: str, *, check_failed: bool = False
) -> ContentRefused:
    """The refusal saying `why`; where the request is sensitive, every text of the answer
    that `why` quotes is `•••` (a front end, a script, a log reads it)."""
    if request.sensitive:
        answer = Redactor()
        for text in strings_in(content):
            answer.register(text)
        why = answer.scrub(why)
    return ContentRefused(why, check_failed=check_failed)


def check_sendable(request: RequestBase, content: Any) -> None:
    """Raise `ContentNotJSON` for content JSON cannot carry, and `ContentRefused` for
    content holding a float JSON has no number for (NaN, infinity: it would arrive as null)."""
    try:
        # NaN and infinity as their JavaScript names, not as null: found, they are refused.
        text = to_json(content, inf_nan_mode="constants")
    except Exception as error:  # whatever the serializer met (PydanticSerializationError)
        raise ContentNotJSON(
            f"the {request.kind} answer's content cannot be sent as JSON: {error_text(error)}"
        ) from None
    if b"NaN" in text or b"Infinity" in text:  # in a string, as often: no number
        json.loads(text, parse_constant=_not_finite)


def _not_finite(constant: str) -> NoReturn:
    raise ContentRefused(
        f"the answer holds the number {constant}, which JSON cannot carry (a float that is"
        " not finite)"
    )


def validation_problems(error: ValidationError) -> str:
    """The problems `content_type` found, in a line: "Input should be a valid string"."""
    problems = []
    for problem in error.errors(include_url=False):
        where = ".".join(str(part) for part in problem["loc"])
        problems.append(f"{where}: {problem['msg']}" if where else problem["msg"])
    return "; ".join(problems)
