"""Learning curves of finished cells, read from each learner's own history, and the picture of a game's
cells (``curve_<game>.png``)."""

from __future__ import annotations

import csv
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from baselines import plots
from baselines.learners.evaluation import read_eval_rows
from baselines.plots import wall_time_unit


@dataclass(frozen=True)
class CurvePoint:
    """One learning-curve evaluation of a cell: training wall minutes, opponent role and score with interval."""

    minutes: float
    role: str
    win_rate: float
    ci_low: float
    ci_high: float


def learning_curve(folder: Path, result: Mapping[str, Any]) -> list[CurvePoint]:
    """A finished cell's learning curve, read from its learner's own history and normalised: SB3's and the
    tabular cells' ``eval.csv`` (wall seconds), AlphaZero's ``history.csv`` (``elapsed_seconds``, self-play and
    training, plus the evaluations so far, so every learner's x axis counts its evaluations alike)."""
    run, scripted = folder / "run", result["scripted"]
    if result["learner"] == "alphazero":
        return _alphazero_curve(run / "history.csv", scripted)
    roles = {"random": "random", scripted: "scripted"}
    return [CurvePoint(row.wall_seconds / 60, roles[row.opponent], row.win_rate, row.ci_low, row.ci_high)
            for row in read_eval_rows(run / "eval.csv") if row.opponent in roles]  # fmt: skip


def _alphazero_curve(path: Path, scripted: str) -> list[CurvePoint]:
    from baselines.learners.alphazero.trainer import eval_columns, label_of

    if not path.is_file():
        return []
    with open(path, newline="") as handle:
        rows = list(csv.DictReader(handle))
    points, evaluating = [], 0.0
    for row in rows:
        evaluating += float(row["eval_seconds"])
        minutes = (float(row["elapsed_seconds"]) + evaluating) / 60
        for role, label in (("random", "random"), ("scripted", label_of(scripted))):
            score, low, high = (float(row.get(column, -1)) for column in eval_columns(label))
            if score >= 0:
                points.append(CurvePoint(minutes, role, score, low, high))
    return points


def plot_game(path: Path, out: Path, results: Sequence[Mapping[str, Any]], budget: str) -> Path:
    """``curve_<game>.png``: win rate against training wall time, vs random (left) and vs the scripted agent
    (right), one line with its 95% band per learner and its final evaluation as a point with an error bar."""
    figure, axes = plots.subplots(1, 2, figsize=(12, 4.4), sharey=True)
    longest = max(result["train_seconds"] for result in results)
    unit, per_unit = wall_time_unit(longest)
    for result in results:
        _plot_cell(axes, learning_curve(out / result["cell"], result), result, 60 / per_unit)
    style_curve_axes(axes, results[0]["scripted"], f"training wall time ({unit})", "win rate (draws half), 95% CI")
    figure.suptitle(f"{results[0]['game']}: benchmark ({budget} budget); points: final evaluation on fresh seeds")
    return plots.save(figure, path, dpi=110, tight=True)


def style_curve_axes(axes: Any, scripted: str, xlabel: str, ylabel: str) -> None:
    """The two panels of a game's curves: titles (vs random, vs the scripted agent), labels, limits, grid, legend."""
    for axis, title in zip(axes, ("vs random", f"vs {scripted} (scripted)")):
        axis.set_title(title)
        axis.set_xlabel(xlabel)
        axis.set_ylim(-0.02, 1.02)
        axis.grid(alpha=0.3)
    axes[0].set_ylabel(ylabel)
    axes[1].legend(loc="best", fontsize=8)


def _plot_cell(axes: Any, points: list[CurvePoint], result: Mapping[str, Any], scale: float) -> None:
    """One learner's curves (vs random, vs scripted) in one colour, and its final evaluations as diamonds."""
    label = result["learner"] + (f" ({' '.join(result['config'])})" if result.get("variant") else "")
    color = None
    for axis, role, final in zip(axes, ("random", "scripted"), result["evaluations"]):
        mine = sorted((point for point in points if point.role == role), key=lambda point: point.minutes)
        x = [point.minutes * scale for point in mine]
        values, low, high = ([getattr(point, name) for point in mine] for name in ("win_rate", "ci_low", "ci_high"))
        color = plots.line_with_band(axis, x, values, low, high, label=label, color=color, band_alpha=0.15)
        error = [[final["win_rate"] - final["ci_low"]], [final["ci_high"] - final["win_rate"]]]
        axis.errorbar([result["train_seconds"] / 60 * scale], [final["win_rate"]], yerr=error, color=color,
                      marker="D", capsize=3)  # fmt: skip
