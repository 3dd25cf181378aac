"""The compiled playout (``baselines.games.battle_sheep.compiled``) against the engine: from every golden position and
from random positions of the four course settings with 2, 3 and 4 players (determinized views included), playouts of
1, 2 and 5 plies and to the end reach the state of the generic ``random_playout`` (``key()``, ``stacks``,
``truncated``) and use the same random numbers; blocks of numbers refill at the same place; the move cap truncates as
``Game.apply`` does; without Numba the generic playout gives the same states."""

from __future__ import annotations

import dataclasses
import json
import os
from pathlib import Path

import numpy as np
import pytest

from baselines.games import random_games
from baselines.games.battle_sheep import compiled
from baselines.search.playout import UniformStream, random_playout
from boardenvs.core import GameSpec
from boardenvs.games.battle_sheep import BattleSheep, BattleSheepState
from boardenvs.games.battle_sheep.config import PRESETS
from tests.battle_sheep.helpers import board, small_game
from tests.battle_sheep.make_golden import GOLDEN_DIR
from tests.playouts import both_playouts, positions_before_the_end

pytest.importorskip("numba")
if os.environ.get(compiled.DISABLE_VARIABLE, "") not in ("", "0"):
    pytest.skip(f"{compiled.DISABLE_VARIABLE} is set: the Python playout only", allow_module_level=True)

SETTINGS = [
    (name, players) for name in PRESETS for players in (2, 3, 4) if players == 4 or not PRESETS[name].get("teams")
]
PLIES = (1, 2, 5, -1)


def setting_game(name: str, players: int) -> BattleSheep:
    return BattleSheep(**{**PRESETS[name], "num_players": players})


def same_playout(
    game: BattleSheep, state: BattleSheepState, seed: int, plies: int, block: int = 4096
) -> BattleSheepState:
    """Both playouts from ``state`` with equal streams reach the same state using the same numbers; returns it."""
    stacks = state.stacks
    expected, found = both_playouts(game, state, compiled.compiled_playout, seed, plies, block)
    assert found.stacks == expected.stacks and found.truncated == expected.truncated
    assert found.owner.dtype == expected.owner.dtype and found.counts.dtype == expected.counts.dtype
    assert all(type(getattr(found, name)) is int for name in ("placed", "current_player", "ply"))
    assert state.stacks == stacks
    return found


@pytest.mark.parametrize("path", sorted(GOLDEN_DIR.glob("*.jsonl")), ids=lambda path: path.stem)
def test_every_golden_position_plays_out_as_the_generic_playout(path: Path) -> None:
    header, *plies = [json.loads(line) for line in path.read_text().splitlines()]
    game = BattleSheep(**header["config"])
    state = game.initial_state(np.random.default_rng(header["seed"]))
    for index, ply in enumerate(plies):
        for plies_left in PLIES:
            same_playout(game, state, seed=index, plies=plies_left)
        state = game.apply(state, ply["action"])


@pytest.mark.parametrize(("name", "players"), SETTINGS, ids=lambda value: str(value))
def test_random_positions_of_every_setting_play_out_as_the_generic_playout(name: str, players: int) -> None:
    game = setting_game(name, players)
    rng = np.random.default_rng(players)
    for seed in range(2):
        for index, state in enumerate(positions_before_the_end(game, seed)):
            if rng.random() < 0.2:
                view = game.determinize(state, state.current_player, rng) if rng.random() < 0.5 else state
                same_playout(game, view, seed=1000 * seed + index, plies=int(rng.choice(PLIES)))


@pytest.mark.parametrize(("name", "players"), SETTINGS, ids=lambda value: str(value))
def test_random_games_from_the_start_end_as_the_generic_playout_ends_them(name: str, players: int) -> None:
    game = setting_game(name, players)
    for seed in range(4):
        final = same_playout(game, game.initial_state(np.random.default_rng(seed)), seed=seed, plies=-1)
        assert game.is_terminal(final) and not final.truncated and final.placed == players


@pytest.mark.parametrize("config", [{"restricted_splits": True}, {"border_neighbourhood": 8}, {"num_players": 4}])
def test_small_boards_with_variant_rules_play_out_as_the_generic_playout(config: dict) -> None:
    game = small_game(**config, field_size=12, sheep_per_player=6)
    for seed in range(20):
        for plies in PLIES:
            same_playout(game, game.initial_state(np.random.default_rng(seed)), seed=seed, plies=plies)


def test_a_blocked_player_is_skipped_as_the_engine_skips_it() -> None:
    game = small_game(num_players=3)
    state = board(game, ["B3 . . . .", "# # # # #", "A3 # C2 . .", "# # # # #", "# # # # #"], to_move=1)
    assert not game.is_terminal(state) and game.legal_actions(state).size
    for seed in range(5):
        after_two = same_playout(game, state, seed=seed, plies=2)  # B, C, then B again: A is blocked
        assert after_two.current_player == 1
        final = same_playout(game, state, seed=seed, plies=-1)
        assert final.ply > state.ply + 2 and game.is_terminal(final)


def test_a_placer_without_a_placement_cell_fails_as_the_generic_playout_fails() -> None:
    game = BattleSheep(board_size=3, field_size=9, num_players=2, sheep_per_player=2)
    state = board(game, ["A1 A1 A1", "A1 . A1", "A1 A1 A1"], to_move=1)
    with pytest.raises(IndexError):
        random_playout(game, state, UniformStream(np.random.default_rng(0)), -1)
    with pytest.raises(IndexError):
        compiled.compiled_playout(game, state, UniformStream(np.random.default_rng(0)), -1)


@pytest.mark.parametrize(("name", "players"), SETTINGS, ids=lambda value: str(value))
def test_the_compiled_new_game_draws_the_field_of_initial_state_from_the_same_numbers(name: str, players: int) -> None:
    for config in ({**PRESETS[name], "num_players": players}, {"board_size": 5, "field_size": 25, "num_players": 3}):
        game = BattleSheep(**config)
        for seed in range(25):
            python, fast = np.random.default_rng(seed), np.random.default_rng(seed)
            expected, found = game.initial_state(python), compiled.compiled_initial_state(game, fast)
            assert found.key() == expected.key() and found.stacks == expected.stacks and not found.truncated
            assert found.owner.dtype == expected.owner.dtype and found.counts.dtype == expected.counts.dtype
            assert python.bit_generator.state == fast.bit_generator.state


def test_a_block_of_seven_numbers_refills_where_the_generic_playout_does() -> None:
    game = BattleSheep()
    for seed in range(3):
        start = game.initial_state(np.random.default_rng(seed))
        same_playout(game, start, seed=seed, plies=-1, block=7)
        same_playout(game, positions_before_the_end(game, seed)[10 + seed], seed=seed, plies=13, block=7)


def capped_game(cap: int) -> BattleSheep:
    """The basic setting with a move cap of ``cap`` plies (no game reaches the real cap, ``players * sheep``)."""

    class CappedSheep(BattleSheep):
        def _make_spec(self) -> GameSpec:
            return dataclasses.replace(super()._make_spec(), max_game_length=cap)

    return CappedSheep()


@pytest.mark.parametrize("cap", [1, 4, 5, 30])
def test_the_move_cap_truncates_the_game_as_game_apply_does(cap: int) -> None:
    game = capped_game(cap)
    assert game.spec.max_game_length == cap
    for seed in range(4):
        final = same_playout(game, game.initial_state(np.random.default_rng(seed)), seed=seed, plies=-1)
        assert final.truncated and final.ply == cap and game.is_terminal(final)


def test_the_python_playout_takes_over_without_numba_and_plays_the_same_games() -> None:
    game = BattleSheep()
    state = positions_before_the_end(game, 3)[20]
    expected = compiled.battle_sheep_playout(game, state, UniformStream(np.random.default_rng(8)), -1)
    games = random_games("battle_sheep", game, 5, 3)
    with compiled.python_only():
        assert compiled.compiled_playout(game, state, UniformStream(np.random.default_rng(8)), -1) is None
        assert compiled.compiled_initial_state(game, np.random.default_rng(8)) is None
        fallback = compiled.battle_sheep_playout(game, state, UniformStream(np.random.default_rng(8)), -1)
        assert random_games("battle_sheep", game, 5, 3) == games
    assert fallback.key() == expected.key() and fallback.stacks == expected.stacks
    assert compiled.DISABLE_VARIABLE not in os.environ
    found = compiled.compiled_playout(game, state, UniformStream(np.random.default_rng(8)), -1)
    assert found.key() == expected.key()




def test_the_returned_state_plays_on_in_the_engine() -> None:
    game = BattleSheep()
    start = game.initial_state(np.random.default_rng(2))
    middle = compiled.compiled_playout(game, start, UniformStream(np.random.default_rng(2)), 9)
    copy = middle.copy()
    assert copy.key() == middle.key() and game.to_text(middle)
    action = int(game.legal_actions(middle)[-1])
    assert game.apply(middle, action).key() == game.apply(copy, action).key()
    assert game.observe(middle, 1).tolist() == game.observe(copy, 1).tolist()
