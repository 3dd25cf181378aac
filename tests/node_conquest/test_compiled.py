"""The compiled playout (``baselines.games.node_conquest.compiled``) against the engine: from every golden position and
from random positions of every variant (grids, hexes, a graph, 2-4 players, PASS, growth of the mover only, the units
tie-break at a short cap), playouts of 1, 2 and 5 plies and to the end reach the state of the generic
``random_playout`` (``key()``, the winners and the truncation included) and use the same random numbers; blocks of
numbers refill at the same place; the move cap ends games as ``Game.apply`` does; without Numba the generic playout
gives the same states."""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np
import pytest

from baselines.games import random_games
from baselines.games.node_conquest import compiled
from baselines.search.playout import UniformStream, random_playout
from boardenvs.games.node_conquest import NodeConquest, NodeConquestState
from tests.node_conquest.make_golden import GOLDEN_DIR
from tests.node_conquest.test_conformance import VARIANTS
from tests.playouts import both_playouts, positions_before_the_end

pytest.importorskip("numba")
if os.environ.get(compiled.DISABLE_VARIABLE, "") not in ("", "0"):
    pytest.skip(f"{compiled.DISABLE_VARIABLE} is set: the Python playout only", allow_module_level=True)

PLIES = (1, 2, 5, -1)


def same_playout(game: NodeConquest, state: NodeConquestState, seed: int, plies: int,
                 block: int = 4096) -> NodeConquestState:  # fmt: skip
    """Both playouts from ``state`` with equal streams reach the same state using the same numbers; returns it."""
    expected, found = both_playouts(game, state, compiled.compiled_playout, seed, plies, block)
    assert (found.winners, found.truncated, found.alive) == (expected.winners, expected.truncated, expected.alive)
    assert found.owner.dtype == expected.owner.dtype and found.units.dtype == expected.units.dtype
    return found


@pytest.mark.parametrize("path", sorted(GOLDEN_DIR.glob("*.jsonl")), ids=lambda path: path.stem)
def test_every_golden_position_plays_out_as_the_generic_playout(path: Path) -> None:
    header, *plies = [json.loads(line) for line in path.read_text().splitlines()]
    game = NodeConquest(**header["config"])
    state = game.initial_state()
    for index, ply in enumerate(plies):
        same_playout(game, state, seed=index, plies=PLIES[index % len(PLIES)])
        state = game.apply(state, ply["action"])


@pytest.mark.parametrize("config", VARIANTS.values(), ids=list(VARIANTS))
def test_random_positions_of_every_variant_play_out_as_the_generic_playout(config: dict) -> None:
    game = NodeConquest(**config)
    rng = np.random.default_rng(7)
    for seed in range(2):
        for index, state in enumerate(positions_before_the_end(game, seed)):
            if index % 9 == 0 or rng.random() < 0.05:
                same_playout(game, state, seed=1000 * seed + index, plies=int(rng.choice(PLIES)))


def test_whole_random_games_end_as_the_generic_playout_ends_them() -> None:
    endings = set()
    for config in ({}, {"num_players": 4}, VARIANTS["3x3"], VARIANTS["ring8_graph"], VARIANTS["mover_only_growth"]):
        game = NodeConquest(**config)
        for seed in range(8):
            final = same_playout(game, game.initial_state(), seed=seed, plies=-1)
            assert game.is_terminal(final)
            endings.add(final.truncated)
    assert endings == {True, False}  # at the move cap and by elimination (the small maps)


@pytest.mark.parametrize("config", [VARIANTS["mover_only_growth"], VARIANTS["move_all_units"]])
def test_a_player_left_only_pass_passes_as_in_the_generic_playout(config: dict) -> None:
    game = NodeConquest(**config)
    start = game.initial_state()
    units = start.units.copy()
    units[start.owner == 0] = game.legality.min_units - 1  # player 0's nodes too weak to move from
    stuck = NodeConquestState(start.owner.copy(), units, start.alive, 0, ply=4)
    assert game.legal_actions(stuck).tolist() == [game.legality.pass_action]
    for seed in range(4):
        same_playout(game, stuck, seed=seed, plies=1 + seed)
        same_playout(game, stuck, seed=seed, plies=-1)


def test_a_block_of_seven_numbers_refills_where_the_generic_playout_does() -> None:
    game = NodeConquest()
    for seed in range(3):
        same_playout(game, game.initial_state(), seed=seed, plies=-1, block=7)
        same_playout(game, positions_before_the_end(game, seed)[20 + seed], seed=seed, plies=13, block=7)


@pytest.mark.parametrize("max_plies", [1, 9, 40])
def test_the_move_cap_ends_the_game_with_its_leaders_as_game_apply_does(max_plies: int) -> None:
    game = NodeConquest(max_plies=max_plies, tie_break="units")
    for seed in range(4):
        final = same_playout(game, game.initial_state(), seed=seed, plies=-1)
        assert final.truncated and final.ply == max_plies and final.winners


def test_the_python_playout_takes_over_without_numba_and_plays_the_same_games() -> None:
    game = NodeConquest()
    state = positions_before_the_end(game, 3)[10]
    expected = compiled.node_conquest_playout(game, state, UniformStream(np.random.default_rng(8)), -1)
    games = random_games("node_conquest", game, 5, 3)
    with compiled.python_only():
        assert compiled.compiled_playout(game, state, UniformStream(np.random.default_rng(8)), -1) is None
        fallback = compiled.node_conquest_playout(game, state, UniformStream(np.random.default_rng(8)), -1)
        assert random_games("node_conquest", game, 5, 3) == games
    assert fallback.key() == expected.key() and fallback.winners == expected.winners
    generic = random_playout(game, state, UniformStream(np.random.default_rng(8)), -1)
    assert generic.key() == expected.key()
