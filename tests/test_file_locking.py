"""Two processes changing the same small JSON file at once: no change is lost, none undone."""

from __future__ import annotations

import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from tui.approvals.rules import ApprovalPolicy, load_always_rules, revoke_always_rules
from tui.core.config_folder import CONFIG_DIR_ENV
from tui.secrets.keyring_store import list_stored

TESTS = Path(__file__).parent
ROUNDS = 20
RULES = 40

ADD_RULES = """
import sys
from pathlib import Path
from tui.approvals.rules import ApprovalPolicy
who, count, paths = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
for path in paths:
    policy = ApprovalPolicy(Path(path))
    for number in range(count):
        policy.allow(f"{who}-{number}", scope="always")
"""

STORE_SECRETS = """
import sys
sys.path.insert(0, sys.argv[3])
import keyring
from pydantic import SecretStr
from keyring_backends import MemoryKeyring
from tui.core.models import KeyringTarget
from tui.secrets.keyring_store import store_secret
keyring.set_keyring(MemoryKeyring())
who, count = sys.argv[1], int(sys.argv[2])
for number in range(count):
    store_secret(KeyringTarget(service=who, username=f"user-{number}"), SecretStr("value"))
"""


def start(script: str, *args: object) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-c", textwrap.dedent(script), *map(str, args)],
        stderr=subprocess.PIPE,
        text=True,
    )


def finish(process: subprocess.Popen[str]) -> None:
    _, errors = process.communicate(timeout=120)
    assert process.returncode == 0, errors


def test_two_processes_adding_rules_keep_all_of_them(tmp_path: Path) -> None:
    paths = [tmp_path / f"approvals-{round}.json" for round in range(ROUNDS)]
    writers = [start(ADD_RULES, who, RULES, *paths) for who in ("a", "b")]
    for writer in writers:
        finish(writer)

    counts = [len(load_always_rules(path)) for path in paths]
    assert counts == [2 * RULES] * ROUNDS


@pytest.mark.parametrize("round", range(ROUNDS))
def test_a_rule_revoked_while_a_session_saves_rules_stays_revoked(
    tmp_path: Path, round: int
) -> None:
    path = tmp_path / "approvals.json"
    ApprovalPolicy(path).allow("danger", scope="always")
    writer = start(ADD_RULES, "session", 60, path)
    while len(load_always_rules(path)) < 10 and writer.poll() is None:
        time.sleep(0.001)
    removed = revoke_always_rules("danger", path=path)
    finish(writer)

    assert [rule.tool for rule in removed] == ["danger"]
    assert "danger" not in {rule.tool for rule in load_always_rules(path)}


def test_two_processes_storing_secrets_keep_every_index_entry(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(CONFIG_DIR_ENV, str(tmp_path))
    writers = [start(STORE_SECRETS, who, RULES, TESTS) for who in ("a", "b")]
    for writer in writers:
        finish(writer)

    assert len(list_stored()) == 2 * RULES
