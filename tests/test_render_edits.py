"""The sidecar edit file and --redact: a render changed without re-recording, the transcript
untouched."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from recorded_session import run_cli
from render_demo import DEMO, TIMING

from tui.render.edits import Edits, EditsError, edited_transcript, load_edits
from tui.render.script import KEY_HOLD, build_script
from tui.transcript.reader import read_transcript
from tui.transcript.timing import Timing


def test_no_edits_plays_the_session_as_scaled() -> None:
    transcript = read_transcript(DEMO)
    script = build_script(transcript, Timing())
    end = max(record.t for record in transcript.records)
    assert script.duration == pytest.approx(end)
    assert [c.start for c in script.chapters] == sorted(c.start for c in script.chapters)


def test_a_cut_chapter_takes_no_time_and_is_left_out() -> None:
    transcript = read_transcript(DEMO)
    whole = build_script(transcript, TIMING)
    edits = Edits.model_validate({"chapters": {"3": {"cut": True}}})
    cut = build_script(edited_transcript(transcript, edits), TIMING, edits)
    third = whole.chapters[2]
    assert [c.number for c in cut.shown_chapters] == [1, 2, 4, 5, 6, 7, 8, 9]
    assert cut.duration == pytest.approx(whole.duration - (third.end - third.start), abs=1.01)


def test_a_chapter_speed_and_max_idle_shorten_its_pauses() -> None:
    transcript = read_transcript(DEMO)
    whole = build_script(transcript, Timing())
    edits = Edits.model_validate({"chapters": {"1": {"speed": 2}}})
    faster = build_script(transcript, Timing(), edits)
    first, quick = whole.chapters[0], faster.chapters[0]
    assert quick.end - quick.start == pytest.approx((first.end - first.start) / 2, abs=0.01)
    idle = build_script(transcript, Timing(), Edits(max_idle=0.5))
    pauses = [b.at - a.at for a, b in zip(idle.steps, idle.steps[1:], strict=False)]
    assert max(pauses) <= 0.5 + 1e-9


def test_a_changed_answer_is_typed_in_the_recorded_time() -> None:
    transcript = read_transcript(DEMO)
    edits = Edits.model_validate({"chapters": {"1": {"answer": "orders-api"}}})
    keys = edited_transcript(transcript, edits).records[1]
    original = transcript.records[1]
    assert keys.type == original.type == "keys"
    typed = "".join(press.char or "" for press in keys.keys[1:-1])  # type: ignore[union-attr]
    assert typed == "orders-api"
    assert keys.keys[-1].key == "enter"  # type: ignore[union-attr]
    assert keys.keys[-1].t == original.keys[-1].t  # type: ignore[union-attr]


def test_only_a_text_questions_answer_can_change(tmp_path: Path) -> None:
    transcript = read_transcript(DEMO)
    edits = Edits.model_validate({"chapters": {"2": {"answer": "flask"}}})
    with pytest.raises(EditsError, match="chapter 2: only a text question's answer"):
        edited_transcript(transcript, edits)
    bad = tmp_path / "bad.edit.json"
    bad.write_text(json.dumps({"chapters": {"1": {"speed": 0}}, "trim": 1}))
    with pytest.raises(EditsError) as error:
        load_edits(bad)
    assert "greater than 0" in str(error.value) and "Extra inputs are not permitted" in str(
        error.value
    )


@pytest.mark.parametrize(
    ("edits", "redact", "refusal"),
    [
        (
            {"chapters": {"1": {"answer": "x"}}},
            None,
            "chapter 1: the question would refuse the answer as edited: the answer is 1 "
            "characters long, less than 3",
        ),
        (
            {},
            r"invoices\.example\.com",
            "chapter 8: the question would refuse the answer as edited: property 'domain': "
            "'•••' is too short",
        ),
    ],
    ids=["answer", "redacted"],
)
def test_an_answer_the_question_would_refuse_is_refused_up_front(
    edits: dict[str, object], redact: str | None, refusal: str
) -> None:
    # The replay waited on it, cancelled the question as stalled and exited 0, a toast over
    # half a minute of video.
    patterns = [re.compile(redact)] if redact else []
    with pytest.raises(EditsError) as error:
        edited_transcript(read_transcript(DEMO), Edits.model_validate(edits), patterns)
    assert str(error.value) == refusal


def test_an_edit_file_that_is_not_one_is_refused_naming_each_field(tmp_path: Path) -> None:
    path = tmp_path / "edits.json"
    path.write_text(json.dumps({"chapters": {"3": {"speed": 0}, "4": {"bogus": 1}}}))
    with pytest.raises(EditsError) as error:
        load_edits(path)
    assert str(error.value) == (
        f"{path} is not a valid edit file:\n"
        "  chapters.3.speed: Input should be greater than 0\n"
        "  chapters.4.bogus: Extra inputs are not permitted"
    )


def test_empty_text_to_replace_or_redact_is_refused(tmp_path: Path) -> None:
    # Taken, it put the replacement between every two characters of every string drawn.
    path = tmp_path / "edits.json"
    path.write_text(json.dumps({"replace": {"": "x"}}))
    with pytest.raises(EditsError, match=r"replace: .*the text to replace is empty"):
        load_edits(path)
    for empty in ("", "x*"):
        run = run_cli("replay", str(DEMO), "--redact", empty, "-o", str(tmp_path / "a.cast"))
        assert run.returncode != 0
        assert f"{empty!r} matches empty text" in run.stderr
        assert not (tmp_path / "a.cast").exists()


def test_the_sidecar_and_redact_change_the_render_not_the_transcript(tmp_path: Path) -> None:
    transcript = tmp_path / "demo.jsonl"
    shutil.copy(DEMO, transcript)
    before = transcript.read_bytes()
    sidecar = {
        "max_idle": 1,
        "replace": {"invoice-api": "orders-api"},
        "chapters": {"1": {"answer": "payments-api"}, "3": {"cut": True}},
    }
    (tmp_path / "demo.jsonl.edit.json").write_text(json.dumps(sidecar))
    screens = tmp_path / "screens"
    done = run_cli("replay", str(transcript), "--redact", r"us-east-\d", "--update", str(screens))
    assert done.returncode == 0, done.stderr
    assert "edited: text request" in done.stdout  # the new answer differs from the recorded one
    # What the edit file meant to change is no drift: the summary says so too.
    assert "1 of 10 results as edited" in done.stdout and "differ" not in done.stdout
    names = sorted(path.name for path in screens.iterdir())
    assert len(names) == 8 and not any(name.startswith("03-") for name in names)
    texts = {path.name: path.read_text() for path in screens.iterdir()}
    assert "▊  payments-api" in texts["01-new-service.txt"]
    assert not any("invoice-api" in text or "us-east-1" in text for text in texts.values())
    assert "•••" in texts["08-where-and-how-should-it-be-deployed.txt"]
    assert transcript.read_bytes() == before


def test_keys_recorded_in_one_burst_are_each_shown_for_a_while(tmp_path: Path) -> None:
    # As tmux send-keys or expect deliver them: every key of the first answer at one instant.
    lines = DEMO.read_text(encoding="utf-8").splitlines()
    keys = json.loads(lines[2])
    assert keys["type"] == "keys"
    burst_at = keys["keys"][0]["t"]
    for press in keys["keys"]:
        press["t"] = burst_at
    lines[2] = json.dumps(keys)
    burst = tmp_path / "burst.jsonl"
    burst.write_text("\n".join(lines) + "\n", encoding="utf-8")

    script = build_script(read_transcript(burst), Timing(max_pause=1.0))

    pressed = [s for s in script.steps if s.kind == "key" and s.request_id == keys["id"]]
    assert len(pressed) == len(keys["keys"]) > 5
    following = script.steps[script.steps.index(pressed[-1]) + 1]
    shown_for = [b.at - a.at for a, b in zip(pressed, [*pressed[1:], following], strict=True)]
    assert min(shown_for) >= KEY_HOLD - 1e-6
    # Keys a person typed keep their pace: the demo's own are not held longer.
    typed = build_script(read_transcript(DEMO), Timing())
    assert typed.duration == pytest.approx(max(r.t for r in read_transcript(DEMO).records))


def test_replaced_and_redacted_text_is_nowhere_in_the_outputs(tmp_path: Path) -> None:
    # The last screen still said what the agent returned, and the timeline what was typed,
    # with the real text: only the requests were rewritten. A pattern with its own flags
    # stopped the render (the patterns were joined into one, flags in the middle).
    # Captions from a file of one's own were drawn as written, redaction or not.
    edits = tmp_path / "public.edit.json"
    edits.write_text(json.dumps({"replace": {"invoice": "orders", "setup-agent": "build-agent"}}))
    cues = tmp_path / "cues.vtt"
    cues.write_text("WEBVTT\n\n00:00.000 --> 00:03.000\nThe invoice agent picks FastAPI\n")
    outputs = [tmp_path / "demo.svg", tmp_path / "demo.cast"]
    done = run_cli(
        "replay", str(DEMO), "--edits", str(edits), "--redact", "(?i)fastapi", "--show-keys",
        "--max-pause", "1s", "--captions", str(cues),
        *(arg for path in outputs for arg in ("-o", str(path))),
    )  # fmt: skip

    assert done.returncode == 0, done.stderr
    for path in outputs:
        text = path.read_text(encoding="utf-8")
        assert "invoice" not in text and "fastapi" not in text.lower(), path.name
        assert "setup-agent" not in text and "build-agent" in text, path.name
        assert "orders-api" in text and "orderss.example.com" in text and "•••" in text
    assert "The orders agent picks •••" in outputs[1].read_text(encoding="utf-8")
    assert "all as recorded" in done.stdout  # typed as hidden, answered as hidden
