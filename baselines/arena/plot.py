"""The tournament picture: win rates with 95% intervals and the pairwise win-rate heatmap.

Matplotlib is imported only when a picture is drawn, and only through ``matplotlib.figure.Figure``, so no
global backend is selected and nothing is shown on screen.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from baselines.runs import atomic_write


class ResultView(Protocol):
    """What the picture reads of a tournament result (:class:`baselines.arena.results.TournamentResult`)."""

    game_name: str
    names: list[str]
    records: Sequence[Any]

    @property
    def pairwise_win_rate(self) -> np.ndarray: ...

    def ranking(self) -> list[Any]: ...


def plot_tournament(result: ResultView, path: str | Path) -> None:
    """Save ``result`` as a PNG (or the format ``path``'s suffix names) at ``path``, atomically."""
    from matplotlib.figure import Figure

    count = len(result.names)
    lines = max(len(_label(name).splitlines()) for name in result.names)
    figure = Figure(figsize=(4.0 + 2.4 * count, 3.5 + 0.35 * count + 0.3 * lines), layout="constrained")
    bars, heatmap = figure.subplots(1, 2)
    _draw_win_rates(bars, result)
    _draw_pairwise(figure, heatmap, result)
    figure.suptitle(f"{result.game_name}: {len(result.records)} games")
    image_format = Path(path).suffix.lstrip(".").lower() or "png"
    atomic_write(path, lambda temporary: figure.savefig(temporary, dpi=100, format=image_format))


def _label(name: str) -> str:
    """An agent spec on several lines, one setting per line (``mcts:seconds=1`` -> ``mcts\nseconds=1``)."""
    return name.replace(":", "\n")


def _draw_win_rates(axes: Any, result: ResultView) -> None:
    """Bars of each agent's win rate (best Elo first) with asymmetric 95% Wilson error bars."""
    ranking = result.ranking()
    rates = np.array([stats.win_rate for stats in ranking])
    errors = np.array([[rate - s.ci_low, s.ci_high - rate] for rate, s in zip(rates, ranking)]).T
    labels = [f"{_label(stats.name)}\nElo {stats.elo:.0f}" for stats in ranking]
    axes.bar(labels, rates, yerr=errors, capsize=6, color="tab:blue", alpha=0.8)
    axes.set_ylim(0, 1)
    axes.set_ylabel("win rate (draw = 1/2), 95% CI")
    axes.set_title("win rate")


def _draw_pairwise(figure: Any, axes: Any, result: ResultView) -> None:
    """Heatmap of the row agent's win rate against the column agent, plus an ``avg`` column (the mean over the
    opponents met). As in Figure 4 of seed 002, the colours saturate below 30% and above 70% so differences
    around 50% stand out; the numbers are written in every cell."""
    rates = result.pairwise_win_rate
    with np.errstate(invalid="ignore"):
        average = np.array([np.nanmean(row) if np.isfinite(row).any() else np.nan for row in rates])
    table = np.column_stack([rates, average])
    image = axes.imshow(np.ma.masked_invalid(table), vmin=0.3, vmax=0.7, cmap="RdYlGn")
    rows = range(len(result.names))
    labels = [_label(name) for name in result.names]
    axes.set_xticks(range(len(result.names) + 1), [*labels, "avg"], fontsize=8)
    axes.set_yticks(rows, labels, fontsize=8)
    axes.axvline(len(result.names) - 0.5, color="black", linewidth=1.5)
    for (row, column), rate in np.ndenumerate(table):
        if not np.isnan(rate):
            axes.text(column, row, f"{100 * rate:.1f}", ha="center", va="center", color="black", fontsize=9)
    axes.set_title("win % of row agent vs column agent")
    figure.colorbar(image, ax=axes, shrink=0.8, label="win rate (clipped to 30-70%)")
