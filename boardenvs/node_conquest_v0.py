"""Node conquest (seed 001; the states.io-style grid game) as PettingZoo environments:
``env()``, ``raw_env`` and ``parallel_env()``.

Example:
    >>> from boardenvs import node_conquest_v0
    >>> env = node_conquest_v0.env(rows=5, cols=5)
    >>> env.reset(seed=0)
    >>> env.possible_agents[0]
    'player_0'
"""

from boardenvs.modules import game_module

raw_env, env, parallel_env = game_module("node_conquest", __name__)
