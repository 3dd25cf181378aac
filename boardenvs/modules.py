"""The PettingZoo-style modules of the games, ``boardenvs.<game>_v<version>``: ``raw_env``, ``env()``,
``parallel_env()``.

Each game's current module, ``boardenvs/<game>_v<version>.py`` with the version of its ``Game`` class (as
PettingZoo names ``pettingzoo.classic.chess_v6``), is two lines that call :func:`game_module`, so every game's
module offers the same three entry points. A module named after an older version is two lines that call
:func:`deprecated_module`: importing it warns and gives the current module's very objects. The versions and what
changed in each are in ``docs/versions.md``.
"""

from __future__ import annotations

import importlib
import warnings
from collections.abc import Callable
from typing import Any

from pettingzoo import AECEnv

from boardenvs.aec import BoardGameAEC, wrap_env
from boardenvs.envs import module_name as current_module_name
from boardenvs.parallel import BoardGameParallel
from boardenvs.parallel import parallel_env as make_parallel_env
from boardenvs.registry import game_entry

EntryPoints = tuple[type[BoardGameAEC], Callable[..., AECEnv], Callable[..., BoardGameParallel]]
"""A module's ``(raw_env, env, parallel_env)``."""


def game_module(game_name: str, module_name: str) -> EntryPoints:
    """``(raw_env, env, parallel_env)`` of ``game_name`` for the module ``module_name`` (pass ``__name__``).

    - ``raw_env(**kwargs)``: the unwrapped AEC env (an illegal action raises); kwargs of :class:`BoardGameAEC`.
    - ``env(**kwargs)``: the wrapped AEC env (an illegal action ends the game with -1, calls in order).
    - ``parallel_env(**kwargs)``: the :class:`BoardGameParallel` env; an illegal action ends the game with -1
      unless ``illegal_reward=None`` is passed (then it raises).
    """
    version = game_entry(game_name).game_class.version
    name = f"{game_name}_v{version}"
    raw_env = type(
        "raw_env",
        (BoardGameAEC,),
        {
            "__module__": module_name,
            "__qualname__": "raw_env",
            "__doc__": f"The unwrapped {game_name} AEC env; takes the keyword arguments of BoardGameAEC.",
            "metadata": {**BoardGameAEC.metadata, "name": name},
            "default_game": game_name,
        },
    )

    def env(**kwargs: Any) -> AECEnv:
        return wrap_env(raw_env(**kwargs))

    def parallel_env(**kwargs: Any) -> BoardGameParallel:
        return make_parallel_env(game_name, **kwargs)

    env.__doc__ = f"The wrapped {game_name} AEC env (illegal moves penalised, calls in order)."
    parallel_env.__doc__ = f"The {game_name} Parallel env (illegal moves penalised unless illegal_reward=None)."
    for function in (env, parallel_env):
        function.__module__ = module_name
        function.__qualname__ = function.__name__
    return raw_env, env, parallel_env


def deprecated_module(module_name: str, game_name: str) -> EntryPoints:
    """``(raw_env, env, parallel_env)`` of ``game_name``'s current module, for the old module ``module_name``.

    Pass ``__name__``: the old module (a name ``game_name`` had before its version changed) warns once, when it is
    imported, with a :class:`DeprecationWarning` that names the current module and points at the importing line,
    and then offers the current module's very objects (``old.env is new.env``).
    """
    current = current_module_name(game_name)
    if module_name == current:
        raise ImportError(
            f"{module_name} is the current module of {game_name!r}: call game_module, not deprecated_module"
        )
    # stacklevel 3: this function, the old module's body, then its importer (warnings skips importlib's frames)
    warnings.warn(
        f"{module_name} is deprecated: the current version is {current} (see docs/versions.md)",
        DeprecationWarning,
        stacklevel=3,
    )
    module = importlib.import_module(current)
    return module.raw_env, module.env, module.parallel_env
