"""The four game settings of the 2024 course (the package's own copy of ``settings.csv``).

``settings.csv`` next to this module is the course table (docs/rules/rules.md §4.6); ``PRESETS`` are the registry
presets built from it. A test checks that the two agree.
"""

from __future__ import annotations

import csv
from pathlib import Path
from typing import Any

SETTINGS_CSV = Path(__file__).with_name("settings.csv")

PRESETS: dict[str, dict[str, Any]] = {
    "basic": {"board_size": 12, "field_size": 64, "num_players": 4, "sheep_per_player": 16},
    "overcrowded": {"board_size": 15, "field_size": 100, "num_players": 4, "sheep_per_player": 32},
    "imperfect": {"board_size": 12, "field_size": 64, "num_players": 4, "sheep_per_player": 16, "hidden_counts": True},
    "teams": {"board_size": 12, "field_size": 64, "num_players": 4, "sheep_per_player": 16, "teams": True},
}
"""Preset name -> config of the course's games 1 (basic) .. 4 (teams), in that order."""


def settings_rows() -> list[dict[str, str]]:
    """The rows of the course's settings table."""
    with SETTINGS_CSV.open(newline="") as handle:
        return list(csv.DictReader(handle))
