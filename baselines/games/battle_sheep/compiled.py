"""Battle Sheep's random playout compiled with Numba: the moves of :func:`~baselines.search.playout.random_playout`
from the same random numbers, many times faster (issue 35: 4-player random games at 5x the course engine's rate).

**A second implementation, checked.** ``kernels`` restates the rules of ``boardenvs.games.battle_sheep`` over arrays
(the placement cells, the splits of the mover's stacks, the slide, who acts next with skipped placers and blocked
players, and the move cap of ``Game.apply``), step for step, so that the same moves give the same position.
``tests/battle_sheep/test_compiled.py`` checks them against the engine: whole and partial playouts (the same
``key()``, the same random numbers used) from every position of the golden games and from random positions of every
setting and player count.

**The same draws.** A random game depends only on the field (drawn by ``initial_state`` in Python) and the numbers
that choose the moves. Both playouts take one number ``u`` per move and play the ``int(u * count)``-th of the
``count`` legal action ids in increasing order (``Game.legal_actions``); the kernel counts them (placement cells, or
open directions times allowed sizes per stack) and walks to the chosen one instead of listing 17,424 possible ids.
It stops when the block of numbers runs out before a draw, where the Python playout refills, so both consume the
stream identically.

**A proper state back.** :func:`compiled_playout` returns a :class:`BattleSheepState` equal to the generic playout's:
``owner``, ``counts``, ``placed``, ``current_player``, ``ply``, ``truncated`` and the per-player ``stacks`` (the kernel
keeps them ascending, as ``transitions.with_stack`` does). The engine keeps no per-action events for Battle Sheep.

**The start too.** A random game's field is drawn by ``initial_state`` with one ``rng.integers`` per cell, which
in Python costs several times the whole compiled game. :func:`compiled_initial_state` grows the same field from
the same draws (Numba's ``Generator.integers`` draws as NumPy's, and leaves the generator in the same state), so
``baselines.games.random_games`` plays the very games of ``initial_state`` + :func:`random_playout`.

**Without Numba** (the core install, or ``BOARDENVS_NO_COMPILE=1``) :func:`compiled_playout` returns ``None`` and
:func:`battle_sheep_playout` plays the generic playout. Compiled code is cached on disk (``cache=True``).
"""

from __future__ import annotations

import functools
from functools import partial
from typing import Any, NamedTuple

import numpy as np

from baselines.search.compiled import DISABLE_VARIABLE, load_kernels, python_only, run_to_the_end
from baselines.search.playout import UniformStream, random_playout
from boardenvs.core import TERMINAL, Game
from boardenvs.games.battle_sheep.config import MAX_PLAYERS, BattleSheepConfig
from boardenvs.games.battle_sheep.legality import split_sizes
from boardenvs.games.battle_sheep.state import NONFIELD, BattleSheepState
from boardenvs.games.battle_sheep.tables import split_tables, tables_for


# -- state <-> arrays ------------------------------------------------------------------------------------------------
class GameArrays(NamedTuple):
    """What the kernels read of a configured game (see the ``kernels`` docstring for the layout)."""

    rules: np.ndarray
    step: np.ndarray
    around: np.ndarray
    sizes: np.ndarray


@functools.cache
def game_arrays(config: BattleSheepConfig, move_cap: int) -> GameArrays:
    """The :class:`GameArrays` of a configuration (built once per configuration and move cap)."""
    t = tables_for(config.board_size)
    sheep = config.sheep_per_player
    rules = np.array([config.num_players, t.cells, sheep, move_cap], dtype=np.int64)
    around = t.orthogonal if config.border_neighbourhood == 4 else t.around8
    return GameArrays(rules, t.step.astype(np.int64), around.astype(np.int64), sizes_table(config))


def sizes_table(config: BattleSheepConfig) -> np.ndarray:
    """``sizes[count] = (k, m_1 .. m_k)``: the group sizes of the game's ``SplitTables.sizes``, padded."""
    sheep = config.sheep_per_player
    allowed = tuple(split_sizes(count, config.restricted_splits) for count in range(sheep + 1))
    assert split_tables(config.board_size, allowed).sizes == allowed
    sizes = np.zeros((sheep + 1, sheep + 1), dtype=np.int64)
    for count, groups in enumerate(allowed):
        sizes[count, 0] = len(groups)
        sizes[count, 1 : 1 + len(groups)] = groups
    return sizes


@functools.cache
def orthogonal_table(board_size: int) -> np.ndarray:
    """``Tables.orthogonal`` as ``int64`` (the 4-neighbours the field grows through, the sentinel off the board)."""
    return tables_for(board_size).orthogonal.astype(np.int64)


class StateArrays(NamedTuple):
    """A :class:`BattleSheepState` as the kernels' arrays."""

    owner: np.ndarray
    counts: np.ndarray
    stacks: np.ndarray
    counters: np.ndarray


def state_arrays(kernels: Any, state: BattleSheepState, plies: int) -> StateArrays:
    """``state`` as fresh arrays (copies of ``owner`` and ``counts``), ``plies`` (negative: no limit) still to play."""
    stacks = np.zeros((MAX_PLAYERS, state.owner.shape[0]), dtype=np.int64)
    counters = np.zeros(kernels.COUNTERS_SIZE, dtype=np.int64)
    for player, cells in enumerate(state.stacks):
        stacks[player, : len(cells)] = cells
        counters[kernels.STACKS + player] = len(cells)
    counters[kernels.PLAYER], counters[kernels.PLY], counters[kernels.PLACED] = (
        state.current_player, state.ply, state.placed)  # fmt: skip
    counters[kernels.TRUNCATED], counters[kernels.PLIES_LEFT] = state.truncated, plies
    return StateArrays(state.owner.copy(), state.counts.copy(), stacks, counters)


def state_of(kernels: Any, arrays: StateArrays) -> BattleSheepState:
    """The :class:`BattleSheepState` of ``arrays`` after a playout (it owns ``arrays.owner`` and ``arrays.counts``)."""
    counters = arrays.counters.tolist()
    lengths = counters[kernels.STACKS : kernels.STACKS + MAX_PLAYERS]
    stacks = tuple(tuple(row[:length].tolist()) for row, length in zip(arrays.stacks, lengths, strict=True))
    state = BattleSheepState(
        arrays.owner, arrays.counts, counters[kernels.PLACED], counters[kernels.PLAYER], counters[kernels.PLY], stacks
    )
    state.truncated = counters[kernels.TRUNCATED] != 0
    return state


# -- the playouts ----------------------------------------------------------------------------------------------------
def compiled_playout(game: Game, state: BattleSheepState, stream: UniformStream, plies: int) -> BattleSheepState | None:
    """:func:`~baselines.search.playout.random_playout` compiled (same arguments, same result, same numbers taken
    from ``stream``); ``None`` where Numba is not available or :data:`DISABLE_VARIABLE` is set."""
    kernels = load_kernels("baselines.games.battle_sheep.kernels")
    if kernels is None:
        return None
    if state.current_player == TERMINAL or plies == 0:
        return state
    shared = game_arrays(game.config, game.spec.max_game_length)
    arrays = state_arrays(kernels, state, plies)
    if run_to_the_end(partial(kernels.run, *shared, *arrays), stream) == kernels.NO_MOVE:
        # the generic playout fails the same way (an empty list of actions)
        raise IndexError(f"player {arrays.counters[kernels.PLAYER]} is to move but has no legal action")
    return state_of(kernels, arrays)


def compiled_initial_state(game: Game, rng: np.random.Generator) -> BattleSheepState | None:
    """``game.initial_state(rng)`` compiled: the same state from the same draws of ``rng`` (Numba's
    ``Generator.integers`` draws as NumPy's); ``None`` where Numba is not available or the switch is off."""
    kernels = load_kernels("baselines.games.battle_sheep.kernels")
    if kernels is None:
        return None
    config = game.config
    cells = config.board_size**2
    shared = game_arrays(config, game.spec.max_game_length)
    arrays = StateArrays(
        np.full(cells + 1, NONFIELD, dtype=np.int8), np.zeros(cells + 1, dtype=np.int16),
        np.zeros((MAX_PLAYERS, cells + 1), dtype=np.int64), np.zeros(kernels.COUNTERS_SIZE, dtype=np.int64),
    )  # fmt: skip
    kernels.new_game(rng, *shared, orthogonal_table(config.board_size), config.field_size, *arrays)
    return state_of(kernels, arrays)


def battle_sheep_playout(game: Game, state: BattleSheepState, stream: UniformStream, plies: int) -> BattleSheepState:
    """The :data:`~baselines.search.playout.PlayoutFn` of Battle Sheep: :func:`compiled_playout` where Numba is
    installed, else the generic :func:`~baselines.search.playout.random_playout`; the same moves either way."""
    final = compiled_playout(game, state, stream, plies)
    return final if final is not None else random_playout(game, state, stream, plies)


def battle_sheep_initial_state(game: Game, rng: np.random.Generator) -> BattleSheepState:
    """``game.initial_state(rng)``: :func:`compiled_initial_state` where Numba is installed, else the engine's; the
    same state and the same generator state after it either way (the game's registered fast start)."""
    start = compiled_initial_state(game, rng)
    return game.initial_state(rng) if start is None else start


__all__ = [
    "DISABLE_VARIABLE",
    "battle_sheep_initial_state",
    "battle_sheep_playout",
    "compiled_initial_state",
    "compiled_playout",
    "game_arrays",
    "python_only",
]
