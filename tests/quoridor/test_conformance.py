"""Every Quoridor variant passes the shipped conformance checker; the registry knows the presets."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

import boardenvs
from boardenvs.games.quoridor import Quoridor, QuoridorConfig
from boardenvs.testing import check_game

VARIANTS = {
    "2p_9x9": {},
    "2p_5x5": {"board_size": 5},
    "2p_3x3": {"board_size": 3},
    "2p_6x6_even": {"board_size": 6},
    "4p_9x9": {"num_players": 4},
    "4p_5x5": {"num_players": 4, "board_size": 5},
    "4p_7x7": {"num_players": 4, "board_size": 7},
    "4p_4x4_even": {"num_players": 4, "board_size": 4},
    "liberal_jumps": {"liberal_jumps": True},
    "liberal_jumps_4p_5x5": {"liberal_jumps": True, "num_players": 4, "board_size": 5},
    "many_walls_short_cap": {"board_size": 5, "walls_per_player": 12, "max_moves": 30},
}


@pytest.mark.parametrize("config", VARIANTS.values(), ids=list(VARIANTS))
def test_variant_passes_check_game(config: dict) -> None:
    games = 20 if Quoridor(**config).config.board_size <= 5 else 6  # a 7x7-9x9 random game has 100s of positions
    report = check_game(Quoridor(**config), num_games=games, seed=0)
    assert report.games == games and report.plies > 20


@pytest.mark.parametrize("preset, expected", [("2p", {}), ("4p", {"num_players": 4}), ("small", {"board_size": 5})])
def test_registry_presets(preset: str, expected: dict) -> None:
    game = boardenvs.make_game("quoridor", preset=preset)
    assert isinstance(game, Quoridor)
    assert game.config == QuoridorConfig(**expected)
    assert "quoridor" in boardenvs.list_games()


def test_spec_of_the_default_game() -> None:
    spec = Quoridor().spec
    assert (spec.name, spec.num_players, spec.num_actions, spec.max_game_length) == ("quoridor", 2, 210, 324)
    assert spec.observation_shape == (10, 9, 9)
    assert [f.name for f in spec.observation_fields] == [
        "pawns",
        "horizontal_walls",
        "vertical_walls",
        "distances",
        "walls_left",
        "my_turn",
        "ones",
    ]
    assert spec.perfect_information and spec.zero_sum
    assert spec.symmetries == ("mirror_left_right",)


def test_spec_of_the_four_player_game() -> None:
    spec = Quoridor(num_players=4, board_size=7).spec
    assert spec.num_actions == 49 + 2 * 36 + 1
    assert spec.observation_shape == (16, 7, 7)
    assert spec.symmetries == ()
    assert spec.field("walls_left").size == 4 and spec.field("distances").size == 4


def test_game_pickles_small_and_equal() -> None:
    game = Quoridor(board_size=7, num_players=4)
    data = pickle.dumps(game)
    assert pickle.loads(data) == game
    assert len(data) < 1000


def test_state_pickles_without_its_memos() -> None:
    game = Quoridor()
    state = game.position(["e5", "e4"], ["d4h", "a1v"], to_move=1)
    game.legal_action_mask(state)
    restored = pickle.loads(pickle.dumps(state))
    assert restored.key() == state.key()
    assert np.array_equal(game.legal_action_mask(restored), game.legal_action_mask(state))
    assert len(pickle.dumps(state)) < 2000


def test_copy_is_equal_and_independent_of_later_moves() -> None:
    game = Quoridor(board_size=5)
    state = game.initial_state(np.random.default_rng(0))
    copy = state.copy()
    game.apply(copy, game.parse_action(copy, "c4"))
    assert copy.key() == state.key() == game.initial_state(np.random.default_rng(1)).key()
