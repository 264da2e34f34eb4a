"""The keys of a modal with any secret typed or pasted into a field that shows it taken out.

A person may type a secret they gave earlier into an ordinary field (a text answer, a note).
The result is scrubbed of it; the keys that typed it are scrubbed the same way: they type
the mask (`•••`) instead, so a replay or a render of the transcript ends with the answer as
recorded, and never shows the secret, nor how long it is. Keys that still hold part of a
secret (typed with a slip put right, or in two parts) are kept as their times only, as a
sensitive answer's are: the replay gives the recorded answer.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence

from tui.secrets.redaction import MASK, Redactor
from tui.transcript.records import KeyPress


def scrubbed_keys(presses: Sequence[KeyPress], redactor: Redactor) -> list[KeyPress]:
    """`presses` with each registered secret they type or paste typing `MASK` instead."""
    typed = [n for n, press in enumerate(presses) if _typed_character(press) is not None]
    text = "".join(presses[n].char or "" for n in typed)
    replaced: dict[int, KeyPress | None] = {}
    for start, end in redactor.spans(text):
        for place, n in enumerate(typed[start:end]):
            mark = MASK[place] if place < len(MASK) else None
            replaced[n] = None if mark is None else _typing(mark, presses[n].t)
    scrubbed: list[KeyPress] = []
    for n, press in enumerate(presses):
        if n in replaced:
            typing = replaced[n]
            scrubbed += [] if typing is None else [typing]
        elif press.paste is not None and press.masked is None:
            scrubbed.append(press.model_copy(update={"paste": redactor.scrub(press.paste)}))
        else:
            scrubbed.append(press)
    left = "".join(press.paste or _typed_character(press) or "" for press in scrubbed)
    if redactor.holds_part(left):
        return [KeyPress(t=press.t, hidden=True) for press in presses]
    return scrubbed


def _typed_character(press: KeyPress) -> str | None:
    """The character `press` types into a field that shows it, if it types one."""
    char = press.char
    if press.masked is not None or press.paste is not None or char is None:
        return None
    return char if len(char) == 1 and char.isprintable() else None


def _typing(character: str, t: float) -> KeyPress:
    """A key press typing `character`, named as a terminal's key for it is (Textual's names)."""
    name = unicodedata.name(character).lower().replace(" ", "_").replace("-", "_")
    return KeyPress(t=t, key=character if character.isalnum() else name, char=character)
