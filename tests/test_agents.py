"""Tests of the baseline agents: RandomAgent, make_agent, and the Quoridor PathAgent and HeuristicAgent."""

from __future__ import annotations

import numpy as np
import pytest

from baselines import BaseAgent, RandomAgent, agent_choices, make_agent, play_game
from baselines.factory import parse_spec, parse_value
from baselines.games import GAMES, scripted_agents
from baselines.games.quoridor.agents import (
    HeuristicAgent,
    PathAgent,
    blocking_walls,
    closest_opponent,
    on_start_line,
)
from boardenvs import make_game
from tests.toy_games import TicTacToe


def play(game, moves: list[str]):
    """The position after the moves, given in notation, from the start."""
    state = game.initial_state(np.random.default_rng(0))
    for move in moves:
        state = game.apply(state, game.parse_action(state, move))
    return state


def win_share(game, agent_name: str, against: str, num_seeds: int = 10) -> float:
    """The share of 2 * num_seeds games (both seats per seed) that ``agent_name`` wins."""
    wins = 0
    for seed in range(num_seeds):
        for seat in (0, 1):
            seats = [make_agent(against, "quoridor"), make_agent(against, "quoridor")]
            seats[seat] = make_agent(agent_name, "quoridor")
            wins += play_game(game, seats, seed).returns[seat] > 0
    return wins / (2 * num_seeds)


@pytest.fixture(scope="module")
def small() -> object:
    return make_game("quoridor", board_size=5)


# -- RandomAgent, BaseAgent, make_agent -----------------------------------------------------------
@pytest.mark.parametrize("game", [TicTacToe(), make_game("quoridor", board_size=5)], ids=["toy", "quoridor"])
def test_random_agent_only_plays_legal_moves(game) -> None:
    agent = RandomAgent(seed=0)
    for game_index in range(5):
        state = game.initial_state(np.random.default_rng(game_index))
        while not game.is_terminal(state):
            action = agent.act(game, state.copy(), state.current_player)
            assert game.legal_action_mask(state)[action]
            state = game.apply(state, action)


def test_random_agent_is_reproducible_by_seed(small) -> None:
    first = play_game(small, [RandomAgent(7), RandomAgent(8)], seed=3).actions
    again = play_game(small, [RandomAgent(1), RandomAgent(2)], seed=3).actions  # play_game reseeds
    state = small.initial_state(np.random.default_rng(0))
    same_seed = [RandomAgent(5).act(small, state, 0) for _ in range(3)]
    assert first == again
    assert len(set(same_seed)) == 1


def test_reseed_restarts_the_generator() -> None:
    agent = RandomAgent(seed=1)
    draws = agent.rng.random(3)
    agent.reseed(1)
    assert np.array_equal(agent.rng.random(3), draws)


def test_base_agent_uses_a_given_generator_as_is() -> None:
    generator = np.random.default_rng(0)
    assert BaseAgent(generator).rng is generator
    assert BaseAgent(name="custom").name == "custom"


def test_make_agent_builds_named_agents() -> None:
    assert isinstance(make_agent("random", "quoridor", 0), RandomAgent)
    assert isinstance(make_agent("path", "quoridor", 0), PathAgent)
    heuristic = make_agent("heuristic", "quoridor", 0)
    assert isinstance(heuristic, HeuristicAgent) and heuristic.name == "heuristic"
    assert set(agent_choices("quoridor")) == {"random", "mcts", "rhea", "alphabeta", "path", "heuristic"}
    assert scripted_agents("quoridor") == GAMES["quoridor"].agents


def test_make_agent_rejects_unknown_names_listing_the_choices() -> None:
    choices = (
        r"\['alphabeta', 'alphazero', 'dqn', 'heuristic', 'mcts', 'path', 'ppo', 'qlnn', 'random', 'rhea', "
        r"'tabular_q'\]"
    )
    with pytest.raises(ValueError, match=rf"unknown agent 'no_such_agent'.*{choices}"):
        make_agent("no_such_agent", "quoridor")
    toy_choices = r"\['alphabeta', 'alphazero', 'dqn', 'mcts', 'ppo', 'qlnn', 'random', 'rhea', 'tabular_q'\]"
    with pytest.raises(ValueError, match=rf"choices: {toy_choices}"):
        make_agent("path", "toy_tictactoe")


def test_make_agent_builds_a_search_agent_with_settings() -> None:
    agent = make_agent("mcts:simulations=30:evaluator=heuristic:selection=puct", "quoridor", seed=1)
    assert agent.name == "mcts:simulations=30:evaluator=heuristic:selection=puct"
    game = make_game("quoridor", board_size=5)
    state = game.initial_state(np.random.default_rng(0))
    assert game.legal_action_mask(state)[agent.act(game, state, 0)]
    with pytest.raises(ValueError, match="simulations"):
        make_agent("mcts:simulations=0", "quoridor")
    with pytest.raises(ValueError, match=r"agent 'mcts' does not take the settings \['depth'\]"):
        make_agent("mcts:depth=3", "quoridor")


# -- PathAgent ------------------------------------------------------------------------------------
def test_path_agent_reduces_its_distance_on_an_open_board() -> None:
    game = make_game("quoridor")
    agent, other = PathAgent(seed=0), PathAgent(seed=1)
    state = game.initial_state(np.random.default_rng(0))
    for _ in range(6):  # the pawns have not met yet: every move gets one step closer
        before = game.distance_to_goal(state, 0)
        state = game.apply(state, agent.act(game, state, 0))
        assert game.distance_to_goal(state, 0) == before - 1
        state = game.apply(state, other.act(game, state, 1))


def test_path_agent_goes_around_a_wall(small) -> None:
    state = play(small, ["c4", "c2h", "b4", "b1"])  # wall under c2-d2 blocks column c; b is open
    move = PathAgent(seed=0).act(small, state, 0)
    assert small.decode(state, move).kind == "pawn"
    assert small.distance_to_goal(small.apply(state, move), 0) == small.distance_to_goal(state, 0) - 1


def test_path_agent_beats_random(small) -> None:
    assert win_share(small, "path", "random") >= 0.9


# -- HeuristicAgent, rule by rule ------------------------------------------------------------------
def test_heuristic_without_walls_follows_the_path() -> None:
    game = make_game("quoridor", board_size=5, walls_per_player=0)
    state = play(game, ["c4", "c2"])
    rule, move = HeuristicAgent(seed=0).decide(game, state, 0)
    assert rule == 1
    assert game.distance_to_goal(game.apply(state, move), 0) == 2


def test_heuristic_wins_in_one_when_one_step_away(small) -> None:
    state = play(small, ["c4", "b1", "c3", "a1", "c2", "a2"])
    assert small.distance_to_goal(state, 0) == 1
    rule, move = HeuristicAgent(seed=0).decide(small, state, 0)
    assert rule == 2 and small.action_to_str(state, move) == "c1"
    after = small.apply(state, move)
    assert small.is_terminal(after) and small.returns(after)[0] == 1


def test_heuristic_follows_the_path_from_its_starting_line(small) -> None:
    start = small.initial_state(np.random.default_rng(0))
    assert on_start_line(small, start, 0)
    rule, move = HeuristicAgent(seed=0).decide(small, start, 0)
    assert rule == 3 and small.action_to_str(start, move) == "c4"
    after_first = small.apply(start, move)
    rule, move = HeuristicAgent(seed=0).decide(small, after_first, 1)
    assert rule == 3 and small.action_to_str(after_first, move) == "c2"


def test_heuristic_walls_in_the_opponent_off_its_starting_line(small) -> None:
    state = play(small, ["c4", "c2"])
    agent = HeuristicAgent(seed=0, path_probability=0.0)  # rule 4 never prefers the path
    rule, move = agent.decide(small, state, 0)
    after = small.apply(state, move)
    assert rule == 5 and small.decode(state, move).kind == "wall"
    assert small.distance_to_goal(after, 1) > small.distance_to_goal(state, 1)
    assert small.distance_to_goal(after, 0) <= small.distance_to_goal(state, 0)


def test_heuristic_places_a_wall_that_lengthens_the_opponent_path_most(small) -> None:
    state = play(small, ["c4", "c2", "b2h", "b2"])  # a wall under b2-c2 already blocks player 1
    effects = blocking_walls(small, state, 0, 1)
    rule, move = HeuristicAgent(seed=0, path_probability=0.0).decide(small, state, 0)
    best = max(effect.opponent_gain for effect in effects if effect.own_gain <= 0)
    assert rule == 5 and {e.action: e.opponent_gain for e in effects}[move] == best


def test_heuristic_often_prefers_the_path_when_there_are_many_ways_to_block(small) -> None:
    state = play(small, ["c4", "c2"])
    assert len(blocking_walls(small, state, 0, 1)) > 2
    rule, move = HeuristicAgent(seed=0, path_probability=1.0).decide(small, state, 0)
    assert rule == 4 and small.decode(state, move).kind == "pawn"
    rules = [HeuristicAgent(seed=seed).decide(small, state, 0)[0] for seed in range(200)]
    assert 0.45 < rules.count(4) / len(rules) < 0.75  # 60% in expectation


def test_the_opponent_with_four_players_is_the_one_closest_to_its_goal() -> None:
    game = make_game("quoridor", board_size=5, num_players=4)
    state = play(game, ["c4", "b3", "c2", "d3"])  # every opponent 3 steps away: the next to move counts
    assert closest_opponent(game, state, 0) == 1
    state = play(game, ["c4", "a2", "b1", "d3"])  # players 1 and 2 step sideways: player 3 is closest
    assert [game.distance_to_goal(state, player) for player in (1, 2, 3)] == [4, 4, 3]
    assert closest_opponent(game, state, 0) == 3


def test_heuristic_beats_random(small) -> None:
    assert win_share(small, "heuristic", "random") >= 0.9


def test_heuristic_beats_path_on_nine_by_nine() -> None:
    assert win_share(make_game("quoridor"), "heuristic", "path", num_seeds=3) >= 0.5


def test_scripted_agents_play_four_player_games_to_the_end() -> None:
    game = make_game("quoridor", board_size=5, num_players=4)
    agents = [make_agent(name, "quoridor") for name in ("heuristic", "path", "random", "heuristic")]
    record = play_game(game, agents, seed=0)
    assert record.plies > 0 and (record.returns.max() == 1 or record.truncated)


# -- agent specs with settings ------------------------------------------------------------------------
def test_parse_spec_reads_typed_settings() -> None:
    name, settings = parse_spec(
        "mcts:simulations=400:exploration=1.5:reuse_tree=false:evaluator=heuristic:seconds=none"
    )
    assert name == "mcts"
    assert settings == {
        "simulations": 400,
        "exploration": 1.5,
        "reuse_tree": False,
        "evaluator": "heuristic",
        "seconds": None,
    }
    assert isinstance(settings["simulations"], int) and parse_value("1e-6") == pytest.approx(1e-6)
    assert parse_spec("random") == ("random", {})


@pytest.mark.parametrize("spec", ["mcts:simulations", "mcts:=3", "mcts:a=1:a=2", "mcts:not a name=1"])
def test_parse_spec_rejects_malformed_settings(spec: str) -> None:
    with pytest.raises(ValueError, match="agent spec"):
        parse_spec(spec)


def test_make_agent_rejects_settings_the_agent_does_not_take() -> None:
    with pytest.raises(ValueError, match=r"agent 'random' does not take the settings \['depth'\]"):
        make_agent("random:depth=3", "quoridor")
