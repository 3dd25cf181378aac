"""The one plotting module: the figure primitives every picture of the project shares, and the pictures drawn for
the scripts.

Matplotlib is imported only when a picture is drawn, with the ``Agg`` backend (files, never a window). Every
picture is written by :func:`save`: atomically (a kill leaves the old file or the new one), in the format the
path's suffix names (PNG by default), at a stated dpi, and the figure is closed afterwards.

The primitives:

- :func:`subplots` (a pyplot figure and its axes) and :func:`constrained_figure` (a figure with the constrained
  layout, no pyplot state);
- :func:`line_with_band`: a line with its 95% interval as a band (learning curves);
- :func:`bars_with_intervals`: bars with asymmetric error bars (win rates with their intervals);
- :func:`heatmap_table`: a table of rates as a clipped colour map with the numbers written in (pairwise results);
- :func:`save`.

The pictures take plain rows (anything with the named attributes or keys), so this module imports nothing of
the project above :mod:`baselines.runs`: learners, games, arena and scripts call it, never the other way round.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from baselines.runs import atomic_write

DPI = 100
"""The default resolution of a saved picture (matplotlib's own figure dpi)."""


# -- primitives ---------------------------------------------------------------------------------------------------
def pyplot() -> Any:
    """``matplotlib.pyplot`` on the ``Agg`` backend (imported on first use)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def subplots(nrows: int = 1, ncols: int = 1, **options: Any) -> tuple[Any, Any]:
    """``(figure, axes)`` of a new pyplot figure (``options``: ``figsize``, ``sharex``, ...); :func:`save`
    closes it."""
    return pyplot().subplots(nrows, ncols, **options)


def constrained_figure(width: float, height: float) -> Any:
    """A new ``matplotlib.figure.Figure`` of ``width`` x ``height`` inches with the constrained layout; it holds
    no global pyplot state (nothing to close)."""
    from matplotlib.figure import Figure

    return Figure(figsize=(width, height), layout="constrained")


def save(figure: Any, path: str | Path, *, dpi: float = DPI, tight: bool = False) -> Path:
    """Write ``figure`` to ``path`` atomically, in the format of its suffix (PNG without one), and close it if
    pyplot made it. ``tight``: apply ``tight_layout`` first. Returns ``path``."""
    if tight:
        figure.tight_layout()
    image_format = Path(path).suffix.lstrip(".").lower() or "png"
    written = atomic_write(path, lambda temporary: figure.savefig(temporary, dpi=dpi, format=image_format))
    if getattr(figure, "number", None) is not None:
        pyplot().close(figure)
    return written


def line_with_band(
    axes: Any,
    x: Sequence[float],
    values: Sequence[float],
    low: Sequence[float],
    high: Sequence[float],
    *,
    label: str | None = None,
    color: Any = None,
    band_alpha: float = 0.2,
    band_edge: bool = False,
    band_label: str | None = None,
) -> Any:
    """A line with round markers through ``values`` and the band ``low``-``high`` in its colour (``band_edge``:
    draw the band's outline too); returns the colour (pass it on to keep one series one colour)."""
    options = {} if color is None else {"color": color}
    line = axes.plot(x, values, marker="o", markersize=3, label=label, **options)[0]
    band: dict[str, Any] = {} if band_edge else {"linewidth": 0}
    if band_label is not None:
        band["label"] = band_label
    axes.fill_between(x, low, high, color=line.get_color(), alpha=band_alpha, **band)
    return line.get_color()


def bars_with_intervals(
    axes: Any, x: Any, rates: Sequence[float], low: Sequence[float], high: Sequence[float], **bar_options: Any
) -> Any:
    """Bars of ``rates`` at ``x`` (positions or labels) with asymmetric error bars down to ``low`` and up to
    ``high``; ``bar_options`` go to ``axes.bar`` (``width``, ``capsize``, ``color``, ``label``, ...)."""
    errors = [[rate - bottom for rate, bottom in zip(rates, low)], [top - rate for rate, top in zip(rates, high)]]
    return axes.bar(x, rates, yerr=errors, **bar_options)


def heatmap_table(
    figure: Any,
    axes: Any,
    table: np.ndarray,
    row_labels: Sequence[str],
    column_labels: Sequence[str],
    *,
    clip: tuple[float, float],
    colorbar_label: str,
) -> None:
    """``table`` (rates; NaN: empty) as a red-yellow-green colour map saturating outside ``clip``, with each
    cell's percentage written in and a colour bar."""
    image = axes.imshow(np.ma.masked_invalid(table), vmin=clip[0], vmax=clip[1], cmap="RdYlGn")
    axes.set_xticks(range(len(column_labels)), column_labels, fontsize=8)
    axes.set_yticks(range(len(row_labels)), row_labels, fontsize=8)
    for (row, column), rate in np.ndenumerate(table):
        if not np.isnan(rate):
            axes.text(column, row, f"{100 * rate:.1f}", ha="center", va="center", color="black", fontsize=9)
    figure.colorbar(image, ax=axes, shrink=0.8, label=colorbar_label)


def win_rate_axes(axes: Any, ylabel: str, title: str | None = None) -> None:
    """A win-rate axis: 0 to 1, its label and (if given) its title."""
    axes.set_ylim(0, 1)
    axes.set_ylabel(ylabel)
    if title is not None:
        axes.set_title(title)


# -- learning curves ----------------------------------------------------------------------------------------------
def plot_runs(path: Path, runs: Mapping[str, Sequence[Any]], opponent: str, title: str) -> Path:
    """Win rate against ``opponent`` over training steps, one line and 95% band per run (rows with ``steps``,
    ``win_rate``, ``ci_low``, ``ci_high``: :class:`~baselines.learners.evaluation.EvalRow`)."""
    figure, axes = subplots(figsize=(7, 4.5))
    for name, rows in runs.items():
        values, low, high = ([getattr(row, column) for row in rows] for column in ("win_rate", "ci_low", "ci_high"))
        x = [row.steps for row in rows]
        line_with_band(axes, x, values, low, high, label=name, band_alpha=0.12, band_edge=True)
    axes.set_ylim(0, 1)
    axes.set_xlabel("training steps")
    axes.set_ylabel(f"win rate vs {opponent} (95% CI)")
    axes.set_title(title)
    axes.legend()
    return save(figure, path, tight=True)


def _evaluated(history: Sequence[Any]) -> list[Any]:
    return [point for point in history if not math.isnan(point.eval_score)]


def plot_qlnn_history(history: Sequence[Any], path: Path, title: str) -> Path:
    """Evaluation score with its 95% band, and the training score, against episodes (QLNN's training points:
    ``episode``, ``eval_score``, ``eval_low``, ``eval_high``, ``train_score``; NaN: not measured)."""
    figure, axis = subplots(figsize=(7, 4.2))
    points = _evaluated(history)
    x = [point.episode for point in points]
    scores, low, high = ([getattr(p, name) for p in points] for name in ("eval_score", "eval_low", "eval_high"))
    line_with_band(axis, x, scores, low, high, label="greedy network", band_label="95% Wilson interval")
    trained = [point for point in history if not math.isnan(point.train_score)]
    axis.plot([p.episode for p in trained], [p.train_score for p in trained], linestyle=":", label="training score")
    axis.axhline(0.5, color="grey", linestyle="--")
    axis.set_ylim(-0.02, 1.02)
    axis.set_xlabel("training episodes")
    axis.set_ylabel("score (wins + draws/2)")
    axis.grid(alpha=0.3)
    axis.legend(loc="lower right")
    axis.set_title(title, fontsize=9)
    return save(figure, path, tight=True)


def plot_tabular_q_history(history: Sequence[Any], path: Path, title: str, num_players: int) -> Path:
    """The evaluation score (95% band) and the share of moves the table decided (left), the table size (right),
    against episodes (tabular Q's training points: ``episode``, ``states`` and the ``eval_*`` fields)."""
    figure, (left, right) = subplots(1, 2, figsize=(11, 4.2))
    evaluated = _evaluated(history)
    if evaluated:
        x = [point.episode for point in evaluated]
        scores, low, high = ([getattr(p, name) for p in evaluated] for name in ("eval_score", "eval_low", "eval_high"))
        line_with_band(left, x, scores, low, high, label="greedy agent", band_label="95% Wilson interval")
        informed = [point.eval_informed for point in evaluated]
        left.plot(x, informed, color="tab:green", linestyle=":", label="share of its moves decided by the table")
    left.axhline(1 / num_players, color="grey", linestyle="--", label=f"1/{num_players} (equal strength, no draws)")
    left.set_ylim(-0.02, 1.02)
    left.set_xlabel("training episodes")
    left.set_ylabel("score vs evaluation opponent (draws half)")
    left.legend(loc="lower right")
    right.plot([point.episode for point in history], [point.states for point in history], marker="o", markersize=3)
    right.set_xlabel("training episodes")
    right.set_ylabel("states in the table")
    for axis in (left, right):
        axis.grid(alpha=0.3)
    figure.suptitle(title)
    return save(figure, path, tight=True)


def moving_average(values: np.ndarray, window: int) -> np.ndarray:
    """Mean of each trailing window of ``min(window, len)`` values (one value per full window)."""
    window = max(1, min(window, len(values)))
    sums = np.cumsum(np.insert(values.astype(float), 0, 0.0))
    return (sums[window:] - sums[:-window]) / window


def plot_moving_win_rate(wins: np.ndarray, window: int, path: Path, title: str) -> Path:
    """The moving-window win rate (of per-game ``wins``, 1 or 0) against games played, with the 1/4 line."""
    curve = moving_average(wins, window)
    figure, axes = subplots(figsize=(7, 4))
    axes.plot(np.arange(len(wins) - len(curve) + 1, len(wins) + 1), curve, label=f"win rate ({window}-game window)")
    axes.axhline(0.25, color="grey", linestyle="--", label="1/4 (random level)")
    axes.set_xlabel("training games")
    axes.set_ylabel("win rate (exploring)")
    axes.set_title(title)
    axes.legend()
    return save(figure, path, tight=True)


def plot_evolution(history: Sequence[Any], path: Path, title: str) -> Path:
    """Win rate and mean final tile / 54 of the chosen candidate (top), and its hidden nodes (bottom), per
    generation (rows with ``generation``, ``wins``, ``runs``, ``mean_tile``, ``nodes``)."""
    generations = [row.generation for row in history]
    figure, (top, bottom) = subplots(2, 1, figsize=(8, 6), sharex=True)
    top.plot(generations, [row.wins / row.runs for row in history], label="win rate on the generation's games")
    top.plot(generations, [row.mean_tile / 54 for row in history], label="mean final tile / 54")
    top.axhline(0.25, color="grey", linestyle="--", label="1/4 (random level, 4 players)")
    top.set_ylabel("chosen candidate")
    top.set_title(title)
    top.legend(fontsize=8)
    bottom.plot(generations, [row.nodes for row in history], color="tab:green")
    bottom.set_ylabel("hidden nodes")
    bottom.set_xlabel("generation")
    return save(figure, path, tight=True)


# -- win-rate bars ------------------------------------------------------------------------------------------------
def plot_grouped_win_rates(
    panels: Mapping[str, Mapping[str, Sequence[tuple[str, float, float, float]]]], path: Path
) -> Path:
    """One panel per title; in each, bars grouped by series (``{series: [(label, rate, low, high), ...]}``), two
    bars side by side per label, the 1/4 line (Gravwell's 4-player random level)."""
    figure, axes = subplots(1, len(panels), figsize=(5 * len(panels), 4), squeeze=False)
    for ax, (title, groups) in zip(axes[0], panels.items()):
        for offset, (series, bars) in enumerate(groups.items()):
            if not bars:
                continue
            xs = [index + 0.4 * offset for index in range(len(bars))]
            rates, low, high = [bar[1] for bar in bars], [bar[2] for bar in bars], [bar[3] for bar in bars]
            bars_with_intervals(ax, xs, rates, low, high, width=0.4, capsize=3, label=series)
            ax.set_xticks([index + 0.2 for index in range(len(bars))], [bar[0] for bar in bars], rotation=30)
        ax.axhline(0.25, color="grey", linestyle="--")
        ax.set_title(title)
        ax.set_ylabel("win rate")
        ax.legend()
    return save(figure, path, tight=True)


def plot_match_win_rates(bars: Sequence[tuple[str, float, float, float]], path: Path, title: str) -> Path:
    """One bar per match (``(label, rate, low, high)``) with its interval, and the 50% line."""
    figure = constrained_figure(1.6 + 1.5 * len(bars), 3.6)
    axes = figure.subplots()
    rates, low, high = [bar[1] for bar in bars], [bar[2] for bar in bars], [bar[3] for bar in bars]
    bars_with_intervals(axes, [bar[0] for bar in bars], rates, low, high, capsize=6, color="tab:blue", alpha=0.8)
    axes.axhline(0.5, color="gray", linestyle="--", linewidth=1)
    axes.set_ylim(0, 1)
    axes.set_ylabel("win rate, Wilson 95% CI")
    axes.set_title(title, fontsize=9)
    return save(figure, path, dpi=90)


def plot_paired_win_rates(
    labels: Sequence[str], series: Sequence[tuple[str, str, Sequence[float], Sequence[float], Sequence[float]]],
    path: Path, title: str, ylabel: str, chance: float,
) -> Path:  # fmt: skip
    """Two bars per label, one per series ``(name, colour, rates, lows, highs)``, each with its interval, and
    the ``chance`` line."""
    figure = constrained_figure(8.0, 4.0)
    axes = figure.subplots()
    x = np.arange(len(labels))
    for offset, (name, color, rates, low, high) in zip((-0.2, 0.2), series):
        rates, low, high = np.asarray(rates), np.asarray(low), np.asarray(high)
        axes.bar(x + offset, rates, 0.4, yerr=[rates - low, high - rates], capsize=4, color=color, label=name)
    axes.axhline(chance, color="black", linewidth=0.8, linestyle=":", label=f"1 in {round(1 / chance)}")
    axes.set_xticks(x, list(labels))
    axes.set_ylim(0, 1)
    axes.set_ylabel(ylabel)
    axes.set_title(title)
    axes.legend()
    return save(figure, path)


def plot_rates_by_setup(rates: Mapping[int, Sequence[float]], setups: Sequence[str], path: Path, title: str) -> Path:
    """Bars of games/s per setup, one bar per worker count side by side (``{workers: [rate per setup]}``)."""
    figure, axes = subplots(figsize=(7, 4))
    for offset, (workers, values) in enumerate(rates.items()):
        axes.bar([index + 0.4 * offset for index in range(len(setups))], values, width=0.4, label=f"{workers} workers")
    axes.set_xticks([index + 0.2 for index in range(len(setups))], list(setups))
    axes.set_ylabel("games/s (median of rounds)")
    axes.set_title(title)
    axes.legend()
    return save(figure, path, tight=True)


# -- learning curves of training runs -----------------------------------------------------------------------------
def wall_time_unit(longest_seconds: float) -> tuple[str, float]:
    """``(name, seconds)`` of the unit that suits a wall-time axis reaching ``longest_seconds``."""
    if longest_seconds < 120:
        return "seconds", 1.0
    if longest_seconds < 3 * 3600:
        return "minutes", 60.0
    return "hours", 3600.0


def plot_learning_curve(rows: Sequence[Any], path: str | Path, title: str = "", steps: str = "training steps") -> Path:
    """A training run's evaluations (rows with ``steps``, ``wall_seconds``, ``opponent``, ``win_rate``, ``ci_low``,
    ``ci_high``): win rate with its 95% band against ``steps`` (what the family counts: ``"iterations"``, ...) and
    against wall time, one line per opponent."""
    unit, seconds_per_unit = wall_time_unit(max((row.wall_seconds for row in rows), default=0.0))
    figure, axes = subplots(1, 2, figsize=(11, 4.2), sharey=True)
    for opponent in dict.fromkeys(row.opponent for row in rows):
        mine = sorted((row for row in rows if row.opponent == opponent), key=lambda row: row.steps)
        for axis, x_of in zip(axes, (lambda row: row.steps, lambda row: row.wall_seconds / seconds_per_unit)):
            x = [x_of(row) for row in mine]
            line = axis.plot(x, [row.win_rate for row in mine], marker="o", markersize=3, label=opponent)[0]
            low, high = [row.ci_low for row in mine], [row.ci_high for row in mine]
            axis.fill_between(x, low, high, color=line.get_color(), alpha=0.2, linewidth=0)
    _label_learning_axes(axes, title, unit, steps)
    return save(figure, path, dpi=110, tight=True)


def _label_learning_axes(axes: Any, title: str, unit: str, steps: str) -> None:
    axes[0].set_xlabel(steps)
    axes[1].set_xlabel(f"wall time ({unit})")
    axes[0].set_ylabel("win rate (draws count half), 95% CI")
    for axis in axes:
        axis.set_ylim(-0.02, 1.02)
        axis.grid(alpha=0.3)
    axes[0].legend(title="opponent", loc="lower right")
    if title:
        axes[0].figure.suptitle(title)


def _scores_against(rows: Sequence[Mapping[str, Any]], label: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Training minutes, scores and error bars of the AlphaZero history rows evaluated against ``label``."""
    rows = [row for row in rows if float(row.get(f"vs_{label}", -1)) >= 0]
    minutes = np.array([float(row["elapsed_seconds"]) / 60 for row in rows])
    scores = np.array([float(row[f"vs_{label}"]) for row in rows])
    low = np.array([float(row[f"vs_{label}_low"]) for row in rows])
    high = np.array([float(row[f"vs_{label}_high"]) for row in rows])
    return minutes, scores, np.array([scores - low, high - scores]).reshape(2, -1)


def plot_alphazero_run(path: Path, rows: Sequence[Mapping[str, Any]], opponents: Sequence[str], title: str) -> Path:
    """An AlphaZero run's history: losses (with ``ln(legal moves)``, a uniform policy's loss) per iteration, and the
    scores against each evaluation opponent with 95% intervals over training minutes."""
    figure, (left, right) = subplots(1, 2, figsize=(11, 4))
    x = [int(row["iteration"]) for row in rows]
    for column, label in (("policy_loss", "policy loss"), ("value_loss", "value loss"), ("score_loss", "score loss")):
        left.plot(x, [float(row[column]) for row in rows], marker="o", label=label)
    left.plot(x, [float(row["log_legal"]) for row in rows], linestyle="--", color="grey", label="ln(legal moves)")
    left.set_xlabel("iteration")
    left.legend()
    plotted = False
    for label in opponents:
        minutes, scores, errors = _scores_against(rows, label)
        if len(minutes):
            right.errorbar(minutes, scores, yerr=errors, marker="o", capsize=3, label=f"vs {label}")
            plotted = True
    right.set_ylim(0, 1)
    right.set_xlabel("training minutes (self-play + training)")
    right.set_ylabel("score (95% CI)")
    if plotted:
        right.legend()
    figure.suptitle(title)
    return save(figure, path, tight=True)


def plot_alphazero_comparison(
    path: Path, runs: Mapping[str, Sequence[Mapping[str, Any]]], opponent: str, title: str
) -> Path:
    """Score against ``opponent`` over training minutes, one line per AlphaZero run (e.g. PUCT and Gumbel)."""
    figure, axes = subplots(figsize=(7, 4.5))
    for name, rows in runs.items():
        minutes, scores, errors = _scores_against(rows, opponent)
        axes.errorbar(minutes, scores, yerr=errors, marker="o", capsize=3, label=name)
    axes.set_ylim(0, 1)
    axes.set_xlabel("training minutes (self-play + training)")
    axes.set_ylabel(f"score vs {opponent} (95% CI)")
    axes.set_title(title)
    axes.legend()
    return save(figure, path, tight=True)


def plot_ntbea_history(
    fitness: Sequence[float], estimates: Sequence[tuple[int, float]], path: str | Path, window: int = 20
) -> Path:
    """An NTBEA run: each evaluation's fitness, its running mean over ``window`` evaluations, and the model's
    estimate of the recommendation (``(evaluation, value)`` pairs)."""
    values = np.asarray(fitness, dtype=float)
    x = np.arange(1, len(values) + 1)
    figure = constrained_figure(7.0, 3.8)
    axes = figure.subplots()
    axes.scatter(x, values, s=6, alpha=0.35, color="tab:gray", label="fitness")
    running = np.convolve(values, np.ones(window), "valid") / window if len(values) >= window else values
    axes.plot(x[len(x) - len(running) :], running, color="tab:blue", label=f"running mean ({window})")
    steps, estimated = zip(*estimates) if estimates else ((), ())
    axes.plot(steps, estimated, color="tab:red", label="model estimate of the recommendation")
    axes.set_xlabel("evaluation")
    axes.set_ylabel("fitness")
    axes.legend(loc="best", fontsize=8)
    return save(figure, path, dpi=90)


__all__ = [
    "DPI",
    "bars_with_intervals",
    "constrained_figure",
    "heatmap_table",
    "line_with_band",
    "moving_average",
    "plot_alphazero_comparison",
    "plot_alphazero_run",
    "plot_evolution",
    "plot_grouped_win_rates",
    "plot_learning_curve",
    "plot_match_win_rates",
    "plot_ntbea_history",
    "plot_moving_win_rate",
    "plot_paired_win_rates",
    "plot_qlnn_history",
    "plot_rates_by_setup",
    "plot_runs",
    "plot_tabular_q_history",
    "pyplot",
    "save",
    "subplots",
    "wall_time_unit",
    "win_rate_axes",
]
