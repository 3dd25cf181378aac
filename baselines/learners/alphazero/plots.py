"""Plots of AlphaZero runs: one run's learning curve, and several runs' scores against training time."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from baselines.learners.alphazero.network import atomic_write


def _pyplot() -> Any:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _measured(rows: Sequence[Mapping[str, Any]], label: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Training minutes, scores and error bars of the rows evaluated against ``label``."""
    rows = [row for row in rows if float(row.get(f"vs_{label}", -1)) >= 0]
    minutes = np.array([float(row["elapsed_seconds"]) / 60 for row in rows])
    scores = np.array([float(row[f"vs_{label}"]) for row in rows])
    low = np.array([float(row[f"vs_{label}_low"]) for row in rows])
    high = np.array([float(row[f"vs_{label}_high"]) for row in rows])
    return minutes, scores, np.array([scores - low, high - scores]).reshape(2, -1)


def plot_run(path: Path, rows: Sequence[Mapping[str, Any]], opponents: Sequence[str], title: str) -> Path:
    """Losses (with ``ln(legal moves)``, a uniform policy's loss) per iteration, and the scores against each
    evaluation opponent with 95% intervals over training minutes."""
    plt = _pyplot()
    figure, (left, right) = plt.subplots(1, 2, figsize=(11, 4))
    x = [int(row["iteration"]) for row in rows]
    for column, label in (("policy_loss", "policy loss"), ("value_loss", "value loss"), ("score_loss", "score loss")):
        left.plot(x, [float(row[column]) for row in rows], marker="o", label=label)
    left.plot(x, [float(row["log_legal"]) for row in rows], linestyle="--", color="grey", label="ln(legal moves)")
    left.set_xlabel("iteration")
    left.legend()
    plotted = False
    for label in opponents:
        minutes, scores, errors = _measured(rows, label)
        if len(minutes):
            right.errorbar(minutes, scores, yerr=errors, marker="o", capsize=3, label=f"vs {label}")
            plotted = True
    right.set_ylim(0, 1)
    right.set_xlabel("training minutes (self-play + training)")
    right.set_ylabel("score (95% CI)")
    if plotted:
        right.legend()
    figure.suptitle(title)
    figure.tight_layout()
    atomic_write(path, lambda temporary: figure.savefig(temporary, dpi=100, format="png"))
    plt.close(figure)
    return path


def plot_comparison(path: Path, runs: Mapping[str, Sequence[Mapping[str, Any]]], opponent: str, title: str) -> Path:
    """Score against ``opponent`` over training minutes, one line per run (e.g. PUCT and Gumbel)."""
    plt = _pyplot()
    figure, axes = plt.subplots(figsize=(7, 4.5))
    for name, rows in runs.items():
        minutes, scores, errors = _measured(rows, opponent)
        axes.errorbar(minutes, scores, yerr=errors, marker="o", capsize=3, label=name)
    axes.set_ylim(0, 1)
    axes.set_xlabel("training minutes (self-play + training)")
    axes.set_ylabel(f"score vs {opponent} (95% CI)")
    axes.set_title(title)
    axes.legend()
    figure.tight_layout()
    atomic_write(path, lambda temporary: figure.savefig(temporary, dpi=100, format="png"))
    plt.close(figure)
    return path
