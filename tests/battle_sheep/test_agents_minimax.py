"""Seed 003's minimax for Battle Sheep: paranoid alpha-beta on the evaluation score, its budgets, every config."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import boardenvs
from baselines.agent import RandomAgent
from baselines.arena import play_game
from baselines.factory import make_agent
from baselines.games import scripted_agents
from baselines.games.battle_sheep import EvaluationAgent, MinimaxAgent, evaluation_score
from baselines.games.battle_sheep.minimax import seed_move_actions
from boardenvs.core import Game
from tests.battle_sheep.test_conformance import VARIANTS


def paranoid(game: Game, state: Any, root: int, depth: int, allies: tuple[int, ...] = ()) -> float:
    """Plain paranoid minimax over the seed's moves (no pruning): the root and its allies maximise."""
    if game.is_terminal(state) or depth == 0:
        return evaluation_score(game, state, root)
    values = [paranoid(game, game.apply(state, a), root, depth - 1, allies) for a in seed_move_actions(game, state)]
    return max(values) if state.current_player in (root, *allies) else min(values)


def midgame(game: Game, seed: int, plies: int) -> Any:
    """The position after the placements and ``plies`` random moves (or the last one before the end)."""
    rng = np.random.default_rng(seed)
    state = game.initial_state(rng)
    while game.in_placement(state) or plies > 0:
        after = game.apply(state, int(rng.choice(game.legal_actions(state))))
        if game.is_terminal(after):
            break
        plies -= 0 if game.in_placement(state) else 1
        state = after
    return state


@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_the_search_value_is_the_paranoid_minimax_value(num_players: int) -> None:
    game = boardenvs.make_game("battle_sheep", board_size=6, field_size=20, num_players=num_players, sheep_per_player=4)
    for seed in range(3):
        state = midgame(game, seed, 2)
        agent = MinimaxAgent(seed, depth=3)
        agent.act(game, state, state.current_player)
        if agent.last_search is not None:
            expected = paranoid(game, state, state.current_player, agent.last_search.depth)
            assert agent.last_search.value == pytest.approx(expected)


def test_with_teams_the_partner_maximises_too() -> None:
    game = boardenvs.make_game("battle_sheep", board_size=6, field_size=24, num_players=4, sheep_per_player=3,
                               teams=True)  # fmt: skip
    state = midgame(game, 1, 1)
    player = state.current_player
    agent = MinimaxAgent(0, depth=3)
    agent.act(game, state, player)
    expected = paranoid(game, state, player, agent.last_search.depth, allies=((player + 2) % 4,))
    assert agent.last_search.value == pytest.approx(expected)


def test_at_depth_one_it_plays_a_move_of_the_best_evaluation() -> None:
    game = boardenvs.make_game("battle_sheep", preset="basic")
    state = midgame(game, 4, 3)
    player = state.current_player
    best = max(evaluation_score(game, game.apply(state, a), player) for a in seed_move_actions(game, state))
    action = MinimaxAgent(0, depth=1).act(game, state, player)
    assert evaluation_score(game, game.apply(state, action), player) == pytest.approx(best)


def test_it_places_on_the_seeds_start_cell() -> None:
    game = boardenvs.make_game("battle_sheep", preset="basic")
    state = game.initial_state(np.random.default_rng(0))
    assert MinimaxAgent(0).act(game, state, 0) == EvaluationAgent.start_cell(game, state)


def test_a_node_budget_is_kept_and_reproducible() -> None:
    game = boardenvs.make_game("battle_sheep", preset="basic")
    state = midgame(game, 2, 4)
    agent = MinimaxAgent(0, depth=4, nodes=40)
    action = agent.act(game, state, state.current_player)
    assert agent.last_search.nodes <= 40 and game.legal_action_mask(state)[action]
    assert MinimaxAgent(0, depth=4, nodes=40).act(game, state, state.current_player) == action


def test_it_beats_random_players() -> None:
    game = boardenvs.make_game("battle_sheep", preset="basic")
    firsts = 0
    for seed in range(8):
        seat = seed % 4
        agents = [RandomAgent(), RandomAgent(), RandomAgent(), RandomAgent()]
        agents[seat] = MinimaxAgent(nodes=60)
        record = play_game(game, agents, seed)
        firsts += int(record.returns[seat] == max(record.returns))
    assert firsts >= 5  # a random player comes first about 1 time in 4


def test_it_is_registered_and_takes_settings_by_name() -> None:
    assert scripted_agents("battle_sheep")["minimax"] is MinimaxAgent
    agent = make_agent("minimax:depth=3:seconds=0.5:nodes=500:ordering=false", "battle_sheep", seed=0)
    assert (agent.depth, agent.seconds, agent.nodes, agent.ordering) == (3, 0.5, 500, False)
    for settings, named in (({"depth": 0}, "depth"), ({"nodes": 0}, "nodes"), ({"seconds": -1}, "seconds")):
        with pytest.raises(ValueError, match=named):
            MinimaxAgent(0, **settings)


@pytest.mark.parametrize("config", VARIANTS.values(), ids=list(VARIANTS))
def test_it_plays_every_config(config: dict) -> None:
    game = boardenvs.make_game("battle_sheep", **config)
    players = game.spec.num_players
    agents = [MinimaxAgent(seat, depth=2, nodes=15) if seat % 2 == 0 else RandomAgent(seat) for seat in range(players)]
    record = play_game(game, agents, seed=0)  # raises on an illegal move
    assert len(record.actions) > 0
