"""Splendor (seed 002; 2-4 players, official rules or the Rinascimento preset) as PettingZoo environments:
``env()``, ``raw_env`` and ``parallel_env()``.

Example:
    >>> from boardenvs import splendor_v0
    >>> env = splendor_v0.env(num_players=2)
    >>> env.reset(seed=0)
    >>> env.possible_agents[0]
    'player_0'
"""

from boardenvs.modules import game_module

raw_env, env, parallel_env = game_module("splendor", __name__)
