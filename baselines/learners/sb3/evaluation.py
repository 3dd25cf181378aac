"""Evaluation of a learning agent with the arena, the ``eval.csv`` log and the learning-curve plot.

:func:`~baselines.arena.evaluate_against` (re-exported here) plays seeded games with ``play_game``:
game ``i`` uses the game seed ``seeds[i // n]`` with the learner in seat ``i % n`` (``n`` players) and
the opponent agent in every other seat, so the seats rotate and every evaluation uses the same games
(common random numbers along the learning curve). The win rate counts draws as half a win; its 95%
interval is Wilson's.
"""

from __future__ import annotations

import csv
import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from baselines.arena import LEARNER_NAME, evaluate_against
from baselines.arena.ratings import wilson_interval


@dataclass(frozen=True)
class EvalRow:
    """One evaluation of the learner against one opponent: a row of ``eval.csv``.

    Attributes:
        steps: Training steps of the learner.
        wall_seconds: Training wall time when evaluated (evaluation time included).
        opponent: The opponent's name.
        games: Games played.
        wins: Games won.
        draws: Games drawn (a shared first place).
        losses: Games lost.
        win_rate: ``(wins + draws / 2) / games``.
        ci_low: Lower end of the Wilson 95% interval.
        ci_high: Upper end.
        illegal: Illegal actions the learner's model predicted (each replaced by a legal one).
        train_illegal: Illegal actions played in training so far (in this run).
    """

    steps: int
    wall_seconds: float
    opponent: str
    games: int
    wins: int
    draws: int
    losses: int
    win_rate: float
    ci_low: float
    ci_high: float
    illegal: int = 0
    train_illegal: int = 0


EVAL_COLUMNS: tuple[str, ...] = tuple(f.name for f in dataclasses.fields(EvalRow))
"""The columns of ``eval.csv``, in order."""


def eval_row(steps: int, wall_seconds: float, opponent: str, results: tuple[int, int, int], **extra: int) -> EvalRow:
    """The :class:`EvalRow` of ``(wins, draws, losses)``, with the win rate and its Wilson interval."""
    wins, draws, losses = results
    games = wins + draws + losses
    points = wins + 0.5 * draws
    low, high = wilson_interval(points, games)
    rate = points / games if games else 0.0
    return EvalRow(steps, wall_seconds, opponent, games, wins, draws, losses, rate, low, high, **extra)


# -- the CSV log ----------------------------------------------------------------------------------
def append_eval_rows(path: str | Path, rows: Sequence[EvalRow]) -> None:
    """Append ``rows`` to the CSV at ``path``, writing the header first if the file is new."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    new = not path.exists() or path.stat().st_size == 0
    with open(path, "a", newline="") as handle:
        writer = csv.writer(handle)
        if new:
            writer.writerow(EVAL_COLUMNS)
        for row in rows:
            writer.writerow([getattr(row, column) for column in EVAL_COLUMNS])


def read_eval_rows(path: str | Path) -> list[EvalRow]:
    """Every row of an ``eval.csv`` (empty if the file does not exist)."""
    path = Path(path)
    if not path.exists():
        return []
    with open(path, newline="") as handle:
        return [_parse_row(record) for record in csv.DictReader(handle)]


def _parse_row(record: dict[str, str]) -> EvalRow:
    types = {f.name: f.type for f in dataclasses.fields(EvalRow)}
    values: dict[str, Any] = {}
    for column, text in record.items():
        kind = types.get(column)
        if kind is not None:
            values[column] = text if kind == "str" else float(text) if kind == "float" else int(float(text))
    return EvalRow(**values)


# -- the plot -------------------------------------------------------------------------------------
def plot_learning_curve(rows: Sequence[EvalRow], path: str | Path, title: str = "") -> None:
    """Save a PNG: win rate (with 95% bands) against steps and against wall time, one line per opponent."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    unit, seconds_per_unit = wall_time_unit(max((row.wall_seconds for row in rows), default=0.0))
    figure, axes = plt.subplots(1, 2, figsize=(11, 4.2), sharey=True)
    for opponent in dict.fromkeys(row.opponent for row in rows):
        mine = sorted((row for row in rows if row.opponent == opponent), key=lambda row: row.steps)
        for axis, x_of in zip(axes, (lambda row: row.steps, lambda row: row.wall_seconds / seconds_per_unit)):
            x = [x_of(row) for row in mine]
            line = axis.plot(x, [row.win_rate for row in mine], marker="o", markersize=3, label=opponent)[0]
            low, high = [row.ci_low for row in mine], [row.ci_high for row in mine]
            axis.fill_between(x, low, high, color=line.get_color(), alpha=0.2, linewidth=0)
    _label_axes(axes, title, unit)
    figure.tight_layout()
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path, dpi=110)
    plt.close(figure)


def wall_time_unit(longest_seconds: float) -> tuple[str, float]:
    """``(name, seconds)`` of the unit that suits a wall-time axis reaching ``longest_seconds``."""
    if longest_seconds < 120:
        return "seconds", 1.0
    if longest_seconds < 3 * 3600:
        return "minutes", 60.0
    return "hours", 3600.0


def _label_axes(axes: Any, title: str, unit: str) -> None:
    axes[0].set_xlabel("training steps")
    axes[1].set_xlabel(f"wall time ({unit})")
    axes[0].set_ylabel("win rate (draws count half), 95% CI")
    for axis in axes:
        axis.set_ylim(-0.02, 1.02)
        axis.grid(alpha=0.3)
    axes[0].legend(title="opponent", loc="lower right")
    if title:
        axes[0].figure.suptitle(title)


__all__ = [
    "EVAL_COLUMNS",
    "EvalRow",
    "LEARNER_NAME",
    "append_eval_rows",
    "eval_row",
    "evaluate_against",
    "plot_learning_curve",
    "read_eval_rows",
]
