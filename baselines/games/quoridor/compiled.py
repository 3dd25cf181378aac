"""Quoridor's random playout compiled with Numba: the same moves as :func:`~.search.quoridor_playout` from the same
random numbers, several times faster (issue 35: MCTS with random rollouts within reach of OpenSpiel's C++).

**A second implementation, checked.** The rules here (pawn steps, jumps and side-steps, the wall stock, overlaps and
crossings, a path left to every goal, PASS, the goal line and the move cap) restate those of
``boardenvs.games.quoridor`` over arrays, because Numba cannot run the engine's Python-int bitboards (81 squares
and 200 wall slots are wider than a machine word). ``tests/quoridor/test_compiled.py`` checks them against the
engine position by position: the full legal set of every position of every golden game and of random games, and
whole playouts (same final state, same random numbers used) from random positions of every board size, player
count and jump rule.

**The same draws.** The Python playout draws a uniformly random legal move the way this one does: with pawn
moves only, the legal squares in increasing order and one number; otherwise a random position below the highest
legal move's bit until a legal one comes up. Checking legality for the drawn move alone (two breadth-first
searches for a wall) instead of listing every legal wall accepts and rejects exactly the same draws, so both
playouts consume the stream identically and reach the same state.

**Without Numba** (the core install, or ``BOARDENVS_NO_COMPILE=1``) :func:`compiled_playout` returns ``None`` and
the search uses the Python playout. Compiled code is cached on disk (``cache=True``): only the first process after
an install compiles (a few seconds); later ones load it.
"""

from __future__ import annotations

import functools
from functools import partial
from typing import Any

import numpy as np

from baselines.search.compiled import DISABLE_VARIABLE, load_kernels, python_only, run_to_the_end
from baselines.search.playout import UniformStream
from boardenvs.core import TERMINAL, Game
from boardenvs.games.quoridor.state import QuoridorState
from boardenvs.games.quoridor.tables import DIRECTIONS, SIDES, Tables, bits_of


class _Geometry:
    """A board's tables as arrays: ``step[d]``, ``sides[d]``, ``blocks[w]`` (the 4 ``(direction, square)`` edges
    wall slot ``w`` closes), ``conflicts[w]`` (the slots it rules out, -1 padded) and ``goals[p, square]``."""

    def __init__(self, tables: Tables) -> None:
        slots = 2 * tables.wall_span
        self.n = tables.n
        self.step = np.array(tables.step, dtype=np.int64)
        self.sides = np.array([SIDES[d] for d in DIRECTIONS], dtype=np.int64)
        self.blocks = np.full((slots, 4, 2), -1, dtype=np.int64)
        self.conflicts = np.full((slots, 6), -1, dtype=np.int64)
        for wall, closed in tables.blocks.items():
            edges = [(d, square) for d, mask in enumerate(closed) for square in bits_of(mask)]
            self.blocks[wall, : len(edges)] = edges
            ruled_out = bits_of(tables.conflicts[wall])
            self.conflicts[wall, : len(ruled_out)] = ruled_out
        self.goals = np.stack([_bit_array(goal, tables.cells) for goal in tables.goals])


def _bit_array(mask: int, size: int) -> np.ndarray:
    """``bool[size]``: bit ``i`` of ``mask`` at index ``i``."""
    raw = np.frombuffer(mask.to_bytes((size + 7) // 8, "little"), dtype=np.uint8)
    return np.unpackbits(raw, bitorder="little")[:size].astype(np.bool_)


@functools.cache
def geometry(tables: Tables) -> _Geometry:
    """The arrays of ``tables`` (built once per board size and player count)."""
    return _Geometry(tables)


def board_arrays(tables: Tables, board: Any) -> tuple[np.ndarray, np.ndarray]:
    """``(open[4, squares], free[wall slots])`` of a ``Walls`` value as arrays (memoised on the board)."""
    found = board.planes.get("compiled")
    if found is None:
        cells, slots = tables.cells, 2 * tables.wall_span
        opened = np.stack([_bit_array(mask, cells) for mask in board.open])
        found = board.planes["compiled"] = (opened, _bit_array(board.free, slots))
    return found


def compiled_playout(game: Game, state: QuoridorState, stream: UniformStream, plies: int) -> QuoridorState | None:
    """:func:`~.search.quoridor_playout` compiled (same arguments, same result, same numbers taken from
    ``stream``); ``None`` where Numba is not available."""
    kernels = load_kernels("baselines.games.quoridor.kernels")
    if kernels is None:
        return None
    tables = game.tables
    if state.current_player == TERMINAL or plies == 0:
        return state
    shape = geometry(tables)
    opened, free = (array.copy() for array in board_arrays(tables, state.board))
    pawns = np.array(state.pawns, dtype=np.int64)
    walls_left = np.array(state.walls_left, dtype=np.int64)
    placed = np.empty(int(walls_left.sum()), dtype=np.int64)
    # counters: player, ply, plies left, placed walls, winner, truncated
    counters = np.array([state.current_player, state.ply, plies, 0, state.winner, 0], dtype=np.int64)
    run = partial(
        kernels.run, shape.n, shape.step, shape.sides, shape.blocks, shape.conflicts, shape.goals, opened, free,
        pawns, walls_left, placed, counters, game.spec.max_game_length, game.liberal,
    )  # fmt: skip
    run_to_the_end(run, stream)
    board = state.board.with_walls(placed[: counters[3]].tolist())
    player, ply, _, _, winner, truncated = counters.tolist()
    return QuoridorState(tuple(pawns.tolist()), tuple(walls_left.tolist()), board, player, ply, bool(truncated), winner)


def compiled_legal_moves(game: Game, state: QuoridorState) -> int | None:
    """The legal moves of ``state`` as the engine's unified bit mask, from the compiled rules (for the checks);
    ``None`` where Numba is not available."""
    kernels = load_kernels("baselines.games.quoridor.kernels")
    if kernels is None:
        return None
    tables, shape = game.tables, geometry(game.tables)
    if state.current_player == TERMINAL:
        return 0
    opened, free = board_arrays(tables, state.board)
    legal = np.zeros(tables.pass_bit + 1, dtype=np.bool_)
    kernels.legal_moves(
        shape.n, shape.step, shape.sides, shape.blocks, shape.goals, opened, free,
        np.array(state.pawns, dtype=np.int64), np.array(state.walls_left, dtype=np.int64), state.current_player,
        game.liberal, legal,
    )  # fmt: skip
    return sum(1 << int(bit) for bit in np.flatnonzero(legal))


__all__ = ["DISABLE_VARIABLE", "compiled_legal_moves", "compiled_playout", "geometry", "python_only"]
