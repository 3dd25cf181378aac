"""Tournament points by finishing place, read from a tournament log (``scripts.tournament --log``).

Battle Sheep's course ranks the four players of a game by score and gives 5, 3, 2 and 1 points to the 1st to
4th place; tied players split the points of the places they share evenly (seed 003). This script applies
such a table to every seat of every logged game and prints each agent's mean points per seat and mean score.

    python -m scripts.placement_points runs/sheep.jsonl                 # 5,3,2,1
    python -m scripts.placement_points runs/q.jsonl --points 1,0        # any table, one entry per seat
"""

from __future__ import annotations

import math
import sys
from dataclasses import dataclass

from baselines.arena import placement_summary, read_records

from ._args import OptionError, check_existing_file, run_cli


@dataclass
class Args:
    """Mean placement points per agent from a tournament log."""

    log: str = ""
    """The JSON-lines log written by ``python -m scripts.tournament --log``."""
    points: str = "5,3,2,1"
    """Points of the 1st, 2nd, ... place, comma-separated; one entry per seat of the game."""


def main(args: Args) -> dict[str, dict[str, float]]:
    """Print and return the summary of ``args.log``."""
    if not args.log:
        raise ValueError("log: give the path of a tournament log (scripts.tournament --log PATH)")
    table = points_table(args.points)
    summary = placement_summary(read_records(args.log), table)
    width = max(len(name) for name in summary)
    print(f"{'agent':{width}s}  {'seats':>6s}  {'points/seat':>11s}  {'mean score':>10s}")
    for name, row in sorted(summary.items(), key=lambda item: -item[1]["mean_points"]):
        print(f"{name:{width}s}  {row['seats']:6d}  {row['mean_points']:11.3f}  {row['mean_score']:10.2f}")
    return summary


def points_table(text: str) -> list[float]:
    """The points of ``--points``: comma-separated finite numbers; an ``OptionError`` of ``points`` otherwise."""
    table = []
    for value in (value.strip() for value in text.split(",") if value.strip()):
        try:
            table.append(float(value))
        except ValueError:
            table.append(math.nan)
        if not math.isfinite(table[-1]):
            raise OptionError("points", f"must be comma-separated finite numbers, got {value!r} in {text!r}")
    if not table:
        raise OptionError("points", f"give the points of each place, comma-separated, got {text!r}")
    return table


def check_args(args: Args) -> None:
    """Refuse a log that is not a file and a points table that is not numbers."""
    check_existing_file("log", args.log, "tournament log (scripts.tournament --log PATH)")
    points_table(args.points)


def cli(argv: list[str] | None = None) -> None:
    """Entry point of ``python -m scripts.placement_points``."""
    arguments = list(argv if argv is not None else sys.argv[1:])
    if arguments and not arguments[0].startswith("-"):
        arguments = ["--log", *arguments]
    run_cli(Args, arguments, main, description=__doc__, check=check_args)


if __name__ == "__main__":
    cli()
