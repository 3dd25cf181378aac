"""Node Conquest observations: one stack of per-node features, as planes on grids/hexes or a vector on graphs."""

from __future__ import annotations

import numpy as np

from boardenvs.core import ObservationField
from boardenvs.games.node_conquest.board import Board
from boardenvs.games.node_conquest.config import NodeConquestConfig
from boardenvs.games.node_conquest.state import NodeConquestState

FEATURES = (
    ("owners", "one per player, observer first then the others in turn order: 1 on the player's nodes"),
    ("units", "one per player, same order: units on the player's nodes / unit_scale, clipped to 1"),
    ("neutral_units", "units on neutral nodes / unit_scale, clipped to 1"),
    ("growth", "growth rate of each node / the largest rate (0 if no node grows)"),
    ("node_exists", "1 on every node of the map (0 on plane cells without a node)"),
    ("time_elapsed", "ply / max_plies, on every node"),
    ("my_turn", "1 on every node if the observer is to move"),
)


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
    """Builds observations of one config."""

    def __init__(self, config: NodeConquestConfig, board: Board) -> None:
        self.board = board
        self.num_players = config.num_players
        self.scale = float(config.unit_scale)
        self.max_plies = float(config.max_plies)
        self.growth = board.growth / max(1, int(board.growth.max()))
        self.vector = config.topology == "graph"
        count = feature_count(config.num_players)
        self.shape = (count * board.num_nodes,) if self.vector else (count, board.rows, board.cols)

    def observe(self, state: NodeConquestState, player: int) -> np.ndarray:
        """``float32[spec.observation_shape]`` from ``player``'s point of view."""
        features = self.features(state, player)
        if self.vector:
            return features.ravel()
        planes = np.zeros(self.shape, dtype=np.float32)
        planes[:, self.board.cell_rows, self.board.cell_cols] = features
        return planes

    def features(self, state: NodeConquestState, player: int) -> np.ndarray:
        """``float32[F, N]``: the features of every node (see ``FEATURES``)."""
        p, n = self.num_players, self.board.num_nodes
        features = np.empty((feature_count(p), n), dtype=np.float32)
        order = (np.arange(p) + player) % p
        owners = state.owner[None, :] == order[:, None]
        scaled = np.minimum(state.units / self.scale, 1.0)
        features[:p] = owners
        features[p : 2 * p] = owners * scaled
        features[2 * p] = (state.owner < 0) * scaled
        features[2 * p + 1] = self.growth
        features[2 * p + 2] = 1.0
        features[2 * p + 3] = min(state.ply / self.max_plies, 1.0)
        features[2 * p + 4] = float(state.current_player == player)
        return features
