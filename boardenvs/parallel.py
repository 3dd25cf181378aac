"""PettingZoo Parallel adapter: every registered game as a ``ParallelEnv`` (``<game>_v<version>.parallel_env()``).

Each ``step(actions)`` is one decision point of the game. In an alternating game the agent to move acts alone
(the other agents see an all-zero mask and may send any action or none; it is ignored). In a secret simultaneous
phase (Gravwell's card commit, ``Game.simultaneous_players``) every committing agent acts in the same step: each
chose from the observation at the start of the step, so none saw another's card, as at the table.

Observations, spaces and ``state()`` are those of the AEC env (``boardenvs.aec``): ``{"observation",
"action_mask"}`` per agent, an all-zero mask for agents that do not act now. Rewards are the game's returns in
the step that ends it, when every agent terminates (or truncates at the move cap) and ``agents`` empties.

Example:
    >>> from boardenvs import gravwell_v1
    >>> env = gravwell_v1.parallel_env(num_players=2)
    >>> observations, infos = env.reset(seed=0)
    >>> sorted(observations)
    ['player_0', 'player_1']
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.utils import EzPickle, seeding
from pettingzoo import ParallelEnv

from boardenvs.conventions import (
    agent_name,
    check_illegal_action,
    check_reset_options,
    illegal_action_message,
    illegal_reason,
    random_legal_action,
)
from boardenvs.core import Game, as_action, check_finite
from boardenvs.observations import (
    ObsDict,
    check_observation_format,
    check_observation_layout,
    encode_observation,
    in_layout,
    masked_observation_space,
    state_space,
)
from boardenvs.registry import make_game
from boardenvs.rendering import RENDER_FPS, HumanWindow, available_render_modes, check_render_mode, render_state

ILLEGAL_REWARD: float = -1.0
"""What the penalising Parallel env (and the wrapped AEC env) give an illegal action: PettingZoo classic's -1."""


def checked_illegal_reward(illegal_reward: Any, illegal_action: str) -> float | None:
    """``illegal_reward`` as a float (or ``None``: illegal actions raise) after checking it and ``illegal_action``:
    ``ValueError`` naming the parameter for a mode that does not exist, a reward that is not a finite number, or
    ``"replace"`` without a reward."""
    check_illegal_action(illegal_action)
    if illegal_reward is not None:
        try:
            illegal_reward = check_finite("illegal_reward", illegal_reward)
        except ValueError:
            raise ValueError(f"illegal_reward must be a number or None (finite), got {illegal_reward!r}") from None
    if illegal_action == "replace" and illegal_reward is None:
        raise ValueError("illegal_action='replace' needs a finite illegal_reward (the penalty, 0 allowed)")
    return illegal_reward


class BoardGameParallel(ParallelEnv[str, ObsDict, int], EzPickle):
    """A registered game as a PettingZoo ``ParallelEnv`` (see the module docstring).

    Args:
        game_name: A name from ``boardenvs.list_games()``.
        render_mode: ``None``, ``"ansi"``, ``"rgb_array"`` or ``"human"``.
        observation_format: ``"array"`` or ``"dict"``.
        observation_layout: ``"channels_first"`` or ``"channels_last"`` (board games only).
        illegal_reward: ``None``: an illegal action raises ``ValueError`` (the raw env). A finite number: the game
            ends at once, the offending agent gets it and the others 0 (PettingZoo classic's ``TerminateIllegal``).
            An action that is not an int raises ``TypeError`` either way (:func:`boardenvs.core.as_action`).
        illegal_action: ``"end"`` (as above) or ``"replace"``: an illegal action is replaced by a uniformly random
            legal action from ``np_random``, the game goes on, the offender's reward gets ``illegal_reward`` added
            and its info ``"illegal_action": True`` (needs a finite ``illegal_reward``: the penalty, 0 allowed).
        preset: A named config preset of the game.
        **config: Fields of the game's config.
    """

    metadata: dict[str, Any] = {"name": "", "render_modes": available_render_modes(), "render_fps": RENDER_FPS}

    def __init__(
        self,
        game_name: str,
        *,
        render_mode: str | None = None,
        observation_format: str = "array",
        observation_layout: str = "channels_first",
        illegal_reward: float | None = None,
        illegal_action: str = "end",
        preset: str | None = None,
        **config: Any,
    ) -> None:
        check_render_mode(render_mode)
        check_observation_format(observation_format)
        illegal_reward = checked_illegal_reward(illegal_reward, illegal_action)
        EzPickle.__init__(
            self,
            game_name,
            render_mode=render_mode,
            observation_format=observation_format,
            observation_layout=observation_layout,
            illegal_reward=illegal_reward,
            illegal_action=illegal_action,
            preset=preset,
            **config,
        )
        self.game: Game = make_game(game_name, preset=preset, **config)
        spec = self.game.spec
        check_observation_layout(spec, observation_layout)
        self.render_mode = render_mode
        self.observation_format = observation_format
        self.observation_layout = observation_layout
        self.illegal_reward = illegal_reward
        self.illegal_action = illegal_action
        self.metadata = {**type(self).metadata, "name": f"{spec.name}_v{spec.version}"}
        self.possible_agents = [agent_name(p) for p in range(spec.num_players)]
        self.agents: list[str] = []
        self.observation_spaces = {
            agent: masked_observation_space(spec, observation_format, observation_layout)
            for agent in self.possible_agents
        }
        self.action_spaces = {agent: spaces.Discrete(spec.num_actions) for agent in self.possible_agents}
        self.state_space = state_space(spec, observation_layout)
        self.game_state: Any = None
        self.np_random, self.np_random_seed = seeding.np_random()
        self._window: HumanWindow | None = None

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    # -- reset / step ---------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[dict, dict]:
        """Start a new game; ``seed`` reseeds ``np_random``. Returns every agent's observation and empty infos.

        No options are defined: ``options`` must be ``None`` or a dict (``TypeError`` otherwise); keys in it are
        ignored with a warning (see :func:`boardenvs.aec.check_reset_options`).
        """
        check_reset_options(options)
        if seed is not None:
            self.np_random, self.np_random_seed = seeding.np_random(seed)
        self.game_state = self.game.initial_state(self.np_random)
        self.agents = self.possible_agents[:]
        if self.render_mode == "human":
            self.render()
        return self._observations(self.agents), {agent: {} for agent in self.agents}

    def acting_agents(self) -> list[str]:
        """The agents whose actions the next ``step`` needs (the player to move, or every secret committer)."""
        if not self.agents:
            return []
        return [agent_name(p) for p in self.game.simultaneous_players(self.game_state)]

    def step(self, actions: dict[str, Any]) -> tuple[dict, dict, dict, dict, dict]:
        """Apply the actions of :meth:`acting_agents` (in seat order); the other live agents' entries are ignored.

        Raises:
            RuntimeError: the game is over (or never started): call ``reset``.
            TypeError: an acting agent's action is not an int (:func:`boardenvs.core.as_action`).
            ValueError: an acting agent's action is missing, an entry names an agent that is not playing, or an
                action is illegal (with ``illegal_reward=None``).
        """
        if not self.agents:
            raise RuntimeError("the game is over (or never started): call reset()")
        acting = self._check_actions(actions)
        chosen = {agent: _as_action(actions[agent], agent) for agent in acting}
        live, state, offenders = self.agents[:], self.game_state, []
        for agent in acting:
            action = chosen[agent]
            player = self.possible_agents.index(agent)
            mask = self.game.legal_action_mask_of(self.game_state, player)
            if not (0 <= action < mask.shape[0] and mask[action]):
                reason = illegal_reason(self.game, state, action) if state.current_player == player else ""
                if self.illegal_action == "end":
                    return self._illegal(agent, action, reason, live)
                action = random_legal_action(mask, self.np_random)
                offenders.append((agent, reason))
            state = self.game.apply(state, action)
        self.game_state = state
        observations, rewards, terminations, truncations, infos = self._outcome(live)
        for agent, reason in offenders:  # illegal_action="replace": penalised and flagged, the game went on
            rewards[agent] += float(self.illegal_reward)
            infos[agent].update(illegal_action=True, illegal_reason=reason)
        return observations, rewards, terminations, truncations, infos

    def _check_actions(self, actions: dict[str, Any]) -> list[str]:
        if not isinstance(actions, dict):
            raise ValueError(f"actions must be a dict of agent -> action, got {type(actions).__name__}")
        extra = sorted(set(actions) - set(self.agents))
        if extra:
            raise ValueError(f"actions for agents that are not playing: {extra}; agents are {self.agents}")
        acting = self.acting_agents()
        missing = [agent for agent in acting if actions.get(agent) is None]
        if missing:
            raise ValueError(f"no action for {missing}: agents {acting} act in this step")
        return acting

    def _outcome(self, live: list[str]) -> tuple[dict, dict, dict, dict, dict]:
        state = self.game_state
        finished = self.game.is_terminal(state)
        returns = self.game.returns(state) if finished else np.zeros(len(self.possible_agents))
        truncated = finished and self.game.is_truncated(state)
        rewards = {agent: float(returns[self.possible_agents.index(agent)]) for agent in live}
        observations = self._observations(live)
        if finished:
            self.agents = []
        if self.render_mode == "human":
            self.render()
        terminations = dict.fromkeys(live, finished and not truncated)
        truncations = dict.fromkeys(live, truncated)
        return observations, rewards, terminations, truncations, {agent: {} for agent in live}

    def _illegal(self, offender: str, action: int, reason: str, live: list[str]) -> tuple[dict, dict, dict, dict, dict]:
        if self.illegal_reward is None:
            raise ValueError(illegal_action_message(action, offender, self.metadata["name"], reason))
        rewards = {agent: float(self.illegal_reward) if agent == offender else 0.0 for agent in live}
        observations = self._observations(live)
        self.agents = []
        done = dict.fromkeys(live, True)
        infos: dict[str, dict[str, Any]] = {agent: {"illegal_action": agent == offender} for agent in live}
        infos[offender]["illegal_reason"] = reason
        return observations, rewards, done, dict(done), infos

    # -- observations and state -----------------------------------------------------------------
    def _observations(self, agents: list[str]) -> dict[str, ObsDict]:
        acting = set(self.acting_agents())
        observations = {}
        for agent in agents:
            player = self.possible_agents.index(agent)
            mask = self.game.legal_action_mask_of(self.game_state, player) if agent in acting else None
            observations[agent] = encode_observation(
                self.game, self.game_state, player, self.observation_format, mask, self.observation_layout
            )
        return observations

    def observe(self, agent: str) -> ObsDict:
        """What ``agent`` sees now (its mask is all zeros unless it acts in the next step)."""
        if agent not in self.possible_agents:
            raise ValueError(f"unknown agent {agent!r}; agents are {self.possible_agents}")
        return self._observations([agent])[agent]

    def state(self) -> np.ndarray:
        """The global state (``state_space``), hidden information included: for centralized training only."""
        if self.game_state is None:
            raise RuntimeError("call reset() before state()")
        return in_layout(self.game.global_state(self.game_state), self.observation_layout)

    # -- rendering ------------------------------------------------------------------------------
    def render(self) -> str | np.ndarray | None:
        """As the AEC env's ``render`` without ``render_seat``: a spectator's view, every hidden card shown."""
        if self.render_mode is None:
            gymnasium.logger.warn("You are calling render method without specifying any render mode.")
            return None
        if self.game_state is None:
            raise RuntimeError("call reset() before render()")
        if self.render_mode == "human" and self._window is None:
            self._window = HumanWindow(self.metadata["name"], self.metadata["render_fps"])
        return render_state(self.game, self.game_state, self.render_mode, self._window)

    def close(self) -> None:
        if self._window is not None:
            self._window.close()
            self._window = None


def _as_action(action: Any, agent: str) -> int:
    """:func:`boardenvs.core.as_action`, its ``TypeError`` naming ``agent``."""
    try:
        return as_action(action)
    except TypeError as error:
        raise TypeError(f"{agent}: {error}") from None


def parallel_env(game_name: str, **kwargs: Any) -> BoardGameParallel:
    """The Parallel env of ``game_name`` with illegal actions penalised (``illegal_reward=-1`` unless given): the
    entry point of ``pettingzoo.make("parallel", "boardenvs/<name>-v<n>")`` and of ``<game>_v<n>.parallel_env``."""
    kwargs.setdefault("illegal_reward", ILLEGAL_REWARD)
    return BoardGameParallel(game_name, **kwargs)
