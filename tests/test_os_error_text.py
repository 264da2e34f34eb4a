"""An OSError said as a person needs it: what went wrong and on which file."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest

from tui.core.error_text import os_error_text


def test_a_failed_rename_names_both_files(tmp_path: Path) -> None:
    draft, target = tmp_path / "draft", tmp_path / "serve-token"
    draft.write_text("token")
    target.mkdir()  # a folder where the file goes

    with pytest.raises(OSError) as raised:
        os.replace(draft, target)

    assert os_error_text(raised.value) == f"{draft} -> {target}: Is a directory"


def test_an_error_of_one_file_names_it(tmp_path: Path) -> None:
    with pytest.raises(OSError) as raised:
        (tmp_path / "missing" / "file").read_text()

    assert (
        os_error_text(raised.value) == f"{tmp_path / 'missing' / 'file'}: No such file or directory"
    )


def test_an_error_of_no_file_is_its_reason() -> None:
    assert os_error_text(OSError(errno.EIO, "Input/output error")) == "Input/output error"
