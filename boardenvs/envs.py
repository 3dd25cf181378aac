"""Registration of every game with ``pettingzoo.make`` and ``gymnasium.make``.

After ``import boardenvs``, each registered game ``<name>`` (gym name ``<GymName>``, version ``<v>``) has

- ``pettingzoo.make("aec", "boardenvs/<name>-v<v>", **kwargs)``: the wrapped AEC env (``boardenvs.aec.env``);
- ``gymnasium.make("boardenvs/<GymName>-v<v>", opponent=..., **config)``: the single-agent env
  (``boardenvs.single_agent.SingleAgentEnv``).

Entry points are strings, so registering imports neither the adapters' dependencies nor torch or pygame.
A game registered later (for example in tests) is added with :func:`register_envs`.
"""

from __future__ import annotations

import importlib.util

import gymnasium
import pettingzoo

from boardenvs.registry import game_entry, list_games

NAMESPACE = "boardenvs"
AEC_ENTRY_POINT = "boardenvs.aec:env"
GYM_ENTRY_POINT = "boardenvs.single_agent:SingleAgentEnv"


def aec_env_id(game_name: str) -> str:
    """The ``pettingzoo.make("aec", ...)`` id of ``game_name``: ``"boardenvs/<name>-v<version>"``."""
    entry = game_entry(game_name)
    return f"{NAMESPACE}/{entry.name}-v{entry.game_class.version}"


def gym_env_id(game_name: str) -> str:
    """The ``gymnasium.make`` id of ``game_name``: ``"boardenvs/<GymName>-v<version>"``."""
    entry = game_entry(game_name)
    return f"{NAMESPACE}/{entry.gym_name}-v{entry.game_class.version}"


def register_envs(game_name: str) -> None:
    """Register the AEC and single-agent envs of one registered game; registering again does nothing."""
    aec_id, gym_id = aec_env_id(game_name), gym_env_id(game_name)
    if aec_id not in pettingzoo.aec_registry:
        pettingzoo.register("aec", aec_id, entry_point=AEC_ENTRY_POINT, kwargs={"game_name": game_name})
    if gym_id not in gymnasium.registry:
        gymnasium.register(gym_id, entry_point=GYM_ENTRY_POINT, kwargs={"game_name": game_name})


def register_all_envs() -> None:
    """Import ``boardenvs.games`` (so the games register themselves), then register envs for every game."""
    if importlib.util.find_spec("boardenvs.games") is not None:
        importlib.import_module("boardenvs.games")
    for name in list_games():
        register_envs(name)
