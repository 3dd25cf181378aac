"""The periodic arena evaluation of a run, its ``eval.csv`` history, its learning curve and its result record.

:class:`EvalLog` is the part every learner's recorder shares (AlphaZero's and neuro-evolution's included): it keeps
the run's clock (a resumed run's wall time goes on), plays ``eval_games`` seeded, seat-rotated games of the learner
against each opponent (:func:`baselines.arena.evaluate_against`), appends the rows to the history and rewrites
``<out>/eval.csv`` and ``<out>/learning_curve.png`` atomically. Every evaluation builds its opponents afresh from the
same seed, so each point of the curve meets the same opponents on the same games (common random numbers), and a
resumed run's evaluations are the ones an uninterrupted run would have made. The family's recorder adds what it
saves (SB3's ``latest.zip``/``best.zip``, RLlib's checkpoint folders). :class:`RunResult` is what every run
returns.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from baselines.agent import Agent
from baselines.arena import evaluate_against
from baselines.factory import make_agent
from baselines.learners.evaluation import EvalRow, eval_row, write_eval_rows
from baselines.learners.runner.plan import TrainPlan
from baselines.plots import plot_learning_curve


@dataclass
class RunResult:
    """What a training run produced (a family's result adds its model files).

    Attributes:
        out: The output directory.
        eval_csv: The evaluation log.
        curve_png: The learning-curve plot.
        steps: Training steps in total (resumed runs included).
        wall_seconds: Total wall time (resumed runs included).
        final_eval: The last evaluation, one row per opponent.
        train_illegal: Illegal actions played in training during this run.
    """

    out: Path
    eval_csv: Path
    curve_png: Path
    steps: int
    wall_seconds: float
    final_eval: list[EvalRow]
    train_illegal: int


class EvalLog:
    """Evaluates the learner against every evaluation opponent of ``plan``, logs to CSV and redraws the plot.

    Args:
        plan: The run's plan (its game, evaluation opponents, folder and resumed checkpoint).
        game_name: The registered game (the opponents are built for it).
        seed: Seed of the opponents and of the evaluation games.
        games: Games per opponent (seats rotate).
        title: The plot's title.
        history: The rows of ``eval.csv`` so far (a resumed run's, cut back to its checkpoint).
        steps: What the run's steps count, the curve's axis (``"iterations"``, ``"generations"``, ...).
    """

    def __init__(
        self,
        plan: TrainPlan,
        game_name: str,
        seed: int,
        games: int,
        title: str,
        history: Sequence[EvalRow],
        steps: str = "training steps",
    ) -> None:
        self.plan, self.seed, self.games, self.title, self.steps = plan, seed, games, title, steps
        resumed = plan.resumed
        self.started = time.perf_counter() - (resumed.wall_seconds if resumed else 0.0)
        self.game_name = game_name
        self.csv_path, self.png_path = plan.out / "eval.csv", plan.out / "learning_curve.png"
        self.history = list(history)
        resumed_at = resumed.steps if resumed else -1
        self.last_rows = [row for row in self.history if row.steps == resumed_at]
        self.last_steps = resumed_at if self.last_rows else -1
        self.train_illegal = 0

    def wall_seconds(self) -> float:
        """Wall time so far, earlier stretches of the run included."""
        return time.perf_counter() - self.started

    def opponents(self) -> dict[str, Agent]:
        """The evaluation opponents, built afresh from the log's seed (name -> agent)."""
        return {name: make_agent(name, self.game_name, self.seed) for name in self.plan.eval_opponents}

    def record(self, learner: Any, steps: int) -> list[EvalRow]:
        """Evaluate ``learner`` at ``steps`` (its illegal moves are counted when it has ``illegal_predictions``, as a
        model-backed agent has); add the rows to ``eval.csv`` and redraw the plot. Returns the rows."""
        wall = self.wall_seconds()
        opponents = self.opponents()
        self.last_rows = [self._row(learner, name, opponent, steps, wall) for name, opponent in opponents.items()]
        self.last_steps = steps
        self.history += self.last_rows
        write_eval_rows(self.csv_path, self.history)
        plot_learning_curve(self.history, self.png_path, title=self.title, steps=self.steps)
        return self.last_rows

    def _row(self, learner: Any, name: str, opponent: Agent, steps: int, wall: float) -> EvalRow:
        before = getattr(learner, "illegal_predictions", 0)
        results = evaluate_against(self.plan.game, learner, opponent, self.games, self.seed, name)
        illegal = getattr(learner, "illegal_predictions", 0) - before
        return eval_row(steps, wall, name, results, illegal=illegal, train_illegal=self.train_illegal)

    def status(self) -> str:
        """The latest win rates, for the progress bar."""
        return " ".join(f"{row.opponent} {row.win_rate:.2f}" for row in self.last_rows)

    def result_fields(self, steps: int) -> dict[str, Any]:
        """The :class:`RunResult` fields of the run now, at ``steps``."""
        return {
            "out": self.plan.out,
            "eval_csv": self.csv_path,
            "curve_png": self.png_path,
            "steps": steps,
            "wall_seconds": self.wall_seconds(),
            "final_eval": self.last_rows,
            "train_illegal": self.train_illegal,
        }


def best_score(rows: list[EvalRow]) -> float:
    """The highest mean win rate over the evaluation opponents among the evaluations in ``rows`` (-1: none)."""
    by_steps: dict[int, list[float]] = {}
    for row in rows:
        by_steps.setdefault(row.steps, []).append(row.win_rate)
    return max((sum(rates) / len(rates) for rates in by_steps.values()), default=-1.0)


def crossed(before: int, after: int, every: int) -> bool:
    """Whether a multiple of ``every`` lies in ``(before, after]`` (a periodic job is due)."""
    return after // every > before // every


def run_title(settings: Any, what: str) -> str:
    """The learning curve's title: ``<game> (<config>), <what>, seed <seed>``."""
    config = " ".join(settings.config) or "default config"
    return f"{settings.game} ({config}), {what}, seed {settings.seed}"


__all__ = ["EvalLog", "RunResult", "best_score", "crossed", "run_title"]
