"""Node Conquest observations: one stack of per-node features, as planes on grids/hexes or a vector on graphs.

``observe`` is on the hot path of every learner step, so it builds the stack with a handful of whole-array
numpy calls over tables made once per config (:class:`Observer`) instead of one expression per feature:

- a template per "is it my turn" holds the rows that never change (``growth``, ``node_exists``, ``my_turn``);
- the ``owners``, ``units`` and ``neutral_units`` rows come from one gather (``take``) of a per-observer table
  whose columns are indexed by ``(owner, min(units, unit_scale))`` (or, for a large ``unit_scale``, by the
  owner alone, the units then scaled in place);
- node ``i`` of a grid or hex is cell ``divmod(i, cols)``, so the planes are the stack reshaped, not scattered.
"""

from __future__ import annotations

import numpy as np

from boardenvs.core import ObservationField
from boardenvs.games.node_conquest.config import NodeConquestConfig
from boardenvs.games.node_conquest.state import NodeConquestState
from boardenvs.games.node_conquest.tables import Board

FEATURES = (
    ("owners", "one per player, observer first then the others in turn order: 1 on the player's nodes"),
    ("units", "one per player, same order: units on the player's nodes / unit_scale, clipped to 1"),
    ("neutral_units", "units on neutral nodes / unit_scale, clipped to 1"),
    ("growth", "growth rate of each node / the largest rate (0 if no node grows)"),
    ("node_exists", "1 on every node of the map (0 on plane cells without a node)"),
    ("time_elapsed", "ply / max_plies, on every node"),
    ("my_turn", "1 on every node if the observer is to move"),
)
MAX_UNIT_COLUMNS = 1 << 12
"""The widest gather table, in columns ``(players + 1) * (unit_scale + 1)``, that ``Observer`` builds (at most
144 KiB per observer seat); with a larger ``unit_scale`` it gathers by owner and scales the units instead."""


def feature_count(num_players: int) -> int:
    """Features per node: ``2 * num_players + 5``."""
    return 2 * num_players + 5


def observation_fields(num_players: int, num_nodes: int, vector: bool) -> tuple[ObservationField, ...]:
    """The named fields: planes ranges, or ``num_nodes``-long feature-major slices of the vector."""
    width = num_nodes if vector else 1
    fields, start = [], 0
    for name, description in FEATURES:
        size = (num_players if name in ("owners", "units") else 1) * width
        fields.append(ObservationField(name, start, start + size, 0.0, 1.0, description))
        start += size
    return tuple(fields)


class Observer:
    """Builds observations of one config.

    Attributes:
        shape: ``spec.observation_shape``: ``(F, rows, cols)`` planes, or ``(F * N,)`` on graphs.
        vector: whether observations are vectors (graphs).
        levels: the ``unit_scale + 1`` unit counts the gather tables tell apart (``min(units, unit_scale)``),
            or 0 when ``unit_scale`` is too large for them and ``features`` scales the units itself.
    """

    def __init__(self, config: NodeConquestConfig, board: Board) -> None:
        p, n = config.num_players, board.num_nodes
        self.board, self.num_players = board, p
        self.scale, self.max_plies = float(config.unit_scale), float(config.max_plies)
        self.vector = config.topology == "graph"
        self.shape = (feature_count(p) * n,) if self.vector else (feature_count(p), board.rows, board.cols)
        if not self.vector:  # the planes are the stack reshaped: node i is cell divmod(i, cols)
            assert np.array_equal(board.cell_rows * board.cols + board.cell_cols, np.arange(n))
        self.growth = board.growth / max(1, int(board.growth.max()))
        self._my_turn, self._not_my_turn = (self._template(mine) for mine in (1.0, 0.0))
        fits = (p + 1) * (config.unit_scale + 1) <= MAX_UNIT_COLUMNS
        self.levels = config.unit_scale + 1 if fits else 0
        self._tables = tuple(self._gather_table(player) for player in range(p))

    def _template(self, my_turn: float) -> np.ndarray:
        """``float32[F, N]``: zeros but for the constant rows ``growth``, ``node_exists`` and ``my_turn``."""
        p = self.num_players
        template = np.zeros((feature_count(p), self.board.num_nodes), dtype=np.float32)
        template[2 * p + 1], template[2 * p + 2], template[2 * p + 4] = self.growth, 1.0, my_turn
        return template

    def _gather_table(self, player: int) -> np.ndarray:
        """``float32[2p + 1, C]``: per column, the ``owners``, ``units`` and ``neutral_units`` entries of a node.

        Columns come in blocks by owner, players 0..p-1 and then neutral, each ``levels`` wide: one column per
        ``min(units, unit_scale)``. An owner of -1 gives negative column numbers, which ``take(mode="wrap")``
        sends to the last block, the neutral one. Without levels, each block is one column holding the owner
        rows and a 1 in the row that ``features`` then multiplies by the node's scaled units."""
        p, width = self.num_players, max(1, self.levels)
        scaled = np.minimum(np.arange(width) / self.scale, 1.0) if self.levels else np.ones(1)
        table = np.zeros((2 * p + 1, (p + 1) * width), dtype=np.float32)
        for owner in range(p + 1):
            block = slice(owner * width, (owner + 1) * width)
            if owner == p:  # neutral
                table[2 * p, block] = scaled
            else:
                seat = (owner - player) % p
                table[seat, block], table[p + seat, block] = 1.0, scaled
        return table

    def observe(self, state: NodeConquestState, player: int) -> np.ndarray:
        """``float32[spec.observation_shape]`` from ``player``'s point of view (a fresh array)."""
        features = self.features(state, player)
        return features.ravel() if self.vector else features.reshape(self.shape)

    def features(self, state: NodeConquestState, player: int) -> np.ndarray:
        """``float32[F, N]``: the features of every node (see ``FEATURES``), a fresh array."""
        p = self.num_players
        features = (self._my_turn if state.current_player == player else self._not_my_turn).copy()
        by_owner = features[: 2 * p + 1]
        if self.levels:
            columns = np.multiply(state.owner, self.levels, dtype=np.intp)
            columns += np.minimum(state.units, self.levels - 1)
            self._tables[player % p].take(columns, axis=1, out=by_owner, mode="wrap")
        else:
            self._tables[player % p].take(state.owner, axis=1, out=by_owner, mode="wrap")
            scaled = state.units / self.scale
            np.minimum(scaled, 1.0, out=scaled)
            by_owner[p:] *= scaled.astype(np.float32)
        features[2 * p + 3] = min(state.ply / self.max_plies, 1.0)
        return features
