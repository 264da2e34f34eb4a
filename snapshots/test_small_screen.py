"""What used to be cramped at 80x24: checklists, a question batch, a denial's reason, a form's
Enter, a placeholder longer than its field, a question or a description longer than the screen, a
list longer than the room left, a secret the keyring refuses where no in-memory copy can help."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import keyring
import pytest
from keyring.backends import fail
from snapshot_app import modal_app, modal_settled
from test_modals import FEATURES
from textual.pilot import Pilot

from tui.app.ask_app import AskApp
from tui.cli.demo import DEPLOY_SCHEMA, health_check_edit, scaffold_questions
from tui.core.config_folder import CONFIG_DIR_ENV
from tui.core.models import (
    ChoiceRequest,
    ConfirmationRequest,
    FormRequest,
    KeyringTarget,
    Question,
    QuestionsRequest,
    Request,
    SecretRequest,
    TextRequest,
)

SIZE = (80, 24)

DEPLOYMENT = FormRequest(
    source="setup-agent",
    message="Where and how should it be deployed?",
    requested_schema=DEPLOY_SCHEMA,
)
CHECKS = FormRequest(
    source="setup-agent",
    message="Which checks should CI run?",
    requested_schema={
        "type": "object",
        "properties": {
            "checks": {
                "type": "array",
                "title": "Checks",
                "items": {"enum": ["tests", "lint", "types", "audit"]},
                "default": ["tests", "types"],
            },
        },
    },
)
REPLICAS = FormRequest(
    source="deploy-agent",
    message="Deployment",
    requested_schema={
        "type": "object",
        "properties": {"replicas": {"type": "integer", "minimum": 1}},
    },
)
PLAN = ConfirmationRequest(
    source="deploy-agent",
    message="\n".join(f"{n}. Migrate shard {n} of the billing database." for n in range(1, 31))
    + "\nRun this plan?",
)
REGION = ChoiceRequest(
    source="deploy-agent",
    title="Deploy",
    message="Which region?",
    description="Pick the region closest to your users.\n\nLatency matters more than price.",
    options=[f"region-{n}" for n in range(1, 16)],
)
NOTES = ChoiceRequest(
    source="deploy-agent",
    message="Which migration should run first?",
    description="\n".join(
        f"- shard {n}: {rows} million rows, last migrated {n + 2} days ago"
        for n, rows in zip(range(1, 26), range(40, 15, -1), strict=True)
    ),
    options=["shard 1", "shard 2", "shard 3"],
)
STORE = QuestionsRequest(
    source="claude-code",
    message="Before I write the storage layer",
    questions=[
        Question(
            question="Where should uploaded files be kept?",
            header="Files",
            options=[
                {"label": label, "description": f"{label}: {why}"}
                for label, why in [
                    (
                        "S3",
                        "durable and cheap; it needs a bucket, credentials for the service"
                        " and a lifecycle rule for old uploads",
                    ),
                    (
                        "Local disk",
                        "the simplest; the files are lost whenever the container"
                        " is replaced, so only for trying it out",
                    ),
                    (
                        "PostgreSQL",
                        "one store to back up; large files make the database"
                        " slow, and its backups much larger",
                    ),
                    (
                        "GCS",
                        "as S3, on Google Cloud; the service account needs write access"
                        " to the bucket",
                    ),
                ]
            ],
        ),
        Question(question="Encrypt them?", header="Encryption", options=["Yes", "No"]),
    ],
)
SERVICE = TextRequest(
    source="deploy-agent",
    message="Which service should be deployed first?",
    placeholder="the name of a service in services.yaml, as it is spelled there (lower case, no spaces)",
)
EDIT = health_check_edit("call-2", "billing-api")
SCAFFOLD = scaffold_questions("billing-api")

CASES: list[tuple[str, Request, list[str]]] = [
    ("checklist_ticked_and_not", FEATURES, ["down", "space", "3"]),
    ("form_checklist", CHECKS, ["down", "space"]),
    ("form_enter_on_an_invalid_field_stays", DEPLOYMENT, ["enter", "enter", *"ab", "enter"]),
    ("form_enter_submits_a_lone_field", REPLICAS, []),
    ("questions_first_tab", SCAFFOLD, []),
    ("questions_pick_one_tab", SCAFFOLD, ["tab"]),
    ("questions_pick_any_tab", SCAFFOLD, ["tab", "tab", "1"]),
    ("deny_reason_in_view", EDIT, ["n", *"not now"]),
    ("placeholder_longer_than_the_field", SERVICE, []),
    ("question_longer_than_the_screen", PLAN, ["shift+down"] * 3),
    ("list_longer_than_the_room_left", REGION, ["end", "up"]),
    ("description_longer_than_the_screen", NOTES, []),
    ("questions_options_taller_than_their_share", STORE, ["down", "down"]),
]


@pytest.fixture(autouse=True)
def no_remembered_approvals(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(CONFIG_DIR_ENV, str(tmp_path))


@pytest.mark.parametrize(("name", "request_", "keys"), CASES, ids=[c[0] for c in CASES])
def test_at_80x24(snap_compare: Any, name: str, request_: Request, keys: list[str]) -> None:
    app, ready = modal_app(request_)
    assert snap_compare(app, run_before=ready, press=keys, terminal_size=SIZE)


@pytest.fixture
def no_keyring() -> Iterator[None]:
    previous = keyring.get_keyring()
    keyring.set_keyring(fail.Keyring())
    yield
    keyring.set_keyring(previous)


def test_ask_offers_only_cancel_when_the_keyring_refuses(
    no_keyring: None, snap_compare: Any
) -> None:
    # `ask` refuses this up front; a keyring that fails while storing still ends here.
    app = AskApp(
        SecretRequest(
            source="deploy-agent",
            message="GitHub token?",
            store=KeyringTarget(service="github", username="ada"),
        ),
        input_grace=0,
    )

    async def ready(pilot: Pilot[Any]) -> None:
        await modal_settled(pilot)
        await pilot.press(*"ghp_example_token", "enter")
        for _ in range(50):
            await pilot.pause()
            if app.screen.has_class("choosing"):
                break
        await pilot.wait_for_scheduled_animations()
        await pilot.pause()

    assert snap_compare(app, run_before=ready, terminal_size=SIZE)
