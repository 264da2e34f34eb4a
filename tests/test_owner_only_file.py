"""The token and login-link files: readable by their owner only, and replaced whole, so a
client reading one as it is rewritten (`web --link` during a login, `ask` as `serve`
starts) never reads it empty."""

from __future__ import annotations

import stat
import threading
from pathlib import Path

from tui.core.owner_only_file import write_owner_only

TEXTS = ("a" * 4000, "b" * 4000)


def test_a_reader_finds_the_text_before_or_after_a_rewrite_never_a_part(tmp_path: Path) -> None:
    path = tmp_path / "web-link-8000"
    write_owner_only(path, TEXTS[0])
    stop = threading.Event()
    read: set[str] = set()

    def reader() -> None:
        while not stop.is_set():
            read.add(path.read_text())

    reading = threading.Thread(target=reader)
    reading.start()
    try:
        for turn in range(3000):
            write_owner_only(path, TEXTS[turn % 2])
    finally:
        stop.set()
        reading.join()
    assert read <= {text + "\n" for text in TEXTS}
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert [entry.name for entry in tmp_path.iterdir()] == [path.name]
