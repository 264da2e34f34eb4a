"""A real elicit-tui process (headless) that crashes or misbehaves with a secret in play.

`python crash_session.py CASE SECRET`: the person types SECRET; CASE says what goes wrong.
The test reads this process's stdout and stderr for the secret in any spelling.
"""

from __future__ import annotations

import json
import logging
import sys
from typing import Any

from pydantic import BaseModel, SecretStr, field_validator
from textual.pilot import Pilot
from textual.widgets import Input

from tui import ElicitationApp, ElicitationQueue, FormRequest, SecretRequest
from widgets.base import ElicitationModal

CASE, SECRET = sys.argv[1], sys.argv[2]


class Login(BaseModel):
    api_key: SecretStr

    @field_validator("api_key")
    @classmethod
    def _checked(cls, value: SecretStr) -> SecretStr:
        if CASE == "validator rejects":
            raise ValueError(f"{value.get_secret_value()!r} is not a key we issued")
        content = {"api_key": value.get_secret_value()}
        return content["missing"]  # a bug: KeyError, with the secret in this frame's locals


class Unprintable:
    def __init__(self, secret: str) -> None:
        self.secret = secret

    def __repr__(self) -> str:
        raise ValueError(f"cannot show {self.secret!r}")


def agent(queue: ElicitationQueue) -> Any:
    if CASE == "escaped spellings":
        secret = queue.ask(SecretRequest(message="API key?")).content.get_secret_value()
        quoted = f'the "{secret}" key'  # both quote marks: its repr escapes the secret's '
        logging.getLogger("agent").warning(
            "agent got %r and %s", {"key": quoted}, json.dumps(quoted)
        )
        return repr(quoted)
    if CASE == "repr raises":
        answer = queue.ask(SecretRequest(message="API key?"))
        return Unprintable(answer.content.get_secret_value())
    return queue.ask_form(Login, message="API key?")


async def person(pilot: Pilot[Any]) -> None:
    app = pilot.app
    while not isinstance(app.screen, ElicitationModal) or not app.screen.is_mounted:
        await pilot.pause(0.02)
    app.screen.query_one(Input).value = SECRET
    await pilot.press("ctrl+s" if isinstance(app.screen.request, FormRequest) else "enter")
    await pilot.pause(1.0)
    print("screen:", app.export_screenshot())
    await pilot.press("escape", "q")


if __name__ == "__main__":
    logging.basicConfig(stream=sys.stderr, format="%(levelname)s %(message)s")
    result = ElicitationApp(ElicitationQueue(), agent, input_grace=0).run(
        headless=True, size=(80, 24), auto_pilot=person
    )
    app_return = type(result).__name__
    print("returned:", app_return)
