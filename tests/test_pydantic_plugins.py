"""The `elicit-tui` command's process validates without pydantic plugins; a program that
embeds elicit-tui keeps them. A real plugin, installed through an entry point in a folder of
its own, writes down every input it is handed."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from fresh_python import ROOT, fresh_json

ELICIT_TUI = str(Path(sys.executable).with_name("elicit-tui"))

SPY_PLUGIN = """
import os

class Handler:
    def on_enter(self, input, *args, **kwargs):
        with open(os.environ["SPY_LOG"], "a") as log:
            log.write(repr(input) + "\\n")

class Plugin:
    def new_schema_validator(self, *args, **kwargs):
        return Handler(), Handler(), Handler()

plugin = Plugin()
"""


@pytest.fixture
def spied(tmp_path: Path) -> tuple[dict[str, str], Path]:
    """The environment of a process in which the spy plugin is installed, and its log."""
    site = tmp_path / "site"
    dist = site / "spy_plugin-0.dist-info"
    dist.mkdir(parents=True)
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: spy-plugin\nVersion: 0\n")
    (dist / "entry_points.txt").write_text("[pydantic]\nspy = spy_plugin:plugin\n")
    (site / "spy_plugin.py").write_text(SPY_PLUGIN)
    log = tmp_path / "spy.log"
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(site), str(ROOT)]),
        "SPY_LOG": str(log),
        "ELICIT_TUI_CONFIG_DIR": str(tmp_path / "config"),
    }
    return env, log


def answered(argv: list[str], typed: str, env: dict[str, str] | None = None) -> str:
    """What `argv`, a plain `ask` typed `typed` and Enter, printed; it must exit 0."""
    done = subprocess.run(
        argv, input=f"{typed}\n", capture_output=True, text=True, env=env, cwd=ROOT, timeout=60
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_a_program_that_embeds_elicit_tui_keeps_its_pydantic_plugins(
    spied: tuple[dict[str, str], Path],
) -> None:
    env, log = spied
    code = "from tui import TextRequest; TextRequest(message='EMBEDDED-CANARY')"
    subprocess.run([sys.executable, "-c", code], env=env, check=True, cwd=ROOT)
    assert "EMBEDDED-CANARY" in log.read_text()


def test_the_command_hands_no_plugin_what_is_asked_or_typed(
    spied: tuple[dict[str, str], Path],
) -> None:
    env, log = spied
    out = answered([ELICIT_TUI, "ask", "text", "ASKED-CANARY", "--plain"], "TYPED-CANARY", env)
    assert json.loads(out)["content"] == "TYPED-CANARY"
    assert not log.exists()


ANSWERED_FROM_THE_SHELL = """
import atexit, json, sys
atexit.register(lambda: print(json.dumps(sorted(sys.modules))))
sys.argv = ["elicit-tui", "ask", "text", "Name?", "--plain"]
from tui.cli.entry import main
main()
"""
"""`elicit-tui ask text Name? --plain` as the console script runs it, then the modules it
loaded."""


def test_the_command_does_not_look_for_plugins_in_every_installed_package() -> None:
    out = answered([sys.executable, "-c", ANSWERED_FROM_THE_SHELL], "ada")
    answer, modules = out.strip().splitlines()[-2:]
    assert json.loads(answer)["content"] == "ada"
    assert "pydantic.plugin._loader" in json.loads(modules)  # pydantic asked for plugins
    assert "importlib.metadata" not in json.loads(modules)  # and nobody looked


OTHER_NAMES = """
import json
from tui.cli.pydantic_plugins import skip_pydantic_plugins
skip_pydantic_plugins()
from pydantic.plugin._loader import PYDANTIC_ENTRY_POINT_GROUP, get_plugins
print(json.dumps([PYDANTIC_ENTRY_POINT_GROUP, list(get_plugins())]))
"""


def test_any_other_name_pydantic_imports_from_its_loader_is_the_real_loader_s() -> None:
    # A later pydantic that imports more from its loader than `get_plugins` still works.
    assert fresh_json(OTHER_NAMES) == ["pydantic", []]


LOADED_ALREADY = """
import json
import pydantic.plugin._loader as loader
from tui.cli.pydantic_plugins import skip_pydantic_plugins
skip_pydantic_plugins()
import pydantic.plugin._loader as after
print(json.dumps(after is loader))
"""


def test_a_loader_loaded_already_is_left_as_it_is() -> None:
    assert fresh_json(LOADED_ALREADY) is True
