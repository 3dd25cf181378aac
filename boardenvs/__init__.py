"""boardenvs: board games from game-AI research as PettingZoo and Gymnasium environments.

Importing the package registers the games (``make_game``, ``list_games``) and, as soon as Gymnasium or PettingZoo
is imported, their environment ids (``boardenvs.envs``); the rules themselves need numpy only.
"""

from boardenvs import envs as _envs
from boardenvs._import_hooks import when_imported as _when_imported
from boardenvs.core import TERMINAL, Game, GameSpec, ObservationField, Symmetry, shared_win_returns
from boardenvs.registry import list_games, list_presets, make_game, register_opponent

__all__ = [
    "TERMINAL",
    "Game",
    "GameSpec",
    "ObservationField",
    "Symmetry",
    "list_games",
    "list_presets",
    "make_game",
    "register_opponent",
    "shared_win_returns",
]

import boardenvs.games  # noqa: F401,E402  (registers the games)

_when_imported("gymnasium", _envs.register_gymnasium_envs)
_when_imported("pettingzoo", _envs.register_pettingzoo_envs)
