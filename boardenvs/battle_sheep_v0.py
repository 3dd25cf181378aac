"""Battle Sheep (seed 003; the course's square-grid variant) as PettingZoo environments:
``env()``, ``raw_env`` and ``parallel_env()``.

Example:
    >>> from boardenvs import battle_sheep_v0
    >>> env = battle_sheep_v0.env(preset="basic")
    >>> env.reset(seed=0)
    >>> env.possible_agents[0]
    'player_0'
"""

from boardenvs.modules import game_module

raw_env, env, parallel_env = game_module("battle_sheep", __name__)
