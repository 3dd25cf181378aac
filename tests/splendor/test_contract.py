"""Splendor on the ``core.Game`` contract: the codec, the move cap, the legality test, pickling by config, returns."""

from __future__ import annotations

import dataclasses
import pickle

import numpy as np
import pytest

from boardenvs.core import shared_win_returns
from boardenvs.games.splendor import PRESETS, Move, Splendor
from boardenvs.games.splendor.state import POINTS
from boardenvs.games.splendor.tables import KINDS
from boardenvs.testing import check_game
from tests.splendor.helpers import play, start, with_player

GAME = Splendor()
RINA = Splendor(**PRESETS["rinascimento"])


# -- the codec ------------------------------------------------------------------------------------
@pytest.mark.parametrize("preset", ["2p", "4p", "rinascimento"])
def test_every_action_id_decodes_to_a_move_that_encodes_back(preset: str) -> None:
    game = Splendor(**PRESETS[preset])
    state = game.initial_state(np.random.default_rng(0))
    moves = [game.decode(state, action) for action in range(game.spec.num_actions)]
    assert all(isinstance(move, Move) for move in moves)
    assert [game.encode(state, move) for move in moves] == list(range(game.spec.num_actions))
    assert len(set(moves)) == len(moves)
    official_only = {"return", "noble", "pay_gold", "pay"}
    expected = set(KINDS) - official_only if game.config.rinascimento else set(KINDS)
    assert {move.kind for move in moves} == expected


@pytest.mark.parametrize(
    ("move", "text"),
    [
        (Move("take_different", 15), "take WUG"),
        (Move("take_same", 3), "take 2 R"),
        (Move("reserve_face_up", 5), "reserve L2#2"),
        (Move("reserve_deck", 2), "reserve deck L3"),
        (Move("buy_face_up", 11), "buy L3#4"),
        (Move("buy_reserved", 1), "buy reserved 2"),
        (Move("return", 5), "return Y"),
        (Move("noble", 2), "noble 3"),
        (Move("pay_gold", 4), "gold for K"),
        (Move("pay", 0), "pay"),
        (Move("pass", 0), "pass"),
    ],
)
def test_each_kind_of_move_encodes_to_the_action_written_like_it(move: Move, text: str) -> None:
    state = start(GAME)
    action = GAME.encode(state, move)
    assert GAME.action_to_str(state, action) == text
    assert GAME.decode(state, action) == move


def test_rinascimento_token_patterns_encode_with_their_returns() -> None:
    state = start(RINA)
    texts = {RINA.action_to_str(state, a): RINA.decode(state, a) for a in range(RINA.spec.num_actions)}
    for text in ("take none", "take WUG", "take WU return K", "take 2 R"):
        assert RINA.action_to_str(state, RINA.encode(state, texts[text])) == text


def test_encode_names_an_unknown_kind_a_kind_the_game_lacks_and_an_argument_out_of_range() -> None:
    state = start(GAME)
    with pytest.raises(ValueError, match="unknown move kind 'steal'; kinds are take_different, "):
        GAME.encode(state, Move("steal", 0))
    with pytest.raises(ValueError, match="no 'return' moves under Rinascimento rules"):
        RINA.encode(start(RINA), Move("return", 0))
    with pytest.raises(ValueError, match=r"'noble' takes an int argument in \[0, 3\), got 3"):
        GAME.encode(state, Move("noble", 3))
    with pytest.raises(ValueError, match=r"'pass' takes an int argument in \[0, 1\), got -1"):
        GAME.encode(state, Move("pass", -1))
    with pytest.raises(ValueError, match=r"action 76 is out of range \[0, 76\)"):
        GAME.decode(state, 76)
    with pytest.raises(ValueError, match="out of range"):
        GAME.decode(state, -1)


# -- legality --------------------------------------------------------------------------------------
def test_is_legal_is_false_out_of_range_and_after_the_end_and_never_raises() -> None:
    state = start(GAME)
    legal = GAME.legal_action_mask(state)
    assert [GAME.is_legal(state, a) for a in range(GAME.spec.num_actions)] == legal.tolist()
    assert not GAME.is_legal(state, -1) and not GAME.is_legal(state, GAME.spec.num_actions)
    state = state.copy()  # a fresh mask cache
    state.current_player = -1
    assert not any(GAME.is_legal(state, a) for a in range(-1, GAME.spec.num_actions + 1))


def test_apply_takes_numpy_ints_and_refuses_bools_and_moves_after_the_end() -> None:
    state = start(GAME)
    action = GAME.parse_action(state, "take WUG")
    assert GAME.apply(state, np.int64(action)).key() == GAME.apply(state, action).key()
    with pytest.raises(TypeError, match="action must be an int, got bool"):
        GAME.apply(state, True)
    state = state.copy()  # a fresh mask cache
    state.current_player = -1
    with pytest.raises(ValueError, match=f"action {action} played after the game ended"):
        GAME.apply(state, action)


def test_apply_counts_one_ply_per_sub_decision_too() -> None:
    state = with_player(start(GAME), 0, tokens=(2, 2, 2, 2, 1, 0))
    plies = [s.ply for s in (state, play(GAME, state, "take WUG"), play(GAME, state, "take WUG", "return K"))]
    assert plies == [0, 1, 2]


# -- the move cap ----------------------------------------------------------------------------------
def capped(game: Splendor, ply: int) -> Splendor:
    """``game`` with ``max_plies`` = ``ply``."""
    return Splendor(dataclasses.replace(game.config, max_plies=ply))


def test_the_ply_before_the_cap_plays_on() -> None:
    game = capped(GAME, 10)
    state = start(game)
    state.ply = 8
    state = play(game, state, "take WUG")
    assert state.ply == 9 and not game.is_terminal(state) and not game.is_truncated(state)
    assert game.returns(state).tolist() == [0.0, 0.0]


def test_the_capped_ply_ends_the_game_truncated_and_ranked_by_points() -> None:
    game = capped(GAME, 10)
    state = with_player(start(game), 1, points=3, bought=2)
    state.ply = 9
    state = play(game, state, "take WUG")
    assert state.ply == 10 and game.is_terminal(state) and game.is_truncated(state)
    assert game.returns(state).tolist() == [-1.0, 1.0]
    assert not game.legal_action_mask(state).any()


def test_a_tie_at_the_cap_is_a_shared_win_of_the_fewest_cards() -> None:
    game = capped(Splendor(num_players=3), 10)
    state = start(game)
    for player, (points, bought) in enumerate(((4, 3), (4, 4), (4, 3))):
        state = with_player(state, player, points=points, bought=bought)
    state.ply = 9
    state = play(game, state, "take WUG")
    assert game.is_truncated(state)
    assert game.returns(state).tolist() == [0.25, -0.5, 0.25]


def test_a_game_that_ends_by_its_rules_on_the_capped_ply_is_not_truncated() -> None:
    game = capped(RINA, 10)
    state = with_player(start(game), 0, points=15)
    state.ply = 9
    state = play(game, state, "take WUG")  # R1: the game ends at once
    assert game.is_terminal(state) and not game.is_truncated(state)
    assert game.returns(state).tolist() == [1.0, -1.0]


@pytest.mark.parametrize("preset", ["2p", "rinascimento"])
def test_check_game_passes_with_every_game_cut_by_the_cap(preset: str) -> None:
    game = capped(Splendor(**PRESETS[preset]), 25)
    report = check_game(game, num_games=3, seed=5)
    assert report.truncated_games == 3 and report.max_plies == 25


# -- returns and pickling -------------------------------------------------------------------------
@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_returns_are_the_shared_win_convention_of_the_best_ranked(num_players: int) -> None:
    game = Splendor(num_players=num_players)
    state = game.initial_state(np.random.default_rng(num_players)).copy()
    state.current_player = -1
    for winners in ([0], sorted({1, num_players - 1}), list(range(num_players))):
        state.players[:, POINTS] = 5
        state.players[winners, POINTS] = 9
        expected = shared_win_returns(num_players, winners)
        assert np.array_equal(game.returns(state), expected)


def test_the_game_pickles_as_its_config_and_rebuilds_its_tables() -> None:
    data = pickle.dumps(RINA)
    copy = pickle.loads(data)
    assert copy == RINA and len(data) < 1000
    assert copy.tables.num_actions == RINA.spec.num_actions == copy.spec.num_actions
    state = start(RINA)
    assert np.array_equal(copy.legal_action_mask(state), RINA.legal_action_mask(state))
