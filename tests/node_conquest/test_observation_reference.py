"""The table-driven ``observe`` against a straightforward reference, on thousands of random states.

``Observer.observe`` copies a per-turn template, gathers the ``owners``, ``units`` and ``neutral_units`` rows
from a per-observer table and reshapes the stack into planes. The reference below builds the same observation
feature by feature and node by node, the way the code before issue 18 read: for every preset and a few odd
configs (a graph, three players, a unit scale too large for the gather table, a unit scale of 1, nodes that do
not grow, short games), every seat of every state of whole random games must get the same bytes, dtype and
shape, in a fresh array.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import boardenvs
from boardenvs.games.node_conquest import NodeConquest, NodeConquestState
from boardenvs.games.node_conquest.observation import MAX_UNIT_COLUMNS
from boardenvs.registry import game_entry
from tests.node_conquest.helpers import RING8
from tests.playouts import random_game_positions

CONFIGS: dict[str, dict[str, Any]] = {
    **{f"preset_{name}": game_entry("node_conquest").presets[name] for name in boardenvs.list_presets("node_conquest")},
    "graph_3p": {**RING8, "starts": (0, 3, 5), "num_players": 3, "move_all_units": True},
    "large_unit_scale": {"num_players": 3, "unit_scale": MAX_UNIT_COLUMNS, "start_units": 200_000},
    "unit_scale_1_mover_growth": {"rows": 4, "cols": 6, "unit_scale": 1, "growth_timing": "mover_only"},
    "barren_hex_4p": {"topology": "hex", "rows": 4, "cols": 3, "num_players": 4, "growth": (0,) * 12},
    "short_garrisoned": {"rows": 6, "cols": 4, "max_plies": 30, "neutral_garrison": 3, "unit_scale": 7},
}
MIN_STATES = 2000
"""Random states checked per config (whole games, so a few more)."""


def reference_features(game: NodeConquest, state: NodeConquestState, player: int) -> list[list[float]]:
    """The ``2p + 5`` rows of per-node features (see ``observation.FEATURES``)."""
    config, board = game.config, game.board
    seats = [(player + k) % config.num_players for k in range(config.num_players)]
    owner = state.owner.tolist()
    scaled = [min(units / config.unit_scale, 1.0) for units in state.units.tolist()]
    rows = [[float(node_owner == seat) for node_owner in owner] for seat in seats]
    rows += [[s if node_owner == seat else 0.0 for node_owner, s in zip(owner, scaled)] for seat in seats]
    rows.append([s if node_owner < 0 else 0.0 for node_owner, s in zip(owner, scaled)])
    top = max(1, max(board.growth.tolist()))
    rows.append([rate / top for rate in board.growth.tolist()])
    rows.append([1.0] * board.num_nodes)
    rows.append([min(state.ply / config.max_plies, 1.0)] * board.num_nodes)
    rows.append([float(state.current_player == player)] * board.num_nodes)
    return rows


def reference_observe(game: NodeConquest, state: NodeConquestState, player: int) -> np.ndarray:
    """Planes with each node's features at its cell, or the feature-major vector on graphs."""
    rows, board = reference_features(game, state, player), game.board
    if game.config.topology == "graph":
        return np.array([value for row in rows for value in row], dtype=np.float32)
    planes = np.zeros((len(rows), board.rows, board.cols), dtype=np.float32)
    for feature, row in enumerate(rows):
        for node, value in enumerate(row):
            planes[feature, board.cell_rows[node], board.cell_cols[node]] = value
    return planes


@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_observe_matches_the_reference_on_random_states(name: str) -> None:
    game = NodeConquest(**CONFIGS[name])
    shape = game.spec.observation_shape
    rng = np.random.default_rng(sorted(CONFIGS).index(name))
    for state in random_game_positions(game, rng, min_positions=MIN_STATES):
        for player in range(game.config.num_players):
            observation, expected = game.observe(state, player), reference_observe(game, state, player)
            assert observation.dtype == np.float32 and observation.shape == shape == expected.shape
            assert observation.tobytes() == expected.tobytes(), (name, state, player)


def test_the_gather_table_or_the_scaling_path_is_chosen_by_unit_scale() -> None:
    assert NodeConquest().observer.levels == 101
    assert NodeConquest(**CONFIGS["large_unit_scale"]).observer.levels == 0


def test_observe_returns_a_fresh_writable_array() -> None:
    game = NodeConquest()
    state = game.initial_state()
    first = game.observe(state, 1)
    first[:] = 7.0
    second = game.observe(state, 1)
    assert second.flags.writeable and not np.shares_memory(first, second)
    assert second.tobytes() == reference_observe(game, state, 1).tobytes()
