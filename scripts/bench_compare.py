"""Compare the speed of two versions of the code: ``scripts.bench`` run alternately in each, medians side by side.

    python -m scripts.bench_compare --before HEAD~1                       # every game, 5 rounds of 2 s rows
    python -m scripts.bench_compare --before 5cb7a9e --games gravwell --config num_players=4 --rounds 7

``--before`` is a git revision, checked out in a temporary worktree (removed afterwards); "after" is this
working tree. Each round runs the bench once in each tree, in alternating order, each in a fresh process with
only that tree's packages on the path, so slow drifts of the machine fall on both sides alike. The table gives,
per bench row, the median transitions per second before and after and their ratio (above 1: faster now), with
the range of the after/before ratios over the rounds.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import ClassVar

import boardenvs
from baselines.progress import progress_bar

from ._args import OptionError, Range, check_game, run_cli

ROOT = Path(__file__).resolve().parents[1]


@dataclass
class Args:
    """Time scripts.bench in two versions of the code, alternating, and print the medians."""

    before: str = "HEAD"
    """Git revision of the "before" code (a temporary worktree)."""
    games: list[str] = field(default_factory=list)
    """Games to measure (default: every registered game)."""
    config: list[str] = field(default_factory=list)
    """Game config as key=value pairs, applied to every game (passed to scripts.bench)."""
    rounds: int = 5
    """Rounds; each runs the bench once in each tree."""
    seconds: float = 2.0
    """Wall-clock budget of each bench row."""
    progress: bool = True
    """Show a progress bar."""

    LIMITS: ClassVar = {"rounds": Range(1, 10**4), "seconds": Range(0.0, 86_400.0, open_low=True)}


@dataclass
class Row:
    """One bench row measured in both trees."""

    name: str
    before: list[float] = field(default_factory=list)
    after: list[float] = field(default_factory=list)

    @property
    def ratio(self) -> float:
        """Median after over median before."""
        return statistics.median(self.after) / statistics.median(self.before)

    def ratio_range(self) -> tuple[float, float]:
        """The lowest and highest after/before ratio of the rounds."""
        ratios = [a / b for a, b in zip(self.after, self.before)]
        return min(ratios), max(ratios)


def bench_rates(tree: Path, args: Args, out: Path) -> dict[str, float]:
    """Transitions per second of every bench row, measured by ``tree``'s own ``scripts.bench``."""
    command = [sys.executable, "-m", "scripts.bench", "--seconds", str(args.seconds), "--json-out", str(out)]
    command += ["--games", *args.games] if args.games else []
    command += ["--config", *args.config] if args.config else []
    env = dict(os.environ, PYTHONPATH=str(tree))
    subprocess.run(command, cwd=tree, env=env, check=True, capture_output=True, text=True)
    measured = json.loads(out.read_text())
    return {row["name"]: row["per_second"] for rows in measured.values() for row in rows}


def compare(before_tree: Path, after_tree: Path, args: Args) -> list[Row]:
    """Run the bench ``args.rounds`` times in each tree, alternating which goes first."""
    rows: dict[str, Row] = {}
    bar = progress_bar(args.progress, args.rounds, "rounds", "round")
    with tempfile.TemporaryDirectory() as scratch:
        for index in range(args.rounds):
            order = [("before", before_tree), ("after", after_tree)]
            for side, tree in order if index % 2 == 0 else order[::-1]:
                for name, rate in bench_rates(tree, args, Path(scratch) / f"{side}.json").items():
                    getattr(rows.setdefault(name, Row(name)), side).append(rate)
            bar.update(1)
    bar.close()
    return [row for row in rows.values() if row.before and row.after]  # a row only one tree's bench has is dropped


def table(rows: list[Row]) -> str:
    """The rows as a fixed-width table."""
    lines = [f"{'bench row':44s} {'before/s':>10s} {'after/s':>10s} {'ratio':>6s}  rounds' range"]
    for row in rows:
        low, high = row.ratio_range()
        before, after = statistics.median(row.before), statistics.median(row.after)
        lines.append(f"{row.name:44s} {before:10,.0f} {after:10,.0f} {row.ratio:6.3f}  {low:.3f}-{high:.3f}")
    return "\n".join(lines)


def main(args: Args) -> list[Row]:
    """Check out ``args.before`` in a temporary worktree, compare it with this tree, and remove the worktree."""
    if args.rounds < 1:
        raise ValueError(f"rounds must be >= 1, got {args.rounds}")
    with tempfile.TemporaryDirectory() as parent:
        worktree = Path(parent) / "before"
        git = ["git", "-C", str(ROOT)]
        subprocess.run(
            [*git, "worktree", "add", "--detach", str(worktree), args.before], check=True, capture_output=True
        )
        try:
            return compare(worktree, ROOT, args)
        finally:
            subprocess.run([*git, "worktree", "remove", "--force", str(worktree)], check=False, capture_output=True)


def check_args(args: Args) -> None:
    """Refuse a revision git does not know, an unknown game or a config that does not apply to every game."""
    for name in args.games or boardenvs.list_games():
        check_game(name, args.config, game_field="games")
    revision = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--verify", "--quiet", f"{args.before}^{{commit}}"],
                              capture_output=True, text=True, check=False)  # fmt: skip
    if not args.before.strip() or revision.returncode != 0:
        raise OptionError("before", f"git knows no commit {args.before!r} in {ROOT}")


def cli(argv: list[str] | None = None) -> None:
    """Entry point of ``python -m scripts.bench_compare``."""
    run_cli(Args, argv, lambda args: print(table(main(args))), description=__doc__, check=check_args)


if __name__ == "__main__":
    cli()
