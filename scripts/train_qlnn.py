"""Train seed 004's Q-learning neural network (``baselines/learners/qlnn/``) against a scripted opponent.

    # the thesis' setup (9x9, ANN(.., 160, 187, ..), sigmoid, plain SGD, online updates, terminal reward only)
    python -m scripts.train_qlnn --config board_size=9 --episodes 3000 --opponents path --out runs/qlnn/thesis
    # what it takes to learn (5x5, shaping, replay, target network, Adam, ReLU)
    python -m scripts.train_qlnn --config board_size=5 --episodes 4000 --opponents path --hidden 128,128 \\
        --activation relu --optimizer adam --learning-rate 0.001 --discount 0.95 --shaping 1 --replay 20000 \\
        --target-sync 200 --epsilon-decay 0.6 --out runs/qlnn/learn

The learner's seat rotates; every ``--eval-every`` episodes the greedy network plays ``--eval-games`` games
against ``--eval-opponent``. Writes ``<out>/qlnn.pt`` (``make_agent("qlnn:weights=<out>/qlnn.pt", game)``),
``<out>/history.csv`` and ``<out>/learning_curve.png`` (score with 95% Wilson intervals vs episodes).
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import ClassVar

from baselines.learners.qlnn import QLNNAgent, QLNNPoint, QLNNSettings
from baselines.learners.qlnn.runs import run

from ._args import COUNT, COUNT_OR_ZERO, Range, check_agents, check_game, run_cli

LIST_FLAGS = ("--hidden",)
"""Flags whose values may also be given comma-separated (``--hidden 128,128`` is ``--hidden 128 128``)."""


@dataclass
class Args:
    """Train a Q-learning neural network (seed 004): the network and learning settings (one flag per field of
    :class:`QLNNSettings`) and the run's own options."""

    game: str = "quoridor"
    """Registered game name."""
    config: list[str] = field(default_factory=list)
    """Game config as key=value pairs (e.g. board_size=5)."""
    episodes: int = 3000
    """Training games."""
    opponents: str = "path"
    """Opponent agent spec in the other seats (path or heuristic for the thesis)."""
    settings: QLNNSettings = field(default_factory=QLNNSettings)
    """The network and learning settings, parsed field by field."""
    eval_every: int = 0
    """Evaluate every this many episodes (0: episodes // 10)."""
    eval_games: int = 50
    """Greedy games per evaluation, seats rotating."""
    eval_opponent: str = "random"
    """Agent spec of the evaluation opponent."""
    seed: int = 0
    """Seed of everything."""
    threads: int = 1
    """torch CPU threads."""
    out: str = "runs/qlnn/run"
    """Output folder: qlnn.pt, history.csv, eval.csv, learning_curve.png, history.png."""
    force: bool = False
    """Replace the run --out holds."""
    progress: bool = False
    """Show a tqdm bar (else one line per evaluation)."""

    LIMITS: ClassVar = {
        "episodes": COUNT,
        **dict.fromkeys(("eval_every", "eval_games"), COUNT_OR_ZERO),
        "threads": Range(1, 1024),
    }


def split_lists(argv: Sequence[str]) -> list[str]:
    """``argv`` with the comma-separated value of a :data:`LIST_FLAGS` flag split into its items
    (``--hidden 128,128`` and ``--hidden=128,128`` are ``--hidden 128 128``; an empty value stays, to be refused)."""
    split: list[str] = []
    expand = False
    for word in argv:
        flag, equals, value = word.partition("=")
        if flag in LIST_FLAGS and equals:
            split += [flag, *_items(value)]
        else:
            split += _items(word) if expand else [word]
        expand = word in LIST_FLAGS
    return split


def _items(value: str) -> list[str]:
    return [item.strip() for item in value.split(",") if item.strip()] or [value]


def check_args(args: Args) -> None:
    """The game, its config and the agents, before any episode (the network settings check themselves)."""
    check_game(args.game, args.config)
    check_agents("opponents", [args.opponents], args.game)
    check_agents("eval_opponent", [args.eval_opponent], args.game)


def report(point: QLNNPoint) -> None:
    """One progress line per evaluation."""
    print(f"episode {point.episode:6d}  eps {point.epsilon:.3f}  {point.seconds:7.1f}s  train {point.train_score:.3f}"
          f"  eval {point.eval_score:.3f} [{point.eval_low:.3f}, {point.eval_high:.3f}]", flush=True)  # fmt: skip


def main(args: Args) -> tuple[QLNNAgent, list[QLNNPoint]]:
    """Train on the run skeleton (:func:`baselines.learners.qlnn.runs.run`): ``qlnn.pt``, ``history.csv``,
    ``eval.csv``, the learning curve and ``history.png`` in ``args.out``."""
    import torch

    torch.set_num_threads(args.threads)
    result = run(args, args.settings, report)
    return result.agent, result.history


def cli(argv: list[str] | None = None) -> None:
    """Entry point of ``python -m scripts.train_qlnn``."""
    arguments = split_lists(sys.argv[1:] if argv is None else argv)
    run_cli(Args, arguments, _run, description=__doc__, check=check_args)


def _run(args: Args) -> None:
    main(args)
    out = Path(args.out)
    print(f"wrote {out / 'qlnn.pt'}, {out / 'history.csv'}, {out / 'learning_curve.png'}")


if __name__ == "__main__":
    cli()
