"""Quoridor (seed 004; 2 or 4 players) as PettingZoo environments:
``env()``, ``raw_env`` and ``parallel_env()``, version 0 of the game (what changed in each version:
docs/versions.md).

Example:
    >>> from boardenvs import quoridor_v0
    >>> env = quoridor_v0.env(board_size=5)
    >>> env.reset(seed=0)
    >>> env.possible_agents[0]
    'player_0'
    >>> env.metadata["name"]
    'quoridor_v0'
"""

from boardenvs.modules import game_module

raw_env, env, parallel_env = game_module("quoridor", __name__)
