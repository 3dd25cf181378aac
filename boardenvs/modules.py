"""The PettingZoo-style module of a game (``boardenvs.<game>_v<version>``): ``raw_env``, ``env()``, ``parallel_env()``.

Each ``boardenvs/<game>_v0.py`` is two lines that call :func:`game_module`, so every game's module offers the same
three entry points, like PettingZoo's own environment modules.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pettingzoo import AECEnv

from boardenvs.aec import BoardGameAEC, wrap_env
from boardenvs.parallel import BoardGameParallel
from boardenvs.parallel import parallel_env as make_parallel_env
from boardenvs.registry import game_entry


def game_module(
    game_name: str, module_name: str
) -> tuple[type[BoardGameAEC], Callable[..., AECEnv], Callable[..., BoardGameParallel]]:
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
