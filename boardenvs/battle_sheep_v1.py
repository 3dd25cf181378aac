"""Battle Sheep (seed 003; the course's square-grid variant) as PettingZoo environments:
``env()``, ``raw_env`` and ``parallel_env()``, version 1 of the game (what changed in each version:
docs/versions.md).

Example:
    >>> from boardenvs import battle_sheep_v1
    >>> env = battle_sheep_v1.env(preset="basic")
    >>> env.reset(seed=0)
    >>> env.possible_agents[0]
    'player_0'
    >>> env.metadata["name"]
    'battle_sheep_v1'
"""

from boardenvs.modules import game_module

raw_env, env, parallel_env = game_module("battle_sheep", __name__)
