"""Every row of a list reads in the light theme and the dark one, highlighted or not, ticked
or not: the ☑ of the highlighted row was drawn in the success green on the highlight's blue,
and hardly showed; in the dark theme the dim number and description of the highlighted row
read 2.5:1 on its blue."""

from __future__ import annotations

from typing import Any

import pytest
from app_driver import wait_for_modal
from rich.segment import Segment
from secret_session import asking_app
from textual.widgets import OptionList

from tui.cli.demo import scaffold_questions
from tui.core.models import ChoiceRequest, MultiChoiceRequest, Request
from widgets.contrast import READABLE, contrast_ratio

FEATURES = MultiChoiceRequest(
    message="Which features?",
    options=[{"label": "PostgreSQL", "description": "database"}, "Redis", "Metrics", "Auth"],
    default=["PostgreSQL", "Metrics"],
)
FRAMEWORK = ChoiceRequest(
    message="Which framework?", options=[{"label": "FastAPI", "description": "async"}, "Django"]
)


def _row_glyphs(app: Any, options: OptionList) -> list[tuple[int, Segment]]:
    """Each run of visible characters on the list's rows, with the row it is on."""
    region = options.content_region
    rows = app.screen._compositor.render_strips()
    found = []
    for y in range(region.y, region.bottom):
        x = 0
        for segment in rows[y]:
            inside = region.x <= x < region.right
            x += segment.cell_length
            if inside and segment.text.strip():
                found.append((y - region.y, segment))
    return found


@pytest.mark.parametrize(
    ("request_", "keys"),
    [
        # ticked and highlighted, ticked, not ticked and highlighted (after the up), not ticked
        (FEATURES, ["down", "down"]),
        (FEATURES, ["down", "space", "down", "up"]),
        (FRAMEWORK, ["down"]),
        # the batch's pick-any question: ☑ and ☐, highlighted and not
        (scaffold_questions("billing-api"), ["tab", "tab", "space", "down"]),
    ],
    ids=["checklist", "checklist untick", "choice", "question batch"],
)
@pytest.mark.parametrize("theme", ["textual-light", "textual-dark"])
async def test_every_mark_and_label_of_a_row_reads_on_it(
    request_: Request, keys: list[str], theme: str
) -> None:
    app, _ = asking_app(request_)
    async with app.run_test(size=(80, 24)) as pilot:
        app.theme = theme
        await wait_for_modal(pilot)
        await pilot.press(*keys)
        await pilot.pause()
        options = app.screen.focused
        assert isinstance(options, OptionList)
        glyphs = _row_glyphs(app, options)
        assert any(row == options.highlighted for row, _ in glyphs)
        faint = [
            (row, segment.text, round(contrast_ratio(style.color, style.bgcolor), 2))
            for row, segment in glyphs
            if (style := segment.style) is not None
            and style.color is not None
            and style.bgcolor is not None
            and contrast_ratio(style.color, style.bgcolor) < READABLE
        ]
        assert faint == []


async def test_a_list_with_a_highlighted_row_draws_in_every_theme() -> None:
    # Made readable on the highlight, the dim parts were measured in colours an ANSI theme
    # does not have (the terminal's own): drawing the list raised TypeError.
    app, _ = asking_app(FEATURES)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for_modal(pilot)
        await pilot.press("down")
        for theme in app.available_themes:
            app.theme = theme
            await pilot.pause()
            options = app.screen.focused
            assert isinstance(options, OptionList)
            drawn = [segment.text.strip() for row, segment in _row_glyphs(app, options) if row == 1]
            assert drawn == ["☐", "2", "Redis"], theme
