"""Potential-based reward shaping from the game's heuristic value, for learners of the single-agent env.

The single-agent env pays the learner its return when the game ends and 0 before. On a long game whose outcome is
noisy (Gravwell's secret bids, node conquest's 200-ply races) that lone signal teaches little per game.
:class:`PotentialShaping` adds ``weight * (gamma * phi(s') - phi(s))`` to every step's reward, where ``phi`` is the
learner's entry of the game's heuristic value (:func:`baselines.search.evaluators.heuristic_value`: ship leads,
node shares, points...) and ``phi`` is 0 once the episode is over. Shaping of this form changes no optimal policy
(Ng, Harada and Russell, 1999): over an episode it adds ``-weight * phi(s0)`` plus discounting terms, so the
learner is still paid for winning, only sooner.

The heuristics read the public parts of a state alone (positions, points, counts), so the shaped reward tells the
learner nothing its observation hides. Evaluation games are scored by their outcomes, never by this reward.

Example:
    >>> from boardenvs.single_agent import SingleAgentEnv
    >>> env = PotentialShaping(SingleAgentEnv("node_conquest"), weight=1.0, gamma=0.99)
    >>> obs, info = env.reset(seed=0)
    >>> before, action = info["potential"], int(info["action_mask"].nonzero()[0][0])
    >>> obs, reward, terminated, truncated, info = env.step(action)
    >>> bool(abs(reward - (info["unshaped_reward"] + 0.99 * info["potential"] - before)) < 1e-9)
    True
"""

from __future__ import annotations

import math
from typing import Any

import gymnasium

from baselines.games import games_with_values
from baselines.search.evaluators import has_heuristic, heuristic_value
from boardenvs.single_agent import SingleAgentEnv


class PotentialShaping(gymnasium.Wrapper):
    """Adds ``weight * (gamma * phi(s') - phi(s))`` to the reward of a :class:`SingleAgentEnv` (see the module).

    ``info["potential"]`` is ``phi`` of the position the learner now sees and ``info["unshaped_reward"]`` the env's
    own reward.

    Args:
        env: A ``SingleAgentEnv``, possibly wrapped (``env.unwrapped`` must be one).
        weight: Scale of the potential (> 0, finite); the heuristic lies in [-1, 1].
        gamma: The learner's discount factor, in (0, 1].

    Raises:
        TypeError: ``env.unwrapped`` is not a ``SingleAgentEnv``.
        ValueError: a bad ``weight`` or ``gamma``, or a game without a heuristic value (named with those that have
            one).
    """

    def __init__(self, env: gymnasium.Env, weight: float = 1.0, gamma: float = 0.99) -> None:
        super().__init__(env)
        base = env.unwrapped
        if not isinstance(base, SingleAgentEnv):
            raise TypeError(f"env must wrap a SingleAgentEnv, got {type(base).__name__}")
        if not (isinstance(weight, int | float) and math.isfinite(weight) and weight > 0):
            raise ValueError(f"weight must be a finite number > 0, got {weight!r}")
        if not (isinstance(gamma, int | float) and 0 < gamma <= 1):
            raise ValueError(f"gamma must be a number in (0, 1], got {gamma!r}")
        if not has_heuristic(base.game):
            known = games_with_values()
            raise ValueError(
                f"game {base.game.spec.name!r} has no heuristic value to shape with; games with one: {known}"
            )
        self.base, self.weight, self.gamma = base, float(weight), float(gamma)
        self.potential = 0.0

    def _phi(self) -> float:
        """The learner's heuristic value now, scaled (called only while the episode runs: ``step`` sets 0 at its
        end, and ``reset`` stops at the learner's first move)."""
        base = self.base
        return self.weight * float(heuristic_value(base.game, base.game_state)[base.learner_seat])

    def reset(self, **kwargs: Any) -> tuple[Any, dict]:
        """Reset the env; ``info["potential"]`` is the first position's potential."""
        observation, info = self.env.reset(**kwargs)
        self.potential = self._phi()
        return observation, {**info, "potential": self.potential}

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict]:
        """Step the env and add the shaping term to its reward."""
        observation, reward, terminated, truncated, info = self.env.step(action)
        after = 0.0 if terminated or truncated else self._phi()
        shaped = float(reward) + self.gamma * after - self.potential
        self.potential = after
        return observation, shaped, terminated, truncated, {**info, "potential": after, "unshaped_reward": reward}
