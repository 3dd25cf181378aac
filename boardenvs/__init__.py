"""boardenvs: board games from game-AI research as PettingZoo and Gymnasium environments."""

from boardenvs.core import TERMINAL, Game, GameSpec, ObservationField
from boardenvs.registry import list_games, list_presets, make_game

__all__ = ["TERMINAL", "Game", "GameSpec", "ObservationField", "list_games", "list_presets", "make_game"]
