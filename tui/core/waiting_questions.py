"""How many questions wait, in words, as quitting and cancelling them says it."""

from __future__ import annotations


def the_questions(count: int) -> str:
    """`the question` for one, `the 3 questions` for more."""
    return "the question" if count == 1 else f"the {count} questions"
