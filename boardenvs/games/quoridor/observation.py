"""Egocentric observation planes of a Quoridor position.

Every plane is ``n x n`` and drawn in the observer's frame: the board turned by quarter turns
so that the observer's goal is at the top (the same frame as that player's action ids).
"""

from __future__ import annotations

import numpy as np

from boardenvs.core import ObservationField
from boardenvs.games.quoridor.state import QuoridorState
from boardenvs.games.quoridor.tables import Tables, bits_of
from boardenvs.games.quoridor.walls import Walls


def observation_fields(num_players: int) -> tuple[ObservationField, ...]:
    """The named plane groups, in order (``3 * num_players + 4`` planes)."""
    p = num_players
    return (
        ObservationField("pawns", 0, p, 0.0, 1.0, "per player in turn order from the observer: 1 on its pawn"),
        ObservationField(
            "horizontal_walls",
            p,
            p + 1,
            0.0,
            1.0,
            "1 at the anchor (r, c) of each horizontal wall (under squares (r, c), (r, c+1)); last row/column unused",
        ),
        ObservationField(
            "vertical_walls",
            p + 1,
            p + 2,
            0.0,
            1.0,
            "1 at the anchor (r, c) of each vertical wall (right of squares (r, c), (r+1, c)); last row/column unused",
        ),
        ObservationField(
            "distances",
            p + 2,
            2 * p + 2,
            0.0,
            1.0,
            "per player in the same order: its shortest-path distance to its goal from every square, through the "
            "walls (pawns ignored), divided by n*n; 1 where its goal cannot be reached",
        ),
        ObservationField(
            "walls_left",
            2 * p + 2,
            3 * p + 2,
            0.0,
            1.0,
            "one constant plane per player in the same order: walls left / max(1, walls_per_player)",
        ),
        ObservationField("my_turn", 3 * p + 2, 3 * p + 3, 0.0, 1.0, "constant: 1 if the observer is to move"),
        ObservationField("ones", 3 * p + 3, 3 * p + 4, 0.0, 1.0, "constant 1 (marks the board area for convolutions)"),
    )


class Observer:
    """Builds observations; holds, per observer, where each square and wall lands in its frame."""

    def __init__(self, tables: Tables, walls_per_player: int) -> None:
        self.tables = tables
        self.scale = 1.0 / max(1, walls_per_player)
        n, p = tables.n, tables.num_players
        self.shape = (3 * p + 4, n, n)
        self.template = np.zeros(self.shape, dtype=np.float32)
        self.template[-1] = 1.0
        self.cell_index = tuple(tuple(perm[: tables.cells]) for perm in tables.abs_to_frame)
        self.frame_order = tuple(np.argsort(np.asarray(cells)) for cells in self.cell_index)
        self.wall_index = tuple(self._wall_positions(observer) for observer in range(p))

    def _wall_positions(self, observer: int) -> dict[int, int]:
        """``{internal wall bit: flat index into the two wall planes}`` in ``observer``'s frame."""
        t = self.tables
        positions = {}
        for bit in bits_of(t.valid_walls):
            frame = t.unified_to_frame[observer][t.cells + bit] - t.cells
            horizontal, (row, col) = frame < (t.n - 1) ** 2, divmod(frame % (t.n - 1) ** 2, t.n - 1)
            positions[bit] = (0 if horizontal else t.cells) + row * t.n + col
        return positions

    def observe(self, state: QuoridorState, observer: int) -> np.ndarray:
        p = self.tables.num_players
        planes = self.template.copy()  # zeros, with the constant "ones" plane already set
        flat = planes.reshape(len(planes), -1)
        cells = self.cell_index[observer]
        for offset in range(p):
            player = (observer + offset) % p
            flat[offset, cells[state.pawns[player]]] = 1.0
            flat[p + 2 + offset] = self._distance_plane(state.board, observer, player)
            if state.walls_left[player]:
                planes[2 * p + 2 + offset] = state.walls_left[player] * self.scale
        if state.board.placed:
            planes[p : p + 2] = self._wall_planes(state.board, observer)
        if state.current_player == observer:
            planes[3 * p + 2] = 1.0
        return planes

    def _distance_plane(self, board: Walls, observer: int, player: int) -> np.ndarray:
        """``player``'s distance field in ``observer``'s frame (flat), once per wall set."""
        key = ("distance plane", observer, player)
        plane = board.planes.get(key)
        if plane is None:
            plane = board.planes[key] = self._distances(board, player)[self.frame_order[observer]]
        return plane

    def _distances(self, board: Walls, player: int) -> np.ndarray:
        """``player``'s distance to its goal from every absolute square, / n*n (1: cut off); once per wall set."""
        key = ("distances", player)
        distances = board.planes.get(key)
        if distances is None:
            t = self.tables
            layers = board.layers(t.goals[player])
            size = (t.cells + 7) // 8
            raw = np.frombuffer(b"".join(layer.to_bytes(size, "little") for layer in layers), dtype=np.uint8)
            reached = np.unpackbits(raw.reshape(len(layers), size), axis=1, bitorder="little")[:, : t.cells]
            steps = np.where(reached.any(axis=0), reached.argmax(axis=0) / t.cells, 1.0)
            distances = board.planes[key] = steps.astype(np.float32)
        return distances

    def _wall_planes(self, board: Walls, observer: int) -> np.ndarray:
        """The two wall planes in ``observer``'s frame, drawn once per set of walls."""
        planes = board.planes.get(("walls", observer))
        if planes is None:
            n = self.tables.n
            planes = np.zeros(2 * n * n, dtype=np.float32)
            positions = self.wall_index[observer]
            for bit in bits_of(board.placed):
                planes[positions[bit]] = 1.0
            planes = planes.reshape(2, n, n)
            board.planes[("walls", observer)] = planes
        return planes
