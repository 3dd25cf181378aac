"""The left-right mirror of the two-player game (``boardenvs.games.quoridor.symmetry``), and none with four."""

from __future__ import annotations

import numpy as np
import pytest

from boardenvs.core import TERMINAL
from boardenvs.games.quoridor import MirrorLeftRight, Move, Quoridor
from boardenvs.testing import check_game, check_symmetry
from tests.quoridor.helpers import random_positions, transformed

NINE = Quoridor()
FIVE = Quoridor(board_size=5)


def mirror_of(game: Quoridor) -> MirrorLeftRight:
    (mirror,) = game.symmetries
    return mirror


def image_name(game: Quoridor, state, move: str) -> str:
    """The notation of the mirror image of ``move`` for the player to move in ``state``."""
    return game.action_to_str(state, int(mirror_of(game).actions[game.parse_action(state, move)]))


def test_two_player_games_declare_the_mirror_and_four_player_games_none() -> None:
    assert NINE.spec.symmetries == ("mirror_left_right",) and isinstance(mirror_of(NINE), MirrorLeftRight)
    assert Quoridor(num_players=4).symmetries == () and Quoridor(num_players=4).spec.symmetries == ()
    with pytest.raises(ValueError, match="two-player"):
        MirrorLeftRight(Quoridor(num_players=4).tables)


@pytest.mark.parametrize("config", [{"board_size": 5}, {}, {"board_size": 6}], ids=["5x5", "9x9", "6x6"])
def test_check_game_verifies_the_mirror(config: dict) -> None:
    game = Quoridor(**config)
    assert game.symmetries
    check_game(game, num_games=6, seed=11)


def test_mirror_maps_e8_to_e8_and_c3h_to_f3h_on_9x9_for_player_0() -> None:
    start = NINE.initial_state(np.random.default_rng(0))
    assert image_name(NINE, start, "e8") == "e8"  # the centre column stays
    assert image_name(NINE, start, "d9") == "f9"  # squares: column c -> 8 - c
    assert image_name(NINE, start, "c3h") == "f3h"  # wall anchors: column c -> 7 - c, orientation kept
    assert image_name(NINE, start, "a1v") == "h1v"
    pass_id = NINE.encode(start, Move("pass", -1, -1))
    assert mirror_of(NINE).actions[pass_id] == pass_id


def test_mirror_maps_the_same_moves_for_player_1_in_its_turned_frame() -> None:
    after = NINE.apply(NINE.initial_state(np.random.default_rng(0)), NINE.parse_action(NINE.initial_state(), "e8"))
    assert after.current_player == 1
    assert image_name(NINE, after, "e2") == "e2"
    assert image_name(NINE, after, "d1") == "f1"
    assert image_name(NINE, after, "c3h") == "f3h"
    assert image_name(NINE, after, "h8v") == "a8v"


@pytest.mark.parametrize("game", [FIVE, Quoridor(board_size=6), NINE], ids=["5x5", "6x6", "9x9"])
def test_the_action_permutation_is_the_same_in_both_players_frames(game: Quoridor) -> None:
    """Player 1's frame is turned by 180 degrees, which commutes with the mirror: one permutation serves both."""
    mirror = mirror_of(game)
    for player in (0, 1):
        assert mirror.permutation_in_frame(player) == mirror.actions.tolist()


@pytest.mark.parametrize("game", [FIVE, Quoridor(board_size=6), NINE], ids=["5x5", "6x6", "9x9"])
def test_the_mirror_is_an_involution(game: Quoridor) -> None:
    mirror = mirror_of(game)
    assert np.array_equal(mirror.actions[mirror.actions], np.arange(game.spec.num_actions))
    for state in random_positions(game, seed=7, count=20):
        assert mirror.state(mirror.state(state)).key() == state.key()
        for player in (0, 1):
            obs = game.observe(state, player)
            assert np.array_equal(mirror.observation(mirror.observation(obs)), obs)


def test_mirrored_position_text() -> None:
    """b4 -> d4, d1 -> b1, a1h -> d1h, c3v -> b3v; seats, walls in stock, mover and ply unchanged."""
    state = FIVE.position(["b4", "d1"], ["a1h", "c3v"], to_move=1, walls_left=[2, 1], ply=7)
    assert FIVE.to_text(mirror_of(FIVE).state(state)).split("\n") == [
        "Quoridor 5x5, ply 7, player 1 to move, walls left: 2 1",
        "   a   b   c   d   e",
        " 1 .   1   .   .   .  1",
        "              ---+---  ",
        " 2 .   .   .   .   .  2",
        "                       ",
        " 3 .   . | .   .   .  3",
        "         +             ",
        " 4 .   . | .   0   .  4",
        "                       ",
        " 5 .   .   .   .   .  5",
        "   a   b   c   d   e",
    ]


def test_mirrored_state_equals_the_position_built_from_mirrored_notation() -> None:
    for state in random_positions(FIVE, seed=8, count=30):
        assert mirror_of(FIVE).state(state).key() == transformed(FIVE, state, mirror=True).key()


def test_observation_wall_planes_move_anchors_by_n_minus_2() -> None:
    state = FIVE.position(["c5", "c1"], ["a1h", "c3v"])
    field = FIVE.spec.field("horizontal_walls").start
    planes = mirror_of(FIVE).observation(FIVE.observe(state, 0))
    assert planes[field, 0, 3] == 1 and planes[field].sum() == 1  # a1h -> d1h: anchor column 0 -> 3
    assert planes[field + 1, 2, 1] == 1 and planes[field + 1].sum() == 1  # c3v -> b3v: anchor column 2 -> 1
    assert planes[field : field + 2, :, -1].sum() == 0  # the unused last column stays empty


def test_mirror_keeps_the_outcome_of_a_finished_game() -> None:
    end = FIVE.apply(FIVE.position(["b2", "e4"]), FIVE.parse_action(FIVE.position(["b2", "e4"]), "b1"))
    image = mirror_of(FIVE).state(end)
    assert image.current_player == TERMINAL and image.winner == 0 and image.pawns[0] == 3  # b1 -> d1
    check_symmetry(FIVE, mirror_of(FIVE), end, None)


def test_mirror_commutes_with_liberal_jumps() -> None:
    game = Quoridor(board_size=5, liberal_jumps=True)
    for state in random_positions(game, seed=9, count=15):
        action = int(game.legal_actions(state)[0])
        check_symmetry(game, mirror_of(game), state, action)


def test_observation_mirror_works_on_a_batch_of_observations() -> None:
    """Learners augment whole batches: leading axes are kept, each observation mirrored alone."""
    mirror = mirror_of(FIVE)
    states = random_positions(FIVE, seed=10, count=4)
    batch = np.stack([FIVE.observe(state, state.current_player) for state in states])
    assert np.array_equal(mirror.observation(batch), np.stack([mirror.observation(obs) for obs in batch]))
