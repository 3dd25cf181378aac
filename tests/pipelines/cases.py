"""The small configs every pipeline test runs: two per game (2 players, and 3-4 players), small enough that a
pipeline's rollout or training step takes well under a second."""

from __future__ import annotations

from typing import Any

import pytest

SMALL_CONFIGS: dict[str, list[dict[str, Any]]] = {
    "battle_sheep": [
        {"board_size": 5, "field_size": 12, "num_players": 2, "sheep_per_player": 4},
        {"board_size": 6, "field_size": 16, "num_players": 3, "sheep_per_player": 6},
    ],
    "gravwell": [{"preset": "2p"}, {"preset": "3p"}],
    "node_conquest": [{"preset": "small"}, {"preset": "4p"}],
    "quoridor": [{"board_size": 5}, {"board_size": 5, "num_players": 4}],
    "splendor": [{}, {"preset": "3p"}],
}
"""Two small configs per game (2 and 3-4 players)."""

CASES = [
    pytest.param(game, config, id=f"{game}[{','.join(f'{k}={v}' for k, v in config.items()) or 'default'}]")
    for game, configs in SMALL_CONFIGS.items()
    for config in configs
]
"""``pytest.param(game, config)`` for every small config."""
