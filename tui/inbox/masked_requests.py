"""Requests as front ends get them: a secret answered through the inbox and echoed by an agent
in a later question reaches no front end, not even as text it does not show; and their answers
given back with the agent's own text where the front end only had the masked one.

Their results reach the front ends that way too: a sensitive answer masked whole, as a typed
secret's, and a secret picked from a question that echoed it masked, as the question showed it.
Only the asker gets the answer as given.

The front end a secret was typed in masks it on its own; every other front end knows nothing
of it, and would show "Is sk-live-... right?" as written. So the inbox masks it (`•••`) in the
request it sends, as the dialog of its own process would show it; a front end then answers
with what it was given: an option's value, a default kept, a field's name, all masked. Each
answered string that is a masked string of the request goes back to the agent as the agent
wrote it, as in a dialog of the inbox's own process, where the person picks what the agent
offered, shown masked.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from tui.core.models import ElicitationResult, Request, flagged
from tui.inbox.wire import MASKED, result_json
from tui.secrets.redaction import REDACTOR
from tui.transcript.records import scrubbed


def masked_request_json(request: Request) -> dict[str, Any]:
    """`request` as JSON data, every secret answered through this inbox so far masked."""
    data: dict[str, Any] = scrubbed(request.model_dump(mode="json"), REDACTOR.scrub)
    return data


def masked_result_json(request: Request, result: ElicitationResult) -> dict[str, Any]:
    """`result` of `request` as JSON data for every front end: the content of a sensitive
    answer masked whole, every secret answered through this inbox so far masked in any other."""
    return masked_json(flagged(request, result))


def masked_json(result: ElicitationResult) -> dict[str, Any]:
    """`result`, as its asker receives it (`delivered`), as JSON data for anyone else: a
    sensitive answer masked whole, every secret answered through this inbox so far masked."""
    data = result_json(result)
    if result.sensitive:
        data["content"] = MASKED
    else:
        data["content"] = scrubbed(data["content"], REDACTOR.scrub)
    return data


def unmasked_answer(request: Request, answer: Any) -> Any:
    """`answer`, a front end's JSON answer to `request` as `masked_request_json` gave it, with
    each string (a key too) that is one of the request's strings masked put back as written.

    A masked string that two of the request's strings share (two options holding two
    secrets) is left as it is: the inbox then refuses the answer as fitting no option, rather
    than guess which of the two the person meant."""
    originals: dict[str, str | None] = {}
    for text in _strings(request.model_dump(mode="json")):
        masked = REDACTOR.scrub(text)
        if masked != text:
            originals[masked] = text if originals.get(masked, text) == text else None
    if not originals:
        return answer
    return scrubbed(answer, lambda text: originals.get(text) or text)


def _strings(data: Any) -> Iterator[str]:
    """Every string in JSON `data`, the keys of its objects too."""
    if isinstance(data, str):
        yield data
    elif isinstance(data, dict):
        for key, value in data.items():
            yield str(key)
            yield from _strings(value)
    elif isinstance(data, list):
        for value in data:
            yield from _strings(value)
