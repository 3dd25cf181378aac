"""Node conquest (seed 001; the states.io-style grid game) as PettingZoo environments:
``env()``, ``raw_env`` and ``parallel_env()``, version 2 of the game (what changed in each version:
docs/versions.md).

Example:
    >>> from boardenvs import node_conquest_v2
    >>> env = node_conquest_v2.env(rows=5, cols=5)
    >>> env.reset(seed=0)
    >>> env.possible_agents[0]
    'player_0'
    >>> env.metadata["name"]
    'node_conquest_v2'
"""

from boardenvs.modules import game_module

raw_env, env, parallel_env = game_module("node_conquest", __name__)
