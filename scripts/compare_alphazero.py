"""Plot several AlphaZero runs' scores against training time, side by side (e.g. PUCT and Gumbel).

    python -m scripts.compare_alphazero --runs gumbel=runs/az/nc_gumbel puct=runs/az/nc_puct --opponent greedy \
        --png docs/results/alphazero_puct_vs_gumbel.png

Reads each run's ``history.csv`` (written by ``scripts.train_alphazero``) and draws the score against
``--opponent`` (with its 95% interval) over the run's self-play and training minutes; prints the same as a table.
"""

from __future__ import annotations

import csv
from dataclasses import dataclass, field
from pathlib import Path

from baselines.plots import plot_alphazero_comparison

from ._args import OptionError, run_cli


@dataclass
class Args:
    """Plot AlphaZero runs' scores over training time."""

    runs: list[str] = field(default_factory=list)
    """Runs as name=folder pairs (each folder holds a history.csv)."""
    opponent: str = "random"
    """Evaluation opponent whose score is plotted (its history column is vs_<opponent>)."""
    png: str = "runs/alphazero_comparison.png"
    """Output plot."""
    title: str = ""
    """Plot title (default: the opponent)."""


def read_history(folder: str) -> list[dict[str, str]]:
    path = Path(folder) / "history.csv"
    if not path.is_file():
        raise FileNotFoundError(
            f"--runs: {str(path)!r} does not exist (is {folder!r} a scripts.train_alphazero --out?)"
        )
    with open(path, newline="") as handle:
        return list(csv.DictReader(handle))


def read_runs(args: Args) -> dict[str, list[dict[str, str]]]:
    """Each named run's history; ``ValueError``/``FileNotFoundError`` naming ``--runs`` or ``--opponent``."""
    runs = {}
    for pair in args.runs:
        name, equals, folder = pair.partition("=")
        if not equals or not name or not folder:
            raise ValueError(f"--runs takes name=folder pairs, got {pair!r}")
        if name in runs:
            raise ValueError(f"--runs names {name!r} twice")
        runs[name] = read_history(folder)
    if not runs:
        raise ValueError("--runs needs at least one name=folder pair")
    column = f"vs_{args.opponent}"
    for name, rows in runs.items():
        if rows and column not in rows[0]:
            raise OptionError(
                "opponent",
                f"run {name!r} has no column {column!r}; it has {[c for c in rows[0] if c.startswith('vs_')]}",
            )
    return runs


def main(args: Args) -> dict[str, list[dict[str, str]]]:
    """Read the runs, print their scores and write the plot."""
    runs = read_runs(args)
    column = f"vs_{args.opponent}"
    for name, rows in runs.items():
        for row in rows:
            if float(row[column]) >= 0:
                minutes = float(row["elapsed_seconds"]) / 60
                print(
                    f"{name:12s} iteration {row['iteration']:>3s} {minutes:6.1f} min  {column} "
                    f"{float(row[column]):.2f} [{float(row[column + '_low']):.2f}, {float(row[column + '_high']):.2f}]"
                )
    path = plot_alphazero_comparison(Path(args.png), runs, args.opponent, args.title or f"score vs {args.opponent}")
    print(f"wrote {path}")
    return runs


def cli(argv: list[str] | None = None) -> None:
    """Entry point of ``python -m scripts.compare_alphazero``."""
    run_cli(Args, argv, main, description=__doc__, check=read_runs)


if __name__ == "__main__":
    cli()
