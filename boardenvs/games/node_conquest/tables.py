"""The map of a Node Conquest variant, precomputed once per config: nodes, neighbour slots, names, layout.

Constant lookup tables only; which moves are legal on the map is :mod:`~boardenvs.games.node_conquest.legality`'s
job.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from boardenvs.games.node_conquest.config import NodeConquestConfig

GRID_DIRECTIONS = (("U", -1, 0), ("R", 0, 1), ("D", 1, 0), ("L", 0, -1))
"""Grid slots: name, row step, column step (slot ``s`` and ``(s + 2) % 4`` are opposite)."""
HEX_DIRECTIONS = ("E", "SE", "SW", "W", "NW", "NE")
"""Hex slots, clockwise from east (odd rows are shifted half a cell to the right)."""
_HEX_STEPS = {  # slot name -> (row step, column step on even rows, column step on odd rows)
    "E": (0, 1, 1),
    "SE": (1, 0, 1),
    "SW": (1, -1, 0),
    "W": (0, -1, -1),
    "NW": (-1, -1, 0),
    "NE": (-1, 0, 1),
}


@dataclass(frozen=True)
class Board:
    """Static tables of one map.

    Attributes:
        num_nodes: node count ``N``.
        max_degree: neighbour slots per node ``D`` (4 grid, 6 hex, the largest degree of a graph).
        neighbours: ``int64[N, D]``, the node reached through each slot, -1 where there is none.
        valid: ``bool[N, D]``, ``neighbours >= 0``.
        adjacency: the neighbours of each node in slot order.
        growth: ``int64[N]`` units an owned node gains per growth step.
        starts: the start node of each player.
        node_names: ``"b3"`` (column letter, row number from the top) or ``"n7"`` on graphs.
        slot_names: per node, the name of each slot (``"R"``, ``"NE"`` or the target's node name).
        rows, cols: layout of the planes (graphs: 0, 0; observations are vectors).
        cell_rows, cell_cols: ``int64[N]`` plane position of each node.
    """

    num_nodes: int
    max_degree: int
    neighbours: np.ndarray
    valid: np.ndarray
    adjacency: tuple[tuple[int, ...], ...]
    growth: np.ndarray
    starts: tuple[int, ...]
    node_names: tuple[str, ...]
    slot_names: tuple[tuple[str, ...], ...]
    rows: int
    cols: int
    cell_rows: np.ndarray
    cell_cols: np.ndarray

    def distances_from(self, sources: list[int]) -> np.ndarray:
        """``int64[N]`` breadth-first step counts to the nearest of ``sources`` (N where none is reachable)."""
        distance = np.full(self.num_nodes, self.num_nodes, dtype=np.int64)
        frontier = list(sources)
        distance[frontier] = 0
        step = 0
        while frontier:
            step += 1
            following = []
            for node in frontier:
                for other in self.adjacency[node]:
                    if distance[other] > step:
                        distance[other] = step
                        following.append(other)
            frontier = following
        return distance


@lru_cache(maxsize=64)
def board_for(config: NodeConquestConfig) -> Board:
    """The (cached) board of ``config``."""
    if config.topology == "graph":
        links, names, slots = _graph_links(config)
        rows = cols = 0
        cell_rows = cell_cols = np.zeros(config.num_nodes, dtype=np.int64)
    else:
        links, slots = _lattice_links(config)
        rows, cols = config.rows, config.cols
        names = tuple(cell_name(r, c) for r in range(rows) for c in range(cols))
        cell_rows, cell_cols = np.divmod(np.arange(rows * cols, dtype=np.int64), cols)
    return _board(config, links, names, slots, rows, cols, cell_rows, cell_cols)


def _board(
    config: NodeConquestConfig,
    links: list[list[int]],
    names: tuple[str, ...],
    slots: tuple[tuple[str, ...], ...],
    rows: int,
    cols: int,
    cell_rows: np.ndarray,
    cell_cols: np.ndarray,
) -> Board:
    degree = max(len(slot_row) for slot_row in links)
    neighbours = np.full((len(links), degree), -1, dtype=np.int64)
    for node, slot_row in enumerate(links):
        neighbours[node, : len(slot_row)] = slot_row
    growth = np.asarray(config.growth if config.growth is not None else [1] * len(links), dtype=np.int64)
    adjacency = tuple(tuple(int(n) for n in slot_row if n >= 0) for slot_row in links)
    return Board(
        len(links), degree, neighbours, neighbours >= 0, adjacency, growth, _starts(config),
        names, slots, rows, cols, cell_rows, cell_cols,
    )  # fmt: skip


def cell_name(row: int, col: int) -> str:
    """``"b3"``: column letter, then the row number counted from 1 at the top."""
    return f"{chr(ord('a') + col)}{row + 1}"


def _lattice_links(config: NodeConquestConfig) -> tuple[list[list[int]], tuple[tuple[str, ...], ...]]:
    rows, cols = config.rows, config.cols
    links = []
    for row in range(rows):
        for col in range(cols):
            links.append(
                [_lattice_step(config.topology, row, col, slot, rows, cols) for slot in range(_degree(config))]
            )
    names = GRID_DIRECTIONS if config.topology == "grid" else HEX_DIRECTIONS
    slot_names = tuple(name[0] if isinstance(name, tuple) else name for name in names)
    return links, (slot_names,) * (rows * cols)


def _degree(config: NodeConquestConfig) -> int:
    return 4 if config.topology == "grid" else 6


def _lattice_step(topology: str, row: int, col: int, slot: int, rows: int, cols: int) -> int:
    if topology == "grid":
        _, d_row, d_col = GRID_DIRECTIONS[slot]
    else:
        d_row, even, odd = _HEX_STEPS[HEX_DIRECTIONS[slot]]
        d_col = odd if row % 2 else even
    row, col = row + d_row, col + d_col
    return row * cols + col if 0 <= row < rows and 0 <= col < cols else -1


def _graph_links(config: NodeConquestConfig) -> tuple[list[list[int]], tuple[str, ...], tuple[tuple[str, ...], ...]]:
    links: list[list[int]] = [[] for _ in range(config.num_nodes)]
    for a, b in config.edges:
        links[a].append(b)
        links[b].append(a)
    links = [sorted(row) for row in links]
    names = tuple(f"n{node}" for node in range(config.num_nodes))
    slots = tuple(tuple(names[other] for other in row) for row in links)
    return links, names, slots


def _starts(config: NodeConquestConfig) -> tuple[int, ...]:
    if config.starts is not None:
        return tuple(config.starts)
    if config.topology == "graph":
        return tuple(player * config.num_nodes // config.num_players for player in range(config.num_players))
    last_row, last_col = config.rows - 1, config.cols - 1
    corners = ((0, 0), (last_row, last_col), (0, last_col), (last_row, 0))
    return tuple(row * config.cols + col for row, col in corners[: config.num_players])
