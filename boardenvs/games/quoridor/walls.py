"""The walls of a position: an immutable value shared by every state until the next wall.

Pawns never block paths and a pawn only moves along open edges, so everything derived from the
walls alone (open edges, free wall slots, distances to each goal, which candidate walls close a
cycle) is computed once per set of walls and cached here. The caches are memos of pure functions
of the walls: sharing a ``Walls`` object between states can never change what a state means.
This module answers questions about the wall graph; which walls a player may place is decided in
:mod:`boardenvs.games.quoridor.legality` (which keeps its memo in :attr:`Walls.placeable`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from boardenvs.games.quoridor.tables import DIRECTIONS, Tables, tables_for


class Walls:
    """A set of placed walls with its derived bitboards.

    Attributes:
        tables: the geometry of the board.
        placed: internal wall bits of the placed walls.
        open: cell masks ``(north, south, west, east)``: squares whose edge that way is open.
        free: wall bits that overlap or cross no placed wall (``tables.conflicts`` of every placed wall removed).
        components: one ``(points, closers)`` pair per connected group of walls (the board edge
            is one group): the group's lattice points, and the wall bits with two or more of
            their three points in it (adding one of those closes a loop and may cut a region off).
        planes: memo of observation data that depends only on the walls (wall planes, distance fields).
        placeable: memo of ``legality.placeable_walls``: pawn squares -> the wall bits legal with them.
    """

    __slots__ = ("tables", "placed", "open", "free", "components", "planes", "placeable", "_closers", "_layers")

    def __init__(self, tables: Tables, placed: int, open_: tuple[int, ...], free: int, components: tuple) -> None:
        self.tables = tables
        self.placed = placed
        self.open = open_
        self.free = free
        self.components = components
        self._closers: int | None = None
        self._layers: dict[int, list[int]] = {}
        self.placeable: dict[tuple[int, ...], int] = {}
        self.planes: dict[tuple, Any] = {}  # observation planes of this wall set (filled by ``Observer``)

    @classmethod
    def empty(cls, tables: Tables) -> Walls:
        """A board without walls."""
        edge = tables.boundary_points
        return cls(tables, 0, tables.open_base, tables.valid_walls, ((edge, tables.closers(edge)),))

    def add(self, bit: int) -> Walls:
        """A new ``Walls`` with wall ``bit`` added (the caller checked it is legal)."""
        t = self.tables
        north, south, west, east = t.blocks[bit]
        on, os, ow, oe = self.open
        opened = (on & ~north, os & ~south, ow & ~west, oe & ~east)
        return Walls(t, self.placed | (1 << bit), opened, self.free & ~t.conflicts[bit], self._merge(t.points[bit]))

    def with_walls(self, bits: Sequence[int]) -> Walls:
        """A new ``Walls`` with the walls ``bits`` added in this order (the caller checked each was legal in turn)."""
        board = self
        for bit in bits:
            board = board.add(bit)
        return board

    def _merge(self, points: int) -> tuple:
        """Components after adding a wall's points: every group it touches joins it."""
        merged, kept = points, []
        for component in self.components:
            if component[0] & points:
                merged |= component[0]
            else:
                kept.append(component)
        return ((merged, self.tables.closers(merged)), *kept)

    # -- pickling (the tables are rebuilt from the cache, the memos are dropped) -----------------
    def __getstate__(self) -> dict[str, Any]:
        t = self.tables
        return {
            "size": (t.n, t.num_players),
            "placed": self.placed,
            "open": self.open,
            "free": self.free,
            "components": self.components,
        }

    def __setstate__(self, data: dict[str, Any]) -> None:
        self.__init__(tables_for(*data["size"]), data["placed"], data["open"], data["free"], data["components"])

    # -- derived, cached -------------------------------------------------------------------------
    @property
    def closers(self) -> int:
        """Free wall bits that would close a cycle of walls (only those can cut a region off)."""
        if self._closers is None:
            found = 0
            for _, closers in self.components:
                found |= closers
            self._closers = found & self.free
        return self._closers

    def layers(self, goal: int) -> list[int]:
        """Breadth-first layers from the ``goal`` squares: ``layers[d]`` are the squares at distance d."""
        found = self._layers.get(goal)
        if found is None:
            found = self._layers[goal] = self._bfs_layers(goal)
        return found

    def _bfs_layers(self, goal: int) -> list[int]:
        n = self.tables.n
        on, os, ow, oe = self.open
        frontier = seen = goal
        layers = [goal]
        while True:
            grown = ((frontier & on) >> n) | ((frontier & os) << n) | ((frontier & ow) >> 1) | ((frontier & oe) << 1)
            frontier = grown & ~seen
            if not frontier:
                return layers
            seen |= frontier
            layers.append(frontier)

    def distance(self, cell: int, goal: int) -> int:
        """Steps from ``cell`` to the nearest ``goal`` square through the walls; -1 if cut off."""
        bit = 1 << cell
        for distance, layer in enumerate(self.layers(goal)):
            if layer & bit:
                return distance
        return -1

    # -- paths -----------------------------------------------------------------------------------
    def path_blockers(self, cell: int, goal: int) -> int:
        """Walls that would block an edge of one shortest path from ``cell`` to ``goal`` (which must be reachable):
        a wall outside this set leaves that path open."""
        t = self.tables
        layers = self.layers(goal)
        distance = self.distance(cell, goal)
        blockers = 0
        for depth in range(distance - 1, -1, -1):
            layer = layers[depth]
            for direction in DIRECTIONS:
                if (self.open[direction] >> cell) & 1 and (layer >> (cell + t.step[direction])) & 1:
                    blockers |= t.edge_blockers[direction][cell]
                    cell += t.step[direction]
                    break
        return blockers

    def reaches_with(self, cell: int, goal: int, extra: int) -> bool:
        """Whether ``cell`` still reaches ``goal`` once wall ``extra`` is added."""
        n = self.tables.n
        north, south, west, east = self.tables.blocks[extra]
        on, os, ow, oe = self.open
        on, os, ow, oe = on & ~north, os & ~south, ow & ~west, oe & ~east
        seen = frontier = 1 << cell
        while frontier:
            if seen & goal:
                return True
            grown = ((frontier & on) >> n) | ((frontier & os) << n) | ((frontier & ow) >> 1) | ((frontier & oe) << 1)
            frontier = grown & ~seen
            seen |= frontier
        return False
