"""Two renders of the same session, each its own process, give byte-identical files, however
fast the machine is."""

from __future__ import annotations

from pathlib import Path

from recorded_session import run_cli
from render_demo import DEMO
from textual import events
from textual.app import ComposeResult
from textual.pilot import Pilot
from textual.widgets import Input, Markdown

from tui.app.key_order import KeyOrderApp
from tui.app.steady_frames import is_quiet


def test_rendering_twice_gives_identical_gif_svg_and_png(tmp_path: Path) -> None:
    made = []
    for run in ("first", "second"):
        (tmp_path / run).mkdir()
        outputs = [tmp_path / run / f"demo{ext}" for ext in (".gif", ".svg", ".png")]
        args = [arg for path in outputs for arg in ("-o", str(path))]
        done = run_cli("replay", str(DEMO), "--show-keys", "--max-pause", "1s", *args)
        assert done.returncode == 0, done.stderr
        made.append([path.read_bytes() for path in outputs])
    first, second = made
    assert all(len(data) > 10_000 for data in first)
    assert first == second


class PreviewApp(KeyOrderApp[None]):
    async def settle(self, pilot: Pilot[None]) -> bool:
        """Wait (up to five seconds; a slow machine takes its time) until the app is quiet."""
        for _ in range(500):
            if is_quiet(self):
                return True
            await pilot.pause(0.01)
        return False

    def compose(self) -> ComposeResult:
        yield Markdown("# first")
        yield Input()


async def test_a_step_is_not_taken_as_settled_while_a_preview_is_parsed_or_a_key_is_in_hand() -> (
    None
):
    """Textual parses Markdown in a thread, done whenever the thread is: a frame taken before
    it would depend on the machine's speed, so the renderer waits for it, and for keys."""
    app = PreviewApp()
    async with app.run_test() as pilot:
        markdown = app.query_one(Markdown)
        await markdown.update("# first")
        assert await app.settle(pilot)
        update = markdown.update("# second\n\n" + "paragraph\n\n" * 50)
        await pilot.pause(0)
        assert not is_quiet(app)
        await update
        assert await app.settle(pilot)
        app.query_one(Input).focus()
        app.post_message(events.Key("a", "a"))
        assert not is_quiet(app)
        assert await app.settle(pilot) and app.query_one(Input).value == "a"
