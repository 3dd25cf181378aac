"""boardenvs: board games from game-AI research as PettingZoo and Gymnasium environments."""

from boardenvs.core import TERMINAL, Game, GameSpec, ObservationField
from boardenvs.registry import list_games, list_presets, make_game

__all__ = ["TERMINAL", "Game", "GameSpec", "ObservationField", "list_games", "list_presets", "make_game"]

# Env ids for pettingzoo.make / gymnasium.make; this imports boardenvs.games first, so it sees every game.
from boardenvs.envs import register_all_envs  # noqa: E402

register_all_envs()
import boardenvs.games  # noqa: F401,E402  (registers the games)
