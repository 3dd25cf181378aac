"""The learning settings of generic tabular Q-learning (:class:`TabularQSettings`), checked field by field."""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from typing import Any

from baselines.params import choice_param, float_param
from baselines.schedules import LinearDecay
from baselines.settings import FRACTION, POSITIVE, Range, setting

EXPLORATIONS = ("epsilon", "boltzmann")
"""Exploration policies while training."""


@dataclass(frozen=True)
class TabularQSettings:
    """Learning settings; every field is validated and a bad one raises ``ValueError`` naming it. The fields are
    ``scripts/train_tabular_q.py``'s learning options (the ranges in their ``metadata`` bound the command line).

    Attributes:
        learning_rate: step size ``α`` in (0, 1].
        discount: ``γ`` in [0, 1] per decision of the seat (terminal returns are the only reward).
        exploration: ``"epsilon"`` (ε-greedy) or ``"boltzmann"`` (softmax of ``Q / T``), over legal actions.
        epsilon: ε in [0, 1] at the start of training.
        epsilon_final: ε at the end of training, reached linearly (``None``: ε stays constant).
        temperature: Boltzmann temperature ``T`` > 0.
        initial_value: the value of every action in a newly met state (optimism explores more).
    """

    learning_rate: float = setting(0.2, Range(0.0, 1.0, open_low=True))
    discount: float = setting(0.99, FRACTION)
    exploration: str = "epsilon"
    epsilon: float = setting(0.2, FRACTION)
    epsilon_final: float | None = setting(None, FRACTION)
    temperature: float = setting(0.1, POSITIVE)
    initial_value: float = setting(0.0, Range(-1e6, 1e6))

    def __post_init__(self) -> None:
        checked = {
            "learning_rate": float_param("learning_rate", self.learning_rate, 0.0, 1.0, positive=True),
            "discount": float_param("discount", self.discount, 0.0, 1.0),
            "exploration": choice_param("exploration", self.exploration, EXPLORATIONS),
            "epsilon": float_param("epsilon", self.epsilon, 0.0, 1.0),
            "epsilon_final": float_param("epsilon_final", self.epsilon_final, 0.0, 1.0, optional=True),
            "temperature": float_param("temperature", self.temperature, 0.0, positive=True),
            "initial_value": float_param("initial_value", self.initial_value, -math.inf),
        }
        for name, value in checked.items():
            object.__setattr__(self, name, value)

    @property
    def epsilon_schedule(self) -> LinearDecay:
        """ε over the training episodes: linear from ``epsilon`` to ``epsilon_final`` (constant without one)."""
        final = self.epsilon if self.epsilon_final is None else self.epsilon_final
        return LinearDecay(self.epsilon, final)


def as_settings(settings: TabularQSettings | dict[str, Any] | None) -> TabularQSettings:
    """``settings`` as :class:`TabularQSettings` (a dict gives its fields; ``None`` the defaults)."""
    if settings is None:
        return TabularQSettings()
    if isinstance(settings, TabularQSettings):
        return settings
    if isinstance(settings, dict):
        known = {f.name for f in dataclasses.fields(TabularQSettings)}
        unknown = sorted(set(settings) - known)
        if unknown:
            raise ValueError(f"settings: unknown field(s) {unknown}; allowed: {sorted(known)}")
        return TabularQSettings(**settings)
    raise TypeError(f"settings must be a TabularQSettings, a dict or None, got {type(settings).__name__}")
