"""The compiled playout (``baselines.games.splendor.compiled``) against the engine: from every golden position and from
random positions of every preset (determinized views included), playouts of 1, 2 and 5 plies and to the end reach
the state of the generic ``random_playout`` (``key()`` and every attribute, the last action's events included) and
use the same random numbers; blocks of numbers refill at the same place; the move cap truncates as ``Game.apply``
does; other configs and the switch fall back to the generic playout with the same states."""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np
import pytest

from baselines.games import random_games
from baselines.games.splendor import compiled
from baselines.search.playout import UniformStream, random_playout
from boardenvs import make_game
from boardenvs.games.splendor import Splendor, SplendorState
from boardenvs.games.splendor.config import PRESETS
from tests.playouts import both_playouts, positions_before_the_end
from tests.splendor.make_golden import GOLDEN_DIR

pytest.importorskip("numba")
if os.environ.get(compiled.DISABLE_VARIABLE, "") not in ("", "0"):
    pytest.skip(f"{compiled.DISABLE_VARIABLE} is set: the Python playout only", allow_module_level=True)

PLIES = (1, 2, 5, -1)


def assert_same_state(found: SplendorState, expected: SplendorState) -> None:
    """Equal keys and every attribute equal (arrays by value and dtype, events, the empty mask cache)."""
    assert found.key() == expected.key()
    for name in SplendorState.__slots__:
        mine, theirs = getattr(found, name), getattr(expected, name)
        if isinstance(theirs, np.ndarray):
            assert mine.dtype == theirs.dtype and np.array_equal(mine, theirs), name
        else:
            assert type(mine) is type(theirs) and mine == theirs, name


def same_playout(game: Splendor, state: SplendorState, seed: int, plies: int, block: int = 4096) -> SplendorState:
    """Both playouts from ``state`` with equal streams reach the same state using the same numbers; returns it."""
    expected, found = both_playouts(game, state, compiled.compiled_playout, seed, plies, block)
    assert_same_state(found, expected)
    return found


@pytest.mark.parametrize("path", sorted(GOLDEN_DIR.glob("*.jsonl")), ids=lambda path: path.stem)
def test_every_golden_position_plays_out_as_the_generic_playout(path: Path) -> None:
    header, *plies = [json.loads(line) for line in path.read_text().splitlines()]
    game = Splendor(**header["config"])
    assert compiled.is_covered(game.config)
    state = game.initial_state(np.random.default_rng(header["seed"]))
    for index, ply in enumerate(plies):
        same_playout(game, state, seed=index, plies=PLIES[index % len(PLIES)])
        state = game.apply(state, ply["action"])


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_random_positions_and_their_determinized_views_play_out_as_the_generic_playout(preset: str) -> None:
    game = make_game("splendor", preset=preset)
    rng = np.random.default_rng(len(preset))
    phases = set()
    for seed in range(4):
        for index, state in enumerate(positions_before_the_end(game, seed)):
            if rng.random() < 0.2 or state.phase:
                view = game.determinize(state, state.current_player, rng) if rng.random() < 0.5 else state
                same_playout(game, view, seed=1000 * seed + index, plies=int(rng.choice(PLIES)))
                phases.add(state.phase)
    assert phases >= ({0} if game.config.rinascimento else {0, 1, 3})  # official: token returns, gold payments


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_the_kernels_list_the_engines_legal_actions_and_read_back_the_same_state(preset: str) -> None:
    game = make_game("splendor", preset=preset)
    kernels = compiled.load_kernels("baselines.games.splendor.kernels")
    tables = compiled.game_tables(kernels, game.config)
    for seed in range(3):
        for state in positions_before_the_end(game, seed):
            playout = compiled.playout_arrays(kernels, game, state, 1)
            count = kernels.list_legal(tables, kernels.state_views(tables[0], playout.flat), playout.legal)
            assert playout.legal[:count].tolist() == game.legal_actions(state).tolist()
            mask = compiled.mask_of(playout.legal, count, game.spec.num_actions)
            assert mask.tolist() == game.legal_action_mask(state).tolist()
            assert_same_state(compiled.state_of(kernels, game, state, playout.flat), state.copy())


@pytest.mark.parametrize("preset", ["rinascimento", "2p"])
def test_whole_random_games_end_as_the_generic_playout_ends_them(preset: str) -> None:
    game = make_game("splendor", preset=preset)
    for seed in range(20):
        final = same_playout(game, game.initial_state(np.random.default_rng(seed)), seed=seed, plies=-1)
        assert game.is_terminal(final) and not final.truncated and final.events


@pytest.mark.parametrize("preset", ["2p", "3p", "rinascimento"])
def test_noble_choices_and_passes_play_out_as_the_generic_playout(preset: str) -> None:
    game = make_game("splendor", preset=preset)
    pass_id = game.spec.num_actions - 1
    nobles = passes = 0
    for seed in range(80):
        positions = positions_before_the_end(game, seed)
        for index, state in enumerate(positions):
            choosing = state.phase == 2  # several nobles qualify (official rules)
            passing = pass_id in game.legal_actions(state).tolist()
            if choosing or passing:
                nobles, passes = nobles + choosing, passes + passing
                for plies in (1, -1):  # from the position and from the one before it (through the choice)
                    same_playout(game, state, seed=seed, plies=plies)
                    same_playout(game, positions[max(index - 1, 0)], seed=seed, plies=2 * plies)
    assert passes and (nobles or game.config.rinascimento)


def test_a_block_of_seven_numbers_refills_where_the_generic_playout_does() -> None:
    for preset in ("rinascimento", "2p"):
        game = make_game("splendor", preset=preset)
        for seed in range(3):
            same_playout(game, game.initial_state(np.random.default_rng(seed)), seed=seed, plies=-1, block=7)
            same_playout(game, positions_before_the_end(game, seed)[20 + seed], seed=seed, plies=13, block=7)


@pytest.mark.parametrize("max_plies", [10, 37, 64])
@pytest.mark.parametrize("preset", ["rinascimento", "2p"])
def test_the_move_cap_truncates_the_game_as_game_apply_does(preset: str, max_plies: int) -> None:
    game = make_game("splendor", preset=preset, max_plies=max_plies)
    assert compiled.is_covered(game.config)
    for seed in range(4):
        final = same_playout(game, game.initial_state(np.random.default_rng(seed)), seed=seed, plies=-1)
        assert final.truncated and final.ply == max_plies


@pytest.mark.parametrize("preset", ["rinascimento", "2p"])
def test_a_game_that_ends_by_its_rules_on_the_capped_ply_is_not_truncated(preset: str) -> None:
    full = make_game("splendor", preset=preset)
    for seed in range(3):
        end = random_playout(full, full.initial_state(np.random.default_rng(seed)), UniformStream(
            np.random.default_rng(seed)), -1)  # fmt: skip
        capped = make_game("splendor", preset=preset, max_plies=end.ply)
        final = same_playout(capped, capped.initial_state(np.random.default_rng(seed)), seed=seed, plies=-1)
        assert not final.truncated and final.ply == end.ply
        shorter = make_game("splendor", preset=preset, max_plies=end.ply - 1)
        cut = same_playout(shorter, shorter.initial_state(np.random.default_rng(seed)), seed=seed, plies=-1)
        assert cut.truncated and cut.ply == end.ply - 1


def test_a_config_outside_the_presets_falls_back_to_the_generic_playout() -> None:
    game = Splendor(num_players=2, face_up=3, take_same_amount=3)
    state = game.initial_state(np.random.default_rng(4))
    assert not compiled.is_covered(game.config)
    assert compiled.compiled_playout(game, state, UniformStream(np.random.default_rng(4)), -1) is None
    found = compiled.splendor_playout(game, state, UniformStream(np.random.default_rng(4)), -1)
    assert_same_state(found, random_playout(game, state, UniformStream(np.random.default_rng(4)), -1))


def test_the_python_playout_takes_over_without_numba_and_plays_the_same_games() -> None:
    game = make_game("splendor", preset="rinascimento")
    state = positions_before_the_end(game, 3)[30]
    expected = compiled.splendor_playout(game, state, UniformStream(np.random.default_rng(8)), -1)
    games = random_games("splendor", game, 5, 3)
    with compiled.python_only():
        assert compiled.compiled_playout(game, state, UniformStream(np.random.default_rng(8)), -1) is None
        fallback = compiled.splendor_playout(game, state, UniformStream(np.random.default_rng(8)), -1)
        assert random_games("splendor", game, 5, 3) == games
    assert_same_state(fallback, expected)
    assert compiled.DISABLE_VARIABLE not in os.environ
    assert compiled.compiled_playout(game, state, UniformStream(np.random.default_rng(8)), -1).key() == expected.key()


def test_the_returned_state_plays_on_in_the_engine() -> None:
    game = make_game("splendor")
    start = game.initial_state(np.random.default_rng(2))
    middle = compiled.compiled_playout(game, start, UniformStream(np.random.default_rng(2)), 41)
    copy = middle.copy()
    assert copy.key() == middle.key() and game.to_text(middle)
    action = int(game.legal_actions(middle)[0])
    assert game.apply(middle, action).key() == game.apply(copy, action).key()
    assert game.observe(middle, 1).tolist() == game.observe(copy, 1).tolist()
