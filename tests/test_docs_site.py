"""The documentation site: generated game pages match the code, the site builds with warnings as errors, and every
Python code block of the site's pages runs (unless marked ``<!-- not run: <reason> -->`` on the line before)."""

from __future__ import annotations

import dataclasses
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import boardenvs
from baselines.docs_site import FAMILIES, agent_page, game_page, package_games
from baselines.docs_site.rules_notes import heading_anchor, implementation_rows, rules_section, section_number
from baselines.factory import agent_choices, registered_agents
from boardenvs.registry import make_game
from scripts import docs_site

ROOT = Path(__file__).resolve().parents[1]
RUN_FOLDERS = ("games", "agents", "adapters", "guides")
RUN_PAGES = sorted(path for folder in RUN_FOLDERS for path in (ROOT / "docs" / folder).glob("*.md"))
RUN_PAGES.append(ROOT / "README.md")
"""The pages whose Python code blocks run here (the results pages quote commands of hours, not examples)."""
NOT_RUN = "<!-- not run:"
BLOCK = re.compile(r"(?P<before>[^\n]*)\n```python\n(?P<code>.*?)\n```", re.DOTALL)


def python_blocks(path: Path) -> list[tuple[int, str, str]]:
    """``(line, code, the line before)`` of every Python block of ``path``."""
    text = path.read_text()
    return [(text[: m.start("code")].count("\n") + 1, m["code"], m["before"]) for m in BLOCK.finditer(text)]


def test_the_committed_game_pages_are_what_the_code_generates() -> None:
    stale = docs_site.main(docs_site.Args(check=True, root=str(ROOT)))
    assert stale == [], f"run python -m scripts.docs_site: {[str(path.relative_to(ROOT)) for path in stale]}"


def test_the_check_names_a_page_that_drifted_from_the_code(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    for folder in ("results", "rules"):
        shutil.copytree(ROOT / "docs" / folder, docs / folder)
    written = docs_site.main(docs_site.Args(root=str(tmp_path)))
    assert len(written) == 3 * len(package_games()) + len(FAMILIES) + 1  # a page, picture, replay per game; agents
    (docs / "games" / "quoridor.md").write_text("# Quoridor\n\nwritten by hand\n")
    assert docs_site.main(docs_site.Args(check=True, root=str(tmp_path))) == [docs / "games" / "quoridor.md"]
    with pytest.raises(SystemExit, match=r"differ from the code: docs/games/quoridor.md"):
        docs_site.cli(["--check", "--root", str(tmp_path)])


@pytest.mark.parametrize("name", package_games())
def test_a_game_page_holds_every_argument_observation_field_and_the_ids_of_its_game(name: str) -> None:
    game, page = make_game(name), game_page(name, ROOT)
    assert all(f"| `{item.name}` |" in page for item in dataclasses.fields(game.config))
    assert all(f"| `{f.name}` | {f.start}:{f.stop} |" in page for f in game.spec.observation_fields)
    assert boardenvs.envs.gym_env_id(name) in page and f"Discrete({game.spec.num_actions})" in page
    assert type(game).__doc__.strip().splitlines()[0] in page  # the spec sheet itself


@pytest.mark.parametrize("name", package_games())
def test_a_game_page_quotes_its_rules_sources_resolutions_and_other_implementations(name: str) -> None:
    page, rules = game_page(name, ROOT), (ROOT / "docs" / "rules" / "rules.md").read_text()
    section = rules_section(rules, section_number(type(make_game(name)).__doc__ or ""))
    sources = next(sub for sub in section.subsections if sub.heading.endswith("Sources"))
    assert f"### {sources.heading}\n\n{sources.body}" in page  # the sources, verbatim
    assert all(f"### {sub.heading}" in page for sub in section.subsections if sub.inlined)
    assert all(f"(../rules/rules.md#{sub.anchor})" in page for sub in section.subsections if not sub.inlined)
    rows = implementation_rows(rules, name)
    assert rows and all(row in page for row in rows)  # every public implementation of the game that §6 lists


def test_the_rules_notes_refuse_a_spec_sheet_or_section_they_cannot_find() -> None:
    with pytest.raises(ValueError, match=r"names no section of docs/rules/rules.md"):
        section_number("A game without a rules reference.")
    with pytest.raises(ValueError, match=r"has no section 42"):
        rules_section((ROOT / "docs" / "rules" / "rules.md").read_text(), 42)
    assert (
        heading_anchor("5.3 OpenSpiel implementation (`quoridor.cc`/`.h`)") == "53-openspiel-implementation-quoridorcch"
    )


def test_every_agent_by_name_has_a_family_page() -> None:
    named = {name for name, _, _ in registered_agents()}
    on_pages = {name for family in FAMILIES for name in family.agents}
    assert named <= on_pages, f"agents without a family page: {sorted(named - on_pages)}"
    assert on_pages <= named, f"family pages naming no registered agent: {sorted(on_pages - named)}"


@pytest.mark.parametrize("family", FAMILIES, ids=lambda family: family.slug)
def test_a_family_page_shows_its_agents_games_and_a_training_command_its_script_accepts(family) -> None:
    page = agent_page(family, ROOT)
    for name, games, _ in registered_agents():
        if name in family.agents:
            assert f"| `{name}` | {', '.join(games) if games else 'every game'} |" in page
    if family.train:
        script = family.train.split()[2]
        help_text = subprocess.run([sys.executable, "-m", script, "--help"], cwd=ROOT, capture_output=True, text=True)
        unknown = [flag for flag in re.findall(r"--[\w-]+", family.train) if flag not in help_text.stdout]
        assert help_text.returncode == 0 and not unknown, f"{script} does not take {unknown}"


def test_the_agents_index_marks_which_agent_plays_which_game() -> None:
    index = (ROOT / "docs" / "agents" / "index.md").read_text()
    games = package_games()
    for name in ("heuristic", "mcts", "greedy"):
        row = next(line for line in index.splitlines() if line.startswith(f"| `{name}` |"))
        cells = [cell.strip() for cell in row.strip("|").split("|")][1:]
        assert cells == ["yes" if name in agent_choices(game) else "" for game in games]


RUN_PAGE = """
import re, sys, types
from pathlib import Path

BLOCK = re.compile(r"(?P<before>[^\\n]*)\\n```python\\n(?P<code>.*?)\\n```", re.DOTALL)
path = Path(sys.argv[1])
text = path.read_text()
page = sys.modules["__docs__"] = types.ModuleType("__docs__")  # one importable module: its classes pickle
for match in BLOCK.finditer(text):
    if match["before"].strip().startswith("<!-- not run:"):
        continue
    line = text[: match.start("code")].count("\\n") + 1
    exec(compile(match["code"], f"{path.name}:{line}", "exec"), page.__dict__)
"""
"""Runs the Python blocks of one page, in order, in one module of a fresh interpreter (a page may register a game)."""


@pytest.mark.parametrize("path", RUN_PAGES, ids=lambda path: str(path.relative_to(ROOT)))
def test_every_python_block_of_the_page_runs(path: Path) -> None:
    blocks = python_blocks(path)
    assert blocks or path.parent.name != "games", f"{path.name} has no Python block"  # a game page has one
    for line, _, before in blocks:
        if before.strip().startswith(NOT_RUN):
            assert before.strip().removeprefix(NOT_RUN).strip(" ->"), f"{path.name}:{line}: say why it is not run"
    result = subprocess.run(
        [sys.executable, "-c", RUN_PAGE, str(path)], cwd=ROOT, capture_output=True, text=True, timeout=600
    )
    assert result.returncode == 0, f"{path.relative_to(ROOT)}: {result.stderr[-3000:]}"


def test_the_site_builds_with_warnings_as_errors(tmp_path: Path) -> None:
    pytest.importorskip("mkdocs")
    pytest.importorskip("mkdocstrings")
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path / "site")],
        cwd=ROOT, capture_output=True, text=True, timeout=600, env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
    )  # fmt: skip
    assert result.returncode == 0, result.stderr[-3000:]
    assert (tmp_path / "site" / "games" / "splendor" / "index.html").is_file()
    assert (tmp_path / "site" / "reference" / "core" / "index.html").is_file()


def test_the_readme_is_a_landing_page() -> None:
    readme = (ROOT / "README.md").read_text()
    assert len(readme) <= 8_000, f"the README has {len(readme)} characters; the docs pages hold the rest"
    assert all(f"docs/games/{name}.md" in readme for name in package_games())
    assert "python -m scripts.tournament" in readme and "python -m pytest -n 2" in readme  # the two commands
