"""Precomputed geometry of one board size and player count (built once, cached).

Bit layouts used by the engine (all Python ints):

* **cells**: bit ``r * n + c`` is the square in row ``r`` (0 = top) and column ``c`` (0 = left).
  Moving north is ``>> n``, south ``<< n``, west ``>> 1``, east ``<< 1``.
* **walls** (internal): a horizontal wall anchored at square ``(r, c)`` lies under the squares
  ``(r, c)`` and ``(r, c + 1)``; a vertical one lies right of ``(r, c)`` and ``(r + 1, c)``.
  Horizontal wall ``(r, c)`` is bit ``r * (n + 1) + c``, vertical wall ``(r, c)`` is bit
  ``S + r * (n + 1) + c`` with ``S = (n + 1) ** 2``; the stride ``n + 1`` is that of the lattice
  of wall end points, so "which candidate walls touch these points" is a few shifts.
* **lattice points**: bit ``i * (n + 1) + j`` is the corner between squares, ``0 <= i, j <= n``.
* **unified**: the legal moves of a position in one int: cell bits ``[0, n*n)`` (pawn targets),
  wall bits shifted up by ``n*n``, and the pass bit ``n*n + 2*S``.
* **absolute actions** (player 0's frame): ``[0, n*n)`` squares, then the ``(n-1)**2``
  horizontal anchors ``r * (n - 1) + c``, then the vertical ones, then PASS.
"""

from __future__ import annotations

from functools import cache

import numpy as np

NORTH, SOUTH, WEST, EAST = 0, 1, 2, 3
DIRECTIONS = (NORTH, SOUTH, WEST, EAST)
SIDES = ((WEST, EAST), (WEST, EAST), (NORTH, SOUTH), (NORTH, SOUTH))
ROW_STEP = (-1, 1, 0, 0)
COL_STEP = (0, 0, -1, 1)


def bits_of(mask: int) -> list[int]:
    """Indices of the set bits of ``mask``, lowest first."""
    found = []
    while mask:
        low = mask & -mask
        found.append(low.bit_length() - 1)
        mask ^= low
    return found


def rotate(point: tuple[int, int], turns: int, top: int) -> tuple[int, int]:
    """``point`` on a grid with coordinates ``0..top`` after ``turns`` quarter turns counter-clockwise."""
    row, col = point
    for _ in range(turns % 4):
        row, col = top - col, row
    return row, col


class Tables:
    """Everything about a board size and player count that never changes during a game."""

    def __init__(self, n: int, num_players: int) -> None:
        self.n = n
        self.num_players = num_players
        self.cells = n * n
        self.stride = n + 1
        self.wall_span = (n + 1) ** 2  # S: offset of the vertical wall bits
        self.num_actions = n * n + 2 * (n - 1) ** 2 + 1
        self.pass_action = self.num_actions - 1
        self.pass_bit = self.cells + 2 * self.wall_span
        self.unified_bytes = (self.pass_bit + 8) // 8
        self.all_cells = (1 << self.cells) - 1
        self._build_geometry()
        self._build_walls()
        self._build_seats()
        self._build_frames()

    # -- geometry -------------------------------------------------------------------------------
    def cell(self, row: int, col: int) -> int:
        return row * self.n + col

    def _cells_where(self, test) -> int:
        n = self.n
        return sum(1 << (r * n + c) for r in range(n) for c in range(n) if test(r, c))

    def _build_geometry(self) -> None:
        n = self.n
        self.open_base = (
            self._cells_where(lambda r, c: r > 0),
            self._cells_where(lambda r, c: r < n - 1),
            self._cells_where(lambda r, c: c > 0),
            self._cells_where(lambda r, c: c < n - 1),
        )
        self.step = (-n, n, -1, 1)
        self.row_masks = tuple(self._cells_where(lambda r, c, k=k: r == k) for k in range(n))
        self.col_masks = tuple(self._cells_where(lambda r, c, k=k: c == k) for k in range(n))

    # -- walls ----------------------------------------------------------------------------------
    def wall_bit(self, row: int, col: int, horizontal: bool) -> int:
        return row * self.stride + col + (0 if horizontal else self.wall_span)

    def wall_of_bit(self, bit: int) -> tuple[int, int, bool]:
        """``(row, col, horizontal)`` of an internal wall bit."""
        horizontal = bit < self.wall_span
        row, col = divmod(bit if horizontal else bit - self.wall_span, self.stride)
        return row, col, horizontal

    def _build_walls(self) -> None:
        n, span = self.n, self.wall_span
        anchors = [(r, c) for r in range(n - 1) for c in range(n - 1)]
        self.valid_h = sum(1 << self.wall_bit(r, c, True) for r, c in anchors)
        self.valid_walls = self.valid_h | (self.valid_h << span)
        self.blocks: dict[int, tuple[int, int, int, int]] = {}
        self.conflicts: dict[int, int] = {}
        self.points: dict[int, int] = {}
        for r, c in anchors:
            for horizontal in (True, False):
                bit = self.wall_bit(r, c, horizontal)
                self.blocks[bit] = self._wall_blocks(r, c, horizontal)
                self.conflicts[bit] = self._wall_conflicts(r, c, horizontal)
                self.points[bit] = self._wall_points(r, c, horizontal)
        self.boundary_points = sum(
            1 << (i * self.stride + j) for i in range(n + 1) for j in range(n + 1) if i in (0, n) or j in (0, n)
        )
        self.edge_blockers = self._build_edge_blockers()

    def _wall_blocks(self, r: int, c: int, horizontal: bool) -> tuple[int, int, int, int]:
        """Cell masks to clear from the (north, south, west, east) open masks."""
        cell = self.cell
        if horizontal:
            upper = (1 << cell(r, c)) | (1 << cell(r, c + 1))
            lower = (1 << cell(r + 1, c)) | (1 << cell(r + 1, c + 1))
            return lower, upper, 0, 0
        left = (1 << cell(r, c)) | (1 << cell(r + 1, c))
        right = (1 << cell(r, c + 1)) | (1 << cell(r + 1, c + 1))
        return 0, 0, right, left

    def _wall_conflicts(self, r: int, c: int, horizontal: bool) -> int:
        """Walls that can no longer be placed once this one is: same slot, overlap, crossing."""
        bit = self.wall_bit
        mask = (1 << bit(r, c, True)) | (1 << bit(r, c, False))
        for dc in (-1, 1) if horizontal else ():
            if 0 <= c + dc < self.n - 1:
                mask |= 1 << bit(r, c + dc, True)
        for dr in (-1, 1) if not horizontal else ():
            if 0 <= r + dr < self.n - 1:
                mask |= 1 << bit(r + dr, c, False)
        return mask

    def _wall_points(self, r: int, c: int, horizontal: bool) -> int:
        """The three lattice points (two ends and the middle) a wall occupies."""
        s = self.stride
        if horizontal:
            return sum(1 << ((r + 1) * s + c + k) for k in range(3))
        return sum(1 << ((r + k) * s + c + 1) for k in range(3))

    def _build_edge_blockers(self) -> tuple[list[int], ...]:
        """``edge_blockers[d][cell]``: the wall bits that close the edge from ``cell`` towards ``d``."""
        table = tuple([0] * self.cells for _ in DIRECTIONS)
        for bit, blocked in self.blocks.items():
            for direction in DIRECTIONS:
                for cell in bits_of(blocked[direction]):
                    table[direction][cell] |= 1 << bit
        return table

    def closers(self, component: int) -> int:
        """Wall bits with two or more of their points in ``component`` (a set of lattice points)."""
        n, valid = self.n, self.valid_h
        a, b, c = component >> (n + 1), component >> (n + 2), component >> (n + 3)
        horizontal = ((a & b) | (a & c) | (b & c)) & valid
        a, b, c = component >> 1, component >> (n + 2), component >> (2 * n + 3)
        vertical = ((a & b) | (a & c) | (b & c)) & valid
        return horizontal | (vertical << self.wall_span)

    # -- seats ----------------------------------------------------------------------------------
    def _build_seats(self) -> None:
        n, centre = self.n, (self.n - self.n % 2) // 2
        if self.num_players == 2:
            seats = [((n - 1, centre), self.row_masks[0], 0), ((0, centre), self.row_masks[n - 1], 2)]
        else:
            seats = [
                ((n - 1, centre), self.row_masks[0], 0),
                ((centre, 0), self.col_masks[n - 1], 1),
                ((0, centre), self.row_masks[n - 1], 2),
                ((centre, n - 1), self.col_masks[0], 3),
            ]
        self.starts = tuple(self.cell(*square) for square, _, _ in seats)
        self.goals = tuple(goal for _, goal, _ in seats)
        self.turns = tuple(turns for _, _, turns in seats)

    # -- egocentric frames ----------------------------------------------------------------------
    def _build_frames(self) -> None:
        abs_to_frame = [self._frame_permutation(turns) for turns in self.turns]
        self.abs_to_frame = tuple(abs_to_frame)
        self.frame_to_abs = tuple(_inverse(perm) for perm in abs_to_frame)
        unified = [self._unified_of_abs(a) for a in range(self.num_actions)]
        self.abs_to_unified = tuple(unified)
        self.frame_to_unified = tuple(tuple(unified[a] for a in perm) for perm in self.frame_to_abs)
        self.gather = tuple(np.array(row, dtype=np.intp) for row in self.frame_to_unified)
        self.unified_to_frame = tuple(_unified_inverse(row, self.pass_bit + 1) for row in self.frame_to_unified)

    def _frame_permutation(self, turns: int) -> list[int]:
        """``perm[absolute action] = action in the frame rotated by ``turns`` quarter turns``."""
        n, cells, block = self.n, self.cells, (self.n - 1) ** 2
        perm = []
        for action in range(self.num_actions):
            if action < cells:
                row, col = rotate(divmod(action, n), turns, n - 1)
                perm.append(row * n + col)
            elif action < self.pass_action:
                horizontal = action < cells + block
                row, col = divmod((action - cells) % block, n - 1)
                i, j = rotate((row + 1, col + 1), turns, n)  # the wall's middle lattice point
                horizontal ^= turns % 2 == 1
                perm.append(cells + (0 if horizontal else block) + (i - 1) * (n - 1) + j - 1)
            else:
                perm.append(action)
        return perm

    def _unified_of_abs(self, action: int) -> int:
        cells, block = self.cells, (self.n - 1) ** 2
        if action < cells:
            return action
        if action == self.pass_action:
            return self.pass_bit
        horizontal = action < cells + block
        row, col = divmod((action - cells) % block, self.n - 1)
        return cells + self.wall_bit(row, col, horizontal)


def _inverse(perm: list[int]) -> list[int]:
    inverse = [0] * len(perm)
    for source, target in enumerate(perm):
        inverse[target] = source
    return inverse


def _unified_inverse(frame_to_unified: tuple[int, ...], size: int) -> list[int]:
    """``table[unified bit] = frame action`` (-1 for bits that are no action)."""
    table = [-1] * size
    for action, bit in enumerate(frame_to_unified):
        table[bit] = action
    return table


@cache
def tables_for(board_size: int, num_players: int) -> Tables:
    """The shared tables of a board size and player count."""
    return Tables(board_size, num_players)
