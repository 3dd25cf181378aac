"""The benchmark's outputs from the finished cells: ``benchmark.csv``, ``benchmark.md``, the learning-curve
pictures, and the one-line summary of a cell."""

from __future__ import annotations

import csv
import io
from collections.abc import Collection, Mapping, Sequence
from pathlib import Path
from typing import Any

from baselines.benchmark.curves import plot_game
from baselines.benchmark.jobs import read_result
from baselines.benchmark.table import Cell
from baselines.runs import atomic_write_text

CSV_COLUMNS: tuple[str, ...] = (
    "game", "config", "variant", "learner", "budget", "seed", "unit", "trained", "wall_seconds", "eval_seconds",
    "opponent", "role", "games", "wins", "draws", "losses", "win_rate", "ci_low", "ci_high", "illegal",
)  # fmt: skip
"""The columns of ``benchmark.csv`` (one row per cell and evaluation opponent; ``wall_seconds``: training)."""


def finished_results(out: Path, table: Sequence[Cell]) -> list[dict[str, Any]]:
    """The results in ``out`` of the cells of ``table``, in table order."""
    results = [read_result(out / cell.name) for cell in table]
    return [result for result in results if result is not None]


def write_outputs(out: Path, table: Sequence[Cell], budget: str, games: Collection[str] | None = None) -> list[Path]:
    """Write ``benchmark.csv``, ``benchmark.md`` and ``curve_<game>.png`` from the finished cells (the curves of
    ``games`` only, where given: those whose results changed); return them."""
    results = finished_results(out, table)
    written = [write_csv(out / "benchmark.csv", results), write_markdown(out / "benchmark.md", table, results, budget)]
    for game in dict.fromkeys(cell.game for cell in table):
        mine = [result for result in results if result["game"] == game]
        if mine and (games is None or game in games):
            written.append(plot_game(out / f"curve_{game}.png", out, mine, budget))
    return written


def write_csv(path: Path, results: Sequence[Mapping[str, Any]]) -> Path:
    """``benchmark.csv``: one row per cell and evaluation opponent."""
    text = io.StringIO()
    writer = csv.writer(text, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for result in results:
        for row in result["evaluations"]:
            role = "random" if row["opponent"] == "random" else "scripted"
            values = {**result, **row, "config": " ".join(result["config"]), "role": role,
                      "wall_seconds": round(result["train_seconds"], 1),
                      "eval_seconds": round(result["eval_seconds"], 1)}  # fmt: skip
            writer.writerow([values[column] for column in CSV_COLUMNS])
    return atomic_write_text(path, text.getvalue())


def score_text(row: Mapping[str, Any]) -> str:
    """``0.95 [0.83, 0.99]``: a win rate with its 95% interval."""
    return f"{row['win_rate']:.2f} [{row['ci_low']:.2f}, {row['ci_high']:.2f}]"


def duration_text(seconds: float) -> str:
    """``42 s``, ``3.5 min`` or ``1.2 h``."""
    if seconds < 120:
        return f"{seconds:.0f} s"
    return f"{seconds / 60:.1f} min" if seconds < 3 * 3600 else f"{seconds / 3600:.1f} h"


def markdown_row(cell: Cell, result: Mapping[str, Any] | None) -> str:
    """One line of ``benchmark.md``: the cell's training and its scores, or that it has not run yet."""
    config = " ".join(cell.config) or "default"
    head = f"| {cell.game} | {config}{f' ({cell.variant})' if cell.variant else ''} | {cell.learner} |"
    if result is None:
        return f"{head} not run yet | | | | |"
    random_row, scripted_row = result["evaluations"]
    illegal = sum(row["illegal"] for row in result["evaluations"]) + result.get("train_illegal", 0)
    flag = f"**{illegal} illegal moves**" if illegal else "0"
    trained = f"{result['trained']:,} {result['unit']}"
    scored_at = result.get("model_steps", result["trained"])
    if scored_at != result["trained"]:  # an SB3 cell scores its best checkpoint (best.zip)
        trained += f"; best at {scored_at:,}"
    scores = f"{score_text(random_row)} | {scripted_row['opponent']}: {score_text(scripted_row)}"
    return f"{head} {trained} | {duration_text(result['train_seconds'])} | {scores} | {flag} |"


def write_markdown(path: Path, table: Sequence[Cell], results: Sequence[Mapping[str, Any]], budget: str) -> Path:
    """``benchmark.md``: one table, game x learner -> training, wall time and scores with 95% intervals."""
    by_name = {result["cell"]: result for result in results}
    games = sorted({str(row["games"]) for result in results for row in result["evaluations"]})
    lines = [
        f"Benchmark, budget `{budget}`: {len(by_name)} of {len(table)} cells finished. Scores count a draw as half a "
        f"win, with Wilson 95% intervals, over {' or '.join(games) or 'no'} games per opponent on fresh seeds, seats "
        "rotated; PPO samples its policy, the other learners play their best move. Wall time: training, the run's "
        "own learning-curve evaluations included.",
        "",
        "| game | config | learner | trained | wall time | vs random [95% CI] | vs scripted [95% CI] | illegal moves |",
        "|---|---|---|---:|---:|---|---|---:|",
        *(markdown_row(cell, by_name.get(cell.name)) for cell in table),
    ]
    return atomic_write_text(path, "\n".join(lines) + "\n")


def summary(result: Mapping[str, Any]) -> str:
    """One line on a finished cell: what it trained and its scores."""
    scores = ", ".join(f"vs {row['opponent']} {score_text(row)}" for row in result["evaluations"])
    illegal = sum(row["illegal"] for row in result["evaluations"]) + result.get("train_illegal", 0)
    flag = f", {illegal} ILLEGAL MOVES" if illegal else ""
    return f"{result['trained']:,} {result['unit']} in {duration_text(result['train_seconds'])}: {scores}{flag}"
