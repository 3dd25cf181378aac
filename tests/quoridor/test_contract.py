"""Quoridor on the ``core.Game`` contract: the codec per kind of move, the legality test, the reasons given for
illegal actions, the move cap applied by the base class, and ``check_game`` on every registry preset."""

from __future__ import annotations

import numpy as np
import pytest

import boardenvs
from boardenvs.core import TERMINAL
from boardenvs.games.quoridor import Move, Quoridor
from boardenvs.testing import check_game
from tests.quoridor.helpers import play

FIVE = Quoridor(board_size=5)
FOUR_PLAYERS = Quoridor(board_size=5, num_players=4)


# -- the codec ----------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "move, text",
    [
        (Move("pawn", 1, 3), "d2"),
        (Move("wall", 2, 1, True), "b3h"),
        (Move("wall", 0, 3, False), "d1v"),
        (Move("pass", -1, -1), "pass"),
    ],
    ids=["pawn", "horizontal_wall", "vertical_wall", "pass"],
)
@pytest.mark.parametrize("game, to_move", [(FIVE, 0), (FIVE, 1), (FOUR_PLAYERS, 1), (FOUR_PLAYERS, 3)])
def test_codec_round_trip_for_every_kind_of_move_in_every_frame(game: Quoridor, to_move: int, move, text) -> None:
    pawns = ["c5", "c1"] if game.config.num_players == 2 else ["c5", "a3", "c1", "e3"]
    state = game.position(pawns, to_move=to_move)
    action = game.encode(state, move)
    assert 0 <= action < game.spec.num_actions
    assert game.decode(state, action) == move
    assert game.action_to_str(state, action) == text
    assert all(game.encode(state, game.decode(state, a)) == a for a in range(game.spec.num_actions))


def test_pass_is_the_last_id_in_every_frame() -> None:
    for to_move in range(4):
        state = FOUR_PLAYERS.position(["c5", "a3", "c1", "e3"], to_move=to_move)
        assert FOUR_PLAYERS.encode(state, Move("pass", -1, -1)) == FOUR_PLAYERS.spec.num_actions - 1


# -- legality -------------------------------------------------------------------------------------------
def test_is_legal_is_the_mask_for_every_id() -> None:
    state = play(FIVE, FIVE.initial_state(np.random.default_rng(0)), "c4", "b2h")
    mask = FIVE.legal_action_mask(state)
    assert [FIVE.is_legal(state, a) for a in range(FIVE.spec.num_actions)] == mask.tolist()


def test_is_legal_is_false_out_of_range_for_non_ints_and_after_the_end_and_never_raises() -> None:
    state = FIVE.initial_state(np.random.default_rng(0))
    step = FIVE.parse_action(state, "c4")
    assert FIVE.is_legal(state, step) and FIVE.is_legal(state, np.int64(step))
    for action in (-1, FIVE.spec.num_actions, 10**6, float(step), True, "17", None):
        assert FIVE.is_legal(state, action) is False  # type: ignore[arg-type]
    end = play(FIVE, FIVE.position(["c2", "e4"]), "c1")
    assert not any(FIVE.is_legal(end, a) for a in range(FIVE.spec.num_actions))


def test_illegal_wall_names_the_wall_and_the_rule_it_breaks() -> None:
    state = FIVE.position(["c5", "c1"], ["b2h"])
    crossing, overlapping = FIVE.encode(state, Move("wall", 1, 1, False)), FIVE.encode(state, Move("wall", 1, 2, True))
    with pytest.raises(ValueError, match=f"action {crossing} is illegal here: wall b2v crosses an existing wall"):
        FIVE.apply(state, crossing)
    with pytest.raises(ValueError, match=f"action {overlapping} is illegal here: wall c2h overlaps an existing wall"):
        FIVE.apply(state, overlapping)


def test_illegal_pawn_pass_and_empty_stock_name_the_move() -> None:
    state = FIVE.position(["c5", "c1"], walls_left=[0, 3])
    wall, far, pass_id = (
        FIVE.encode(state, m) for m in (Move("wall", 2, 2, True), Move("pawn", 0, 0), Move("pass", -1, -1))
    )
    with pytest.raises(ValueError, match=f"action {wall} is illegal here: no walls left to place c3h"):
        FIVE.apply(state, wall)
    with pytest.raises(ValueError, match=f"action {far} is illegal here: a1 is not reachable"):
        FIVE.apply(state, far)
    with pytest.raises(ValueError, match="illegal here: pass is only legal when there is no other move"):
        FIVE.apply(state, pass_id)


def test_illegal_reason_reads_the_id_in_the_movers_frame() -> None:
    state = FIVE.position(["c5", "c2"], ["b2h"], to_move=1)  # player 1's ids are turned by 180 degrees
    action = FIVE.encode(state, Move("wall", 1, 1, False))
    assert FIVE.illegal_reason(state, action) == "wall b2v crosses an existing wall"


def test_numpy_int_actions_are_accepted_and_non_ints_rejected() -> None:
    state = FIVE.initial_state(np.random.default_rng(0))
    step = FIVE.parse_action(state, "c4")
    assert FIVE.apply(state, np.int64(step)).key() == FIVE.apply(state, step).key()
    with pytest.raises(TypeError, match="action must be an int"):
        FIVE.apply(state, np.float64(step))  # type: ignore[arg-type]


# -- the move cap ---------------------------------------------------------------------------------------
CAPPED = Quoridor(board_size=5, max_moves=10)


def test_the_ply_before_the_cap_is_an_ordinary_position() -> None:
    state = play(CAPPED, CAPPED.position(["c5", "c1"], ply=8), "c4")
    assert state.ply == 9 and state.current_player == 1 and not state.truncated
    assert not CAPPED.is_terminal(state) and CAPPED.returns(state).tolist() == [0.0, 0.0]


def test_the_capped_state_is_terminal_truncated_and_a_draw() -> None:
    state = play(CAPPED, CAPPED.position(["c5", "c1"], ply=9), "c4")
    assert state.ply == 10 and state.current_player == TERMINAL
    assert CAPPED.is_terminal(state) and CAPPED.is_truncated(state) and state.winner == -1
    assert CAPPED.returns(state).tolist() == [0.0, 0.0] and not CAPPED.legal_action_mask(state).any()
    assert "draw at the move cap" in CAPPED.to_text(state)
    with pytest.raises(ValueError, match="after the game ended"):
        CAPPED.apply(state, 0)


def test_a_goal_reached_before_the_cap_wins() -> None:
    end = play(CAPPED, CAPPED.position(["c2", "e4"], ply=8), "c1")
    assert end.ply == 9 and end.winner == 0 and not end.truncated
    assert CAPPED.returns(end).tolist() == [1.0, -1.0]


def test_a_goal_reached_on_the_capping_ply_is_a_draw_with_four_players() -> None:
    game = Quoridor(board_size=5, num_players=4, max_moves=6)
    end = play(game, game.position(["b2", "a3", "c1", "e3"], ply=5), "b1")
    assert end.truncated and end.winner == -1 and game.returns(end).tolist() == [0.0] * 4


def test_apply_does_not_change_its_input_at_the_cap() -> None:
    state = CAPPED.position(["c5", "c1"], ply=9)
    key = state.key()
    play(CAPPED, state, "c4")
    assert state.key() == key and state.current_player == 0 and not state.truncated


# -- presets --------------------------------------------------------------------------------------------
@pytest.mark.parametrize("preset", ["2p", "4p", "small"])
def test_every_registry_preset_passes_check_game(preset: str) -> None:
    assert preset in boardenvs.list_presets("quoridor")
    report = check_game(boardenvs.make_game("quoridor", preset=preset), num_games=5, seed=100)
    assert report.games == 5
