"""The compiled rules of Quoridor's random playout (Numba, cached on disk): imported only where Numba is installed,
by :mod:`baselines.games.quoridor.compiled`, which documents them and checks nothing itself (the checks against the
engine are ``tests/quoridor/test_compiled.py``).

Arrays: ``opened[direction, square]`` (the edge that way is open), ``free[slot]`` (a wall may go there as far as
overlaps and crossings go), ``blocks[slot]`` (the 4 ``(direction, square)`` edges a wall closes), ``conflicts[slot]``
(the slots it rules out), ``goals[player, square]``; ``counters`` = player to move, ply, plies left, walls placed,
winner, truncated. Unified move bits as in ``boardenvs.games.quoridor.tables``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

Array = np.ndarray


@njit(cache=True, nogil=True)
def pawn_on(pawns: Array, square: int, skip: int) -> bool:
    """Whether a pawn other than number ``skip`` stands on ``square``."""
    for other in range(pawns.shape[0]):  # noqa: SIM110 (a loop, not any() over a generator: Numba)
        if other != skip and pawns[other] == square:
            return True
    return False


@njit(cache=True, nogil=True)
def jump_targets(
    step: Array,
    sides: Array,
    opened: Array,
    pawns: Array,
    cell: int,
    d: int,
    neighbour: int,
    liberal: bool,
    targets: Array,
) -> None:
    """The squares beyond the pawn on ``neighbour`` (direction ``d`` from ``cell``): with liberal jumps every
    square it could step to; else straight over it (not onto a third pawn), or the side-steps when a wall or the
    edge is behind it."""
    if liberal:
        for e in range(4):
            if opened[e, neighbour] and neighbour + step[e] != cell:
                targets[neighbour + step[e]] = True
    elif opened[d, neighbour]:
        beyond = neighbour + step[d]
        if not pawn_on(pawns, beyond, -1):
            targets[beyond] = True
    else:
        for k in range(2):
            side = sides[d, k]
            if opened[side, neighbour]:
                targets[neighbour + step[side]] = True


@njit(cache=True, nogil=True)
def pawn_targets(
    n: int, step: Array, sides: Array, opened: Array, pawns: Array, player: int, liberal: bool, targets: Array
) -> int:
    """``targets[square]`` true for each square the pawn of ``player`` may move to; returns how many."""
    cells = n * n
    targets[:] = False
    cell = pawns[player]
    for d in range(4):
        if opened[d, cell]:
            neighbour = cell + step[d]
            if pawn_on(pawns, neighbour, player):
                jump_targets(step, sides, opened, pawns, cell, d, neighbour, liberal, targets)
            else:
                targets[neighbour] = True
    for other in range(pawns.shape[0]):
        targets[pawns[other]] = False
    count = 0
    for s in range(cells):
        count += targets[s]
    return count


@njit(cache=True, nogil=True)
def reaches(n: int, step: Array, opened: Array, start: int, goal_row: Array, seen: Array, queue: Array) -> bool:
    """Whether ``start`` reaches a square of ``goal_row`` through the open edges (breadth-first)."""
    cells = n * n
    for s in range(cells):
        seen[s] = False
    seen[start] = True
    queue[0] = start
    head, tail = 0, 1
    while head < tail:
        cell = queue[head]
        head += 1
        if goal_row[cell]:
            return True
        for d in range(4):
            if opened[d, cell]:
                nxt = cell + step[d]
                if not seen[nxt]:
                    seen[nxt] = True
                    queue[tail] = nxt
                    tail += 1
    return False


@njit(cache=True, nogil=True)
def wall_legal(
    n: int,
    step: Array,
    blocks: Array,
    goals: Array,
    opened: Array,
    free: Array,
    pawns: Array,
    wall: int,
    seen: Array,
    queue: Array,
) -> bool:
    """Whether free slot ``wall`` leaves every pawn a path to its goal (its edges closed for the test)."""
    if not free[wall]:
        return False
    for k in range(4):
        if blocks[wall, k, 0] >= 0:
            opened[blocks[wall, k, 0], blocks[wall, k, 1]] = False
    legal = True
    for p in range(pawns.shape[0]):
        if not reaches(n, step, opened, pawns[p], goals[p], seen, queue):
            legal = False
            break
    for k in range(4):
        if blocks[wall, k, 0] >= 0:
            opened[blocks[wall, k, 0], blocks[wall, k, 1]] = True
    return legal


@njit(cache=True, nogil=True)
def legal_moves(
    n: int,
    step: Array,
    sides: Array,
    blocks: Array,
    goals: Array,
    opened: Array,
    free: Array,
    pawns: Array,
    walls_left: Array,
    player: int,
    liberal: bool,
    legal: Array,
) -> None:
    """Every legal move of ``player`` as ``legal[unified bit]`` (the checks' full list)."""
    cells = n * n
    opened = opened.copy()
    targets = np.zeros(cells, dtype=np.bool_)
    seen = np.zeros(cells, dtype=np.bool_)
    queue = np.zeros(cells, dtype=np.int64)
    count = pawn_targets(n, step, sides, opened, pawns, player, liberal, targets)
    for s in range(cells):
        legal[s] = targets[s]
    if walls_left[player] > 0:
        for wall in range(free.shape[0]):
            if wall_legal(n, step, blocks, goals, opened, free, pawns, wall, seen, queue):
                legal[cells + wall] = True
                count += 1
    if count == 0:
        legal[legal.shape[0] - 1] = True


@njit(cache=True, nogil=True)
def play(
    n: int,
    blocks: Array,
    conflicts: Array,
    goals: Array,
    opened: Array,
    free: Array,
    pawns: Array,
    walls_left: Array,
    placed: Array,
    counters: Array,
    cap: int,
    move: int,
) -> None:
    """Play unified ``move`` for the player to move (the engine's successor, then the move cap)."""
    cells = n * n
    player = counters[0]
    following = player + 1 if player + 1 < pawns.shape[0] else 0
    if move < cells:
        pawns[player] = move
        if goals[player, move]:
            counters[4] = player
            following = -1
    elif move < cells + free.shape[0]:
        wall = move - cells
        for k in range(4):
            if blocks[wall, k, 0] >= 0:
                opened[blocks[wall, k, 0], blocks[wall, k, 1]] = False
        for k in range(conflicts.shape[1]):
            if conflicts[wall, k] >= 0:
                free[conflicts[wall, k]] = False
        walls_left[player] -= 1
        placed[counters[3]] = wall
        counters[3] += 1
    counters[0] = following
    counters[1] += 1
    if counters[1] >= cap:  # a draw at the cap, even if this ply reached a goal (OpenSpiel)
        counters[0] = -1
        counters[4] = -1
        counters[5] = 1


@njit(cache=True, nogil=True)
def highest_wall(
    n: int,
    step: Array,
    blocks: Array,
    goals: Array,
    opened: Array,
    free: Array,
    pawns: Array,
    seen: Array,
    queue: Array,
) -> int:
    """The highest legal wall slot (-1 if none): the top of the random draw while walls can be placed."""
    for wall in range(free.shape[0] - 1, -1, -1):
        if wall_legal(n, step, blocks, goals, opened, free, pawns, wall, seen, queue):
            return wall
    return -1


@njit(cache=True, nogil=True)
def nth_target(targets: Array, pick: int) -> int:
    """The ``pick``-th legal square in increasing order."""
    for s in range(targets.shape[0]):
        if targets[s]:
            if pick == 0:
                return s
            pick -= 1
    return -1


@njit(cache=True, nogil=True)
def drawn_move_legal(
    n: int,
    step: Array,
    blocks: Array,
    goals: Array,
    opened: Array,
    free: Array,
    pawns: Array,
    targets: Array,
    count: int,
    highest: int,
    move: int,
    seen: Array,
    queue: Array,
) -> bool:
    """Whether the drawn unified ``move`` (below the draw's top) is legal."""
    cells = n * n
    if move < cells:
        return targets[move]
    if move < cells + free.shape[0]:
        return highest >= 0 and wall_legal(n, step, blocks, goals, opened, free, pawns, move - cells, seen, queue)
    return highest < 0 and count == 0  # PASS, only when nothing else is legal


@njit(cache=True, nogil=True)
def run(
    n: int,
    step: Array,
    sides: Array,
    blocks: Array,
    conflicts: Array,
    goals: Array,
    opened: Array,
    free: Array,
    pawns: Array,
    walls_left: Array,
    placed: Array,
    counters: Array,
    cap: int,
    liberal: bool,
    values: Array,
    index: int,
) -> tuple[int, int]:
    """Random legal moves until the game ends or ``counters[2]`` plies were played; ``(status, index)``."""
    cells = n * n
    end = values.shape[0]
    targets = np.zeros(cells, dtype=np.bool_)
    seen = np.zeros(cells, dtype=np.bool_)
    queue = np.zeros(cells, dtype=np.int64)
    while counters[2] != 0 and counters[0] != -1:
        player = counters[0]
        count = pawn_targets(n, step, sides, opened, pawns, player, liberal, targets)
        highest = -1
        if walls_left[player] > 0:
            highest = highest_wall(n, step, blocks, goals, opened, free, pawns, seen, queue)
        if index == end:
            return 1, index
        if highest < 0 and count > 0:  # pawn moves only: the legal squares in increasing order
            move = nth_target(targets, int(values[index] * count))
            index += 1
        else:  # a random position below the highest legal move until a legal one comes up
            top = cells + highest + 1 if highest >= 0 else cells + free.shape[0] + 1
            move = int(values[index] * top)
            index += 1
            while not drawn_move_legal(n, step, blocks, goals, opened, free, pawns, targets, count, highest, move,
                                       seen, queue):  # fmt: skip
                if index == end:
                    return 1, index
                move = int(values[index] * top)
                index += 1
        play(n, blocks, conflicts, goals, opened, free, pawns, walls_left, placed, counters, cap, move)
        counters[2] -= 1
    return 0, index
