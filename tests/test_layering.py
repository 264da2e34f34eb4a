"""The house keeps its layers: who may import whom, no import cycles, a light `import tui`."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("tui", "widgets")

LAYERS: dict[str, tuple[str, ...]] = {
    "tui.core": ("tui.core",),
    "tui.secrets": ("tui.core", "tui.secrets"),
    "tui.approvals": ("tui.core", "tui.secrets", "tui.approvals"),
    "tui.integrations": ("tui.core", "tui.secrets", "tui.approvals", "tui.integrations"),
    "tui.mcp": ("tui.core", "tui.secrets", "tui.approvals", "tui.integrations", "tui.mcp"),
    "tui.transcript": ("tui.core", "tui.secrets", "tui.transcript"),
    "tui.testing": ("tui.core", "tui.secrets", "tui.testing"),
    "tui.inbox": (
        "tui.core",
        "tui.secrets",
        "tui.approvals",
        "tui.integrations",
        "tui.mcp",
        "tui.transcript",
        "tui.inbox",
    ),
    "tui.front_ends": ("tui.core", "tui.inbox", "tui.front_ends"),
    # A dialog asks the rules' layer which rules may be offered (`tui.approvals.offered`).
    "widgets": ("tui.core", "tui.secrets", "tui.approvals", "widgets"),
    "tui.app": (
        "tui.core",
        "tui.secrets",
        "tui.approvals",
        "tui.integrations",
        "tui.mcp",
        "tui.transcript",
        "tui.inbox",
        "tui.front_ends",
        "tui.app",
        "widgets",
    ),
    "tui.render": (
        "tui.core",
        "tui.secrets",
        "tui.approvals",
        "tui.transcript",
        "tui.app",
        "tui.render",
        "widgets",
    ),
    "tui.cli": ("tui", "widgets"),
    **{
        adapter: ("tui.core", "tui.secrets", "tui.approvals", "tui.integrations", "tui.mcp")
        for adapter in (
            "tui.integrations.gptme",
            "tui.integrations.langgraph",
            "tui.integrations.pydantic_ai",
            "tui.integrations.openai_agents",
            "tui.integrations.agentpool",
        )
    },
    "tui.examples": ("tui.core", "tui.examples"),
}
"""Each layer and the project modules it may import (by prefix); `tui` itself re-exports core.
The framework adapters sit on top of the MCP bridge (their frameworks speak MCP's elicitation),
while the other integrations (harness formats) sit below it."""

FOREIGN_BANS: dict[str, tuple[str, ...]] = {
    "tui.core": ("textual", "rich", "mcp", "mcp_types", "uvicorn"),
    "tui.secrets": ("textual", "mcp", "mcp_types"),
    "tui.approvals": ("textual", "rich", "mcp", "mcp_types"),
    "tui.integrations": ("textual", "rich", "mcp", "mcp_types"),
    "tui.mcp": ("textual",),
    "tui.transcript": ("textual", "rich", "mcp", "mcp_types"),
    "tui.testing": ("textual", "rich", "mcp", "mcp_types", "uvicorn"),
    "tui.inbox": ("textual",),
    "tui.front_ends": ("mcp", "mcp_types"),
    "widgets": ("mcp", "mcp_types", "uvicorn"),
    **{
        adapter: ("textual", "rich")
        for adapter in LAYERS
        if adapter.startswith("tui.integrations.")
    },
}
"""Third-party packages a layer must never import, even lazily (`SecretRef.get` reads the
keyring on demand, so core may; `import tui` still loads it nowhere, as tested below)."""


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _imports(path: Path, module: str) -> set[str]:
    """Every module `path` imports, at any depth (lazy imports count), relative ones resolved."""
    found: set[str] = set()
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names)
    return found


def _graph() -> dict[str, set[str]]:
    modules = {
        _module_name(path): path
        for package in PACKAGES
        for path in (ROOT / package).rglob("*.py")
        if "__pycache__" not in path.parts
    }
    return {name: _imports(path, name) for name, path in modules.items()}


GRAPH = _graph()


def _layer(module: str) -> str | None:
    matches = [layer for layer in LAYERS if module == layer or module.startswith(layer + ".")]
    return max(matches, key=len) if matches else None


def _project(imported: str, graph: dict[str, set[str]]) -> str | None:
    """The project module an import names (`tui.core.models.Option` → `tui.core.models`)."""
    name = imported
    while name:
        if name in graph:
            return name
        name = name.rpartition(".")[0]
    return None


def test_every_module_belongs_to_a_layer() -> None:
    loose = [name for name in GRAPH if name not in ("tui", "widgets") and _layer(name) is None]
    assert loose == []


@pytest.mark.parametrize("module", sorted(GRAPH))
def test_module_imports_only_what_its_layer_may(module: str) -> None:
    layer = _layer(module)
    if layer is None:
        return
    allowed = LAYERS[layer]
    wrong = sorted(
        target
        for imported in GRAPH[module]
        if (target := _project(imported, GRAPH)) is not None
        and target not in ("tui", "widgets")
        and not any(target == a or target.startswith(a + ".") for a in allowed)
    )
    assert wrong == [], f"{module} ({layer}) may not import {wrong}"
    banned = sorted(
        imported
        for imported in GRAPH[module]
        if imported.split(".")[0] in FOREIGN_BANS.get(layer, ())
    )
    assert banned == [], f"{module} ({layer}) may not import {banned}"


def test_the_package_roots_import_only_core_and_lazily_the_app() -> None:
    assert {_project(i, GRAPH) for i in GRAPH["tui"]} - {None} <= {
        name for name in GRAPH if name.startswith("tui.core")
    } | {"tui.app.app", "tui.inbox.remote_queue", "tui.testing.scripted"}
    assert {_project(i, GRAPH) for i in GRAPH["widgets"]} - {None} <= {
        name for name in GRAPH if name.startswith("widgets")
    }


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    edges = {
        name: {t for i in imports if (t := _project(i, graph)) is not None and t != name}
        for name, imports in graph.items()
    }
    state: dict[str, int] = {}
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for target in sorted(edges[node]):
            # A package's __init__ importing its own children is not a cycle of modules.
            if node in ("tui", "widgets") or target in ("tui", "widgets"):
                continue
            if state.get(target) == 1:
                return [*path[path.index(target) :], target]
            if target not in state and (found := visit(target)) is not None:
                return found
        path.pop()
        state[node] = 2
        return None

    for node in sorted(edges):
        if node not in state and (found := visit(node)) is not None:
            return found
    return None


def test_no_module_imports_one_that_imports_it_back() -> None:
    assert _cycle(GRAPH) is None, " → ".join(_cycle(GRAPH) or [])


def test_the_check_catches_a_core_module_importing_textual() -> None:
    graph = {name: set(imports) for name, imports in GRAPH.items()}
    graph["tui.core.queue"].add("textual.app")
    banned = [i for i in graph["tui.core.queue"] if i.split(".")[0] in FOREIGN_BANS["tui.core"]]
    assert banned == ["textual.app"]


def test_the_check_catches_a_cycle() -> None:
    graph = {name: set(imports) for name, imports in GRAPH.items()}
    graph["tui.core.options"].add("tui.core.models")
    assert _cycle(graph) is not None


def test_import_tui_loads_no_front_end_or_bridge() -> None:
    heavy = ("textual", "rich", "mcp", "keyring", "jsonschema")
    loaded = subprocess.run(
        [
            sys.executable,
            "-c",
            f"import sys, tui; print(sorted(set({heavy!r}) & set(sys.modules)))",
        ],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    ).stdout.strip()
    assert loaded == "[]"
