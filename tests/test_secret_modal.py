"""The secret modal in the real app: masking, checks, reveal, keyring storage and its failures."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from app_driver import error_line, screen_text, wait_for
from keyring.errors import KeyringLocked, PasswordSetError
from keyring_backends import FailingKeyring, MemoryKeyring
from pydantic import SecretStr
from secret_session import (
    CANARY,
    SIZE,
    TARGET,
    asking_app,
    carries_canary,
    static_text,
    wait_for_modal,
)
from textual import events
from textual.widgets import Button, Input, Static

from tui.cli.demo import api_key_request
from tui.core.models import (
    KEYRING_UNAVAILABLE,
    ElicitationResult,
    FormRequest,
    SecretRequest,
    TextRequest,
)
from tui.core.secret_ref import SecretRef
from tui.secrets.keyring_store import NO_BACKEND_HINT, list_stored
from tui.secrets.redaction import MASK
from widgets.base import ElicitationModal
from widgets.secret import SecretModal


def secret_of(result: ElicitationResult) -> str:
    assert isinstance(result.content, SecretStr)
    return result.content.get_secret_value()


class TestEntry:
    async def test_typed_value_comes_back_as_secret_str(self) -> None:
        app, results = asking_app(SecretRequest(message="API key?"))
        async with app.run_test(size=SIZE) as pilot:
            modal = await wait_for_modal(pilot, SecretModal)
            field = modal.query_one("#secret", Input)
            assert field.password
            assert field.has_focus
            await pilot.press(*CANARY, "enter")
            await wait_for(pilot, lambda: bool(results))

        [result] = results
        assert (result.action, result.reason) == ("accept", None)
        assert secret_of(result) == CANARY

    async def test_a_pasted_key_of_several_lines_is_refused_not_cut_to_its_first(self) -> None:
        # Textual's one-line field kept a paste's first line: a pasted private key reached
        # the agent as "-----BEGIN OPENSSH PRIVATE KEY-----", and the dots looked whole.
        key = "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXk\n-----END OPENSSH…\n"
        app, results = asking_app(SecretRequest(message="Deploy key?"))
        async with app.run_test(size=SIZE, notifications=True) as pilot:
            modal = await wait_for_modal(pilot, SecretModal)
            app.post_message(events.Paste(key))
            await wait_for(pilot, lambda: bool(app._notifications))
            assert modal.query_one("#secret", Input).value == ""
            [notice] = [str(n.message) for n in app._notifications]
            assert notice == "This field takes one line; the paste had 3, and was left out."
            assert results == []  # (the app's end, next, cancels it: `closed`)

    async def test_empty_entry_is_refused(self) -> None:
        app, results = asking_app(SecretRequest(message="API key?"))
        async with app.run_test(size=SIZE) as pilot:
            modal = await wait_for_modal(pilot, SecretModal)
            await pilot.press("enter")
            await pilot.pause()

            assert error_line(modal) == "Type the secret, or press Escape to cancel."
            assert app.screen is modal
            assert results == []

    async def test_too_short_is_refused_until_long_enough(self) -> None:
        app, results = asking_app(SecretRequest(message="PIN?", min_length=8))
        async with app.run_test(size=SIZE) as pilot:
            modal = await wait_for_modal(pilot, SecretModal)
            # Not a word of the message: one that is shows as •••, as what a masked field
            # holds does wherever a refusal quotes it.
            await pilot.press(*"pin12", "enter")
            await pilot.pause()

            assert error_line(modal) == "Too short: at least 8 characters (you typed 5)."
            assert app.screen is modal
            await pilot.press(*"-enough")
            assert error_line(modal) == ""
            await pilot.press("enter")
            await wait_for(pilot, lambda: bool(results))

        assert secret_of(results[0]) == "pin12-enough"

    async def test_pattern_hint_is_checked_before_accept(self) -> None:
        app, results = asking_app(SecretRequest(message="API key?", pattern="sk-..."))
        async with app.run_test(size=SIZE) as pilot:
            modal = await wait_for_modal(pilot, SecretModal)
            assert "looks like sk-..." in static_text(modal.query_one("#hint", Static))
            await pilot.press(*"pk-live-123", "enter")
            await pilot.pause()

            assert error_line(modal) == "That does not look like sk-..."
            assert results == []
            modal.query_one("#secret", Input).clear()
            await pilot.press(*CANARY, "enter")
            await wait_for(pilot, lambda: bool(results))

        assert secret_of(results[0]) == CANARY

    async def test_confirm_mismatch_is_shown_and_focuses_the_second_field(self) -> None:
        app, results = asking_app(SecretRequest(message="New password?", confirm=True))
        async with app.run_test(size=SIZE) as pilot:
            modal = await wait_for_modal(pilot, SecretModal)
            again = modal.query_one("#again", Input)
            assert again.password
            await pilot.press(*CANARY, "enter")
            assert again.has_focus
            await pilot.press(*"sk-typo", "enter")
            await pilot.pause()

            assert error_line(modal) == "The two entries differ; type it again."
            assert again.has_focus
            assert app.screen is modal
            assert results == []
            again.clear()
            await pilot.press(*CANARY, "enter")
            await wait_for(pilot, lambda: bool(results))

        assert secret_of(results[0]) == CANARY

    async def test_both_fields_keep_their_labels_once_typed_in(self) -> None:
        request = SecretRequest(message="New password?", placeholder="12 or more", confirm=True)
        app, _ = asking_app(request)
        async with app.run_test(size=SIZE) as pilot:
            modal = await wait_for_modal(pilot, SecretModal)
            await pilot.press(*"abc", "enter", *"ab")
            await pilot.pause()
            rows = screen_text(app).splitlines()

            def words_over(name: str) -> list[str]:
                """The words on the screen's row of the field's top border."""
                row = rows[modal.query_one(f"#{name}", Input).region.y]
                return "".join(c if c.isalnum() else " " for c in row).split()

            assert words_over("secret") == ["Secret"]
            assert words_over("again") == ["Confirm", "secret"]
            assert "12 or more" not in screen_text(app)

    async def test_escape_cancels(self) -> None:
        app, results = asking_app(SecretRequest(message="API key?", store=TARGET))
        async with app.run_test(size=SIZE) as pilot:
            await wait_for_modal(pilot, SecretModal)
            await pilot.press(*CANARY, "escape")
            await wait_for(pilot, lambda: bool(results))

        assert results == [ElicitationResult(action="cancel")]
        assert list_stored() == []


class TestReveal:
    async def test_toggle_shows_and_hides_every_field(self) -> None:
        app, _results = asking_app(SecretRequest(message="Password?", confirm=True))
        async with app.run_test(size=SIZE) as pilot:
            modal = await wait_for_modal(pilot, SecretModal)
            fields = list(modal.query(Input))
            assert len(fields) == 2

            await pilot.press("ctrl+r")
            assert modal.revealed
            assert not any(field.password for field in fields)
            await pilot.press("ctrl+r")
            assert not modal.revealed
            assert all(field.password for field in fields)

    async def test_resets_when_the_modal_closes_and_leaves_the_value_alone(self) -> None:
        app, results = asking_app(SecretRequest(message="API key?"))
        async with app.run_test(size=SIZE) as pilot:
            modal = await wait_for_modal(pilot, SecretModal)
            field = modal.query_one("#secret", Input)
            await pilot.press(*CANARY, "ctrl+r")
            assert not field.password
            await pilot.press("enter")
            await wait_for(pilot, lambda: bool(results))
            await pilot.pause()

            assert app.screen is not modal
            assert not modal.revealed
            assert field.password
        assert secret_of(results[0]) == CANARY

    async def test_a_released_modal_is_masked_again_at_once(self) -> None:
        # A modal kept for the next secret is masked when it is released, not a message later.
        app, _results = asking_app(SecretRequest(message="API key?", confirm=True))
        async with app.run_test(size=SIZE) as pilot:
            modal = await wait_for_modal(pilot, SecretModal)
            await pilot.press(*CANARY, "ctrl+r")
            assert modal.revealed
            modal.release()
            revealed = modal.revealed
            masked = [field.password for field in modal.query(Input)]
            values = [field.value for field in modal.query(Input)]
        assert not revealed
        assert masked == [True, True]
        assert values == ["", ""]


class TestKeyring:
    async def test_stored_value_comes_back_as_a_reference(
        self, memory_keyring: MemoryKeyring
    ) -> None:
        app, results = asking_app(SecretRequest(message="API key?", store=TARGET))
        async with app.run_test(size=SIZE) as pilot:
            modal = await wait_for_modal(pilot, SecretModal)
            assert "saved to keyring myapp/openai_api_key" in static_text(
                modal.query_one("#hint", Static)
            )
            assert not modal.query("#keyring-warning")
            await pilot.press(*CANARY, "enter")
            await wait_for(pilot, lambda: bool(results))

        [result] = results
        assert result == ElicitationResult(
            action="accept", content=SecretRef(service="myapp", username="openai_api_key")
        )
        assert memory_keyring.entries == {("myapp", "openai_api_key"): CANARY}
        assert [(e.service, e.username) for e in list_stored()] == [("myapp", "openai_api_key")]

    @pytest.mark.parametrize(
        ("error_type", "advice"),
        [(PasswordSetError, "PasswordSetError"), (KeyringLocked, "Unlock the keyring")],
    )
    async def test_failure_shows_the_reason_and_keeps_in_memory_on_request(
        self, failing_keyring: FailingKeyring, error_type: type[Exception], advice: str
    ) -> None:
        failing_keyring.error_type = error_type
        app, results = asking_app(SecretRequest(message="API key?", store=TARGET))
        async with app.run_test(size=SIZE) as pilot:
            modal = await wait_for_modal(pilot, SecretModal)
            assert not modal.query("#keyring-problem")  # mounted when the keyring refuses
            await pilot.press(*CANARY, "enter")
            await wait_for(pilot, lambda: modal.choosing)

            reason = static_text(modal.query_one("#keyring-reason", Static))
            assert reason.startswith("✖ Could not store keyring entry myapp/openai_api_key")
            assert advice in reason
            assert MASK in reason
            assert CANARY not in reason
            assert modal.query_one("#keyring-problem").display
            assert modal.query_one("#secret", Input).disabled
            assert modal.query_one("#keep-in-memory", Button).has_focus
            assert results == []
            await pilot.press("enter")
            await wait_for(pilot, lambda: bool(results))

        [result] = results
        assert (result.action, result.reason) == ("accept", KEYRING_UNAVAILABLE)
        assert secret_of(result) == CANARY
        assert failing_keyring.entries == {}
        assert list_stored() == []

    @pytest.mark.parametrize("keys", [["tab", "enter"], ["escape"]], ids=["button", "escape"])
    async def test_failure_can_be_cancelled(
        self, failing_keyring: FailingKeyring, keys: list[str]
    ) -> None:
        app, results = asking_app(SecretRequest(message="API key?", store=TARGET))
        async with app.run_test(size=SIZE) as pilot:
            modal = await wait_for_modal(pilot, SecretModal)
            await pilot.press(*CANARY, "enter")
            await wait_for(pilot, lambda: modal.choosing)
            await pilot.press(*keys)
            await wait_for(pilot, lambda: bool(results))

        assert results == [ElicitationResult(action="cancel", reason=KEYRING_UNAVAILABLE)]

    async def test_no_backend_is_announced_before_typing(self, no_keyring: object) -> None:
        app, results = asking_app(SecretRequest(message="API key?", store=TARGET))
        async with app.run_test(size=SIZE) as pilot:
            modal = await wait_for_modal(pilot, SecretModal)
            warning = modal.query_one("#keyring-warning", Static)
            assert warning.display
            # One short line of warning; why and how to fix it come with the choice.
            assert static_text(warning) == (
                "⚠ No usable keyring: the secret cannot be saved, only kept in memory for this run."
            )
            assert "pip install" not in screen_text(app)
            # Not "saved to" a keyring the warning under it says cannot save it.
            hint = static_text(modal.query_one("#hint", Static))
            assert "saved to" not in hint and f"meant for keyring {TARGET.service}" in hint
            assert modal.query_one("#secret", Input).has_focus

            await pilot.press(*CANARY, "enter")
            await wait_for(pilot, lambda: modal.choosing)
            # The choice says why and what to do, once: the warning gives way to it.
            assert not warning.display
            reason = static_text(modal.query_one("#keyring-reason", Static))
            assert reason.startswith(
                f"✖ Could not store keyring entry {TARGET.service}/{TARGET.username}: no keyring "
                "backend is available"
            )
            assert reason.endswith(NO_BACKEND_HINT)
            await pilot.press("enter")
            await wait_for(pilot, lambda: bool(results))

        [result] = results
        assert (result.action, result.reason) == ("accept", KEYRING_UNAVAILABLE)
        assert secret_of(result) == CANARY

    @pytest.mark.parametrize("size", [(80, 24), (60, 20)], ids=["80x24", "60x20"])
    async def test_without_a_keyring_the_demo_field_is_whole_on_screen(
        self, no_keyring: object, size: tuple[int, int]
    ) -> None:
        app, _ = asking_app(api_key_request())
        async with app.run_test(size=size) as pilot:
            await wait_for_modal(pilot, SecretModal)
            await pilot.pause()
            rows = screen_text(app).splitlines()
            # The dialog from its top edge: the question, then the field with both its edges.
            edge = next(i for i, row in enumerate(rows) if "╭" in row)
            assert "setup-agent" in rows[edge + 1] and "Paste the deploy" in rows[edge + 2]
            top = next(i for i, row in enumerate(rows) if "┏━ Secret ━" in row)
            assert "┗━━━━" in rows[top + 2]
            assert any(row.strip("│ ").startswith("⚠ No usable keyring") for row in rows)

    @pytest.mark.parametrize("size", [(80, 24), (60, 20), (40, 20)], ids=str)
    async def test_the_keyring_choices_fit_beside_or_under_each_other(
        self, no_keyring: object, size: tuple[int, int]
    ) -> None:
        app, _ = asking_app(api_key_request())
        async with app.run_test(size=size) as pilot:
            modal = await wait_for_modal(pilot, SecretModal)
            await pilot.press(*CANARY, "enter")
            await wait_for(pilot, lambda: modal.choosing)
            await pilot.pause()
            row = modal.query_one("#keyring-choices")
            # Nothing of the row out of its sides, each button whole within it.
            assert row.virtual_size.width <= row.content_region.width
            for button in row.query(Button).results(Button):
                assert row.content_region.contains_region(button.region), button.id
            shown = screen_text(app)
            assert "Cancel" in shown
            assert "Keep in memory" in shown and "this run only" in shown

    async def test_no_backend_can_be_cancelled(self, no_keyring: object) -> None:
        app, results = asking_app(SecretRequest(message="API key?", store=TARGET))
        async with app.run_test(size=SIZE) as pilot:
            modal = await wait_for_modal(pilot, SecretModal)
            await pilot.press(*CANARY, "enter")
            await wait_for(pilot, lambda: modal.choosing)
            await pilot.click("#cancel-secret")
            await wait_for(pilot, lambda: bool(results))

        assert results == [ElicitationResult(action="cancel", reason=KEYRING_UNAVAILABLE)]


class TestDemo:
    async def test_api_key_is_stored_and_summarised_as_the_reference(
        self, memory_keyring: MemoryKeyring
    ) -> None:
        request = api_key_request()
        app, results = asking_app(request)
        async with app.run_test(size=SIZE) as pilot:
            await wait_for_modal(pilot, SecretModal)
            await pilot.press(*CANARY, "enter")
            await wait_for(pilot, lambda: bool(results))

        [result] = results
        assert result.content == SecretRef(service="elicit-tui-demo", username="deploy_api_key")
        assert memory_keyring.entries == {("elicit-tui-demo", "deploy_api_key"): CANARY}
        assert request.describe_content(result.content) == (
            "stored in keyring elicit-tui-demo/deploy_api_key"
        )

    async def test_without_a_keyring_the_key_can_stay_in_memory(self, no_keyring: object) -> None:
        request = api_key_request()
        app, results = asking_app(request)
        async with app.run_test(size=SIZE) as pilot:
            modal = await wait_for_modal(pilot, SecretModal)
            assert modal.query_one("#keyring-warning").display
            await pilot.press(*CANARY, "enter")
            await wait_for(pilot, lambda: modal.choosing)
            await pilot.press("enter")
            await wait_for(pilot, lambda: bool(results))

        [result] = results
        assert result.reason == KEYRING_UNAVAILABLE
        assert secret_of(result) == CANARY
        assert request.describe_content(result.content) == "•••"


@pytest.mark.parametrize(
    "request_",
    [
        SecretRequest(message="API key?"),
        TextRequest(message="Card number?", sensitive=True),
        FormRequest(
            message="Connect",
            requested_schema={
                "type": "object",
                "properties": {"password": {"type": "string", "format": "password"}},
            },
        ),
    ],
    ids=["secret", "sensitive text", "form password"],
)
async def test_a_masked_field_copies_and_cuts_nothing_and_ctrl_c_says_how_to_quit(
    request_: SecretRequest | TextRequest | FormRequest,
) -> None:
    # Copied, the secret went to the clipboard, and through the terminal (OSC 52) into any
    # recording of it; a browser's password field copies nothing either.
    app, _ = asking_app(request_)
    titles: list[str | None] = []
    notify = app.notify

    def noted(message: str, **options: Any) -> None:
        titles.append(options.get("title"))
        notify(message, **options)

    app.notify = noted  # type: ignore[method-assign]
    async with app.run_test(size=SIZE) as pilot:
        modal = await wait_for_modal(pilot, ElicitationModal)
        await pilot.press(*CANARY, "shift+home", "ctrl+c", "ctrl+x")
        await wait_for(pilot, lambda: "Do you want to quit?" in titles)
        field = modal.query_one(Input)
        assert field.password and field.value == CANARY  # not cut
        assert app.clipboard == ""


async def test_a_secret_shown_with_ctrl_r_is_not_copied_or_cut_either() -> None:
    app, _ = asking_app(SecretRequest(message="API key?"))
    async with app.run_test(size=SIZE) as pilot:
        modal = await wait_for_modal(pilot, SecretModal)
        await pilot.press(*CANARY, "ctrl+r", "shift+home", "ctrl+c", "ctrl+x")
        await wait_for(pilot, lambda: modal.revealed)
        await pilot.pause()
        field = modal.query_one(Input)
        assert not field.password and field.value == CANARY  # shown, and not cut
        assert app.clipboard == ""


async def test_a_field_that_shows_what_is_typed_still_copies_it() -> None:
    app, _ = asking_app(TextRequest(message="Service name?"))
    async with app.run_test(size=SIZE) as pilot:
        await wait_for_modal(pilot, ElicitationModal)
        await pilot.press(*"billing-api", "shift+home", "ctrl+c")
        await wait_for(pilot, lambda: app.clipboard == "billing-api")


async def test_going_back_to_a_masked_field_adds_to_it_not_over_it() -> None:
    # Tab away and back selected all of it, unseen under the dots, and the next key
    # replaced the whole secret with itself.
    app, results = asking_app(SecretRequest(message="Token?", confirm=True))
    async with app.run_test(size=SIZE) as pilot:
        modal = await wait_for_modal(pilot, SecretModal)
        await pilot.press(*"abc", "tab", *"abc", "shift+tab", "d", "tab", "end", "d")
        first, second = modal.query(Input)
        assert (first.value, second.value) == ("abcd", "abcd")
        assert first.selection.is_empty
        await pilot.press("enter")
        await wait_for(pilot, lambda: bool(results))
    assert results[0].content == SecretStr("abcd")


async def test_going_back_to_a_field_that_shows_what_is_typed_still_selects_it() -> None:
    app, _ = asking_app(TextRequest(message="Service name?"))
    async with app.run_test(size=SIZE) as pilot:
        modal = await wait_for_modal(pilot, ElicitationModal)
        field = modal.query_one(Input)
        await pilot.press(*"billing")
        field.blur()
        await pilot.pause()
        field.focus()
        await pilot.pause()
        assert field.selected_text == "billing"


async def test_textual_s_own_log_keeps_no_key_of_a_secret(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # TEXTUAL_LOG=file wrote each key typed, and the masked field's value, to that file.
    import textual.constants

    log = tmp_path / "textual.log"
    monkeypatch.setattr(textual.constants, "LOG_FILE", str(log))
    app, results = asking_app(SecretRequest(message="API key?"))
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await wait_for_modal(pilot, SecretModal)
        await pilot.press(*CANARY, "enter")
        await wait_for(pilot, lambda: bool(results))
        notices = [str(notice.message) for notice in app._notifications]
    assert not log.exists() or not carries_canary(log.read_text())
    assert (
        "TEXTUAL_LOG is ignored: Textual's log would keep every key typed, a secret's too."
        in notices
    )
