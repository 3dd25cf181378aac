"""Node conquest's random playout compiled with Numba: the moves of :func:`~baselines.search.playout.random_playout`
from the same random numbers, many times faster (random games run to the 200-ply cap, so MCTS with random rollouts
needs them fast).

**A second implementation, checked.** ``kernels`` restates the rules of ``boardenvs.games.node_conquest`` over arrays:
the legal moves (``legality``: a neighbour slot, the mover's node, enough units; PASS only when nothing else is
legal), the move and its combat, elimination, growth and the next player (``transitions``).
``tests/node_conquest/test_compiled.py`` checks them against the engine from every position of random games of
several configs (grids, hexes, graphs, 2-4 players, the variants with PASS).

**The same draws.** The start is deterministic and nothing is drawn at ``apply``, so a random game depends only on
the numbers that choose the moves. Both playouts take one number ``u`` per move and play the ``int(u * count)``-th
of the ``count`` legal ids in increasing order. The kernel stops when the block of numbers runs out before a draw,
where the Python playout refills, so both consume the stream identically.

**The last ply by the engine.** The end of a game (one player left, or the move cap and its ranking of the leaders)
is the engine's: the kernel keeps the position before each ply and the action it played, and
:func:`compiled_playout` plays that last action with ``Game.apply``, which records the winners.

**Without Numba** (the core install, or ``BOARDENVS_NO_COMPILE=1``) :func:`compiled_playout` returns ``None`` and
:func:`node_conquest_playout` plays the generic playout.
"""

from __future__ import annotations

import functools
from functools import partial
from typing import Any, NamedTuple

import numpy as np

from baselines.search.compiled import DISABLE_VARIABLE, load_kernels, python_only, run_to_the_end
from baselines.search.playout import UniformStream, random_playout
from boardenvs.core import TERMINAL, Game
from boardenvs.games.node_conquest.state import NodeConquestState


class GameArrays(NamedTuple):
    """What the kernels read of a configured game (the ``kernels`` docstring)."""

    rules: np.ndarray
    neighbours: np.ndarray
    growth: np.ndarray


@functools.cache
def game_arrays(kernels: Any, game: Game) -> GameArrays:
    """The :class:`GameArrays` of ``game`` (built once per config: games hash and compare by their config)."""
    config, board = game.config, game.board
    rules = np.zeros(kernels.RULES_SIZE, dtype=np.int64)
    for slot, value in (
        (kernels.PLAYERS, config.num_players), (kernels.DEGREE, board.max_degree),
        (kernels.PASS_ACTION, game.legality.pass_action), (kernels.KEEP, config.units_kept),
        (kernels.MIN_UNITS, game.legality.min_units), (kernels.MOVER_ONLY, config.growth_timing == "mover_only"),
        (kernels.MOVE_CAP, game.spec.max_game_length),
    ):  # fmt: skip
        rules[slot] = value
    return GameArrays(rules, board.neighbours.astype(np.int64), board.growth.astype(np.int64))


def flat_state(kernels: Any, state: NodeConquestState, plies: int) -> np.ndarray:
    """``state`` in the kernels' buffer, ``plies`` (negative: no limit) still to play."""
    counters = [0] * kernels.COUNTERS_SIZE
    counters[kernels.PLAYER], counters[kernels.PLY], counters[kernels.PLIES_LEFT] = (
        state.current_player,
        state.ply,
        plies,
    )
    return np.concatenate([state.owner, state.units, np.array(state.alive, dtype=np.int64), counters], dtype=np.int64)


def state_of(start: NodeConquestState, flat: np.ndarray) -> NodeConquestState:
    """The position (not over) in the buffer ``flat`` of a playout from ``start``."""
    nodes, players = len(start.owner), len(start.alive)
    numbers = flat[2 * nodes :].tolist()
    return NodeConquestState(
        flat[:nodes].astype(start.owner.dtype), flat[nodes : 2 * nodes].copy(),
        tuple(alive != 0 for alive in numbers[:players]), numbers[players], numbers[players + 1],
    )  # fmt: skip


def compiled_playout(
    game: Game, state: NodeConquestState, stream: UniformStream, plies: int
) -> NodeConquestState | None:
    """:func:`~baselines.search.playout.random_playout` compiled (same arguments, same result, same numbers taken
    from ``stream``); ``None`` where Numba is not available or :data:`DISABLE_VARIABLE` is set."""
    kernels = load_kernels("baselines.games.node_conquest.kernels")
    if kernels is None:
        return None
    if state.current_player == TERMINAL or plies == 0:
        return state
    arrays = game_arrays(kernels, game)
    flat = flat_state(kernels, state, plies)
    backup, legal = np.empty_like(flat), np.empty(game.spec.num_actions, dtype=np.int64)
    run_to_the_end(partial(kernels.run, *arrays, flat, backup, legal), stream)
    counters = flat[-kernels.COUNTERS_SIZE :]
    before = state if counters[kernels.PLAYED] == 1 else state_of(state, backup)
    return game.apply(before, int(counters[kernels.LAST_ACTION]))  # the end of the game is the engine's


def node_conquest_playout(game: Game, state: NodeConquestState, stream: UniformStream, plies: int) -> NodeConquestState:
    """The :data:`~baselines.search.playout.PlayoutFn` of node conquest: :func:`compiled_playout` where Numba is
    installed, else the generic :func:`~baselines.search.playout.random_playout`; the same moves either way."""
    final = compiled_playout(game, state, stream, plies)
    return final if final is not None else random_playout(game, state, stream, plies)


__all__ = ["DISABLE_VARIABLE", "compiled_playout", "game_arrays", "node_conquest_playout", "python_only"]
