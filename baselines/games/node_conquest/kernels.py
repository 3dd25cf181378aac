"""The compiled rules of node conquest's random playout (Numba, cached on disk): imported only where Numba is
installed, by :mod:`baselines.games.node_conquest.compiled`, which documents them and converts states; the checks
against the engine are ``tests/node_conquest/test_compiled.py``.

Arrays, all ``int64``:

* ``rules``: slots ``PLAYERS`` .. ``MOVE_CAP`` (the config's players, neighbour slots per node ``D``, the PASS id or
  -1, the units a move leaves behind, the units a node needs to move from, whether only the mover's nodes grow, the
  move cap of ``Game.apply``); ``neighbours[N, D]`` (-1: no neighbour) and ``growth[N]``, the board's;
* ``flat``: the state in one buffer, ``owner[N]`` (-1 neutral), ``units[N]``, ``alive[P]`` and the counters (the
  player to move, the ply, the plies still to play, the last action played and the plies played); ``backup``:
  ``flat`` as it was before the last ply.
"""

from __future__ import annotations

import numpy as np
from numba import njit

Array = np.ndarray

PLAYERS, DEGREE, PASS_ACTION, KEEP, MIN_UNITS, MOVER_ONLY, MOVE_CAP = range(7)
RULES_SIZE = 7
PLAYER, PLY, PLIES_LEFT, LAST_ACTION, PLAYED = range(5)
COUNTERS_SIZE = 5
NEUTRAL, TERMINAL = -1, -1
NEED_NUMBERS, FINISHED = 1, 0
"""Statuses of :func:`run`."""
PLAIN = {"cache": True, "nogil": True}


@njit(**PLAIN)
def list_legal(rules: Array, neighbours: Array, owner: Array, units: Array, player: int, legal: Array) -> int:
    """``legal[:count]`` = the legal action ids in increasing order (``Legality.mask``); returns ``count``."""
    count = 0
    degree = rules[DEGREE]
    for node in range(owner.shape[0]):
        if owner[node] != player or units[node] < rules[MIN_UNITS]:
            continue
        for slot in range(degree):
            if neighbours[node, slot] >= 0:
                legal[count] = node * degree + slot
                count += 1
    if count == 0 and rules[PASS_ACTION] >= 0:
        legal[0] = rules[PASS_ACTION]
        count = 1
    return count


@njit(**PLAIN)
def arrive(owner: Array, units: Array, alive: Array, target: int, amount: int, player: int) -> None:
    """N4: join own units, else fight by difference (equal amounts leave the node neutral with 0); a defender left
    without a node is out (``Transitions._arrive``)."""
    defender, defending = owner[target], units[target]
    if defender == player:
        units[target] = defending + amount
        return
    if amount < defending:
        units[target] = defending - amount
        return
    if amount > defending:
        owner[target], units[target] = player, amount - defending
    else:
        owner[target], units[target] = NEUTRAL, 0
    if defender == NEUTRAL:
        return
    for node in range(owner.shape[0]):
        if owner[node] == defender:
            return
    alive[defender] = 0


@njit(**PLAIN)
def play(rules: Array, neighbours: Array, growth: Array, owner: Array, units: Array, alive: Array, counters: Array,
         action: int) -> None:  # fmt: skip
    """The legal ``action``: move and combat, growth, the ply and the next player (``Transitions.successor``). The
    move cap and the winners are left to ``Game.apply``, which plays the last ply of a playout."""
    player = counters[PLAYER]
    if action != rules[PASS_ACTION]:
        origin, slot = action // rules[DEGREE], action % rules[DEGREE]
        amount = units[origin] - rules[KEEP]
        units[origin] -= amount
        arrive(owner, units, alive, neighbours[origin, slot], amount, player)
    for node in range(owner.shape[0]):
        if owner[node] == player or (owner[node] >= 0 and not rules[MOVER_ONLY]):
            units[node] += growth[node]
    counters[PLY] += 1
    survivors = 0
    for seat in range(alive.shape[0]):
        survivors += alive[seat]
    if survivors == 1:
        counters[PLAYER] = TERMINAL
        return
    following = (player + 1) % rules[PLAYERS]
    while not alive[following]:
        following = (following + 1) % rules[PLAYERS]
    counters[PLAYER] = following


@njit(**PLAIN)
def run(rules: Array, neighbours: Array, growth: Array, flat: Array, backup: Array, legal: Array, values: Array,
        index: int) -> tuple[int, int]:  # fmt: skip
    """Uniformly random legal moves until the game ends (one player left, or the move cap) or
    ``counters[PLIES_LEFT]`` plies were played (negative: no limit), each the ``int(u * count)``-th legal id for
    ``u = values[index]``; ``backup`` keeps ``flat`` as it was before the last ply and ``counters[LAST_ACTION]`` that
    ply's action. ``(status, index)``, the status :data:`NEED_NUMBERS` when ``values`` ran out before a draw."""
    nodes, players = neighbours.shape[0], rules[PLAYERS]
    owner, units = flat[:nodes], flat[nodes : 2 * nodes]
    alive, counters = flat[2 * nodes : 2 * nodes + players], flat[2 * nodes + players :]
    end = values.shape[0]
    while counters[PLIES_LEFT] != 0 and counters[PLAYER] != TERMINAL and counters[PLY] < rules[MOVE_CAP]:
        if index == end:
            return NEED_NUMBERS, index
        count = list_legal(rules, neighbours, owner, units, counters[PLAYER], legal)
        action = legal[int(values[index] * count)]
        index += 1
        backup[:] = flat
        play(rules, neighbours, growth, owner, units, alive, counters, action)
        counters[LAST_ACTION] = action
        counters[PLAYED] += 1
        counters[PLIES_LEFT] -= 1
    return FINISHED, index
