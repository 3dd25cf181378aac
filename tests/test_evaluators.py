"""Tests of baselines.search.evaluators and of the value functions, priors and playouts in baselines.games."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from baselines.games import GAMES, fast_playout, games_with_values
from baselines.games.quoridor import quoridor_playout, quoridor_priors
from baselines.search.evaluators import (
    EVALUATORS,
    HeuristicEvaluator,
    RolloutEvaluator,
    heuristic_value,
    make_evaluator,
)
from baselines.search.playout import UniformStream, random_playout
from baselines.search.values import lead_values, score_value
from boardenvs import make_game
from tests.toy_games import CountDown, TicTacToe

CASES = [
    ("quoridor", "2p"),
    ("quoridor", "4p"),
    ("battle_sheep", "basic"),
    ("battle_sheep", "teams"),
    ("splendor", "2p"),
    ("splendor", "4p"),
    ("gravwell", "3p"),
    ("node_conquest", "small"),
    ("node_conquest", "4p"),
]


def random_states(game, seed: int, every: int = 3):
    """States along one uniformly random game, the terminal one last."""
    rng = np.random.default_rng(seed)
    state = game.initial_state(rng)
    states = [state]
    while not game.is_terminal(state):
        actions = game.legal_actions(state)
        state = game.apply(state, int(actions[rng.integers(len(actions))]))
        if state.ply % every == 0 or game.is_terminal(state):
            states.append(state)
    return states


# -- heuristics -----------------------------------------------------------------------------------
def test_every_game_of_the_brief_has_a_heuristic() -> None:
    assert set(games_with_values()) == {"quoridor", "battle_sheep", "splendor", "gravwell", "node_conquest"}
    assert set(GAMES) == set(games_with_values())


@pytest.mark.parametrize(("name", "preset"), CASES, ids=[f"{n}-{p}" for n, p in CASES])
def test_heuristic_values_are_one_bounded_entry_per_player_and_returns_at_the_end(name: str, preset: str) -> None:
    game = make_game(name, preset)
    states = random_states(game, seed=0, every=7 if name == "battle_sheep" else 15)
    for state in states:
        values = heuristic_value(game, state)
        assert values.shape == (game.spec.num_players,) and np.all(np.abs(values) <= 1.0)
    assert np.array_equal(heuristic_value(game, states[-1]), game.returns(states[-1]))
    assert any(np.any(heuristic_value(game, state) != 0) for state in states[:-1])


def test_a_game_without_heuristic_is_named_with_the_games_that_have_one() -> None:
    game = TicTacToe()
    with pytest.raises(ValueError, match=r"toy_tictactoe.*battle_sheep.*quoridor"):
        heuristic_value(game, game.initial_state(np.random.default_rng(0)))
    with pytest.raises(ValueError, match="toy_tictactoe"):
        HeuristicEvaluator().check(game)


def test_quoridor_values_favour_the_shorter_path_the_tempo_and_walls_in_stock() -> None:
    game = make_game("quoridor", board_size=5)
    start = game.initial_state()
    values = heuristic_value(game, start)
    assert values[0] > 0 and values[0] == pytest.approx(-values[1])  # the player to move is half a step ahead
    ahead = game.position(["c2", "c1"], to_move=1)  # player 0 one step from row 1, player 1 four from row 5
    assert heuristic_value(game, ahead)[0] > 0.5
    fewer_walls = game.position(["c5", "c1"], to_move=0, walls_left=[0, 3])
    assert heuristic_value(game, fewer_walls)[0] < values[0]


def test_quoridor_priors_put_the_winning_step_first_and_forward_steps_before_walls() -> None:
    game = make_game("quoridor", board_size=5)
    state = game.position(["b2", "d3"], to_move=0)
    priors = quoridor_priors(game, state)
    legal = game.legal_action_mask(state)
    assert priors.sum() == pytest.approx(1.0) and np.all(priors[~legal] == 0) and np.all(priors[legal] > 0)
    assert int(np.argmax(priors)) == game.parse_action(state, "b1")
    start = game.initial_state()
    opening = quoridor_priors(game, start)
    assert opening[game.parse_action(start, "c4")] > opening[game.parse_action(start, "b5")]
    assert opening[game.parse_action(start, "b5")] > opening[game.parse_action(start, "a1h")]


def test_the_heuristic_evaluator_gives_priors_only_where_a_game_has_them() -> None:
    quoridor, conquest = make_game("quoridor", board_size=5), make_game("node_conquest", "small")
    values, priors = HeuristicEvaluator().evaluate(quoridor, quoridor.initial_state())
    assert priors is not None and priors.shape == (quoridor.spec.num_actions,) and values.shape == (2,)
    assert HeuristicEvaluator().evaluate(conquest, conquest.initial_state())[1] is None


def test_node_conquest_values_are_the_share_of_nodes_and_units() -> None:
    game = make_game("node_conquest", "small")
    start = game.initial_state()
    assert heuristic_value(game, start).tolist() == pytest.approx([0.0, 0.0])
    state = start.copy()
    state.owner[1], state.units[1] = 0, 5
    values = heuristic_value(game, state)
    assert values[0] > 0 and values[0] == pytest.approx(-values[1])


def test_splendor_values_rank_points_and_engine() -> None:
    game = make_game("splendor", "2p")
    state = game.initial_state(np.random.default_rng(0))
    richer = state.copy()
    richer.players[1, 11] += 3
    assert heuristic_value(game, richer)[1] > 0 > heuristic_value(game, richer)[0]
    engine = state.copy()
    engine.players[0, 6:11] += 1
    assert heuristic_value(game, engine)[0] > 0


def test_gravwell_values_follow_the_ships_lead() -> None:
    game = make_game("gravwell", "3p")
    state = game.initial_state(np.random.default_rng(0))
    state.pos[:3] = [30, 20, 5]
    values = heuristic_value(game, state)
    assert values[0] > 0 > values[1] > values[2]


def test_battle_sheep_values_follow_seed_003s_evaluation_score() -> None:
    from baselines.games.battle_sheep import evaluation_score

    game = make_game("battle_sheep", "basic")
    state = random_states(game, seed=3, every=10)[-2]
    scores = [evaluation_score(game, state, p) for p in range(4)]
    values = heuristic_value(game, state)
    assert np.argsort(values, kind="stable").tolist() == np.argsort(scores, kind="stable").tolist()


def test_lead_and_score_values() -> None:
    assert lead_values([3.0, 1.0, 1.0], 1.0).tolist() == pytest.approx([np.tanh(2), np.tanh(-2), np.tanh(-2)])
    game = make_game("node_conquest", "4p")
    state = game.initial_state()
    state.owner[1] = 0
    values = score_value(game, state)  # scores: nodes owned 2, 1, 1, 1
    assert values.tolist() == pytest.approx([1.0, -1.0, -1.0, -1.0])
    toy = TicTacToe()
    assert score_value(toy, toy.initial_state(np.random.default_rng(0))).tolist() == [0.0, 0.0]


# -- evaluators -----------------------------------------------------------------------------------
def test_rollouts_are_reproducible_and_end_the_game() -> None:
    game = make_game("quoridor", board_size=5)
    start = game.initial_state()
    first, second = RolloutEvaluator(seed=4), RolloutEvaluator(seed=4)
    a = [first.evaluate(game, start)[0].tolist() for _ in range(10)]
    b = [second.evaluate(game, start)[0].tolist() for _ in range(10)]
    assert a == b and all(sorted(v) in ([-1.0, 1.0], [0.0, 0.0]) for v in a)
    assert first.evaluate(game, start)[1] is None


def test_a_depth_cap_values_the_position_by_the_heuristic_or_the_scores() -> None:
    game = make_game("quoridor", board_size=9)
    start = game.initial_state()
    value, _ = RolloutEvaluator(depth=1, seed=0).evaluate(game, start)
    assert np.all(np.abs(value) < 1) and value[0] == pytest.approx(-value[1])
    toy = CountDown(num_players=3, start=30)
    capped, _ = RolloutEvaluator(depth=2, seed=0).evaluate(toy, toy.initial_state(np.random.default_rng(0)))
    assert capped.tolist() == [0.0, 0.0, 0.0]  # no heuristic, scores are the returns: zeros before the end
    averaged, _ = RolloutEvaluator(depth=3, rollouts=4, seed=0).evaluate(game, start)
    assert averaged.shape == (2,)


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [({"depth": 0}, "depth"), ({"rollouts": 0}, "rollouts"), ({"cutoff": "zero"}, "cutoff")],
)
def test_rollout_evaluator_rejects_bad_settings(kwargs: dict, match: str) -> None:
    with pytest.raises(ValueError, match=match):
        RolloutEvaluator(**kwargs)


def test_make_evaluator_knows_the_names() -> None:
    assert sorted(EVALUATORS) == ["heuristic", "rollout"]
    assert isinstance(make_evaluator("rollout", depth=5), RolloutEvaluator)
    assert isinstance(make_evaluator("heuristic"), HeuristicEvaluator)
    with pytest.raises(ValueError, match="evaluator must be one of"):
        make_evaluator("network")


def test_the_fast_quoridor_playout_plays_uniformly_random_legal_moves() -> None:
    assert fast_playout("quoridor") is quoridor_playout
    game = make_game("quoridor", board_size=5)
    state = game.position(["c3", "c2"], ["b3h"], to_move=0)  # pawn moves, a jump, walls
    successors = {game.apply(state, int(a)).key(): int(a) for a in game.legal_actions(state)}
    stream = UniformStream(np.random.default_rng(0))
    draws = 60 * len(successors)
    counts = Counter(successors[quoridor_playout(game, state, stream, 1).key()] for _ in range(draws))
    assert set(counts) == set(successors.values())  # every successor is a legal move's, and every legal move occurs
    assert max(counts.values()) < 2 * 60 and min(counts.values()) > 60 // 2


def test_fast_and_generic_playouts_reach_the_end_with_legal_moves() -> None:
    game = make_game("quoridor", board_size=5)
    for play in (quoridor_playout, random_playout):
        stream = UniformStream(np.random.default_rng(1))
        final = play(game, game.initial_state(), stream, -1)
        assert game.is_terminal(final)
        three = play(game, game.initial_state(), stream, 3)
        assert three.ply == 3 and not game.is_terminal(three)
