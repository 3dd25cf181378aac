"""The ladder's statistics: Bradley-Terry ratings on the Elo scale anchored at one agent, bootstrap intervals, and
the rating of one new agent against agents whose ratings are held fixed.

**Pairwise results.** A game of ``n`` seats gives every ordered pair of distinct agents in it one comparison: the
points of the first against the second (1 a better best return, 0.5 equal, 0 worse; as
:func:`baselines.arena.results.summarize` counts them). Two-player games give one comparison each way; a
multi-player game gives every pair its own (the "same fit over pairwise results" of issue 34).

**The fit** is :func:`baselines.arena.ratings.fit_elo` (minorize-maximize, one virtual draw per pair that met so
perfect records stay finite), shifted so that the anchor (``random``) is 0.

**Intervals** come from a bootstrap over games, stratified by lineup: each lineup's games (the pair of agents at a
table) are drawn again with replacement, as many as it has, and the ladder is refitted (as Chatbot Arena does for
its ratings). Each replicate is shifted to the estimate's mean rating before the percentiles are taken: the scale
keeps its origin at the anchor, but an interval says how well an agent is placed against the whole field, and the
anchor's own interval how well the field's distance to it is known. (Holding the anchor fixed in every replicate
would push the anchor's uncertainty onto every other agent: a ``random`` that loses nearly every game is placed by
a handful of games and the virtual draws.) The interval is the 2.5 and 97.5 percentiles of the replicates (default
1,000), widened to hold the estimate where they leave it out. A parametric bootstrap (comparisons redrawn from the
fitted probabilities) was tried first and dropped: the replicates, shrunk by the virtual draws a second time, sat
on one side of every estimate. The bootstrap cannot see what was never observed: a pair with a perfect record
resamples to itself, so an agent whose every pair is a perfect record gets an interval of zero width; the ladders'
lopsided pairs are never all of an agent's pairs.

**Rating a new agent** (:func:`rate_against`): its games against agents with known ratings give the likelihood
of its own rating alone (the others fixed); the rating is the root of the score equation
``sum_j (points_j - games_j p_j(r)) = 0`` (with the same virtual draw per opponent), found by bisection. Its
interval resamples its games against each anchor and pairs each resample with a replicate of the ladder's own fit,
so it carries both the new games' noise and the anchors' uncertainty.
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
    """Every pairwise comparison of a set of games, flattened for fast bootstrap refits.

    Attributes:
        names: the agents, in rating order.
        first, second: indices into ``names`` of each comparison's two agents.
        points: the points ``first`` took from ``second`` (1, 0.5 or 0).
        game: the game (index into the records) each comparison comes from.
        lineup: per game, the index of its lineup (the set of agents at the table): the bootstrap's strata.
    """

    names: tuple[str, ...]
    first: np.ndarray
    second: np.ndarray
    points: np.ndarray
    game: np.ndarray
    lineup: np.ndarray

    def totals(self, weights: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
        """``(scores, counts)``: ``scores[i, j]`` the points ``i`` took from ``j`` in ``counts[i, j]`` comparisons,
        each game counted ``weights[game]`` times (``None``: once)."""
        size = len(self.names)
        weight = np.ones(len(self.first)) if weights is None else weights[self.game]
        cells = self.first * size + self.second
        scores = np.bincount(cells, weights=weight * self.points, minlength=size * size).reshape(size, size)
        counts = np.bincount(cells, weights=weight, minlength=size * size).reshape(size, size)
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
    first, second, points, game, lineup, lineups = [], [], [], [], [], {}
    for number, record in enumerate(records):
        unknown = sorted(set(record.agent_names) - set(index))
        if unknown:
            raise ValueError(f"game {number} names agents that are not on the ladder: {unknown}")
        best = record.best_returns()
        for a, b in itertools.permutations(best, 2):
            first.append(index[a])
            second.append(index[b])
            points.append(outcome_points(best[a], best[b]))
            game.append(number)
        lineup.append(lineups.setdefault(tuple(sorted(best)), len(lineups)))
    as_index = partial(np.array, dtype=np.int64)
    return Comparisons(tuple(names), as_index(first), as_index(second), np.array(points, dtype=float), as_index(game),
                       as_index(lineup))  # fmt: skip


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
    ratings = anchored_ratings(*data.totals(), where)
    rng = np.random.default_rng(seed)
    replicates = np.array([_aligned(anchored_ratings(*data.totals(resample(data.lineup, rng)), where), ratings)
                           for _ in range(samples)])  # fmt: skip
    low, high = np.percentile(replicates, [2.5, 97.5], axis=0)
    low, high = np.minimum(low, ratings), np.maximum(high, ratings)  # a skewed bootstrap may leave the estimate out
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
    opponents, points, game = data.second[mine] - 1, data.points[mine], data.game[mine]
    rating = _root(*_against(opponents, points, np.ones(len(points)), len(ladder.names)), ladder.ratings)
    rng = np.random.default_rng(seed)
    estimates = []
    for _ in range(samples):
        weights = resample(data.lineup, rng)[game]
        anchors = ladder.replicates[rng.integers(len(ladder.replicates))]
        estimates.append(_root(*_against(opponents, points, weights, len(ladder.names)), anchors))
    low, high = np.percentile(estimates, [2.5, 97.5])
    return NewRating(name, rating, min(float(low), rating), max(float(high), rating), len(records), float(points.sum()))


def resample(lineup: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Bootstrap weights per game: each lineup's games drawn with replacement, as many as it has."""
    weights = np.zeros(len(lineup))
    for stratum in np.unique(lineup):
        members = np.flatnonzero(lineup == stratum)
        np.add.at(weights, rng.choice(members, size=len(members)), 1.0)
    return weights


def _against(
    opponents: np.ndarray, points: np.ndarray, weights: np.ndarray, size: int
) -> tuple[np.ndarray, np.ndarray]:
    """``(points, games)`` against each of ``size`` anchors, each comparison counted ``weights`` times."""
    games = np.bincount(opponents, weights=weights, minlength=size)
    return np.bincount(opponents, weights=weights * points, minlength=size), games


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


def _aligned(replicate: np.ndarray, ratings: np.ndarray) -> np.ndarray:
    """A replicate shifted to the estimate's mean: the field's centre is held, not the anchor (see the module
    docstring)."""
    return replicate - replicate.mean() + ratings.mean()


__all__ = [
    "BOOTSTRAP_SAMPLES", "Comparisons", "LadderFit", "NewRating", "anchored_ratings", "comparisons", "fit_ladder",
    "rate_against", "resample", "win_probability",
]  # fmt: skip
