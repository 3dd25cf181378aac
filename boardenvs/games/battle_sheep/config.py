"""The frozen, validated configuration of a Battle Sheep game (NYCU AI Capstone 2024 variant) and its presets.

``settings.csv`` next to this module is the course's table of its four game settings (docs/rules/rules.md §4.6);
``PRESETS`` are the registry presets built from it. A test checks that the two agree.
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from boardenvs.core import check_choice, check_int

MIN_BOARD_SIZE = 2
MAX_BOARD_SIZE = 26  # columns are named by letters a..z
MAX_SHEEP = 64
MAX_PLAYERS = 4
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


def _check_bool(name: str, value: object) -> None:
    if not isinstance(value, (bool, np.bool_)):
        raise ValueError(f"{name} must be a bool, got {value!r}")


@dataclass(frozen=True)
class BattleSheepConfig:
    """Settings of one Battle Sheep variant (defaults: the course's game 1, "basic").

    Attributes:
        board_size: side of the square board, 2..26 (course: 12, or 15 for "overcrowded").
        field_size: number of playing-field cells, num_players..board_size**2 (course: 64, or 100).
        num_players: 2..4 (course: 4).
        sheep_per_player: sheep each player places in its single starting stack, 1..64 (course: 16 or 32).
        teams: players 0+2 against 1+3 (4 players only); each player's score is averaged with its partner's.
        hidden_counts: a player sees who owns every cell but only its own stack sizes (course game 3).
        restricted_splits: only splits moving 1, n // 2 or n - 1 sheep of an n-stack (seed 003's move set).
        border_neighbourhood: 4 or 8: a placement cell must lie on the board edge or touch a non-field cell
            in this neighbourhood (docs/rules/rules.md S2 recommends 4).
    """

    board_size: int = 12
    field_size: int = 64
    num_players: int = 4
    sheep_per_player: int = 16
    teams: bool = False
    hidden_counts: bool = False
    restricted_splits: bool = False
    border_neighbourhood: int = 4

    def __post_init__(self) -> None:
        check_int("board_size", self.board_size, MIN_BOARD_SIZE, MAX_BOARD_SIZE)
        check_int("num_players", self.num_players, 2, MAX_PLAYERS)
        check_int("field_size", self.field_size, int(self.num_players), int(self.board_size) ** 2)
        check_int("sheep_per_player", self.sheep_per_player, 1, MAX_SHEEP)
        for name in ("teams", "hidden_counts", "restricted_splits"):
            _check_bool(name, getattr(self, name))
        check_choice("border_neighbourhood", self.border_neighbourhood, (4, 8))
        if self.teams and self.num_players != 4:
            raise ValueError(f"teams needs num_players == 4, got num_players={self.num_players}")
        for name in ("board_size", "field_size", "num_players", "sheep_per_player", "border_neighbourhood"):
            object.__setattr__(self, name, int(getattr(self, name)))
        for name in ("teams", "hidden_counts", "restricted_splits"):
            object.__setattr__(self, name, bool(getattr(self, name)))
