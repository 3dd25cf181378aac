"""The benchmark over training seeds: interquartile means with stratified bootstrap intervals, learning curves with
bands, and performance profiles (Agarwal et al., NeurIPS 2021, "Deep RL at the Edge of the Statistical Precipice").

A run's score is its final win rate against an opponent (``random`` or the game's best scripted agent, draws half).

- **Per cell** (one learner on one game): the IQM of its seeds' scores (the mean of the middle 50%, scipy's
  ``trim_mean(scores, 0.25)``) with a 95% percentile bootstrap interval over the seeds.
- **Per learner** across games: the IQM of all its runs, the bootstrap stratified by game (each game's seeds are
  resampled within that game, so every replicate keeps one run set per game): ``scipy.stats.bootstrap`` with one
  sample per game, which it resamples independently.
- **Performance profile** of a learner: the fraction of its runs whose score exceeds ``tau``, for ``tau`` in [0, 1],
  with a stratified bootstrap band.
- **Learning curves**: a cell's evaluations are matched across seeds by their order (the k-th evaluation of every
  seed), at the seeds' mean training time, as the IQM over the seeds with its bootstrap band.

With fewer than two runs there is nothing to resample: the interval is the single score itself.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

BOOTSTRAP_SAMPLES = 2000
"""Bootstrap replicates of every interval."""
ROLES = ("random", "scripted")
"""The two evaluation opponents of every run: ``random`` and the game's best scripted agent."""
TAUS = np.linspace(0.0, 1.0, 51)
"""The score thresholds of the performance profiles."""


@dataclass(frozen=True)
class Aggregate:
    """The IQM of a set of runs' scores with its 95% bootstrap interval."""

    learner: str
    game: str
    """The game, or ``"all"`` for a learner across games."""
    role: str
    runs: int
    iqm: float
    low: float
    high: float
    scores: tuple[float, ...]


def iqm(scores: np.ndarray, axis: int = -1) -> np.ndarray:
    """The interquartile mean along ``axis``: the mean of the middle 50% (25% trimmed from each end)."""
    from scipy.stats import trim_mean

    return trim_mean(scores, 0.25, axis=axis)


def stratified_interval(
    strata: Sequence[Sequence[float]], statistic: Callable[[np.ndarray], float] = iqm, seed: int = 0
) -> tuple[float, float, float]:
    """``(value, low, high)``: ``statistic`` of all scores and its 95% percentile bootstrap interval, each stratum
    resampled within itself."""
    samples = tuple(np.asarray(stratum, dtype=float) for stratum in strata if len(stratum))
    value = float(statistic(np.concatenate(samples)))
    varying = tuple(sample for sample in samples if len(sample) >= 2)
    if not varying:
        return value, value, value
    # A stratum of one run resamples to itself: it joins every replicate unchanged (scipy resamples only samples of
    # two or more; a table still being filled has cells with one seed beside cells with more).
    fixed = np.concatenate([sample for sample in samples if len(sample) < 2] or [np.empty(0)])
    from scipy.stats import bootstrap

    def pooled(*resampled: np.ndarray, axis: int = -1) -> np.ndarray:
        if fixed.size:
            resampled = (*resampled, np.broadcast_to(fixed, (*resampled[0].shape[:-1], fixed.size)))
        return statistic(np.concatenate(resampled, axis=axis), axis=axis)

    rng = np.random.default_rng(seed)
    result = bootstrap(varying, pooled, n_resamples=BOOTSTRAP_SAMPLES, method="percentile", vectorized=True,
                       paired=False, random_state=rng)  # fmt: skip
    low, high = result.confidence_interval
    return value, float(low), float(high)


def run_scores(results: Sequence[Mapping[str, Any]], role: str) -> dict[tuple[str, str], list[float]]:
    """``(game, learner) -> [score of each seed]`` against the ``role`` opponent."""
    scores: dict[tuple[str, str], list[float]] = {}
    for result in results:
        row = result["evaluations"][ROLES.index(role)]
        scores.setdefault((result["game"], result["learner"]), []).append(float(row["win_rate"]))
    return scores


def cell_aggregates(results: Sequence[Mapping[str, Any]]) -> list[Aggregate]:
    """Each cell's IQM over its seeds, against each role, in the order the cells first appear."""
    aggregates = []
    for role in ROLES:
        for (game, learner), scores in run_scores(results, role).items():
            value, low, high = stratified_interval([scores])
            aggregates.append(Aggregate(learner, game, role, len(scores), value, low, high, tuple(scores)))
    return aggregates


def learner_aggregates(results: Sequence[Mapping[str, Any]]) -> list[Aggregate]:
    """Each learner's IQM over all its runs of every game, the bootstrap stratified by game."""
    aggregates = []
    for role in ROLES:
        by_learner: dict[str, list[list[float]]] = {}
        for (_, learner), scores in run_scores(results, role).items():
            by_learner.setdefault(learner, []).append(scores)
        for learner, strata in by_learner.items():
            value, low, high = stratified_interval(strata)
            flat = tuple(score for stratum in strata for score in stratum)
            aggregates.append(Aggregate(learner, "all", role, len(flat), value, low, high, flat))
    return aggregates


def performance_profile(strata: Sequence[Sequence[float]]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(fraction, low, high)`` at each of :data:`TAUS`: the share of runs scoring above ``tau``, with its
    stratified bootstrap band."""
    fractions, lows, highs = [], [], []
    for tau in TAUS:

        def above(scores: np.ndarray, axis: int = -1, tau: float = float(tau)) -> np.ndarray:
            return np.mean(scores > tau, axis=axis)

        value, low, high = stratified_interval(strata, above)
        fractions.append(value)
        lows.append(low)
        highs.append(high)
    return np.array(fractions), np.array(lows), np.array(highs)


@dataclass(frozen=True)
class CurveBand:
    """One learning curve over seeds: training minutes, the IQM of the seeds' win rates and its band."""

    minutes: np.ndarray
    iqm: np.ndarray
    low: np.ndarray
    high: np.ndarray


def curve_band(curves: Sequence[Sequence[tuple[float, float]]]) -> CurveBand:
    """The band of several seeds' curves (each a list of ``(minutes, win rate)`` in order), cut to the shortest."""
    length = min(len(curve) for curve in curves)
    minutes, values, lows, highs = [], [], [], []
    for k in range(length):
        column = [curve[k][1] for curve in curves]
        value, low, high = stratified_interval([column])
        minutes.append(float(np.mean([curve[k][0] for curve in curves])))
        values.append(value)
        lows.append(low)
        highs.append(high)
    return CurveBand(np.array(minutes), np.array(values), np.array(lows), np.array(highs))


__all__ = [
    "Aggregate", "BOOTSTRAP_SAMPLES", "CurveBand", "ROLES", "TAUS", "cell_aggregates", "curve_band", "iqm",
    "learner_aggregates", "performance_profile", "run_scores", "stratified_interval",
]  # fmt: skip
