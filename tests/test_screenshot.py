"""Screenshots mask every registered secret, cell for cell, and change nothing else."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from rich.control import Control
from rich.segment import Segment
from rich.style import Style
from secret_session import CANARY, SIZE
from textual.app import App, ComposeResult
from textual.widgets import Static

from tui.app.app import ElicitationApp
from tui.app.screenshot import MASK_CELL, mask_line, masked_screenshot
from tui.core.queue import ElicitationQueue
from tui.secrets.redaction import REDACTOR, Redactor

BOLD = Style(bold=True)


class Echo(App[None]):
    """Shows the canary twice: plainly, and highlighted in the middle."""

    def compose(self) -> ComposeResult:
        yield Static(f"key: {CANARY}", markup=False)
        yield Static(f"[b]{CANARY[:5]}[/b]{CANARY[5:]} again")


def _without_ids(svg: str) -> str:
    # Rich names the SVG's classes after a hash of its content.
    return re.sub(r"terminal-\d+", "terminal", svg)


@pytest.fixture
def redactor() -> Redactor:
    redactor = Redactor()
    redactor.register(CANARY)
    return redactor


@pytest.fixture
def registered() -> Iterator[None]:
    """The canary registered with the process-wide redactor for one test."""
    REDACTOR.register(CANARY)
    yield
    REDACTOR.clear()


class TestMaskLine:
    def test_secret_split_across_styles_is_masked_in_place(self, redactor: Redactor) -> None:
        line = [Segment("<"), Segment(CANARY[:5], BOLD), Segment(CANARY[5:] + ">")]

        masked = list(mask_line(line, redactor))

        assert [s.text for s in masked] == ["<", MASK_CELL * 5, MASK_CELL * 10 + ">"]
        assert [s.style for s in masked] == [None, BOLD, None]

    def test_control_segments_pass_and_lines_without_secrets_are_untouched(
        self, redactor: Redactor
    ) -> None:
        move = Control.move_to(0, 0).segment
        line = [move, Segment("nothing here")]

        assert list(mask_line(line, redactor)) == line
        masked = list(mask_line([move, Segment(CANARY)], redactor))
        assert masked == [move, Segment(MASK_CELL * len(CANARY))]


class TestMaskedScreenshot:
    async def test_masks_every_occurrence_and_nothing_else(self, redactor: Redactor) -> None:
        app = Echo()
        async with app.run_test(size=(60, 6)):
            plain = app.export_screenshot()
            unmasked = masked_screenshot(app, Redactor())
            masked = masked_screenshot(app, redactor)

        assert CANARY in plain
        assert _without_ids(unmasked) == _without_ids(plain)
        assert CANARY[5:] not in masked
        assert "key:&#160;" + MASK_CELL * len(CANARY) in masked
        assert MASK_CELL * 10 + "&#160;again" in masked

    async def test_app_exports_and_saves_masked(self, registered: None, tmp_path: Path) -> None:
        app = ElicitationApp(ElicitationQueue(), input_grace=0)
        async with app.run_test(size=SIZE) as pilot:
            await app.screen.mount(Static(f"echo {CANARY}", id="echo"))
            await pilot.pause()
            svg = app.export_screenshot()
            saved = Path(app.save_screenshot("shot.svg", str(tmp_path))).read_text("utf-8")

        for shot in (svg, saved):
            assert CANARY not in shot
            assert "echo&#160;" + MASK_CELL * len(CANARY) in shot
