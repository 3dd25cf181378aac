"""Rinascimento's MCTS (``baselines.search.rmcts``): widening, depth, budget, recommendation, known answers."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from baselines.agent import RandomAgent
from baselines.arena import play_game
from baselines.search.rmcts import (
    PRESETS,
    RMCTS_SEARCH_SPACE,
    Node,
    RinascimentoMCTSAgent,
    _Search,
    parse_rmcts_params,
)
from boardenvs import make_game
from tests.test_rhea import CountingGame, _scoring_position, tictactoe_position


class OwnMoveCounter(CountingGame):
    """Counts every ``apply`` and those of one player."""

    def __init__(self, game: Any, player: int) -> None:
        super().__init__(game)
        self.player, self.own = player, 0

    def apply(self, state: Any, action: int) -> Any:
        self.own += int(state.current_player == self.player)
        return super().apply(state, action)


def splendor_search(**params: Any) -> _Search:
    game = make_game("splendor", preset="rinascimento")
    state = game.initial_state(np.random.default_rng(0))
    return _Search(RinascimentoMCTSAgent(seed=0, **params), game, state, state.current_player)


def test_the_defaults_are_mcts_star_and_java_is_the_java_defaults() -> None:
    p = RinascimentoMCTSAgent(seed=0).params
    assert (p.exploration, p.depth, p.opponent_model, p.opponent_budget_share) == (0.0, 1, "nothing", 0.05)
    assert (p.expansion_probability, p.progression_size, p.epsilon) == (0.4, 1, 1e-6)
    assert (p.recommendation, p.roll_with_opponents, p.budget, p.value) == ("ucb", False, 1000, "score")
    java = parse_rmcts_params(preset="java")
    assert (java.exploration, java.depth, java.expansion_probability, java.progression_size) == (1.41, 20, 0.2, 10)
    assert set(PRESETS) == {"mcts_r1", "java"}
    assert [parse_rmcts_params(recommendation=n).recommendation for n in (0, "1", 2)] == ["value", "visits", "ucb"]
    for name, values in RMCTS_SEARCH_SPACE.items():
        for value in values:
            parse_rmcts_params(**{name: str(value)})


def test_widening_adds_at_most_progression_size_new_children_and_plays_one_of_them() -> None:
    search = splendor_search(progression_size=3)
    legal = np.flatnonzero(search.game.legal_action_mask(search.view))
    node = Node(-1, None)
    for _ in range(10):
        before = set(node.children)
        child = search.widen(node, legal)
        added = set(node.children) - before
        assert len(added) <= 3 and (child is None) == (not added)
        assert child is None or (child.action in added and child.parent is node and child.depth == 1)
    assert set(node.children) <= set(legal.tolist())
    full = Node(-1, None)
    full.children = {int(a): Node(int(a), full) for a in legal}
    assert search.widen(full, legal) is None  # nothing new: the caller falls back to UCB


def test_ucb_selects_the_best_legal_child_not_the_last_one() -> None:
    search = splendor_search(exploration=0.0)
    legal = np.flatnonzero(search.game.legal_action_mask(search.view))
    root = Node(-1, None)
    for action, value in zip(legal[:4].tolist(), (1.0, 5.0, 2.0, 0.5)):
        root.children[action] = child = Node(action, root)
        child.n, child.value = 2, value
    root.n = 8
    assert search.select(root, legal).action == int(legal[1])  # Java's missing braces return the last child
    assert search.select(root, legal[2:]).action == int(legal[2])  # only children legal here compete


def test_exploration_favours_the_less_visited_child() -> None:
    search = splendor_search(exploration=1.41)
    legal = np.flatnonzero(search.game.legal_action_mask(search.view))
    root = Node(-1, None)
    for action, visits in zip(legal[:2].tolist(), (50, 2)):
        root.children[action] = child = Node(action, root)
        child.n, child.value = visits, 0.5 * visits
    root.n = 52
    assert search.select(root, legal).action == int(legal[1])


@pytest.mark.parametrize("depth", [1, 3])
def test_a_simulation_holds_depth_own_decisions(depth: int) -> None:
    game = make_game("splendor", preset="rinascimento")
    state = game.initial_state(np.random.default_rng(0))
    counter = OwnMoveCounter(game, state.current_player)
    agent = RinascimentoMCTSAgent(seed=0, depth=depth, budget=400)
    agent.act(counter, state, state.current_player)
    simulations = agent.last_root.n
    assert simulations > 0 and depth * simulations <= counter.own < depth * (simulations + 1)


@pytest.mark.parametrize("budget", [1, 37, 1000])
@pytest.mark.parametrize("opponents", [{"opponent_model": "osla"}, {"roll_with_opponents": True, "depth": 5}], ids=str)
def test_the_action_budget_bounds_forward_model_calls(budget: int, opponents: dict) -> None:
    game = CountingGame(make_game("splendor"))
    state = game.initial_state(np.random.default_rng(0))
    agent = RinascimentoMCTSAgent(seed=0, budget=budget, **opponents)
    action = agent.act(game, state, state.current_player)
    assert game.game.legal_action_mask(state)[action]
    assert game.applies <= budget


def test_every_simulation_determinizes_the_view() -> None:
    game = CountingGame(make_game("splendor"))
    state = game.initial_state(np.random.default_rng(0))
    agent = RinascimentoMCTSAgent(seed=0, budget=100)
    agent.act(game, state, state.current_player)
    assert game.determinizations in (agent.last_root.n, agent.last_root.n + 1)  # the last one may be dropped


@pytest.mark.parametrize("how", ["value", "visits", "ucb"])
def test_recommendation(how: str) -> None:
    search = splendor_search(recommendation=how, exploration=1.0)
    legal = np.flatnonzero(search.game.legal_action_mask(search.view))
    root = search.root
    for action, (visits, value) in zip(legal[:3].tolist(), ((10, 1.0), (3, 2.4), (1, 0.5))):
        root.children[action] = child = Node(action, root)
        child.n, child.value = visits, value
    root.n = 14
    expected = {"value": legal[1], "visits": legal[0], "ucb": legal[2]}[how]
    assert search.recommend(legal) == int(expected)
    assert search.recommend(legal[3:]) is None


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_takes_the_immediate_win(seed: int) -> None:
    game = make_game("toy_tictactoe")
    state = tictactoe_position("xx.oo....", to_move=0)
    assert RinascimentoMCTSAgent(seed=seed, value="score_diff", budget=200).act(game, state, 0) == 2


@pytest.mark.parametrize("params", [{}, {"value": "score_diff"}, {"depth": 2, "exploration": 1.41}], ids=str)
def test_takes_a_scoring_move_in_splendor(params: dict) -> None:
    game, state = _scoring_position(4)
    player = state.current_player
    action = RinascimentoMCTSAgent(seed=0, **params).act(game, state, player)
    assert game.scores(game.apply(state, action))[player] > game.scores(state)[player]


def test_reproducible_for_a_fixed_seed() -> None:
    game = make_game("splendor", preset="rinascimento")
    records = [play_game(game, [RinascimentoMCTSAgent(seed=0, budget=60), RandomAgent(1)], 7) for _ in range(2)]
    assert records[0].actions == records[1].actions


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"depth": 0}, "depth must be an int in 1..1000"),
        ({"progression_size": 0}, "progression_size must be an int"),
        ({"expansion_probability": 1.5}, r"expansion_probability must be a number in \[0.0, 1.0\]"),
        ({"recommendation": 3}, r"recommendation must be one of \['value', 'visits', 'ucb'\]"),
        ({"opponent_model": "smart"}, "opponent_model must be one of"),
        ({"value": "ef"}, r"value must be one of \['score', 'score_diff'\]"),
        ({"budget": 0.5}, "budget must be >= 1 simulated action"),
        ({"preset": "best"}, "preset must be one of"),
        ({"c": 1}, r"unknown rmcts parameter 'c'; allowed: \["),
    ],
)
def test_bad_values_raise_naming_the_parameter(kwargs: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        RinascimentoMCTSAgent(**kwargs)


def test_wrong_player_raises() -> None:
    game = make_game("toy_tictactoe")
    with pytest.raises(ValueError, match="not to move"):
        RinascimentoMCTSAgent().act(game, tictactoe_position(".........", 0), 1)
