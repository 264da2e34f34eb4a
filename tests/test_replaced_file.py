"""A file replaced whole: the old one stays whole until the new one is complete."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from tui.core.replaced_file import replacing


def test_the_new_content_replaces_the_file_once_the_block_ends(tmp_path: Path) -> None:
    path = tmp_path / "demo.gif"
    path.write_text("old")
    with replacing(path) as draft:
        draft.write_text("new")
        assert path.read_text() == "old"  # a reader meanwhile finds the old one
        assert draft.parent == tmp_path and draft.suffix == ".gif"  # its format kept
    assert path.read_text() == "new"
    assert sorted(tmp_path.iterdir()) == [path]


def test_a_block_that_raises_leaves_the_file_as_it_was_and_no_draft(tmp_path: Path) -> None:
    path = tmp_path / "demo.gif"
    path.write_text("old")
    with pytest.raises(KeyboardInterrupt), replacing(path) as draft:
        draft.write_text("half")
        raise KeyboardInterrupt
    assert path.read_text() == "old"
    assert sorted(tmp_path.iterdir()) == [path]


def test_a_link_is_kept_and_its_target_replaced_keeping_its_permissions(
    tmp_path: Path,
) -> None:
    target, link = tmp_path / "real.svg", tmp_path / "demo.svg"
    target.write_text("old")
    target.chmod(0o664)
    link.symlink_to(target)
    with replacing(link) as draft:
        draft.write_text("new")
    assert link.is_symlink() and target.read_text() == "new"
    assert stat.S_IMODE(target.stat().st_mode) == 0o664


def test_what_is_not_a_file_is_written_as_it_is(tmp_path: Path) -> None:
    with replacing(Path(os.devnull)) as draft:
        assert draft == Path(os.devnull)
        draft.write_text("gone")
    # `/dev/stdout` redirected to a file: renamed over, the file lost what it held before.
    log = tmp_path / "log.txt"
    with log.open("w") as out:
        out.write("before\n")
        out.flush()
        stdout = Path(f"/dev/fd/{out.fileno()}")
        with replacing(stdout) as draft:
            assert draft == stdout


def test_a_name_as_long_as_a_folder_takes_still_has_a_draft(tmp_path: Path) -> None:
    path = tmp_path / ("d" * 250 + ".gif")
    with replacing(path) as draft:
        draft.write_text("new")
    assert path.read_text() == "new"
