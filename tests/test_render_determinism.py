"""Two renders of the same session, each its own process, give byte-identical files."""

from __future__ import annotations

from pathlib import Path

from recorded_session import run_cli
from render_demo import DEMO


def test_rendering_twice_gives_identical_gif_svg_and_png(tmp_path: Path) -> None:
    made = []
    for run in ("first", "second"):
        outputs = [tmp_path / run / f"demo{ext}" for ext in (".gif", ".svg", ".png")]
        args = [arg for path in outputs for arg in ("-o", str(path))]
        done = run_cli("replay", str(DEMO), "--show-keys", "--max-pause", "1s", *args)
        assert done.returncode == 0, done.stderr
        made.append([path.read_bytes() for path in outputs])
    first, second = made
    assert all(len(data) > 10_000 for data in first)
    assert first == second
