"""The tournament picture: win rates with 95% intervals and the pairwise win-rate heatmap.

Drawn with the primitives of :mod:`baselines.plots` on a constrained-layout figure (no pyplot state, nothing
shown on screen).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from baselines.plots import bars_with_intervals, constrained_figure, heatmap_table, save, win_rate_axes


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
    count = len(result.names)
    lines = max(len(_label(name).splitlines()) for name in result.names)
    figure = constrained_figure(4.0 + 2.4 * count, 3.5 + 0.35 * count + 0.3 * lines)
    bars, heatmap = figure.subplots(1, 2)
    _draw_win_rates(bars, result)
    _draw_pairwise(figure, heatmap, result)
    figure.suptitle(f"{result.game_name}: {len(result.records)} games")
    save(figure, path)


def _label(name: str) -> str:
    """An agent spec on several lines, one setting per line (``mcts:seconds=1`` -> ``mcts\nseconds=1``)."""
    return name.replace(":", "\n")


def _draw_win_rates(axes: Any, result: ResultView) -> None:
    """Bars of each agent's win rate (best Elo first) with asymmetric 95% Wilson error bars."""
    ranking = result.ranking()
    rates = [stats.win_rate for stats in ranking]
    low, high = [stats.ci_low for stats in ranking], [stats.ci_high for stats in ranking]
    labels = [f"{_label(stats.name)}\nElo {stats.elo:.0f}" for stats in ranking]
    bars_with_intervals(axes, labels, rates, low, high, capsize=6, color="tab:blue", alpha=0.8)
    win_rate_axes(axes, "win rate (draw = 1/2), 95% CI", "win rate")


def _draw_pairwise(figure: Any, axes: Any, result: ResultView) -> None:
    """Heatmap of the row agent's win rate against the column agent, plus an ``avg`` column (the mean over the
    opponents met). As in Figure 4 of seed 002, the colours saturate below 30% and above 70% so differences
    around 50% stand out; the numbers are written in every cell."""
    rates = result.pairwise_win_rate
    with np.errstate(invalid="ignore"):
        average = np.array([np.nanmean(row) if np.isfinite(row).any() else np.nan for row in rates])
    table = np.column_stack([rates, average])
    labels = [_label(name) for name in result.names]
    clipped = "win rate (clipped to 30-70%)"
    heatmap_table(figure, axes, table, labels, [*labels, "avg"], clip=(0.3, 0.7), colorbar_label=clipped)
    axes.axvline(len(result.names) - 0.5, color="black", linewidth=1.5)
    axes.set_title("win % of row agent vs column agent")
