"""The frozen, validated configuration of a Node Conquest game."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from boardenvs.core import check_choice, check_int

TOPOLOGIES = ("grid", "hex", "graph")
GROWTH_TIMINGS = ("every_ply", "mover_only")
TIE_BREAKS = ("draw", "units")
MIN_SIDE, MAX_SIDE = 2, 26
MAX_GRAPH_NODES = 1024
MAX_GROWTH = 1_000_000
MAX_UNITS = 1_000_000_000
"""Cap of ``start_units`` and ``neutral_garrison``: with at most 1024 nodes growing by at most ``MAX_GROWTH`` for at
most ``MAX_PLIES`` plies, no unit count can come near the ``int64`` range."""
MAX_PLIES = 1_000_000
MAX_UNIT_SCALE = 1_000_000_000


@dataclass(frozen=True)
class NodeConquestConfig:
    """Settings of one Node Conquest variant (defaults: the 5x5 game of seed 001).

    Attributes:
        rows: grid or hex rows, 2..26 (ignored for ``topology="graph"``).
        cols: grid or hex columns, 2..26 (ignored for ``topology="graph"``).
        topology: ``"grid"`` (4 orthogonal neighbours), ``"hex"`` (6 neighbours, odd rows shifted
            right) or ``"graph"`` (``nodes`` and ``edges``).
        num_players: 2..4.
        nodes: number of nodes of a ``"graph"`` map (2..1024); only for graphs.
        edges: undirected edges ``(a, b)`` of a ``"graph"`` map; the map must be connected.
        growth: units each owned node gains per growth step, one int >= 0 per node; ``None`` = 1 everywhere.
        starts: one start node per player; ``None`` = the corners (top-left, bottom-right, top-right,
            bottom-left) on grids and hexes, nodes ``i * nodes // num_players`` on graphs.
        start_units: units on each start node, 1..10**9; 16 by default, so that the first move sends the 15
            units of seed 001's Fig. 2 and leaves one behind (N1, N3).
        move_all_units: a move sends every unit (the origin keeps 0); default sends all but one (N3).
        growth_timing: ``"every_ply"`` (N5: every owned node of every player after each ply) or
            ``"mover_only"`` (only the nodes of the player who just moved).
        neutral_garrison: units on every neutral node at the start (N2: 0), 0..10**9; neutral nodes never grow.
        max_plies: the move cap (200 in the seed), 1..10**6; then the most nodes win (tied leaders share the win).
        tie_break: at the cap, equal node counts are a ``"draw"`` or decided by total ``"units"``.
        unit_scale: unit counts are divided by this and clipped to 1 in observations (no cap in the rules), 1..10**9.
    """

    rows: int = 5
    cols: int = 5
    topology: str = "grid"
    num_players: int = 2
    nodes: int | None = None
    edges: tuple[tuple[int, int], ...] | None = None
    growth: tuple[int, ...] | None = None
    starts: tuple[int, ...] | None = None
    start_units: int = 16
    move_all_units: bool = False
    growth_timing: str = "every_ply"
    neutral_garrison: int = 0
    max_plies: int = 200
    tie_break: str = "draw"
    unit_scale: int = 100

    def __post_init__(self) -> None:
        check_choice("topology", self.topology, TOPOLOGIES)
        check_int("num_players", self.num_players, 2, 4)
        self._check_shape()
        check_int("start_units", self.start_units, 1, MAX_UNITS)
        check_int("neutral_garrison", self.neutral_garrison, 0, MAX_UNITS)
        check_int("max_plies", self.max_plies, 1, MAX_PLIES)
        check_int("unit_scale", self.unit_scale, 1, MAX_UNIT_SCALE)
        check_choice("growth_timing", self.growth_timing, GROWTH_TIMINGS)
        check_choice("tie_break", self.tie_break, TIE_BREAKS)
        if not isinstance(self.move_all_units, bool):
            raise ValueError(f"move_all_units must be a bool, got {self.move_all_units!r}")
        self._check_growth()
        self._check_starts()
        for name in ("rows", "cols", "num_players", "start_units", "neutral_garrison", "max_plies", "unit_scale"):
            object.__setattr__(self, name, int(getattr(self, name)))

    @property
    def units_kept(self) -> int:
        """Units a move leaves on its origin (N3): 1, or 0 with ``move_all_units``."""
        return 0 if self.move_all_units else 1

    @property
    def num_nodes(self) -> int:
        """Number of nodes of the map."""
        return int(self.nodes) if self.topology == "graph" else self.rows * self.cols

    def _check_shape(self) -> None:
        if self.topology != "graph":
            check_int("rows", self.rows, MIN_SIDE, MAX_SIDE)
            check_int("cols", self.cols, MIN_SIDE, MAX_SIDE)
            for name in ("nodes", "edges"):
                if getattr(self, name) is not None:
                    raise ValueError(f"{name} is only for topology='graph', got {getattr(self, name)!r}")
            return
        if self.nodes is None or self.edges is None:
            raise ValueError("topology='graph' needs nodes and edges")
        check_int("nodes", self.nodes, 2, MAX_GRAPH_NODES)
        object.__setattr__(self, "nodes", int(self.nodes))
        object.__setattr__(self, "edges", _checked_edges(self.edges, self.nodes))
        if not _connected(self.nodes, self.edges):
            raise ValueError(f"edges must make a connected map of {self.nodes} nodes")

    def _check_growth(self) -> None:
        if self.growth is None:
            return
        growth = _int_tuple("growth", self.growth)
        if len(growth) != self.num_nodes:
            raise ValueError(f"growth must list one rate per node ({self.num_nodes}), got {len(growth)}")
        for rate in growth:
            check_int("growth", rate, 0, MAX_GROWTH)
        object.__setattr__(self, "growth", growth)

    def _check_starts(self) -> None:
        if self.starts is None:
            if self.topology == "graph" and self.nodes < self.num_players:
                raise ValueError(f"num_players ({self.num_players}) is more than the start positions ({self.nodes})")
            return
        starts = _int_tuple("starts", self.starts)
        if len(starts) < self.num_players:
            raise ValueError(f"num_players ({self.num_players}) is more than the start positions ({len(starts)})")
        if len(starts) > self.num_players:
            raise ValueError(f"starts must list one node per player ({self.num_players}), got {len(starts)}")
        for node in starts:
            check_int("starts", node, 0, self.num_nodes - 1)
        if len(set(starts)) != len(starts):
            raise ValueError(f"starts must be distinct nodes, got {starts}")
        object.__setattr__(self, "starts", starts)


def _int_tuple(name: str, values: Any) -> tuple[int, ...]:
    try:
        items = tuple(values)
    except TypeError:
        raise ValueError(f"{name} must be a sequence of ints, got {values!r}") from None
    for value in items:
        check_int(name, value, -(2**31))
    return tuple(int(value) for value in items)


def _checked_edges(edges: Any, nodes: int) -> tuple[tuple[int, int], ...]:
    try:
        pairs = tuple(tuple(edge) for edge in edges)
    except TypeError:
        raise ValueError(f"edges must be a sequence of (a, b) pairs, got {edges!r}") from None
    seen = set()
    for pair in pairs:
        if len(pair) != 2:
            raise ValueError(f"edges must be pairs (a, b), got {pair!r}")
        for node in pair:
            check_int("edges", node, 0, nodes - 1)
        if pair[0] == pair[1]:
            raise ValueError(f"edges may not join a node to itself, got {pair!r}")
        seen.add((min(pair), max(pair)))
    if len(seen) != len(pairs):
        raise ValueError("edges must not repeat an edge")
    return tuple((int(a), int(b)) for a, b in pairs)


def _connected(nodes: int, edges: tuple[tuple[int, int], ...]) -> bool:
    links: list[list[int]] = [[] for _ in range(nodes)]
    for a, b in edges:
        links[a].append(b)
        links[b].append(a)
    seen, frontier = {0}, [0]
    while frontier:
        node = frontier.pop()
        for other in links[node]:
            if other not in seen:
                seen.add(other)
                frontier.append(other)
    return len(seen) == nodes
