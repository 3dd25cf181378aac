"""The benchmark's outputs over training seeds (:mod:`.aggregate` does the statistics).

Seed ``s`` of a benchmark is a whole table in ``<out>/seed_<s>/`` (its own ``benchmark.csv``, ``benchmark.md`` and
curves, as a single-seed run writes them). Over the seeds found there, :func:`write_seed_outputs` writes into
``<out>``: ``aggregate.csv`` (every cell and learner, per opponent: runs, IQM, its interval and the seeds' scores),
``aggregate.md`` (the table of the results page), ``profiles.png`` (performance profiles per learner) and
``curves_<game>.png`` (each cell's learning curve as the IQM over seeds with its band).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Collection, Mapping, Sequence
from pathlib import Path
from typing import Any

from baselines import plots
from baselines.benchmark.aggregate import (
    ROLES,
    TAUS,
    Aggregate,
    cell_aggregates,
    curve_band,
    learner_aggregates,
    performance_profile,
    run_scores,
)
from baselines.benchmark.curves import learning_curve, style_curve_axes
from baselines.benchmark.report import duration_text, finished_results
from baselines.benchmark.table import SCRIPTED, Cell
from baselines.runs import atomic_write_text

AGGREGATE_COLUMNS = ("game", "learner", "role", "runs", "iqm", "low", "high", "scores")


def seed_folders(out: Path) -> list[Path]:
    """The seed folders of a benchmark (``<out>/seed_<s>``), by seed."""
    return sorted((path for path in out.glob("seed_*") if path.is_dir()), key=lambda path: int(path.name[5:]))


def seed_results(out: Path, table: Sequence[Cell]) -> list[dict[str, Any]]:
    """Every finished run of every seed, each with the folder of its seed (``"seed_folder"``)."""
    folders = seed_folders(out)
    return [{**result, "seed_folder": str(folder)} for folder in folders for result in finished_results(folder, table)]


def write_seed_outputs(
    out: Path, table: Sequence[Cell], budget: str, games: Collection[str] | None = None
) -> list[Path]:
    """Write the aggregate files of every seed finished in ``out`` (the curves of ``games`` only, where given: those
    whose results changed); return them (none before the first run)."""
    results = seed_results(out, table)
    if not results:
        return []
    aggregates = cell_aggregates(results) + learner_aggregates(results)
    written = [
        atomic_write_text(out / "aggregate.csv", aggregate_csv(aggregates)),
        atomic_write_text(out / "aggregate.md", aggregate_markdown(table, results, aggregates, budget)),
        plot_profiles(out / "profiles.png", results, budget),
    ]
    for game in dict.fromkeys(result["game"] for result in results if games is None or result["game"] in games):
        written.append(plot_seed_curves(out / f"curves_{game}.png", [r for r in results if r["game"] == game], budget))
    return written


def aggregate_csv(aggregates: Sequence[Aggregate]) -> str:
    """``aggregate.csv``: one row per cell (or learner across games) and opponent role."""
    text = io.StringIO()
    writer = csv.writer(text, lineterminator="\n")
    writer.writerow(AGGREGATE_COLUMNS)
    for a in aggregates:
        scores = " ".join(f"{score:.3f}" for score in a.scores)
        writer.writerow([a.game, a.learner, a.role, a.runs, f"{a.iqm:.3f}", f"{a.low:.3f}", f"{a.high:.3f}", scores])
    return text.getvalue()


def aggregate_markdown(
    table: Sequence[Cell], results: Sequence[Mapping[str, Any]], aggregates: Sequence[Aggregate], budget: str
) -> str:
    """The results table: each cell's seeds, mean training time and IQM [95% CI] against both opponents, then each
    learner across games."""
    by_key = {(a.game, a.learner, a.role): a for a in aggregates}
    lines = [
        f"Benchmark over seeds, budget `{budget}`: the IQM of the seeds' final win rates (draws half) with a 95% "
        "stratified bootstrap interval; a seed's score is its final evaluation on fresh seeds, seats rotated.",
        "",
        "| game | config | learner | seeds | training time (mean) | vs random: IQM [95% CI] "
        "| vs scripted: IQM [95% CI] |",
        "|---|---|---|---:|---:|---|---|",
    ]
    for cell in table:
        mine = [r for r in results if r["game"] == cell.game and r["learner"] == cell.learner]
        if not mine:
            continue
        seconds = sum(r["train_seconds"] for r in mine) / len(mine)
        scores = " | ".join(_interval(by_key[(cell.game, cell.learner, role)]) for role in ROLES)
        config = " ".join(cell.config) or "default"
        time_text = duration_text(seconds)
        lines.append(f"| {cell.game} | {config} | {cell.learner} | {len(mine)} | {time_text} | {scores} |")
    lines += ["", "| learner, all games | runs | vs random: IQM [95% CI] | vs scripted: IQM [95% CI] |"]
    lines.append("|---|---:|---|---|")
    for learner in dict.fromkeys(a.learner for a in aggregates if a.game == "all"):
        runs = by_key[("all", learner, "random")].runs
        scores = " | ".join(_interval(by_key[("all", learner, role)]) for role in ROLES)
        lines.append(f"| {learner} | {runs} | {scores} |")
    return "\n".join(lines) + "\n"


def plot_profiles(path: Path, results: Sequence[Mapping[str, Any]], budget: str) -> Path:
    """``profiles.png``: per learner, the share of its runs (all games) scoring above each threshold, with bands."""
    figure, axes = plots.subplots(1, 2, figsize=(11, 4.2), sharey=True)
    for axis, role in zip(axes, ROLES):
        by_learner: dict[str, list[list[float]]] = {}
        for (_, learner), scores in run_scores(results, role).items():
            by_learner.setdefault(learner, []).append(scores)
        for learner, strata in by_learner.items():
            fraction, low, high = performance_profile(strata)
            plots.line_with_band(axis, TAUS, fraction, low, high, label=learner, band_alpha=0.15)
        axis.set_title(f"vs {role if role == 'random' else 'the scripted agent'}")
        axis.set_xlabel("win rate threshold tau")
        axis.grid(alpha=0.3)
    axes[0].set_ylabel("fraction of runs with score > tau")
    axes[1].legend(loc="best", fontsize=8)
    figure.suptitle(f"Performance profiles, all games ({budget} budget; 95% stratified bootstrap bands)")
    return plots.save(figure, path, dpi=110, tight=True)


def plot_seed_curves(path: Path, results: Sequence[Mapping[str, Any]], budget: str) -> Path:
    """``curves_<game>.png``: each learner's curve as the IQM over its seeds with a 95% bootstrap band."""
    figure, axes = plots.subplots(1, 2, figsize=(12, 4.4), sharey=True)
    for learner in dict.fromkeys(result["learner"] for result in results):
        mine = [result for result in results if result["learner"] == learner]
        color = None
        for axis, role in zip(axes, ROLES):
            curves = [_role_curve(result, role) for result in mine]
            curves = [curve for curve in curves if curve]
            if not curves:
                continue
            band = curve_band(curves)
            label = f"{learner} ({len(curves)} seeds)"
            color = plots.line_with_band(
                axis, band.minutes, band.iqm, band.low, band.high, label=label, color=color, band_alpha=0.15
            )
    game = results[0]["game"]
    style_curve_axes(axes, SCRIPTED[game], "training wall time (min)", "win rate: IQM over seeds, 95% band")
    figure.suptitle(f"{game}: learning curves over seeds ({budget} budget)")
    return plots.save(figure, path, dpi=110, tight=True)


def _role_curve(result: Mapping[str, Any], role: str) -> list[tuple[float, float]]:
    points = learning_curve(Path(result["seed_folder"]) / result["cell"], result)
    return sorted((point.minutes, point.win_rate) for point in points if point.role == role)


def _interval(aggregate: Aggregate) -> str:
    return f"{aggregate.iqm:.2f} [{aggregate.low:.2f}, {aggregate.high:.2f}]"


__all__ = ["aggregate_csv", "aggregate_markdown", "seed_folders", "seed_results", "write_seed_outputs"]
