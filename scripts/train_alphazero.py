"""Train AlphaZero on any registered game by self-play (seed 001 §4.2).

    python -m scripts.train_alphazero --game node_conquest --iterations 8 --games 100 --simulations 50 \
        --out runs/alphazero/nc5

Each iteration plays ``--games`` self-play games with the best network, trains a copy on the recent examples,
keeps it if it scores at least ``--accept-threshold`` against the best network over ``--arena-games``, and
plays ``--eval-games`` against ``--eval-opponent``. Writes ``<out>/best.pt`` (the best network: play it with
``make_agent("alphazero:checkpoint=<out>/best.pt", game)`` or ``scripts.play --opponent ...``),
``<out>/iteration_<k>.pt`` (the best network after iteration k), ``<out>/history.csv`` and
``<out>/learning_curve.png``. ``--workers 2`` plays the self-play games in two processes.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field

from baselines.learners.alphazero import AlphaZeroSettings, AlphaZeroTrainer
from baselines.settings import parse_config, settings_from
from scripts._args import parse_args


@dataclass
class Args:
    """Train AlphaZero by self-play."""

    game: str = "node_conquest"
    """Registered game name."""
    config: list[str] = field(default_factory=list)
    """Game config as key=value pairs (e.g. rows=3 cols=3)."""
    iterations: int = 8
    """Self-play / train / gate iterations."""
    games: int = 100
    """Self-play games per iteration (seed 001: 100)."""
    simulations: int = 50
    """PUCT simulations per move in self-play, gating and evaluation (seed 001: 50)."""
    exploration: float = 1.0
    """PUCT constant."""
    temperature_plies: int = 10
    """Plies sampled from the visit counts at the start of each self-play game."""
    channels: int = 64
    """Convolution channels (plane observations)."""
    blocks: int = 2
    """Residual blocks (plane observations)."""
    hidden: int = 128
    """MLP width (vector observations) and value-head width."""
    epochs: int = 4
    """Passes over the example buffer per iteration."""
    buffer_iterations: int = 4
    """Iterations whose examples are trained on."""
    batch_size: int = 64
    """Examples per gradient step (seed 001: 64)."""
    learning_rate: float = 1e-3
    """Adam step size."""
    arena_games: int = 20
    """Candidate-vs-best games per iteration (0: always keep the candidate)."""
    accept_threshold: float = 0.6
    """Score the candidate needs to replace the best network (seed 001: 0.6)."""
    eval_games: int = 20
    """Games per iteration against --eval-opponent (0: none)."""
    eval_opponent: str = "random"
    """Agent spec of the evaluation opponent (random, mcts:simulations=50, heuristic, ...)."""
    threads: int = 1
    """torch threads of the main process (small networks run fastest on one)."""
    workers: int = 1
    """Processes playing the self-play games (one torch thread each)."""
    seed: int = 0
    """Seed of everything."""
    out: str = "runs/alphazero/run"
    """Output folder: best.pt, history.csv, learning_curve.png."""
    progress: bool = True
    """Show progress bars."""


RENAMES = {"games_per_iteration": "games"}
"""Trainer settings whose flag has another name."""
UNEXPOSED = ("weight_decay", "selfplay.dirichlet_fraction", "selfplay.dirichlet_alpha", "selfplay.batch_size",
             "selfplay.determinizations")  # fmt: skip
"""Trainer settings without a flag: they keep their defaults."""


def main(args: Args) -> list:
    """Train and print one line per iteration."""
    import torch

    torch.set_num_threads(args.threads)
    settings = settings_from(args, AlphaZeroSettings, renames=RENAMES, defaults=UNEXPOSED)
    trainer = AlphaZeroTrainer(args.game, parse_config(args.config), settings, args.out, args.progress)
    for _ in trainer.run_iter():
        row = trainer.history[-1]
        print(
            f"iteration {row.iteration}: {row.examples} examples, losses policy {row.policy_loss:.3f} value "
            f"{row.value_loss:.3f}, arena {row.arena_score:.2f} ({'kept' if row.accepted else 'dropped'}), "
            f"vs {args.eval_opponent} {row.eval_score:.2f} [{row.eval_low:.2f}, {row.eval_high:.2f}], "
            f"{row.seconds:.0f} s",
            flush=True,
        )
    print(f"wrote {trainer.best_path}, {trainer.out_dir / 'history.csv'}, {trainer.out_dir / 'learning_curve.png'}")
    return trainer.history


def cli(argv: list[str] | None = None) -> None:
    main(parse_args(Args, argv))


if __name__ == "__main__":
    cli(sys.argv[1:])
