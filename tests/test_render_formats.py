"""`replay -o`: every format made from the bundled demo, each checked for frames, duration,
chapters, captions and the keys drawn after each press."""

from __future__ import annotations

import ast
import json
import os
import re
import shutil
import subprocess
import sys
import types
import unicodedata
from pathlib import Path
from typing import Any

import pyte
import pytest
from PIL import Image
from recorded_session import run_cli, write_lines
from render_demo import DEMO, HAS_FFMPEG, NO_FFMPEG, Rendered, render_demo
from rich.cells import cell_len
from textual.app import App, ComposeResult
from textual.widgets import Static

from tui.render.captions import CaptionsError, Cue, read_webvtt
from tui.render.cells import Cell, grid_text, screen_grid
from tui.render.chapters import webvtt_chapters
from tui.render.frames import END_SECONDS, Frame, Overlays, compose
from tui.render.outputs import poster, write_outputs
from tui.render.raster import Drawings, draw_grid
from tui.render.script import Chapter, Script, Step
from tui.render.video import VideoError, find_ffmpeg
from tui.secrets.redaction import Redactor


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Rendered:
    return render_demo(tmp_path_factory.mktemp("demo"))


def within_five_percent(total: float, demo: Rendered) -> bool:
    """The scaled session, plus the hold on the last screen, within 5%."""
    expected = demo.script.duration + END_SECONDS
    return abs(total - expected) <= 0.05 * demo.script.duration


def test_the_demo_has_a_chapter_per_question_shown(demo: Rendered) -> None:
    names = [chapter.name for chapter in demo.script.shown_chapters]
    assert len(names) == len(demo.transcript.shown_order()) == 9
    assert names[0] == "New service"
    assert names[1] == "Which web framework should invoice-api use?"


def test_the_gif_holds_each_screen_for_its_time(demo: Rendered) -> None:
    gif = Image.open(demo.written[".gif"].path)
    durations = []
    for index in range(gif.n_frames):
        gif.seek(index)
        durations.append(gif.info["duration"])
    assert gif.size == (800, 500)  # 80x24 cells and a caption line, 10x20 pixels each
    assert gif.n_frames == len(demo.frames)
    assert within_five_percent(sum(durations) / 1000, demo)
    assert gif.info["loop"] == 0


def test_what_the_agent_returned_is_held_three_seconds_before_the_gif_loops(
    demo: Rendered,
) -> None:
    gif = Image.open(demo.written[".gif"].path)
    held = 0
    # From the end back to the first frame without the outcome (a key's badge may be drawn
    # over its first second: the screen under it is the same).
    for frame, index in zip(reversed(demo.frames), reversed(range(gif.n_frames)), strict=True):
        if "Agent finished" not in grid_text(frame.grid):
            break
        gif.seek(index)
        held += gif.info["duration"]
    assert held >= 3000


def test_the_poster_is_the_first_question_answered_by_keys_when_the_first_had_none() -> None:
    # A first question that ended without a key (its dialog failed, it timed out) made the
    # poster the session's last screen, what the agent returned.
    screens = [((Cell(name, (0, 0, 0), (0, 0, 0)),),) for name in "abcdef"]
    frames = [Frame(float(at), 1.0, grid) for at, grid in enumerate(screens)]
    chapters = [Chapter(1, "r1", "failed", 0.5, 2.5, cut=False)]
    chapters.append(Chapter(2, "r2", "answered", 2.5, 5.0, cut=False))
    keys = [Step("key", 0.0, 2, at=3.5), Step("key", 0.0, 2, at=4.5)]
    assert poster(frames, Script(keys, chapters, 6.0)).grid == screens[4]


def test_the_poster_is_the_first_question_about_to_be_answered(demo: Rendered) -> None:
    poster = Image.open(demo.written[".png"].path).convert("RGB")
    matching = [f for f in demo.frames if draw_grid(f.grid).tobytes() == poster.tobytes()]
    assert poster.size == (800, 500)
    assert matching
    text = grid_text(matching[0].grid)
    assert "What should the new service be called?" in text
    assert "▊  invoice-api" in text  # typed, not yet sent: the timeline has no answer yet
    assert "✔ invoice-api" not in text


def test_the_svg_keeps_text_as_text_and_plays_every_frame(demo: Rendered) -> None:
    svg = demo.written[".svg"].path.read_text(encoding="utf-8")
    keyframes = re.findall(r"([\d.]+)%\{transform:translateY\(-(\d+)px\)\}", svg)
    duration = float(re.search(r"animation:roll ([\d.]+)s", svg).group(1))  # type: ignore[union-attr]
    assert len(keyframes) == len(demo.frames)
    assert within_five_percent(duration, demo)
    assert "DejaVu Sans Mono" in svg
    assert ">service</text>" in svg and ">called?</text>" in svg


def cast_events(path: Path) -> tuple[dict[str, Any], list[list[Any]]]:
    header, *events = (json.loads(line) for line in path.read_text(encoding="utf-8").splitlines())
    return header, events


def test_the_cast_has_a_marker_per_chapter_and_a_screen_per_frame(demo: Rendered) -> None:
    header, events = cast_events(demo.written[".cast"].path)
    markers = [text for _at, kind, text in events if kind == "m"]
    screens = [at for at, kind, _text in events if kind == "o"]
    assert (header["width"], header["height"]) == (80, 25)
    assert markers == [chapter.name for chapter in demo.script.shown_chapters]
    assert len(screens) == len(demo.frames)
    assert within_five_percent(screens[-1] + demo.frames[-1].duration, demo)


def test_the_cast_starts_on_a_clear_screen(demo: Rendered) -> None:
    # `asciinema play` draws a cast on the terminal as it is: its first screen was drawn over
    # what the terminal showed, and in one larger than the cast that stayed beside and below.
    _header, events = cast_events(demo.written[".cast"].path)
    terminal = pyte.Screen(100, 30)
    stream = pyte.Stream(terminal)
    stream.feed("\r\n".join(["$ elicit-tui demo --replay -o demo.cast" + "~" * 61] * 30))
    stream.feed(next(text for _at, kind, text in events if kind == "o"))
    rows = terminal.display
    assert rows[0].startswith(" ⭘") and "elicit-tui demo" in rows[0]
    assert [row[80:].strip() for row in rows] == [""] * 30
    assert [row.strip() for row in rows[25:]] == [""] * 5


def test_each_key_is_drawn_in_the_frame_after_it(demo: Rendered) -> None:
    """Played in a terminal emulator, the cast shows each key's label in the badge."""
    _header, events = cast_events(demo.written[".cast"].path)
    screens = [(at, text) for at, kind, text in events if kind == "o"]
    keys = [step for step in demo.script.steps if step.label is not None]
    assert len(keys) == 62
    terminal = pyte.Screen(80, 25)
    stream = pyte.Stream(terminal)
    shown = 0
    for step in keys:
        for at, text in screens[shown:]:
            if at > step.at + 1e-6:
                break
            stream.feed(text)
            shown += 1
        badge = "".join(terminal.display[22][65:79])  # the row above the footer
        assert step.label in badge, f"{step.label!r} not in the badge {badge!r} at {step.at}"
    secret = [step.label for step in keys if step.press and step.press.masked is not None]
    assert secret == ["paste •••"]  # the API key was pasted: its length, never its text


def test_without_show_keys_no_badge_is_drawn(demo: Rendered) -> None:
    frames = compose(demo.script, demo.render.captured, Overlays())
    assert len(frames[0].grid) == 24  # no caption line either
    captured = demo.render.captured
    screens = {*captured.screens, *(screen.grid for screen in captured.later)}
    assert all(frame.grid in screens for frame in frames)  # as captured, nothing drawn over
    assert within_five_percent(sum(frame.duration for frame in frames), demo)


def _highlighted(grid: tuple[tuple[Cell, ...], ...], label: str) -> bool:
    """Whether the row of `grid` that starts with `label` is drawn on another background
    than the screen's last row of the dialog's answers (`4 Deny`, not highlighted here)."""
    rows = ["".join(cell.char or "" for cell in row) for row in grid]
    labels = [i for i, row in enumerate(rows) if row.lstrip("│ ").startswith(label)]
    denies = [i for i, row in enumerate(rows) if row.lstrip("│ ").startswith("4 Deny")]
    if not (labels and denies):
        return False  # no dialog of answers on this screen
    at, deny = labels[0], denies[0]
    column = rows[at].index(label)
    return grid[at][column].bg != grid[deny][column].bg


def test_a_digit_s_row_is_shown_highlighted_before_what_the_digit_did(demo: Rendered) -> None:
    # The demo's shell call is allowed with 2. The render went from the approval with its
    # first row highlighted straight to the main screen: which row 2 picked, nobody saw.
    picked = [
        frame
        for frame in demo.frames
        if "Run the test suite" in grid_text(frame.grid)
        and _highlighted(frame.grid, "2 Allow for this session")
    ]
    assert picked
    assert sum(frame.duration for frame in picked) >= 0.3
    after = demo.frames[demo.frames.index(picked[-1]) + 1]
    assert "allowed for this s" in grid_text(after.grid)


def test_a_batch_question_picked_by_digit_shows_itself_answered_before_the_next(
    demo: Rendered,
) -> None:
    # The demo's first batch question is answered with 1. Its frame with the row picked
    # still said "3 unanswered", its tab unticked: the count came with the next question.
    texts = [grid_text(frame.grid) for frame in demo.frames]
    [picked] = [t for t in texts if "✔ Auth" in t and "Question 1 of 3 · 2 unanswered" in t]
    # Its footer, too: tab moves on from an answered question ("Next"), skips none.
    assert " tab Next " in picked and "Skip" not in picked, picked


def test_the_caption_line_names_the_source_and_the_question(demo: Rendered) -> None:
    first = demo.script.shown_chapters[0]
    frame = next(f for f in demo.frames if f.start >= first.start)
    assert grid_text(frame.grid).splitlines()[-1].strip() == "setup-agent: New service"


@pytest.mark.parametrize(
    "text",
    [
        "agent: " + "新しいサービスの名前" * 6 + "…",
        "agent: 🚀 " + "x" * 77,
        "agent: " + "x" * 72 + "漢",
    ],
    ids=["cut name", "emoji", "wide at the edge"],
)
def test_a_caption_of_wide_characters_fits_the_screen(demo: Rendered, text: str) -> None:
    # A cell per character: the line ran past the screen (a cast wrapped and scrolled), and
    # a chapter name already cut with … ended in ……
    overlays = Overlays(captions=(Cue(0.0, 5.0, text),))
    caption = compose(demo.script, demo.render.captured, overlays)[0].grid[-1]
    line = "".join(cell.char for cell in caption)
    assert len(caption) == 80
    assert cell_len(line) == 80
    assert line.rstrip().endswith("…") and not line.rstrip().endswith("……")


def ffprobe(path: Path, *entries: str) -> dict[str, Any]:
    done = subprocess.run(
        ["ffprobe", "-v", "error", "-of", "json", *entries, str(path)],
        capture_output=True,
        text=True,
        check=True,
    )
    data: dict[str, Any] = json.loads(done.stdout)
    return data


@pytest.mark.skipif(not HAS_FFMPEG, reason=NO_FFMPEG)
@pytest.mark.parametrize("suffix", [".mp4", ".webm"])
def test_the_video_has_the_sessions_duration_and_its_chapters(demo: Rendered, suffix: str) -> None:
    path = demo.written[suffix].path
    probe = ffprobe(path, "-show_chapters", "-show_format", "-show_streams")
    titles = [chapter["tags"]["title"] for chapter in probe["chapters"]]
    stream = probe["streams"][0]
    assert titles == [chapter.name for chapter in demo.script.shown_chapters]
    # The first began at 0 in an MP4 (it cannot begin later), at the question in the rest.
    starts = [float(chapter["start_time"]) for chapter in probe["chapters"]]
    listed = read_webvtt(demo.written[".chapters.vtt"].path)
    assert starts == [cue.start for cue in listed] and starts[0] == 0.0
    assert (stream["width"], stream["height"]) == (800, 500)
    assert within_five_percent(float(probe["format"]["duration"]), demo)
    # The last runs on over the final screen held after it: no seconds of no chapter.
    last_end = float(probe["chapters"][-1]["end_time"])
    assert abs(last_end - float(probe["format"]["duration"])) < 0.2
    assert listed[-1].end == last_end


@pytest.mark.skipif(not HAS_FFMPEG, reason=NO_FFMPEG)
def test_a_webvtt_chapters_file_sits_beside_the_video(demo: Rendered) -> None:
    written = demo.written[".chapters.vtt"]
    vtt = written.path.read_text(encoding="utf-8")
    assert vtt.startswith("WEBVTT")
    assert vtt.count(" --> ") == 9
    assert "\nNew service\n" in vtt
    # What `replay -o` prints for it: no "0 frames" for a file of chapters.
    assert written.describe() == f"wrote {written.path} ({written.size / 1000:.1f} kB, 9 chapters)"


def test_a_size_budget_lowers_the_frame_rate_until_the_gif_fits(
    demo: Rendered, tmp_path: Path
) -> None:
    full = demo.written[".gif"]
    demo.render.max_size = full.size - 1
    try:
        [fitted] = write_outputs(demo.render, [tmp_path / "small.gif"])
    finally:
        demo.render.max_size = None
    assert fitted.frames < full.frames
    assert fitted.size <= full.size - 1
    # The first cap below the default 20 fps that fits: 10, or 5 if 10 drops no frame.
    assert any(f"capped at {fps} fps" in fitted.describe() for fps in (10, 5))


def test_without_ffmpeg_a_video_is_refused_in_one_line_naming_the_install(
    demo: Rendered, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("shutil.which", lambda _name: None)
    monkeypatch.setitem(sys.modules, "imageio_ffmpeg", None)
    with pytest.raises(VideoError) as error:
        write_outputs(demo.render, [tmp_path / "demo.mp4"])
    assert str(error.value) == (
        "MP4 and WebM need ffmpeg, which is not installed: "
        "apt install ffmpeg (or pip install imageio-ffmpeg)"
    )


def test_an_unknown_format_is_refused_before_anything_runs(tmp_path: Path) -> None:
    done = run_cli("replay", str(DEMO), "-o", str(tmp_path / "demo.avi"))
    assert done.returncode == 2
    assert "cannot render" in done.stderr and ".gif, .png, .svg, .cast, .mp4, .webm" in done.stderr
    assert not (tmp_path / "demo.avi").exists()


def test_an_output_named_twice_is_written_once(tmp_path: Path) -> None:
    cast = tmp_path / "demo.cast"
    done = run_cli("replay", str(DEMO), "--max-pause", "300ms", "-o", str(cast), "-o", str(cast))
    assert done.returncode == 0, done.stderr
    assert done.stdout.count(f"wrote {cast} (") == 1


def test_an_output_in_a_folder_that_is_not_there_is_refused_and_no_folder_made(
    tmp_path: Path,
) -> None:
    # A typo in the folder made new folders, and the render went there unseen.
    target = tmp_path / "demos-typo" / "x" / "demo.gif"
    done = run_cli("replay", str(DEMO), "-o", str(tmp_path / "ok.svg"), "-o", str(target))
    assert done.returncode == 2
    assert f"cannot write {target}: there is no folder {target.parent}" in done.stderr
    assert not (tmp_path / "demos-typo").exists()
    assert not (tmp_path / "ok.svg").exists()  # refused before anything ran


def test_a_cues_tags_are_taken_out_and_its_entities_read(tmp_path: Path) -> None:
    cues = tmp_path / "captions.vtt"
    cues.write_text(
        "WEBVTT\n\n00:00.000 --> 00:01.000\n<v Ada>Second <b>cue</b>,"
        " <i>line</i> two &amp; <c.note>three</c> &lt;3\n"
    )
    assert read_webvtt(cues) == [Cue(0.0, 1.0, "Second cue, line two & three <3")]


def test_captions_can_come_from_a_webvtt_file(tmp_path: Path) -> None:
    cues = tmp_path / "captions.vtt"
    cues.write_text("WEBVTT\n\n00:00:00.000 --> 00:00:01.000\nHello from the README\n")
    assert read_webvtt(cues) == [Cue(0.0, 1.0, "Hello from the README")]
    (tmp_path / "bad.vtt").write_text("not vtt")
    with pytest.raises(CaptionsError, match="not a WebVTT file"):
        read_webvtt(tmp_path / "bad.vtt")


@pytest.mark.parametrize(
    ("content", "refusal"),
    [
        (
            "WEBVTT\n\n00:01.000 --> 00:02.000\nLatin-1: caf\xe9\n".encode("latin-1"),
            "is not UTF-8 text: invalid continuation byte",
        ),
        (
            b"WEBVTT\n\n00:01.000 --> 00:02.000\nfine\n\n00:00:xx --> 00:00:09.000\nlost\n",
            ":6: not a cue's times like 00:01.000 --> 00:04.500: '00:00:xx --> 00:00:09.000'",
        ),
        (b"WEBVTT\n\n1:2:3:4 --> 5\nweird\n", ":3: not a cue's times like"),
        (
            b"WEBVTT\n\n00:00:09.000 --> 00:00:01.000\nbackwards\n",
            ":3: the cue ends before it starts: '00:00:09.000 --> 00:00:01.000'",
        ),
    ],
    ids=["not UTF-8", "unparsed", "too many parts", "backwards"],
)
def test_a_webvtt_file_that_cannot_be_played_is_refused_naming_the_line(
    tmp_path: Path, content: bytes, refusal: str
) -> None:
    # A file not in UTF-8 stopped the render with a traceback; a cue whose times did not
    # parse was left out without a word, and one that ran backwards was taken.
    cues = tmp_path / "cues.vtt"
    cues.write_bytes(content)
    with pytest.raises(CaptionsError) as error:
        read_webvtt(cues)
    assert str(error.value).startswith(str(cues)) and refusal in str(error.value)


def test_webvtt_times_may_leave_out_the_hours_and_carry_cue_settings(tmp_path: Path) -> None:
    cues = tmp_path / "cues.vtt"
    cues.write_text("WEBVTT\n\n01:02.500 --> 1:00:00.000 align:start\nLong\n")
    assert read_webvtt(cues) == [Cue(62.5, 3600.0, "Long")]


@pytest.mark.skipif(not HAS_FFMPEG, reason=NO_FFMPEG)
def test_without_ffmpeg_on_path_the_imageio_ffmpeg_binary_is_used(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    binary = shutil.which("ffmpeg")
    wheel = types.ModuleType("imageio_ffmpeg")
    wheel.get_ffmpeg_exe = lambda: binary  # type: ignore[attr-defined]
    monkeypatch.setattr("shutil.which", lambda _name: None)
    monkeypatch.setitem(sys.modules, "imageio_ffmpeg", wheel)
    assert find_ffmpeg() == binary


def test_bold_and_italic_text_is_drawn_in_its_own_face() -> None:
    """The agent's name is italic in every modal: a raster frame shows it slanted, as the
    terminal does, and bold as bold, each face unlike the others."""
    white, black = (255, 255, 255), (0, 0, 0)

    def drawn(bold: bool, italic: bool) -> bytes:
        row = tuple(Cell(char, white, black, bold, italic) for char in "agent")
        return draw_grid((row,)).tobytes()

    faces = {drawn(bold, italic) for bold in (False, True) for italic in (False, True)}
    assert len(faces) == 4


async def test_a_grapheme_of_several_code_points_takes_the_cells_the_app_gave_it() -> None:
    """A family emoji (three people joined by ZWJs) is two cells wide on the app's screen:
    the rendered row must put the border after it where the app does, not four cells on."""

    class Row(App[None]):
        def compose(self) -> ComposeResult:
            yield Static("│👨\u200d👩\u200d👧 family│\n│日本 ok  │", markup=False)

    app = Row()
    async with app.run_test(size=(20, 3)):
        grid = screen_grid(app, Redactor(), ((255, 255, 255), (0, 0, 0)))
    first, second = (grid_text((row,)) for row in grid[:2])
    assert len(grid[0]) == len(grid[1]) == 20
    borders = [[column for column, cell in enumerate(row) if cell.char == "│"] for row in grid[:2]]
    assert borders[0] == borders[1] == [0, 10]
    assert first.startswith("│👨\u200d👩\u200d👧 family│") and second.startswith("│日本 ok")


def test_a_control_characters_picture_is_drawn_and_a_missing_glyph_is_named(
    tmp_path: Path,
) -> None:
    # The app shows ESC as ␛; DejaVu has no glyph for it, and it was drawn as an empty box,
    # as CJK and emoji are, with nothing said.
    white, black = (255, 255, 255), (0, 0, 0)
    drawings = Drawings()

    def cell_image(char: str) -> bytes:
        return drawings.image(((Cell(char, white, black),),)).tobytes()

    box = cell_image("\U0010fffd")  # a private character: the font's box
    assert {cell_image(char) for char in "␛␀␇"} & {box} == set()
    assert len({cell_image(char) for char in "␛␀␇"}) == 3  # each its own letters
    assert cell_image("中") == cell_image("\U0010fffd")
    assert drawings.missing == {"\U0010fffd", "中"}

    transcript = tmp_path / "odd.jsonl"
    request = {"kind": "text", "id": "q", "message": "Pick 中文 🎨 or x\x1b[2J"}
    records = [
        {"v": 2, "type": "session", "started": "2026-01-01T00:00:00+00:00", "agent": "a"},
        {"type": "request", "t": 0.0, "request": request},
        {"type": "keys", "t": 0.5, "id": "q", "keys": [{"t": 0.4, "key": "enter"}]},
        {
            "type": "result",
            "t": 0.5,
            "id": "q",
            "result": {"action": "accept", "content": "", "reason": None},
        },
    ]
    write_lines(transcript, records)
    done = run_cli("replay", str(transcript), "-o", str(tmp_path / "odd.png"))
    assert done.returncode == 0, done.stderr
    note = next(line for line in done.stdout.splitlines() if line.startswith("note:"))
    assert note.endswith("(the SVG and cast keep them): 中 文 🎨")
    assert "3 characters are drawn as boxes" in note


def test_every_character_the_app_itself_draws_is_drawn_in_a_video() -> None:
    # The countdown's ⏱, in every timed dialog, was drawn as the font's box in every GIF,
    # PNG and video. The app's own text is in its string literals, in widgets/ and tui/app/.
    from tui.render.raster import _drawable

    sources = [*Path("widgets").glob("*.py"), *Path("tui/app").glob("*.py")]
    drawn = {
        char
        for source in sources
        for node in ast.walk(ast.parse(source.read_text()))
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
        for char in node.value
        if ord(char) > 127 and not unicodedata.category(char).startswith(("C", "Z"))
    }
    assert "⏱" in drawn and "✔" in drawn
    assert sorted(char for char in drawn if not _drawable(char)) == []


def test_without_pillow_a_render_is_refused_in_one_line_naming_the_install(
    tmp_path: Path,
) -> None:
    # A machine set up with the README's first command has no Pillow: the render stopped
    # with a traceback, the check for Pillow coming after a module that imports it.
    (tmp_path / "PIL.py").write_text("raise ImportError(\"No module named 'PIL'\")\n")
    done = subprocess.run(
        [sys.executable, "-m", "tui.cli", "replay", str(DEMO), "-o", str(tmp_path / "x.gif")],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(tmp_path)},
        timeout=60,
    )
    assert (done.returncode, done.stderr) == (
        2,
        f"elicit-tui replay: drawing {tmp_path / 'x.gif'} needs Pillow:"
        " pip install 'elicit-tui[render]'\n",
    )


def test_without_pillow_the_text_outputs_and_screen_checks_still_render(tmp_path: Path) -> None:
    # The SVG, the cast and the chapter screens are text: a machine with no Pillow (the
    # README's first command) was refused them all, CI's `--check` of a demo among them.
    (tmp_path / "PIL.py").write_text("raise ImportError(\"No module named 'PIL'\")\n")
    out = tmp_path / "out"
    out.mkdir()
    outputs = ["--update", str(out / "s"), "-o", str(out / "x.svg"), "-o", str(out / "x.cast")]
    done = subprocess.run(
        [sys.executable, "-m", "tui.cli", "replay", str(DEMO), *outputs],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(tmp_path)},
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert (out / "x.svg").read_text().startswith("<svg")
    assert json.loads((out / "x.cast").read_text().splitlines()[0])["version"] == 2
    assert sorted(out.joinpath("s").glob("*.txt"))
    assert "drawn as boxes" not in done.stdout


NO_REASON = {"reason": None}


def test_agent_text_in_captions_and_chapter_names_is_shown_never_acted_on(
    tmp_path: Path,
) -> None:
    # The caption line and the markers carried a title's escape sequences raw: played back,
    # a cast retitled the terminal, cleared it, and a `-->` broke the chapters' WebVTT cue.
    title = "Migrate v1 --> v2\x1b]0;pwned\x07 <b>ok\bX"
    records = [
        {"v": 2, "type": "session", "started": "2026-11-30T09:29:59+00:00", "agent": "agent"},
        {
            "type": "request",
            "t": 0.05,
            "request": {"kind": "text", "id": "r1", "message": "Name?", "title": title}
            | {"source": "bot\x1b[2J"},
        },
        {"type": "keys", "t": 2.0, "id": "r1", "keys": [{"t": 1.5, "key": "enter", "char": "\r"}]},
        {
            "type": "result",
            "t": 2.0,
            "id": "r1",
            "result": {"action": "accept", "content": ""} | NO_REASON,
        },
        {"type": "end", "t": 3.0, "returned": "done"},
    ]
    transcript = tmp_path / "session.jsonl"
    write_lines(transcript, records)
    cast = tmp_path / "session.cast"
    run = run_cli("replay", str(transcript), "--captions", "--max-pause", "100ms", "-o", str(cast))
    assert run.returncode == 0, run.stderr

    events = [json.loads(line) for line in cast.read_text().splitlines()[1:]]
    output = "".join(data for _, kind, data in events if kind == "o")
    markers = [data for _, kind, data in events if kind == "m"]
    assert markers == ["Migrate v1 --> v2␛]0;pwned␇ <b>ok␈X"]
    assert "bot␛[2J: Migrate v1 --> v2␛]0;pwned␇" in output
    assert "\x07" not in output and "\x1b]" not in output
    assert output.count("\x1b[2J") == 1 and output.startswith("\x1b[2J")  # the cast's own
    assert "\b" not in output

    vtt = webvtt_chapters([Chapter(1, "r1", markers[0], 0.0, 2.0, cut=False)])
    assert "-->" not in vtt.splitlines()[4] and "<b>" not in vtt
    assert [cue.text for cue in read_webvtt_text(tmp_path, vtt)] == [markers[0]]


def read_webvtt_text(folder: Path, text: str) -> list[Cue]:
    path = folder / "chapters.vtt"
    path.write_text(text, encoding="utf-8")
    return read_webvtt(path)


def answered(t: float, request_id: str, content: Any, by: str | None = None) -> dict[str, Any]:
    """A result record, given in another front end (`by`) or here."""
    record = {"type": "result", "t": t, "id": request_id}
    record["result"] = {"action": "accept", "content": content} | NO_REASON
    return record | ({} if by is None else {"by": by})


Y = {"t": 1.2, "key": "y", "char": "y"}


def test_an_inbox_session_answered_in_other_front_ends_renders_each_question(
    tmp_path: Path,
) -> None:
    # `serve --transcript`, answered in `attach` and in serve's own window: the render drew the
    # first question only (no chapters, no captions) or waited 20 s on the first answer given
    # elsewhere, then stopped, "the replayed app did not get the next request in time".
    def text(request_id: str, message: str) -> dict[str, Any]:
        return {"kind": "text", "id": request_id, "message": message}

    records = [
        {"v": 2, "type": "session", "started": "2026-11-30T09:29:59+00:00", "agent": "inbox"},
        {"type": "request", "t": 0.1, "request": text("q1", "Release name?")},
        {"type": "request", "t": 0.2, "request": text("q2", "Ship it today?")},
        {"type": "request", "t": 0.3, "request": text("q3", "Who reviews?")},
        answered(1.5, "q1", "Aurora", by="laptop"),
        {
            "type": "keys",
            "t": 3.0,
            "id": "q2",
            "keys": [Y, {"t": 1.4, "key": "enter", "char": "\r"}],
        },
        answered(3.0, "q2", "y"),
        answered(4.0, "q3", "Ada", by="browser 2"),
        {"type": "end", "t": 4.5},
    ]
    transcript = tmp_path / "inbox.jsonl"
    write_lines(transcript, records)
    cast = tmp_path / "inbox.cast"
    run = run_cli("replay", str(transcript), "--captions", "--max-pause", "300ms", "-o", str(cast))
    assert run.returncode == 0, run.stderr
    assert "3 results, all as recorded" in run.stdout

    events = [json.loads(line) for line in cast.read_text().splitlines()[1:]]
    markers = [data for _, kind, data in events if kind == "m"]
    assert markers == ["Release name?", "Ship it today?", "Who reviews?"]


def inbox_request(
    t: float, request_id: str, source: str, title: str, **more: Any
) -> dict[str, Any]:
    """A text question as `serve --transcript` records it, from `source` titled `title`."""
    request = {"kind": "text", "id": request_id, "message": f"{title}?", "title": title}
    return {"type": "request", "t": t, "request": request | {"source": source} | more}


def ended(t: float, request_id: str, reason: str) -> dict[str, Any]:
    return {
        "type": "result",
        "t": t,
        "id": request_id,
        "result": {"action": "cancel", "reason": reason},
    }


def inbox_session(tmp_path: Path, *records: dict[str, Any]) -> Path:
    header = {"v": 2, "type": "session", "started": "2026-11-30T15:31:35+00:00"}
    path = tmp_path / "inbox.jsonl"
    write_lines(path, [header, *records])
    return path


def test_an_inbox_question_that_timed_out_or_was_closed_on_screen_has_its_chapter(
    tmp_path: Path,
) -> None:
    # A headless inbox records no keys: a question shown in `attach` that timed out, or was
    # still open as the inbox stopped, had no chapter, and the caption on its dialog named
    # the question before it.
    from tui.render.captions import request_cues
    from tui.render.script import build_script
    from tui.transcript.reader import read_transcript
    from tui.transcript.timing import Timing

    path = inbox_session(
        tmp_path,
        inbox_request(0.1, "q1", "alpha", "First question"),
        answered(1.0, "q1", "a", by="desk"),
        inbox_request(1.5, "q2", "beta", "Second question (times out)", timeout=4.0),
        ended(5.5, "q2", "timeout"),
        inbox_request(6.0, "q3", "gamma", "Third question"),
        ended(7.0, "q3", "closed"),
        {"type": "end", "t": 7.0},
    )
    transcript = read_transcript(path)
    script = build_script(transcript, Timing())
    assert [(cue.start, cue.text) for cue in request_cues(transcript, script)] == [
        (0.1, "alpha: First question"),
        (1.5, "beta: Second question (times out)"),
        (6.0, "gamma: Third question"),
    ]


def test_a_question_answered_elsewhere_while_it_waited_has_no_chapter(tmp_path: Path) -> None:
    # Q2 came behind Q1 and was answered by curl before Q1 was: the render named a chapter
    # after it at its arrival, over Q1's dialog, and Q1's chapter began only as Q2 ended.
    path = inbox_session(
        tmp_path,
        inbox_request(0.1, "q1", "one", "Q1 in front"),
        inbox_request(1.5, "q2", "two", "Q2 queued, answered by curl"),
        answered(3.0, "q2", "y", by="curl-bot"),
        answered(6.0, "q1", "b", by="desk"),
        {"type": "end", "t": 6.1},
    )
    cast = tmp_path / "inbox.cast"
    run = run_cli("replay", str(path), "--captions", "--max-pause", "300ms", "-o", str(cast))
    assert run.returncode == 0, run.stderr
    _, events = cast_events(cast)
    assert [data for _, kind, data in events if kind == "m"] == ["Q1 in front"]
    # The caption line is the screen's last row (the main screen's timeline lists both).
    captions = {
        re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", data.rsplit("\r\n", 1)[-1]).strip()
        for _, kind, data in events
        if kind == "o"
    }
    assert captions == {"", "one: Q1 in front"}
