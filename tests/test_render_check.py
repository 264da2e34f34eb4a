"""`--update DIR` / `--check DIR`: each chapter's final screen saved as text and compared; the
README's demo screens are checked here, so CI fails when the demo's look drifts."""

from __future__ import annotations

import shutil
from pathlib import Path

from recorded_session import REPO, run_cli

DEMO_SCREENS = REPO / "docs" / "demo-screens"
DEMO_OPTIONS = ("demo", "--replay", "--size", "80x24", "--max-pause", "1s")
"""As in the README's command that makes docs/demo.gif and docs/demo-screens."""


def test_the_readme_demo_screens_match_a_fresh_replay() -> None:
    done = run_cli(*DEMO_OPTIONS, "--check", str(DEMO_SCREENS))
    assert done.returncode == 0, done.stderr
    assert f"all 9 chapter screens match {DEMO_SCREENS}" in done.stdout


def test_a_drifted_chapter_is_named_with_its_diff_and_exits_1(tmp_path: Path) -> None:
    saved = tmp_path / "screens"
    shutil.copytree(DEMO_SCREENS, saved)
    chapter = saved / "01-new-service.txt"
    chapter.write_text(chapter.read_text().replace("invoice-api", "billing-api"))
    done = run_cli(*DEMO_OPTIONS, "--check", str(saved))
    assert done.returncode == 1
    assert f"chapter 01-new-service.txt differs from {saved}" in done.stderr
    assert "-  │ ▊  billing-api" in done.stderr and "+  │ ▊  invoice-api" in done.stderr
    assert "02-which" not in done.stderr


def test_a_missing_chapter_and_a_file_of_no_chapter_are_each_said_as_such(tmp_path: Path) -> None:
    # Both read "differs", with a diff against nothing; a stale file was easy to miss.
    saved = tmp_path / "screens"
    shutil.copytree(DEMO_SCREENS, saved)
    (saved / "03-which-features-should-the-scaffold-inclu.txt").unlink()
    (saved / "10-an-older-question.txt").write_text("old\n")
    done = run_cli(*DEMO_OPTIONS, "--check", str(saved))
    assert done.returncode == 1
    assert (
        f"chapter 03-which-features-should-the-scaffold-inclu.txt is missing from {saved}"
        in done.stderr
    )
    assert f"{saved}/10-an-older-question.txt is no chapter of this session" in done.stderr
    assert "differs" not in done.stderr


def test_a_chapter_named_in_any_script_keeps_its_letters_in_its_file_name() -> None:
    from tui.render.golden import chapter_file

    assert chapter_file(2, "新しいサービスの名前は?") == "02-新しいサービスの名前は.txt"
    assert chapter_file(3, "Run `uv run pytest -q`") == "03-run-uv-run-pytest-q.txt"
    assert chapter_file(4, "🚀🚀") == "04.txt"
