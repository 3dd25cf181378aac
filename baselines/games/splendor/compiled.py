"""Splendor's random playout compiled with Numba: the moves of :func:`~baselines.search.playout.random_playout` from
the same random numbers, many times faster (issue 35: ``preset="rinascimento"`` random 2-player games at half the
rate of the Java Rinascimento engine).

**A second implementation, checked.** ``kernels`` (legal actions, the loop) and ``kernel_moves`` (transitions)
restate the rules of ``boardenvs.games.splendor`` over arrays: the token patterns of both rule sets (official P1,
Rinascimento R5, R6), reserves with their gold (R7), purchases (R8 and the official "pay" phase), the official token
return and noble choice, Rinascimento's nobles (R9), both ends of the game, the all-pass end (P4) and the move cap of
``Game.apply``. ``tests/splendor/test_compiled.py`` checks them against the engine from every golden position and
from random positions of every preset.

**The same draws.** A state holds all its randomness (the deck order is drawn by ``initial_state``; a refill or a
deck reserve takes the next card of that order), so a random game depends only on the numbers that choose the
moves. Both playouts take one number ``u`` per move and play the ``int(u * count)``-th of the ``count`` legal ids in
increasing order. The kernel stops when the block of numbers runs out before a draw, where the Python playout
refills, so both consume the stream identically.

**The last ply by the engine.** The state keeps the events of its last action (Rinascimento's Table I records), so
the kernel keeps the position before each ply and the action it played; :func:`compiled_playout` plays that last
action with ``Game.apply``, which records the events (and the mask cache stays empty, as the generic playout leaves
it). Every earlier ply is compiled; the result is equal to the generic playout's, attribute by attribute.

**Covered configs**: those of the presets (:data:`~boardenvs.games.splendor.config.PRESETS`: official 2-4 players,
Rinascimento 2-4 players) with any ``max_plies``; for others :func:`compiled_playout` returns ``None`` and
:func:`splendor_playout` plays the generic playout (the kernels are written for every config, but only these are
checked). Without Numba, or with ``BOARDENVS_NO_COMPILE=1``, likewise.
"""

from __future__ import annotations

import dataclasses
import functools
from functools import partial
from typing import Any, NamedTuple

import numpy as np

from baselines.search.compiled import DISABLE_VARIABLE, load_kernels, python_only, run_to_the_end
from baselines.search.playout import UniformStream, random_playout
from boardenvs.core import TERMINAL, Game
from boardenvs.games.splendor.config import PRESETS, SplendorConfig
from boardenvs.games.splendor.state import SplendorState
from boardenvs.games.splendor.tables import ActionTables, tables_for
from boardenvs.games.splendor.takes import least_offered, same_stack_need

_new_object = object.__new__
STATE_ARRAYS = ("supply", "players", "top", "face_up", "reserved", "hidden", "nobles")
"""The state's arrays the kernels change, in the order of the ``arrays`` tuple (the counters last)."""


# -- configs and their tables ----------------------------------------------------------------------------------------
@functools.cache
def covered_configs() -> frozenset[SplendorConfig]:
    """The preset configs (at the default ``max_plies``): the ones the compiled playout plays."""
    return frozenset(SplendorConfig(**settings) for settings in PRESETS.values())  # type: ignore[arg-type]


def is_covered(config: SplendorConfig) -> bool:
    """Whether the compiled playout plays games of ``config`` (a preset's, any move cap)."""
    return dataclasses.replace(config, max_plies=SplendorConfig.max_plies) in covered_configs()


@functools.cache
def game_tables(kernels: Any, config: SplendorConfig) -> tuple[np.ndarray, ...]:
    """The kernels' ``tables`` of a config (see the ``kernels`` docstring), built once per config."""
    tables, moves = tables_for(config), kernels.kernel_moves
    rules = np.zeros(moves.RULES_SIZE, dtype=np.int64)
    for slot, value in (
        (moves.PLAYERS, config.num_players), (moves.RINASCIMENTO, config.rinascimento),
        (moves.MAX_TOKENS, config.max_tokens), (moves.POINTS_TO_END, config.points_to_end),
        (moves.SAME_NEED, same_stack_need(config)), (moves.SAME_AMOUNT, config.take_same_amount),
        (moves.DIFFERENT_COUNT, config.take_different_count), (moves.LEAST_OFFERED, least_offered(config)),
        (moves.FACE_UP, config.face_up), (moves.MAX_RESERVED, config.max_reserved),
        (moves.MOVE_CAP, config.max_plies), (moves.MIN_NOBLE_TOTAL, tables.min_noble_total),
    ):  # fmt: skip
        rules[slot] = value
    patterns = np.column_stack([
        tables.take, tables.give, tables.take_total, tables.give_total, tables.take_count, tables.is_same,
        tables.same_colour, packed_needs(moves, tables),
    ]).astype(np.int64)  # fmt: skip
    cards = tables.cards
    candidates = take_candidates(config, tables)
    card_rows = np.column_stack([cards.cost, cards.bonus, cards.points]).astype(np.int64)
    return (
        rules, np.array(tables.starts, dtype=np.int64), patterns, card_rows, cards.noble_req.astype(np.int64),
        cards.noble_points.astype(np.int64), tables.deck_sizes.astype(np.int64), candidates,
    )  # fmt: skip


def packed_needs(moves: Any, tables: ActionTables) -> np.ndarray:
    """Per token pattern, its take and give packed in lanes (``kernel_moves.NEED``)."""
    lanes = np.concatenate([tables.take, tables.give], axis=1).astype(np.int64)
    assert lanes.max() <= moves.LANE_MOST
    return (lanes << (moves.LANE_BITS * np.arange(10))).sum(axis=1)


def take_candidates(config: SplendorConfig, tables: ActionTables) -> np.ndarray:
    """``candidates[h]``: the token patterns, ascending and padded with -1, that may be legal for a player holding
    ``h`` tokens (0..max_tokens; the last row, every pattern, for more). Rinascimento: a take gives back exactly its
    excess over the cap (``takes.give_exact_excess``); the official rules do not read the hand."""
    everything = np.arange(len(tables.take))
    rows = []
    for held in range(config.max_tokens + 1):
        excess = np.maximum(held + tables.take_total.astype(np.int64) - config.max_tokens, 0)
        rows.append(everything[tables.give_total == excess] if config.rinascimento else everything)
    rows.append(everything)
    candidates = np.full((len(rows), len(everything)), -1, dtype=np.int64)
    for held, row in enumerate(rows):
        candidates[held, : len(row)] = row
    return candidates


# -- state <-> arrays ------------------------------------------------------------------------------------------------
class Playout(NamedTuple):
    """The kernels' arrays of one playout: the state's ``arrays``, the ``backup`` before the last ply, and the
    buffer of legal ids."""

    arrays: tuple[np.ndarray, ...]
    backup: tuple[np.ndarray, ...]
    legal: np.ndarray


def playout_arrays(kernels: Any, game: Game, state: SplendorState, plies: int) -> Playout:
    """``state`` as fresh arrays (its own dtypes), ``plies`` (negative: no limit) still to play."""
    m = kernels.kernel_moves
    counters = np.zeros(m.COUNTERS_SIZE, dtype=np.int64)
    for slot, value in (
        (m.PHASE, state.phase), (m.PLAYER, state.current_player), (m.FIRST, state.first_player),
        (m.END_TRIGGERED, state.end_triggered), (m.PASSES, state.passes), (m.PLY, state.ply),
        (m.TRUNCATED, state.truncated), (m.PAYING, state.paying), (m.PLIES_LEFT, plies),
    ):  # fmt: skip
        counters[slot] = value
    counters[m.PLAN : m.PLAN + 5] = state.gold_plan
    arrays = (*(getattr(state, name).copy() for name in STATE_ARRAYS), counters)
    backup = tuple(array.copy() for array in arrays)
    return Playout(arrays, backup, np.empty(game.spec.num_actions, dtype=np.int64))


def state_of(kernels: Any, start: SplendorState, arrays: tuple[np.ndarray, ...]) -> SplendorState:
    """The :class:`SplendorState` of ``arrays`` (fresh copies) in a playout from ``start`` (whose decks it shares);
    no events, no mask."""
    m = kernels.kernel_moves
    counters = arrays[-1].tolist()
    state = _new_object(SplendorState)
    for name, array in zip(STATE_ARRAYS, arrays):
        setattr(state, name, array.copy())
    state.decks, state.events, state.mask = start.decks, (), None
    state.phase, state.current_player = counters[m.PHASE], counters[m.PLAYER]
    state.first_player, state.end_triggered = counters[m.FIRST], counters[m.END_TRIGGERED] != 0
    state.passes, state.ply, state.truncated = counters[m.PASSES], counters[m.PLY], counters[m.TRUNCATED] != 0
    state.paying, state.gold_plan = counters[m.PAYING], tuple(counters[m.PLAN : m.PLAN + 5])
    return state


# -- the playouts ----------------------------------------------------------------------------------------------------
def compiled_playout(game: Game, state: SplendorState, stream: UniformStream, plies: int) -> SplendorState | None:
    """:func:`~baselines.search.playout.random_playout` compiled (same arguments, same result, same numbers taken
    from ``stream``); ``None`` where Numba is not available, :data:`DISABLE_VARIABLE` is set or the config is not
    covered (:func:`is_covered`)."""
    kernels = load_kernels("baselines.games.splendor.kernels")
    if kernels is None or not is_covered(game.config):
        return None
    if state.current_player == TERMINAL or plies == 0:
        return state
    tables = game_tables(kernels, game.config)
    playout = playout_arrays(kernels, game, state, plies)
    run_to_the_end(partial(kernels.run, tables, state.decks, playout.arrays, playout.backup, playout.legal), stream)
    counters = playout.arrays[-1]
    before = state if counters[kernels.PLAYED] == 1 else state_of(kernels, state, playout.backup)
    return game.apply(before, int(counters[kernels.LAST_ACTION]))  # the last ply records its events


def splendor_playout(game: Game, state: SplendorState, stream: UniformStream, plies: int) -> SplendorState:
    """The :data:`~baselines.search.playout.PlayoutFn` of Splendor: :func:`compiled_playout` where it plays, else
    the generic :func:`~baselines.search.playout.random_playout`; the same moves either way."""
    final = compiled_playout(game, state, stream, plies)
    return final if final is not None else random_playout(game, state, stream, plies)



__all__ = [
    "DISABLE_VARIABLE",
    "compiled_playout",
    "game_tables",
    "is_covered",
    "python_only",
    "splendor_playout",
]
