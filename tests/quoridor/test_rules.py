"""Rule scenarios: each test builds a position from notation and names the rule it checks."""

from __future__ import annotations

import numpy as np
import pytest

from boardenvs.core import TERMINAL
from boardenvs.games.quoridor import Quoridor
from tests.quoridor.helpers import legal_strings, pawn_moves, play, wall_moves

SMALL = Quoridor(board_size=5)
SMALL_4P = Quoridor(board_size=5, num_players=4)


# -- pawn moves -----------------------------------------------------------------------------------
def test_pawn_steps_orthogonally_from_the_start() -> None:
    state = SMALL.initial_state(np.random.default_rng(0))
    assert pawn_moves(SMALL, state) == {"c4", "b5", "d5"}


def test_pawn_jumps_straight_over_an_adjacent_pawn() -> None:
    state = SMALL.position(["c3", "c2"])
    assert pawn_moves(SMALL, state) == {"b3", "c1", "c4", "d3"}


def test_no_diagonal_when_the_straight_jump_is_open() -> None:
    state = SMALL.position(["c3", "c2"])
    assert not pawn_moves(SMALL, state) & {"b2", "d2"}


def test_pawn_moves_diagonally_when_a_wall_is_behind_the_opponent() -> None:
    state = SMALL.position(["c3", "c2"], ["b1h"])
    assert pawn_moves(SMALL, state) == {"b2", "d2", "b3", "c4", "d3"}


def test_pawn_moves_diagonally_when_the_board_edge_is_behind_the_opponent() -> None:
    state = SMALL.position(["c2", "c1"])
    assert pawn_moves(SMALL, state) == {"b1", "d1", "b2", "d2", "c3"}


def test_diagonal_move_may_not_pass_a_wall_beside_the_opponent() -> None:
    state = SMALL.position(["c3", "c2"], ["c1h", "b1v"])  # c1h behind c2; b1v between b2 and c2
    assert pawn_moves(SMALL, state) == {"d2", "b3", "c4", "d3"}


def test_wall_between_the_pawns_blocks_both_the_step_and_the_jump() -> None:
    state = SMALL.position(["c3", "c2"], ["c2h"])
    assert pawn_moves(SMALL, state) == {"b3", "c4", "d3"}


def test_pawn_may_not_cross_a_wall() -> None:
    state = SMALL.position(["c5", "c1"], ["b4h", "c4v"])
    assert pawn_moves(SMALL, state) == {"b5"}


def test_liberal_jumps_allow_diagonals_with_the_straight_jump_open() -> None:
    liberal = Quoridor(board_size=5, liberal_jumps=True)
    state = liberal.position(["c3", "c2"])
    assert pawn_moves(liberal, state) == {"b2", "c1", "d2", "b3", "c4", "d3"}


def test_liberal_jumps_still_respect_walls_around_the_opponent() -> None:
    liberal = Quoridor(board_size=5, liberal_jumps=True)
    state = liberal.position(["c3", "c2"], ["c1h", "b1v"])  # c1h: under c1/d1; b1v: between b2 and c2
    assert pawn_moves(liberal, state) == {"d2", "b3", "c4", "d3"}


# -- four players -----------------------------------------------------------------------------------
def test_four_players_no_jump_over_two_pawns_and_no_diagonal_then() -> None:
    state = SMALL_4P.position(["c4", "c3", "c2", "e1"])
    assert pawn_moves(SMALL_4P, state) == {"b4", "d4", "c5"}


def test_four_players_jump_lands_only_on_a_free_square_and_diagonal_skips_pawns() -> None:
    state = SMALL_4P.position(["c2", "c1", "b1", "e3"])  # edge behind c1; b1 taken
    assert pawn_moves(SMALL_4P, state) == {"d1", "b2", "d2", "c3"}


def test_four_player_seats_goals_and_clockwise_turn_order() -> None:
    game = Quoridor(num_players=4)
    state = game.initial_state(np.random.default_rng(0))
    assert [game.pawn_square(state, p) for p in range(4)] == [(8, 4), (4, 0), (0, 4), (4, 8)]
    assert [game.distance_to_goal(state, p) for p in range(4)] == [8, 8, 8, 8]
    order = []
    for move in ("e8", "b5", "e2", "h5"):
        order.append(state.current_player)
        state = play(game, state, move)
    assert order == [0, 1, 2, 3] and state.current_player == 0


@pytest.mark.parametrize(
    "player, square, goal_step", [(0, "b2", "b1"), (1, "d4", "e4"), (2, "b4", "b5"), (3, "b4", "a4")]
)
def test_four_player_goals(player: int, square: str, goal_step: str) -> None:
    pawns = ["c5", "a3", "c1", "e3"]
    pawns[player] = square
    state = SMALL_4P.position(pawns, to_move=player)
    end = play(SMALL_4P, state, goal_step)
    assert end.current_player == TERMINAL and end.winner == player
    expected = np.full(4, -1 / 3, dtype=np.float32)
    expected[player] = 1
    assert np.allclose(SMALL_4P.returns(end), expected)


def test_even_board_pawns_start_right_of_centre_like_openspiel() -> None:
    game = Quoridor(board_size=6, num_players=4)
    state = game.initial_state(np.random.default_rng(0))
    assert [game.pawn_square(state, p) for p in range(4)] == [(5, 3), (3, 0), (0, 3), (3, 5)]


# -- walls ----------------------------------------------------------------------------------------
def test_walls_may_not_overlap_or_cross() -> None:
    state = SMALL.position(["c5", "c1"], ["b2h"])
    walls = wall_moves(SMALL, state)
    assert not walls & {"a2h", "b2h", "c2h", "b2v"}
    assert {"d2h", "b1v", "b3v", "a2v", "c2v"} <= walls
    with pytest.raises(ValueError, match="c2h overlaps an existing wall"):
        SMALL.parse_action(state, "c2h")
    with pytest.raises(ValueError, match="b2v crosses an existing wall"):
        SMALL.parse_action(state, "b2v")


def test_vertical_walls_may_not_overlap_in_a_column() -> None:
    state = SMALL.position(["c5", "c1"], ["b2v"])
    assert not wall_moves(SMALL, state) & {"b1v", "b2v", "b3v", "b2h"}
    assert {"b4v", "a2h", "c2h"} <= wall_moves(SMALL, state)


def test_wall_that_would_cut_off_the_movers_own_pawn_is_illegal() -> None:
    state = SMALL.position(["a4", "c1"], ["a3h", "a4h"])  # a4 and b4 fenced above, below and left
    assert not wall_moves(SMALL, state) & {"b3v", "b4v"}
    with pytest.raises(ValueError, match="b3v would cut player 0 off"):
        SMALL.parse_action(state, "b3v")


def test_wall_that_would_cut_off_the_other_player_is_illegal() -> None:
    state = SMALL.position(["c5", "a1"], ["a1h"], to_move=0)  # player 1 on a1 under a1h's roof
    assert "b1v" not in wall_moves(SMALL, state)
    with pytest.raises(ValueError, match="b1v would cut player 1 off"):
        SMALL.parse_action(state, "b1v")


def test_wall_may_close_an_empty_pocket() -> None:
    state = SMALL.position(["c5", "e1"], ["a1h"])
    assert "b1v" in wall_moves(SMALL, state)
    after = play(SMALL, state, "b1v")
    assert SMALL.distance_to_goal(after, 1) == 4


def test_no_walls_left_means_no_wall_actions() -> None:
    state = SMALL.position(["c5", "c1"], walls_left=[0, 3])
    mask = SMALL.legal_action_mask(state)
    assert not mask[25:].any()
    assert legal_strings(SMALL, state) == {"b5", "c4", "d5"}
    with pytest.raises(ValueError, match="no walls left"):
        SMALL.parse_action(state, "c3h")


def test_placing_a_wall_uses_one_from_stock() -> None:
    state = play(SMALL, SMALL.initial_state(np.random.default_rng(0)), "c3h")
    assert (SMALL.walls_left(state, 0), SMALL.walls_left(state, 1)) == (2, 3)
    assert "c3h" not in wall_moves(SMALL, state)


def test_default_wall_counts() -> None:
    assert Quoridor().config.walls == 10
    assert Quoridor(num_players=4).config.walls == 5
    assert Quoridor(board_size=5).config.walls == 3
    assert Quoridor(board_size=5, walls_per_player=0).config.walls == 0


def test_distance_to_goal_goes_around_walls_and_ignores_pawns() -> None:
    game = Quoridor()
    state = game.position(["e9", "e8"])
    assert (game.distance_to_goal(state, 0), game.distance_to_goal(state, 1)) == (8, 1)
    state = game.position(["e9", "e1"], ["d8h"])  # wall over d9 and e9
    assert game.distance_to_goal(state, 0) == 9


# -- pass, end of the game ------------------------------------------------------------------------
def _boxed_in(walls_left: list[int]):
    game = Quoridor(board_size=4, num_players=4)
    # player 0 on a4: wall above, edges left and below, pawns on b4 and c4 to its right
    return game, game.position(["a4", "b4", "a1", "c4"], ["a3h"], walls_left=walls_left)


def test_pass_only_when_a_player_has_no_legal_move() -> None:
    game, state = _boxed_in([0, 1, 1, 1])
    assert legal_strings(game, state) == {"pass"}
    after = play(game, state, "pass")
    assert after.pawns == state.pawns and after.current_player == 1 and after.ply == 1


def test_no_pass_while_a_wall_can_be_placed() -> None:
    game, state = _boxed_in([1, 1, 1, 1])
    moves = legal_strings(game, state)
    assert "pass" not in moves and moves
    with pytest.raises(ValueError, match="pass is only legal"):
        game.parse_action(state, "pass")


def test_reaching_the_goal_wins_two_players() -> None:
    state = SMALL.position(["c2", "e4"], to_move=0)
    end = play(SMALL, state, "c1")
    assert end.current_player == TERMINAL and end.winner == 0 and not end.truncated
    assert SMALL.returns(end).tolist() == [1.0, -1.0]
    assert not SMALL.legal_action_mask(end).any()


def test_player_one_wins_on_the_bottom_row() -> None:
    state = SMALL.position(["a5", "c4"], to_move=1)
    end = play(SMALL, state, "c5")
    assert SMALL.returns(end).tolist() == [-1.0, 1.0]


def test_move_cap_is_a_draw_with_zero_returns() -> None:
    game = Quoridor(board_size=5, max_moves=3)
    state = play(game, game.initial_state(np.random.default_rng(0)), "c4", "c2", "a1h")
    assert state.current_player == TERMINAL and state.truncated and game.is_truncated(state)
    assert state.winner == -1 and game.returns(state).tolist() == [0.0, 0.0]
    assert game.spec.max_game_length == 3


def test_default_move_cap_is_four_n_squared() -> None:
    assert Quoridor().config.move_cap == 324 and Quoridor(board_size=5).spec.max_game_length == 100


def test_the_move_cap_wins_over_a_goal_reached_on_the_last_ply() -> None:
    """OpenSpiel's rule: the ply that reaches the cap ends the game as a draw, even on the goal."""
    game = Quoridor(board_size=5, max_moves=10)
    end = play(game, game.position(["c2", "e4"], ply=9), "c1")
    assert end.truncated and end.winner == -1 and game.returns(end).tolist() == [0.0, 0.0]


def test_actions_after_the_end_are_rejected() -> None:
    end = play(SMALL, SMALL.position(["c2", "e4"]), "c1")
    with pytest.raises(ValueError, match="after the game ended"):
        SMALL.apply(end, 0)
    with pytest.raises(ValueError, match="game is over"):
        SMALL.parse_action(end, "c2")


def test_apply_rejects_illegal_and_malformed_actions() -> None:
    state = SMALL.initial_state(np.random.default_rng(0))
    with pytest.raises(ValueError, match="action 0 is illegal here: a1 is not reachable"):
        SMALL.apply(state, 0)
    with pytest.raises(ValueError, match="out of range"):
        SMALL.apply(state, SMALL.spec.num_actions)
    with pytest.raises(TypeError):
        SMALL.apply(state, 1.0)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        SMALL.apply(state, True)
