"""Bad Node Conquest configs raise ``ValueError`` naming the parameter."""

from __future__ import annotations

import numpy as np
import pytest

from boardenvs.games.node_conquest import NodeConquest, NodeConquestConfig
from boardenvs.games.node_conquest.config import MAX_GROWTH, MAX_UNITS

PATH3 = {"topology": "graph", "nodes": 3, "edges": ((0, 1), (1, 2))}

BAD = {
    "disconnected_graph": ({"topology": "graph", "nodes": 4, "edges": ((0, 1), (2, 3))}, "connected"),
    "start_off_the_map": ({"starts": (0, 25)}, "starts"),
    "negative_start": ({"starts": (-1, 3)}, "starts"),
    "duplicated_starts": ({"starts": (3, 3)}, "starts must be distinct"),
    "more_players_than_starts": ({"num_players": 3, "starts": (0, 24)}, "num_players"),
    "more_players_than_graph_nodes": ({**PATH3, "num_players": 4}, "num_players"),
    "too_many_starts": ({"starts": (0, 1, 2)}, "starts"),
    "zero_start_units": ({"start_units": 0}, "start_units"),
    "negative_start_units": ({"start_units": -3}, "start_units"),
    "rows_too_small": ({"rows": 1}, "rows"),
    "cols_too_large": ({"cols": 27}, "cols"),
    "rows_not_int": ({"rows": 4.0}, "rows"),
    "one_player": ({"num_players": 1}, "num_players"),
    "five_players": ({"num_players": 5}, "num_players"),
    "unknown_topology": ({"topology": "torus"}, "topology"),
    "graph_without_edges": ({"topology": "graph", "nodes": 3}, "nodes and edges"),
    "edges_on_a_grid": ({"edges": ((0, 1),)}, "edges"),
    "self_loop": ({"topology": "graph", "nodes": 2, "edges": ((0, 0), (0, 1))}, "itself"),
    "repeated_edge": ({"topology": "graph", "nodes": 2, "edges": ((0, 1), (1, 0))}, "repeat"),
    "edge_off_the_map": ({"topology": "graph", "nodes": 2, "edges": ((0, 2),)}, "edges"),
    "growth_wrong_length": ({"growth": (1, 1)}, "growth"),
    "negative_growth": ({**PATH3, "growth": (1, -1, 1)}, "growth"),
    "bad_growth_timing": ({"growth_timing": "sometimes"}, "growth_timing"),
    "bad_tie_break": ({"tie_break": "coin"}, "tie_break"),
    "zero_max_plies": ({"max_plies": 0}, "max_plies"),
    "negative_garrison": ({"neutral_garrison": -1}, "neutral_garrison"),
    "zero_unit_scale": ({"unit_scale": 0}, "unit_scale"),
    "move_all_units_not_bool": ({"move_all_units": 1}, "move_all_units"),
    "start_units_past_int64": ({"start_units": 2**63}, r"start_units must be in 1\.\.1000000000, got 9223372036"),
    "start_units_near_int64": ({"start_units": 2**63 - 3}, r"start_units must be in 1\.\.1000000000"),
    "garrison_past_int64": ({"neutral_garrison": 2**63}, r"neutral_garrison must be in 0\.\.1000000000"),
    "garrison_near_int64": ({"neutral_garrison": 2**63 - 3}, r"neutral_garrison must be in 0\.\.1000000000"),
    "huge_max_plies": ({"max_plies": 10**6 + 1}, r"max_plies must be in 1\.\.1000000"),
    "huge_unit_scale": ({"unit_scale": 10**9 + 1}, r"unit_scale must be in 1\.\.1000000000"),
    "huge_growth": ({**PATH3, "growth": (1, 2**63, 1)}, "growth must be in 0..1000000"),
}


@pytest.mark.parametrize("config, message", BAD.values(), ids=list(BAD))
def test_bad_config_raises_value_error_naming_the_parameter(config: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        NodeConquestConfig(**config)


def test_the_largest_unit_counts_play_without_overflow() -> None:
    """The caps keep every count far inside int64: the largest garrison, start and growth play to the end."""
    rng = np.random.default_rng(0)
    game = NodeConquest(start_units=MAX_UNITS, neutral_garrison=MAX_UNITS, growth=(MAX_GROWTH,) * 25, max_plies=60)
    state = game.initial_state(rng)
    while not game.is_terminal(state):
        state = game.apply(state, int(rng.choice(game.legal_actions(state))))
    assert state.units.max() <= 2 * MAX_UNITS + 60 * 25 * MAX_GROWTH and state.units.min() >= 0


def test_unknown_parameter_is_a_type_error() -> None:
    with pytest.raises(TypeError, match="unknown config parameter"):
        NodeConquest(size=5)


def test_lists_become_tuples_so_configs_hash() -> None:
    config = NodeConquestConfig(topology="graph", nodes=3, edges=[[0, 1], [1, 2]], starts=[2, 0], growth=[1, 2, 3])
    assert config.edges == ((0, 1), (1, 2)) and config.starts == (2, 0) and config.growth == (1, 2, 3)
    assert hash(config) == hash(NodeConquestConfig(**{**PATH3, "starts": (2, 0), "growth": (1, 2, 3)}))


def test_bad_position_text_is_rejected() -> None:
    game = NodeConquest(rows=2, cols=2)
    with pytest.raises(ValueError, match="4 nodes"):
        game.position("A3 . B2")
    with pytest.raises(ValueError, match="owns no node"):
        game.position("A3 . . .", to_move=1)
