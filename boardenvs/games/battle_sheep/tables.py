"""Per-board-size lookup tables: direction steps, first-step neighbours and slide rays; cell and direction names.

Cells are numbered ``x * n + y`` for ``mapStat[x][y]`` of the course format; ``x`` is the printed row
(row 0 at the top) and ``y`` the column. Directions follow the course's numpad codes (docs/rules/rules.md §4.4):
code ``d`` moves by ``(dx, dy) = ((d - 1) % 3 - 1, (d - 1) // 3 - 1)``.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np

DIRECTION_CODES: tuple[int, ...] = (1, 2, 3, 4, 6, 7, 8, 9)
"""Course numpad code of each direction index 0..7."""
DIRECTION_NAMES: tuple[str, ...] = ("NW", "W", "SW", "N", "S", "NE", "E", "SE")
"""Compass name of each direction index (north = row 0 at the top, west = column 0 on the left)."""
STEPS: tuple[tuple[int, int], ...] = tuple(((d - 1) % 3 - 1, (d - 1) // 3 - 1) for d in DIRECTION_CODES)
"""``(dx, dy)`` of each direction index."""
ORTHOGONAL: tuple[tuple[int, int], ...] = ((-1, 0), (1, 0), (0, -1), (0, 1))


@dataclass(frozen=True)
class Tables:
    """Lookup tables of an ``n x n`` board.

    Attributes:
        size: board side ``n``.
        cells: ``n * n``; also the index of the always-blocked sentinel cell.
        step: ``int32[8, cells]`` first cell in each direction, ``cells`` (the sentinel) off the board.
        rays: ``rays[cell][direction]``: the cells along the ray, nearest first.
        orthogonal: ``int32[4, cells]`` 4-neighbours, sentinel off the board.
        diagonal: ``int32[4, cells]`` diagonal neighbours, sentinel off the board.
        around8: ``int32[8, cells]``: ``orthogonal`` then ``diagonal``, the 8-neighbourhood.
        neighbours: ``neighbours[cell]``: ``step[:, cell]`` as Python ints (a cell's column of ``step``), for the
            engine's per-move loops, where reading a tuple is much cheaper than indexing a numpy array.
        orthogonal_cells: ``orthogonal_cells[cell]``: the on-board 4-neighbours, in the row order of
            ``orthogonal`` (the field generator adds them to its frontier in this order).
    """

    size: int
    cells: int
    step: np.ndarray
    rays: tuple[tuple[tuple[int, ...], ...], ...]
    orthogonal: np.ndarray
    diagonal: np.ndarray
    around8: np.ndarray
    neighbours: tuple[tuple[int, ...], ...]
    orthogonal_cells: tuple[tuple[int, ...], ...]


@dataclass(frozen=True)
class SplitTables:
    """Lookup tables of the split moves of one variant (board size, sheep per player, restricted splits).

    Attributes:
        sizes: ``sizes[count]``: the group sizes that may leave a stack of ``count`` sheep
            (``legality.split_sizes``), for ``count`` in ``0..S``.
        runs: ``runs[count]``: ``sizes[count]`` minus 1 as ``(start, stop)`` runs of consecutive offsets
            (one run, ``(0, count - 1)``, unless splits are restricted).
        openings: ``openings[cell]``: for each direction, ``(first_id, first_cell)``: the action id of sending
            1 sheep from ``cell`` that way, ``cells + (cell * 8 + direction) * (S - 1)`` (``BattleSheep``'s
            encoding; sending ``m`` is ``first_id + m - 1``), and the cell that must be free for it
            (``Tables.neighbours``).
    """

    sizes: tuple[tuple[int, ...], ...]
    runs: tuple[tuple[tuple[int, int], ...], ...]
    openings: tuple[tuple[tuple[int, int], ...], ...]


@cache
def split_tables(size: int, sizes: tuple[tuple[int, ...], ...]) -> SplitTables:
    """The (cached) :class:`SplitTables` of a ``size x size`` board whose stacks may send ``sizes[count]`` sheep
    (``count`` in ``0..S``, so ``S = len(sizes) - 1``)."""
    t, stride = tables_for(size), len(sizes) - 2
    runs = tuple(_runs([m - 1 for m in allowed]) for allowed in sizes)
    openings = tuple(
        tuple((t.cells + (cell * 8 + d) * stride, first) for d, first in enumerate(t.neighbours[cell]))
        for cell in range(t.cells)
    )
    return SplitTables(sizes, runs, openings)


def _runs(offsets: list[int]) -> tuple[tuple[int, int], ...]:
    """Ascending ``offsets`` as ``(start, stop)`` runs of consecutive integers."""
    runs: list[tuple[int, int]] = []
    for offset in offsets:
        if runs and runs[-1][1] == offset:
            runs[-1] = (runs[-1][0], offset + 1)
        else:
            runs.append((offset, offset + 1))
    return tuple(runs)


def _ray(n: int, x: int, y: int, dx: int, dy: int) -> tuple[int, ...]:
    cells = []
    x, y = x + dx, y + dy
    while 0 <= x < n and 0 <= y < n:
        cells.append(x * n + y)
        x, y = x + dx, y + dy
    return tuple(cells)


def _neighbours(n: int, steps: tuple[tuple[int, int], ...]) -> np.ndarray:
    table = np.full((len(steps), n * n), n * n, dtype=np.int32)
    for index, (dx, dy) in enumerate(steps):
        for x in range(n):
            for y in range(n):
                if 0 <= x + dx < n and 0 <= y + dy < n:
                    table[index, x * n + y] = (x + dx) * n + y + dy
    return table


@cache
def tables_for(size: int) -> Tables:
    """The (cached) tables of a ``size x size`` board."""
    rays = tuple(tuple(_ray(size, c // size, c % size, dx, dy) for dx, dy in STEPS) for c in range(size * size))
    diagonal = ((-1, -1), (-1, 1), (1, -1), (1, 1))
    step, orthogonal, diagonal_table = (_neighbours(size, steps) for steps in (STEPS, ORTHOGONAL, diagonal))
    neighbours = tuple(map(tuple, step.T.tolist()))
    orthogonal_cells = tuple(tuple(c for c in column if c < size * size) for column in orthogonal.T.tolist())
    around8 = np.concatenate([orthogonal, diagonal_table])
    return Tables(size, size * size, step, rays, orthogonal, diagonal_table, around8, neighbours, orthogonal_cells)


def cell_name(size: int, cell: int) -> str:
    """``"c5"``: column letter (``y``) then 1-based row (``x + 1``)."""
    return f"{chr(ord('a') + cell % size)}{cell // size + 1}"


def parse_cell(size: int, text: str) -> int:
    """The cell called ``text`` (inverse of :func:`cell_name`); ``ValueError`` if it is off the board."""
    column, row = ord(text[:1]) - ord("a"), text[1:]
    if not (0 <= column < size and row.isdigit() and 1 <= int(row) <= size):
        raise ValueError(f"{text!r} is not a cell of a {size}x{size} board")
    return (int(row) - 1) * size + column
