"""A whole QLNN training run on the shared run skeleton (:mod:`baselines.learners.runner`): :func:`run`.

The run checks its settings before any work (the game, the opponents and the evaluation opponent *parsed*
against the agent registry, never built), claims its folder (:class:`~baselines.runs.RunDirectory`: a new run
refuses a folder holding one unless ``force``), trains, and at every evaluation writes ``eval.csv`` and
``learning_curve.png`` (:class:`~baselines.learners.runner.record.EvalLog`, the shared log and curve) and
``history.csv`` (the family's :class:`QLNNPoint` rows), each atomically; at the end ``qlnn.pt`` and
``history.png`` (score with 95% intervals per episode).

A QLNN run cannot be resumed: its file holds the weights, not the optimizer, the replay buffer or the target
network, so going on would not continue the same learning (``resume`` is refused).

``settings`` is any object with the run's fields: ``game``, ``config``, ``episodes``, ``opponents``, ``eval_every``
(0: ``episodes // 10``), ``eval_games``, ``eval_opponent``, ``seed``, ``out``, ``progress`` and, optionally,
``force`` (``scripts/train_qlnn.py``'s options).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from baselines.learners.qlnn.agent import QLNNAgent
from baselines.learners.qlnn.settings import QLNNSettings
from baselines.learners.qlnn.training import QLNNPoint, QLNNRun, scored_point
from baselines.learners.runner import EvalLog, RunResult, TrainPlan, plan_episodes, run_title
from baselines.learners.runner.points import write_points
from baselines.runs import RunDirectory

KIND = "qlnn"
"""The learner's name in default run folders (``runs/<game>-qlnn-<seed>``)."""
NETWORK, HISTORY, EVAL, CURVE, HISTORY_PLOT = "qlnn.pt", "history.csv", "eval.csv", "learning_curve.png", "history.png"
OUTPUTS = (NETWORK, HISTORY, EVAL, CURVE, HISTORY_PLOT)
"""The files of a run's folder."""


@dataclass
class QLNNRunResult(RunResult):
    """What a QLNN run produced (besides :class:`~baselines.learners.runner.RunResult`'s fields).

    Attributes:
        agent: The greedy agent of the trained network.
        history: The run's :class:`QLNNPoint` rows.
        network_path: The saved network.
        history_csv: The rows as CSV.
    """

    agent: QLNNAgent
    history: list[QLNNPoint]
    network_path: Path
    history_csv: Path


def plan_run(settings: Any) -> TrainPlan:
    """Check the run's settings (``ValueError`` naming the bad one) and plan it
    (:func:`~baselines.learners.runner.plan_episodes`)."""
    if getattr(settings, "resume", False):
        raise ValueError("resume: a QLNN run cannot be resumed (its file holds no optimizer or replay buffer)")
    return plan_episodes(settings, KIND)


def run(settings: Any, learning: QLNNSettings, report: Callable[[QLNNPoint], None] | None = None) -> QLNNRunResult:
    """Check, plan and train the run ``settings`` describes with the network and ``learning`` settings; write its
    files. ``report(point)`` is called with every history row.

    Raises:
        ValueError: a bad setting.
        FileExistsError: a folder that holds a run, without ``force``.
    """
    plan = plan_run(settings)
    with RunDirectory(plan.out, OUTPUTS, force=bool(getattr(settings, "force", False))):
        title = run_title(settings, "qlnn")
        log = EvalLog(plan, settings.game, settings.seed, settings.eval_games, title, [], steps="episodes")
        training = LoggedRun(plan, settings, learning, log)

        def keep(point: QLNNPoint) -> None:
            write_points(training.history, QLNNPoint, plan.out / HISTORY)
            if report is not None:
                report(point)

        eval_every = settings.eval_every or max(1, settings.episodes // 10)
        training.run(settings.episodes, eval_every, settings.eval_games, settings.progress, keep)
        training.network.training = {"episodes": settings.episodes, "opponents": settings.opponents,
                                     "seed": settings.seed, "seconds": round(log.wall_seconds(), 1)}  # fmt: skip
        training.network.save(plan.out / NETWORK)
        _plot_history(training.history, plan, settings)
        fields = log.result_fields(settings.episodes)
    return QLNNRunResult(**fields, agent=training.agent, history=training.history, network_path=plan.out / NETWORK,
                         history_csv=plan.out / HISTORY)  # fmt: skip


def _plot_history(points: list[QLNNPoint], plan: TrainPlan, settings: Any) -> None:
    from baselines.plots import plot_qlnn_history

    config = " ".join(settings.config)
    title = f"qlnn: {settings.game} {config} vs {settings.opponents}, eval vs {settings.eval_opponent}"
    plot_qlnn_history(points, plan.out / HISTORY_PLOT, title)


class LoggedRun(QLNNRun):
    """A :class:`QLNNRun` whose evaluations are the run's :class:`EvalLog` records (``eval.csv`` and the curve)."""

    def __init__(self, plan: TrainPlan, settings: Any, learning: QLNNSettings, log: EvalLog) -> None:
        super().__init__(plan.game, settings.opponents, learning, settings.seed, settings.eval_opponent)
        self.log = log

    def add_point(self, episode: int, epsilon: float, eval_games: int, callback: Callable | None) -> None:
        """Evaluate now through the log (when there are games), add the row and pass it to ``callback``."""
        train_score = float(np.mean(self.outcomes)) if self.outcomes else math.nan
        self.outcomes.clear()
        results = (0, 0, 0)
        if eval_games:
            row = self.log.record(self.agent, episode)[0]
            results = (row.wins, row.draws, row.losses)
        head = (episode, epsilon, time.perf_counter() - self.start, train_score)
        self.history.append(scored_point(head, results))
        if callback is not None:
            callback(self.history[-1])


__all__ = ["OUTPUTS", "LoggedRun", "QLNNRunResult", "plan_run", "run"]
