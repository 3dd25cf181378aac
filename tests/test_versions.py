"""Versioned names, as PettingZoo has them: every game's module, ids and ``metadata["name"]`` carry its
``Game.version``; the module names of older versions are deprecated aliases; old ids are refused with the current
one named; the README lists exactly the current ids (docs/versions.md)."""

from __future__ import annotations

import importlib
import re
import sys
import warnings
from pathlib import Path

import gymnasium
import pettingzoo
import pytest
from pettingzoo.env_registry.exceptions import VersionNotFound

import boardenvs
from boardenvs.envs import aec_env_id, gym_env_id, module_name
from boardenvs.registry import game_entry

ROOT = Path(__file__).resolve().parents[1]
GAMES = [name for name in boardenvs.list_games() if game_entry(name).game_class.__module__.startswith("boardenvs.")]
"""The games ``boardenvs`` ships (the registry also holds the tests' toy games, which have no module)."""

ALIASES = {
    "battle_sheep_v0": "battle_sheep_v1",
    "gravwell_v0": "gravwell_v1",
    "node_conquest_v0": "node_conquest_v2",
    "splendor_v0": "splendor_v3",
}
"""Every deprecated module name and the current module it stands for."""


def version(name: str) -> int:
    return game_entry(name).game_class.version


def test_the_shipped_games_are_the_five() -> None:
    assert GAMES == ["battle_sheep", "gravwell", "node_conquest", "quoridor", "splendor"]


@pytest.mark.parametrize("name", GAMES)
def test_every_game_has_the_module_of_its_current_version_and_its_names_agree(name: str) -> None:
    v = version(name)
    assert module_name(name) == f"boardenvs.{name}_v{v}"
    module = importlib.import_module(f"boardenvs.{name}_v{v}")  # a bump without a new module fails here
    assert getattr(boardenvs, f"{name}_v{v}") is module
    assert module.raw_env.__module__ == module.env.__module__ == module.parallel_env.__module__ == module.__name__
    assert module.raw_env.metadata["name"] == module.env().metadata["name"] == f"{name}_v{v}"
    assert module.parallel_env().metadata["name"] == f"{name}_v{v}"
    assert module.raw_env().game.spec.version == v
    assert aec_env_id(name) == f"boardenvs/{name}-v{v}"
    assert gym_env_id(name) == f"boardenvs/{game_entry(name).gym_name}-v{v}"
    assert gymnasium.spec(gym_env_id(name)).kwargs == {"game_name": name}
    assert pettingzoo.spec("aec", aec_env_id(name)).kwargs == {"game_name": name}
    assert pettingzoo.spec("parallel", aec_env_id(name)).kwargs == {"game_name": name}


@pytest.mark.parametrize("name", GAMES)
def test_every_other_versioned_module_of_a_game_is_a_listed_alias(name: str) -> None:
    found = {path.stem for path in (ROOT / "boardenvs").glob(f"{name}_v*.py")} - {f"{name}_v{version(name)}"}
    assert found == {old for old, current in ALIASES.items() if current.startswith(f"{name}_v")}
    assert all(ALIASES[old] == f"{name}_v{version(name)}" for old in found)


@pytest.mark.parametrize("old", sorted(ALIASES))
def test_an_old_module_name_warns_at_import_and_is_the_current_module(
    old: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    current = importlib.import_module(f"boardenvs.{ALIASES[old]}")
    monkeypatch.delitem(sys.modules, f"boardenvs.{old}", raising=False)  # import afresh: it warns when imported
    message = f"boardenvs.{old} is deprecated: the current version is boardenvs.{ALIASES[old]} (see docs/versions.md)"
    with pytest.warns(DeprecationWarning, match=re.escape(message)) as record:
        alias = __import__(f"boardenvs.{old}", fromlist=["env"])
    assert [warning.filename for warning in record] == [__file__]  # the warning points at the importing line
    assert (alias.env, alias.raw_env, alias.parallel_env) == (current.env, current.raw_env, current.parallel_env)
    assert alias.env is current.env and alias.raw_env is current.raw_env and alias.parallel_env is current.parallel_env
    assert alias.env().metadata["name"] == ALIASES[old]


def test_the_current_module_cannot_be_made_an_alias_of_itself() -> None:
    from boardenvs.modules import deprecated_module

    with pytest.raises(ImportError, match="boardenvs.splendor_v3 is the current module of 'splendor'"):
        deprecated_module("boardenvs.splendor_v3", "splendor")


@pytest.mark.parametrize("name", [name for name in GAMES if version(name) > 0])
def test_gymnasium_refuses_an_old_id_and_names_the_current_one(name: str) -> None:
    gym_name = game_entry(name).gym_name
    for old in range(version(name)):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)  # Gymnasium's own "out of date" warning
            with pytest.raises(gymnasium.error.DeprecatedEnv, match=re.escape(f"Please use `{gym_env_id(name)}`")):
                gymnasium.make(f"boardenvs/{gym_name}-v{old}")


@pytest.mark.parametrize("name", [name for name in GAMES if version(name) > 0])
@pytest.mark.parametrize("env_type", ["aec", "parallel"])
def test_pettingzoo_refuses_an_old_id_and_names_the_current_version(name: str, env_type: str) -> None:
    for old in range(version(name)):
        expected = f"'boardenvs/{name}' not found. Available version: v{version(name)}"
        with pytest.raises(VersionNotFound, match=re.escape(expected)):
            pettingzoo.make(env_type, f"boardenvs/{name}-v{old}")


# -- the README ------------------------------------------------------------------------------------
README = (ROOT / "README.md").read_text(encoding="utf-8")
TABLE_HEADER = "| game | version | Gymnasium id (`gymnasium.make`) | PettingZoo id (`pettingzoo.make`) | module |"


def readme_id_rows() -> list[list[str]]:
    """The cells of the README's table of ids, one list per game, code spans unquoted."""
    lines = README.splitlines()
    start = lines.index(TABLE_HEADER) + 2  # past the header and the |---| line
    rows = []
    for line in lines[start:]:
        if not line.startswith("|"):
            break
        rows.append([cell.strip().strip("`") for cell in line.strip("|").split("|")])
    return rows


def test_the_readme_table_lists_exactly_the_current_ids() -> None:
    cells = readme_id_rows()
    rows = {re.search(r"\(`?(\w+)`?\)", row[0]).group(1): row[1:] for row in cells}
    assert len(cells) == len(rows)  # one row per game
    module = {name: module_name(name).split(".")[1] for name in GAMES}
    expected = {
        name: [str(version(name)), gym_env_id(name), aec_env_id(name), f"from boardenvs import {module[name]}"]
        for name in GAMES
    }
    assert rows == expected


def test_the_readme_names_an_old_id_or_module_only_as_deprecated() -> None:
    """An id or module name of an older version appears only in a paragraph that says it is deprecated."""
    for paragraph in re.split(r"\n\s*\n", README):
        for name in GAMES:
            gym_name = game_entry(name).gym_name
            for old in range(version(name)):
                stale = (f"boardenvs/{gym_name}-v{old}", f"boardenvs/{name}-v{old}", f"{name}_v{old}")
                if any(re.search(rf"{re.escape(word)}\b", paragraph) for word in stale):
                    assert "deprecat" in paragraph.lower(), paragraph


# -- docs/versions.md ------------------------------------------------------------------------------
VERSIONS = (ROOT / "docs" / "versions.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("name", GAMES)
def test_the_version_history_has_the_current_version_of_every_game(name: str) -> None:
    v = version(name)
    sections = [s for s in re.split(r"^## ", VERSIONS, flags=re.M) if s.splitlines()[0].endswith(f"(`{name}`)")]
    assert len(sections) == 1, f"docs/versions.md needs one section '## <Game> (`{name}`)'"
    assert f"**Version {v}** (current)" in sections[0] and sections[0].count("(current)") == 1
    row = next(line for line in VERSIONS.splitlines() if line.startswith("|") and f"`{module_name(name)}`" in line)
    assert f"| {v} | `{gym_env_id(name)}` | `{aec_env_id(name)}` | `{module_name(name)}` |" in row
