"""The compiled rules of Battle Sheep's random playout (Numba, cached on disk): imported only where Numba is installed,
by :mod:`baselines.games.battle_sheep.compiled`, which documents them and converts states; the checks against the
engine are ``tests/battle_sheep/test_compiled.py``.

Every function restates one function of ``boardenvs.games.battle_sheep`` (``legality``, ``transitions``, the move cap
of ``Game.apply``) over the arrays below, in the same order of steps, so that the same moves give the same position.
Arrays (``int64`` unless said; the slot names are the constants of this module):

* ``rules`` = number of players, cells (``n * n``, also the sentinel cell), sheep per player, the move cap;
* ``step[direction, cell]``: the first cell in each direction (``Tables.step``, the sentinel off the board);
* ``around[row, cell]``: the neighbours a placement cell must find a non-field cell among (``Tables.orthogonal`` or
  ``Tables.around8``, as ``border_neighbourhood`` says);
* ``sizes[count]`` = ``(k, m_1 .. m_k)``: the ``k`` group sizes a stack of ``count`` sheep may send, ascending
  (``SplitTables.sizes``);
* ``owner`` (``int8``) and ``counts`` (``int16``): the state's own arrays (copies), sentinel included;
* ``stacks[player, :counters[STACKS + player]]``: the state's ``stacks``, each player's cells ascending;
* ``counters``: player to move, ply, placements done, truncated, the plies still to play (negative: no limit) and
  the lengths of the four rows of ``stacks``.

:func:`new_game` grows a new game's field with the draws of ``transitions.generate_field`` from the caller's
``numpy.random.Generator`` (Numba draws ``integers`` as NumPy does).

Legal actions are never listed: the kernels count them in the engine's order (placement cells ascending; splits by
cell, direction, size, which is the order of the action ids) and walk to the ``pick``-th.
"""

from __future__ import annotations

import numpy as np
from numba import njit

Array = np.ndarray

# rules
PLAYERS, CELLS, SHEEP, MOVE_CAP = 0, 1, 2, 3
# counters
PLAYER, PLY, PLACED, TRUNCATED, PLIES_LEFT, STACKS = 0, 1, 2, 3, 4, 5
COUNTERS_SIZE = STACKS + 4
NONFIELD, FREE, TERMINAL = -1, 0, -1
"""``owner`` values and the player to move at the end, as ``boardenvs.games.battle_sheep.state``."""
FINISHED, NEED_NUMBERS, NO_MOVE = 0, 1, 2
"""Statuses of :func:`run` (``NO_MOVE``: a player to move with no legal action, which no engine state has)."""


# -- placements (legality.placement_cells) ---------------------------------------------------------------------------
@njit(cache=True, nogil=True)
def can_place(around: Array, owner: Array, cell: int) -> bool:
    """A free field cell beside a non-field cell (the sentinel off the board is not field)."""
    if owner[cell] != FREE:
        return False
    row, rows = 0, around.shape[0]
    while row < rows and owner[around[row, cell]] != NONFIELD:
        row += 1
    return row < rows


@njit(cache=True, nogil=True)
def count_placements(cells: int, around: Array, owner: Array) -> int:
    """How many cells a starting stack may go on."""
    count = 0
    for cell in range(cells):
        count += can_place(around, owner, cell)
    return count


@njit(cache=True, nogil=True)
def nth_placement(cells: int, around: Array, owner: Array, pick: int) -> int:
    """The ``pick``-th placement cell, ascending."""
    for cell in range(cells):
        if can_place(around, owner, cell):
            if pick == 0:
                return cell
            pick -= 1
    return -1


# -- splits (legality.split_ids, legality.can_move) ------------------------------------------------------------------
@njit(cache=True, nogil=True)
def open_directions(step: Array, owner: Array, cell: int) -> int:
    """How many directions from ``cell`` have a free first cell."""
    count = 0
    for direction in range(8):
        count += owner[step[direction, cell]] == FREE
    return count


@njit(cache=True, nogil=True)
def count_splits(step: Array, sizes: Array, owner: Array, counts: Array, mine: Array, length: int) -> int:
    """How many splits the stacks on ``mine[:length]`` have (sizes allowed times open directions)."""
    count = 0
    for index in range(length):
        cell = mine[index]
        allowed = sizes[counts[cell], 0]
        if allowed:
            count += allowed * open_directions(step, owner, cell)
    return count


@njit(cache=True, nogil=True)
def nth_split(step: Array, sizes: Array, owner: Array, counts: Array, mine: Array, length: int, pick: int) -> tuple:
    """``(cell, direction, group)`` of the ``pick``-th split in the order of the action ids."""
    for index in range(length):
        cell = mine[index]
        allowed = sizes[counts[cell], 0]
        if allowed == 0:
            continue
        for direction in range(8):
            if owner[step[direction, cell]] == FREE:
                if pick < allowed:
                    return cell, direction, sizes[counts[cell], 1 + pick]
                pick -= allowed
    return -1, -1, 0


@njit(cache=True, nogil=True)
def can_move(step: Array, sizes: Array, owner: Array, counts: Array, mine: Array, length: int) -> bool:
    """Whether a stack on ``mine[:length]`` has a split: a splittable stack with an open direction."""
    for index in range(length):
        cell = mine[index]
        if sizes[counts[cell], 0] and open_directions(step, owner, cell):
            return True
    return False


# -- what an action does (transitions) -------------------------------------------------------------------------------
@njit(cache=True, nogil=True)
def slide_end(step: Array, owner: Array, cell: int, direction: int) -> int:
    """The last free cell along the ray from ``cell`` (the group slides until blocked)."""
    end = cell
    while owner[step[direction, end]] == FREE:
        end = step[direction, end]
    return end


@njit(cache=True, nogil=True)
def add_stack(stacks: Array, counters: Array, player: int, cell: int) -> None:
    """``cell`` into ``player``'s row of ``stacks``, kept ascending (``transitions.with_stack``)."""
    length = counters[STACKS + player]
    index = length
    while index > 0 and stacks[player, index - 1] > cell:
        stacks[player, index] = stacks[player, index - 1]
        index -= 1
    stacks[player, index] = cell
    counters[STACKS + player] = length + 1


@njit(cache=True, nogil=True)
def next_player(
    rules: Array, step: Array, around: Array, sizes: Array, owner: Array, counts: Array, stacks: Array,
    counters: Array, after: int,
) -> int:  # fmt: skip
    """The next placer (skipping those without a placement cell, counted as placed), else the next player in turn
    order with a split, else ``TERMINAL``."""
    players = rules[PLAYERS]
    while counters[PLACED] < players:
        if count_placements(rules[CELLS], around, owner):
            return counters[PLACED]
        counters[PLACED] += 1
    for offset in range(1, players + 1):
        player = (after + offset) % players
        if can_move(step, sizes, owner, counts, stacks[player], counters[STACKS + player]):
            return player
    return TERMINAL


@njit(cache=True, nogil=True)
def play_random(
    rules: Array, step: Array, around: Array, sizes: Array, owner: Array, counts: Array, stacks: Array,
    counters: Array, uniform: float,
) -> bool:  # fmt: skip
    """Play the ``int(uniform * count)``-th of the ``count`` legal actions, then the move cap of ``Game.apply``;
    False (nothing played) when there is no legal action."""
    player = counters[PLAYER]
    if counters[PLACED] < rules[PLAYERS]:
        count = count_placements(rules[CELLS], around, owner)
        if count == 0:
            return False
        cell, group = nth_placement(rules[CELLS], around, owner, int(uniform * count)), rules[SHEEP]
        counters[PLACED] += 1
    else:
        mine, length = stacks[player], counters[STACKS + player]
        count = count_splits(step, sizes, owner, counts, mine, length)
        if count == 0:
            return False
        source, direction, group = nth_split(step, sizes, owner, counts, mine, length, int(uniform * count))
        cell = slide_end(step, owner, source, direction)
        counts[source] -= group
    owner[cell], counts[cell] = player + 1, group
    add_stack(stacks, counters, player, cell)
    counters[PLY] += 1
    counters[PLAYER] = next_player(rules, step, around, sizes, owner, counts, stacks, counters, player)
    if counters[PLY] >= rules[MOVE_CAP] and counters[PLAYER] != TERMINAL:
        counters[PLAYER], counters[TRUNCATED] = TERMINAL, 1
    return True


@njit(cache=True, nogil=True)
def run(
    rules: Array, step: Array, around: Array, sizes: Array, owner: Array, counts: Array, stacks: Array,
    counters: Array, uniforms: Array, index: int,
) -> tuple:  # fmt: skip
    """Random moves, one number of ``uniforms`` each from ``index``, until the game ends or ``counters[PLIES_LEFT]``
    reaches 0 (``FINISHED``), or before a draw when ``uniforms`` is used up (``NEED_NUMBERS``); returns
    ``(status, index)``. ``NO_MOVE`` when the player to move has no legal action."""
    while counters[PLIES_LEFT] != 0 and counters[PLAYER] != TERMINAL:
        if index == uniforms.shape[0]:
            return NEED_NUMBERS, index
        if not play_random(rules, step, around, sizes, owner, counts, stacks, counters, uniforms[index]):
            return NO_MOVE, index
        index += 1
        counters[PLIES_LEFT] -= 1
    return FINISHED, index


# -- a new game (transitions.generate_field, transitions.new_game) ---------------------------------------------------
@njit(cache=True, nogil=True)
def reach_neighbours(orthogonal: Array, cell: int, frontier: Array, length: int, reached: Array) -> int:
    """Append the on-board 4-neighbours of ``cell`` not reached yet to ``frontier[:length]``; the new length."""
    for row in range(orthogonal.shape[0]):
        nxt = orthogonal[row, cell]
        if nxt < reached.shape[0] and not reached[nxt]:
            reached[nxt] = True
            frontier[length] = nxt
            length += 1
    return length


@njit(cache=True, nogil=True)
def grow_field(rng: np.random.Generator, orthogonal: Array, field_size: int, owner: Array) -> None:
    """Mark a random 4-connected field of ``field_size`` cells ``FREE`` in ``owner`` (all ``NONFIELD`` before), with
    the draws of ``generate_field``: the seed cell, then the index of each cell taken from the frontier."""
    cells = orthogonal.shape[1]
    frontier, reached = np.empty(cells, dtype=np.int64), np.zeros(cells, dtype=np.bool_)
    start = rng.integers(0, cells)
    owner[start], reached[start] = FREE, True
    length = reach_neighbours(orthogonal, start, frontier, 0, reached)
    for _ in range(field_size - 1):
        index = rng.integers(0, length)
        cell = frontier[index]
        frontier[index : length - 1] = frontier[index + 1 : length]
        owner[cell] = FREE
        length = reach_neighbours(orthogonal, cell, frontier, length - 1, reached)


@njit(cache=True, nogil=True)
def new_game(
    rng: np.random.Generator, rules: Array, step: Array, around: Array, sizes: Array, orthogonal: Array,
    field_size: int, owner: Array, counts: Array, stacks: Array, counters: Array,
) -> None:  # fmt: skip
    """A new random field in ``owner`` (``NONFIELD`` everywhere before), nobody placed yet, and the player to move
    (the first who can place) in ``counters``."""
    grow_field(rng, orthogonal, field_size, owner)
    last = rules[PLAYERS] - 1
    counters[PLAYER] = next_player(rules, step, around, sizes, owner, counts, stacks, counters, last)
