"""The demo agent: sets up a new web service, asking every kind of question on the way."""

from __future__ import annotations

import time
from typing import Any

from tui.models import (
    ChoiceRequest,
    ConfirmationRequest,
    ElicitationResult,
    FormRequest,
    KeyringTarget,
    MultiChoiceRequest,
    SecretRequest,
    TextRequest,
)
from tui.queue import ElicitationQueue

SOURCE = "setup-agent"

DEMO_KEY = KeyringTarget(service="elicit-tui-demo", username="deploy_api_key")
"""Where the demo saves the API key; `elicit-tui secrets delete` removes it again."""

DEPLOY_SCHEMA: dict[str, Any] = {
    "type": "object",
    "title": "Deployment",
    "properties": {
        "region": {
            "type": "string",
            "title": "Region",
            "enum": ["eu-west-1", "us-east-1", "ap-southeast-2"],
            "default": "eu-west-1",
        },
        "instances": {
            "type": "integer",
            "title": "Instances",
            "minimum": 1,
            "maximum": 10,
            "default": 2,
        },
        "domain": {
            "type": "string",
            "title": "Domain",
            "description": "Where the service will answer",
            "minLength": 4,
        },
        "https": {"type": "boolean", "title": "Serve over HTTPS", "default": True},
    },
    "required": ["region", "instances", "domain"],
}


def api_key_request() -> SecretRequest:
    """The demo's API-key question: saved to the keyring, so the agent holds only a reference."""
    return SecretRequest(
        source=SOURCE,
        message="Paste the deploy API key for the hosting provider",
        description="It is saved in your system keyring; the agent, the transcript and "
        "the model's context get only a reference to it.",
        pattern="sk-...",
        min_length=8,
        store=DEMO_KEY,
    )


def _think(pause: float) -> None:
    """Stand-in for the model's own work between two questions."""
    time.sleep(pause)


def setup_service_agent(queue: ElicitationQueue, pause: float = 0.6) -> dict[str, Any]:
    """Ask for everything a new service needs; return a summary safe to print."""
    summary: dict[str, Any] = {}

    def ask(label: str, request: Any) -> ElicitationResult:
        _think(pause)
        result = queue.ask(request)
        summary[label] = (
            request.describe_content(result.content)
            if result.accepted
            else (f"({result.action}{', ' + result.reason if result.reason else ''})")
        )
        return result

    name = ask(
        "name",
        TextRequest(
            source=SOURCE,
            title="New service",
            message="What should the new service be called?",
            default="billing-api",
            min_length=3,
            max_length=40,
        ),
    )
    service = name.content if name.accepted else "billing-api"
    ask(
        "framework",
        ChoiceRequest(
            source=SOURCE,
            message=f"Which web framework should {service} use?",
            description="All of them run on **Python 3.11+**; pick what your team knows.",
            options=[
                {
                    "label": "FastAPI",
                    "value": "fastapi",
                    "description": "async, typed, OpenAPI docs",
                },
                {
                    "label": "Django",
                    "value": "django",
                    "description": "batteries included, admin UI",
                },
                {"label": "Flask", "value": "flask", "description": "small core, many extensions"},
                {
                    "label": "Litestar",
                    "value": "litestar",
                    "description": "async, fast, opinionated",
                },
            ],
            default="fastapi",
        ),
    )
    ask(
        "features",
        MultiChoiceRequest(
            source=SOURCE,
            message="Which features should the scaffold include?",
            options=[
                {
                    "label": "PostgreSQL",
                    "value": "postgres",
                    "description": "database + migrations",
                },
                {"label": "Redis cache", "value": "redis"},
                {"label": "Authentication", "value": "auth", "description": "OAuth2 login"},
                {"label": "Metrics", "value": "metrics", "description": "Prometheus endpoint"},
                {"label": "Background jobs", "value": "jobs"},
            ],
            default=["postgres", "metrics"],
            min_selected=1,
        ),
    )
    ask(
        "api_key",
        api_key_request(),
    )
    ask(
        "deployment",
        FormRequest(
            source=SOURCE,
            message="Where and how should it be deployed?",
            requested_schema=DEPLOY_SCHEMA,
        ),
    )
    go = ask(
        "deploy_now",
        ConfirmationRequest(
            source=SOURCE,
            message=f"Everything is ready. Deploy {service} now?",
            default=True,
            yes_label="Deploy",
            no_label="Not yet",
        ),
    )
    _think(pause)
    summary["status"] = "deployed" if go.accepted and go.content else "not deployed"
    return summary
