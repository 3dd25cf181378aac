"""Pure rules on the arrays of a state: field generation, border cells, move tables, sliding, scoring."""

from __future__ import annotations

import numpy as np

from boardenvs.core import TERMINAL
from boardenvs.games.battle_sheep.state import FREE, NONFIELD, BattleSheepState
from boardenvs.games.battle_sheep.tables import Tables

SCORE_EXPONENT = 1.25
RANK_POINTS = (5.0, 3.0, 2.0, 1.0)
"""Tournament points of the 1st..4th highest score (docs/rules/rules.md §4.5); ties split them evenly."""


def generate_field(t: Tables, field_size: int, rng: np.random.Generator) -> np.ndarray:
    """``int8[cells + 1]`` owner array of a random 4-connected field of exactly ``field_size`` cells.

    Grows a polyomino from a random seed cell by adding random free 4-neighbours (docs/rules/rules.md S1).
    """
    owner = np.full(t.cells + 1, NONFIELD, dtype=np.int8)
    start = int(rng.integers(t.cells))
    owner[start] = FREE
    frontier = [int(c) for c in t.orthogonal[:, start] if c < t.cells]
    for _ in range(field_size - 1):
        cell = frontier.pop(int(rng.integers(len(frontier))))
        owner[cell] = FREE
        frontier = [c for c in frontier if c != cell]
        new = [int(c) for c in t.orthogonal[:, cell] if c < t.cells and owner[c] == NONFIELD]
        frontier += [c for c in new if c not in frontier]
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


def movable_cells(t: Tables, state: BattleSheepState, player: int) -> np.ndarray:
    """Sorted cells of ``player`` holding more than one sheep."""
    return np.flatnonzero((state.owner[: t.cells] == player + 1) & (state.counts[: t.cells] > 1))


def open_directions(t: Tables, owner: np.ndarray, cells: np.ndarray) -> np.ndarray:
    """``bool[8, len(cells)]``: the first cell in each direction from each of ``cells`` is free."""
    return owner[t.step[:, cells]] == FREE


def has_move(t: Tables, state: BattleSheepState, player: int) -> bool:
    """Whether ``player`` has a split-and-slide move."""
    cells = movable_cells(t, state, player)
    return bool(cells.size) and bool(open_directions(t, state.owner, cells).any())


def slide_end(t: Tables, owner: np.ndarray, cell: int, direction: int) -> int:
    """The last free cell along the ray (the group slides until blocked), or -1 if the first is not free."""
    end = -1
    for nxt in t.rays[cell][direction]:
        if owner[nxt] != FREE:
            break
        end = nxt
    return end


def next_player(t: Tables, state: BattleSheepState, num_players: int, neighbourhood: int, after: int) -> int:
    """Who acts after ``after``: the next placer (skipping players without a free border cell), else the
    next player in turn order with a move (skipping blocked players), else ``TERMINAL``. Updates
    ``state.placed`` when placers are skipped."""
    while state.placed < num_players:
        if placement_cells(t, state.owner, neighbourhood).any():
            return state.placed
        state.placed += 1
    for offset in range(1, num_players + 1):
        player = (after + offset) % num_players
        if has_move(t, state, player):
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
