"""Any schema of the subset renders as a form, and submitting it untouched gives its defaults."""

from __future__ import annotations

import asyncio
from typing import Any

import jsonschema
from hypothesis import HealthCheck, given, settings
from pydantic import SecretStr
from test_app import wait_for
from test_schema import schemas

from tui.app.app import ElicitationApp
from tui.core.models import FormRequest
from tui.core.queue import ElicitationQueue
from widgets.form import FormModal


def _answered_untouched(prop: dict[str, Any]) -> Any:
    """What a field without a default gives untouched, if it gives anything: a switch is
    off, a required checklist has nothing ticked."""
    return {"boolean": False, "array": []}.get(prop["type"])


def _blocking(schema: dict[str, Any]) -> set[str]:
    """The fields that stop an untouched form: required without a default, unless they hold
    an answer anyway (a checklist then still needs its `minItems`)."""
    props = schema["properties"]
    return {
        name
        for name in schema["required"]
        if "default" not in props[name]
        and (_answered_untouched(props[name]) is None or props[name].get("minItems", 0) > 0)
    }


def _revealed(content: dict[str, Any]) -> dict[str, Any]:
    return {k: v.get_secret_value() if isinstance(v, SecretStr) else v for k, v in content.items()}


def _form_complete(app: ElicitationApp, message: str) -> bool:
    screen = app.screen
    return isinstance(screen, FormModal) and screen.complete and screen.request.message == message


async def _submit_untouched(schema: dict[str, Any], *, asked_before: bool = False) -> None:
    """Submit a form of `schema` untouched; `asked_before`: after the same form was shown and
    cancelled in the same app, so that a form of fields it can reload is reloaded."""
    queue = ElicitationQueue()
    app = ElicitationApp(queue, input_grace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        earlier = None
        if asked_before:
            cancelled = queue.submit(FormRequest(message="Before", requested_schema=schema))
            await wait_for(pilot, lambda: _form_complete(app, "Before"), timeout=10)
            earlier = app.screen
            await pilot.press("escape")
            await wait_for(pilot, cancelled.done, timeout=10)
        request = FormRequest(message="Generated", requested_schema=schema)
        future = queue.submit(request)
        await wait_for(pilot, lambda: _form_complete(app, "Generated"), timeout=10)
        modal = app.screen
        assert isinstance(modal, FormModal)
        if earlier is not None:
            assert (modal is earlier) == (FormModal.body_shape(request) is not None)
        assert [f.field.name for f in modal.fields] == list(schema["properties"])
        await pilot.press("ctrl+s")
        blocking = _blocking(schema)
        if blocking:
            await pilot.pause()
            assert not future.done()
            assert {f.field.name for f in modal.fields if f.error is not None} == blocking
            return
        await wait_for(pilot, future.done, timeout=10)
    result = future.result()
    assert result.action == "accept"
    content = _revealed(result.content)
    validator = jsonschema.Draft202012Validator
    jsonschema.validate(content, schema, validator, format_checker=validator.FORMAT_CHECKER)
    props = schema["properties"]
    for name, prop in props.items():
        if "default" in prop:
            assert content[name] == prop["default"]
        elif name in schema["required"] or prop["type"] == "boolean":
            assert content[name] == _answered_untouched(prop)
        else:
            assert name not in content


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(schemas())
def test_any_schema_renders_and_submits_its_defaults(schema: dict[str, Any]) -> None:
    asyncio.run(_submit_untouched(schema))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(schemas())
def test_any_schema_asked_again_gives_its_defaults_from_the_form_kept(
    schema: dict[str, Any],
) -> None:
    asyncio.run(_submit_untouched(schema, asked_before=True))
