"""Tests of baselines.search.alphabeta: the search core (alpha-beta = minimax, turns that do not alternate, the
paranoid reduction, budgets, seeded ties) and the ``alphabeta`` agent (known answers, refusals, every 2-player
config of every game with a value)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from baselines import RandomAgent, make_agent, play_game
from baselines.games import games_with_values
from baselines.search.alphabeta import AlphaBeta
from baselines.search.alphabeta_agent import AlphaBetaAgent, heuristic_leaf
from boardenvs import make_game
from boardenvs.core import Game
from boardenvs.registry import list_presets
from tests.toy_games import CountDown, CountDownState, TicTacToe


def minimax(game: Game, state: Any, root: int, depth: int, ply: int = 0) -> float:
    """Plain depth-limited minimax from ``root``'s point of view, valued like the agent's leaves."""
    if game.is_terminal(state) or depth == 0:
        return heuristic_leaf(game, state, root, ply)
    values = [minimax(game, game.apply(state, int(a)), root, depth - 1, ply + 1) for a in game.legal_actions(state)]
    return max(values) if state.current_player == root else min(values)


def returns_leaf(game: Game, state: Any, root: int, ply: int) -> float:
    """The root player's returns at the end, 0 before."""
    del ply
    return float(game.returns(state)[root]) if game.is_terminal(state) else 0.0


def random_positions(game: Game, count: int, plies: int) -> list[Any]:
    """``count`` positions after up to ``plies`` random moves from seeded starts (unfinished ones)."""
    positions = []
    for seed in range(count):
        rng = np.random.default_rng(seed)
        state = game.initial_state(rng)
        for _ in range(int(rng.integers(plies + 1))):
            if game.is_terminal(state):
                break
            state = game.apply(state, int(rng.choice(game.legal_actions(state))))
        if not game.is_terminal(state):
            positions.append(state)
    return positions


# -- the search core ------------------------------------------------------------------------------
@pytest.mark.parametrize("ordering", ["auto", "priors", "value", "none"])
@pytest.mark.parametrize(("name", "config", "depth"), [("quoridor", {"board_size": 5}, 2),
                                                        ("node_conquest", {"preset": "small"}, 3)])  # fmt: skip
def test_alpha_beta_finds_the_minimax_value(ordering: str, name: str, config: dict, depth: int) -> None:
    game = make_game(name, **config)
    for state in random_positions(game, 4, 12):
        agent = AlphaBetaAgent(0, depth=depth, ordering=ordering)
        agent.act(game, state, state.current_player)
        if agent.last_search.depth:  # a single legal move is played without a search
            expected = minimax(game, state, state.current_player, agent.last_search.depth)
            assert agent.last_search.value == pytest.approx(expected)


def test_a_player_who_moves_again_stays_the_maximising_side() -> None:
    """Countdown: 1 takes two and moves again, 2 takes one and skips the other player (so moves again), 0
    hands over. At 2 only taking two wins at once; at 3 both 1 and 2 keep the move and win."""
    game = CountDown(num_players=2)
    search = AlphaBeta(returns_leaf, np.random.default_rng(0))
    at_two = search.run(game, CountDownState(2, current_player=0), 0, depth=4)
    assert (at_two.action, at_two.value) == (1, 1.0)
    at_three = search.run(game, CountDownState(3, current_player=1), 1, depth=4)
    assert at_three.action in (1, 2) and at_three.value == 1.0


def test_with_three_players_the_search_is_paranoid() -> None:
    """Countdown, 3 players, counter 3: taking one lets the next player win, skipping lets the one after win;
    only "take two and move again" wins, and every other player counts as an opponent."""
    game = CountDown(num_players=3)
    result = AlphaBeta(returns_leaf, np.random.default_rng(0)).run(game, CountDownState(3, current_player=0), 0, 4)
    assert (result.action, result.value) == (1, 1.0)


def test_allies_maximise_with_the_root_player() -> None:
    """Countdown, 3 players, counter 2, player 1 to move (player 0 searching): taking one (0) lets player 2 win,
    taking two (1) wins for player 1, and taking one and skipping player 2 (2) lets player 0 win. A foe picks
    0 or 1, an ally 2."""
    game = CountDown(num_players=3)
    state = CountDownState(2, current_player=1)
    foe = AlphaBeta(returns_leaf, np.random.default_rng(0)).run(game, state, 0, depth=3)
    ally = AlphaBeta(returns_leaf, np.random.default_rng(0), allies=(1,)).run(game, state, 0, depth=3)
    assert foe.action in (0, 1) and foe.value == -0.5
    assert (ally.action, ally.value) == (2, 1.0)


def test_ties_are_broken_by_the_seeded_generator() -> None:
    game = make_game("quoridor", board_size=5)
    state = game.initial_state(np.random.default_rng(0))
    flat = lambda g, s, r, p: 0.0  # noqa: E731 - every move is worth the same
    moves = {AlphaBeta(flat, np.random.default_rng(seed)).run(game, state, 0, 2).action for seed in range(12)}
    again = {AlphaBeta(flat, np.random.default_rng(seed)).run(game, state, 0, 2).action for seed in range(12)}
    assert len(moves) > 3 and moves == again


def test_a_node_budget_stops_the_search_with_the_best_finished_root_move() -> None:
    game = make_game("quoridor")
    state = game.initial_state(np.random.default_rng(0))
    first = AlphaBetaAgent(3, nodes=60)
    action = first.act(game, state, 0)
    assert first.last_search.nodes <= 60 and not first.last_search.complete
    assert game.legal_action_mask(state)[action]
    assert AlphaBetaAgent(3, nodes=60).act(game, state, 0) == action  # reproducible, unlike a time budget
    tiny = AlphaBetaAgent(0, nodes=1)
    assert game.legal_action_mask(state)[tiny.act(game, state, 0)] and tiny.last_search.nodes == 1


def test_a_time_budget_deepens_iteratively() -> None:
    game = make_game("quoridor", board_size=5)
    state = game.initial_state(np.random.default_rng(0))
    agent = AlphaBetaAgent(0, seconds=0.3)
    assert game.legal_action_mask(state)[agent.act(game, state, 0)]
    assert agent.last_search.depth >= 2 and agent.last_search.seconds < 1.5


def test_the_search_stops_deepening_when_every_line_ends() -> None:
    game = CountDown(num_players=2)
    result = AlphaBeta(returns_leaf, np.random.default_rng(0)).run(game, CountDownState(2, current_player=0), 0, 50)
    assert result.depth <= 3 and result.complete


# -- the agent ------------------------------------------------------------------------------------
def test_it_takes_a_win_in_one_at_quoridor() -> None:
    game = make_game("quoridor", board_size=5)
    state = game.position(["b2", "d4"], to_move=0)
    for seed in range(3):
        assert game.action_to_str(state, AlphaBetaAgent(seed, depth=3).act(game, state, 0)) == "b1"


def test_it_blocks_a_loss_in_one_at_quoridor() -> None:
    """Player 1 on a4 reaches row 5 next move; only the wall a4h stops it (see tests/test_mcts.py)."""
    game = make_game("quoridor", board_size=5)
    state = game.position(["e3", "a4"], to_move=0, walls_left=[1, 0])
    for seed in range(3):
        assert game.action_to_str(state, AlphaBetaAgent(seed, depth=2).act(game, state, 0)) == "a4h"


def test_make_agent_builds_it_with_settings() -> None:
    agent = make_agent("alphabeta:depth=3", "quoridor", seed=0)
    assert isinstance(agent, AlphaBetaAgent) and agent.name == "alphabeta:depth=3" and agent.depth == 3
    timed = make_agent("alphabeta:seconds=0.5:nodes=100:ordering=value", "node_conquest")
    assert (timed.depth, timed.seconds, timed.nodes, timed.ordering) == (None, 0.5, 100, "value")
    assert AlphaBetaAgent().depth == 3


@pytest.mark.parametrize(
    ("settings", "named"),
    [({"depth": 0}, "depth"), ({"nodes": 0}, "nodes"), ({"seconds": 0}, "seconds"), ({"ordering": "best"}, "ordering")],
)
def test_bad_settings_raise_value_errors_naming_them(settings: dict, named: str) -> None:
    with pytest.raises(ValueError, match=named):
        AlphaBetaAgent(0, **settings)


@pytest.mark.parametrize(("name", "config"), [("quoridor", {"num_players": 4, "board_size": 5}),
                                              ("battle_sheep", {}), ("splendor", {"preset": "3p"})])  # fmt: skip
def test_it_refuses_games_with_more_than_two_players(name: str, config: dict) -> None:
    game = make_game(name, **config)
    state = game.initial_state(np.random.default_rng(0))
    players = game.spec.num_players
    with pytest.raises(ValueError, match=rf"2-player games.*num_players={players}"):
        AlphaBetaAgent(0).act(game, state, state.current_player)


def test_it_refuses_a_game_without_a_value() -> None:
    game = TicTacToe()
    with pytest.raises(ValueError, match=r"no heuristic value for game 'toy_tictactoe'.*quoridor"):
        AlphaBetaAgent(0).act(game, game.initial_state(np.random.default_rng(0)), 0)


def test_it_is_deterministic_given_the_seed() -> None:
    game = make_game("node_conquest", preset="small")
    games = [play_game(game, [AlphaBetaAgent(1, depth=2), RandomAgent(2)], seed=5).actions for _ in range(2)]
    assert games[0] == games[1]


def two_player_configs() -> list[Any]:
    """Every preset of every game with a value, and a few more Battle Sheep configs (the agent's refusal of the
    presets with more players is tested there too)."""
    cases = [(name, {"preset": preset}) for name in games_with_values() for preset in list_presets(name)]
    cases += [("battle_sheep", config) for config in (
        {"num_players": 2},
        {"board_size": 6, "field_size": 16, "num_players": 2, "sheep_per_player": 5, "hidden_counts": True},
        {"board_size": 6, "field_size": 16, "num_players": 2, "sheep_per_player": 5, "restricted_splits": True},
        {"board_size": 4, "field_size": 6, "num_players": 2, "sheep_per_player": 1},
    )]  # fmt: skip
    return [pytest.param(name, config, id=f"{name}-{config}") for name, config in cases]


@pytest.mark.parametrize(("name", "config"), two_player_configs())
def test_it_plays_every_two_player_config_and_refuses_the_others(name: str, config: dict) -> None:
    game = make_game(name, **config)
    agent = make_agent("alphabeta:depth=2:nodes=25", name)
    if game.spec.num_players != 2:
        with pytest.raises(ValueError, match="num_players"):
            play_game(game, [agent] + [RandomAgent(seat) for seat in range(1, game.spec.num_players)], seed=0)
        return
    for seed in range(2):
        seats = [agent, RandomAgent(seed)] if seed % 2 == 0 else [RandomAgent(seed), agent]
        record = play_game(game, seats, seed=seed)  # raises on an illegal move
        assert len(record.actions) > 0
