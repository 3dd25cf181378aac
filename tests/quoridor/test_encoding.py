"""Action codec, egocentric frames, observations, notation, config validation and rendering."""

from __future__ import annotations

import numpy as np
import pytest

from boardenvs.games.quoridor import Move, Quoridor, QuoridorConfig
from tests.quoridor.helpers import legal_strings, random_positions, transformed

TWO = Quoridor(board_size=5)
FOUR = Quoridor(board_size=5, num_players=4)


def same_view(game: Quoridor, a, b, shift: int) -> bool:
    """``b`` looks to player ``p + shift`` as ``a`` looks to ``p``, for every p, and the movers' masks agree."""
    players = game.config.num_players
    views = all(np.array_equal(game.observe(a, p), game.observe(b, (p + shift) % players)) for p in range(players))
    return views and np.array_equal(game.legal_action_mask(a), game.legal_action_mask(b))


# -- egocentric action ids and observations -------------------------------------------------------
def test_same_relative_move_has_the_same_id_for_both_players() -> None:
    start = TWO.initial_state(np.random.default_rng(0))
    after = TWO.apply(start, TWO.parse_action(start, "c4"))
    assert TWO.parse_action(start, "c4") == TWO.parse_action(after, "c2")  # both one step forward
    assert TWO.parse_action(start, "b5") == TWO.parse_action(after, "d1")  # both one step to their left
    assert TWO.parse_action(start, "a4h") == TWO.parse_action(after, "d1h")  # the 180-degree turned wall


def test_initial_views_of_both_players_are_equal() -> None:
    for game in (TWO, Quoridor(), Quoridor(board_size=7, num_players=4)):
        start = game.initial_state(np.random.default_rng(0))
        first = game.observe(start, 0)
        mover = game.spec.field("my_turn").start
        for player in range(1, game.config.num_players):
            view = game.observe(start, player)
            view[mover] = 1.0
            assert np.array_equal(view, first)


@pytest.mark.parametrize("game", [TWO, Quoridor(board_size=6), Quoridor()], ids=["5x5", "6x6", "9x9"])
def test_mirrored_two_player_positions_look_the_same_to_the_mirrored_player(game: Quoridor) -> None:
    for state in random_positions(game, seed=3, count=25):
        assert same_view(game, state, transformed(game, state, quarter_turns_cw=2, shift=1), shift=1)


@pytest.mark.parametrize("game", [FOUR, Quoridor(board_size=6, num_players=4)], ids=["5x5", "6x6"])
def test_quarter_turned_four_player_positions_look_the_same_to_the_next_player(game: Quoridor) -> None:
    for state in random_positions(game, seed=4, count=25):
        for turns in (1, 2, 3):
            assert same_view(game, state, transformed(game, state, quarter_turns_cw=turns, shift=turns), turns)


def test_left_right_mirror_is_a_symmetry_of_the_two_player_game() -> None:
    """The mirror maps legal moves to legal moves: mask and planes are flipped (wall anchors shift by one)."""
    n = TWO.config.board_size
    for state in random_positions(TWO, seed=5, count=40):
        mirror = transformed(TWO, state, mirror=True)
        mirrored_moves = {_mirror_name(name, n) for name in legal_strings(TWO, state)}
        assert mirrored_moves == legal_strings(TWO, mirror)
        assert np.array_equal(_mirror_planes(TWO, TWO.observe(state, 1)), TWO.observe(mirror, 1))
        assert np.array_equal(TWO.symmetries[0].observation(TWO.observe(state, 1)), TWO.observe(mirror, 1))


def _mirror_name(name: str, n: int) -> str:
    if name == "pass":
        return name
    col = ord(name[0]) - ord("a")
    flipped = (n - 2 - col) if name[-1] in "hv" else (n - 1 - col)
    return chr(ord("a") + flipped) + name[1:]


def _mirror_planes(game: Quoridor, planes: np.ndarray) -> np.ndarray:
    out = planes[:, :, ::-1].copy()
    for name in ("horizontal_walls", "vertical_walls"):
        index = game.spec.field(name).start
        out[index, :, : game.config.board_size - 1] = planes[index, :, -2::-1]
        out[index, :, -1] = 0
    return out


def test_encode_and_decode_are_inverse_and_absolute() -> None:
    state = TWO.position(["c4", "c2"], ["a1h"], to_move=1)
    for action in TWO.legal_actions(state):
        move = TWO.decode(state, int(action))
        assert TWO.encode(state, move) == action
    assert TWO.decode(state, TWO.parse_action(state, "c3")) == Move("pawn", 2, 2, False)
    assert TWO.decode(state, TWO.parse_action(state, "b3v")) == Move("wall", 2, 1, False)
    assert TWO.decode(state, TWO.spec.num_actions - 1) == Move("pass", -1, -1, False)
    assert TWO.encode(state, Move("wall", 0, 0, True)) == 25 + 15  # turned 180 degrees: the last h anchor


def test_action_ranges_in_the_movers_frame() -> None:
    start = TWO.initial_state(np.random.default_rng(0))
    assert TWO.decode(start, 0) == Move("pawn", 0, 0, False)
    assert TWO.decode(start, 25) == Move("wall", 0, 0, True)
    assert TWO.decode(start, 25 + 16) == Move("wall", 0, 0, False)
    quarter = FOUR.position(["c5", "a3", "c1", "e3"], to_move=1)  # player 1's frame: a quarter turn
    assert FOUR.decode(quarter, 0) == Move("pawn", 0, 4, False)  # its top-left is the absolute top-right
    assert FOUR.decode(quarter, 25) == Move("wall", 0, 3, False)  # horizontal in its frame, vertical here


def test_encode_rejects_moves_off_the_board() -> None:
    start = TWO.initial_state(np.random.default_rng(0))
    with pytest.raises(ValueError, match="off the board"):
        TWO.encode(start, Move("wall", 4, 0, True))
    with pytest.raises(ValueError, match="kind"):
        TWO.encode(start, Move("jump", 0, 0))


# -- observation planes ----------------------------------------------------------------------------
def test_observation_planes_of_a_position() -> None:
    game = Quoridor(board_size=5, walls_per_player=4)
    state = game.position(["c4", "c2"], ["a1h", "d3v"], to_move=0, walls_left=[3, 1])
    obs = game.observe(state, 0)
    assert obs.shape == (10, 5, 5) and obs.dtype == np.float32
    assert obs[0, 3, 2] == 1 and obs[0].sum() == 1  # me
    assert obs[1, 1, 2] == 1 and obs[1].sum() == 1  # the opponent
    assert obs[2, 0, 0] == 1 and obs[2].sum() == 1  # a1h
    assert obs[3, 2, 3] == 1 and obs[3].sum() == 1  # d3v
    assert obs[4, 3, 2] * 25 == game.distance_to_goal(state, 0) and obs[5, 1, 2] * 25 == 3  # distances
    assert np.all(obs[6] == 0.75) and np.all(obs[7] == 0.25)
    assert np.all(obs[8] == 1) and np.all(obs[9] == 1)
    other = game.observe(state, 1)
    assert other[0, 3, 2] == 1 and other[1, 1, 2] == 1  # 180 degrees: c2 -> c4, c4 -> c2
    assert other[2, 3, 3] == 1 and other[3, 1, 0] == 1  # a1h -> anchor (3, 3); d3v -> anchor (1, 0)
    assert np.all(other[6] == 0.25) and np.all(other[8] == 0)


def test_observation_is_fresh_and_typed_view_splits_it() -> None:
    state = TWO.initial_state(np.random.default_rng(0))
    obs = TWO.observe(state, 0)
    obs[:] = 7
    assert TWO.observe(state, 0).max() == 1
    parts = TWO.spec.split_observation(TWO.observe(state, 0))
    assert parts["pawns"].shape == (2, 5, 5) and parts["walls_left"].shape == (2, 5, 5)


def test_walls_left_plane_with_zero_walls_per_player() -> None:
    game = Quoridor(board_size=5, walls_per_player=0)
    obs = game.observe(game.initial_state(np.random.default_rng(0)), 0)
    assert not obs[game.spec.field("walls_left").start :][:2].any()


# -- notation ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("text", ["", "e", "5e", "e2x", "c3hv", "pas", "e 2", "#"])
def test_malformed_notation_names_the_move_and_the_format(text: str) -> None:
    state = TWO.initial_state(np.random.default_rng(0))
    with pytest.raises(ValueError, match=r"cannot read move .*expected a square like 'e2'"):
        TWO.parse_action(state, text)


@pytest.mark.parametrize("text", ["f1", "a6", "e1h", "a5v", "z1"])
def test_notation_off_the_board_is_rejected(text: str) -> None:
    state = TWO.initial_state(np.random.default_rng(0))
    with pytest.raises(ValueError, match=f"move '{text}'"):
        TWO.parse_action(state, text)


def test_illegal_but_wellformed_notation_says_why() -> None:
    state = TWO.initial_state(np.random.default_rng(0))
    with pytest.raises(ValueError, match="illegal move 'c3': c3 is not reachable"):
        TWO.parse_action(state, "c3")


def test_notation_is_openspiels_and_case_insensitive() -> None:
    state = TWO.initial_state(np.random.default_rng(0))
    assert TWO.parse_action(state, " C4 ") == TWO.parse_action(state, "c4")
    assert TWO.action_to_str(state, TWO.parse_action(state, "b1h")) == "b1h"
    big = Quoridor(board_size=11)
    assert big.action_to_str(big.initial_state(), big.parse_action(big.initial_state(), "j10v")) == "j10v"


# -- config -----------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "config, field",
    [
        ({"board_size": 1}, "board_size"),
        ({"board_size": 26}, "board_size"),
        ({"board_size": 9.0}, "board_size"),
        ({"num_players": 3}, "num_players"),
        ({"num_players": 1}, "num_players"),
        ({"walls_per_player": -1}, "walls_per_player"),
        ({"max_moves": 0}, "max_moves"),
        ({"liberal_jumps": 1}, "liberal_jumps"),
        ({"walls_per_player": 2**63}, r"walls_per_player must be in 0\.\.128, got 9223372036854775808"),
        ({"board_size": 5, "walls_per_player": 33}, r"walls_per_player must be in 0\.\.32, got 33"),
        ({"max_moves": 2**63}, r"max_moves must be in 1\.\.1000000"),
    ],
)
def test_bad_config_raises_value_error_naming_the_field(config: dict, field: str) -> None:
    with pytest.raises(ValueError, match=field):
        QuoridorConfig(**config)


def test_three_players_error_says_two_or_four() -> None:
    with pytest.raises(ValueError, match="2 or 4"):
        Quoridor(num_players=3)


def test_unknown_config_parameter_is_a_type_error() -> None:
    with pytest.raises(TypeError, match="unknown config parameter"):
        Quoridor(walls=3)


# -- rendering --------------------------------------------------------------------------------------
def test_to_text_draws_walls_like_openspiel() -> None:
    state = TWO.position(["c5", "c1"], ["b1h", "a3v", "c4h", "d2v", "d3h"], to_move=1, walls_left=[0, 1])
    assert TWO.to_text(state).split("\n") == [
        "Quoridor 5x5, ply 0, player 1 to move, walls left: 0 1",
        "   a   b   c   d   e",
        " 1 .   .   1   .   .  1",
        "      ---+---          ",
        " 2 .   .   .   . | .  2",
        "                 +     ",
        " 3 . | .   .   . | .  3",
        "     +        ---+---  ",
        " 4 . | .   .   .   .  4",
        "          ---+---      ",
        " 5 .   .   0   .   .  5",
        "   a   b   c   d   e",
    ]


def test_render_rgb_draws_board_pawns_and_walls() -> None:
    pytest.importorskip("PIL")
    state = TWO.position(["c5", "c1"], ["b1h"])
    image = TWO.render_rgb(state)
    assert image.dtype == np.uint8 and image.ndim == 3 and image.shape[2] == 3
    plain = TWO.render_rgb(TWO.position(["c5", "c1"]))
    assert image.shape == plain.shape and (image != plain).any()
    colours = {tuple(pixel) for pixel in image.reshape(-1, 3)}
    assert len(colours) >= 5  # board, grid, wall and two pawn colours


def test_spec_sheet_example_runs() -> None:
    import doctest

    import boardenvs.games.quoridor.game as module

    assert doctest.testmod(module).failed == 0


def test_action_ids_out_of_range_are_rejected_by_the_codec() -> None:
    state = TWO.initial_state(np.random.default_rng(0))
    for action in (-1, TWO.spec.num_actions):
        with pytest.raises(ValueError, match="out of range"):
            TWO.action_to_str(state, action)
        with pytest.raises(ValueError, match="out of range"):
            TWO.decode(state, action)


def test_distance_planes_hold_each_players_shortest_path_from_every_square() -> None:
    game = Quoridor(board_size=5)
    state = game.position(pawns=["c4", "c2"], walls=["b1h"], to_move=0)
    field = game.spec.field("distances")
    mine, theirs = game.observe(state, 0)[field.start : field.stop] * 25
    assert round(mine[3, 2]) == game.distance_to_goal(state, 0) == 4  # my pawn on c4, around the wall
    assert [round(v) for v in mine[1]] == [1, 2, 2, 1, 1]  # the wall under b1-c1 forces a detour
    assert round(theirs[1, 2]) == game.distance_to_goal(state, 1) == 3
    their_view = game.observe(state, 1)[field.start : field.stop] * 25
    assert np.allclose(their_view[0], np.rot90(theirs, 2)) and np.allclose(their_view[1], np.rot90(mine, 2))


def test_a_square_cut_off_from_the_goal_has_distance_one() -> None:
    game = Quoridor(board_size=3)
    state = game.position(pawns=["b3", "c1"], walls=["a1h", "b1v"], to_move=0)  # a1, b1 walled off together
    field = game.spec.field("distances")
    mine, theirs = game.observe(state, 0)[field.start : field.stop]
    assert mine[0].tolist() == [0.0, 0.0, 0.0]  # my goal row
    assert theirs[0, :2].tolist() == [1.0, 1.0] and theirs[0, 2] == 2 / 9  # their goal is row 3
