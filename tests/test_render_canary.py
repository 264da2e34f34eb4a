"""A secret has no influence on any rendered file: two sessions that differ only in a secret of
the same length render byte-identical outputs in every format, and the secret is in none."""

from __future__ import annotations

import json
from pathlib import Path

from keyring_backends import MemoryKeyring
from recorded_session import record_session, run_cli
from render_demo import HAS_FFMPEG
from secret_session import CANARY, carries_canary

OTHER_SECRET = "sk-" + "A" * (len(CANARY) - 3)
FORMATS = [".gif", ".png", ".svg", ".cast"] + ([".mp4", ".webm"] if HAS_FFMPEG else [])


def with_timing_of(path: Path, model: Path) -> None:
    """Give `path` the times of `model` (the same session recorded again): only the secret
    may differ between the two, not the pace Pilot happened to type at."""
    ours = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    theirs = [json.loads(line) for line in model.read_text(encoding="utf-8").splitlines()]
    assert [line.get("type") for line in ours] == [line.get("type") for line in theirs]
    for mine, other in zip(ours, theirs, strict=True):
        for name in ("t", "started"):
            if name in mine:
                mine[name] = other[name]
        for key, model_key in zip(mine.get("keys", []), other.get("keys", []), strict=True):
            key["t"] = model_key["t"]
    path.write_text("".join(json.dumps(line) + "\n" for line in ours), encoding="utf-8")


async def test_two_sessions_differing_in_a_secret_render_the_same_bytes(
    tmp_path: Path, isolated_keyring: MemoryKeyring
) -> None:
    assert len(OTHER_SECRET) == len(CANARY) and OTHER_SECRET != CANARY
    first, second = tmp_path / "canary.jsonl", tmp_path / "other.jsonl"
    await record_session(first, CANARY)
    isolated_keyring.entries.clear()  # the second session stores its key afresh, as the first
    await record_session(second, OTHER_SECRET)
    with_timing_of(second, first)
    outputs = {}
    for name, transcript in (("canary", first), ("other", second)):
        folder = tmp_path / name
        folder.mkdir()
        args = [arg for ext in FORMATS for arg in ("-o", str(folder / f"out{ext}"))]
        done = run_cli("replay", str(transcript), "--show-keys", "--captions", *args)
        assert done.returncode == 0, done.stderr
        outputs[name] = {path.name: path.read_bytes() for path in sorted(folder.iterdir())}
    assert sorted(outputs["canary"]) == sorted(
        ["out" + ext for ext in FORMATS] + (["out.chapters.vtt"] if HAS_FFMPEG else [])
    )
    for name, data in outputs["canary"].items():
        assert data == outputs["other"][name], f"{name} depends on the secret"
        assert CANARY.encode() not in data
        assert not carries_canary(data.decode("utf-8", errors="replace")), name
