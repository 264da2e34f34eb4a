"""Plain, line-by-line prompts for every request kind: for screen readers, dumb terminals, logs.

Nothing is redrawn: each prompt is a line, each answer a line typed after it. Options are
numbered, a checklist takes "numbers separated by spaces", a secret is read without echo, a
form is asked field by field, and a wrong entry is answered with what is wrong and the same
prompt again. The results are those the full UI gives. End of input (Ctrl+D, also after text
typed on the line) cancels.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any, TextIO, TypeVar

from pydantic import SecretStr, ValidationError

from tui.app.terminal import cannot_draw
from tui.cli.plain_terminal import read_hidden, read_line
from tui.core.approval_answers import approval_answers
from tui.core.models import (
    ChoiceRequest,
    ConfirmationRequest,
    ElicitationResult,
    FormRequest,
    MultiChoiceRequest,
    QuestionsRequest,
    Request,
    SecretRequest,
    TextRequest,
    ToolApprovalRequest,
    UrlRequest,
    delivered,
    unsupported,
)
from tui.core.options import Option
from tui.core.schema import FieldSpec, parse_schema, parse_value
from tui.core.terminal_text import literal_spaces, literal_text

PLAIN_VARIABLE = "ELICIT_TUI_PLAIN"
"""Set to 1 to ask with plain line prompts instead of the full-screen UI."""

DECLINE_WORD = "!decline"
"""Typed as an answer, refuses to answer (the full UI's Ctrl+N)."""

T = TypeVar("T")


def plain_wanted(flag: bool) -> bool:
    """Whether to ask in plain mode: `--plain`, `$ELICIT_TUI_PLAIN=1`, or a dumb terminal."""
    variable = os.environ.get(PLAIN_VARIABLE, "").strip().lower()
    return flag or variable in ("1", "yes", "true", "on") or cannot_draw()


class _Ended(Exception):
    """The person ended the question: end of input (cancel) or the decline word."""

    def __init__(self, result: ElicitationResult) -> None:
        super().__init__(result.action)
        self.result = result


class _Invalid(ValueError):
    """What was typed cannot be the answer; the message says what to type instead."""


class PlainPrompter:
    """Asks one request with line prompts on `inp`/`out` and returns its result."""

    def __init__(self, inp: TextIO, out: TextIO) -> None:
        self.inp = inp
        self.out = out

    def ask(self, request: Request) -> ElicitationResult:
        """The result of asking `request`: accept with content, decline, or cancel."""
        asker = self._askers().get(request.kind)
        if asker is None:
            # Only the refusal: the question and how to answer it would ask what is not asked.
            self.say(f"Plain mode cannot ask {request.kind!r} requests; cancelled.")
            return unsupported(request)
        self._header(request)
        try:
            result = asker(request)
        except _Ended as ended:
            result = ended.result
        # As a dialog's answer reaches the asker: a sensitive one flagged (printed masked).
        return delivered(request, result)

    def _askers(self) -> dict[str, Callable[[Any], ElicitationResult]]:
        return {
            "text": self._text,
            "choice": self._choice,
            "multi_choice": self._multi,
            "secret": self._secret,
            "confirmation": self._confirmation,
            "form": self._form,
            "questions": self._questions,
            "tool_approval": self._tool_approval,
            "url": self._url,
        }

    # -- lines in and out -------------------------------------------------------------------

    def say(self, text: str = "") -> None:
        # As a dialog shows it: a secret given earlier masked, control characters as pictures.
        # (Loaded with the first line said: `ask`'s parser loads this module, not the secrets.)
        from tui.secrets.redaction import REDACTOR

        self.out.write(f"{literal_text(REDACTOR.scrub(text))}\n")
        self.out.flush()

    def line(self, prompt: str, *, secret: bool = False) -> str:
        """One line typed after `prompt`, without its newline, a `secret` one without echo; end
        of input cancels, also after text typed on the line (Ctrl+D is no Enter).

        Read from a pipe, the answer is written after the prompt for the log (a secret as •••).
        """
        shown = f"{literal_text(prompt)} "
        self.out.write(shown)
        self.out.flush()
        on_terminal = self.inp.isatty()
        # A pipe does not echo: there, a secret is read as any line.
        typed = (
            read_hidden(self.inp, partial(self._asked_again, shown))
            if secret and on_terminal
            else read_line(self.inp)
        )
        if typed is None:
            self.say()  # what is printed next starts a line of its own
            raise _Ended(ElicitationResult(action="cancel"))
        if not on_terminal:
            # Read from a pipe, nothing echoed it: the log shows each answer after its prompt.
            self.say("•••" if secret else typed)
        elif secret:
            self.say()  # Enter, not echoed, ended no line
        if typed.strip() == DECLINE_WORD:
            raise _Ended(ElicitationResult(action="decline"))
        return typed

    def _asked_again(self, shown: str, kept: bool) -> None:
        """The prompt `shown` once more, after a stop and `fg`, below what the shell printed."""
        self.say()
        if kept:
            self.say("Continued: what you typed before the stop is kept (Ctrl+U clears it).")
        self.out.write(shown)
        self.out.flush()

    def until_valid(self, prompt: str, parse: Callable[[str], T]) -> T:
        """Ask `prompt` until `parse` takes the answer; each refusal is said before asking again."""
        while True:
            try:
                return parse(self.line(prompt))
            except _Invalid as invalid:
                self.say(f"  ✖ {invalid}")

    def _header(self, request: Request) -> None:
        parts = [request.source or "agent"]
        if request.title:
            parts.append(request.title)
        message = request.message
        if isinstance(request, ToolApprovalRequest):
            message = literal_spaces(message)  # (the call, as the dialog shows it)
        self.say(f"[{' · '.join(parts)}] {message}")
        if request.description:
            self.say(request.description)
        self.say(f"(Ctrl+D cancels; type {DECLINE_WORD} to refuse to answer)")

    def _numbered(self, options: Sequence[Option], marks: Sequence[str] | None = None) -> None:
        for number, option in enumerate(options, 1):
            mark = f"{marks[number - 1]} " if marks else ""
            detail = f" — {option.description}" if option.description else ""
            self.say(f"  {mark}{number}) {option.label}{detail}")

    # -- kinds ------------------------------------------------------------------------------

    def _text(self, request: TextRequest) -> ElicitationResult:
        default = request.default or ""

        def parse(typed: str) -> str:
            value = typed or default
            low, high = request.min_length, request.max_length
            if low is not None and len(value) < low:
                raise _Invalid(f"Too short: at least {low} characters (you typed {len(value)}).")
            if high is not None and len(value) > high:
                raise _Invalid(f"Too long: at most {high} characters (you typed {len(value)}).")
            return value

        if request.sensitive:
            # Read without echo, in one line, as a secret is.
            while True:
                try:
                    return _accept(parse(self.line("Answer (hidden):", secret=True)))
                except _Invalid as invalid:
                    self.say(f"  ✖ {invalid} Type it again.")
        if request.multiline:
            self.say("Type the lines; a line with a single . ends the text.")
            while True:
                lines = []
                while (typed := self.line(">")) != ".":
                    lines.append(typed)
                try:
                    return _accept(parse("\n".join(lines)))
                except _Invalid as invalid:
                    self.say(f"  ✖ {invalid} Type it again.")
        shown = f" [{default}]" if default else ""
        return _accept(self.until_valid(f"Answer{shown}:", parse))

    def _choice(self, request: ChoiceRequest) -> ElicitationResult:
        options = request.options
        self._numbered(options)
        default = next((i for i, o in enumerate(options, 1) if o.value == request.default), None)
        shown = f" [{default}]" if default else ""
        number = self.until_valid(
            f"Type a number, 1-{len(options)}{shown}:",
            lambda typed: _one_number(typed, options, default),
        )
        return _accept(options[number - 1].value)

    def _multi(self, request: MultiChoiceRequest) -> ElicitationResult:
        options = request.options
        ticked = [i for i, o in enumerate(options, 1) if o.value in request.default]
        self._numbered(options, ["☑" if i in ticked else "☐" for i in range(1, len(options) + 1)])
        low, high = request.min_selected, request.max_selected

        def parse(typed: str) -> list[str]:
            if typed.strip() == "-":
                numbers = []
            else:
                numbers = _numbers(typed, len(options)) if typed.strip() else ticked
            if len(numbers) < low:
                raise _Invalid(f"Pick at least {low} (you picked {len(numbers)}).")
            if high is not None and len(numbers) > high:
                raise _Invalid(f"Pick at most {high} (you picked {len(numbers)}).")
            return [o.value for i, o in enumerate(options, 1) if i in numbers]

        shown = " ".join(map(str, ticked))
        bounds = _how_many(low, high)
        if low == 0:
            prompt = f"Type numbers separated by spaces{bounds} (- for none) [{shown or 'none'}]:"
        else:  # none is no answer: not offered
            default = f" [{shown}]" if shown else ""
            prompt = f"Type numbers separated by spaces{bounds}{default}:"
        return _accept(self.until_valid(prompt, parse))

    def _secret(self, request: SecretRequest) -> ElicitationResult:
        while True:
            value = self.line("Secret (not shown as you type):", secret=True)
            problem = _secret_problem(request, value)
            if (
                problem is None
                and request.confirm
                and self.line("Type it again:", secret=True) != value
            ):
                problem = "The two entries differ; type it again."
            if problem is None:
                break
            self.say(f"  ✖ {problem}")
        secret = SecretStr(value)
        if request.store is None:
            return _accept(secret)
        # Loaded only here: asking anything else never touches the keyring.
        from tui.secrets.keyring_store import KeyringError, store_secret

        try:
            reference = store_secret(request.store, secret)
        except KeyringError as error:
            self.say(f"  ✖ {error}")
            return ElicitationResult(action="cancel", reason="keyring_unavailable")
        return _accept(reference)

    def _confirmation(self, request: ConfirmationRequest) -> ElicitationResult:
        return _accept(self._yes_no(request.yes_label, request.no_label, request.default))

    def _yes_no(self, yes: str, no: str, default: bool | None) -> bool:
        answer = self._yes_no_or_skip(yes, no, default, skippable=False)
        assert answer is not None  # only a skippable question is answered with nothing
        return answer

    def _yes_no_or_skip(
        self, yes: str, no: str, default: bool | None, *, skippable: bool
    ) -> bool | None:
        """y or n; an empty line gives `default`, else, if `skippable`, None."""
        shown = {True: " [y]", False: " [n]", None: ""}[default]

        def parse(typed: str) -> bool | None:
            word = typed.strip().casefold()
            if not word and (default is not None or skippable):
                return default
            if word in ("y", "yes", yes.casefold()):
                return True
            if word in ("n", "no", no.casefold()):
                return False
            raise _Invalid(f"Type y ({yes}) or n ({no}).")

        return self.until_valid(f"y = {yes}, n = {no}{shown}:", parse)

    def _form(self, request: FormRequest) -> ElicitationResult:
        spec = parse_schema(request.requested_schema)
        while True:
            content: dict[str, Any] = {}
            for field in spec.fields:
                value = self._field(field)
                if value is not None:
                    content[field.name] = value
            try:
                # As the dialog's answer is checked: a secret field's SecretStr as its text.
                return _accept(request.check_content(content))
            except (ValueError, ValidationError) as problem:
                self.say(f"  ✖ {problem} Fill in the form again.")

    def _field(self, field: FieldSpec) -> Any:
        needs = "required" if field.required else "optional: Enter skips"
        hint = f", {field.hint()}" if field.hint() else ""
        # A yes/no with a default is answered by Enter; one without is skipped only if optional.
        skippable = not field.required and field.default is None
        if field.type != "boolean":
            self.say(f"{field.title} ({needs}{hint})")
        else:
            self.say(f"{field.title} ({needs})" if skippable else field.title)
        if field.description:
            self.say(f"  {field.description}")
        if field.type == "boolean":
            default = None if field.default is None else bool(field.default)
            return self._yes_no_or_skip("yes", "no", default, skippable=skippable)
        if field.type in ("enum", "multi_enum"):
            self._numbered(field.options)

        def parse(typed: str) -> Any:
            raw: Any = typed
            if field.type == "enum":
                raw = (
                    field.options[_one_number(typed, field.options, None) - 1].value
                    if typed
                    else None
                )
            elif field.type == "multi_enum":
                numbers = _numbers(typed, len(field.options)) if typed.strip() else []
                raw = [o.value for i, o in enumerate(field.options, 1) if i in numbers]
            if not typed.strip() and field.default is not None:
                return field.default
            try:
                return parse_value(field, raw if raw != "" else None)
            except ValueError as error:
                raise _Invalid(_sentence(str(error))) from None

        default = field.default
        shown = f" [{', '.join(default) if isinstance(default, list) else default}]"
        prompt = "Numbers separated by spaces" if field.type == "multi_enum" else "Value"
        if field.type == "enum":
            prompt = f"Type a number, 1-{len(field.options)}"
        if field.secret:
            return self.until_valid_hidden(field, parse)
        return self.until_valid(f"  {prompt}{shown if default is not None else ''}:", parse)

    def until_valid_hidden(self, field: FieldSpec, parse: Callable[[str], Any]) -> Any:
        while True:
            try:
                value = parse(self.line("  Value (not shown as you type):", secret=True))
            except _Invalid as invalid:
                self.say(f"  ✖ {invalid}")
                continue
            return value if value is None else SecretStr(str(value))

    def _questions(self, request: QuestionsRequest) -> ElicitationResult:
        answers: dict[str, Any] = {}
        notes: dict[str, str] = {}
        for question in request.questions:
            kind = "pick any" if question.multi_select else "pick one"
            self.say(f"{question.header or 'Question'}: {question.question} ({kind})")
            options = [
                Option(label=o.label, value=o.label, description=o.description)
                for o in question.options
            ]
            self._numbered(options)
            other = " or type your own answer" if question.allow_other else ""

            def parse(
                typed: str,
                options: list[Option] = options,
                multi: bool = question.multi_select,
                allow_other: bool = question.allow_other,
            ) -> Any:
                try:
                    if multi:
                        numbers = _numbers(typed, len(options))
                        return [o.label for i, o in enumerate(options, 1) if i in numbers]
                    return options[_one_number(typed, options, None) - 1].label
                except _Invalid:
                    if allow_other and typed.strip() and not typed.strip().isdigit():
                        return [typed.strip()] if multi else typed.strip()
                    raise

            what = "numbers separated by spaces" if question.multi_select else "a number"
            answers[question.question] = self.until_valid(f"Type {what}{other}:", parse)
            note = self.line("Note for the agent (Enter for none):").strip()
            if note:
                notes[question.question] = note
        return _accept({"answers": answers, "notes": notes})

    def _tool_approval(self, request: ToolApprovalRequest) -> ElicitationResult:
        # As the dialog shows a call: a space other than the ASCII one as its code point
        # (`rm -rf a\xa0b` names one file, which would read as two).
        self.say(literal_spaces(f"Tool: {request.tool_name}"))
        for name, value in request.arguments.items():
            self.say(literal_spaces(f"  {name} = {json.dumps(value, ensure_ascii=False)}"))
        if request.diff:
            self.say(literal_spaces(request.diff.rstrip("\n")))
        from tui.approvals.offered import why_not_covered, why_not_remembered

        # As the dialog words them: what 2 and 3 allow from now on, or that they are not offered.
        rows = approval_answers(
            request.reach(),
            not_offered=why_not_remembered(request),
            not_covered=why_not_covered(request),
        )
        self._numbered(
            [
                Option(label=row.label, value=row.value, description=literal_spaces(row.hint))
                for row in rows
            ]
        )

        def parse(typed: str) -> int:
            number = _one_number(typed, rows, None)
            if not rows[number - 1].offered:
                raise _Invalid(f"{rows[number - 1].label} is {rows[number - 1].hint}.")
            return number

        number = self.until_valid(f"Type a number, 1-{len(rows)}:", parse)
        if number == 4:
            reason = self.line("Reason for the agent (Enter for none):").strip()
            return ElicitationResult(
                action="decline", content={"reason": reason} if reason else None
            )
        return _accept({"scope": ("once", "session", "always")[number - 1]})

    def _url(self, request: UrlRequest) -> ElicitationResult:
        import webbrowser  # loaded for a link only: it costs every other question's start

        from tui.core.url_check import check_url

        report = check_url(request.url)
        self.say(f"Link: {report.url}")
        # The host the browser contacts first, as the dialog shows it: a look-alike only after.
        reads_as = f"  reads as {report.shown_domain}" if report.internationalised else ""
        self.say(f"Domain: {report.domain}{reads_as}")
        for warning in report.warnings:
            self.say(f"  ⚠ {warning}")
        if not self._yes_no("open it in the browser", "do not open it", None):
            return ElicitationResult(action="decline")
        return _accept(webbrowser.open(request.url, new=2))


def _how_many(low: int, high: int | None) -> str:
    """How many numbers a checklist takes, as its prompt says it: both bounds it has."""
    if high is None:
        return f", at least {low}" if low else ""
    if low == high:
        return f", exactly {low}"
    return f", {low} to {high}" if low else f", at most {high}"


def _accept(content: Any) -> ElicitationResult:
    return ElicitationResult(action="accept", content=content)


def _one_number(typed: str, options: Sequence[object], default: int | None) -> int:
    text = typed.strip()
    if not text and default is not None:
        return default
    if text.isdigit() and 1 <= int(text) <= len(options):
        return int(text)
    raise _Invalid(f"Type a number from 1 to {len(options)}.")


def _numbers(typed: str, count: int) -> list[int]:
    words = typed.replace(",", " ").split()
    if not all(word.isdigit() and 1 <= int(word) <= count for word in words):
        raise _Invalid(f"Type numbers from 1 to {count}, separated by spaces.")
    return sorted({int(word) for word in words})


def _secret_problem(request: SecretRequest, value: str) -> str | None:
    if not value:
        return "Type the secret, or press Ctrl+D to cancel."
    if request.min_length and len(value) < request.min_length:
        return f"Too short: at least {request.min_length} characters (you typed {len(value)})."
    return request.pattern_problem(value)


def _sentence(text: str) -> str:
    """`text` with its first letter made a capital, the rest as it is ("not a URL" → "Not a
    URL", where `str.capitalize` would give "Not a url")."""
    return text[:1].upper() + text[1:]
