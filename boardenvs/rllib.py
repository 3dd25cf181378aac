"""RLlib adapter: every game as an RLlib ``MultiAgentEnv``, registered under its name.

RLlib's example masking module (``ActionMaskingTorchRLModule``) reads observations ``{"observations": ...,
"action_mask": float32}`` and RLlib's default CNN reads planes channels-last ``(H, W, C)``, so the adapter

- builds the game's AEC env with ``observation_layout="channels_last"`` for board games (vector games stay as they
  are), renames ``"observation"`` to ``"observations"`` and casts the mask to float32
  (:class:`RLlibObservations`, a plain PettingZoo wrapper);
- hands that env to ``ray.rllib.env.wrappers.pettingzoo_env.PettingZooEnv`` (:func:`make_rllib_env`);
- registers one RLlib env per game, ``boardenvs_<game>`` (:func:`register_rllib_envs`).

A learner's choices (networks, PPO hyper-parameters) are not the env's: the ready masked self-play PPO config is in
the baselines, next to the RLlib trainer.

Ray is optional: this module imports without it, and each function that needs it raises ``ImportError`` naming
the extra to install, ``pip install "boardenvs[pipelines]"``.

Example:
    >>> from boardenvs.rllib import make_rllib_env
    >>> env = make_rllib_env("quoridor", board_size=5)  # doctest: +SKIP
    >>> observations, infos = env.reset(seed=0)  # doctest: +SKIP
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import BaseWrapper

from boardenvs.aec import BoardGameAEC, wrap_env
from boardenvs.core import Game
from boardenvs.observations import encode_observation
from boardenvs.registry import list_games, make_game

EXTRA = "pipelines"
"""The optional-dependency extra that installs ray[rllib]."""
OBSERVATIONS_KEY = "observations"
"""The observation key of RLlib's ``ActionMaskingTorchRLModule`` (PettingZoo's is ``"observation"``)."""
ENV_PREFIX = "boardenvs_"
"""RLlib env names are ``boardenvs_<game>``."""


# -- ray as an optional import -------------------------------------------------------------------
def require_ray() -> None:
    """Raise ``ImportError`` naming the extra to install unless ``ray[rllib]`` imports."""
    try:
        import ray.rllib  # noqa: F401
    except ImportError as error:
        raise ImportError(
            f'boardenvs.rllib needs ray[rllib]; install it with: pip install "boardenvs[{EXTRA}]"'
        ) from error


# -- observations ---------------------------------------------------------------------------------
def rllib_layout(game_name: str, preset: str | None = None, **config: Any) -> str:
    """The observation layout RLlib gets for a game: ``"channels_last"`` for board planes, else ``"channels_first"``
    (a vector has no channel axis to move)."""
    return layout_for(make_game(game_name, preset=preset, **config))


def layout_for(game: Game) -> str:
    """:func:`rllib_layout` of a game object."""
    return "channels_last" if len(game.spec.observation_shape) == 3 else "channels_first"


def check_rllib_options(game_name: str, observation_format: str, observation_layout: str, layout: str) -> None:
    """Raise ``ValueError`` naming the option unless RLlib's models can read observations made with it.

    Args:
        game_name: The game, for the message.
        observation_format: Must be ``"array"`` (RLlib's default encoders read one Box, not a Dict of fields).
        observation_layout: What the caller asked for; must equal ``layout`` (channels-last planes for RLlib's CNN).
        layout: The layout RLlib needs for this game (:func:`rllib_layout`).
    """
    if observation_format != "array":
        raise ValueError(
            f"observation_format={observation_format!r} is not supported by boardenvs.rllib: RLlib's encoders read "
            "one array; use observation_format='array'"
        )
    if observation_layout != layout:
        why = (
            "RLlib's CNN reads board planes channels-last (H, W, C)"
            if layout == "channels_last"
            else "its observation is a vector, with no channel axis to move"
        )
        raise ValueError(
            f"observation_layout={observation_layout!r} is not supported by boardenvs.rllib for {game_name}: "
            f"{why}; use observation_layout={layout!r}"
        )


class RLlibObservations(BaseWrapper):
    """A PettingZoo AEC wrapper giving ``{"observations": float32, "action_mask": float32}`` observations.

    The keys are those of RLlib's ``ActionMaskingTorchRLModule``; the mask is float32 because that module takes its
    logarithm. Everything else (turns, rewards, illegal-move handling) is the wrapped env's.
    """

    def __init__(self, env: AECEnv) -> None:
        super().__init__(env)
        self._spaces = {agent: self._rllib_space(env.observation_space(agent)) for agent in env.possible_agents}

    @staticmethod
    def _rllib_space(space: spaces.Space) -> spaces.Dict:
        mask = space["action_mask"]
        return spaces.Dict(
            {
                OBSERVATIONS_KEY: space["observation"],
                "action_mask": spaces.Box(0.0, 1.0, mask.shape, dtype=np.float32),
            }
        )

    def observation_space(self, agent: str) -> spaces.Dict:
        """The (cached) ``Dict(observations=Box(float32), action_mask=Box(0, 1, float32))`` of ``agent``."""
        return self._spaces[agent]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """The wrapped env's observation of ``agent`` with RLlib's keys and a float32 mask."""
        return with_rllib_keys(self.env.observe(agent))


def with_rllib_keys(observation: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """A PettingZoo observation ``{"observation", "action_mask"}`` with RLlib's keys and a float32 mask."""
    return {
        OBSERVATIONS_KEY: observation["observation"],
        "action_mask": observation["action_mask"].astype(np.float32),
    }


def encode_rllib_observation(game: Game, state: Any, player: int, mask: np.ndarray | None) -> dict[str, np.ndarray]:
    """What the RLlib env shows ``player`` in ``state`` (``mask``: the legal actions, ``None``: all zeros), for
    playing a trained RLlib module outside the env, e.g. in the arena."""
    return with_rllib_keys(encode_observation(game, state, player, "array", mask, layout_for(game)))


def make_aec_for_rllib(game_name: str, *, raw: bool = False, **kwargs: Any) -> RLlibObservations:
    """The game's AEC env as RLlib reads it (no ray needed): :class:`RLlibObservations` over the game's env.

    Args:
        game_name: A name from ``boardenvs.list_games()``.
        raw: ``True`` uses the raw env, where an illegal action raises ``ValueError`` (for tests); ``False`` (the
            default) the wrapped env, where an illegal action ends the game with -1 for the offender.
        **kwargs: ``observation_format``/``observation_layout`` (only the values RLlib can read, see
            :func:`check_rllib_options`), ``preset``, ``render_mode`` and game config fields.
    """
    layout = rllib_layout(game_name, kwargs.get("preset"), **_config_fields(kwargs))
    observation_format = kwargs.pop("observation_format", "array")
    observation_layout = kwargs.pop("observation_layout", layout)
    check_rllib_options(game_name, observation_format, observation_layout, layout)
    aec = BoardGameAEC(game_name, observation_format=observation_format, observation_layout=layout, **kwargs)
    return RLlibObservations(aec if raw else wrap_env(aec))


def _config_fields(kwargs: dict[str, Any]) -> dict[str, Any]:
    """The game config fields among env kwargs (everything but the env's own options)."""
    env_options = {"preset", "render_mode", "observation_format", "observation_layout", "events"}
    return {key: value for key, value in kwargs.items() if key not in env_options}


# -- RLlib ----------------------------------------------------------------------------------------
def make_rllib_env(game_name: str, *, raw: bool = False, **kwargs: Any) -> Any:
    """The game as an RLlib ``MultiAgentEnv`` (``PettingZooEnv`` over :func:`make_aec_for_rllib`).

    Agents are ``player_0 .. player_{n-1}``; only the agent to move gets an observation, rewards are PettingZoo's
    ``last()`` rewards (zero-sum at the end of the game). Arguments as for :func:`make_aec_for_rllib`.

    ``step`` checks its action dict first: one naming another agent than the one to move, or missing it, is a
    ``ValueError`` naming the agent expected (:func:`check_action_dict`); a ``step`` after the game ended is a
    ``RuntimeError`` saying to call ``reset()``.

    Raises:
        ImportError: ray[rllib] is not installed (the message names the extra).
        ValueError: an observation format or layout RLlib cannot read.
    """
    require_ray()
    aec = make_aec_for_rllib(game_name, raw=raw, **kwargs)
    env = _checked_env_class()(aec)
    env.possible_agents = list(aec.possible_agents)  # PettingZooEnv lists them from a set: keep the seat order
    env.agents = list(aec.possible_agents)
    return env


def check_action_dict(action_dict: Any, acting: list[str]) -> None:
    """Raise ``ValueError`` unless ``action_dict`` maps exactly the ``acting`` agents to actions (RLlib sends one
    action per agent that got an observation; any other key is a caller's mistake, named here rather than ending
    in a ``KeyError`` inside ray).

    Args:
        action_dict: What ``step`` was given.
        acting: The agents expected to act (the one to move).
    """
    if not isinstance(action_dict, Mapping):
        raise ValueError(f"step takes a dict of agent -> action for {acting}, got {type(action_dict).__name__}")
    given = list(action_dict)
    if set(given) != set(acting):
        missing = [agent for agent in acting if agent not in action_dict]
        extra = [agent for agent in given if agent not in acting]
        parts = ([f"misses {missing}"] if missing else []) + ([f"names {extra}, who are not to act"] if extra else [])
        raise ValueError(f"step's action dict must name exactly the agents to act, {acting}; it {' and '.join(parts)}")


@cache
def _checked_env_class() -> type:
    """RLlib's ``PettingZooEnv`` with a ``step`` that checks the action dict first (:func:`check_action_dict`);
    built once, on first use, since ray is optional."""
    from ray.rllib.env.wrappers.pettingzoo_env import PettingZooEnv

    class BoardGameRLlibEnv(PettingZooEnv):
        """``PettingZooEnv`` whose ``step`` names the agents it expected when given the wrong ones."""

        def step(self, action_dict: Any) -> Any:
            if not self.env.agents:
                raise RuntimeError("step called after the game ended: call reset() first")
            check_action_dict(action_dict, [self.env.agent_selection])
            return super().step(action_dict)

    return BoardGameRLlibEnv


def rllib_env_name(game_name: str) -> str:
    """The RLlib (tune) env name of a game: ``boardenvs_<game>``."""
    return f"{ENV_PREFIX}{game_name}"


def _env_creator(game_name: str) -> Any:
    def create(env_config: dict[str, Any]) -> Any:
        return make_rllib_env(game_name, **dict(env_config))

    create.__name__ = f"create_{rllib_env_name(game_name)}"
    return create


def register_rllib_envs() -> list[str]:
    """Register every game with ``ray.tune.register_env`` as ``boardenvs_<game>`` (``env_config`` holds the env
    kwargs, e.g. ``{"board_size": 5}``); returns the names."""
    require_ray()
    from ray.tune.registry import register_env

    names = []
    for game_name in list_games():
        register_env(rllib_env_name(game_name), _env_creator(game_name))
        names.append(rllib_env_name(game_name))
    return names
