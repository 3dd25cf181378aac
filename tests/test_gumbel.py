"""Gumbel root search: the sequential-halving schedule, completed Q and the improved policy, and the search
in MCTSAgent (``selection="gumbel"``) on positions with a known best move."""

from __future__ import annotations

import math

import numpy as np
import pytest

import tests.toy_games  # noqa: F401  (registers the toy games)
from baselines.search import gumbel
from baselines.search.evaluators import Evaluator
from baselines.search.mcts import MCTSAgent
from boardenvs.registry import make_game


# -- the arithmetic ----------------------------------------------------------------------------------
@pytest.mark.parametrize(("considered", "simulations"), [(1, 5), (2, 7), (4, 8), (16, 32), (16, 8), (5, 100)])
def test_halving_schedule_has_one_entry_per_simulation_and_halves_the_candidates(considered, simulations) -> None:
    schedule = gumbel.halving_schedule(considered, simulations)
    assert len(schedule) == simulations
    counts = [schedule.count(visits) for visits in range(max(schedule) + 1)] if schedule else []
    assert counts == sorted(counts, reverse=True)  # never more actions at a higher visit count
    if considered > 1 and simulations >= considered:
        assert counts[0] == considered  # every considered action gets its first visit
    assert all(count >= 2 or considered == 1 or visits == max(schedule) for visits, count in enumerate(counts))


def test_halving_schedule_with_fewer_simulations_than_actions_visits_the_first_ones_once() -> None:
    assert gumbel.halving_schedule(16, 3) == [0, 0, 0]
    assert gumbel.halving_schedule(4, 0) == []
    with pytest.raises(ValueError, match="considered"):
        gumbel.halving_schedule(0, 4)


def test_completed_values_fill_unvisited_actions_with_the_mixed_value() -> None:
    priors, visits, values = [0.5, 0.3, 0.2], [2, 0, 1], [0.4, 0.0, -0.2]
    completed = gumbel.completed_values(priors, visits, values, node_value=0.1)
    mean = (0.5 * 0.4 + 0.2 * -0.2) / 0.7
    mixed = (0.1 + 3 * mean) / 4
    assert completed[0] == 0.4 and completed[2] == -0.2
    assert math.isclose(completed[1], mixed)
    assert gumbel.completed_values(priors, [0, 0, 0], values, node_value=0.3) == [0.3, 0.3, 0.3]


def test_improved_policy_is_the_prior_before_any_visit_and_moves_towards_better_values() -> None:
    priors = [0.6, 0.3, 0.1]
    unchanged = gumbel.improved_policy(priors, [0, 0, 0], [0, 0, 0], 0.0, 50.0, 0.1)
    assert np.allclose(unchanged, priors)
    improved = gumbel.improved_policy(priors, [1, 1, 1], [-1.0, -1.0, 1.0], 0.0, 50.0, 0.1)
    assert math.isclose(sum(improved), 1.0) and improved[2] > 0.9  # the one winning action dominates


def test_interior_choice_visits_the_action_furthest_below_its_policy_share() -> None:
    assert gumbel.interior_choice([0.5, 0.5], [3, 1]) == 1
    assert gumbel.interior_choice([0.9, 0.1], [0, 0]) == 0


# -- the search ----------------------------------------------------------------------------------------
class UniformEvaluator(Evaluator):
    """Uniform priors and value 0 for everyone: only terminal states carry information."""

    name = "uniform"

    def evaluate(self, game, state):
        return np.zeros(game.spec.num_players), np.full(game.spec.num_actions, 1.0 / game.spec.num_actions)


def tictactoe_win_in_one():
    """Player 0 to move with X on cells 0 and 1 (cell 2 wins), O on 3 and 4 (O threatens cell 5)."""
    game = make_game("toy_tictactoe")
    state = game.initial_state(np.random.default_rng(0))
    for action in (0, 3, 1, 4):
        state = game.apply(state, action)
    return game, state


@pytest.mark.parametrize("batch_size", [1, 4])
def test_gumbel_search_finds_the_winning_move_and_its_target_prefers_it(batch_size) -> None:
    game, state = tictactoe_win_in_one()
    agent = MCTSAgent(0, simulations=16, evaluator=UniformEvaluator(), selection="gumbel", batch_size=batch_size)
    assert agent.act(game, state, 0) == 2
    target = agent.last_search.policy(game.spec.num_actions)
    legal = game.legal_action_mask(state)
    assert math.isclose(float(target.sum()), 1.0, rel_tol=1e-6) and not target[~legal].any()
    assert target[2] == target.max() and target[2] > 1.0 / legal.sum()
    assert agent.last_search.simulations == 16 and sum(agent.last_search.visits.values()) == 15  # + the root


def test_gumbel_search_with_one_simulation_plays_a_legal_move_from_the_prior() -> None:
    game, state = tictactoe_win_in_one()
    agent = MCTSAgent(3, simulations=1, evaluator=UniformEvaluator(), selection="gumbel")
    assert game.legal_action_mask(state)[agent.act(game, state, 0)]
    assert np.allclose(agent.last_search.policy(9)[game.legal_action_mask(state)], 1 / 5)


def test_gumbel_search_is_reproducible_from_its_seed() -> None:
    game = make_game("node_conquest", rows=3, cols=3)
    state = game.initial_state(np.random.default_rng(0))
    moves = [MCTSAgent(7, simulations=12, selection="gumbel", batch_size=3).act(game, state, 0) for _ in range(2)]
    assert moves[0] == moves[1]


@pytest.mark.parametrize(("name", "config"), [("gravwell", {}), ("splendor", {}), ("quoridor", {"board_size": 5})])
def test_gumbel_search_plays_legal_moves_with_determinizations(name, config) -> None:
    game = make_game(name, **config)
    agent = MCTSAgent(1, simulations=10, selection="gumbel", evaluator="heuristic", determinizations=3, batch_size=2)
    rng = np.random.default_rng(2)
    state = game.initial_state(rng)
    for _ in range(4):
        player = state.current_player
        action = agent.act(game, game.determinize(state, player, rng), player)
        assert game.legal_action_mask(state)[action]
        target = agent.last_search.policy(game.spec.num_actions)
        assert math.isclose(float(target.sum()), 1.0, rel_tol=1e-6)
        state = game.apply(state, action)


@pytest.mark.parametrize(
    ("name", "config", "simulations", "determinizations"),
    [("node_conquest", {}, 7, 1), ("node_conquest", {}, 40, 1), ("splendor", {}, 25, 3), ("quoridor", {}, 30, 1)],
)
def test_root_scores_of_the_considered_actions_alone_equal_those_over_every_legal_action(
    name, config, simulations, determinizations
) -> None:
    """The per-simulation root choice reads the considered actions' scores computed without the unvisited
    others (one stand-in holds their completed value): exactly the numbers of the full computation."""
    game = make_game(name, **config)
    agent = MCTSAgent(
        5, simulations=simulations, selection="gumbel", evaluator="heuristic", gumbel_actions=4,
        determinizations=determinizations,
    )  # fmt: skip
    rng = np.random.default_rng(3)
    state, left_out = game.initial_state(rng), 0
    for _ in range(3):
        player = state.current_player
        root = agent.search(game, game.determinize(state, player, rng), player)
        actions, _, considered = agent._gumbel_root
        left_out += len(actions) > len(considered)
        full_visits, full_scores, _ = agent._gumbel_scores(game, root, player)
        visits, scores = agent._considered_scores(game, root, player)
        assert {i: full_visits[i] for i in considered} == {i: visits[i] for i in considered}
        assert {i: full_scores[i] for i in considered} == {i: scores[i] for i in considered}
        assert sum(visits.values()) == sum(full_visits) > 0
        state = game.apply(state, agent._gumbel_final(game, root, player)[0])
    assert left_out  # some root actions were left out of the considered ones


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"temperature": 1.0}, "temperature=1.0 does not apply to selection='gumbel'"),
        ({"dirichlet_fraction": 0.25}, "dirichlet_fraction"),
        ({"reuse_tree": True}, "reuse_tree"),
        ({"simulations": None, "seconds": 1.0}, "give simulations"),
        ({"simulations": 0}, r"simulations must be an int in 1\.\.\d+"),
        ({"gumbel_actions": 0}, "gumbel_actions"),
        ({"gumbel_c_scale": 0}, "gumbel_c_scale"),
        ({"selection": "gumble"}, "selection"),
    ],
)
def test_gumbel_settings_that_mean_nothing_are_refused_by_name(settings, message) -> None:
    with pytest.raises(ValueError, match=message):
        MCTSAgent(0, **{"selection": "gumbel", "simulations": 8, **settings})
