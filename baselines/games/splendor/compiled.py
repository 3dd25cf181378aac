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
it). That position is handed over with the legal ids the kernel listed there as its mask (what the engine would
build, tested at every position), so ``apply`` does not list them again. Every earlier ply is compiled; the result
is equal to the generic playout's, attribute by attribute.

**One buffer.** The kernels hold the state's arrays as views of one ``int64`` buffer (:func:`layout`,
``kernels.state_views``), so keeping the position before each ply is one copy, and a state goes in and comes back
with one conversion each way.

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
        (moves.NOBLES, config.nobles),
    ):  # fmt: skip
        rules[slot] = value
    patterns = np.column_stack([
        tables.take, tables.give, tables.take_total, tables.give_total, tables.take_count, tables.is_same,
        tables.same_colour, packed_needs(moves, tables),
    ]).astype(np.int64)  # fmt: skip
    cards = tables.cards
    card_rows = np.column_stack([cards.cost, cards.bonus, cards.points]).astype(np.int64)
    return (
        rules, np.array(tables.starts, dtype=np.int64), patterns, card_rows, cards.noble_req.astype(np.int64),
        cards.noble_points.astype(np.int64), tables.deck_sizes.astype(np.int64), take_groups(moves, tables),
    )  # fmt: skip


def packed_needs(moves: Any, tables: ActionTables) -> np.ndarray:
    """Per token pattern, its take and give packed in lanes (``kernel_moves.NEED``)."""
    lanes = np.concatenate([tables.take, tables.give], axis=1).astype(np.int64)
    assert lanes.max() <= moves.LANE_MOST
    return (lanes << (moves.LANE_BITS * np.arange(10))).sum(axis=1)


def take_groups(moves: Any, tables: ActionTables) -> np.ndarray:
    """The kernels' ``groups``: the token patterns split into runs of one take (their gives fewest first, as
    ``tables.rinascimento_takes`` lists them); per run its first pattern, its take packed in lanes, the first pattern
    giving back at least ``e`` tokens for each ``e`` up to the largest give, and the run's end."""
    take, give_total = tables.take.astype(np.int64), tables.give_total.astype(np.int64)
    most = int(give_total.max())
    firsts = [0] + [index for index in range(1, len(take)) if (take[index] != take[index - 1]).any()]
    rows = []
    for first, end in zip(firsts, [*firsts[1:], len(take)]):
        totals = give_total[first:end]
        assert totals[0] == 0 and (np.diff(totals) >= 0).all(), "a take's gives must come fewest first"
        bounds = [first + int(np.searchsorted(totals, owed)) for owed in range(most + 1)]
        rows.append([first, int((take[first] << (moves.LANE_BITS * np.arange(5))).sum()), *bounds, end])
    return np.array(rows, dtype=np.int64)


# -- state <-> arrays ------------------------------------------------------------------------------------------------
class Layout(NamedTuple):
    """Where the state's arrays lie in the kernels' ``flat`` buffer (``kernels.state_views`` reads the same):
    ``(start, stop, shape)`` per array of :data:`STATE_ARRAYS`, then where the counters start."""

    places: tuple[tuple[int, int, tuple[int, ...]], ...]
    counters: int


@functools.cache
def layout(config: SplendorConfig) -> Layout:
    """The :class:`Layout` of ``config``'s states."""
    n, slots = config.num_players, config.max_reserved
    shapes = ((6,), (n, 14), (3,), (3, config.face_up), (n, slots), (n, slots), (config.nobles,))
    places, start = [], 0
    for shape in shapes:
        stop = start + int(np.prod(shape))
        places.append((start, stop, shape))
        start = stop
    return Layout(tuple(places), start)


class Playout(NamedTuple):
    """The kernels' buffers of one playout: the state's ``flat`` buffer (the counters last), the ``backup`` before
    the last ply, and the buffer of legal ids."""

    flat: np.ndarray
    backup: np.ndarray
    legal: np.ndarray


def playout_arrays(kernels: Any, game: Game, state: SplendorState, plies: int) -> Playout:
    """``state`` in a fresh buffer, ``plies`` (negative: no limit) still to play."""
    m = kernels.kernel_moves
    counters = [0] * m.COUNTERS_SIZE
    for slot, value in (
        (m.PHASE, state.phase), (m.PLAYER, state.current_player), (m.FIRST, state.first_player),
        (m.END_TRIGGERED, state.end_triggered), (m.PASSES, state.passes), (m.PLY, state.ply),
        (m.TRUNCATED, state.truncated), (m.PAYING, state.paying), (m.PLIES_LEFT, plies),
    ):  # fmt: skip
        counters[slot] = int(value)
    counters[m.PLAN : m.PLAN + 5] = state.gold_plan
    parts = [getattr(state, name).ravel() for name in STATE_ARRAYS]
    flat = np.concatenate([*parts, np.array(counters, dtype=np.int64)], dtype=np.int64)
    return Playout(flat, np.empty_like(flat), np.empty(game.spec.num_actions, dtype=np.int64))


def counters_of(game: Game, flat: np.ndarray) -> np.ndarray:
    """The counters of the buffer ``flat`` (a view)."""
    return flat[layout(game.config).counters :]


def state_of(kernels: Any, game: Game, start: SplendorState, flat: np.ndarray) -> SplendorState:
    """The :class:`SplendorState` of the buffer ``flat`` in a playout from ``start`` (whose decks it shares); no
    events, no mask."""
    m, places = kernels.kernel_moves, layout(game.config)
    small = flat.astype(np.int16)
    counters = small[places.counters :].tolist()
    state = _new_object(SplendorState)
    for name, (begin, stop, shape) in zip(STATE_ARRAYS, places.places):
        array = small[begin:stop].reshape(shape)
        setattr(state, name, array != 0 if name == "hidden" else array)
    state.decks, state.events, state.mask = start.decks, (), None
    state.phase, state.current_player = counters[m.PHASE], counters[m.PLAYER]
    state.first_player, state.end_triggered = counters[m.FIRST], counters[m.END_TRIGGERED] != 0
    state.passes, state.ply, state.truncated = counters[m.PASSES], counters[m.PLY], counters[m.TRUNCATED] != 0
    state.paying, state.gold_plan = counters[m.PAYING], tuple(counters[m.PLAN : m.PLAN + 5])
    return state


def mask_of(legal: np.ndarray, count: int, num_actions: int) -> np.ndarray:
    """The legal-action mask of the ids ``legal[:count]`` (what ``Splendor`` caches on a state, ``state.mask``)."""
    mask = np.zeros(num_actions, dtype=bool)
    mask[legal[:count]] = True
    return mask


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
    run = partial(kernels.run, tables, state.decks, playout.flat, playout.backup, playout.legal)
    run_to_the_end(run, stream)
    counters = counters_of(game, playout.flat)
    if counters[kernels.PLAYED] == 1:
        before = state
    else:  # the position before the last ply, its legal actions as the kernel listed them (the engine's, checked)
        before = state_of(kernels, game, state, playout.backup)
        before.mask = mask_of(playout.legal, int(counters[kernels.LAST_COUNT]), game.spec.num_actions)
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
