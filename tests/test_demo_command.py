"""`elicit-tui demo`'s command line."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tui.cli.main import build_parser


@pytest.mark.parametrize("pause", ["-1", "nan", "inf", "soon"])
def test_a_pause_that_is_no_number_of_seconds_is_a_usage_error(
    pause: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # -1 used to start the demo, whose agent then failed at its first pause.
    with pytest.raises(SystemExit) as exited:
        build_parser().parse_args(["demo", "--pause", pause])

    assert exited.value.code == 2
    assert f"argument --pause: not a number of seconds, 0 or more: {pause!r}" in (
        capsys.readouterr().err
    )


def test_no_pause_at_all_is_a_pause() -> None:
    assert build_parser().parse_args(["demo", "--pause", "0"]).pause == 0


def test_the_demo_without_a_terminal_to_answer_on_ends_at_once_saying_why() -> None:
    # Under nohup, setsid or in CI it drew into its log and spun a core, for ever.
    done = subprocess.run(
        [sys.executable, "-m", "tui.cli", "demo"],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr == "elicit-tui demo: stdin is no terminal: nobody can answer the demo\n"
