"""The built wheel carries the styles and the app starts from it, away from the checkout."""

from __future__ import annotations

import subprocess
import sys
import textwrap
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

START_FROM_WHEEL = textwrap.dedent(
    """
    import asyncio, sys
    from pathlib import Path

    import styles, tui, widgets
    from tui import ElicitationApp, ElicitationQueue, parse_request

    installed = Path(sys.argv[1])
    for package in (styles, tui, widgets):
        assert Path(package.__file__).is_relative_to(installed), package.__file__

    answers = []

    def agent(queue):
        answers.append(queue.ask(parse_request(
            {"kind": "choice", "message": "Pick", "options": ["a", "b"], "default": "b"})))

    async def main():
        app = ElicitationApp(ElicitationQueue(), agent, input_grace=0)
        async with app.run_test() as pilot:
            for _ in range(200):
                await pilot.pause(0.02)
                if app.screen.has_class("elicitation"):
                    break
            dialog = app.screen.query_one("#dialog")
            # `round` comes from styles/app.tcss: the stylesheet was found in the wheel.
            assert dialog.styles.border_top[0] == "round", dialog.styles.border_top
            await pilot.press("enter")
            for _ in range(200):
                await pilot.pause(0.02)
                if answers:
                    break
        print(answers[0].content)

    asyncio.run(main())
    """
)


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("dist")
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "-q",
            "-w",
            str(out),
            str(ROOT),
        ],
        check=True,
        capture_output=True,
    )
    (found,) = out.glob("elicit_tui-*.whl")
    return found


def test_wheel_has_packages_styles_and_console_script(wheel: Path) -> None:
    names = zipfile.ZipFile(wheel).namelist()
    assert "styles/app.tcss" in names
    assert "tui/cli/demo_session.jsonl" in names  # what `elicit-tui demo --replay` plays
    assert "tui/app/app.py" in names and "widgets/base.py" in names
    entry_points = next(n for n in names if n.endswith("entry_points.txt"))
    assert "elicit-tui = tui.cli.entry:main" in zipfile.ZipFile(wheel).read(entry_points).decode()


def test_app_starts_from_the_installed_wheel(wheel: Path, tmp_path: Path) -> None:
    installed = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(installed)
    script = tmp_path / "start.py"
    script.write_text(START_FROM_WHEEL)
    # Run from an empty folder with the unpacked wheel first on the path, so neither the
    # checkout nor its editable install can supply the packages or the stylesheet.
    done = subprocess.run(
        [sys.executable, str(script), str(installed)],
        cwd=tmp_path,
        env={"PYTHONPATH": str(installed), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "b"
