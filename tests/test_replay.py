"""`elicit-tui replay`: a recorded session re-enacted, its results checked, its frames repeatable."""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, Literal, TypeVar

import pexpect
import pyte
import pytest
from answer_kinds import VaultRequest
from app_driver import wait_for
from asking import Asker, burst
from front_end_processes import HeadlessInbox
from recorded_session import (
    REPO,
    lines,
    on_request,
    record_session,
    run_cli,
    session_agent,
    write_lines,
)
from render_demo import DEMO
from secret_session import CANARY, TARGET, carries_canary
from test_suspend import process_state
from textual import events
from textual.app import App
from textual.pilot import Pilot
from textual.screen import Screen
from textual.widgets import Input

from tui import RequestBase
from tui.app.app import ElicitationApp
from tui.app.key_player import KeyPlayer, dummy_secret
from tui.app.messages import AgentFinished
from tui.app.replay_app import ReplayApp
from tui.core.models import ElicitationResult, SecretRef, SecretRequest, TextRequest
from tui.core.queue import ElicitationQueue
from tui.render.capture import Capture, capture
from tui.render.cells import grid_text
from tui.render.script import build_script
from tui.secrets.keyring_store import store_secret
from tui.secrets.memory_keyring import memory_keyring
from tui.transcript.reader import Transcript, read_transcript
from tui.transcript.timing import Timing
from widgets.agent_status import AgentStatus
from widgets.base import ElicitationModal
from widgets.timeline import Timeline

FAST = Timing(speed=4, max_pause=0.2)

T = TypeVar("T")


@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One Pilot-driven session (secret canary included) recorded for every test here.

    Set up before any test's own keyring: the canary goes to one in memory, never to the
    keyring of whoever runs this file alone (nor "exists already" there from a run before).
    """
    path = tmp_path_factory.mktemp("recorded") / "session.jsonl"
    with memory_keyring():
        asyncio.run(record_session(path))
    return path


async def replay(path: Path, svg_dir: Path | None = None, timing: Timing = FAST) -> ReplayApp:
    app = ReplayApp(read_transcript(path), timing=timing, show_keys=True, svg_dir=svg_dir)
    with memory_keyring():
        await app.run_async(headless=True, size=(80, 24), auto_pilot=app.player.drive)
    return app


async def captured_at(transcript: Transcript) -> Capture:
    """`transcript` rendered at the tests' pace, as `-o` renders it."""
    script = build_script(transcript, FAST)
    return await asyncio.to_thread(capture, transcript, script, (80, 24), "textual-dark")


def noted_at_exit(app: App[Any], note: Callable[[], T]) -> list[T]:
    """What `note()` gives as `app` exits: an empty list, filled then."""
    noted: list[T] = []
    exit_app = app.exit

    def exit(*args: Any, **kwargs: Any) -> None:
        noted.append(note())
        exit_app(*args, **kwargs)

    app.exit = exit  # type: ignore[method-assign]
    return noted


async def test_a_replay_exits_on_its_main_screen_when_the_agent_finishes_behind_a_modal(
    recorded: Path,
) -> None:
    app = ReplayApp(read_transcript(recorded), timing=FAST)
    in_front_at_exit = noted_at_exit(app, lambda: app.screen)
    last = [r["id"] for r in lines(recorded) if r["type"] == "result"][-1]

    def shown(screen: Screen[Any]) -> None:
        if isinstance(screen, ElicitationModal) and screen.request.id == last:
            # As when the agent's news comes before the last question's modal has closed.
            app.post_message(AgentFinished("6 results"))

    async def drive(pilot: Pilot[Any]) -> None:
        app.screen_change_signal.subscribe(app, shown)
        await app.player.drive(pilot)

    with memory_keyring():
        await app.run_async(headless=True, size=(80, 24), auto_pilot=drive)

    # Not after the modal's refresh: a recording would end with the status still "running".
    assert in_front_at_exit and not isinstance(in_front_at_exit[0], ElicitationModal)


async def test_a_replay_gives_the_recorded_results_in_the_recorded_order(recorded: Path) -> None:
    app = await replay(recorded)

    expected = [(r["id"], r["result"]) for r in lines(recorded) if r["type"] == "result"]
    assert app.replay_agent.results == expected
    assert app.replay_agent.mismatches == []
    assert app.replay_agent.summary() == "6 results, all as recorded"
    # It ends as the recorded session did: the agent's return, as the main screen showed it.
    assert repr(app.return_value) == "'done'"
    # The secret went to a keyring in memory, typed as a dummy that fits its pattern.
    assert len(app.player.errors) == sum(
        len(r["keys"]) for r in lines(recorded) if r["type"] == "keys"
    )


async def test_two_replays_draw_byte_identical_svgs(recorded: Path, tmp_path: Path) -> None:
    first, second = tmp_path / "first", tmp_path / "second"
    first.mkdir()
    second.mkdir()

    await replay(recorded, first)
    await replay(recorded, second)

    names = sorted(path.name for path in first.iterdir())
    assert names == [
        "01-text.svg",
        "02-choice.svg",
        "03-multi_choice.svg",
        "04-secret.svg",
        "05-form.svg",
        "06-confirmation.svg",
    ]
    assert names == sorted(path.name for path in second.iterdir())
    for name in names:
        svg = (first / name).read_text(encoding="utf-8")
        assert svg == (second / name).read_text(encoding="utf-8"), name
        assert not carries_canary(svg), name
    # The echoed secret is masked on screen; the badge named the last key before the answer.
    assert "Deploy&#160;with&#160;•••?" in (first / "06-confirmation.svg").read_text()


async def record_typing(path: Path, agent: Asker, *typed: tuple[str, list[str]]) -> None:
    """Record `agent`'s session in a transcript at `path`, each question (by id) answered
    with its keys in one burst once it shows."""
    app = ElicitationApp(ElicitationQueue(), agent, input_grace=0, transcript=path)
    async with app.run_test(size=(80, 24)) as pilot:
        for request_id, keys in typed:
            await on_request(pilot, request_id)
            burst(app, *keys)
        await wait_for(pilot, lambda: app.agent_result == "done")


async def replayed_without_the_canary(path: Path) -> ReplayApp:
    """The transcript at `path` replayed, its SVG shots taken beside it, once it is found
    that neither the transcript nor a shot carries the canary and that every result came out
    as recorded."""
    assert not carries_canary(path.read_text(encoding="utf-8"))
    shots = path.with_name("shots")
    shots.mkdir()
    replayed = await replay(path, shots)
    assert replayed.replay_agent.mismatches == []
    for shot in shots.iterdir():
        assert not carries_canary(shot.read_text(encoding="utf-8")), shot.name
    return replayed


async def test_a_secret_typed_again_where_it_shows_is_scrubbed_from_the_keys_and_replays_as_recorded(
    tmp_path: Path,
) -> None:
    # The person gives the key, then types and pastes it into a later note: the note's
    # result was scrubbed, its keys were not, and a replay typed the key back on screen.
    path = tmp_path / "session.jsonl"
    agent = Asker(
        SecretRequest(id="key", message="Key?"), TextRequest(id="note", message="Anything else?")
    )
    app = ElicitationApp(ElicitationQueue(), agent, input_grace=0, transcript=path)
    async with app.run_test(size=(80, 24)) as pilot:
        await on_request(pilot, "key")
        burst(app, *CANARY, "enter")
        await on_request(pilot, "note")
        burst(app, *"see", "space", *CANARY)
        app.post_message(events.Paste(f" or {CANARY}"))
        burst(app, "enter")
        await wait_for(pilot, lambda: app.agent_result == "done")

    assert agent.results[1].content == f"see {CANARY} or {CANARY}"  # the agent gets what was typed
    replayed = await replayed_without_the_canary(path)
    assert replayed.replay_agent.results[1] == (
        "note",
        {"action": "accept", "content": "see ••• or •••", "reason": None},
    )


async def test_a_secret_typed_again_with_corrections_leaves_only_the_times_of_its_keys(
    tmp_path: Path,
) -> None:
    # Typed with a slip put right (Backspace) or in two parts (Home, then the start), the
    # secret was in no one run of the keys: they were kept, and the replay typed it on screen.
    path = tmp_path / "session.jsonl"

    agent = Asker(
        SecretRequest(id="key", message="Key?"),
        TextRequest(id="slip", message="Any notes?"),
        TextRequest(id="parts", message="More notes?"),
        TextRequest(id="plain", message="Last words?"),
    )
    await record_typing(
        path,
        agent,
        ("key", [*CANARY, "enter"]),
        ("slip", [*CANARY[:-2], "x", "backspace", *CANARY[-2:], "enter"]),
        ("parts", [*CANARY[7:], "home", *CANARY[:7], "enter"]),
        ("plain", [*"fine", "enter"]),
    )

    keys = {r["id"]: r["keys"] for r in lines(path) if r["type"] == "keys"}
    assert all(press == {"t": press["t"], "hidden": True} for press in keys["slip"] + keys["parts"])
    assert [press["key"] for press in keys["plain"]] == ["f", "i", "n", "e", "enter"]
    replayed = await replayed_without_the_canary(path)
    assert [content for _, content in replayed.replay_agent.results][1:] == [
        {"action": "accept", "content": "•••", "reason": None},
        {"action": "accept", "content": "•••", "reason": None},
        {"action": "accept", "content": "fine", "reason": None},
    ]


async def test_a_secret_typed_again_into_a_field_the_mask_is_too_short_for_replays_as_recorded(
    tmp_path: Path,
) -> None:
    # The keys typed `•••` in the secret's place and pressed Enter: three characters, which a
    # field of at least five refused, so the replay (and a render) showed an error that never
    # happened and the answer stalled into a mismatch.
    path = tmp_path / "session.jsonl"

    agent = Asker(
        SecretRequest(id="key", message="API key?"),
        TextRequest(id="note", message="Anything else?", min_length=5),
    )
    await record_typing(path, agent, ("key", [*CANARY, "enter"]), ("note", [*CANARY, "enter"]))

    assert not carries_canary(path.read_text(encoding="utf-8"))
    assert [r.get("scrubbed") for r in lines(path) if r["type"] == "keys"] == [None, True]
    replayed = await replay(path)
    assert replayed.replay_agent.summary() == "2 results, all as recorded"
    assert replayed.replay_agent.results[1] == (
        "note",
        {"action": "accept", "content": "•••", "reason": None},
    )
    transcript = read_transcript(path)
    captured = await captured_at(transcript)
    assert captured.summary == "2 results, all as recorded"
    screens = [grid_text(grid) for grid in captured.screens]
    assert any("•••" in screen for screen in screens)  # the keys are drawn as they typed
    assert not any("at least 5 characters (you have" in screen for screen in screens)
    assert "Agent finished" in screens[-1]


async def test_a_masked_field_of_a_dialog_of_one_s_own_replays_as_recorded(
    tmp_path: Path,
) -> None:
    # The replay typed its dummy "xxxxx…" into the masked field and pressed Enter: the kind's
    # check (a token starts with ok-) refused it, so the replay said "replayed no result".
    path = tmp_path / "session.jsonl"

    def agent(queue: ElicitationQueue) -> str:
        return queue.ask(VaultRequest(id="vault", message="Token?")).to_llm_text()

    app = ElicitationApp(ElicitationQueue(), agent, input_grace=0, transcript=path)
    async with app.run_test(size=(80, 24)) as pilot:
        await on_request(pilot, "vault")
        burst(app, *f"ok-{CANARY}", "enter")
        await wait_for(pilot, lambda: app.agent_result is not None)

    assert not carries_canary(path.read_text(encoding="utf-8"))
    replayed = await replay(path)
    assert replayed.replay_agent.summary() == "1 result, all as recorded"
    transcript = read_transcript(path)
    captured = await captured_at(transcript)
    assert captured.summary == "1 result, all as recorded"
    screens = [grid_text(grid) for grid in captured.screens]
    assert not any("token must start with ok-" in screen for screen in screens)


async def test_a_replay_opens_no_link_and_answers_as_the_recording_did(
    tmp_path: Path, opened: list[str]
) -> None:
    # Replaying (or rendering) a transcript someone shared opened its links in the browser of
    # whoever replayed it.
    path = tmp_path / "links.jsonl"
    records = [
        {"v": 2, "type": "session", "started": "2026-01-01T00:00:00+00:00", "agent": "a"},
        {"type": "request", "t": 0.0, "request": URL_REQUEST},
        {"type": "keys", "t": 0.5, "id": "u", "keys": [{"t": 0.4, "key": "enter"}]},
        {
            "type": "result",
            "t": 0.5,
            "id": "u",
            "result": {**NO_REASON, "action": "accept", "content": False},
        },
    ]
    write_lines(path, records)

    replayed = await replay(path)

    assert opened == []
    assert replayed.replay_agent.mismatches == []


NO_REASON = {"reason": None}
URL_REQUEST = {"kind": "url", "id": "u", "message": "Sign in?", "url": "https://evil.example/p"}


def test_the_cli_checks_results_and_reports_a_mismatch(recorded: Path, tmp_path: Path) -> None:
    changed = tmp_path / "changed.jsonl"
    changed.write_text(
        recorded.read_text(encoding="utf-8").replace('"content":"Ada"', '"content":"Bob"'),
        encoding="utf-8",
    )

    run = run_cli("replay", str(changed), "--speed", "4", "--max-pause", "200ms")

    assert run.returncode == 1, run.stderr
    assert (
        "mismatch: text request 'name' ('Name?'): recorded accept 'Bob', replayed accept 'Ada'"
        in run.stderr
    )
    assert "1 of 6 results differ from the transcript" in run.stderr


def test_a_transcript_cut_mid_line_replays_up_to_the_cut(recorded: Path, tmp_path: Path) -> None:
    text = recorded.read_text(encoding="utf-8")
    kept = text.splitlines(keepends=True)
    cut_line = next(
        n for n, line in enumerate(kept) if '"id":"many"' in line and '"result"' in line
    )
    cut = tmp_path / "crashed.jsonl"
    cut.write_text("".join(kept[:cut_line]) + kept[cut_line][:30], encoding="utf-8")

    run = run_cli("replay", str(cut), "--speed", "4", "--max-pause", "200ms")

    assert run.returncode == 0, run.stderr
    assert "2 results, all as recorded" in run.stdout
    assert (
        f"stopped early: {cut}:{cut_line + 1}: the transcript stops in the middle of this line "
        f"(after 30 characters); replayed up to line {cut_line}"
    ) in run.stdout


def test_a_render_of_a_transcript_cut_mid_line_says_where_it_stopped(
    recorded: Path, tmp_path: Path
) -> None:
    # `replay` said so, `replay -o` rendered the part before the cut without a word.
    kept = recorded.read_text(encoding="utf-8").splitlines(keepends=True)
    cut_line = next(
        n for n, line in enumerate(kept) if '"id":"many"' in line and '"result"' in line
    )
    cut = tmp_path / "crashed.jsonl"
    cut.write_text("".join(kept[:cut_line]) + kept[cut_line][:30], encoding="utf-8")
    cast = tmp_path / "crashed.cast"

    run = run_cli("replay", str(cut), "--max-pause", "200ms", "-o", str(cast))

    assert run.returncode == 0, run.stderr
    assert cast.exists()
    assert (
        f"stopped early: {cut}:{cut_line + 1}: the transcript stops in the middle of this line "
        f"(after 30 characters); replayed up to line {cut_line}"
    ) in run.stdout


def test_a_transcript_that_ends_before_a_question_was_answered_replays_to_its_end(
    recorded: Path, tmp_path: Path
) -> None:
    # What a crash, or a session still running, leaves: the question's line, never its result.
    kept = recorded.read_text(encoding="utf-8").splitlines(keepends=True)
    asked = next(n for n, line in enumerate(kept) if '"id":"many"' in line)
    cut = tmp_path / "unanswered.jsonl"
    cut.write_text("".join(kept[: asked + 1]), encoding="utf-8")

    run = run_cli("replay", str(cut), "--speed", "4", "--max-pause", "200ms", timeout=60)

    assert run.returncode == 0, run.stderr
    assert (
        "2 results, all as recorded; 1 request the transcript ends before answering" in run.stdout
    )


def test_a_transcript_from_a_newer_version_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "future.jsonl"
    path.write_text('{"v": 99, "type": "session", "started": "2031-01-01"}\n', encoding="utf-8")

    run = run_cli("replay", str(path))

    assert run.returncode == 2
    assert run.stderr == (
        f"elicit-tui replay: {path} is a version 99 transcript, written by a newer elicit-tui; "
        "this one reads version 2. Upgrade elicit-tui to replay it.\n"
    )


@pytest.mark.parametrize("outputs", [[], ["-o", "x.svg"]], ids=["replay", "render"])
def test_a_transcript_missing_a_request_line_is_refused_naming_the_line(
    tmp_path: Path, outputs: list[str]
) -> None:
    # A request JSON could not carry was left out of the transcript: its replay waited for
    # the question for ever, its render stopped with a KeyError.
    kept = DEMO.read_text(encoding="utf-8").splitlines(keepends=True)
    asked = [n for n, line in enumerate(kept) if '"type":"request"' in line]
    request_id = json.loads(kept[asked[1]])["request"]["id"]
    path = tmp_path / "missing.jsonl"
    path.write_text("".join(kept[: asked[1]] + kept[asked[1] + 1 :]), encoding="utf-8")

    run = run_cli("replay", str(path), *[str(tmp_path / o) if "." in o else o for o in outputs])

    assert run.returncode == 2
    next_of_it = next(n for n, line in enumerate(kept) if n > asked[1] and request_id in line)
    assert run.stderr == (
        f"elicit-tui replay: {path}:{next_of_it}: the keys of request {request_id!r}, which no"
        " line before it asks (its request line is missing)\n"
    )


def test_cast_is_asciicast_v2_of_the_given_size_ending_on_the_final_screen(
    recorded: Path, tmp_path: Path
) -> None:
    cast = tmp_path / "demo.cast"

    run = run_cli(
        "replay",
        str(recorded),
        "--cast",
        str(cast),
        "--size",
        "100x30",
        "--show-keys",
        "--speed",
        "4",
        "--max-pause",
        "200ms",
    )

    assert run.returncode == 0, run.stderr
    assert f"wrote {cast} (" in run.stdout
    assert run.stderr == recording_note(recorded, cast, "100x30") + "\n"  # no terminal: one line
    header, *events = cast.read_text(encoding="utf-8").splitlines()
    meta = json.loads(header)
    assert (meta["version"], meta["width"], meta["height"]) == (2, 100, 30)
    frames = [json.loads(event) for event in events]
    assert all(kind == "o" and isinstance(data, str) for _, kind, data in frames)
    times = [at for at, _, _ in frames]
    assert times == sorted(times) and times[0] == 0
    screen = pyte.Screen(100, 30)
    stream = pyte.Stream(screen)
    for _, _, data in frames:
        stream.feed(data)
    shown = "\n".join(screen.display)
    assert "✔ Agent finished and returned:" in shown
    assert "'done'" in shown and "all as recorded" not in shown  # as the agent returned
    assert "✔ Ada" in shown and "Deploy with •••?" in shown
    assert not carries_canary(cast.read_text(encoding="utf-8"))
    # Nothing meant for the recorded terminal's input: played in a terminal, the cast set the
    # viewer's to report the mouse, focus and pastes and to send every key as an escape code
    # (Ctrl+C no longer stopped the player), and asked it questions whose answers were typed.
    written = "".join(data for _, _, data in frames)
    assert not INPUT_MODES.findall(written)
    assert "\x1b[?1049h" in written and "\x1b[?25l" in written  # what draws is kept


def test_a_cast_written_to_standard_output_is_all_it_prints_there(recorded: Path) -> None:
    # `--cast /dev/stdout > demo.cast` ended the cast with "wrote /dev/stdout (… s)", a line
    # no player reads.
    run = run_cli("replay", str(recorded), "--cast", "/dev/stdout", "--max-pause", "100ms")

    assert run.returncode == 0, run.stderr
    header, *events = run.stdout.splitlines()
    assert json.loads(header)["version"] == 2
    assert all(json.loads(event)[1] == "o" for event in events)
    assert "\nreplayed " in run.stderr and "\nwrote /dev/stdout (" in run.stderr


INPUT_MODES = re.compile(
    r"\x1b\[\?(?:100[0-7]|101[56]|2004|2048)[hl]|\x1b\[[<>=?][\d;]*u|\x1b\[\?[\d;]*\$p|\x1b\]22;"
)
"""The input modes Textual sets (mouse, focus, paste, key encoding, resizes), and its
questions to the terminal (the modes it has, the pointer's shape)."""


def children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:  # ended while we looked
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(entry.name))
    return found


def running(pid: int) -> bool:
    """Neither gone nor a zombie (ended, waiting to be reaped by whoever inherited it)."""
    try:
        return process_state(pid) != "Z"
    except OSError:
        return False


def slow_cast(transcript: Path, cast: Path, speed: str = "0.05") -> list[str]:
    """The arguments of a `replay --cast` at a fraction of the recorded pace (a twentieth:
    still running when the test interrupts it)."""
    return ["-m", "tui.cli", "replay", str(transcript), "--cast", str(cast), "--speed", speed]


def on_a_terminal(arguments: list[str]) -> pexpect.spawn:
    """Python run with `arguments` on an 80x24 terminal, as a shell starts a foreground job."""
    return pexpect.spawn(
        sys.executable,
        arguments,
        cwd=str(REPO),
        dimensions=(24, 80),
        timeout=60,
        encoding="utf-8",
        preexec_fn=interruptible,
    )


def replay_run_by(recorder: int) -> int:
    """The replay process that `recorder` records, once its app reads its terminal."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and not (found := children(recorder)):
        time.sleep(0.05)
    assert found, "the recorder started no replay"
    while time.monotonic() < deadline and len(os.listdir(f"/proc/{found[0]}/task")) < 2:
        time.sleep(0.05)  # the app reads its terminal in a thread of its own
    time.sleep(0.5)
    return found[0]


def ends(pid: int) -> bool:
    """Whether `pid` ends within 10 s; killed if it does not, so no test leaves it running."""
    deadline = time.monotonic() + 10
    while running(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    if running(pid):
        os.kill(pid, signal.SIGKILL)
        return False
    return True


def ignoring_hangups() -> None:
    """As `nohup` starts a command: hangups ignored, which its children inherit."""
    signal.signal(signal.SIGHUP, signal.SIG_IGN)


def interruptible() -> None:
    """As a shell starts a job in the foreground: Ctrl+C interrupts it, whatever the test
    runner inherited (a job started in the background ignores it)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_a_cast_being_recorded_ends_its_replay_when_the_recorder_is_killed(
    recorded: Path, tmp_path: Path
) -> None:
    recorder = subprocess.Popen(
        [sys.executable, *slow_cast(recorded, tmp_path / "demo.cast")],
        cwd=REPO,
        # Killed outright, it cannot remove its folder: left here, not in /tmp.
        env={**os.environ, "TMPDIR": str(tmp_path)},
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        preexec_fn=ignoring_hangups,
    )
    replay = None
    try:
        replay = replay_run_by(recorder.pid)

        recorder.kill()

        assert ends(replay), "the replay outlived the recorder that read its terminal"
    finally:
        recorder.kill()
        recorder.wait()
        if replay is not None:
            ends(replay)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_ctrl_c_while_a_cast_is_recorded_ends_both_processes_and_writes_nothing(
    recorded: Path, tmp_path: Path
) -> None:
    cast = tmp_path / "demo.cast"
    recorder = on_a_terminal(slow_cast(recorded, cast))
    replay = None
    try:
        replay = replay_run_by(recorder.pid)

        recorder.sendcontrol("c")

        recorder.expect(f"elicit-tui replay: interrupted; {cast} not written")
        recorder.expect(pexpect.EOF)
        recorder.close()
        assert recorder.signalstatus == signal.SIGINT  # as Ctrl+C ends a command: a loop stops
        assert ends(replay)
        assert not cast.exists()
    finally:
        recorder.close(force=True)
        if replay is not None:
            ends(replay)


def recording_note(transcript: Path, cast: Path, size: str) -> str:
    """What `replay --cast` says on stderr as it starts recording."""
    return (
        f"elicit-tui replay: recording the replay of {transcript} into {cast} ({size}); "
        "it plays in the cast, not on this screen"
    )


def test_a_cast_being_recorded_says_so_on_the_terminal_and_not_in_the_cast(
    recorded: Path, tmp_path: Path
) -> None:
    cast = tmp_path / "demo.cast"
    recorder = on_a_terminal(slow_cast(recorded, cast, speed="0.5"))
    try:
        recorder.expect_exact(recording_note(recorded, cast, "80x24"))
        recorder.expect(r"\rrecording: [1-9]\d* s")  # the seconds so far, redrawn in place
        assert recorder.isalive() and not cast.exists()  # said while it records
        recorder.expect(rf"wrote {re.escape(str(cast))} \((\d+\.\d) s\)")
        length = float(recorder.match.group(1))
        recorder.expect(pexpect.EOF)
        recorder.close()
        assert recorder.exitstatus == 0
    finally:
        recorder.close(force=True)
    text = cast.read_text(encoding="utf-8")
    header, *events = text.splitlines()
    assert json.loads(header)["version"] == 2
    assert all(kind == "o" for _, kind, _ in map(json.loads, events))
    assert round(json.loads(events[-1])[0], 1) == length > 1
    assert "recording: " not in text and "elicit-tui replay:" not in text


def test_the_demo_replays_its_bundled_session(tmp_path: Path) -> None:
    run = run_cli(
        "demo", "--replay", "--speed", "10", "--max-pause", "100ms", "--svg", str(tmp_path)
    )

    assert run.returncode == 0, run.stderr
    assert "10 results, all as recorded" in run.stdout
    assert len(list(tmp_path.glob("*.svg"))) == 9


@pytest.mark.parametrize(
    ("length", "pattern", "dummy"),
    [
        (6, None, "xxxxxx"),
        (8, "sk-...", "sk-xxxxx"),
        (9, "ghp_...-...", "ghp_xx-xx"),
        (2, "sk-...", "xx"),
    ],
)
def test_a_secret_is_replayed_as_a_fixed_dummy_of_its_length(
    length: int, pattern: str | None, dummy: str
) -> None:
    assert dummy_secret(length, pattern) == dummy


def test_speed_and_max_pause_shape_the_schedule() -> None:
    recorded = [0.4, 1.0, 5.0, 5.2]

    assert Timing().schedule(recorded) == recorded
    assert Timing(speed=2).schedule(recorded) == pytest.approx([0.2, 0.5, 2.5, 2.6])
    assert Timing(max_pause=1.0).schedule(recorded) == pytest.approx([0.4, 1.0, 2.0, 2.2])


def test_an_unknown_theme_is_named_before_anything_runs(recorded: Path) -> None:
    run = run_cli("replay", str(recorded), "--theme", "no-such-theme")

    assert run.returncode == 2
    assert "no theme 'no-such-theme'; pick one of: " in run.stderr
    assert "textual-dark" in run.stderr


@pytest.mark.parametrize(
    ("option", "value", "said"),
    [
        ("--max-pause", "0", "not a duration above 0 like 2s or 500ms: '0'"),
        ("--max-pause", "0ms", "not a duration above 0 like 2s or 500ms: '0ms'"),
        ("--speed", "0", "not a number above 0: '0'"),
        ("--speed", "inf", "not a number above 0: 'inf'"),  # no pause at all
        ("--size", "2000x600", "not a screen size like 100x30 (from 20x10 to 300x100)"),
        ("--fps", "-5", "not a number above 0: '-5'"),
        ("--max-size", "0", "not a size above 0 like 2MB or 500kB: '0'"),
    ],
)
def test_a_pace_that_would_play_nothing_is_refused(
    recorded: Path, tmp_path: Path, option: str, value: str, said: str
) -> None:
    run = run_cli("replay", str(recorded), option, value, "-o", str(tmp_path / "out.gif"))

    assert run.returncode == 2
    assert f"argument {option}: {said}" in run.stderr
    assert not (tmp_path / "out.gif").exists()


@pytest.mark.parametrize(
    "options",
    [["--redact", "invoice"], ["--captions"], ["--cast", "x.cast", "--redact", "invoice"]],
)
def test_options_a_live_replay_would_not_apply_are_refused_without_an_output(
    recorded: Path, options: list[str]
) -> None:
    # A live replay (recorded with asciinema, or as --cast) drew what --redact was to hide.
    run = run_cli("replay", str(recorded), "--headless", *options)
    assert run.returncode == 2
    assert "a live replay would not apply" in run.stderr
    assert ("--redact" in options) == ("--redact" in run.stderr)


def test_one_count_or_option_of_a_live_replay_is_said_in_the_singular(recorded: Path) -> None:
    run = run_cli("replay", str(recorded), "--headless", "--captions")
    assert (
        "--captions shapes what -o, --update and --check write, and a live replay would not "
        "apply it: add -o OUT"
    ) in run.stderr
    player = KeyPlayer(read_transcript(recorded), lambda _request_id: False, errors=[0.002])
    assert player.error_summary() == "1 key replayed, timing error median 2.0 ms, max 2.0 ms"


async def record_without_keyring(path: Path) -> list[ElicitationResult]:
    """Record a secret meant for the keyring, kept in memory because there is none."""
    agent = Asker(SecretRequest(id="key", message="Key?", store=TARGET))
    app = ElicitationApp(ElicitationQueue(), agent, input_grace=0, transcript=path)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, ElicitationModal))
        await pilot.press(*"sk-abcdefgh", "enter")
        await wait_for(
            pilot, lambda: app.focused is not None and app.focused.id == "keep-in-memory"
        )
        await pilot.press("enter")
        await wait_for(pilot, lambda: bool(agent.results))
    return agent.results


async def test_a_session_recorded_without_a_keyring_replays_without_one(
    no_keyring: object, tmp_path: Path
) -> None:
    path = tmp_path / "no-keyring.jsonl"
    results = await record_without_keyring(path)
    assert (results[0].action, results[0].reason) == ("accept", "keyring_unavailable")

    # Replayed with a keyring, the secret would be stored and differ from the recording.
    for output in ([], ["-o", str(tmp_path / "poster.png")]):
        run = run_cli("replay", str(path), "--max-pause", "100ms", *output)

        assert run.returncode == 0, run.stderr
        assert "1 result, all as recorded" in run.stdout


async def recorded_with_a_slow_keyring(
    path: Path, monkeypatch: pytest.MonkeyPatch, seconds: float
) -> Transcript:
    """A session that kept a secret in memory for want of a keyring, read back for a replay
    whose keyring fails only after `seconds`."""
    await record_without_keyring(path)

    def slow_store(*args: Any, **kwargs: Any) -> SecretRef:
        time.sleep(seconds)
        return store_secret(*args, **kwargs)

    monkeypatch.setattr("widgets.secret.store_secret", slow_store)
    return read_transcript(path)


async def test_a_render_waits_out_a_keyring_that_fails_slowly(
    no_keyring: object, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Under load the keyring's failure came while the frame was being taken, and the render
    # stopped on it (WorkerFailed) instead of drawing the modal saying why, as the app does.
    transcript = await recorded_with_a_slow_keyring(tmp_path / "k.jsonl", monkeypatch, 0.2)
    captured = await captured_at(transcript)

    assert captured.summary == "1 result, all as recorded"
    assert any("Could not store keyring entry" in grid_text(grid) for grid in captured.screens)


async def test_a_replay_waits_out_a_keyring_that_fails_slowly(
    no_keyring: object, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The Enter that kept the secret in memory came, on the recorded clock, while the keyring
    # was still failing (a loaded machine): it reached the field, locked while storing, and
    # was lost; the replay ended with no result ("replayed no result").
    transcript = await recorded_with_a_slow_keyring(tmp_path / "k.jsonl", monkeypatch, 0.5)
    replayed = ReplayApp(transcript, timing=FAST)
    with memory_keyring(usable=False):
        await replayed.run_async(headless=True, size=(80, 24), auto_pilot=replayed.player.drive)

    assert replayed.replay_agent.summary() == "1 result, all as recorded"


def slow_answer(path: Path) -> None:
    """A session whose one question was answered 6 s after it was asked, by two keys."""
    request = {"kind": "choice", "id": "db", "message": "Which database?"}
    request |= {"options": [{"value": v, "label": v} for v in ("Postgres", "SQLite")]}
    records = [
        {"v": 1, "type": "session", "started": "2026-11-27T09:00:00+00:00"},
        {"type": "request", "t": 0.1, "request": request},
        {
            "type": "keys",
            "t": 6.1,
            "id": "db",
            "keys": [{"t": 3.0, "key": "down"}, {"t": 6.0, "key": "enter", "char": "\r"}],
        },
        {
            "type": "result",
            "t": 6.1,
            "id": "db",
            "result": {"action": "accept", "content": "SQLite", "reason": None},
        },
        {"type": "end", "t": 6.2},
    ]
    write_lines(path, records)


def typed_in_a_burst(path: Path, word: str) -> None:
    """A session whose one question was answered by `word` typed in one burst (every key at
    the same moment, as a paste or keys sent at once arrive), then Enter half a second on."""
    request = {"kind": "text", "id": "name", "message": "Name?"}
    keys: list[dict[str, Any]] = [{"t": 0.5, "key": c, "char": c} for c in word]
    keys.append({"t": 1.0, "key": "enter", "char": "\r"})
    result = {"action": "accept", "content": word, "reason": None}
    records = [
        {"v": 1, "type": "session", "started": "2026-11-27T09:00:00+00:00"},
        {"type": "request", "t": 0.1, "request": request},
        {"type": "keys", "t": 1.1, "id": "name", "keys": keys},
        {"type": "result", "t": 1.1, "id": "name", "result": result},
        {"type": "end", "t": 1.2},
    ]
    write_lines(path, records)


async def keys_pressed_when_a_field_first_changed(
    path: Path, monkeypatch: pytest.MonkeyPatch
) -> int:
    """Replay `path` (its one result must come out as recorded) and return how many keys
    the replay had pressed when a field's value first changed."""
    app = ReplayApp(read_transcript(path))
    pressed_by_then: list[int] = []
    watch_value = Input._watch_value

    def typed(field: Input, value: str) -> None:
        pressed_by_then.append(len(app.player.errors))
        watch_value(field, value)

    monkeypatch.setattr(Input, "_watch_value", typed)
    await app.run_async(headless=True, size=(80, 24), auto_pilot=app.player.drive)
    assert app.replay_agent.summary() == "1 result, all as recorded"
    return pressed_by_then[0]


async def test_keys_that_came_in_one_burst_are_replayed_in_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Each key waited for the last one to be drawn and settled: a burst of 16 came out spread
    # over a third of a second, and a recording's pace with it.
    path = tmp_path / "burst.jsonl"
    typed_in_a_burst(path, "abcdefghijklmnop")
    # Every key of the burst was pressed before the field took the first of them.
    assert await keys_pressed_when_a_field_first_changed(path, monkeypatch) == 16


async def test_a_secret_typed_in_one_burst_is_replayed_in_one_and_still_fits_its_pattern(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Each of a secret's dummy characters is chosen by how far into the field it goes: the
    # replay counts them as it presses them, not waiting for the field to say after each.
    path = tmp_path / "secret.jsonl"
    request = SecretRequest(message="API key?", pattern="sk-...", min_length=12)
    app = ElicitationApp(
        ElicitationQueue(), lambda queue: queue.ask(request), input_grace=0, transcript=path
    )
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, ElicitationModal))
        await pilot.pause(0.3)  # past the replay's grace for keys sent as a question appears
        burst(app, *"sk-Q7vX93kLmZ2p")
        await wait_for(pilot, lambda: len(app.screen.query_one(Input).value) == 15)
        await pilot.press("enter")
        await wait_for(pilot, lambda: not isinstance(app.screen, ElicitationModal))
    assert await keys_pressed_when_a_field_first_changed(path, monkeypatch) == 15


def test_one_of_a_count_is_said_in_the_singular(tmp_path: Path) -> None:
    path = tmp_path / "one.jsonl"
    slow_answer(path)
    poster, cast = tmp_path / "one.png", tmp_path / "one.cast"
    run = run_cli("replay", str(path), "--max-pause", "100ms", "-o", str(poster), "-o", str(cast))

    assert run.returncode == 0, run.stderr
    assert f"wrote {poster} (" in run.stdout and "kB, 1 frame)" in run.stdout
    assert re.search(r"kB, \d+ frames, 1 marker\)", run.stdout), run.stdout


@pytest.mark.parametrize(
    "timing", [Timing(speed=4), Timing(max_pause=0.5)], ids=["faster", "pauses cut"]
)
async def test_an_answer_that_took_long_is_waited_for_as_long_as_its_keys_take(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, timing: Timing
) -> None:
    # The wait for an answer ran from the keys' line, written as the answer came: a person
    # who took longer than the margin made the replay give up on a question it was answering.
    monkeypatch.setattr("tui.transcript.replay_agent.STALL_SECONDS", 0.3)
    path = tmp_path / "slow.jsonl"
    slow_answer(path)
    app = ReplayApp(read_transcript(path), timing=timing)
    await app.run_async(headless=True, size=(80, 24), auto_pilot=app.player.drive)
    assert app.replay_agent.mismatches == []
    assert app.replay_agent.summary() == "1 result, all as recorded"


async def test_a_session_quit_with_a_question_open_replays_to_its_end(tmp_path: Path) -> None:
    path = tmp_path / "quit.jsonl"
    app = ElicitationApp(ElicitationQueue(), session_agent([]), input_grace=0, transcript=path)
    async with app.run_test(size=(80, 24)) as pilot:
        await on_request(pilot, "name")
        await pilot.press("ctrl+u", *"Ada", "enter")
        await on_request(pilot, "pick")
        await pilot.press("down", "ctrl+q")
    recorded = [(r["id"], r["result"]) for r in lines(path) if r["type"] == "result"]
    assert recorded[-1] == ("pick", {"action": "cancel", "content": None, "reason": "closed"})
    # The question on screen as the app quit was shown: its keys are written (not the one
    # that quit, which a replay would press), and a render gives it its chapter.
    keys = {r["id"]: [k.get("key") for k in r["keys"]] for r in lines(path) if r["type"] == "keys"}
    assert keys["pick"] == ["down"]
    script = build_script(read_transcript(path), Timing())
    assert [chapter.request_id for chapter in script.chapters] == ["name", "pick"]

    replayed = await asyncio.wait_for(replay(path), timeout=30)

    assert replayed.replay_agent.results == recorded
    assert replayed.replay_agent.summary() == "2 results, all as recorded"


async def test_a_session_whose_agent_failed_replays_and_renders_ending_on_its_failure(
    tmp_path: Path,
) -> None:
    # The transcript's end had only what the agent returned: a crashed agent replayed, and
    # rendered, as "✔ Agent finished".
    path = tmp_path / "crashed.jsonl"

    def agent(queue: ElicitationQueue) -> str:
        queue.ask(SecretRequest(id="key", message="API key?"))
        raise RuntimeError(f"the key {CANARY} was refused")

    app = ElicitationApp(ElicitationQueue(), agent, input_grace=0, transcript=path)
    async with app.run_test(size=(80, 24)) as pilot:
        await on_request(pilot, "key")
        burst(app, *CANARY, "enter")
        await wait_for(pilot, lambda: app.agent_error is not None)
        await pilot.press("q")

    assert not carries_canary(path.read_text(encoding="utf-8"))
    end = lines(path)[-1]
    assert end["type"] == "end" and end["failed"] == "RuntimeError: the key ••• was refused"
    assert "returned" not in end
    transcript = read_transcript(path)
    replayed = ReplayApp(transcript, timing=FAST)
    said_at_exit = noted_at_exit(replayed, lambda: replayed.query_one(AgentStatus).summary)
    with memory_keyring():
        await replayed.run_async(headless=True, size=(80, 24), auto_pilot=replayed.player.drive)
    assert said_at_exit == ["✖ Agent failed: RuntimeError: the key ••• was refused"]
    assert replayed.replay_agent.summary() == "1 result, all as recorded"
    captured = await captured_at(transcript)
    last = grid_text(captured.screens[-1])
    assert "✖ Agent failed: RuntimeError: the key ••• was refused" in last
    assert "Agent finished" not in last and "replay_agent" not in last


async def test_svg_shots_include_the_questions_answered_in_another_front_end(
    tmp_path: Path,
) -> None:
    # Shots were taken only among a modal's own keys: a question an attached front end
    # answered has none, and `--svg` silently wrote nothing for it.
    path, shots = tmp_path / "inbox.jsonl", tmp_path / "shots"
    shots.mkdir()
    region = {"kind": "choice", "id": "region", "message": "Region?", "options": ["eu", "us"]}
    name = {"kind": "text", "id": "name", "message": "Name?"}
    records = [
        {"v": 2, "type": "session", "started": "2026-11-30T09:00:00+00:00", "agent": "inbox"},
        {"type": "request", "t": 0.1, "request": region},
        {
            "type": "result",
            "t": 1.0,
            "id": "region",
            "result": {"action": "accept", "content": "us", "reason": None},
            "by": "laptop",
        },
        {"type": "request", "t": 1.1, "request": name},
        {"type": "keys", "t": 1.6, "id": "name", "keys": [{"t": 0.4, "key": "enter"}]},
        {
            "type": "result",
            "t": 1.6,
            "id": "name",
            "result": {**NO_REASON, "action": "accept", "content": ""},
        },
        {"type": "end", "t": 1.7},
    ]
    write_lines(path, records)

    # At its own pace: the question answered elsewhere is up 0.9 s, time for its shot to be
    # taken on a loaded machine (at FAST's, 0.2 s, it was answered first now and then).
    app = await asyncio.wait_for(replay(path, shots, Timing()), 30)

    assert app.replay_agent.summary() == "2 results, all as recorded"
    assert [shot.name for shot in app.player.svgs] == ["01-choice.svg", "02-text.svg"]
    assert "Region?" in (shots / "01-choice.svg").read_text(encoding="utf-8")


async def test_an_inbox_session_answered_in_another_front_end_replays_as_it_was_answered(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No key of an attached front end reaches the inbox's transcript: such an answer replayed
    as "no result", and the replay failed; the summary counted it in no result."""
    path = tmp_path / "inbox.jsonl"
    inbox = HeadlessInbox(tmp_path / "config", args=("--transcript", str(path)))
    try:
        asked = inbox.submit({"kind": "choice", "message": "Region?", "options": ["eu", "us"]})
        answer = {"result": {"action": "accept", "content": "us"}, "front_end": "laptop"}
        assert inbox.call("POST", f"/v1/requests/{asked}/answer", answer)[0] == 200
    finally:
        inbox.stop()
    recorded = [r for r in lines(path) if r["type"] == "result"]
    assert recorded == [
        {
            "type": "result",
            "t": recorded[0]["t"],
            "id": asked,
            "result": {"action": "accept", "content": "us", "reason": None},
            "by": "laptop",
        }
    ]

    told: list[str | None] = []
    resolve = Timeline.resolve

    def telling(timeline: Timeline, request: Any, result: Any, elsewhere: Any = None) -> None:
        told.append(elsewhere)
        resolve(timeline, request, result, elsewhere)

    monkeypatch.setattr(Timeline, "resolve", telling)
    app = await asyncio.wait_for(replay(path), 30)

    assert app.replay_agent.results == [(asked, recorded[0]["result"])]
    assert app.replay_agent.summary() == "1 result, all as recorded"
    # Told as the recording's front ends told it, at the replay's fixed time.
    assert told == ["answered in laptop at 12:00:00"]


def test_keys_typed_into_a_question_answered_elsewhere_are_replayed_with_pauses_cut(
    tmp_path: Path,
) -> None:
    # Typed in serve's window, then answered in `attach`: with --max-pause the replay answered
    # it a pause after it came, cutting the typing short ("1 keys replayed" of 9), while a
    # render drew every key; the typing now counts as steps of that pause, as a render's.
    typed = [
        {"t": round(2.8 + 0.2 * index, 3), "key": "space" if char == " " else char, "char": char}
        for index, char in enumerate("Fix typo")
    ]
    records = [
        {"v": 2, "type": "session", "started": "2026-11-30T15:30:45+00:00"},
        {
            "type": "request",
            "t": 10.3,
            "request": {"kind": "text", "id": "q1", "message": "Commit?"},
        },
        {
            "type": "result",
            "t": 15.4,
            "id": "q1",
            "result": {"action": "accept", "content": "Fix typo in README", "reason": None},
            "by": "phone",
        },
        {"type": "keys", "t": 15.41, "id": "q1", "keys": typed},
        {
            "type": "request",
            "t": 17.5,
            "request": {"kind": "confirmation", "id": "q2", "message": "Ship?"},
        },
        {"type": "keys", "t": 20.3, "id": "q2", "keys": [{"t": 2.8, "key": "y", "char": "y"}]},
        {
            "type": "result",
            "t": 20.3,
            "id": "q2",
            "result": {"action": "accept", "content": True, "reason": None},
        },
        {"type": "end", "t": 21.0},
    ]
    path = tmp_path / "serve.jsonl"
    write_lines(path, records)
    run = run_cli("replay", str(path), "--headless", "--max-pause", "1s")
    assert run.returncode == 0, run.stderr
    assert "2 results, all as recorded; 9 keys replayed" in run.stdout


async def test_a_serve_session_replays_serving_as_it_did_with_no_agent_of_its_own(
    tmp_path: Path,
) -> None:
    # The inbox's askers are other processes: a replay of its transcript said "● Agent replay
    # is running" and ended on "✔ Agent finished", an agent that never existed.
    path = tmp_path / "inbox.jsonl"
    inbox = HeadlessInbox(tmp_path / "config", args=("--transcript", str(path)))
    try:
        asked = inbox.submit({"kind": "choice", "message": "Region?", "options": ["eu", "us"]})
        answer = {"result": {"action": "accept", "content": "us"}, "front_end": "laptop"}
        assert inbox.call("POST", f"/v1/requests/{asked}/answer", answer)[0] == 200
    finally:
        inbox.stop()
    header = lines(path)[0]
    assert "agent" not in header and header["serving"] == f"{inbox.url}/mcp"

    transcript = read_transcript(path)
    replayed = ReplayApp(transcript, timing=FAST)
    said = noted_at_exit(replayed, lambda: replayed.query_one(AgentStatus).summary)
    await replayed.run_async(headless=True, size=(80, 24), auto_pilot=replayed.player.drive)
    assert said == [f"◉ Serving MCP at {inbox.url}/mcp"]
    captured = await captured_at(transcript)
    assert all("Agent" not in grid_text(screen) for screen in captured.screens)


class UnregisteredRequest(RequestBase):
    """A kind of one's own its program never registered: the app cancels it, unshown."""

    kind: Literal["never_registered"] = "never_registered"


async def record_an_unregistered_kind(path: Path) -> None:
    """A session that asks a kind no process registers, then a text question answered."""

    def agent(queue: ElicitationQueue) -> str:
        queue.ask(UnregisteredRequest(id="odd", message="Odd kind?"))
        return str(queue.ask(TextRequest(id="name", message="Name?")).content)

    app = ElicitationApp(ElicitationQueue(), agent, input_grace=0, transcript=path)
    async with app.run_test(size=(80, 24)) as pilot:
        await on_request(pilot, "name")
        await pilot.press(*"Ada", "enter")
        await wait_for(pilot, lambda: app.agent_result == "Ada")


async def test_a_kind_the_recording_could_not_show_is_cancelled_again_and_the_rest_replays(
    tmp_path: Path,
) -> None:
    # The app cancelled it (`unsupported_kind`), but replay refused the whole transcript:
    # "kind: 'never_registered' is not a kind registered here".
    path = tmp_path / "unshown.jsonl"
    await record_an_unregistered_kind(path)
    gif = tmp_path / "unshown.svg"

    played = run_cli("replay", str(path), "--speed", "4", "--max-pause", "200ms")
    rendered = run_cli("replay", str(path), "--max-pause", "200ms", "-o", str(gif))

    assert played.returncode == 0, played.stderr
    assert "2 results, all as recorded" in played.stdout
    assert rendered.returncode == 0, rendered.stderr
    assert "Name?" in gif.read_text(encoding="utf-8")


async def test_a_kind_not_registered_here_that_the_recording_answered_is_refused_naming_its_line(
    tmp_path: Path,
) -> None:
    # Its keys cannot be replayed without its dialog: what `ELICIT_TUI_KINDS` would register.
    path = tmp_path / "unshown.jsonl"
    await record_an_unregistered_kind(path)
    answered = path.read_text(encoding="utf-8").replace(
        '"action":"cancel","content":null,"reason":"unsupported_kind: never_registered"',
        '"action":"accept","content":"odd","reason":null',
    )
    path.write_text(answered, encoding="utf-8")

    run = run_cli("replay", str(path))

    assert run.returncode == 2
    assert run.stderr.startswith(
        f"elicit-tui replay: {path}:2: kind: 'never_registered' is not a kind registered here"
    )


async def typing_the_demo_s_first_answer(app: ReplayApp) -> asyncio.Task[Any]:
    """`app` (the demo's replay) run headless until its first answer is being typed; the
    task that runs it."""
    running = asyncio.create_task(
        app.run_async(headless=True, size=(80, 24), auto_pilot=app.player.drive)
    )
    deadline = time.monotonic() + 30
    while len(app.player.errors) < 2:
        assert not running.done() and time.monotonic() < deadline
        await asyncio.sleep(0.01)
    return running


async def test_a_replay_ended_while_a_question_is_typed_presses_no_more_keys() -> None:
    # Quit, SIGTERM or its terminal gone mid-typing: the app waited for its key player, which
    # went on typing the question (and waiting for the next ones) for seconds before it ended.
    app = ReplayApp(read_transcript(DEMO), timing=Timing(speed=1, max_pause=0.3))
    with memory_keyring():
        running = await typing_the_demo_s_first_answer(app)
        pressed = len(app.player.errors)
        app.exit()
        await asyncio.wait_for(running, 30)

    assert len(app.player.errors) == pressed


async def test_quitting_a_replay_stops_its_agent_at_once() -> None:
    # Quitting gives an agent a grace (a second) to return once its questions are closed; the
    # replayed agent slept on until its next recorded request, so every quit used all of it.
    app = ReplayApp(read_transcript(DEMO), timing=Timing(speed=1, max_pause=0.3))
    with memory_keyring():
        running = await typing_the_demo_s_first_answer(app)

        await app.run_action("quit")

        assert app.replay_agent.stop.is_set()  # it was set as the app unmounted, after the grace
        agent = app._agent_thread
        assert agent is not None
        await asyncio.to_thread(agent.join, 30)
        await asyncio.wait_for(running, 30)
    assert app.return_value is not None  # the agent's: it returned before the app exited
