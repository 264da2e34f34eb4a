"""Snapshots of a kind registered by a program: the example card picker with its preview pane."""

from __future__ import annotations

from typing import Any

from snapshot_app import modal_app

from tui.examples.card_picker import EXAMPLE_CARDS, Card, CardRequest


class TestCardPicker:
    def test_first_card_with_its_preview(self, snap_compare: Any) -> None:
        request = CardRequest(
            message="Which file should I open next?", cards=EXAMPLE_CARDS, source="demo"
        )
        app, ready = modal_app(request)
        assert snap_compare(app, run_before=ready)

    def test_third_card_highlighted_with_literal_text_and_a_long_name(
        self, snap_compare: Any
    ) -> None:
        cards = [
            *EXAMPLE_CARDS,
            Card(name="[bold]not markup[/bold].txt", preview="[red]shown as typed[/red]"),
            Card(name="a-very-long-file-name-that-cannot-fit-in-the-list-column.md"),
        ]
        request = CardRequest(message="Which file?", cards=cards, source="demo", timeout=90)
        app, ready = modal_app(request)
        assert snap_compare(app, press=["down", "down", "down"], run_before=ready)
