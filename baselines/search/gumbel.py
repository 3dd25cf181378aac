"""The arithmetic of Gumbel root search (Danihelka et al., ICLR 2022, "Policy improvement by planning with
Gumbel"), used by :class:`baselines.search.mcts.MCTSAgent` with ``selection="gumbel"``.

* **Root.** Draw ``g(a) ~ Gumbel(0, scale)`` for every legal root action, keep the ``m`` actions with the
  largest ``g(a) + logit(a)`` and share the simulations among them by *sequential halving*
  (:func:`halving_schedule`): every phase gives each remaining action the same number of visits, then keeps the
  better half by ``g(a) + logit(a) + sigma(q(a))``. The move is the best remaining action by that score.
* **Interior nodes.** Deterministic: visit the action that most lacks visits compared with the improved
  policy, ``argmax_a pi'(a) - n(a) / (1 + sum n)``.
* **Improved policy** ``pi' = softmax(logit + sigma(completed Q))``: the training target; it improves on the
  prior even after a few simulations. *Completed Q* is the mean value of a visited action and, for an
  unvisited one, the node's mixed value (the network's value mixed with the prior-weighted mean of the
  visited actions' values). ``sigma(q) = (c_visit + max_a n(a)) * c_scale * q`` after the completed values are
  rescaled to [0, 1] by their minimum and maximum at the node.

Every function takes one node's legal actions as parallel lists; values are those of the player to move.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

EPSILON = 1e-8
"""Smallest value range rescaled to [0, 1]; below it every completed value maps to 0."""
MIN_PRIOR = 1e-12
"""Priors are floored here before their logarithm (an action the network rules out keeps a finite logit)."""


def halving_schedule(considered: int, simulations: int) -> list[int]:
    """The root visit count each simulation tops up, under sequential halving.

    Entry ``i`` is the visit count that simulation ``i`` raises by one: it goes to the best considered action
    that has exactly that many visits. With ``k = ceil(log2(considered))`` phases, a phase with ``r`` remaining
    actions gives each of them ``max(1, simulations // (k * r))`` visits, then halves ``r`` (at least 2).

    >>> halving_schedule(4, 8)
    [0, 0, 0, 0, 1, 1, 2, 2]
    """
    if considered < 1 or simulations < 0:
        raise ValueError(f"considered must be >= 1 and simulations >= 0, got {considered} and {simulations}")
    if considered == 1:
        return list(range(simulations))
    phases = math.ceil(math.log2(considered))
    schedule: list[int] = []
    visits, remaining = 0, considered
    while len(schedule) < simulations:
        rounds = max(1, simulations // (phases * remaining))
        for _ in range(rounds):
            schedule.extend([visits] * remaining)
            visits += 1
        remaining = max(2, remaining // 2)
    return schedule[:simulations]


def logits_of(priors: Sequence[float]) -> list[float]:
    """``log(prior)``, floored at :data:`MIN_PRIOR`."""
    return [math.log(max(prior, MIN_PRIOR)) for prior in priors]


def completed_values(
    priors: Sequence[float], visits: Sequence[int], values: Sequence[float], node_value: float
) -> list[float]:
    """Each action's completed Q: its mean ``values`` entry when visited, else the node's mixed value.

    The mixed value is ``(node_value + N * mean) / (1 + N)``, where ``N`` is the node's total child visits and
    ``mean`` the prior-weighted mean value of the visited actions (``node_value`` alone when none is visited).
    """
    total = sum(visits)
    weight = sum(p for p, n in zip(priors, visits) if n > 0)
    if total > 0 and weight > 0:
        mean = sum(p * q for p, n, q in zip(priors, visits, values) if n > 0) / weight
        mixed = (node_value + total * mean) / (1 + total)
    else:
        mixed = node_value
    return [q if n > 0 else mixed for n, q in zip(visits, values)]


def sigma(completed: Sequence[float], visits: Sequence[int], c_visit: float, c_scale: float) -> list[float]:
    """``(c_visit + max visits) * c_scale * q`` with the completed values rescaled to [0, 1] at this node."""
    low, high = min(completed), max(completed)
    span = high - low
    factor = (c_visit + max(visits)) * c_scale
    if span < EPSILON:
        return [0.0] * len(completed)
    return [factor * (q - low) / span for q in completed]


def improved_policy(
    priors: Sequence[float],
    visits: Sequence[int],
    values: Sequence[float],
    node_value: float,
    c_visit: float,
    c_scale: float,
) -> list[float]:
    """``softmax(log prior + sigma(completed Q))`` over the node's legal actions."""
    completed = completed_values(priors, visits, values, node_value)
    scores = [logit + s for logit, s in zip(logits_of(priors), sigma(completed, visits, c_visit, c_scale))]
    return softmax(scores)


def softmax(scores: Sequence[float]) -> list[float]:
    top = max(scores)
    weights = [math.exp(score - top) for score in scores]
    total = sum(weights)
    return [weight / total for weight in weights]


def interior_choice(policy: Sequence[float], visits: Sequence[int]) -> int:
    """The index of ``argmax_a policy(a) - n(a) / (1 + sum n)`` (the first one on a tie)."""
    scale = 1.0 + sum(visits)
    best, best_score = 0, -math.inf
    for index, (p, n) in enumerate(zip(policy, visits)):
        score = p - n / scale
        if score > best_score:
            best, best_score = index, score
    return best
