"""What a real process prints when it crashes or misbehaves holds no secret, in any spelling."""

from __future__ import annotations

import html
import re
import subprocess
import sys
from pathlib import Path

SESSION = Path(__file__).parent / "crash_session.py"
SECRET = "pa'ss-Canary-77x"
TELLTALE = "Canary-77x"
"""The secret's tail: it survives every escaping of the quote before it (\\', \\\\', &#x27;)."""


def run(case: str) -> tuple[str, str, str]:
    """stdout, stderr, and the text of the screenshot taken after the secret was typed."""
    done = subprocess.run(
        [sys.executable, str(SESSION), case, SECRET],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=SESSION.parent,
    )
    svg = done.stdout.partition("screen: ")[2]
    screen = html.unescape("".join(re.findall(r"<text[^>]*>([^<]*)</text>", svg)))
    return done.stdout, done.stderr, screen.replace("\xa0", " ")


def test_a_crash_in_a_validator_is_reported_without_the_secret_in_its_locals() -> None:
    out, err, _ = run("validator bug")

    assert "KeyError: 'missing'" in err  # the crash is still reported, with its traceback
    assert "crash_session.py" in err
    assert TELLTALE not in out + err


def test_a_secret_a_validator_rejects_is_not_on_the_error_line_or_screenshot() -> None:
    out, err, screen = run("validator rejects")

    assert 'Api Key: "•••" is not a key we issued' in screen
    assert "input_value" not in screen
    assert TELLTALE not in out + err


def test_a_result_whose_repr_raises_is_shown_not_fatal_and_not_leaked() -> None:
    out, err, _ = run("repr raises")

    assert "returned: Unprintable" in out  # the app ran to the end and quit normally
    assert "Traceback" not in err
    assert TELLTALE not in out + err


def test_escaped_spellings_of_a_secret_are_scrubbed_from_logs_and_screen() -> None:
    out, err, screen = run("escaped spellings")

    assert 'agent got {\'key\': \'the "•••" key\'} and "the \\"•••\\" key"' in err
    assert 'the "•••" key' in screen
    assert TELLTALE not in out + err
