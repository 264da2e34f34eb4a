"""What a cold start loads: `import tui` next to nothing, the first question only what it shows.

Counts of modules and built validators in fresh processes, not times (timings live in
benchmarks/bench_table.py).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from app_driver import wait_for
from fresh_python import ROOT, fresh_json
from pydantic import ValidationError

from styles import ALL_CSS
from tui import ElicitationApp, ElicitationQueue
from tui.app.ask_app import AskApp
from tui.core.kinds import kind, kind_names
from tui.core.models import ChoiceRequest, Request, SecretRequest, parse_request, request_adapter
from widgets.base import ElicitationModal
from widgets.registry import modal_class_for


def _loaded(modules: list[str], names: tuple[str, ...]) -> list[str]:
    return sorted(m for m in modules if any(m == n or m.startswith(n + ".") for n in names))


def test_import_tui_loads_neither_pydantic_nor_the_core() -> None:
    modules = fresh_json("import json, sys, tui; print(json.dumps(sorted(sys.modules)))")
    # Only the loader of its lazy names (the standard library's gc and contextlib).
    assert _loaded(modules, ("pydantic", "pydantic_core", "tui.core", "tui.app")) == [
        "tui.core",
        "tui.core.loading",
    ]


def test_every_public_name_of_tui_is_the_one_in_its_module() -> None:
    import tui.app.app
    import tui.core.models
    import tui.core.queue

    assert tui.ChoiceRequest is tui.core.models.ChoiceRequest
    assert tui.ElicitationQueue is tui.core.queue.ElicitationQueue
    assert tui.ElicitationApp is tui.app.app.ElicitationApp
    assert set(tui.__all__) <= set(dir(tui))
    for name in tui.__all__:
        assert getattr(tui, name) is not None
    with pytest.raises(AttributeError, match="no attribute 'Nothing'"):
        _ = tui.Nothing  # type: ignore[attr-defined]


def test_star_import_gives_every_public_name() -> None:
    names = fresh_json(
        "import json\nfrom tui import *\n"
        "import tui\nprint(json.dumps([n for n in tui.__all__ if n not in globals()]))"
    )
    assert names == []


FIRST_QUESTION = """
import asyncio, json, sys
sys.path.insert(0, "tests")
from app_driver import wait_for_modal
from tui import ChoiceRequest, ElicitationApp, ElicitationQueue

def agent(queue):
    queue.ask(ChoiceRequest(message="Zebra?", options=["yes", "no"]))

async def main():
    app = ElicitationApp(ElicitationQueue(), agent)
    async with app.run_test(size=(80, 24)) as pilot:
        modal = await wait_for_modal(pilot, "Zebra?")
        await pilot.pause()
        assert modal.is_mounted and modal.query("OptionList")
        print(json.dumps(sorted(sys.modules)))

asyncio.run(main())
"""

NOT_FOR_A_CHOICE = (
    "markdown_it",
    "textual.widgets._markdown",
    "textual.widgets._text_area",
    "rich.traceback",
    "pygments",
    "keyring",
    "mcp",
    "widgets.text",
    "widgets.form",
    "widgets.url",
    "widgets.confirmation",
    "widgets.multi_choice",
    "widgets.checklist",
    "textual.widgets._selection_list",
)
"""Modules that show nothing of a choice without a description: other kinds' modals and their
widgets (the checklist too), Markdown, the crash report's renderer, the keyring, the MCP
bridge."""


def test_the_first_choice_on_screen_loads_only_what_it_shows() -> None:
    # Asked at once: the modals of other kinds, built while the app is idle, wait meanwhile.
    modules = fresh_json(FIRST_QUESTION)
    assert "widgets.choice" in modules
    assert _loaded(modules, NOT_FOR_A_CHOICE) == []


FIRST_BATCH = FIRST_QUESTION.replace("ChoiceRequest", "QuestionsRequest").replace(
    'QuestionsRequest(message="Zebra?", options=["yes", "no"])',
    'QuestionsRequest(questions=[{"question": "Zebra?", "options": ["yes", "no"]}])',
)

MARKDOWN = ("markdown_it", "textual.widgets._markdown", "pygments")
"""The Markdown widget, its parser and the highlighter of its code blocks."""


def test_a_batch_of_questions_without_previews_loads_no_markdown() -> None:
    # Markdown shows a highlighted option's preview; loading it took a third of the time the
    # first batch in a process took to appear.
    modules = fresh_json(FIRST_BATCH)
    assert "widgets.questions" in modules
    assert _loaded(modules, MARKDOWN) == []


ASKED_ALONE = FIRST_QUESTION.replace(
    "from tui import ChoiceRequest, ElicitationApp, ElicitationQueue",
    "from tui import ChoiceRequest\nfrom tui.app.ask_app import AskApp",
).replace(
    "app = ElicitationApp(ElicitationQueue(), agent)",
    'app = AskApp(ChoiceRequest(message="Zebra?", options=["yes", "no"]))',
)
"""The first question shown by `elicit-tui ask`'s app: its dialog alone."""

MAIN_SCREEN = (
    "textual.widgets._data_table",
    "textual.widgets._header",
    "widgets.timeline",
    "widgets.agent_status",
    "widgets.secret",
)
"""The main screen's parts (title, agent status, timeline) and the secret dialog."""


def test_a_question_asked_alone_loads_nothing_of_the_main_screen() -> None:
    # `elicit-tui ask` shows its dialog and nothing behind it; without a transcript, nothing
    # that writes one, and the records of its keys come with the first key.
    modules = fresh_json(ASKED_ALONE)
    assert "widgets.choice" in modules
    assert _loaded(modules, MAIN_SCREEN) == []
    assert _loaded(modules, ("tui.transcript.writer", "tui.transcript.records")) == []


@pytest.mark.parametrize(
    ("request_", "sheets"),
    [
        (ChoiceRequest(message="Zebra?", options=["yes", "no"]), ["app.tcss"]),
        (SecretRequest(message="Key?"), ["app.tcss", "fields.tcss", "secret.tcss"]),
    ],
    ids=["choice", "secret"],
)
async def test_ask_reads_only_the_css_its_one_dialog_needs(
    request_: Request, sheets: list[str]
) -> None:
    # Textual parses every sheet before the first frame: the rules of every kind took 5 ms
    # of a cold `ask`. An app that may show any kind reads them all as it starts.
    app = AskApp(request_, input_grace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, ElicitationModal))
        read = sorted(
            Path(path).name for path, _ in app.stylesheet.source if path.endswith(".tcss")
        )
    assert read == sheets
    full = ElicitationApp(ElicitationQueue())
    async with full.run_test(size=(80, 24)):
        read = sorted(
            Path(path).name for path, _ in full.stylesheet.source if path.endswith(".tcss")
        )
    assert read == sorted(Path(path).name for path in ALL_CSS) and len(read) == 8


IDLE_APP = """
import asyncio, json, sys
sys.path.insert(0, "tests")
from app_driver import wait_for
from tui import ElicitationApp, ElicitationQueue

async def main():
    app = ElicitationApp(ElicitationQueue())
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: app._prebuilt)
        print(json.dumps(sorted(sys.modules)))

asyncio.run(main())
"""

COMMON_KINDS = (
    "widgets.choice",
    "widgets.text",
    "widgets.confirmation",
    "widgets.multi_choice",
    "widgets.secret",
    "widgets.tool_approval",
    "widgets.questions",
)

RARE = (
    "markdown_it",
    "textual.widgets._markdown",
    "textual.widgets._text_area",
    "rich.traceback",
    "mcp",
    "widgets.form",
    "widgets.url",
)
"""What no modal built ahead needs: other kinds' modals, Markdown, a text area (a multiline
answer's, a tool call's editor), the crash report's renderer, the MCP bridge."""


def test_an_idle_app_loads_the_modals_of_the_common_kinds_and_nothing_of_the_others() -> None:
    modules = fresh_json(IDLE_APP)
    assert _loaded(modules, COMMON_KINDS) == sorted(COMMON_KINDS)
    assert _loaded(modules, RARE) == []


IDLE_APP_VALIDATORS = IDLE_APP.replace(
    "print(json.dumps(sorted(sys.modules)))",
    "from tui.core.kinds import kind, kind_names\n"
    "        print(json.dumps(sorted(k for k in kind_names() if kind(k).model.__pydantic_complete__)))",
)


def test_an_idle_app_builds_its_modals_ahead_without_building_a_validator() -> None:
    # Building validators (and loading pydantic's plugins for the first) is work for whoever
    # asks; done on the UI thread it would keep an agent's first question waiting.
    assert fresh_json(IDLE_APP_VALIDATORS) == []


FIRST_REQUEST_IN_A_THREAD = """
import json, sys, threading
from tui import ChoiceRequest, ElicitationApp, ElicitationQueue

class ThreadImports:
    \"\"\"Records each module first imported in the thread named `thread`, and finds none.\"\"\"
    thread = ""
    names = []
    @classmethod
    def find_spec(cls, name, path=None, target=None):
        if threading.current_thread().name == cls.thread:
            cls.names.append(name)
        return None

def first_request():
    \"\"\"A first question made (validated) in this thread, what it imported recorded.\"\"\"
    ThreadImports.thread = threading.current_thread().name
    sys.meta_path.insert(0, ThreadImports)
    request = ChoiceRequest(message="Zebra?", options=["yes", "no"])
    sys.meta_path.remove(ThreadImports)
    return request
"""

AGENT_FIRST_QUESTION = (
    FIRST_REQUEST_IN_A_THREAD
    + """
def agent(queue):
    queue.ask(first_request(), timeout=0.1)
    return ThreadImports.names

app = ElicitationApp(ElicitationQueue(), agent, exit_when_agent_done=True)
print(json.dumps(app.run(headless=True, size=(80, 24))))
"""
)


def test_an_agent_s_first_question_loads_no_module_in_its_thread() -> None:
    # Every file an import reads in the agent's thread hands the UI thread the GIL for up to
    # 5 ms: pydantic's plugin lookup (importlib.metadata) took a fresh process's first
    # question 0.2 s longer to appear. The app loads it before the agent starts.
    assert fresh_json(AGENT_FIRST_QUESTION) == []


PROGRAM_THREAD_FIRST_QUESTION = (
    FIRST_REQUEST_IN_A_THREAD
    + """
class Program(ElicitationApp):
    \"\"\"An app given no agent: a thread of the program asks its queue once it shows.\"\"\"
    def on_ready(self):
        threading.Thread(target=self.ask_once, name="asker").start()

    def ask_once(self):
        self.queue.ask(first_request(), timeout=0.1)
        self.call_from_thread(self.exit, ThreadImports.names)

print(json.dumps(Program(ElicitationQueue()).run(headless=True, size=(80, 24))))
"""
)


def test_a_program_thread_s_first_question_loads_no_module_in_its_thread() -> None:
    # The same for a queue asked by a thread of the program rather than the app's agent:
    # while the UI thread builds the common dialogs ahead, that loading kept a fresh
    # process's first question from appearing until they were all built (0.1 to 0.35 s).
    assert fresh_json(PROGRAM_THREAD_FIRST_QUESTION) == []


def test_tui_loads_its_names_with_the_collector_held_then_sets_them_aside() -> None:
    seen = fresh_json(
        "import gc, json, tui\nbefore = gc.get_freeze_count()\ntui.ElicitationApp\n"
        "print(json.dumps([gc.get_freeze_count() - before, gc.isenabled()]))"
    )
    assert seen[0] > 10_000  # Textual, pydantic and the app, never walked by the collector
    assert seen[1] is True


def test_the_command_line_parser_loads_no_front_end_keyring_bridge_hook_or_other_command() -> None:
    # What `approvals`, `secrets`, `mcp` and `web` use loads when they run: `ask`, `ask --to`
    # and every hook an agent's CLI starts for a tool call pay only for their own.
    modules = fresh_json(
        "import json, sys\nfrom tui.cli.main import build_parser\n"
        "build_parser().parse_args(['ask', 'choice', 'Zebra?', '-o', 'yes'])\n"
        "print(json.dumps(sorted(sys.modules)))"
    )
    others = (
        "asyncio",
        "platformdirs",
        "tui.approvals",
        "tui.core.queue",
        "tui.mcp",
        "tui.secrets",
    )
    assert (
        _loaded(
            modules,
            ("textual", "keyring", "mcp", "widgets", "tui.integrations.hooks", *others),
        )
        == []
    )


ASKED_FROM_THE_SHELL = """
import atexit, json, sys
atexit.register(lambda: print(json.dumps(sorted(sys.modules))))
sys.argv = ["elicit-tui", "ask", "choice", "Zebra?"]
from tui.cli.entry import main
main()
"""
"""`elicit-tui ask choice Zebra?` as the console script runs it (refused: no options), then the
modules it loaded."""

OTHER_COMMANDS = (
    "tui.cli.main",
    "tui.cli.approvals",
    "tui.cli.attach",
    "tui.cli.demo",
    "tui.cli.hook",
    "tui.cli.mcp",
    "tui.cli.replay",
    "tui.cli.secrets",
    "tui.cli.serve",
    "tui.cli.web",
)


def test_ask_loads_its_own_parser_and_no_other_command() -> None:
    # The question should be on screen at once: no other command's options are read first.
    done = subprocess.run(
        [sys.executable, "-c", ASKED_FROM_THE_SHELL], capture_output=True, text=True, cwd=ROOT
    )
    assert done.returncode == 3
    assert "the following arguments are required: -o/--option" in done.stderr
    modules = json.loads(done.stdout.strip().splitlines()[-1])
    assert "tui.cli.ask" in modules
    assert _loaded(modules, OTHER_COMMANDS) == []


def test_parse_request_builds_the_validator_of_its_own_kind_only() -> None:
    built = fresh_json(
        "import json\nfrom tui.core.kinds import kind, kind_names\n"
        "from tui.core.models import parse_request\n"
        "parse_request({'kind': 'choice', 'message': 'Zebra?', 'options': ['yes']})\n"
        "print(json.dumps(sorted(k for k in kind_names() if kind(k).model.__pydantic_complete__)))"
    )
    assert built == ["choice"]


@pytest.mark.parametrize(
    "data",
    [
        {"kind": "choice", "message": "Zebra?"},
        {"kind": "choice", "message": "", "options": ["yes"], "surprise": 1},
        {"kind": "text", "message": "Name?", "min_length": 5, "max_length": 2},
        {"kind": "form", "message": "Deploy", "requested_schema": {"type": "array"}},
        # (A request without `kind` is refused in words of its own: test_request_spelling_refusals.)
    ],
)
def test_a_refused_request_is_refused_as_the_union_of_kinds_refuses_it(
    data: dict[str, Any],
) -> None:
    with pytest.raises(ValidationError) as expected:
        request_adapter().validate_python(data)
    with pytest.raises(ValidationError) as refused:
        parse_request(data)
    assert str(refused.value) == str(expected.value)
    assert refused.value.errors(include_context=False) == expected.value.errors(
        include_context=False
    )


def test_a_request_of_an_unknown_kind_is_refused_naming_it_the_known_ones_and_the_way_in() -> None:
    with pytest.raises(ValidationError) as refused:
        parse_request({"kind": "nothing", "message": "Zebra?"})
    (problem,) = refused.value.errors(include_url=False)
    assert (problem["type"], problem["loc"], problem["input"]) == (
        "unknown_kind",
        ("kind",),
        "nothing",
    )
    assert problem["msg"].startswith(
        "'nothing' is not a kind registered here (registered: 'text', 'choice', 'multi_choice',"
    )
    assert problem["msg"].endswith("whose ELICIT_TUI_KINDS names the module that registers it")


def test_every_built_in_kind_names_a_modal_of_its_own_module() -> None:
    built_in = [n for n in kind_names() if kind(n).model.__module__ == "tui.core.models"]  # type: ignore[union-attr]
    assert len(built_in) == 9
    for name in built_in:
        modal = kind(name).modal  # type: ignore[union-attr]
        assert modal is not None
        modal_class = modal_class_for(name)
        assert modal_class is not None
        assert f"{modal_class.__module__}:{modal_class.__name__}" == modal
        assert modal_class.__module__ == f"widgets.{name}"


REUSED_FROM_THE_FIRST = """
import asyncio, json, sys
sys.path.insert(0, "tests")
from app_driver import wait_for_modal
from tui import ChoiceRequest, ElicitationApp, ElicitationQueue

described = {"description": "Some **bold** words."}
requests = [
    ChoiceRequest(message="First?", options=["yes", "no"], **described),
    ChoiceRequest(message="Second?", options=["up", "down"], **described),
]

def agent(queue):
    for request in requests:
        queue.ask(request)

async def main():
    app = ElicitationApp(ElicitationQueue(), agent, input_grace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        first = await wait_for_modal(pilot, "First?")
        loaded_before = "widgets.choice" in sys.modules
        await pilot.pause()
        await pilot.press("enter")
        second = await wait_for_modal(pilot, "Second?")
        await pilot.pause()
        description = str(second.query_one("#description").source)
        print(json.dumps([loaded_before, second is first, description]))

asyncio.run(main())
"""


def test_the_first_modal_of_a_kind_loaded_on_demand_is_kept_for_the_next() -> None:
    assert fresh_json(REUSED_FROM_THE_FIRST) == [True, True, "Some **bold** words."]


LOADING = """
import gc, json
from tui.core.loading import loading_modules
seen = {"frozen_before": gc.get_freeze_count()}
with loading_modules():
    seen["held_inside"] = not gc.isenabled()
    import tui.core.models
seen["running_after"] = gc.isenabled()
seen["frozen_after"] = gc.get_freeze_count()
try:
    with loading_modules():
        raise ImportError("no such module")
except ImportError:
    seen["running_after_a_failed_import"] = gc.isenabled()
gc.disable()
with loading_modules():
    pass
seen["held_by_the_caller_stays_held"] = not gc.isenabled()
print(json.dumps(seen))
"""


def test_modules_load_with_the_collector_held_then_set_aside_and_it_runs_again() -> None:
    seen = fresh_json(LOADING)
    assert seen.pop("frozen_after") > seen.pop("frozen_before") + 10_000
    assert seen == {
        "held_inside": True,
        "running_after": True,
        "running_after_a_failed_import": True,
        "held_by_the_caller_stays_held": True,
    }


CONSOLE_SCRIPT = """
import gc, json, sys
import tui.cli.main
import tui.core.loading
seen = {}
def command():
    seen.update(collector_running=gc.isenabled(), frozen=gc.get_freeze_count() > 0)
    seen.update(command_process=tui.core.loading._command_process)
    return 3
tui.cli.main.main = command
from tui.cli.entry import main
try:
    main()
except SystemExit as exit:
    seen["exit"] = exit.code
print(json.dumps(seen))
"""


def test_the_console_script_runs_its_command_with_the_collector_running() -> None:
    assert fresh_json(CONSOLE_SCRIPT) == {
        "collector_running": True,
        "frozen": True,
        "command_process": True,
        "exit": 3,
    }


SET_UP_APP = """
import asyncio, gc, json, weakref
from tui.core import loading
if {command}:
    loading.mark_command_process()
from tui.app.app import ElicitationApp
from tui.core.queue import ElicitationQueue

class Canary:
    pass

async def main():
    app = ElicitationApp(ElicitationQueue())
    async with app.run_test(size=(80, 24)):
        # With the collector held, only a collection asked for finds garbage in a cycle.
        gc.disable()
        canary = Canary()
        canary.itself = canary
        collected = weakref.ref(canary)
        del canary
        before = gc.get_freeze_count()
        while not app._prebuilt:
            await asyncio.sleep(0.01)
        return {{
            "set_aside": gc.get_freeze_count() - before,
            "garbage_collected": collected() is None,
        }}

print(json.dumps(asyncio.run(main())))
"""


def test_the_command_s_app_once_set_up_collects_then_sets_aside_what_is_alive() -> None:
    seen = fresh_json(SET_UP_APP.format(command=True))
    # Garbage is collected first, not set aside for good; the app's own objects are.
    assert seen["garbage_collected"] is True
    assert seen["set_aside"] > 10_000


def test_an_app_in_a_program_that_embeds_it_leaves_its_collector_as_it_is() -> None:
    assert fresh_json(SET_UP_APP.format(command=False)) == {
        "set_aside": 0,
        "garbage_collected": False,
    }


def test_the_console_script_stops_quietly_when_its_reader_has_gone() -> None:
    # `elicit-tui approvals list | head -0`: the pipe is closed before anything is written.
    read, write = os.pipe()
    os.close(read)
    done = subprocess.run(
        [sys.executable, "-c", "from tui.cli.entry import main; main()", "approvals", "list"],
        stdout=write,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        check=False,
    )
    os.close(write)
    assert (done.returncode, done.stderr) == (128 + signal.SIGPIPE, "")
