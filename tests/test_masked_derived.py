"""An answer a dialog of one's own makes from what was typed into its masked field (trimmed,
in another case, inside a longer text, cut to its first characters) is kept as a secret, as the
value typed is: masked in the timeline and the transcript, never in the text for a model."""

from __future__ import annotations

from pathlib import Path

import pytest
from answer_kinds import DERIVED, HeaderRequest
from app_driver import screen_text, wait_for, wait_for_modal
from asking import burst
from secret_session import CANARY, CANARY_PIECES

from tui import ElicitationApp, ElicitationQueue, ElicitationResult


@pytest.mark.parametrize("how", sorted(DERIVED))
async def test_text_made_from_a_masked_field_is_kept_secret(how: str, tmp_path: Path) -> None:
    # Only the value exactly as typed was caught: "Bearer sk-…" reached the timeline, the
    # transcript and the text the agent hands its model.
    transcript = tmp_path / "session.jsonl"
    results: list[ElicitationResult] = []
    texts: list[str] = []

    def agent(queue: ElicitationQueue) -> None:
        result = queue.ask(HeaderRequest(message="Token?", how=how))
        results.append(result)
        texts.append(result.to_llm_text())

    app = ElicitationApp(ElicitationQueue(), agent, input_grace=0, transcript=transcript)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for_modal(pilot, "Token?")
        burst(app, *f" {CANARY} ", "enter")
        await wait_for(pilot, lambda: bool(texts))
        await wait_for(pilot, lambda: "•••" in screen_text(app))
        shown = screen_text(app)
    [result] = results
    assert result.accepted
    assert result.sensitive
    # The agent itself gets what the dialog made, in clear.
    assert result.content == {"header": DERIVED[how](f" {CANARY} ")}
    assert not leaks(texts[0])
    assert not leaks(shown)
    assert not leaks(transcript.read_text(encoding="utf-8"))


def leaks(text: str) -> bool:
    """Whether `text` holds six characters of the canary in a row, in any case."""
    return any(piece.casefold() in text.casefold() for piece in CANARY_PIECES)
