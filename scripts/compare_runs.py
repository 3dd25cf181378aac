"""Plot several SB3 runs' win rates against training steps, one line per run (e.g. reward shaping on and off).

    python -m scripts.compare_runs --runs off=runs/nc0 shaping=3=runs/nc3 --opponent random \
        --png docs/results/reward_shaping_node_conquest.png --title "node conquest 5x5, PPO vs random"

Reads each run's ``eval.csv`` (written by ``scripts.train_sb3``), prints every evaluation against ``--opponent``
with its 95% interval and draws the same (interval as a band) against training steps.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from baselines.learners.evaluation import EvalRow, read_eval_rows
from baselines.plots import plot_runs

from ._args import OptionError, run_cli


@dataclass
class Args:
    """Plot SB3 runs' win rates over training steps."""

    runs: list[str] = field(default_factory=list)
    """Runs as name=folder pairs (each folder holds an eval.csv); the name may hold '=' (split at the last)."""
    opponent: str = "random"
    """Evaluation opponent whose win rate is plotted."""
    png: str = "runs/runs_comparison.png"
    """Output plot."""
    title: str = ""
    """Plot title (default: the opponent)."""


def read_runs(pairs: list[str], opponent: str) -> dict[str, list[EvalRow]]:
    """Each named run's evaluations against ``opponent``, in step order."""
    runs: dict[str, list[EvalRow]] = {}
    for pair in pairs:
        name, equals, folder = pair.rpartition("=")
        if not equals or not name or not folder:
            raise ValueError(f"--runs takes name=folder pairs, got {pair!r}")
        path = Path(folder) / "eval.csv"
        if not path.is_file():
            raise FileNotFoundError(f"--runs: {str(path)!r} does not exist (is {folder!r} a scripts.train_sb3 --out?)")
        rows = read_eval_rows(path)
        mine = sorted((row for row in rows if row.opponent == opponent), key=lambda row: row.steps)
        if not mine:
            raise OptionError(
                "opponent",
                f"run {name!r} has no evaluation against {opponent!r}; it has {sorted({r.opponent for r in rows})}",
            )
        if name in runs:
            raise ValueError(f"--runs names {name!r} twice")
        runs[name] = mine
    if not runs:
        raise ValueError("--runs needs at least one name=folder pair")
    return runs


def main(args: Args) -> dict[str, list[EvalRow]]:
    """Read the runs, print their evaluations and write the plot."""
    runs = read_runs(args.runs, args.opponent)
    for name, rows in runs.items():
        for row in rows:
            print(
                f"{name:12s} {row.steps:>9,d} steps {row.wall_seconds / 60:6.1f} min  vs {args.opponent} "
                f"{row.win_rate:.2f} [{row.ci_low:.2f}, {row.ci_high:.2f}] over {row.games} games"
            )
    path = plot_runs(Path(args.png), runs, args.opponent, args.title or f"win rate vs {args.opponent}")
    print(f"wrote {path}")
    return runs


def cli(argv: list[str] | None = None) -> None:
    """Entry point of ``python -m scripts.compare_runs``."""
    run_cli(Args, argv, main, description=__doc__, check=lambda args: read_runs(args.runs, args.opponent))


if __name__ == "__main__":
    cli()
