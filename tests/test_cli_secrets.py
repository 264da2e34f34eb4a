"""`elicit-tui secrets list|delete`: names and places, never values."""

from __future__ import annotations

from pathlib import Path

import pytest
from keyring_backends import FailingKeyring, MemoryKeyring
from pydantic import SecretStr
from secret_session import CANARY, TARGET

from tui.cli.main import main
from tui.core.models import KeyringTarget
from tui.secrets.keyring_store import NO_BACKEND_HINT, index_path, list_stored, store_secret


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["secrets", *argv])
    out, err = capsys.readouterr()
    assert CANARY not in out + err
    return code, out, err


class TestList:
    def test_names_entries_index_and_backend(
        self, memory_keyring: MemoryKeyring, capsys: pytest.CaptureFixture[str]
    ) -> None:
        store_secret(TARGET, SecretStr(CANARY))
        store_secret(KeyringTarget(service="a-longer-service", username="me"), SecretStr(CANARY))

        code, out, err = run(capsys, "list")

        assert (code, err) == (0, "")
        lines = out.splitlines()
        assert lines[0] == "Keyring backend: tui.secrets.memory_keyring.MemoryKeyring"
        assert lines[1] == f"Index: {index_path()}"
        assert lines[3].split() == ["SERVICE", "USERNAME", "STORED"]
        assert lines[4].split()[:2] == ["a-longer-service", "me"]
        assert lines[5].split()[:2] == ["myapp", "openai_api_key"]
        # Columns line up: every username starts where the heading's does.
        assert {line.index(line.split()[1]) for line in lines[3:]} == {len("a-longer-service  ")}

    def test_names_with_control_characters_are_shown_not_acted_on(
        self, memory_keyring: MemoryKeyring, capsys: pytest.CaptureFixture[str]
    ) -> None:
        # An agent names the keyring entry: an escape sequence there must not reach the terminal.
        target = KeyringTarget(service="svc\x1b[2J\x1b]0;owned\x07", username="me\nyou")
        store_secret(target, SecretStr(CANARY))

        code, out, _err = run(capsys, "list")

        assert code == 0
        assert "\x1b" not in out and "\x07" not in out
        lines = out.splitlines()
        assert lines[4].split()[:2] == ["svc␛[2J␛]0;owned␇", "me␊you"]
        assert len(lines) == 5  # the heading and one row: the line break is shown, not made

    def test_nothing_stored(
        self, memory_keyring: MemoryKeyring, capsys: pytest.CaptureFixture[str]
    ) -> None:
        code, out, _err = run(capsys, "list")

        assert code == 0
        assert out.splitlines()[-1] == "No keyring entries stored by elicit-tui."

    def test_without_a_backend_warns_with_the_hint(
        self, no_keyring: object, capsys: pytest.CaptureFixture[str]
    ) -> None:
        code, out, err = run(capsys, "list")

        assert code == 0
        assert out.startswith("Keyring backend: keyring.backends.fail.Keyring\n")
        assert err.startswith("Warning: No usable keyring")
        assert NO_BACKEND_HINT in err

    def test_unreadable_index_fails(
        self, memory_keyring: MemoryKeyring, config_dir: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        config_dir.mkdir()
        index_path().write_text("{not json")

        code, _out, err = run(capsys, "list")

        assert code == 2
        assert str(index_path()) in err
        assert "Delete the file" in err


class TestDelete:
    def test_deletes_what_elicit_tui_stored(
        self, memory_keyring: MemoryKeyring, capsys: pytest.CaptureFixture[str]
    ) -> None:
        store_secret(TARGET, SecretStr(CANARY))

        code, out, err = run(capsys, "delete", "myapp", "openai_api_key")

        assert (code, out, err) == (0, "Deleted keyring entry myapp/openai_api_key.\n", "")
        assert memory_keyring.entries == {}
        assert list_stored() == []

    def test_says_when_there_is_nothing_to_delete(
        self, memory_keyring: MemoryKeyring, capsys: pytest.CaptureFixture[str]
    ) -> None:
        code, out, err = run(capsys, "delete", "myapp", "openai_api_key")

        assert (code, out) == (1, "")
        assert "did not store a keyring entry myapp/openai_api_key" in err
        assert "nothing deleted" in err

    def test_leaves_entries_of_other_programs_alone_unless_forced(
        self, memory_keyring: MemoryKeyring, capsys: pytest.CaptureFixture[str]
    ) -> None:
        memory_keyring.entries[("github", "token")] = CANARY

        code, _out, _err = run(capsys, "delete", "github", "token")
        assert code == 1
        assert memory_keyring.entries == {("github", "token"): CANARY}

        code, out, _err = run(capsys, "delete", "github", "token", "--force")
        assert (code, out) == (0, "Deleted keyring entry github/token.\n")
        assert memory_keyring.entries == {}

    def test_forced_delete_of_a_missing_entry(
        self, memory_keyring: MemoryKeyring, capsys: pytest.CaptureFixture[str]
    ) -> None:
        code, out, err = run(capsys, "delete", "github", "token", "--force")

        assert (code, out, err) == (1, "", "No keyring entry github/token; nothing deleted.\n")

    def test_backend_failure_is_reported(
        self, failing_keyring: FailingKeyring, capsys: pytest.CaptureFixture[str]
    ) -> None:
        failing_keyring.entries[("myapp", "openai_api_key")] = CANARY

        code, out, err = run(capsys, "delete", "myapp", "openai_api_key", "--force")

        assert (code, out) == (2, "")
        assert err.startswith("elicit-tui secrets: Could not delete keyring entry myapp/")

    def test_names_with_control_characters_are_shown_not_acted_on(
        self, failing_keyring: FailingKeyring, capsys: pytest.CaptureFixture[str]
    ) -> None:
        # They were echoed as typed: an escape sequence in them reached the terminal.
        service, username = "svc\x1b]0;owned\x07", "me\nyou"
        shown = "svc␛]0;owned␇/me␊you"

        missing, _out, not_listed = run(capsys, "delete", service, username)
        failed, _out, refused = run(capsys, "delete", service, username, "--force")

        assert (missing, failed) == (1, 2)
        assert f"did not store a keyring entry {shown} (" in not_listed
        assert refused.startswith(f"elicit-tui secrets: Could not delete keyring entry {shown}:")
        for said in (not_listed, refused):
            assert "\x1b" not in said and "\x07" not in said and said.count("\n") == 1

    def test_needs_service_and_username(self, capsys: pytest.CaptureFixture[str]) -> None:
        with pytest.raises(SystemExit) as exited:
            main(["secrets", "delete", "myapp"])

        assert exited.value.code == 2
        assert "USERNAME" in capsys.readouterr().err
