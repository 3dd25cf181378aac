"""Pure rules on the arrays of a state: field generation, border cells, move tables, sliding, scoring.

Whole-board questions (border cells, regions) use numpy; the per-move ones (legal splits, who moves next,
where a group stops) loop over a few cells in Python with the tables of ``tables.py``, reading ``owner`` and
``counts`` through memoryviews: a random 4-player game makes ~46 moves, each touching tens of cells, where a
numpy call costs about as much as reading 20 cells (docs/results/battle_sheep_speed.md).
"""

from __future__ import annotations

from bisect import insort

import numpy as np

from boardenvs.core import TERMINAL
from boardenvs.games.battle_sheep.state import FREE, NONFIELD, BattleSheepState
from boardenvs.games.battle_sheep.tables import SplitTables, Tables

Board = np.ndarray | memoryview
"""A state's ``owner`` or ``counts``: the array, or a ``memoryview`` of it, whose items read as Python ints
several times faster than numpy scalars (the per-move loops take views; ``BattleSheep`` makes them)."""
SCORE_EXPONENT = 1.25
RANK_POINTS = (5.0, 3.0, 2.0, 1.0)
"""Tournament points of the 1st..4th highest score (docs/rules/rules.md §4.5); ties split them evenly."""


def generate_field(t: Tables, field_size: int, rng: np.random.Generator) -> np.ndarray:
    """``int8[cells + 1]`` owner array of a random 4-connected field of exactly ``field_size`` cells.

    Grows a polyomino from a random seed cell (docs/rules/rules.md S1): each step adds a uniformly drawn cell of
    the frontier (the free 4-neighbours of the field, in the order they were first reached) to the field and
    appends its new 4-neighbours to the frontier. One ``rng.integers`` draw per cell, so a seed always gives
    the same field.
    """
    start = int(rng.integers(t.cells))
    field = [start]
    frontier = list(t.orthogonal_cells[start])
    reached = {start, *frontier}  # the field and the frontier: cells never added to the frontier again
    for _ in range(field_size - 1):
        cell = frontier.pop(int(rng.integers(len(frontier))))
        field.append(cell)
        for nxt in t.orthogonal_cells[cell]:
            if nxt not in reached:
                reached.add(nxt)
                frontier.append(nxt)
    owner = np.full(t.cells + 1, NONFIELD, dtype=np.int8)
    owner[field] = FREE
    return owner


def border_cells(t: Tables, owner: np.ndarray, neighbourhood: int) -> np.ndarray:
    """``bool[cells]``: field cells on the board edge or next to a non-field cell (docs/rules/rules.md S2)."""
    outside = (owner[t.orthogonal] == NONFIELD).any(axis=0)
    if neighbourhood == 8:
        outside |= (owner[t.diagonal] == NONFIELD).any(axis=0)
    return (owner[: t.cells] != NONFIELD) & outside


def placement_cells(t: Tables, owner: np.ndarray, neighbourhood: int) -> np.ndarray:
    """``bool[cells]``: the free border cells, where a starting stack may be placed."""
    return border_cells(t, owner, neighbourhood) & (owner[: t.cells] == FREE)


def can_place(around: tuple[int, ...], owner: Board, cell: int) -> bool:
    """``cell`` is free and one of ``around`` (its border neighbours, see :func:`border_cells`) is not field."""
    return bool(owner[cell] == FREE) and any(owner[other] == NONFIELD for other in around)


def movable_cells(t: Tables, state: BattleSheepState, player: int) -> np.ndarray:
    """Sorted cells of ``player`` holding more than one sheep."""
    return np.flatnonzero((state.owner[: t.cells] == player + 1) & (state.counts[: t.cells] > 1))


def open_directions(t: Tables, owner: np.ndarray, cells: np.ndarray) -> np.ndarray:
    """``bool[8, len(cells)]``: the first cell in each direction from each of ``cells`` is free."""
    return owner[t.step[:, cells]] == FREE


def split_sizes(count: int, restricted: bool) -> tuple[int, ...]:
    """The group sizes that may leave a stack of ``count`` sheep: 1..count-1, or with ``restricted`` splits
    only 1, ``count // 2`` and ``count - 1`` (seed 003's move set)."""
    return tuple(m for m in range(1, count) if not restricted or m in (1, count // 2, count - 1))


def can_split(t: Tables, s: SplitTables, state: BattleSheepState, cell: int, direction: int, split: int) -> bool:
    """The mover's stack on ``cell`` may send ``split`` sheep towards ``direction``: the stack is the mover's,
    the first cell that way is free and ``split`` is one of ``s.sizes[count]`` (:func:`split_sizes`)."""
    owner = state.owner
    if owner[cell] != state.current_player + 1 or owner[t.neighbours[cell][direction]] != FREE:
        return False
    return split in s.sizes[state.counts[cell]]


def can_move(t: Tables, owner: Board, counts: Board, cells: tuple[int, ...]) -> bool:
    """Some stack on ``cells`` holds more than one sheep and has a free first cell in some direction."""
    neighbours = t.neighbours
    for cell in cells:
        if counts[cell] > 1:
            for nxt in neighbours[cell]:
                if owner[nxt] == FREE:
                    return True
    return False


def has_move(t: Tables, state: BattleSheepState, player: int) -> bool:
    """Whether ``player`` has a split-and-slide move."""
    return can_move(t, memoryview(state.owner), memoryview(state.counts), state.stacks[player])


def split_ids(s: SplitTables, owner: Board, counts: Board, cells: tuple[int, ...]) -> list[int]:
    """The action ids of every legal split of the stacks on ``cells`` (the mover's, ascending), ascending.

    A stack of ``count >= 2`` sheep with a free first cell in a direction may send each size of
    ``s.sizes[count]``; their ids are the runs ``first_id + start .. first_id + stop - 1`` for ``(start, stop)``
    in ``s.runs[count]``, with ``first_id`` from ``s.openings[cell]``. Ids grow with the cell, then the
    direction, then the size, so walking the cells in order lists them sorted.
    """
    ids: list[int] = []
    openings, runs = s.openings, s.runs
    for cell in cells:
        count = counts[cell]
        if count > 1:
            for first_id, first_cell in openings[cell]:
                if owner[first_cell] == FREE:
                    for start, stop in runs[count]:
                        ids += range(first_id + start, first_id + stop)
    return ids


def slide_end(t: Tables, owner: Board, cell: int, direction: int) -> int:
    """The last free cell along the ray (the group slides until blocked), or -1 if the first is not free."""
    end = -1
    for nxt in t.rays[cell][direction]:
        if owner[nxt] != FREE:
            break
        end = nxt
    return end


def with_stack(stacks: tuple[tuple[int, ...], ...], player: int, cell: int) -> tuple[tuple[int, ...], ...]:
    """``stacks`` (``BattleSheepState.stacks``) after ``player`` takes ``cell``, its cells kept ascending."""
    mine = list(stacks[player])
    insort(mine, cell)
    return (*stacks[:player], tuple(mine), *stacks[player + 1 :])


def next_player(t: Tables, state: BattleSheepState, num_players: int, neighbourhood: int, after: int) -> int:
    """Who acts after ``after``: the next placer (skipping players without a free border cell), else the
    next player in turn order with a move (skipping blocked players), else ``TERMINAL``. Updates
    ``state.placed`` when placers are skipped."""
    while state.placed < num_players:
        if placement_cells(t, state.owner, neighbourhood).any():
            return state.placed
        state.placed += 1
    owner, counts = memoryview(state.owner), memoryview(state.counts)
    for offset in range(1, num_players + 1):
        player = (after + offset) % num_players
        if can_move(t, owner, counts, state.stacks[player]):
            return player
    return TERMINAL


def region_sizes(t: Tables, owner: np.ndarray, player: int) -> list[int]:
    """Sizes of the 4-connected regions of ``player``'s cells."""
    mine = set(np.flatnonzero(owner[: t.cells] == player + 1).tolist())
    sizes = []
    while mine:
        stack, size = [mine.pop()], 0
        while stack:
            cell = stack.pop()
            size += 1
            for nxt in t.orthogonal[:, cell].tolist():
                if nxt in mine:
                    mine.remove(nxt)
                    stack.append(nxt)
        sizes.append(size)
    return sizes


def region_score(t: Tables, owner: np.ndarray, player: int) -> int:
    """``round(sum of |region| ** 1.25)`` over ``player``'s 4-connected regions (Python's round)."""
    return round(sum(size**SCORE_EXPONENT for size in region_sizes(t, owner, player)))


def rank_points(values: np.ndarray) -> np.ndarray:
    """5/3/2/1 points by descending value (first ``len(values)`` entries), ties sharing their points evenly."""
    table = np.array(RANK_POINTS[: len(values)])
    points = np.zeros(len(values))
    for index, value in enumerate(values):
        better = int(np.sum(values > value))
        tied = int(np.sum(values == value))
        points[index] = table[better : better + tied].mean()
    return points
