"""Each chapter's final screen as text, saved (`--update DIR`) and compared (`--check DIR`)."""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from pathlib import Path

from tui.render.capture import Capture
from tui.render.cells import grid_text
from tui.render.script import Script


@dataclass(frozen=True)
class Drift:
    """A chapter whose screen differs from the saved one (`diff` is a unified diff), or is
    not saved (`missing`), or a saved file that is no chapter of the session (`extra`)."""

    name: str
    diff: str
    missing: bool = False
    extra: bool = False

    def describe(self, folder: Path) -> str:
        """What is wrong, for `--check folder`."""
        if self.missing:
            return f"chapter {self.name} is missing from {folder}: save it with --update"
        if self.extra:
            return (
                f"{folder / self.name} is no chapter of this session (left from an older"
                " recording?): delete it, or save the screens again with --update"
            )
        return f"chapter {self.name} differs from {folder}:\n{self.diff}"


def chapter_file(number: int, name: str) -> str:
    """The file a chapter's screen is saved in: its number and the words of its name, in any
    script (`02-新しいサービス.txt`), at most 40 characters of them."""
    slug = re.sub(r"[\W_]+", "-", name.lower()).strip("-")[:40].strip("-")
    return f"{number:02d}-{slug}.txt" if slug else f"{number:02d}.txt"


def chapter_screens(script: Script, captured: Capture) -> dict[str, str]:
    """File name → text of each shown chapter's screen as it is answered (before its last key)."""
    screens: dict[str, str] = {}
    for chapter in script.shown_chapters:
        inside = [i for i, step in enumerate(script.steps) if step.chapter == chapter.number]
        keys = [i for i in inside if script.steps[i].kind == "key"]
        index = keys[-1] - 1 if keys else inside[-1]
        text = grid_text(captured.screens[index]) + "\n"
        screens[chapter_file(chapter.number, chapter.name)] = text
    return screens


def update(folder: Path, screens: dict[str, str]) -> list[Path]:
    """Save `screens` in `folder` (replacing the chapter files there); the paths written."""
    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.glob("*.txt"):
        if old.name not in screens:
            old.unlink()
    written = []
    for name, text in screens.items():
        path = folder / name
        path.write_text(text, encoding="utf-8")
        written.append(path)
    return written


def check(folder: Path, screens: dict[str, str]) -> list[Drift]:
    """How `screens` differ from those saved in `folder`: one `Drift` per differing chapter."""
    saved = {path.name: path.read_text(encoding="utf-8") for path in folder.glob("*.txt")}
    drifts = []
    for name in sorted(set(saved) | set(screens)):
        if name not in saved:
            drifts.append(Drift(name, "", missing=True))
            continue
        if name not in screens:
            drifts.append(Drift(name, "", extra=True))
            continue
        old, new = saved[name], screens[name]
        if old != new:
            diff = difflib.unified_diff(
                old.splitlines(), new.splitlines(), f"saved/{name}", f"replayed/{name}", lineterm=""
            )
            drifts.append(Drift(name, "\n".join(diff)))
    return drifts
