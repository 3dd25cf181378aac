"""Statistics for match results: Wilson confidence intervals and Elo ratings fitted from pairwise games."""

from __future__ import annotations

import math

import numpy as np

Z_95 = 1.959964
"""The standard-normal quantile of a two-sided 95% interval."""

ELO_MEAN = 1500.0
"""The mean of every fitted rating list (ratings are only defined up to a shift)."""


def wilson_interval(successes: float, trials: int, z: float = Z_95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% for the default ``z``).

    Args:
        successes: number of successes; may be fractional (a draw counted as half a win).
        trials: number of trials; ``0`` gives the uninformative interval ``(0, 1)``.
        z: the standard-normal quantile of the wanted confidence level.

    Returns:
        ``(low, high)``, always containing ``successes / trials``.
    """
    if trials <= 0:
        return 0.0, 1.0
    rate = min(max(successes / trials, 0.0), 1.0)
    z2 = z * z
    denominator = 1.0 + z2 / trials
    centre = (rate + z2 / (2 * trials)) / denominator
    half_width = z / denominator * math.sqrt(rate * (1 - rate) / trials + z2 / (4 * trials * trials))
    return max(0.0, min(centre - half_width, rate)), min(1.0, max(centre + half_width, rate))


def fit_elo(scores: np.ndarray, counts: np.ndarray, prior_draws: float = 1.0, iterations: int = 2000) -> np.ndarray:
    """Elo ratings that best explain pairwise results (a Bradley-Terry model fitted by minorize-maximize).

    Args:
        scores: ``scores[i, j]`` is the points agent ``i`` took from ``j`` (1 a win, 0.5 a draw).
        counts: ``counts[i, j]`` is the number of comparisons between ``i`` and ``j`` (symmetric).
        prior_draws: virtual draws added to every pair that met, so perfect records stay finite.
        iterations: maximum number of minorize-maximize sweeps.

    Returns:
        One rating per agent on the Elo scale (400 points = 10:1 odds), with mean :data:`ELO_MEAN`.
    """
    met = counts > 0
    counts = counts + prior_draws * met
    wins = (scores + 0.5 * prior_draws * met).sum(axis=1)
    strength = np.ones(len(counts))
    for _ in range(iterations):
        updated = _mm_step(strength, wins, counts)
        if np.allclose(updated, strength, rtol=1e-10, atol=0.0):
            break
        strength = updated
    logs = np.log10(strength)
    return ELO_MEAN + 400.0 * (logs - logs.mean())


def _mm_step(strength: np.ndarray, wins: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """One minorize-maximize update of Bradley-Terry strengths, normalised to geometric mean 1."""
    pair_sums = strength[:, None] + strength[None, :]
    denominators = (counts / pair_sums).sum(axis=1)
    updated = np.where(denominators > 0, wins / np.where(denominators > 0, denominators, 1.0), strength)
    updated = np.maximum(updated, 1e-300)
    return updated / np.exp(np.log(updated).mean())
