"""The demo agent: sets up a new web service, asking every kind of question on the way."""

from __future__ import annotations

import time
from typing import Any

from tui.core.models import (
    ChoiceRequest,
    ConfirmationRequest,
    ElicitationResult,
    FormRequest,
    KeyringTarget,
    MultiChoiceRequest,
    QuestionsRequest,
    SecretRequest,
    TextRequest,
    ToolApprovalRequest,
)
from tui.core.queue import ElicitationQueue

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
        # True with a keyring and without one (the dialog then says it cannot save it).
        description="Once saved in your system keyring, the agent, the transcript and "
        "the model's context get only a reference to it.",
        pattern="sk-...",
        min_length=8,
        store=DEMO_KEY,
    )


def _think(queue: ElicitationQueue, pause: float) -> None:
    """Stand-in for the model's own work between two questions; none once the person quit."""
    if not queue.closed:
        time.sleep(pause)


def setup_service_agent(queue: ElicitationQueue, pause: float = 0.6) -> dict[str, Any]:
    """Ask for everything a new service needs; return a summary safe to print."""
    summary: dict[str, Any] = {}

    def ask(label: str, request: Any) -> ElicitationResult:
        _think(queue, pause)
        result = queue.ask(request)
        why = result.decline_reason or result.reason
        summary[label] = (
            request.describe_content(result.content)
            if result.accepted
            else f"({result.action}{': ' + why if why else ''})"
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
    framework = ask(
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
    ask("decisions", scaffold_questions(service))
    # Scaffolding: each tool call waits for approval; "for this session" covers the re-run.
    ask("run_tests", tests_approval("call-1", "uv run pytest -q"))
    code = framework.content if framework.accepted else "fastapi"
    ask("edit", health_check_edit("call-2", service, code))
    ask("rerun_tests", tests_approval("call-3", "uv run pytest -q tests/test_health.py"))
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
    _think(queue, pause)
    summary["status"] = "deployed" if go.accepted and go.content else "not deployed"
    return summary


def scaffold_questions(service: str) -> QuestionsRequest:
    """Three decisions asked as one batch, with code previews and room for notes."""
    return QuestionsRequest(
        source=SOURCE,
        message=f"A few decisions before I scaffold {service}",
        questions=[
            {
                "question": "How should users sign in?",
                "header": "Auth",
                "options": [
                    {
                        "label": "OAuth",
                        "description": "Google and GitHub; no passwords to keep",
                        "preview": "```python\n@app.get('/login')\n"
                        "async def login(request):\n"
                        "    return await oauth.google.authorize_redirect(request)\n```",
                    },
                    {
                        "label": "Email and password",
                        "description": "argon2 hashes, reset links by email",
                        "preview": "```python\nhash = argon2.hash(password)\n"
                        "user = User(email=email, password_hash=hash)\n```",
                    },
                    {
                        "label": "Magic links",
                        "description": "a one-time link by email",
                        "preview": "A link valid for **15 minutes** signs the user in.",
                    },
                ],
            },
            {
                "question": "Which API style?",
                "header": "API",
                "options": [
                    {
                        "label": "REST",
                        "description": "resources and OpenAPI docs",
                        "preview": "```http\nGET /invoices?status=open\n```",
                    },
                    {
                        "label": "GraphQL",
                        "description": "one endpoint, typed queries",
                        "preview": "```graphql\n{ invoices(status: OPEN) { id total } }\n```",
                    },
                ],
            },
            {
                "question": "Which checks should CI run on every push?",
                "header": "CI",
                "multi_select": True,
                "options": [
                    {"label": "Tests", "description": "pytest"},
                    {"label": "Lint", "description": "ruff check and ruff format"},
                    {"label": "Types", "description": "mypy --strict"},
                    {"label": "Audit", "description": "pip-audit for known CVEs"},
                ],
            },
        ],
    )


def tests_approval(call_id: str, command: str) -> ToolApprovalRequest:
    """A shell call running the tests; "for this session" covers every later pytest run."""
    return ToolApprovalRequest(
        source=SOURCE,
        tool_name="shell",
        summary=f"Run the test suite: {command}",
        arguments={"command": command, "cwd": "."},
        tool_call_id=call_id,
        remember={"argument": "command", "pattern": "uv run pytest*"},
    )


_HEALTH = ["+def health() -> dict[str, str]:", '+    return {"status": "ok"}']


def _under_app(app: str) -> list[str]:
    """The hunk adding the health check below `app = ...`, as FastAPI and Flask route it."""
    return [
        "@@ -3,4 +3,9 @@",
        f" {app}",
        " ",
        "+",
        '+@app.get("/health")',
        *_HEALTH,
        "+",
        " ",
        ' @app.get("/invoices")',
    ]


HEALTH_CHECKS: dict[str, tuple[str, list[str]]] = {
    "fastapi": ("main.py", _under_app('app = FastAPI(title="{service}")')),
    "flask": ("app.py", _under_app("app = Flask(__name__)")),
    "litestar": (
        "app.py",
        [
            "@@ -1,4 +1,9 @@",
            " from litestar import Litestar, get",
            " ",
            " ",
            '+@get("/health")',
            *_HEALTH,
            "+",
            "+",
            ' @get("/invoices")',
            "@@ -12,1 +17,1 @@",
            "-app = Litestar([invoices])",
            "+app = Litestar([health, invoices])",
        ],
    ),
    "django": (
        "urls.py",
        [
            "@@ -1,6 +1,13 @@",
            "+from django.http import HttpRequest, JsonResponse",
            " from django.urls import path",
            " ",
            " from . import views",
            " ",
            "+",
            "+def health(request: HttpRequest) -> JsonResponse:",
            '+    return JsonResponse({"status": "ok"})',
            "+",
            "+",
            " urlpatterns = [",
            '+    path("health/", health),',
            '     path("invoices/", views.invoices),',
        ],
    ),
}
"""For each framework the demo offers (by value), the file its health check goes in and the
diff's hunks adding it there, `{service}` standing for the service's name."""


def health_check_edit(
    call_id: str, service: str, framework: str = "fastapi"
) -> ToolApprovalRequest:
    """A file edit adding a health check, shown as a diff in the code of `framework`."""
    name, hunks = HEALTH_CHECKS[framework]
    path = f"{service.replace('-', '_')}/{name}"
    lines = [f"--- a/{path}", f"+++ b/{path}", *hunks]
    return ToolApprovalRequest(
        source=SOURCE,
        tool_name="edit_file",
        summary=f"Add a /health endpoint to {path}",
        arguments={"path": path},
        diff="".join(line.replace("{service}", service) + "\n" for line in lines),
        tool_call_id=call_id,
    )
