"""The contract machinery itself: the conformance checker catches broken games; the registry errors clearly."""

from __future__ import annotations

import numpy as np
import pytest

import boardenvs
from boardenvs.core import TERMINAL, build_config, check_choice, check_int, text_to_rgb, winner_returns
from boardenvs.registry import make_game
from boardenvs.testing import ContractError, check_game
from tests.toy_games import TicTacToe, TicTacToeConfig, TicTacToeState


class MutatingTicTacToe(TicTacToe):
    """Bug: writes the move into the input state."""

    def apply(self, state: TicTacToeState, action: int) -> TicTacToeState:
        new = super().apply(state, action)
        state.board[action] = new.board[action]
        return new


class AliasingTicTacToe(TicTacToe):
    """Bug: the new state shares its board with the old one."""

    def apply(self, state: TicTacToeState, action: int) -> TicTacToeState:
        new = super().apply(state, action)
        shared = TicTacToeState(state.board, new.current_player, new.ply)
        shared.board[action] = new.board[action]
        return shared


class LeakyTicTacToe(TicTacToe):
    """Bug: pretends to hide information but determinize changes what the observer sees."""

    def determinize(self, state, player, rng):
        view = state.copy()
        empty = np.flatnonzero(view.board < 0)
        if len(empty):
            view.board[empty[0]] = 1 - player
        return view


class TextLeakyTicTacToe(TicTacToe):
    """Bug: the observation hides a secret that the text a seat is shown prints (determinize redraws it)."""

    def determinize(self, state, player, rng):
        view = state.copy()
        view.secret = int(rng.integers(1000))
        return view

    def text_for(self, state, player):
        return f"{self.to_text(state)}\nsecret {getattr(state, 'secret', 0)}"


class EmptyMaskTicTacToe(TicTacToe):
    """Bug: no legal action in a non-terminal position."""

    def legal_action_mask(self, state):
        mask = super().legal_action_mask(state)
        return mask if state.ply < 3 else np.zeros_like(mask)


class StaleLegalActionsTicTacToe(TicTacToe):
    """Bug: a fast ``legal_actions`` that forgets the last filled cell."""

    def legal_actions(self, state):
        return np.flatnonzero(state.board < 0) if state.ply < 2 else np.arange(9)


class BadReturnsTicTacToe(TicTacToe):
    """Bug: a win is worth 2."""

    def returns(self, state):
        return super().returns(state) * 2


class OutOfBoundsObservation(TicTacToe):
    """Bug: an observation value outside its declared field bounds."""

    def observe(self, state, player):
        obs = super().observe(state, player)
        obs[0, 0, 0] = 5.0
        return obs


def test_check_game_accepts_a_correct_game():
    report = check_game(TicTacToe(), num_games=10, seed=3)
    assert report.games == 10
    assert 5 * 10 <= report.plies <= 9 * 10


@pytest.mark.parametrize(
    ("game_class", "message"),
    [
        (MutatingTicTacToe, "mutated"),
        (AliasingTicTacToe, "changed|mutated"),
        (LeakyTicTacToe, "leak"),
        (TextLeakyTicTacToe, "text_for changes under determinize"),
        (EmptyMaskTicTacToe, "non-empty"),
        (StaleLegalActionsTicTacToe, "legal_actions must list"),
        (BadReturnsTicTacToe, r"\[-1, 1\]"),
        (OutOfBoundsObservation, "out of bounds"),
    ],
)
def test_check_game_rejects_a_broken_game(game_class, message):
    with pytest.raises(ContractError, match=message):
        check_game(game_class(), num_games=5)


def test_apply_rejects_illegal_and_out_of_range_actions():
    game = TicTacToe()
    state = game.apply(game.initial_state(np.random.default_rng(0)), 4)
    with pytest.raises(ValueError, match="illegal"):
        game.apply(state, 4)
    with pytest.raises(ValueError, match="out of range"):
        game.apply(state, 9)
    with pytest.raises(TypeError, match="int"):
        game.apply(state, 1.5)


def test_parse_action_round_trips_and_names_the_bad_move():
    game = TicTacToe()
    state = game.initial_state(np.random.default_rng(0))
    assert game.parse_action(state, "b2") == 4
    with pytest.raises(ValueError, match="'z9'"):
        game.parse_action(state, "z9")


def test_game_config_errors_name_the_parameter():
    with pytest.raises(ValueError, match="first_player"):
        TicTacToe(first_player=2)
    with pytest.raises(TypeError, match="unknown config parameter.*colour"):
        TicTacToe(colour="red")
    with pytest.raises(TypeError, match="TicTacToeConfig"):
        TicTacToe(config=object())
    assert TicTacToe(config=TicTacToeConfig(1)) == TicTacToe(first_player=1)


def test_make_game_rejects_unknown_names_and_presets():
    with pytest.raises(ValueError, match="unknown game 'chess'.*available"):
        make_game("chess")
    name = boardenvs.list_games()[0]
    with pytest.raises(ValueError, match="unknown preset"):
        make_game(name, preset="no-such-preset")


def test_check_helpers_name_the_field_and_the_allowed_values():
    with pytest.raises(ValueError, match=r"board_size must be in 3\.\.25, got 1"):
        check_int("board_size", 1, 3, 25)
    with pytest.raises(ValueError, match="walls must be an int"):
        check_int("walls", 2.5, 0)
    with pytest.raises(ValueError, match=r"mode must be one of \['a', 'b'\]"):
        check_choice("mode", "c", ("a", "b"))
    with pytest.raises(TypeError, match="unknown"):
        build_config(TicTacToeConfig, {"x": 1})


def test_winner_returns_are_zero_sum():
    assert winner_returns(4, 2).tolist() == pytest.approx([-1 / 3, -1 / 3, 1, -1 / 3])
    assert winner_returns(2, None).tolist() == [0, 0]


def test_terminal_sentinel_and_default_rgb():
    game = TicTacToe()
    state = game.initial_state(np.random.default_rng(0))
    for action in (0, 3, 1, 4, 2):
        state = game.apply(state, action)
    assert state.current_player == TERMINAL and game.is_terminal(state)
    assert game.returns(state).tolist() == [1, -1]
    image = text_to_rgb(game.to_text(state))
    assert image.dtype == np.uint8 and image.ndim == 3 and image.shape[2] == 3
