"""`POST /v1/hooks/{cli}`: a coding-agent CLI's permission hook, run in the inbox.

`elicit-tui hook CLI` sends the hook input as the CLI gave it, `{"input": TEXT, "wait": S}`.
The inbox reads it as that CLI's hook input, asks the call (a rule answers what it covers,
else a person has up to `wait` seconds), and answers `{"decided", "output", "note"}`: the
text the hook prints (empty when nothing is decided) and why nothing was. The hook process
so loads no models and no validators: a tool call costs the CLI a process start and one
round trip. While the person thinks, the answer's body starts with a space a second, so a
hook finds out within seconds that a stopped inbox will not answer. A hook that hangs up
while its question waits (its CLI gave up on it, or killed it) withdraws the question.
"""

from __future__ import annotations

import asyncio
from typing import Any

from starlette.requests import Request as HTTPRequest
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from tui.core.limits import MAX_TIMEOUT, LimitError
from tui.core.models import ElicitationResult, Request
from tui.inbox.heartbeating import Heartbeating
from tui.inbox.http_api import WITHDRAWN, BadInput, read_json
from tui.inbox.inbox import Inbox
from tui.inbox.remote_queue import INBOX_REFUSED
from tui.inbox.waiting import until_done
from tui.integrations.hooks.clis import CLI_NAMES
from tui.integrations.hooks.flow import run_hook
from tui.integrations.hooks.formats import hook_format
from tui.integrations.hooks.undecided import CANCELLED_ALL


def hook_routes(inbox: Inbox) -> list[Route]:
    """The route `elicit-tui hook` calls, asking in `inbox`."""

    async def hook(http: HTTPRequest) -> Response:
        name = http.path_params["cli"]
        if name not in CLI_NAMES:
            known = ", ".join(sorted(CLI_NAMES))
            return JSONResponse({"error": f"no hook for {name!r}: one of {known}"}, 404)
        try:
            text, wait = _read_hook_call(await read_json(http))
        except BadInput as error:
            return JSONResponse({"error": str(error)}, status_code=422)

        async def ask(request: Request) -> ElicitationResult:
            try:
                future = inbox.submit(request, wait)
            except LimitError:
                raise  # said as such by `run_hook`
            except ValueError:  # the same call waits already, asked by another hook run
                return ElicitationResult(action="cancel", reason=INBOX_REFUSED)
            try:
                await until_done(future, None)
                result = future.result()
            except asyncio.CancelledError:  # the hook hung up: its CLI gave up on it
                inbox.queue.cancel(request.id, WITHDRAWN)
                raise
            finally:
                inbox.forget(request.id)
            if result.reason == "closed" and not inbox.queue.closed:
                # `POST /v1/cancel-all` ends what waits as `closed` too; the inbox runs on.
                return result.model_copy(update={"reason": CANCELLED_ALL})
            return result

        async def answer() -> dict[str, Any]:
            run = await run_hook(hook_format(name), text, ask, wait=wait)
            return {"decided": run.decided, "output": run.stdout, "note": run.note}

        return Heartbeating(answer(), http)

    return [Route("/v1/hooks/{cli}", hook, methods=["POST"])]


def _read_hook_call(data: dict[str, Any]) -> tuple[str, float]:
    """The hook input and the seconds to wait in `data`; raises `BadInput` saying what is wrong."""
    unknown = set(data) - {"input", "wait"}
    if unknown:
        raise BadInput(f"unknown field {sorted(unknown)[0]!r}: the body is {{input, wait}}")
    text, wait = data.get("input"), data.get("wait")
    if not isinstance(text, str):
        raise BadInput("input must be the hook's input as text")
    if isinstance(wait, bool) or not isinstance(wait, int | float) or not 0 < wait <= MAX_TIMEOUT:
        raise BadInput(
            f"wait must be a number of seconds above 0 and at most {MAX_TIMEOUT:.0f} (30 days)"
        )
    return text, float(wait)
