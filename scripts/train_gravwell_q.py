"""Train the tabular Q-learning Gravwell agent (seed 000 §3.4) against three opponents.

    python -m scripts.train_gravwell_q --games 20000 --representation 864 --out runs/gravwell_q/q864

Writes ``<out>.npz`` + ``<out>.json`` (the tables and settings) and ``<out>_curve.png`` (the training win rate
over a moving window). ``--export-json PATH`` also writes the compact JSON table the package ships
(``baselines/learners/gravwell_q/models/gravwell_q_correct.json`` and, with ``--inert-tractors``,
``gravwell_q_inert.json``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import ClassVar

import numpy as np

from baselines.learners.gravwell_q import GravwellQAgent, GravwellQSettings, learn
from baselines.plots import plot_moving_win_rate
from boardenvs.games.gravwell import Gravwell

from ._args import COUNT, OptionError, run_cli


@dataclass
class Args:
    """Train a Q-learning Gravwell agent: the learning settings (one flag per field of :class:`GravwellQSettings`)
    and the run's own options."""

    games: int = 20_000
    """Training games."""
    settings: GravwellQSettings = field(default_factory=GravwellQSettings)
    """The learning settings, parsed field by field."""
    opponents: str = "random"
    """Opponent kind in all three other seats: random, random_no_es or tree."""
    inert_tractors: bool = False
    """Train on the paper engine's preset (tractors move nothing)."""
    seed: int = 0
    """Training seed."""
    window: int = 500
    """Moving-window size (games) of the learning curve."""
    out: str = "runs/gravwell_q/q144"
    """Output path without suffix: <out>.npz, <out>.json, <out>_curve.png."""
    progress: bool = True
    """Show a tqdm progress bar."""
    export_json: str = ""
    """Also write the compact JSON table (settings, rounded tables, training facts) to this path."""

    LIMITS: ClassVar = {"games": COUNT, "window": COUNT}


OPPONENTS = ("random", "random_no_es", "tree")
"""The opponent kinds of :func:`baselines.learners.gravwell_q.learn`."""


def check_args(args: Args) -> None:
    """The opponent kind, before any game (the learning settings check themselves)."""
    if args.opponents not in OPPONENTS:
        raise OptionError("opponents", f"must be one of {list(OPPONENTS)}, got {args.opponents!r}")


def main(args: Args) -> tuple[GravwellQAgent, np.ndarray]:
    """Train, save the tables and the learning curve; return the (greedy) agent and the per-game wins."""
    if args.games < 1:
        raise ValueError(f"games must be >= 1, got {args.games}")
    if args.window < 1:
        raise ValueError(f"window must be >= 1, got {args.window}")
    agent = GravwellQAgent(args.seed, args.settings)
    game = Gravwell(num_players=4, inert_tractors=args.inert_tractors)
    wins = learn(agent, args.games, args.seed, args.opponents, game, args.progress)
    agent.save(args.out)
    if args.export_json:
        training = {
            "games": args.games, "opponents": args.opponents, "seed": args.seed, "num_players": 4,
            "inert_tractors": args.inert_tractors, "final_window_win_rate": float(wins[-args.window :].mean()),
        }  # fmt: skip
        agent.export_json(args.export_json, training)
    title = f"Q-learning {args.settings.representation} states vs 3 {args.opponents}"
    plot_moving_win_rate(
        wins, args.window, Path(args.out).with_suffix("").parent / (Path(args.out).stem + "_curve.png"), title
    )
    return agent, wins


def cli(argv: list[str] | None = None) -> None:
    """Entry point of ``python -m scripts.train_gravwell_q``."""
    run_cli(Args, argv, _run, description=__doc__, check=check_args)


def _run(args: Args) -> None:
    _, wins = main(args)
    tail = wins[-args.window :]
    print(f"trained {args.games} games; training win rate {wins.mean():.3f}, last {len(tail)}: {tail.mean():.3f}")
    print(f"tables: {Path(args.out).with_suffix('.npz')}")


if __name__ == "__main__":
    cli()
