"""Gravwell (seed 000; 2-4 players, secret simultaneous card commits) as PettingZoo environments:
``env()``, ``raw_env`` and ``parallel_env()``.

Example:
    >>> from boardenvs import gravwell_v0
    >>> env = gravwell_v0.env(num_players=2)
    >>> env.reset(seed=0)
    >>> env.possible_agents[0]
    'player_0'
"""

from boardenvs.modules import game_module

raw_env, env, parallel_env = game_module("gravwell", __name__)
