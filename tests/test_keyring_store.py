"""Storing secrets in the keyring: the value reaches the keyring and nothing else."""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Iterator
from pathlib import Path

import keyring
import keyring.core
import platformdirs
import pytest
from keyring.backend import KeyringBackend
from keyring.backends import null
from keyring.errors import KeyringLocked, NoKeyringError, PasswordSetError
from keyring_backends import (
    EmptyChainerKeyring,
    FailingKeyring,
    ForgetfulKeyring,
    MemoryKeyring,
)
from pydantic import SecretStr

from tui.core.config_folder import CONFIG_DIR_ENV
from tui.core.models import ElicitationResult, KeyringTarget
from tui.core.secret_ref import SecretRef
from tui.secrets.keyring_store import (
    NO_BACKEND_HINT,
    KeyringError,
    delete_stored,
    index_path,
    keyring_status,
    list_stored,
    store_secret,
)

CANARY = "sk-canary-4f9a2c"
TARGET = KeyringTarget(service="myapp", username="openai_api_key")

UseKeyring = Callable[[KeyringBackend], None]


def _assert_no_canary(error: KeyringError) -> None:
    for text in (str(error), repr(error), *map(str, error.args)):
        assert CANARY not in text
    assert error.__cause__ is None
    assert error.__context__ is None


@pytest.fixture
def use_keyring(config_dir: Path) -> Iterator[UseKeyring]:
    """Installs a given backend for the rest of the test; the previous one comes back after."""
    previous = keyring.get_keyring()
    yield keyring.set_keyring
    keyring.set_keyring(previous)


class TestStore:
    def test_value_reaches_the_keyring_and_the_reference_reads_it(
        self, memory_keyring: MemoryKeyring
    ) -> None:
        ref = store_secret(TARGET, SecretStr(CANARY))

        assert ref == SecretRef(service="myapp", username="openai_api_key")
        assert memory_keyring.entries == {("myapp", "openai_api_key"): CANARY}
        assert ref.get().get_secret_value() == CANARY

    def test_index_and_listing_hold_names_only(
        self, memory_keyring: MemoryKeyring, config_dir: Path
    ) -> None:
        store_secret(TARGET, SecretStr(CANARY))

        assert index_path() == config_dir / "keyring-entries.json"
        text = index_path().read_text(encoding="utf-8")
        assert CANARY not in text
        assert json.loads(text)["entries"][0]["service"] == "myapp"
        [entry] = list_stored()
        assert (entry.service, entry.username) == ("myapp", "openai_api_key")
        assert entry.stored_at.tzinfo is not None
        for rendering in (repr(entry), str(entry), entry.model_dump_json()):
            assert CANARY not in rendering

    def test_storing_again_replaces_the_record(self, memory_keyring: MemoryKeyring) -> None:
        store_secret(TARGET, SecretStr("first-value"))
        first = list_stored()[0].stored_at
        store_secret(TARGET, SecretStr(CANARY), replace=True)

        [entry] = list_stored()
        assert entry.stored_at >= first
        assert memory_keyring.entries[("myapp", "openai_api_key")] == CANARY

    def test_an_existing_entry_is_not_replaced_unless_asked(
        self, memory_keyring: MemoryKeyring
    ) -> None:
        store_secret(TARGET, SecretStr("first-value"))

        with pytest.raises(KeyringError) as refused:
            store_secret(TARGET, SecretStr(CANARY))

        assert refused.value.problem == "exists"
        assert CANARY not in str(refused.value) and "first-value" not in str(refused.value)
        assert memory_keyring.entries[("myapp", "openai_api_key")] == "first-value"

    def test_listing_is_sorted_by_name(self, memory_keyring: MemoryKeyring) -> None:
        for service, username in [("zeta", "b"), ("alpha", "z"), ("alpha", "a")]:
            store_secret(KeyringTarget(service=service, username=username), SecretStr(CANARY))

        names = [(e.service, e.username) for e in list_stored()]
        assert names == [("alpha", "a"), ("alpha", "z"), ("zeta", "b")]

    def test_reference_and_result_never_show_the_value(self, memory_keyring: MemoryKeyring) -> None:
        ref = store_secret(TARGET, SecretStr(CANARY))
        stored = ElicitationResult(action="accept", content=ref)
        in_memory = ElicitationResult(action="accept", content=SecretStr(CANARY))

        renderings = [repr(ref), str(ref), ref.model_dump_json()]
        for result in (stored, in_memory):
            renderings += [repr(result), str(result), result.model_dump_json()]
            renderings.append(result.to_llm_text())
        for rendering in renderings:
            assert CANARY not in rendering
        assert in_memory.content.get_secret_value() == CANARY
        assert stored.to_llm_text() == (
            "The user stored the secret as keyring entry myapp/openai_api_key."
        )

    def test_unwritable_index_is_logged_not_raised(
        self,
        memory_keyring: MemoryKeyring,
        config_dir: Path,
        caplog: pytest.LogCaptureFixture,
    ) -> None:
        config_dir.write_text("a file where the folder should be")

        with caplog.at_level(logging.WARNING, logger="tui.secrets.keyring_store"):
            ref = store_secret(TARGET, SecretStr(CANARY))

        assert ref.get().get_secret_value() == CANARY
        assert "myapp/openai_api_key" in caplog.text
        assert CANARY not in caplog.text

    def test_corrupt_index_is_left_alone_when_storing(
        self, memory_keyring: MemoryKeyring, config_dir: Path
    ) -> None:
        config_dir.mkdir()
        index_path().write_text("{not json")

        store_secret(TARGET, SecretStr(CANARY))

        assert memory_keyring.entries[("myapp", "openai_api_key")] == CANARY
        assert index_path().read_text() == "{not json"


class TestStoreFailures:
    @pytest.mark.parametrize(
        ("error_type", "problem"),
        [
            (PasswordSetError, "failed"),
            (KeyringLocked, "locked"),
            (NoKeyringError, "no_backend"),
            (OSError, "failed"),
        ],
    )
    def test_backend_error_is_wrapped_without_the_value(
        self, failing_keyring: FailingKeyring, error_type: type[Exception], problem: str
    ) -> None:
        failing_keyring.error_type = error_type

        with pytest.raises(KeyringError) as caught:
            store_secret(TARGET, SecretStr(CANARY))

        error = caught.value
        _assert_no_canary(error)
        assert error.problem == problem
        assert (error.service, error.username) == ("myapp", "openai_api_key")
        assert "myapp/openai_api_key" in str(error)
        assert f"{error_type.__name__}: backend said: '•••' rejected (•••)" in str(error)
        assert (NO_BACKEND_HINT in str(error)) == (problem == "no_backend")
        assert list_stored() == []

    def test_no_backend_refuses_with_the_hint(self, no_keyring: object) -> None:
        with pytest.raises(KeyringError) as caught:
            store_secret(TARGET, SecretStr(CANARY))

        _assert_no_canary(caught.value)
        assert caught.value.problem == "no_backend"
        assert "keyring.backends.fail.Keyring" in str(caught.value)
        assert NO_BACKEND_HINT in str(caught.value)
        assert list_stored() == []

    def test_backend_that_keeps_nothing_is_caught(self, use_keyring: UseKeyring) -> None:
        use_keyring(ForgetfulKeyring())

        with pytest.raises(KeyringError, match="did not return it when read back") as caught:
            store_secret(TARGET, SecretStr(CANARY))

        _assert_no_canary(caught.value)
        assert caught.value.problem == "failed"


class TestStatus:
    def test_usable_backend_has_no_status(self, memory_keyring: MemoryKeyring) -> None:
        assert keyring_status() is None

    def test_fail_keyring(self, no_keyring: object) -> None:
        status = keyring_status()

        assert status is not None
        assert "keyring.backends.fail.Keyring" in status
        assert status.endswith(NO_BACKEND_HINT)

    def test_null_keyring_would_drop_the_value(self, use_keyring: UseKeyring) -> None:
        use_keyring(null.Keyring())

        assert "disabled" in (keyring_status() or "")
        with pytest.raises(KeyringError, match="discards what is stored"):
            store_secret(TARGET, SecretStr(CANARY))

    def test_chainer_without_backends(self, use_keyring: UseKeyring) -> None:
        use_keyring(EmptyChainerKeyring())

        assert "no backends to chain" in (keyring_status() or "")
        with pytest.raises(KeyringError, match=NO_BACKEND_HINT[:20]):
            store_secret(TARGET, SecretStr(CANARY))

    def test_backend_that_cannot_be_loaded(
        self, config_dir: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        def broken() -> None:
            keyring.core.load_keyring("elicit_tui_missing.Backend")

        monkeypatch.setattr(keyring, "get_keyring", broken)

        status = keyring_status()
        assert status is not None
        assert "No module named 'elicit_tui_missing'" in status
        assert status.endswith(NO_BACKEND_HINT)


class TestDelete:
    def test_removes_from_keyring_and_index(self, memory_keyring: MemoryKeyring) -> None:
        ref = store_secret(TARGET, SecretStr(CANARY))

        assert delete_stored("myapp", "openai_api_key") is True
        assert memory_keyring.entries == {}
        assert list_stored() == []
        with pytest.raises(LookupError):
            ref.get()

    def test_nothing_to_delete(self, memory_keyring: MemoryKeyring) -> None:
        assert delete_stored("myapp", "openai_api_key") is False

    def test_tolerates_an_entry_already_gone_from_the_keyring(
        self, memory_keyring: MemoryKeyring
    ) -> None:
        store_secret(TARGET, SecretStr(CANARY))
        memory_keyring.entries.clear()

        assert delete_stored("myapp", "openai_api_key") is True
        assert list_stored() == []

    def test_keeps_other_entries(self, memory_keyring: MemoryKeyring) -> None:
        store_secret(TARGET, SecretStr(CANARY))
        store_secret(KeyringTarget(service="myapp", username="other"), SecretStr(CANARY))

        delete_stored("myapp", "openai_api_key")

        assert [e.username for e in list_stored()] == ["other"]
        assert memory_keyring.entries == {("myapp", "other"): CANARY}

    def test_backend_refusal_is_an_error(self, failing_keyring: FailingKeyring) -> None:
        failing_keyring.entries[("myapp", "openai_api_key")] = CANARY

        with pytest.raises(KeyringError, match="Could not delete keyring entry myapp/openai"):
            delete_stored("myapp", "openai_api_key")

    def test_no_backend_is_an_error(self, no_keyring: object) -> None:
        with pytest.raises(KeyringError) as caught:
            delete_stored("myapp", "openai_api_key")

        assert caught.value.problem == "no_backend"
        assert NO_BACKEND_HINT in str(caught.value)


class TestIndex:
    def test_corrupt_index_is_reported_with_its_path(
        self, memory_keyring: MemoryKeyring, config_dir: Path
    ) -> None:
        config_dir.mkdir()
        index_path().write_text('{"entries": [{"service": "x"}]}')

        with pytest.raises(KeyringError) as caught:
            list_stored()

        assert caught.value.problem == "index"
        assert str(index_path()) in str(caught.value)
        assert "Delete the file" in str(caught.value)

    def test_default_location_is_the_user_config_dir(self, monkeypatch: pytest.MonkeyPatch) -> None:
        monkeypatch.delenv(CONFIG_DIR_ENV, raising=False)

        expected = Path(platformdirs.user_config_dir("elicit-tui", appauthor=False))
        assert index_path() == expected / "keyring-entries.json"
