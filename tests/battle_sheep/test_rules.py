"""Rule scenarios of Battle Sheep (docs/rules/rules.md §4), each named after the rule it checks."""

from __future__ import annotations

import numpy as np
import pytest

from boardenvs.core import TERMINAL, shared_win_returns
from boardenvs.games.battle_sheep.scoring import rank_points
from boardenvs.games.battle_sheep.tables import DIRECTION_NAMES
from tests.battle_sheep.helpers import board, small_game

OPEN_5X5 = [". . . . .", ". . . . .", ". . A4 . .", ". . . . .", ". . . . ."]
TWO_STEPS = {"NW": "a1", "W": "a3", "SW": "a5", "N": "c1", "S": "c5", "NE": "e1", "E": "e3", "SE": "e5"}
ONE_STEP = {"NW": "b2", "W": "b3", "SW": "b4", "N": "c2", "S": "c4", "NE": "d2", "E": "d3", "SE": "d4"}


def owner_at(game, state, name: str) -> tuple[int, int]:
    cell = (int(name[1:]) - 1) * game.config.board_size + ord(name[0]) - ord("a")
    return int(state.owner[cell]), int(state.counts[cell])


@pytest.mark.parametrize("direction", DIRECTION_NAMES)
def test_group_slides_until_the_board_edge_in_each_of_8_directions(direction: str) -> None:
    game = small_game(field_size=25)
    state = game.apply(board(game, OPEN_5X5, 0), game.parse_action(board(game, OPEN_5X5, 0), f"c3 {direction} 1"))
    assert owner_at(game, state, TWO_STEPS[direction]) == (1, 1)
    assert owner_at(game, state, ONE_STEP[direction]) == (0, 0)
    assert owner_at(game, state, "c3") == (1, 3)


@pytest.mark.parametrize("direction", DIRECTION_NAMES)
def test_group_stops_before_an_occupied_or_outside_cell_in_each_direction(direction: str) -> None:
    game = small_game(field_size=25)
    rows = [row.split() for row in OPEN_5X5]
    target = TWO_STEPS[direction]
    rows[int(target[1:]) - 1][ord(target[0]) - ord("a")] = "B1" if direction in ("N", "E", "SW", "SE") else "#"
    start = board(game, [" ".join(row) for row in rows], 0)
    state = game.apply(start, game.parse_action(start, f"c3 {direction} 2"))
    assert owner_at(game, state, ONE_STEP[direction]) == (1, 2)


def test_a_move_whose_first_cell_is_blocked_is_illegal() -> None:
    game = small_game(field_size=25)
    state = board(game, [". . . . .", ". . B1 . .", ". . A4 . .", ". . . . .", ". . . . ."], 0)
    with pytest.raises(ValueError, match="not legal"):
        game.parse_action(state, "c3 N 1")


def test_splits_move_1_to_n_minus_1_sheep() -> None:
    game = small_game(field_size=25)
    state = board(game, OPEN_5X5, 0)
    names = {game.action_to_str(state, int(a)) for a in game.legal_actions(state)}
    assert names == {f"c3 {d} {m}" for d in DIRECTION_NAMES for m in (1, 2, 3)}


def test_restricted_splits_allow_only_1_half_and_n_minus_1() -> None:
    game = small_game(field_size=25, sheep_per_player=8, restricted_splits=True)
    state = board(game, [". . . . .", ". . . . .", ". . A7 A1 .", ". . . . .", ". . . . ."], 0)
    splits = {game.action_to_str(state, int(a)).split()[2] for a in game.legal_actions(state)}
    assert splits == {"1", "3", "6"}


def test_placement_only_on_border_cells_edge_or_next_to_a_non_field_cell() -> None:
    game = small_game(field_size=24)
    state = board(game, [". . . . .", ". . . . .", ". . # . .", ". . . . .", ". . . . ."], 0)
    assert game.in_placement(state)
    names = {game.action_to_str(state, int(a)) for a in game.legal_actions(state)}
    edge = {f"{c}{r}" for c in "abcde" for r in (1, 5)} | {f"{c}{r}" for c in "ae" for r in range(2, 5)}
    assert names == {f"place {cell}" for cell in edge | {"c2", "b3", "d3", "c4"}}


def test_eight_neighbourhood_border_also_counts_diagonal_non_field_cells() -> None:
    game = small_game(field_size=24, border_neighbourhood=8)
    state = board(game, [". . . . .", ". . . . .", ". . # . .", ". . . . .", ". . . . ."], 0)
    names = {game.action_to_str(state, int(a)) for a in game.legal_actions(state)}
    assert {"place b2", "place d4"} <= names


def test_a_blocked_player_is_skipped() -> None:
    game = small_game(num_players=3, field_size=25)
    rows = ["B1 # . . .", "# # . . .", ". . A4 . .", ". . . . .", ". . . . C2"]
    state = game.apply(board(game, rows, 0), game.parse_action(board(game, rows, 0), "c3 S 1"))
    assert state.current_player == 2


def test_game_ends_when_nobody_can_move() -> None:
    game = small_game(field_size=5)
    rows = ["A2 . B1 # #", "# # # # #", "# # # # #", "# # # # #", "# # # # #"]
    start = board(game, rows, 0)
    state = game.apply(start, game.parse_action(start, "a1 E 1"))
    assert state.current_player == TERMINAL and not game.legal_action_mask(state).any()
    assert game.scores(state).tolist() == [2.0, 1.0]  # round(2 ** 1.25) = 2
    assert game.returns(state).tolist() == [1.0, -1.0]


def test_region_score_is_rounded_sum_of_4_connected_region_sizes_to_the_1_25() -> None:
    game = small_game(field_size=25, sheep_per_player=16)
    rows = ["A1 A1 A1 A1 A1", "A1 A1 A1 A1 A1", "A1 A1 A1 A1 .", ". . . . .", ". . . . A1"]
    state = board(game, rows, 0)
    assert game.scores(state)[0] == round(14**1.25 + 1) == 28  # the spec's worked example
    diagonal = board(game, ["A1 . . . .", ". A1 . . .", ". . . . .", ". . . . .", ". . . . ."], 0)
    assert game.scores(diagonal)[0] == 2  # diagonal cells are separate regions


def test_ranking_points_are_5_3_2_1_with_ties_split_evenly() -> None:
    assert rank_points(np.array([10, 30, 20, 5])).tolist() == [2, 5, 3, 1]
    assert rank_points(np.array([10, 10, 20, 5])).tolist() == [2.5, 2.5, 5, 1]
    assert rank_points(np.array([7, 7, 7, 7])).tolist() == [2.75] * 4


def test_teams_average_scores_with_the_partner_and_share_the_return() -> None:
    game = small_game(num_players=4, teams=True, field_size=25)
    rows = ["A2 . B1 C1 D1", "# # # # #", "# # # # #", "# # # # #", "# # # # #"]
    start = board(game, rows, 0)
    state = game.apply(start, game.parse_action(start, "a1 E 1"))
    assert state.current_player == TERMINAL
    assert game.ranking_scores(state).tolist() == [1.5, 1.0, 1.5, 1.0]
    returns = game.returns(state)
    assert returns[0] == returns[2] == pytest.approx((4 - 2.75) / (5 - 2.75))
    assert returns[1] == returns[3] == pytest.approx((1.5 - 2.75) / (5 - 2.75))


def finished(game, tokens: list[str]) -> object:
    """A finished game on a 5x5 board whose first row holds ``tokens`` (single sheep), the rest not field."""
    return board(game, [" ".join(tokens + ["#"] * (5 - len(tokens)))] + ["# # # # #"] * 4, TERMINAL)


@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_a_sole_winner_and_a_full_tie_get_the_shared_win_returns(num_players: int) -> None:
    game = small_game(num_players=num_players, field_size=5)
    others = [f"{letter}1" for letter in "BCD"[: num_players - 1]]
    sole = finished(game, ["A1", "A1", *others])  # A's region of 2 scores 2, every other player 1
    assert game.ranking_scores(sole).tolist() == [2.0] + [1.0] * (num_players - 1)
    assert game.returns(sole) == pytest.approx(shared_win_returns(num_players, [0]))
    tie = finished(game, ["A1", *others])
    assert game.returns(tie).tolist() == [0.0] * num_players
