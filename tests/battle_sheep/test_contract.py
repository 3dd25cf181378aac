"""Battle Sheep on the ``core.Game`` contract: the move codec, the fast legality test, the base ``apply`` and the
move cap, each test named after the promise it checks (``check_game`` on every preset: test_conformance.py)."""

from __future__ import annotations

import numpy as np
import pytest

from boardenvs.core import TERMINAL
from boardenvs.games.battle_sheep import PRESETS, BattleSheep, BattleSheepState, Move
from boardenvs.games.battle_sheep.tables import DIRECTION_NAMES
from tests.battle_sheep.helpers import board, small_game
from tests.playouts import random_game_positions

MOVING = [". . . . .", ". . . . .", ". . A4 . .", ". . . . .", ". . . . B4"]
"""Move phase, player 0 to move with a 4-stack on c3; player 1 has its 4 sheep on e5."""


def random_positions(game: BattleSheep, seeds: range) -> list[BattleSheepState]:
    """Every position of random games with these seeds, terminal ones included."""
    return [state for seed in seeds for state in random_game_positions(game, np.random.default_rng(seed))]


# -- codec ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("config", [{}, {"sheep_per_player": 1}, {"restricted_splits": True, "sheep_per_player": 7}])
def test_codec_round_trips_every_action_id(config: dict) -> None:
    game = small_game(**config)
    state = board(game, MOVING if game.splits == 3 else [". . . . ."] * 5, 0)
    for action in range(game.spec.num_actions):
        move = game.decode(state, action)
        assert game.encode(state, move) == action
        assert game.decode(state, game.encode(state, move)) == move


def test_codec_of_each_kind_of_move() -> None:
    game = small_game()  # 5x5, 4 sheep: 25 place ids, then 8 directions x 3 group sizes per cell
    state = board(game, MOVING, 0)
    assert game.decode(state, 0) == Move("place", 0) == Move("place", 0, 0, 0)
    assert game.encode(state, Move("place", 24)) == 24
    for direction, name in enumerate(DIRECTION_NAMES):
        for split in (1, 2, 3):
            action = game.encode(state, Move("move", 12, direction, split))
            assert action == 25 + (12 * 8 + direction) * 3 + split - 1
            assert game.action_to_str(state, action) == f"c3 {name} {split}"
    assert game.decode(state, game.spec.num_actions - 1) == Move("move", 24, 7, 3)


def test_codec_ignores_the_state() -> None:
    game = small_game()
    placing = game.initial_state(np.random.default_rng(0))
    moving = board(game, MOVING, 0)
    for action in (3, 25, 400, game.spec.num_actions - 1):
        assert game.decode(placing, action) == game.decode(moving, action)
        assert game.encode(placing, game.decode(moving, action)) == action


@pytest.mark.parametrize(
    "move",
    [
        Move("place", 25),
        Move("place", -1),
        Move("place", 3, 1, 0),
        Move("move", 12, 8, 1),
        Move("move", 12, 0, 0),
        Move("move", 12, 0, 4),
        Move("move", 25, 0, 1),
        Move("jump", 12),
    ],
)
def test_encode_refuses_a_move_without_an_action_id(move: Move) -> None:
    game = small_game()
    with pytest.raises(ValueError, match=r"has no action id: write 'place <cell>' \(cells a1..e5\)"):
        game.encode(board(game, MOVING, 0), move)


def test_a_one_sheep_game_has_place_ids_only() -> None:
    game = small_game(sheep_per_player=1)
    assert game.spec.num_actions == 25
    with pytest.raises(ValueError, match="has no action id"):
        game.encode(board(game, [". . . . ."] * 5, 0), Move("move", 0, 0, 1))


# -- fast legality ---------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "config",
    [
        {"field_size": 18},
        {"field_size": 14, "num_players": 3, "restricted_splits": True, "sheep_per_player": 7},
        {"field_size": 16, "border_neighbourhood": 8, "num_players": 4},
        {"field_size": 12, "sheep_per_player": 1},
    ],
)
def test_is_legal_agrees_with_the_mask_on_every_action_id(config: dict) -> None:
    game = small_game(**config)
    for state in random_positions(game, range(6)):
        mask = game.legal_action_mask(state)
        fast = [game.is_legal(state, action) for action in range(game.spec.num_actions)]
        assert fast == mask.tolist()


def test_is_legal_is_false_when_terminal_or_out_of_range() -> None:
    game = small_game()
    state = board(game, MOVING, 0)
    assert not game.is_legal(state, -1) and not game.is_legal(state, game.spec.num_actions)
    assert game.is_legal(state, game.parse_action(state, "c3 N 3"))
    over = random_positions(game, range(1))[-1]
    assert game.is_terminal(over)
    assert not any(game.is_legal(over, action) for action in range(-2, game.spec.num_actions + 2))


def test_apply_refuses_what_is_not_a_legal_int() -> None:
    game = small_game()
    state = board(game, MOVING, 0)
    with pytest.raises(TypeError, match="^action must be an int, got bool$"):
        game.apply(state, True)
    with pytest.raises(TypeError, match="^action must be an int, got float$"):
        game.apply(state, 25.0)
    with pytest.raises(ValueError, match=r"^action 625 is out of range \[0, 625\)$"):
        game.apply(state, 625)
    with pytest.raises(ValueError, match="^action 0 is illegal here: place a1: the placement phase is over"):
        game.apply(state, 0)
    over = random_positions(game, range(1))[-1]
    with pytest.raises(ValueError, match="^action 0 played after the game ended$"):
        game.apply(over, 0)


def test_apply_takes_numpy_ints_and_counts_one_ply() -> None:
    game = small_game()
    state = board(game, MOVING, 0)
    action = game.parse_action(state, "c3 N 1")
    after = game.apply(state, np.int64(action))
    assert after.key() == game.apply(state, action).key()
    assert after.ply == state.ply + 1 and after.current_player == 1


# -- termination and the move cap --------------------------------------------------------------------
CORRIDORS = [". . . # #", "# # # # #", "# # # # #", "# # # # #", ". . . . ."]
"""Two strips of field: player 0 will own row 1 (a1..c1), player 1 row 5."""
TO_THE_CAP = ["place a1", "place a5", "a1 E 1", "a5 E 1", "a1 E 1", "a5 E 1"]
"""Both players split their 3 sheep down to single sheep: p * S = 6 plies, the most a game can last."""


def test_rules_end_a_game_of_single_sheep_exactly_at_the_move_cap() -> None:
    game = small_game(sheep_per_player=3)
    state = board(game, CORRIDORS, 0)
    assert game.spec.max_game_length == 6 == len(TO_THE_CAP)
    for text in TO_THE_CAP:
        assert not game.is_terminal(state)
        state = game.apply(state, game.parse_action(state, text))
    assert state.ply == 6 and state.current_player == TERMINAL and not game.is_truncated(state)
    assert game.scores(state).tolist() == [4.0, 3.0]  # round(3 ** 1.25) against round(1 + 2 ** 1.25)
    assert game.returns(state).tolist() == [1.0, -1.0]


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_random_games_end_by_the_rules_within_p_times_s_plies(preset: str) -> None:
    game = BattleSheep(**PRESETS[preset])
    assert game.spec.max_game_length == game.config.num_players * game.config.sheep_per_player
    for state in random_positions(game, range(3)):
        assert state.ply <= game.spec.max_game_length and not game.is_truncated(state)


def test_the_base_move_cap_truncates_a_state_whose_ply_was_set_by_hand() -> None:
    game = small_game()
    state = board(game, MOVING, 0)
    state.ply = game.spec.max_game_length - 1  # beyond its 2 placements: only a hand-made state gets here
    after = game.apply(state, game.parse_action(state, "c3 N 1"))
    assert after.ply == game.spec.max_game_length
    assert game.is_terminal(after) and game.is_truncated(after) and after.copy().truncated
    assert not game.legal_action_mask(after).any()
    assert game.scores(after).tolist() == [2.0, 1.0]  # c3 and c1 against e5: ranked by the game's rule
    assert game.returns(after).tolist() == [1.0, -1.0]
