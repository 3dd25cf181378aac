"""Splendor (seed 002; 2-4 players, official rules or the Rinascimento preset) as PettingZoo environments:
``env()``, ``raw_env`` and ``parallel_env()``, version 3 of the game (what changed in each version:
docs/versions.md).

Example:
    >>> from boardenvs import splendor_v3
    >>> env = splendor_v3.env(num_players=2)
    >>> env.reset(seed=0)
    >>> env.possible_agents[0]
    'player_0'
    >>> env.metadata["name"]
    'splendor_v3'
"""

from boardenvs.modules import game_module

raw_env, env, parallel_env = game_module("splendor", __name__)
