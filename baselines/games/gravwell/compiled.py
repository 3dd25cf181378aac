"""Gravwell's random playout compiled with Numba: the moves of :func:`~baselines.search.playout.random_playout` from
the same random numbers, many times faster (issue 35: 4-player random games at 30x Gravitas' rate).

**A second implementation, checked.** ``kernels`` restates the rules of ``boardenvs.games.gravwell`` over arrays (the
draft, the secret commits, the reveal and the resolution queue, the Emergency Stop, ship movement and tractors, the
rounds, the escape and the move cap of ``Game.apply``), step for step, so that the same moves give the same position
and the same events. ``tests/gravwell/test_compiled.py`` checks them against the engine: whole and partial playouts
(the same ``key()``, the same random numbers used) from every position of the golden games and from random positions
of every player count and variant, determinized views included.

**The same draws.** A state holds all its randomness (each round's deck, the Singularity tie orders), so a random game
depends only on the numbers that choose the moves. Both playouts take one number ``u`` per move and play the
``int(u * count)``-th of the ``count`` legal action ids in increasing order (``Game.legal_actions``); the kernel
counts and picks the set bits of the phase's rule (the open stacks, the hand, "stop" then "go") instead of listing
them. It stops when the block of numbers runs out before a draw, where the Python playout refills, so both consume
the stream identically.

**A proper state back.** :func:`compiled_playout` returns a :class:`GravwellState` equal (``key()``) to the generic
playout's, the events of the last action included: the kernel records them in an array (kinds numbered as
:data:`EVENT_KINDS`). The state's pre-drawn ``decks`` and ``ties`` are shared with the input, as ``Game.apply`` shares
them.

**Without Numba** (the core install, or ``BOARDENVS_NO_COMPILE=1``, the variable of the Quoridor playout)
:func:`compiled_playout` returns ``None`` and :func:`gravwell_playout` plays the generic playout. Compiled code is
cached on disk (``cache=True``): only the first process after an install compiles (seconds); later ones load it.
"""

from __future__ import annotations

import functools
from functools import partial
from typing import Any, NamedTuple

import numpy as np

from baselines.search.compiled import DISABLE_VARIABLE, load_kernels, python_only, run_to_the_end
from baselines.search.playout import UniformStream, random_playout
from boardenvs.core import TERMINAL, Game
from boardenvs.games.gravwell.cards import NUM_CARDS, VALUES
from boardenvs.games.gravwell.config import GravwellConfig
from boardenvs.games.gravwell.movement import SIGNED_VALUES
from boardenvs.games.gravwell.state import GravwellState

EVENT_KINDS: tuple[str, ...] = ("draft", "commit", "reveal", "move", "stuck", "emergency_stop", "escape", "round")
"""The ``GravwellEvent.kind`` of each event code of the kernels (``DRAFTED`` .. ``NEW_ROUND``)."""
_new_object = object.__new__


# -- state <-> arrays ------------------------------------------------------------------------------------------------
class GameArrays(NamedTuple):
    """What the kernels read of a configured game: ``rules`` (players, Hardcore, inert tractors, No Secrets, the move
    cap) and ``cards[SIGNED | VALUE, card]``."""

    rules: np.ndarray
    cards: np.ndarray


@functools.cache
def game_arrays(config: GravwellConfig, move_cap: int) -> GameArrays:
    """The :class:`GameArrays` of a configuration (built once per configuration)."""
    rules = np.array(
        [config.num_players, config.hardcore, config.inert_tractors, config.no_secrets, move_cap], dtype=np.int64
    )
    cards = np.array([SIGNED_VALUES, VALUES], dtype=np.int64)
    assert cards.shape == (2, NUM_CARDS)
    return GameArrays(rules, cards)


class StateArrays(NamedTuple):
    """A :class:`GravwellState` as the kernels' arrays (see the ``kernels`` docstring for the layout)."""

    pos: np.ndarray
    seats: np.ndarray
    stacks: np.ndarray
    queue: np.ndarray
    decks: np.ndarray
    ties: np.ndarray
    counters: np.ndarray
    events: np.ndarray


def state_arrays(kernels: Any, state: GravwellState, plies: int) -> StateArrays:
    """``state`` as fresh arrays, ``plies`` (negative: no limit) still to play."""
    n = len(state.hands)
    seats = np.array(
        [state.hands, state.known, state.commits, state.stops, state.revealed, state.order], dtype=np.int64
    )
    queue = np.zeros((n, 2), dtype=np.int64)
    if state.queue:
        queue[: len(state.queue)] = state.queue
    counters = np.zeros(kernels.COUNTERS_SIZE, dtype=np.int64)
    for slot, value in (
        (kernels.PLAYER, state.current_player), (kernels.PLY, state.ply), (kernels.PLIES_LEFT, plies),
        (kernels.FREE, state.free), (kernels.PICKS, state.picks), (kernels.ROUND, state.round),
        (kernels.TURN, state.turn), (kernels.PHASE, state.phase), (kernels.SPENT, state.spent),
        (kernels.WINNER, state.winner), (kernels.TRUNCATED, state.truncated), (kernels.DIRECTION, state.direction),
        (kernels.QUEUE_END, len(state.queue)),
    ):  # fmt: skip
        counters[slot] = value
    return StateArrays(
        np.array(state.pos, dtype=np.int64), seats, np.array(state.stacks, dtype=np.int64).reshape(-1, 2), queue,
        np.array(state.decks, dtype=np.int64), np.array(state.ties, dtype=np.int64), counters,
        np.zeros((kernels.MAX_EVENTS, 5), dtype=np.int64),
    )  # fmt: skip


def state_of(kernels: Any, start: GravwellState, arrays: StateArrays) -> GravwellState:
    """The :class:`GravwellState` of ``arrays`` after a playout from ``start`` (whose decks and ties it shares)."""
    k = kernels
    counters = arrays.counters.tolist()
    hands, known, commits, stops, revealed, order = arrays.seats.tolist()
    head, end = counters[k.QUEUE_HEAD], counters[k.QUEUE_END]
    fields = {
        "pos": arrays.pos.tolist(), "hands": hands, "known": known,
        "stacks": tuple(map(tuple, arrays.stacks.tolist())), "free": counters[k.FREE], "order": tuple(order),
        "picks": counters[k.PICKS], "commits": commits, "queue": tuple(map(tuple, arrays.queue[head:end].tolist())),
        "direction": counters[k.DIRECTION], "stops": [stop != 0 for stop in stops], "round": counters[k.ROUND],
        "turn": counters[k.TURN], "phase": counters[k.PHASE], "revealed": tuple(revealed),
        "spent": counters[k.SPENT], "decks": start.decks, "ties": start.ties, "winner": counters[k.WINNER],
        "raw_events": last_events(arrays.events, counters[k.EVENT_COUNT]), "current_player": counters[k.PLAYER],
        "ply": counters[k.PLY], "truncated": counters[k.TRUNCATED] != 0,
    }  # fmt: skip
    state = _new_object(GravwellState)
    state.__dict__ = fields
    return state


def last_events(events: np.ndarray, count: int) -> tuple[tuple[str, int, int, int, int], ...]:
    """The engine's ``raw_events`` of the kernels' ``events[:count]``."""
    return tuple((EVENT_KINDS[kind], player, card, detail, tile) for kind, player, card, detail, tile in
                 events[:count].tolist())  # fmt: skip


# -- the playouts ----------------------------------------------------------------------------------------------------
def compiled_playout(game: Game, state: GravwellState, stream: UniformStream, plies: int) -> GravwellState | None:
    """:func:`~baselines.search.playout.random_playout` compiled (same arguments, same result, same numbers taken
    from ``stream``); ``None`` where Numba is not available or :data:`DISABLE_VARIABLE` is set."""
    kernels = load_kernels("baselines.games.gravwell.kernels")
    if kernels is None:
        return None
    if state.current_player == TERMINAL or plies == 0:
        return state
    shared = game_arrays(game.config, game.spec.max_game_length)
    arrays = state_arrays(kernels, state, plies)
    run_to_the_end(partial(kernels.run, shared.rules, shared.cards, tuple(arrays)), stream)
    return state_of(kernels, state, arrays)


def gravwell_playout(game: Game, state: GravwellState, stream: UniformStream, plies: int) -> GravwellState:
    """The :data:`~baselines.search.playout.PlayoutFn` of Gravwell: :func:`compiled_playout` where Numba is
    installed, else the generic :func:`~baselines.search.playout.random_playout`; the same moves either way."""
    final = compiled_playout(game, state, stream, plies)
    return final if final is not None else random_playout(game, state, stream, plies)


__all__ = [
    "DISABLE_VARIABLE",
    "EVENT_KINDS",
    "compiled_playout",
    "game_arrays",
    "gravwell_playout",
    "python_only",
]
