"""The periodic arena evaluation of a run, its ``eval.csv`` history, its learning curve and its result record.

:class:`EvalLog` is the part every learner's recorder shares: it builds the evaluation opponents once, keeps the
run's clock (a resumed run's wall time goes on), plays ``eval_games`` seeded, seat-rotated games of the learner
against each opponent (:func:`baselines.arena.evaluate_against`), appends the rows to the history and rewrites
``<out>/eval.csv`` and ``<out>/learning_curve.png`` atomically. The family's recorder adds what it saves (SB3's
``latest.zip``/``best.zip``, RLlib's checkpoint folders). :class:`RunResult` is what every run returns.
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
    """

    def __init__(
        self, plan: TrainPlan, game_name: str, seed: int, games: int, title: str, history: Sequence[EvalRow]
    ) -> None:
        self.plan, self.seed, self.games, self.title = plan, seed, games, title
        resumed = plan.resumed
        self.started = time.perf_counter() - (resumed.wall_seconds if resumed else 0.0)
        self.opponents: dict[str, Agent] = {name: make_agent(name, game_name, seed) for name in plan.eval_opponents}
        self.csv_path, self.png_path = plan.out / "eval.csv", plan.out / "learning_curve.png"
        self.history = list(history)
        resumed_at = resumed.steps if resumed else -1
        self.last_rows = [row for row in self.history if row.steps == resumed_at]
        self.last_steps = resumed_at if self.last_rows else -1
        self.train_illegal = 0

    def wall_seconds(self) -> float:
        """Wall time so far, earlier stretches of the run included."""
        return time.perf_counter() - self.started

    def record(self, learner: Any, steps: int) -> list[EvalRow]:
        """Evaluate ``learner`` (an agent counting its ``illegal_predictions``) at ``steps``; add the rows to
        ``eval.csv`` and redraw the plot. Returns the rows."""
        wall = self.wall_seconds()
        self.last_rows = [self._row(learner, name, opponent, steps, wall) for name, opponent in self.opponents.items()]
        self.last_steps = steps
        self.history += self.last_rows
        write_eval_rows(self.csv_path, self.history)
        plot_learning_curve(self.history, self.png_path, title=self.title)
        return self.last_rows

    def _row(self, learner: Any, name: str, opponent: Agent, steps: int, wall: float) -> EvalRow:
        before = learner.illegal_predictions
        results = evaluate_against(self.plan.game, learner, opponent, self.games, self.seed, name)
        illegal = learner.illegal_predictions - before
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
