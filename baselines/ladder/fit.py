"""The ladder's statistics: Bradley-Terry ratings on the Elo scale anchored at one agent, bootstrap intervals, and
the rating of one new agent against agents whose ratings are held fixed.

**Pairwise results.** A game of ``n`` seats gives every ordered pair of distinct agents in it one comparison: the
points of the first against the second (1 a better best return, 0.5 equal, 0 worse; as
:func:`baselines.arena.results.summarize` counts them). Two-player games give one comparison each way; a
multi-player game gives every pair its own (the "same fit over pairwise results" of issue 34).

**The fit** is :func:`baselines.arena.ratings.fit_elo` (minorize-maximize, one virtual draw per pair that met so
perfect records stay finite), shifted so that the anchor (``random``) is 0.

**Intervals** come from a parametric bootstrap of the fitted model: every pair's comparisons are drawn again from the
binomial with the fitted win probability of the pair and the ladder is refitted; the interval is the 2.5 and 97.5
percentiles of the replicates (default 1,000). Resampling the games themselves was tried first and dropped: a pair
with a perfect record (every agent beats ``random`` every time) resamples to itself, which gave intervals of zero
width that said nothing; the model's probabilities are never exactly 0 or 1. (In a multi-player game the pairs of one
table are not independent, which this bootstrap ignores; every ladder here plays two-player configs.)

**Rating a new agent** (:func:`rate_against`): its games against agents with known ratings give the likelihood
of its own rating alone (the others fixed); the rating is the root of the score equation
``sum_j (points_j - games_j p_j(r)) = 0`` (with the same virtual draw per opponent), found by bisection. Its
interval redraws its points against each anchor from the fitted binomial and pairs each draw with a replicate of the
ladder's own fit, so it carries both the new games' noise and the anchors' uncertainty.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial

import numpy as np

from baselines.arena.match import GameRecord, outcome_points
from baselines.arena.ratings import fit_elo

BOOTSTRAP_SAMPLES = 1000
"""Bootstrap replicates of a ladder fit."""
PRIOR_DRAWS = 1.0
"""Virtual draws per pair that met (as :func:`~baselines.arena.ratings.fit_elo`)."""
ELO_SPAN = (-4000.0, 8000.0)
"""The interval the bisection of :func:`rate_against` searches (Elo; random = 0)."""


@dataclass(frozen=True)
class Comparisons:
    """Every pairwise comparison of a set of games.

    Attributes:
        names: the agents, in rating order.
        first, second: indices into ``names`` of each comparison's two agents.
        points: the points ``first`` took from ``second`` (1, 0.5 or 0).
    """

    names: tuple[str, ...]
    first: np.ndarray
    second: np.ndarray
    points: np.ndarray

    def totals(self) -> tuple[np.ndarray, np.ndarray]:
        """``(scores, counts)``: ``scores[i, j]`` the points ``i`` took from ``j`` in ``counts[i, j]`` comparisons."""
        size = len(self.names)
        cells = self.first * size + self.second
        scores = np.bincount(cells, weights=self.points, minlength=size * size).reshape(size, size)
        counts = np.bincount(cells, minlength=size * size).reshape(size, size).astype(float)
        return scores, counts


@dataclass(frozen=True)
class LadderFit:
    """A fitted ladder: each agent's rating (Elo scale, the anchor at 0) with its bootstrap 95% interval.

    Attributes:
        names: the agents.
        ratings: the point estimates.
        low, high: the 2.5% and 97.5% bootstrap percentiles.
        games: games each agent played.
        replicates: ``[sample, agent]`` ratings of every bootstrap replicate (what :func:`rate_against` samples).
    """

    names: tuple[str, ...]
    ratings: np.ndarray
    low: np.ndarray
    high: np.ndarray
    games: np.ndarray
    replicates: np.ndarray

    def rating(self, name: str) -> float:
        """The rating of agent ``name``."""
        return float(self.ratings[self.names.index(name)])

    def half_widths(self) -> np.ndarray:
        """Half the width of each agent's interval (the "±" of the ladder)."""
        return (self.high - self.low) / 2.0


def comparisons(records: Sequence[GameRecord], names: Sequence[str]) -> Comparisons:
    """The pairwise comparisons of ``records`` between agents of ``names`` (a record naming another agent is an
    error: a ladder's logs hold only its agents)."""
    index = {name: i for i, name in enumerate(names)}
    first, second, points = [], [], []
    for number, record in enumerate(records):
        unknown = sorted(set(record.agent_names) - set(index))
        if unknown:
            raise ValueError(f"game {number} names agents that are not on the ladder: {unknown}")
        best = record.best_returns()
        for a, b in itertools.permutations(best, 2):
            first.append(index[a])
            second.append(index[b])
            points.append(outcome_points(best[a], best[b]))
    as_index = partial(np.array, dtype=np.int64)
    return Comparisons(tuple(names), as_index(first), as_index(second), np.array(points, dtype=float))


def anchored_ratings(scores: np.ndarray, counts: np.ndarray, anchor: int) -> np.ndarray:
    """Bradley-Terry ratings on the Elo scale with agent ``anchor`` at 0."""
    ratings = fit_elo(scores, counts, prior_draws=PRIOR_DRAWS)
    return ratings - ratings[anchor]


def fit_ladder(
    records: Sequence[GameRecord],
    names: Sequence[str],
    anchor: str = "random",
    samples: int = BOOTSTRAP_SAMPLES,
    seed: int = 0,
) -> LadderFit:
    """Fit the ladder of ``names`` from ``records`` with stratified bootstrap intervals (see the module docstring)."""
    if anchor not in names:
        raise ValueError(f"anchor {anchor!r} is not among the ladder's agents {list(names)}")
    if samples < 1:
        raise ValueError(f"samples must be >= 1, got {samples}")
    data = comparisons(records, names)
    where = list(names).index(anchor)
    scores, counts = data.totals()
    ratings = anchored_ratings(scores, counts, where)
    rng = np.random.default_rng(seed)
    replicates = np.array([anchored_ratings(*_redraw(ratings, counts, rng), where) for _ in range(samples)])
    low, high = np.percentile(replicates, [2.5, 97.5], axis=0)
    played = np.array([sum(name in record.agent_names for record in records) for name in names])
    return LadderFit(tuple(names), ratings, low, high, played, replicates)


@dataclass(frozen=True)
class NewRating:
    """A new agent's rating against fixed anchors: the estimate, its 95% interval and its games."""

    name: str
    rating: float
    low: float
    high: float
    games: int
    points: float


def rate_against(
    name: str,
    records: Sequence[GameRecord],
    ladder: LadderFit,
    samples: int = BOOTSTRAP_SAMPLES,
    seed: int = 0,
) -> NewRating:
    """The rating of agent ``name`` from its games against agents of ``ladder`` (whose ratings stay fixed)."""
    data = comparisons(records, (name, *ladder.names))
    mine = data.first == 0
    games = np.bincount(data.second[mine] - 1, minlength=len(ladder.names)).astype(float)
    points = np.bincount(data.second[mine] - 1, weights=data.points[mine], minlength=len(ladder.names))
    rating = _root(points, games, ladder.ratings)
    rng = np.random.default_rng(seed)
    estimates = []
    for _ in range(samples):
        redrawn = rng.binomial(games.astype(np.int64), win_probability(rating, ladder.ratings)).astype(float)
        estimates.append(_root(redrawn, games, ladder.replicates[rng.integers(len(ladder.replicates))]))
    low, high = np.percentile(estimates, [2.5, 97.5])
    return NewRating(name, rating, float(low), float(high), len(records), float(points.sum()))


def win_probability(rating: float | np.ndarray, others: np.ndarray) -> np.ndarray:
    """The Bradley-Terry probability that an agent of ``rating`` beats each of ``others`` (Elo scale)."""
    return 1.0 / (1.0 + 10.0 ** ((others - rating) / 400.0))


def _root(points: np.ndarray, games: np.ndarray, anchors: np.ndarray) -> float:
    """The rating whose expected points against ``anchors`` (``games[j]`` against anchor ``j``) equal the points
    taken, plus one virtual draw per anchor met, by bisection: the expected points grow with the rating."""
    met = games > 0
    taken = float(points.sum()) + 0.5 * PRIOR_DRAWS * int(met.sum())
    low, high = ELO_SPAN
    for _ in range(60):
        middle = (low + high) / 2.0
        expected = float(((games + PRIOR_DRAWS * met) * win_probability(middle, anchors)).sum())
        low, high = (middle, high) if expected < taken else (low, middle)
    return (low + high) / 2.0


def _redraw(ratings: np.ndarray, counts: np.ndarray, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """``(scores, counts)`` of one parametric replicate: each pair's comparisons drawn from the fitted binomial."""
    upper = np.triu(counts, 1).astype(np.int64)
    wins = rng.binomial(upper, win_probability(ratings[:, None], ratings[None, :]))
    scores = wins + (upper - wins).T
    return scores.astype(float), counts


__all__ = [
    "BOOTSTRAP_SAMPLES", "Comparisons", "LadderFit", "NewRating", "anchored_ratings", "comparisons", "fit_ladder",
    "rate_against", "win_probability",
]  # fmt: skip
