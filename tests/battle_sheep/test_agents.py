"""Seed 003's EvaluationAgent: its start cell rule, and that it beats random players."""

from __future__ import annotations

import numpy as np

import boardenvs
from baselines.agent import RandomAgent
from baselines.arena import play_game
from baselines.factory import agent_choices
from baselines.games import scripted_agents
from baselines.games.battle_sheep import EvaluationAgent, crowding_map, seed_splits
from tests.battle_sheep.helpers import board, small_game


def test_crowding_map_counts_obstacles_and_pads_with_obstacles() -> None:
    crowding = crowding_map(np.zeros((5, 5), dtype=int))
    assert crowding[2, 2] == 0 and crowding[0, 0] == 16  # 25 - 9 padded cells in the 5x5 window


def test_start_cell_is_the_least_crowded_legal_border_cell() -> None:
    game = small_game(board_size=6, field_size=30)
    state = board(game, ["# # # # # #", ". . . . . .", ". . . . . .", ". . . . . .", ". . . . . .", ". . . . . ."], 0)
    action = EvaluationAgent(0).act(game, state, 0)
    assert game.action_to_str(state, action) == "place c2"  # ties with c6 (10 obstacles); row-major first


def test_seed_splits_are_1_half_and_all_but_one() -> None:
    assert seed_splits(16) == [1, 8, 15] and seed_splits(2) == [1] and seed_splits(3) == [1, 2]


def test_evaluation_agent_wins_most_4_player_games_against_random() -> None:
    game = boardenvs.make_game("battle_sheep", preset="basic")
    firsts = 0
    for seed in range(24):
        seat = seed % 4
        agents = [RandomAgent(), RandomAgent(), RandomAgent(), RandomAgent()]
        agents[seat] = EvaluationAgent()
        record = play_game(game, agents, seed)
        firsts += int(record.returns[seat] == max(record.returns))
    assert firsts >= 15  # >= 60% first places, where a random player gets about 25%


def test_evaluation_agent_is_registered_as_the_heuristic() -> None:
    assert scripted_agents("battle_sheep")["evaluation"] is EvaluationAgent
    assert set(scripted_agents("battle_sheep")) == {"evaluation", "minimax"}  # qlearning is a learner (sheep_q)
    assert {"evaluation", "minimax", "qlearning"} <= set(agent_choices("battle_sheep"))
