"""Gravwell (seed 000; 2-4 players, secret simultaneous card commits) as PettingZoo environments:
``env()``, ``raw_env`` and ``parallel_env()``, version 1 of the game (what changed in each version:
docs/versions.md).

Example:
    >>> from boardenvs import gravwell_v1
    >>> env = gravwell_v1.env(num_players=2)
    >>> env.reset(seed=0)
    >>> env.possible_agents[0]
    'player_0'
    >>> env.metadata["name"]
    'gravwell_v1'
"""

from boardenvs.modules import game_module

raw_env, env, parallel_env = game_module("gravwell", __name__)
