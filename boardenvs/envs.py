"""Registration of every game with ``gymnasium.make`` and ``pettingzoo.make``.

After ``import boardenvs``, each registered game ``<name>`` (gym name ``<GymName>``, version ``<v>``) has

- ``gymnasium.make("boardenvs/<GymName>-v<v>", opponent=..., **config)``: the single-agent env
  (``boardenvs.single_agent.SingleAgentEnv``);
- ``pettingzoo.make("aec", "boardenvs/<name>-v<v>", **kwargs)``: the wrapped AEC env (``boardenvs.aec.env``);
- ``pettingzoo.make("parallel", "boardenvs/<name>-v<v>", **kwargs)``: the Parallel env
  (``boardenvs.parallel.parallel_env``);
- ``from boardenvs import <name>_v<v>``: the PettingZoo-style module (:func:`module_name`, ``boardenvs/modules.py``).

Only the current version of a game is registered: Gymnasium answers an older id with ``DeprecatedEnv`` naming the
current one, PettingZoo with ``VersionNotFound`` naming the available version (``docs/versions.md``).

Registration is lazy: ``boardenvs/__init__.py`` asks for :func:`register_gymnasium_envs` and
:func:`register_pettingzoo_envs` to run when (or if) Gymnasium and PettingZoo are imported, so the rules import
with numpy alone. Entry points are strings, so registering imports none of the adapters' dependencies. A game
registered later (for example in tests) is added with :func:`register_envs`.
"""

from __future__ import annotations

import sys

from boardenvs.registry import game_entry, list_games

NAMESPACE = "boardenvs"
AEC_ENTRY_POINT = "boardenvs.aec:env"
PARALLEL_ENTRY_POINT = "boardenvs.parallel:parallel_env"
GYM_ENTRY_POINT = "boardenvs.single_agent:SingleAgentEnv"


def aec_env_id(game_name: str) -> str:
    """The ``pettingzoo.make("aec", ...)`` id of ``game_name``: ``"boardenvs/<name>-v<version>"``."""
    entry = game_entry(game_name)
    return f"{NAMESPACE}/{entry.name}-v{entry.game_class.version}"


def gym_env_id(game_name: str) -> str:
    """The ``gymnasium.make`` id of ``game_name``: ``"boardenvs/<GymName>-v<version>"``."""
    entry = game_entry(game_name)
    return f"{NAMESPACE}/{entry.gym_name}-v{entry.game_class.version}"


def module_name(game_name: str) -> str:
    """The PettingZoo-style module of ``game_name``: ``"boardenvs.<name>_v<version>"`` (its envs' ``metadata["name"]``
    is the part after ``boardenvs.``); older names are deprecated aliases of it (``docs/versions.md``)."""
    entry = game_entry(game_name)
    return f"{NAMESPACE}.{entry.name}_v{entry.game_class.version}"


def register_envs(game_name: str) -> None:
    """Register the envs of one registered game with whichever of Gymnasium and PettingZoo is imported."""
    if "gymnasium" in sys.modules:
        _register_gymnasium(game_name)
    if "pettingzoo" in sys.modules:
        _register_pettingzoo(game_name)


def register_gymnasium_envs() -> None:
    """Register the single-agent env of every registered game with Gymnasium (again: no change)."""
    for name in list_games():
        _register_gymnasium(name)


def register_pettingzoo_envs() -> None:
    """Register the AEC and Parallel envs of every registered game with PettingZoo (again: no change)."""
    for name in list_games():
        _register_pettingzoo(name)


def _register_gymnasium(game_name: str) -> None:
    import gymnasium

    gym_id = gym_env_id(game_name)
    if gym_id not in gymnasium.registry:
        gymnasium.register(gym_id, entry_point=GYM_ENTRY_POINT, kwargs={"game_name": game_name})


def _register_pettingzoo(game_name: str) -> None:
    import pettingzoo

    env_id = aec_env_id(game_name)
    if env_id not in pettingzoo.aec_registry:
        pettingzoo.register("aec", env_id, entry_point=AEC_ENTRY_POINT, kwargs={"game_name": game_name})
    if env_id not in pettingzoo.parallel_registry:
        pettingzoo.register("parallel", env_id, entry_point=PARALLEL_ENTRY_POINT, kwargs={"game_name": game_name})
