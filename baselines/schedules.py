"""The one schedule of the learners: a value that falls (or rises) linearly from a start to an end.

Tabular Q-learning (:mod:`baselines.learners.tabular_q`), Seed 004's Q-learning network
(:mod:`baselines.learners.qlnn`) and Battle Sheep's tabular Q (:mod:`baselines.learners.sheep_q`) all explore
ε-greedily with ε given by a :class:`LinearDecay` over the episodes of their run.

Example:
    >>> schedule = LinearDecay(start=0.3, end=0.0)
    >>> [round(schedule.at(step, 11), 6) for step in (0, 5, 10)]
    [0.3, 0.15, 0.0]
    >>> LinearDecay(1.0, 0.0, share=0.5).at(9, 10)  # the end is reached after half of the run
    0.0
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class LinearDecay:
    """``start`` at step 0, then linear, reaching ``end`` after the first ``share`` of the steps and staying there.

    Attributes:
        start: the value at step 0.
        end: the value once the decay is over.
        share: the share of the run, in (0, 1], over which the value moves from ``start`` to ``end`` (1: the whole
            run, ``end`` at the last step).
    """

    start: float
    end: float
    share: float = 1.0

    def at(self, step: int, steps: int) -> float:
        """The value at step ``step`` (0-based) of a run of ``steps`` steps (a run of one step stays at ``start``)."""
        span = max(1.0, self.share * steps - 1)
        return self.start + (self.end - self.start) * min(1.0, step / span)
