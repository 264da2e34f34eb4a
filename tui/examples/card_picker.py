"""A request kind of its own: pick one card from a list, each with a preview beside it.

Run `python -m tui.examples.card_picker` to see it asked from an agent thread. The pieces a
kind needs are all here: the request model (`CardRequest`, plain pydantic, no Textual), one
`register_kind` call naming its modal by import path (`tui.examples.card_picker_modal`,
loaded only when a card is first shown), and `queue.ask()` as for any built-in kind.
"""

from __future__ import annotations

from typing import Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from tui import ElicitationQueue, ElicitationResult, RequestBase, register_kind


class Card(BaseModel):
    """One card: its name (the answer when picked) and the text shown beside the list."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = Field(min_length=1)
    preview: str = ""


class CardRequest(RequestBase):
    """Pick one of `cards`; the content is the picked card's name."""

    kind: Literal["card"] = "card"
    cards: list[Card] = Field(min_length=1)
    content_type: ClassVar[Any] = str

    @field_validator("cards")
    @classmethod
    def _names_unique(cls, cards: list[Card]) -> list[Card]:
        names = [card.name for card in cards]
        if len(set(names)) < len(names):
            raise ValueError("two cards have the same name")
        return cards

    def check_content(self, content: Any) -> str:
        name = super().check_content(content)
        if name not in {card.name for card in self.cards}:
            raise ValueError(f"{name!r} is not one of the cards")
        return str(name)


# Run with `python -m`, this file is `__main__`: a second copy of the module, whose CardRequest
# would clash with the importable copy's (the one the modal imports). Only that copy registers.
if __name__ != "__main__":
    register_kind(CardRequest, modal="tui.examples.card_picker_modal:CardPickerModal")

EXAMPLE_CARDS = [
    Card(name="README.md", preview="# elicit-tui\n\nLet an agent ask the person at the keyboard."),
    Card(
        name="pyproject.toml", preview='[project]\nname = "elicit-tui"\nrequires-python = ">=3.12"'
    ),
    Card(name="Makefile", preview="test:\n\tpytest -q\n\nlint:\n\truff check ."),
]


def ask_for_a_file(queue: ElicitationQueue) -> ElicitationResult:
    """The example agent: asks which file to open next and returns the result."""
    return queue.ask(
        CardRequest(message="Which file should I open next?", cards=EXAMPLE_CARDS, source="demo")
    )


def main() -> None:
    """Ask one card in the full-screen app and print the answer once it closes."""
    from tui import ElicitationApp

    queue = ElicitationQueue()
    app = ElicitationApp(queue, ask_for_a_file, exit_when_agent_done=True)
    app.run()
    print(app.agent_result)


if __name__ == "__main__":
    from tui.examples.card_picker import main as run_the_importable_copy

    run_the_importable_copy()
