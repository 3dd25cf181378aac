"""The layering of docs/design.md §1: imports point down, the rules need numpy only, no import cycles.

The import graph is read from the source: every import statement that runs, lazy ones inside functions included
(imports under ``if TYPE_CHECKING:`` serve annotations only and are left out).
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("boardenvs", "baselines")
GAMES = ("quoridor", "splendor", "gravwell", "battle_sheep", "node_conquest")


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def source_files(package: str) -> list[Path]:
    return sorted((ROOT / package).rglob("*.py"))


def runtime_nodes(tree: ast.AST) -> list[ast.AST]:
    """Every node of the tree except those under ``if TYPE_CHECKING:`` (annotations only, never run)."""
    nodes: list[ast.AST] = []
    todo = [tree]
    while todo:
        node = todo.pop()
        nodes.append(node)
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
            todo.extend(node.orelse)
        else:
            todo.extend(ast.iter_child_nodes(node))
    return nodes


def imports_of(tree: ast.Module, modules: set[str]) -> set[str]:
    """The known ``modules`` that the file imports when it runs, in functions too (a lazy import still ties two
    modules together); not under ``TYPE_CHECKING``. ``from package import module`` names the module, not the
    package's ``__init__``."""
    names: set[str] = set()
    for node in runtime_nodes(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            submodules = {f"{node.module}.{alias.name}" for alias in node.names} & modules
            names.update(submodules)
            if len(submodules) < len(node.names):
                names.add(node.module)
    return names & modules


def external_imports(tree: ast.Module) -> set[str]:
    """Top-level names of every module an import statement of the file names."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


def code_strings(tree: ast.Module) -> list[str]:
    """String constants that are not docstrings."""
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.ClassDef, ast.AsyncFunctionDef))
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    return [
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings
    ]


def parse(path: Path) -> ast.Module:
    return ast.parse(path.read_text(), filename=str(path))


def test_boardenvs_never_imports_or_names_the_agents_or_the_scripts() -> None:
    for path in source_files("boardenvs"):
        tree = parse(path)
        upward = sorted(external_imports(tree) & {"baselines", "scripts"})
        assert not upward, f"{path} imports {upward}"
        named = [s for s in code_strings(tree) if "baselines" in s or "scripts." in s]
        assert not named, f"{path} names {named}"


def test_baselines_never_imports_the_scripts() -> None:
    for path in source_files("baselines"):
        upward = sorted(external_imports(parse(path)) & {"scripts"})
        assert not upward, f"{path} imports {upward}"


def internal_graph() -> dict[str, set[str]]:
    modules = {module_name(path): path for package in PACKAGES for path in source_files(package)}
    known = set(modules)
    return {name: imports_of(parse(path), known) - {name} for name, path in modules.items()}


def find_cycle(graph: dict[str, set[str]]) -> list[str]:
    """A cycle of the graph as a list of modules, or [] (iterative depth-first search)."""
    state: dict[str, int] = {}
    for start in sorted(graph):
        if state.get(start):
            continue
        stack: list[tuple[str, list[str]]] = [(start, sorted(graph[start]))]
        state[start] = 1
        while stack:
            node, todo = stack[-1]
            if not todo:
                state[node] = 2
                stack.pop()
                continue
            child = todo.pop()
            if state.get(child) == 1:
                path = [n for n, _ in stack]
                return path[path.index(child) :] + [child]
            if not state.get(child):
                state[child] = 1
                stack.append((child, sorted(graph.get(child, ()))))
    return []


def test_no_import_cycle() -> None:
    assert find_cycle(internal_graph()) == []


def imported_modules(statement: str) -> set[str]:
    code = f"import sys\n{statement}\nprint(' '.join(sorted({{m.split('.')[0] for m in sys.modules}})))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    return set(out.stdout.split())


@pytest.mark.parametrize("game", GAMES)
def test_the_rules_of_a_game_import_with_numpy_alone(game: str) -> None:
    loaded = imported_modules(f"import boardenvs.games.{game}")
    assert not loaded & {"gymnasium", "pettingzoo", "torch", "pygame", "baselines", "scripts"}


def test_importing_boardenvs_registers_the_envs_whichever_framework_comes_first() -> None:
    code = (
        "import boardenvs, sys\n"
        "assert 'gymnasium' not in sys.modules\n"
        "import gymnasium, pettingzoo\n"
        "gymnasium.make('boardenvs/Quoridor-v0', board_size=5).reset(seed=0)\n"
        "pettingzoo.make('aec', 'boardenvs/quoridor-v0', board_size=5).reset(seed=0)\n"
        "import gymnasium as g2\n"
        "print('ok')\n"
    )
    for prelude in ("", "import pettingzoo\n", "import gymnasium\n"):
        program = prelude + (code if not prelude else code.replace("assert 'gymnasium' not in sys.modules\n", ""))
        out = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, cwd=ROOT)
        assert out.stdout.strip() == "ok", out.stderr


def test_the_default_opponents_come_from_the_installed_agent_package_through_the_registry() -> None:
    code = (
        "import sys, gymnasium, boardenvs\n"
        "assert 'baselines' not in sys.modules\n"
        "env = gymnasium.make('boardenvs/Quoridor-v0', opponent='heuristic', board_size=5)\n"
        "env.reset(seed=0)\n"
        "print(type(env.unwrapped.opponents[0].agent).__name__, 'baselines' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert out.stdout.split() == ["HeuristicAgent", "True"], out.stderr
