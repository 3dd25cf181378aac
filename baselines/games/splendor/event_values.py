"""Event-value functions (EF) of seed 002 (Bravi & Lucas, "Rinascimento: using event-value functions").

An EF values a plan by the events it triggered, not by the state it reached: ``h_w(E) = f_w(sigma(E))``.

* **Synthesis sigma** counts events per type. The *id* mapping keeps the 18 Table I types (features 0..17);
  the hand-crafted *hc* mapping groups them into 5 macro-events and discards the rest (seed 002,
  ``boardenvs/games/splendor/rinascimento_events.csv``). The paper counts only the events the evaluating
  player caused (``perspective="own"``); ``"difference"`` (own counts minus the mean count of the other
  players) and ``"both"`` (own counts followed by the others' summed counts, twice the features) are offered
  as extensions.
* **Counting.** The paper counts events (``count="events"``): a 3-point card and a 0-point card both fire
  one "receive card points" event, so an EF cannot tell them apart (seed 002 §V-A1 names this limitation).
  ``count="amounts"`` is an extension: each event counts its size instead, the ``points`` of point events
  and the ``amount`` of token events (1 for the other types).
* **Mixer** ``f_w``: linear (``w . theta``) or the paper's polynomial of degree ``d``: one weight per
  ``d``-multicombination of the features, times the product of those features (Equation 1; no lower-degree
  terms). Weights per mixer: hc 5 / 15 / 35, id 18 / 171 / 1140 for degree 1 / 2 / 3 (Table II).

The paper's tuned linear weights (seed 002 §V-A2) are in :data:`PAPER_WEIGHTS`. An
:class:`EventValueFunction` is a value function for :class:`baselines.search.rhea.RHEAAgent`: it is called with the
events logged while a plan was played and returns the plan's value for the acting player.

Example:
    >>> from boardenvs.games.splendor.events import Event, INCREASE_PLAYER_TOKENS, RECEIVE_CARD_POINTS
    >>> ef = EventValueFunction(mapping="hc", degree=1)          # the paper's tuned lin^hc weights
    >>> events = [Event(0, 0, INCREASE_PLAYER_TOKENS), Event(1, 0, RECEIVE_CARD_POINTS)]
    >>> ef.features(events, player=0).tolist()
    [1.0, 0.0, 0.0, 0.0, 1.0]
    >>> round(ef.value(events, player=0), 6)
    1.0
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from boardenvs.games.splendor.events import (
    DECREASE_GOLD,
    DECREASE_PLAYER_GOLD,
    DECREASE_PLAYER_TOKENS,
    DECREASE_TOKENS,
    HC_GROUP,
    INCREASE_GOLD,
    INCREASE_PLAYER_GOLD,
    INCREASE_PLAYER_TOKENS,
    INCREASE_TOKENS,
    NUM_EVENT_TYPES,
    NUM_HC_GROUPS,
    RECEIVE_CARD_BONUS,
    RECEIVE_CARD_POINTS,
    RECEIVE_NOBLE_POINTS,
)

MAPPINGS: dict[str, int] = {"id": NUM_EVENT_TYPES, "hc": NUM_HC_GROUPS}
"""Event mappings and their number of features."""
PERSPECTIVES = ("own", "difference", "both")
"""Whose events become features (``"own"`` is the paper's)."""
COUNTS = ("events", "amounts")
"""How events are counted: one each (the paper), or by their ``points``/``amount`` attribute (an extension)."""
POINT_TYPES = (RECEIVE_CARD_POINTS, RECEIVE_NOBLE_POINTS)
AMOUNT_TYPES = (
    INCREASE_TOKENS, DECREASE_TOKENS, INCREASE_GOLD, DECREASE_GOLD, INCREASE_PLAYER_TOKENS, DECREASE_PLAYER_TOKENS,
    INCREASE_PLAYER_GOLD, DECREASE_PLAYER_GOLD, RECEIVE_CARD_BONUS,
)  # fmt: skip
DEGREES = (1, 2, 3)
"""Mixer degrees: 1 is the linear mixer, 2 and 3 the paper's polynomials."""
WEIGHT_VALUES: tuple[float, ...] = tuple(round(-1.0 + 0.2 * i, 1) for i in range(11))
"""The paper's discretised weight space: -1, -0.8, ..., 0.8, 1 (NTBEA search values of every weight)."""

PAPER_WEIGHTS: dict[tuple[str, int], tuple[float, ...]] = {
    ("hc", 1): (0.2, 0.2, -0.4, -0.6, 0.8),
    ("id", 1): (-0.8, 0.2, -0.4, -1.0, 0.8, 0.2, -0.2, -0.2, 0.8, -0.2, -1.0, -0.8, -0.8, 0.2, 1.0, 0.8, 1.0, 0.4),
}
"""The paper's NTBEA-tuned linear weights with ``perspective="own"``: ``lin^hc_w*`` and ``lin^id_w*``."""


def num_features(mapping: str, perspective: str = "own") -> int:
    """Length of the feature vector ``theta`` for a mapping and a perspective."""
    _check_choice("mapping", mapping, tuple(MAPPINGS))
    _check_choice("perspective", perspective, PERSPECTIVES)
    return MAPPINGS[mapping] * (2 if perspective == "both" else 1)


def num_weights(mapping: str, degree: int, perspective: str = "own") -> int:
    """Number of mixer weights: the ``degree``-multicombinations of the features (Table II)."""
    _check_choice("degree", degree, DEGREES)
    features = num_features(mapping, perspective)
    return math.comb(features + degree - 1, degree)


def event_index(event_type: int, mapping: str) -> int:
    """The feature index of an event type id under ``mapping`` (-1: discarded by the hc mapping)."""
    if not 0 <= int(event_type) < NUM_EVENT_TYPES:
        raise ValueError(f"event type must be in 0..{NUM_EVENT_TYPES - 1}, got {event_type}")
    return int(event_type) if mapping == "id" else HC_GROUP[int(event_type)]


def event_size(event: Any, count: str = "events") -> float:
    """What one event adds to its feature: 1, or with ``count="amounts"`` its points or token amount."""
    if count == "events":
        return 1.0
    if event.type in POINT_TYPES:
        return float(getattr(event, "points", 1))
    if event.type in AMOUNT_TYPES:
        return float(abs(getattr(event, "amount", 1)))
    return 1.0


def count_events(
    events: Iterable[Any], mapping: str, num_players: int | None = None, count: str = "events"
) -> np.ndarray:
    """``float[players, features]``: events per causing player and feature; setup events (who < 0) are skipped.

    Args:
        events: records with integer ``who`` and ``type`` fields (``boardenvs.games.splendor.events.Event``).
        mapping: ``"id"`` or ``"hc"``.
        num_players: rows of the table; default: one more than the largest ``who`` seen.
        count: ``"events"`` (one per event, the paper) or ``"amounts"`` (see :func:`event_size`).
    """
    _check_choice("mapping", mapping, tuple(MAPPINGS))
    _check_choice("count", count, COUNTS)
    triples = [(int(event.who), event_index(event.type, mapping), event_size(event, count)) for event in events]
    rows = num_players if num_players is not None else max([who + 1 for who, _, _ in triples] + [1])
    counts = np.zeros((rows, MAPPINGS[mapping]), dtype=np.float64)
    for who, index, size in triples:
        if 0 <= who < rows and index >= 0:
            counts[who, index] += size
    return counts


def synthesize(
    events: Iterable[Any],
    player: int,
    mapping: str = "hc",
    perspective: str = "own",
    num_players: int | None = None,
    count: str = "events",
) -> np.ndarray:
    """Synthesis sigma: the feature vector ``theta`` of ``events`` from ``player``'s point of view.

    Args:
        events: the events to count (``who`` and ``type`` fields).
        player: the evaluating player.
        mapping: ``"id"`` (18 features) or ``"hc"`` (5 features).
        perspective: ``"own"`` (the player's events, as in the paper), ``"difference"`` (own minus the mean of
            the other players) or ``"both"`` (own, then the other players' summed counts).
        num_players: players in the game (so that silent opponents still count as players).
        count: ``"events"`` or ``"amounts"`` (see :func:`event_size`).
    """
    _check_choice("perspective", perspective, PERSPECTIVES)
    counts = count_events(events, mapping, num_players, count)
    if len(counts) <= player:
        counts = np.vstack([counts, np.zeros((player + 1 - len(counts), counts.shape[1]))])
    own = counts[player]
    if perspective == "own":
        return own
    others = np.delete(counts, player, axis=0)
    if perspective == "difference":
        return own - (others.mean(axis=0) if len(others) else 0.0)
    return np.concatenate([own, others.sum(axis=0)])


class Mixer:
    """The mixer ``f_w``: linear (degree 1) or the paper's degree-``d`` polynomial over ``size`` features.

    ``terms[i]`` lists the feature indices of the ``i``-th ``d``-multicombination, in the order of
    ``itertools.combinations_with_replacement`` (for ``theta = [a, b]`` and ``d = 2``: ``a*a, a*b, b*b``).
    """

    def __init__(self, size: int, degree: int = 1) -> None:
        if isinstance(size, bool) or not isinstance(size, (int, np.integer)) or size < 1:
            raise ValueError(f"size (number of features) must be an int >= 1, got {size!r}")
        _check_choice("degree", degree, DEGREES)
        self.size, self.degree = int(size), int(degree)
        self.terms = np.array(list(itertools.combinations_with_replacement(range(self.size), self.degree)))

    @property
    def num_weights(self) -> int:
        """How many weights the mixer takes."""
        return len(self.terms)

    def monomials(self, theta: np.ndarray) -> np.ndarray:
        """The value of every term: the product of its features."""
        theta = np.asarray(theta, dtype=np.float64)
        if theta.shape != (self.size,):
            raise ValueError(f"theta must have shape ({self.size},), got {theta.shape}")
        return np.prod(theta[self.terms], axis=1)

    def __call__(self, theta: np.ndarray, weights: np.ndarray) -> float:
        """``f_w(theta)``."""
        return float(self.monomials(theta) @ weights)


class EventValueFunction:
    """An event-value function ``h_w(E) = f_w(sigma(E))``, usable as ``RHEAAgent(value=...)``.

    Args:
        mapping: ``"hc"`` (5 hand-crafted groups) or ``"id"`` (18 event types).
        degree: 1 (linear), 2 or 3 (polynomial).
        weights: the mixer weights (``num_weights`` floats). Default: the paper's tuned weights where they
            exist (linear, ``perspective="own"``; :data:`PAPER_WEIGHTS`), zeros otherwise.
        perspective: see :func:`synthesize`.
        count: ``"events"`` (the paper) or ``"amounts"``; see :func:`event_size`.

    Raises:
        ValueError: a bad mapping, degree, perspective or count, or weights of the wrong length or not finite.
    """

    needs_events = True
    """RHEA collects the events of each plan it plays for this value function."""

    def __init__(
        self,
        mapping: str = "hc",
        degree: int = 1,
        weights: Sequence[float] | None = None,
        perspective: str = "own",
        count: str = "events",
    ) -> None:
        size = num_features(mapping, perspective)
        _check_choice("count", count, COUNTS)
        self.mapping, self.perspective, self.count = mapping, perspective, count
        self.mixer = Mixer(size, degree)
        self.weights = default_weights(mapping, degree, perspective) if weights is None else weights

    @property
    def weights(self) -> np.ndarray:
        """The mixer weights (a copy)."""
        return self._weights.copy()

    @weights.setter
    def weights(self, values: Sequence[float]) -> None:
        array = np.asarray(values, dtype=np.float64).ravel()
        if array.shape != (self.mixer.num_weights,):
            raise ValueError(
                f"weights must have {self.mixer.num_weights} values for mapping {self.mapping!r}, degree "
                f"{self.mixer.degree} and perspective {self.perspective!r}, got {array.size}"
            )
        if not np.all(np.isfinite(array)):
            raise ValueError(f"weights must be finite, got {array.tolist()}")
        self._weights = array

    @property
    def degree(self) -> int:
        """The mixer's degree (1 = linear)."""
        return self.mixer.degree

    def features(self, events: Iterable[Any], player: int, num_players: int | None = None) -> np.ndarray:
        """``theta = sigma(events)`` for ``player``."""
        return synthesize(events, player, self.mapping, self.perspective, num_players, self.count)

    def value(self, events: Iterable[Any], player: int, num_players: int | None = None) -> float:
        """``h_w(events)`` for ``player``."""
        return self.mixer(self.features(events, player, num_players), self._weights)

    def __call__(self, game: Any, root: Any, end: Any, player: int, events: Sequence[Any]) -> float:
        """The value-function protocol of :class:`baselines.search.rhea.RHEAAgent`: the value of ``events``."""
        del root, end
        return self.value(events, player, game.spec.num_players)

    def __repr__(self) -> str:
        return (
            f"EventValueFunction(mapping={self.mapping!r}, degree={self.degree}, perspective={self.perspective!r},"
            f" count={self.count!r}, weights={self._weights.tolist()})"
        )


def default_weights(mapping: str, degree: int, perspective: str = "own") -> np.ndarray:
    """The paper's tuned weights for ``(mapping, degree)`` with the ``"own"`` perspective, zeros otherwise."""
    count = num_weights(mapping, degree, perspective)
    paper = PAPER_WEIGHTS.get((mapping, degree)) if perspective == "own" else None
    return np.array(paper if paper is not None else [0.0] * count, dtype=np.float64)


def _check_choice(name: str, value: Any, allowed: tuple[Any, ...]) -> None:
    if isinstance(value, bool) or value not in allowed:
        raise ValueError(f"{name} must be one of {list(allowed)}, got {value!r}")
