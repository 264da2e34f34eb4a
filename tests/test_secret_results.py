"""Secret answers as results: form fields as SecretStr, masked descriptions, model-safe text."""

from __future__ import annotations

from pydantic import BaseModel, SecretStr
from secret_session import CANARY

from tui.core.models import KEYRING_UNAVAILABLE, ElicitationResult, FormRequest
from tui.core.secret_ref import SecretRef
from tui.secrets.redaction import MASK, Redactor

SCHEMA = {
    "type": "object",
    "properties": {
        "user": {"type": "string"},
        "password": {"type": "string", "format": "password"},
        "token": {"type": "string", "writeOnly": True},
    },
}


class Login(BaseModel):
    user: str
    password: SecretStr


class TestFormSecrets:
    def test_schema_secret_fields_become_secret_str(self) -> None:
        request = FormRequest(message="Log in", requested_schema=SCHEMA)

        content = request.finish_content({"user": "ada", "password": CANARY, "token": CANARY})

        assert isinstance(content, dict)
        assert request.secret_fields() == {"password", "token"}
        assert content["user"] == "ada"
        assert content["password"] == SecretStr(CANARY)
        assert content["token"] == SecretStr(CANARY)

    def test_model_fields_keep_their_own_types(self) -> None:
        request = FormRequest.from_model(Login, message="Log in")

        content = request.finish_content({"user": "ada", "password": CANARY})

        assert request.secret_fields() == {"password"}
        assert content == Login(user="ada", password=SecretStr(CANARY))

    def test_secret_fields_are_described_masked(self) -> None:
        schema_request = FormRequest(message="Log in", requested_schema=SCHEMA)
        model_request = FormRequest.from_model(Login, message="Log in")
        content = schema_request.finish_content({"user": "ada", "password": CANARY})

        assert schema_request.describe_content(content) == "user=ada, password=•••"
        assert model_request.describe_content(Login(user="ada", password=SecretStr(CANARY))) == (
            "user=ada, password=•••"
        )
        # Even a plain string in a secret field (content built by hand) is not shown.
        assert schema_request.describe_content({"password": CANARY}) == "password=•••"

    def test_form_result_renderings_never_show_the_secret(self) -> None:
        request = FormRequest(message="Log in", requested_schema=SCHEMA)
        result = ElicitationResult(
            action="accept", content=request.finish_content({"user": "ada", "password": CANARY})
        )

        for text in (repr(result), str(result), result.model_dump_json(), result.to_llm_text()):
            assert CANARY not in text
        assert '"user":"ada"' in result.to_llm_text()


class TestKeyringUnavailable:
    def test_kept_in_memory_says_so_without_the_value(self) -> None:
        result = ElicitationResult(
            action="accept", content=SecretStr(CANARY), reason=KEYRING_UNAVAILABLE
        )

        text = result.to_llm_text()
        assert "the keyring could not store it" in text
        assert "in memory for this run only" in text
        assert CANARY not in text

    def test_cancel_names_the_reason(self) -> None:
        result = ElicitationResult(action="cancel", reason=KEYRING_UNAVAILABLE)

        assert result.to_llm_text() == (
            "The request was cancelled (keyring_unavailable); no answer was given."
        )


class TestRedactorAdditions:
    def test_register_found_walks_content(self) -> None:
        redactor = Redactor()

        redactor.register_found(
            {
                "login": Login(user="ada", password=SecretStr("pw-in-a-model")),
                "list": [SecretStr("pw-in-a-list"), "not-a-secret"],
                "ref": SecretRef(service="svc", username="me"),
            }
        )

        assert redactor.scrub("pw-in-a-model pw-in-a-list not-a-secret svc me") == (
            f"{MASK} {MASK} not-a-secret svc me"
        )

    def test_spans_are_sorted_and_merged(self) -> None:
        redactor = Redactor()
        redactor.register("abcdef")
        redactor.register("defghi")
        redactor.register("xyz")

        assert redactor.spans("xyz abcdefghi xyz") == [(0, 3), (4, 13), (14, 17)]
        assert redactor.spans("nothing") == []
