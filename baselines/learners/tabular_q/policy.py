"""How a Q learner picks among the legal actions from a row of values: greedy, Boltzmann, or ε-greedy."""

from __future__ import annotations

import numpy as np

from baselines.learners.tabular_q.settings import TabularQSettings


def greedy_action(values: np.ndarray, legal: np.ndarray, rng: np.random.Generator) -> int:
    """A legal action of largest value (ties broken uniformly with ``rng``)."""
    legal_values = values[legal]
    best = legal[legal_values == legal_values.max()]
    return int(best[0] if len(best) == 1 else best[rng.integers(len(best))])


def boltzmann_action(values: np.ndarray, legal: np.ndarray, temperature: float, rng: np.random.Generator) -> int:
    """A legal action drawn with probability proportional to ``exp(Q / T)``."""
    logits = values[legal] / temperature
    weights = np.exp(logits - logits.max())
    return int(legal[rng.choice(len(legal), p=weights / weights.sum())])


def exploring_action(
    values: np.ndarray, legal: np.ndarray, settings: TabularQSettings, epsilon: float, rng: np.random.Generator
) -> int:
    """The training policy's legal action: ε-greedy with ``epsilon``, or Boltzmann (``settings.exploration``)."""
    if settings.exploration == "boltzmann":
        return boltzmann_action(values, legal, settings.temperature, rng)
    if epsilon > 0.0 and rng.random() < epsilon:
        return int(legal[rng.integers(len(legal))])
    return greedy_action(values, legal, rng)
