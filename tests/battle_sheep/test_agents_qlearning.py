"""Seed 003's tabular Q agent for Battle Sheep: the 12 x 12 x 8 table, its move, learning, the shipped table."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import boardenvs
from baselines.agent import RandomAgent
from baselines.arena import play_game, tournament
from baselines.factory import agent_choices, make_agent
from baselines.games.battle_sheep import EvaluationAgent
from baselines.learners.sheep_q import SheepQAgent, SheepQSettings, SheepQTable, learn, move_pairs
from tests.battle_sheep.helpers import board
from tests.battle_sheep.test_conformance import VARIANTS


def test_the_shipped_table_is_the_seeds_12_by_12_by_8_table() -> None:
    table = SheepQTable.load()
    assert table.values.shape == (12, 12, 8) and np.any(table.values != 0)
    assert table.training["games"] >= 1000 and table.training["opponents"] == "random"
    assert isinstance(make_agent("qlearning", "battle_sheep"), SheepQAgent)
    assert agent_choices("battle_sheep")["qlearning"] is SheepQAgent  # a learner, registered for Battle Sheep


def test_it_moves_half_the_stack_along_the_best_valued_cell_and_direction() -> None:
    game = boardenvs.make_game("battle_sheep", board_size=12, num_players=2, field_size=30, sheep_per_player=16)
    rows = ["A16 . . . . . . . . . . .", *[". . . . . . . . . . . ."] * 10, ". . . . . . . . . . . B16"]
    state = board(game, rows, 0)
    table = SheepQTable()
    table.values[0, 0, 4] = 1.0  # direction 4 is S (down the rows)
    action = SheepQAgent(0, table=table).act(game, state, 0)
    assert game.action_to_str(state, action) == "a1 S 8"


def test_other_board_sizes_read_the_table_at_the_scaled_cell() -> None:
    game = boardenvs.make_game("battle_sheep", board_size=6, num_players=2, field_size=12, sheep_per_player=4)
    state = board(game, [". . . . . .", ". . . . . .", ". . A4 . . .", ". . . . . .", ". . . . . B4", "# # # # # #"], 0)
    table = SheepQTable()
    table.values[4, 4, 6] = 1.0  # cell (2, 2) of the 6x6 board is (4, 4) of the table; direction 6 is E
    assert game.action_to_str(state, SheepQAgent(0, table=table).act(game, state, 0)) == "c3 E 2"


def test_it_places_on_the_seeds_start_cell() -> None:
    game = boardenvs.make_game("battle_sheep", preset="basic")
    state = game.initial_state(np.random.default_rng(3))
    assert SheepQAgent(0).act(game, state, 0) == EvaluationAgent.start_cell(game, state)


def test_ties_go_to_the_generator() -> None:
    game = boardenvs.make_game("battle_sheep", preset="basic")
    state = game.initial_state(np.random.default_rng(0))
    while game.in_placement(state):
        state = game.apply(state, EvaluationAgent.start_cell(game, state))
    untrained = SheepQTable()
    moves = {SheepQAgent(seed, table=untrained).act(game, state, state.current_player) for seed in range(10)}
    cells, _ = move_pairs(game, state, state.current_player)
    assert 1 < len(moves) <= cells.size


def test_a_table_survives_saving_and_a_foreign_file_is_refused(tmp_path: Path) -> None:
    table = SheepQTable(settings=SheepQSettings(learning_rate=0.5), training={"games": 3})
    table.values[1, 2, 3] = 0.123456789
    table.save(tmp_path / "q.json")
    again = SheepQTable.load(str(tmp_path / "q.json"))
    assert again.values[1, 2, 3] == pytest.approx(0.12346) and again.settings.learning_rate == 0.5
    assert make_agent(f"qlearning:table={tmp_path / 'q.json'}", "battle_sheep").table.training == {"games": 3}
    (tmp_path / "other.json").write_text('{"format": "tabular_q", "version": 1}')
    with pytest.raises(ValueError, match="not a battle_sheep_q table"):
        SheepQTable.load(str(tmp_path / "other.json"))
    with pytest.raises(FileNotFoundError, match="missing.json"):
        SheepQAgent(table=str(tmp_path / "missing.json"))


def test_bad_settings_are_named() -> None:
    for settings, named in (({"learning_rate": 0}, "learning_rate"), ({"discount": 2}, "discount"),
                            ({"epsilon": -0.1}, "epsilon")):  # fmt: skip
        with pytest.raises(ValueError, match=named):
            SheepQSettings(**settings)
    with pytest.raises(ValueError, match="board_size"):
        learn(1, game=boardenvs.make_game("battle_sheep", board_size=8, field_size=30))


def test_learning_is_seeded_and_changes_the_played_entries() -> None:
    first, returns = learn(30, seed=4)
    again, _ = learn(30, seed=4)
    assert np.array_equal(first.values, again.values) and returns.shape == (30,)
    assert np.count_nonzero(first.values) > 10 and first.training["games"] == 30


def test_the_shipped_table_beats_an_untrained_one_against_random_players() -> None:
    game = boardenvs.make_game("battle_sheep", preset="basic")
    agents = {"trained": SheepQAgent, "untrained": lambda seed: SheepQAgent(seed, table=SheepQTable())}
    result = tournament(game, agents, 160, seed=1, field={"random": RandomAgent})
    rates = {stats.name: stats.win_rate for stats in result.stats}
    assert rates["trained"] > rates["untrained"]


@pytest.mark.parametrize("config", VARIANTS.values(), ids=list(VARIANTS))
def test_it_plays_every_config(config: dict) -> None:
    game = boardenvs.make_game("battle_sheep", **config)
    players = game.spec.num_players
    agents = [SheepQAgent(seat) if seat % 2 == 0 else RandomAgent(seat) for seat in range(players)]
    for seed in range(2):
        assert len(play_game(game, agents, seed=seed).actions) > 0  # raises on an illegal move
