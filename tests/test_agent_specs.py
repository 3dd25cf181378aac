"""Agent specs trust nothing: ``make_agent`` names ``spec``, ``game_name`` and ``seed`` when they are wrong, and every
numeric setting of every agent of every game refuses NaN, infinities, negatives, huge numbers, bools and text with
an error naming the setting and its range (each agent checks its own settings, ``baselines.params``)."""

from __future__ import annotations

import dataclasses
import inspect
from typing import Any

import numpy as np
import pytest

from baselines.agent import MAX_COUNT, MAX_SECONDS
from baselines.factory import agent_choices, make_agent
from baselines.games import GAMES
from baselines.search.rhea import RHEAAgent, RHEAParams
from baselines.search.rhea_params import PLAN_VALUES
from baselines.search.rmcts import RinascimentoMCTSAgent, RMCTSParams
from boardenvs.registry import make_game

BAD_NUMBERS = ["nan", "inf", "-inf", "-1", "1e20", "99999999999999999999", "true", "abc"]
"""Spec text that no numeric setting of any agent allows."""


def numeric_settings(agent_class: type) -> list[str]:
    """The int and float settings an agent's spec may give (its keyword arguments, or its parameter table)."""
    if issubclass(agent_class, (RHEAAgent, RinascimentoMCTSAgent)):
        params = RHEAParams if issubclass(agent_class, RHEAAgent) else RMCTSParams
        names = [f.name for f in dataclasses.fields(params) if f.type in ("int", "float")]
        if params is RHEAParams:  # the settings of the plan values games registered (Splendor's ef_degree)
            names += [name for kind in PLAN_VALUES.values() for name, (_, default) in kind.settings.items()
                      if type(default) in (int, float)]  # fmt: skip
        return names
    signature = inspect.signature(agent_class.__init__)
    return [
        name
        for name, parameter in signature.parameters.items()
        if name != "seed" and ("int" in str(parameter.annotation) or "float" in str(parameter.annotation))
    ]


SETTINGS = sorted(
    {
        (game, agent, setting)
        for game in GAMES
        for agent, agent_class in agent_choices(game).items()
        for setting in numeric_settings(agent_class)
    }
)
"""Every (game, agent, numeric setting), the first game that has the agent only."""
FIRST = {}
for _game, _agent, _setting in SETTINGS:
    FIRST.setdefault((_agent, _setting), _game)
CASES = [pytest.param(game, agent, setting, id=f"{agent}-{setting}") for (agent, setting), game in FIRST.items()]


def test_every_agent_with_numbers_is_covered() -> None:
    agents = {case.values[1] for case in CASES}
    assert {"mcts", "rhea", "alphabeta", "minimax", "heuristic", "random_es", "srh", "rmcts"} <= agents
    assert len(CASES) >= 40


@pytest.mark.parametrize(("game", "agent", "setting"), CASES)
def test_a_numeric_setting_refuses_what_it_cannot_use(game: str, agent: str, setting: str) -> None:
    for text in BAD_NUMBERS:
        with pytest.raises(ValueError, match=rf"\b{setting}\b.*must be .*, got") as error:
            make_agent(f"{agent}:{setting}={text}", game)
        assert "must be" in str(error.value), (text, error.value)


@pytest.mark.parametrize(("game", "agent", "setting"), CASES)
def test_a_numeric_setting_given_as_a_python_value_is_checked_too(game: str, agent: str, setting: str) -> None:
    for value in (float("nan"), float("inf"), -1, 10**20, True):
        with pytest.raises(ValueError, match=rf"\b{setting}\b"):
            make_agent(agent, game, settings={setting: value})


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("mcts:simulations=99999999999999999999", rf"simulations must be an int in 1\.\.{MAX_COUNT}"),
        ("mcts:seconds=1e300", r"seconds must be a number in \(0\.0, 86400\.0\]"),
        ("mcts:determinizations=1000000", r"determinizations must be an int in 1\.\.10000"),
        ("alphabeta:depth=1000", r"depth must be an int in 1\.\.100"),
        ("rhea:budget=1e8:budget_unit=seconds", r"budget must be in \(0, 86400\] seconds"),
        ("heuristic:path_probability=1.5", r"path_probability must be a number in \[0\.0, 1\.0\]"),
    ],
)
def test_budgets_have_an_upper_limit(spec: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        make_agent(spec, "quoridor")


def test_the_largest_allowed_budgets_are_accepted() -> None:
    agent: Any = make_agent(f"mcts:simulations={MAX_COUNT}:seconds={MAX_SECONDS}", "quoridor")
    assert agent.simulations == MAX_COUNT and agent.seconds == MAX_SECONDS
    assert make_agent("alphabeta:depth=100", "quoridor").depth == 100  # type: ignore[attr-defined]


@pytest.mark.parametrize("spec", [5, None, b"random", ["random"], 1.5])
def test_a_spec_that_is_not_a_str_is_a_type_error_naming_spec(spec: Any) -> None:
    with pytest.raises(TypeError, match="spec must be an agent spec str"):
        make_agent(spec, "quoridor")


@pytest.mark.parametrize("spec", ["", "   "])
def test_an_empty_spec_is_refused(spec: str) -> None:
    with pytest.raises(ValueError, match="spec must name an agent"):
        make_agent(spec, "quoridor")


@pytest.mark.parametrize("game_name", ["nogame", "", "Quoridor"])
def test_an_unknown_game_is_refused_listing_the_games(game_name: str) -> None:
    with pytest.raises(ValueError, match=r"game_name: unknown game .*games: \[.*'quoridor'"):
        make_agent("random", game_name)


@pytest.mark.parametrize("game_name", [5, None, ["quoridor"]])
def test_a_game_name_that_is_not_a_str_is_a_type_error(game_name: Any) -> None:
    with pytest.raises(TypeError, match="game_name must be a str"):
        make_agent("random", game_name)


@pytest.mark.parametrize(("seed", "error"), [(-1, ValueError), (True, TypeError), (1.5, TypeError), ("3", TypeError)])
def test_a_bad_seed_is_named(seed: Any, error: type) -> None:
    with pytest.raises(error, match="seed must be an int >= 0"):
        make_agent("mcts:simulations=5", "quoridor", seed=seed)


def test_good_seeds_still_work() -> None:
    generator = np.random.default_rng(3)
    assert make_agent("random", "quoridor", seed=generator).rng is generator  # type: ignore[attr-defined]
    assert make_agent("random", "quoridor", seed=np.int64(4)).name == "random"
    assert make_agent("random", "quoridor", seed=None).name == "random"


def test_a_class_spec_builds_the_users_agent_class_with_its_settings() -> None:
    agent = make_agent("class:baselines.agent.RandomAgent", "quoridor", seed=3)
    assert type(agent).__name__ == "RandomAgent" and agent.name == "class:baselines.agent.RandomAgent"
    twin = make_agent("class:baselines.agent.RandomAgent", "quoridor", seed=3)
    game = make_game("quoridor", board_size=5)
    state = game.initial_state(np.random.default_rng(0))
    assert [agent.act(game, state, 0) for _ in range(5)] == [twin.act(game, state, 0) for _ in range(5)]  # seeded


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("class:RandomAgent", r"write class:<module>\.<Class>"),
        ("class:baselines.agent.", r"write class:<module>\.<Class>"),
        ("class:no_such_module_here.Agent", "no module 'no_such_module_here' on the Python path"),
        ("class:baselines.agent.Missing", r"baselines\.agent\.Missing is not an agent class"),
        ("class:baselines.agent.check_seed", r"baselines\.agent\.check_seed is not an agent class"),
        ("class:baselines.agent.RandomAgent:depth=2", r"RandomAgent\(seed, name=\.\.\., \*\*\{'depth': 2\}\) failed"),
        ("class:baselines.agent.RandomAgent:depth", "settings are written ':key=value'"),
    ],
)
def test_a_bad_class_spec_is_refused_naming_it(spec: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        make_agent(spec, "quoridor")
