"""The layering of docs/design.md §1: imports point down, the rules need numpy only, no import cycles.

The import graph is read from the source: every import statement that runs, lazy ones inside functions included
(imports under ``if TYPE_CHECKING:`` serve annotations only and are left out), and every string constant that names
a module of the packages (``"baselines.learners.tabular_q:TabularQAgent"``: a module loaded by name is still an
edge; docstrings are not). Inside ``baselines`` the modules stand on the rungs of a ladder (:data:`RUNGS`, drawn in
docs/design.md §1): a module imports its own rung and the rungs below only.
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
KERNEL = ("agent", "factory", "params", "progress", "extras", "runs", "workers", "distributed", "settings")
KERNEL += ("pretrained", "schedules", "plots", "inputs")
RUNGS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("kernel", tuple(f"baselines.{name}" for name in KERNEL)),
    ("search", ("baselines.search",)),
    ("games", ("baselines.games",)),
    ("arena", ("baselines.arena",)),
    ("learners", ("baselines.learners",)),
    ("tuning", ("baselines.tuning",)),
    (
        "apps",
        (
            "baselines.benchmark",
            "baselines.ladder",
            "baselines.speed",
            "baselines.web",
            "baselines.docs_site",
            "baselines",
        ),
    ),
)
"""The ladder inside ``baselines``, bottom to top (docs/design.md §1): each rung's module prefixes (a prefix names
the module and everything under it; ``baselines`` alone is the package's ``__init__``, which imports the families so
that the registry of :mod:`baselines.factory` is full)."""


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


def named_modules(tree: ast.Module, modules: set[str]) -> set[str]:
    """The known ``modules`` that a string constant of the file names (``"pkg.mod"`` or ``"pkg.mod:attribute"``),
    docstrings left out: loading a module by name ties two modules together as an import does. A bare package name
    (``"boardenvs"``, the namespace of the environment ids) is a name, not a path, and does not count."""
    named = {text.partition(":")[0].strip() for text in code_strings(tree)}
    return {name for name in named if "." in name} & modules


def internal_graph(strings: bool = True) -> dict[str, set[str]]:
    """Module -> the modules of the packages it imports (and, with ``strings``, names in a string)."""
    modules = {module_name(path): path for package in PACKAGES for path in source_files(package)}
    known = set(modules)
    graph = {}
    for name, path in modules.items():
        tree = parse(path)
        edges = imports_of(tree, known) | (named_modules(tree, known) if strings else set())
        graph[name] = edges - {name}
    return graph


def rung_of(module: str) -> int | None:
    """The rung (index into :data:`RUNGS`) of a ``baselines`` module: its longest matching prefix; ``None`` outside
    ``baselines``."""
    best: tuple[int, int] | None = None
    for index, (_, prefixes) in enumerate(RUNGS):
        for prefix in prefixes:
            inside = module == prefix or (prefix != "baselines" and module.startswith(prefix + "."))
            if inside and (best is None or len(prefix) > best[0]):
                best = (len(prefix), index)
    return None if best is None else best[1]


def upward_edges(graph: dict[str, set[str]]) -> list[str]:
    """Every edge of the graph from a ``baselines`` module to a module on a higher rung, as text."""
    found = []
    for source, targets in sorted(graph.items()):
        low = rung_of(source)
        for target in sorted(targets):
            high = rung_of(target)
            if low is not None and high is not None and high > low:
                found.append(f"{source} ({RUNGS[low][0]}) -> {target} ({RUNGS[high][0]})")
    return found


def test_every_baselines_module_stands_on_a_rung() -> None:
    homeless = [name for name in internal_graph() if name.startswith("baselines") and rung_of(name) is None]
    assert not homeless, f"modules on no rung of the ladder (add them to RUNGS and docs/design.md §1): {homeless}"


def test_imports_inside_baselines_go_down_the_ladder() -> None:
    upward = upward_edges(internal_graph())
    assert not upward, "imports (or module names in strings) that climb the ladder:\n" + "\n".join(upward)


def test_a_module_named_in_a_string_is_an_edge() -> None:
    tree = ast.parse('"""baselines.search.rhea"""\nLOADER = "baselines.learners.qlnn:QLNNAgent"\n')
    assert named_modules(tree, {"baselines.search.rhea", "baselines.learners.qlnn"}) == {"baselines.learners.qlnn"}
    assert upward_edges({"baselines.factory": {"baselines.learners.qlnn"}}) == [
        "baselines.factory (kernel) -> baselines.learners.qlnn (learners)"
    ]


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
    assert find_cycle(internal_graph(strings=False)) == []


def test_no_cycle_even_through_modules_named_in_strings() -> None:
    assert find_cycle(internal_graph()) == []
    assert find_cycle({"a": {"b"}, "b": {"a"}}) == ["a", "b", "a"]


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


# -- room sizes (issue 31): small functions and classes, and a long file only when it has one job ------------------
MAX_FUNCTION_LINES, MAX_CLASS_LINES, MAX_FILE_LINES = 50, 300, 400
ONE_JOB_FILES = {
    "boardenvs/core.py": "the game contract (Game, State, Symmetry, GameSpec) and the checks every config shares",
    "boardenvs/openspiel.py": "the OpenSpiel adapter (its parameters are openspiel_parameters.py's)",
    "boardenvs/raster.py": "drawing the project's SVG subset as pixels (the canvas primitives are raster_canvas.py's)",
    "boardenvs/single_agent.py": "the single-agent Gymnasium env and its opponent protocol",
    "boardenvs/games/splendor/svg.py": "Splendor's picture",
    "boardenvs/games/gravwell/svg.py": "Gravwell's picture",
    "baselines/plots.py": "every picture the project draws",
    "baselines/arena/log.py": "the tournament log format: writing, reading and checking it",
    "baselines/tuning/ntbea.py": "the NTBEA optimiser",
}
"""The files over :data:`MAX_FILE_LINES` lines, each with its one job: a new long file says its job here, or splits."""


def code_files() -> list[Path]:
    return [path for package in (*PACKAGES, "scripts") for path in source_files(package)]


def test_no_function_over_50_lines_and_no_class_over_300() -> None:
    too_long = []
    for path in code_files():
        for node in ast.walk(parse(path)):
            limit = {ast.FunctionDef: MAX_FUNCTION_LINES, ast.AsyncFunctionDef: MAX_FUNCTION_LINES}.get(type(node))
            limit = MAX_CLASS_LINES if isinstance(node, ast.ClassDef) else limit
            if limit is not None and node.end_lineno - node.lineno + 1 > limit:
                too_long.append(f"{path.relative_to(ROOT)}:{node.lineno} {node.name}")
    assert too_long == []


def test_a_file_over_400_lines_has_one_job_said_in_the_list() -> None:
    long_files = {
        str(path.relative_to(ROOT)) for path in code_files() if len(path.read_text().splitlines()) > MAX_FILE_LINES
    }
    assert long_files <= set(ONE_JOB_FILES), sorted(long_files - set(ONE_JOB_FILES))
