"""The contract machinery itself: the conformance checker catches broken games; the registry errors clearly."""

from __future__ import annotations

import importlib.util
import pickle

import numpy as np
import pytest

import boardenvs
from boardenvs.core import (
    TERMINAL,
    Symmetry,
    build_config,
    check_choice,
    check_int,
    shared_win_returns,
)
from boardenvs.registry import make_game
from boardenvs.testing import ContractError, check_game
from tests.toy_games import Cell, CountDown, MirrorColumns, TicTacToe, TicTacToeConfig, TicTacToeState


class MutatingTicTacToe(TicTacToe):
    """Bug: writes the move into the input state."""

    def _apply(self, state: TicTacToeState, action: int) -> TicTacToeState:
        new = super()._apply(state, action)
        state.board[action] = new.board[action]
        return new


class AliasingTicTacToe(TicTacToe):
    """Bug: the new state shares its board with the old one."""

    def _apply(self, state: TicTacToeState, action: int) -> TicTacToeState:
        new = super()._apply(state, action)
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


class UncountedPlyTicTacToe(TicTacToe):
    """Bug: a move that does not count as a ply."""

    def _apply(self, state: TicTacToeState, action: int) -> TicTacToeState:
        new = super()._apply(state, action)
        new.ply -= 1 if new.ply == 3 else 0
        return new


class BadCodecTicTacToe(TicTacToe):
    """Bug: ``decode`` swaps row and column, so ``encode`` does not invert it."""

    def decode(self, state: TicTacToeState, action: int) -> Cell:
        return Cell(action % 3, action // 3)


class IdentityActionsMirror(MirrorColumns):
    """Bug: mirrors the board but claims every action id maps to itself."""

    def __init__(self) -> None:
        Symmetry.__init__(self, "mirror_left_right", np.arange(9), (0, 1))


class UnmirroredObservation(MirrorColumns):
    """Bug: forgets to mirror the observation."""

    def observation(self, observation: np.ndarray) -> np.ndarray:
        return observation.copy()


class WrongActionsSymmetryTicTacToe(TicTacToe):
    def _make_symmetries(self):
        return (IdentityActionsMirror(),)


class WrongObservationSymmetryTicTacToe(TicTacToe):
    def _make_symmetries(self):
        return (UnmirroredObservation(),)


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
        (UncountedPlyTicTacToe, "count one ply"),
        (BadCodecTicTacToe, "encode"),
        (WrongActionsSymmetryTicTacToe, "mask does not permute|apply does not commute"),
        (WrongObservationSymmetryTicTacToe, "observation does not transform"),
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


def test_a_sole_winner_gets_one_and_each_loser_minus_one_over_n_minus_one():
    assert shared_win_returns(4, [2]).tolist() == pytest.approx([-1 / 3, -1 / 3, 1, -1 / 3])
    assert shared_win_returns(2, [1]).tolist() == [-1, 1]


def test_shared_winners_split_what_the_losers_give_up():
    assert shared_win_returns(4, [0, 1]).tolist() == pytest.approx([1 / 3, 1 / 3, -1 / 3, -1 / 3])
    assert shared_win_returns(3, (0, 2)).tolist() == pytest.approx([1 / 4, -1 / 2, 1 / 4])
    for n in (2, 3, 4):
        for k in range(n + 1):
            returns = shared_win_returns(n, list(range(k)))
            assert abs(float(returns.sum())) < 1e-6 and returns.dtype == np.float32


def test_no_winner_or_every_player_winning_is_a_draw():
    assert shared_win_returns(2, []).tolist() == [0, 0]
    assert shared_win_returns(3, [0, 1, 2]).tolist() == [0, 0, 0]


def test_the_move_cap_ends_the_game_as_truncated_in_the_base_class():
    game = CountDown(start=100, cap=4)
    state = game.initial_state(np.random.default_rng(0))
    for _ in range(3):
        state = game.apply(state, 0)
    assert not game.is_terminal(state) and state.ply == 3
    state = game.apply(state, 0)
    assert game.is_terminal(state) and game.is_truncated(state)
    assert game.returns(state).tolist() == [0, 0]


def test_a_win_on_the_last_ply_before_the_cap_stands_unless_the_game_says_otherwise():
    game = CountDown(start=1, cap=1)
    state = game.apply(game.initial_state(np.random.default_rng(0)), 0)
    assert game.is_terminal(state) and not game.is_truncated(state) and game.returns(state).max() == 1

    class CapWins(CountDown):
        cap_overrides_final_win = True

    capped = CapWins(start=1, cap=1)
    state = capped.apply(capped.initial_state(np.random.default_rng(0)), 0)
    assert capped.is_truncated(state)


def test_apply_accepts_numpy_integers_and_rejects_actions_after_the_end():
    game = TicTacToe()
    state = game.apply(game.initial_state(np.random.default_rng(0)), np.int64(4))
    assert state.board[4] == 0
    for action in (0, 3, 1, np.int32(6), 2):
        state = game.apply(state, action)
    with pytest.raises(ValueError, match="after the game ended"):
        game.apply(state, 5)


def test_games_pickle_by_config_and_rebuild_their_tables():
    game = CountDown(num_players=3, cap=7)
    assert pickle.loads(pickle.dumps(game)) == game
    assert game.__reduce__() == (CountDown, (game.config,))


def test_the_spec_lists_the_declared_symmetries_by_name():
    game = TicTacToe()
    assert game.spec.symmetries == ("mirror_left_right",)
    assert CountDown().spec.symmetries == ()


def test_a_symmetry_moves_per_action_and_per_seat_values():
    mirror = MirrorColumns()
    policy = np.arange(9, dtype=np.float32)
    moved = mirror.action_values_of(policy)
    assert moved[2] == 0 and moved[0] == 2 and moved[4] == 4
    assert mirror.seat_values_of(np.array([1.0, -1.0])).tolist() == [1.0, -1.0]
    assert mirror.actions.flags.writeable is False


def test_a_symmetry_must_permute_actions_and_seats():
    class Broken(MirrorColumns):
        def __init__(self, actions, players):
            Symmetry.__init__(self, "broken", actions, players)

    with pytest.raises(ValueError, match="actions must be a permutation"):
        Broken(np.zeros(9), (0, 1))
    with pytest.raises(ValueError, match="players must be a permutation"):
        Broken(np.arange(9), (0, 0))


def test_terminal_sentinel_and_default_rgb():
    game = TicTacToe()
    state = game.initial_state(np.random.default_rng(0))
    for action in (0, 3, 1, 4, 2):
        state = game.apply(state, action)
    assert state.current_player == TERMINAL and game.is_terminal(state)
    assert game.returns(state).tolist() == [1, -1]
    if importlib.util.find_spec("PIL") is not None:  # rgb_array frames need the render extra
        image = game.render_rgb(state)  # the default: the text picture (text_svg) rasterised
        assert image.dtype == np.uint8 and image.ndim == 3 and image.shape[2] == 3
        assert image.shape[0] % 16 == 0 and image.shape[1] % 16 == 0 and (image < 128).any()


def test_a_one_pass_fast_path_that_finds_the_action_illegal_gets_the_usual_error():
    class OnePass(TicTacToe):
        calls = 0

        def _apply_if_legal(self, state, action):
            OnePass.calls += 1
            return self._apply(state, action) if state.board[action] < 0 else None

        def illegal_reason(self, state, action):
            return f"cell {action} is taken"

    game = OnePass()
    state = game.apply(game.initial_state(np.random.default_rng(0)), 4)
    assert OnePass.calls == 1
    with pytest.raises(ValueError, match="action 4 is illegal here: cell 4 is taken"):
        game.apply(state, 4)
