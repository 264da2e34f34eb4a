"""Redaction: registered secrets are scrubbed from text and from log records."""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Iterator

import pytest
from pydantic import SecretStr

from tui.secrets.redaction import MASK, REDACTOR, Redactor, install_log_redaction

CANARY = "sk-canary-4f9a2c"


@pytest.fixture
def redactor() -> Redactor:
    """A fresh redactor that knows the canary."""
    redactor = Redactor()
    redactor.register(CANARY)
    return redactor


@pytest.fixture
def scrubbed_caplog(
    redactor: Redactor, caplog: pytest.LogCaptureFixture
) -> Iterator[pytest.LogCaptureFixture]:
    """caplog scrubbing through `redactor`; the filter goes after, as the handler outlives tests."""
    redacting = redactor.logging_filter()
    caplog.handler.addFilter(redacting)
    yield caplog
    caplog.handler.removeFilter(redacting)


@pytest.fixture
def process_redactor() -> Iterator[Redactor]:
    """The process-wide REDACTOR knowing the canary, with log redaction undone afterwards."""
    REDACTOR.register(CANARY)
    uninstall = install_log_redaction()
    yield REDACTOR
    uninstall()
    REDACTOR.clear()


class _ListHandler(logging.Handler):
    """Keeps what it is given, like a handler someone adds after redaction was installed."""

    def __init__(self) -> None:
        super().__init__()
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


class TestScrub:
    def test_replaces_every_occurrence(self, redactor: Redactor) -> None:
        text = f"key={CANARY}; again {CANARY}."

        assert redactor.scrub(text) == f"key={MASK}; again {MASK}."

    def test_text_without_secrets_is_unchanged(self, redactor: Redactor) -> None:
        assert redactor.scrub("nothing to see") == "nothing to see"
        assert Redactor().scrub(f"nothing registered: {CANARY}") == f"nothing registered: {CANARY}"

    def test_accepts_secret_str(self) -> None:
        redactor = Redactor()

        assert redactor.register(SecretStr(CANARY)) is True
        assert redactor.scrub(CANARY) == MASK

    def test_short_values_are_not_scrubbed(self) -> None:
        redactor = Redactor()

        assert redactor.register("") is False
        assert redactor.register("ab") is False
        assert redactor.register("abc") is True
        assert redactor.scrub("ab abc abcd") == f"ab {MASK} {MASK}d"

    def test_min_length_can_be_lowered_but_not_to_zero(self) -> None:
        redactor = Redactor(min_length=1)
        redactor.register("x")

        assert redactor.scrub("a x b") == f"a {MASK} b"
        with pytest.raises(ValueError, match="min_length"):
            Redactor(min_length=0)

    def test_overlapping_secrets_leave_no_tail(self) -> None:
        redactor = Redactor()
        redactor.register("abcdef")
        redactor.register("defghi")

        assert redactor.scrub("<abcdefghi>") == f"<{MASK}>"
        assert redactor.scrub("<defghi abcdef>") == f"<{MASK} {MASK}>"

    def test_nested_secrets_are_removed_whole(self, redactor: Redactor) -> None:
        redactor.register("sk-canary")

        assert redactor.scrub(f"[{CANARY}] [sk-canary]") == f"[{MASK}] [{MASK}]"

    def test_escaped_spellings_are_scrubbed(self) -> None:
        secret = "pa'ss\"wörd\\1"
        redactor = Redactor()
        redactor.register(secret)

        for spelling in (
            secret,
            repr(secret),
            json.dumps(secret),
            json.dumps(secret, ensure_ascii=False),
        ):
            scrubbed = redactor.scrub(f"value: {spelling}")
            assert "wörd" not in scrubbed
            assert "w\\u00f6rd" not in scrubbed

    @pytest.mark.parametrize(
        "spell",
        [
            lambda s: repr(f'the "{s}" key'),  # both quote marks: the secret's ' is escaped
            lambda s: repr({"key": f'"{s}'}),
            lambda s: json.dumps(repr(f'"{s}')),  # escaped twice, one inside the other
            lambda s: repr(json.dumps(s)),
            lambda s: repr(repr(f'"{s}')),
        ],
        ids=[
            "repr in ' quotes",
            "repr of a dict",
            "json of a repr",
            "repr of json",
            "repr of repr",
        ],
    )
    def test_a_secret_quoted_inside_a_larger_string_is_scrubbed(
        self, spell: Callable[[str], str]
    ) -> None:
        redactor = Redactor()
        redactor.register("pa'ss-Canary-77x")

        assert "Canary" not in redactor.scrub(spell("pa'ss-Canary-77x"))

    def test_clear_forgets(self, redactor: Redactor) -> None:
        redactor.clear()

        assert redactor.scrub(CANARY) == CANARY


class TestLoggingFilter:
    def test_message_args_and_traceback_are_scrubbed(
        self, scrubbed_caplog: pytest.LogCaptureFixture
    ) -> None:
        log = logging.getLogger("test.redaction")

        with scrubbed_caplog.at_level(logging.INFO):
            log.info(f"in the message: {CANARY}")
            log.info("in the args: %s and %r", CANARY, {"key": CANARY})
            try:
                raise ValueError(f"bad key {CANARY}")
            except ValueError:
                log.exception("while checking")

        assert CANARY not in scrubbed_caplog.text
        assert [r.getMessage() for r in scrubbed_caplog.records] == [
            f"in the message: {MASK}",
            f"in the args: {MASK} and {{'key': '{MASK}'}}",
            "while checking",
        ]
        failed = scrubbed_caplog.records[2]
        assert failed.exc_info is None
        assert failed.exc_text is not None
        assert f"ValueError: bad key {MASK}" in failed.exc_text

    def test_stack_info_is_scrubbed(self, scrubbed_caplog: pytest.LogCaptureFixture) -> None:
        with scrubbed_caplog.at_level(logging.INFO):
            # The stack shows this source line, so the literal below lands in stack_info.
            logging.getLogger("test.redaction").info("sk-canary-4f9a2c", stack_info=True)

        [record] = scrubbed_caplog.records
        assert record.stack_info is not None
        assert MASK in record.stack_info
        assert CANARY not in record.stack_info

    def test_records_pass_untouched_while_nothing_is_registered(
        self, redactor: Redactor, scrubbed_caplog: pytest.LogCaptureFixture
    ) -> None:
        redactor.clear()

        with scrubbed_caplog.at_level(logging.INFO):
            logging.getLogger("test.redaction").info("count=%d", 3)

        assert scrubbed_caplog.records[0].args == (3,)

    def test_unformattable_record_neither_raises_nor_leaks(
        self, scrubbed_caplog: pytest.LogCaptureFixture
    ) -> None:
        with scrubbed_caplog.at_level(logging.INFO):
            logging.getLogger("test.redaction").info("%d items", CANARY)

        assert CANARY not in scrubbed_caplog.text
        assert MASK in scrubbed_caplog.records[0].getMessage()


class TestInstall:
    def test_scrubs_records_whichever_handler_sees_them(
        self, process_redactor: Redactor, caplog: pytest.LogCaptureFixture
    ) -> None:
        late_handler = _ListHandler()
        log = logging.getLogger("test.redaction.install")
        log.addHandler(late_handler)
        try:
            with caplog.at_level(logging.INFO):
                log.info("token %s", CANARY)
        finally:
            log.removeHandler(late_handler)

        assert CANARY not in caplog.text
        assert [r.getMessage() for r in late_handler.records] == [f"token {MASK}"]

    def test_is_idempotent_and_undoable(self, caplog: pytest.LogCaptureFixture) -> None:
        factory = logging.getLogRecordFactory()
        handlers = logging.getLogger().handlers
        filters_before = [list(h.filters) for h in handlers]
        REDACTOR.register(CANARY)
        try:
            uninstall = install_log_redaction()
            assert install_log_redaction() is uninstall
            assert logging.getLogRecordFactory() is not factory
            assert [list(h.filters) for h in handlers] != filters_before
            uninstall()
            uninstall()
            assert logging.getLogRecordFactory() is factory
            assert [list(h.filters) for h in handlers] == filters_before
            with caplog.at_level(logging.INFO):
                logging.getLogger("test.redaction").info("token %s", CANARY)
        finally:
            REDACTOR.clear()

        assert CANARY in caplog.text
