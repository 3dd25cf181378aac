"""Train AlphaZero on any registered game by self-play (seed 001 §4.2, with Gumbel root search).

    python -m scripts.train_alphazero --game node_conquest --iterations 12 --games 60 --simulations 32 \
        --workers 2 --out runs/alphazero/nc5
    python -m scripts.train_alphazero --game node_conquest --backend ray --ray-address 10.0.0.1:6379 --workers 64 \
        --out runs/alphazero/nc5_ray                                     # self-play in 64 actors of a Ray cluster

Each iteration plays ``--games`` self-play games with the best network (``--search gumbel``, the default:
Gumbel-top-k root actions, sequential halving and the improved-policy target; or ``--search puct``), trains the
network on the replay window and plays ``--eval-games`` against each of ``--eval-opponents`` (``scripted`` is the
game's default scripted agent). Writes ``<out>/best.pt`` (play it with
``make_agent("alphazero:checkpoint=<out>/best.pt", game)`` or ``scripts.play --opponent ...``),
``<out>/iteration_<k>.pt``, ``<out>/history.csv``, ``<out>/learning_curve.png`` and the run's state
(``state.pt``, ``replay/``). A killed run continues with ``--resume`` (one killed before its first ``state.pt``
starts again from the beginning); an existing ``--out`` is refused unless ``--resume`` or ``--force`` is given.
``--minutes`` stops the run once its self-play and training time reaches the budget.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import ClassVar

from baselines.learners.alphazero import AlphaZeroSettings, AlphaZeroTrainer
from baselines.learners.alphazero.trainer import eval_columns, resolve_opponent
from baselines.settings import parse_config, settings_from

from ._args import (
    COUNT,
    COUNT_OR_ZERO,
    FRACTION,
    WORKERS,
    OptionError,
    Range,
    check_backend_options,
    check_game,
    run_cli,
)


@dataclass
class Args:
    """Train AlphaZero by self-play."""

    game: str = "node_conquest"
    """Registered game name."""
    config: list[str] = field(default_factory=list)
    """Game config as key=value pairs (e.g. rows=3 cols=3)."""
    iterations: int = 8
    """Self-play / train iterations."""
    games: int = 100
    """Self-play games per iteration (seed 001: 100)."""
    search: str = "gumbel"
    """Root search of self-play and play: gumbel or puct."""
    simulations: int = 32
    """Simulations per move in self-play (seed 001: 50 with PUCT)."""
    eval_simulations: int = 0
    """Simulations per move in gating and evaluation (0: --simulations)."""
    gumbel_actions: int = 16
    """Root actions the Gumbel search considers."""
    full_search_fraction: float = 1.0
    """Playout-cap randomisation: share of moves given the full search and recorded (1: every move)."""
    fast_simulations: int = 8
    """Playout-cap randomisation: simulations of the other moves."""
    exploration: float = 1.0
    """PUCT constant."""
    temperature_plies: int = 10
    """Plies whose move is sampled from the search's policy at the start of each self-play game."""
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
    score_weight: float = 0.25
    """Weight of the auxiliary score-margin loss (0: off)."""
    arena_games: int = 0
    """Candidate-vs-best games per iteration (0: always keep the trained network; seed 001: 20)."""
    accept_threshold: float = 0.6
    """Score the candidate needs to replace the best network (seed 001: 0.6)."""
    eval_games: int = 20
    """Games per evaluation against each --eval-opponents (0: none)."""
    eval_every: int = 1
    """Evaluate every this many iterations (and after the last)."""
    eval_opponents: list[str] = field(default_factory=lambda: ["random", "scripted"])
    """Agent specs of the evaluation opponents (scripted: the game's default scripted agent)."""
    sparring: str = ""
    """Agent spec of a sparring partner for part of the self-play games (scripted: the game's scripted agent)."""
    sparring_fraction: float = 0.0
    """Share of each iteration's games with --sparring in one seat (0: pure self-play)."""
    warm_start: str = ""
    """Teacher of a warm start: its games against itself are trained on before the first self-play (scripted: the
    game's scripted agent)."""
    warm_start_games: int = 0
    """Games of the --warm-start teacher (0: no warm start, pure AlphaZero)."""
    keep_warm_start: bool = False
    """Keep the warm start's examples in every replay window (they never age out)."""
    minutes: float = 0.0
    """Training-time budget in minutes: stop after the iteration that reaches it (0: no budget)."""
    device: str = "auto"
    """Where the network trains and values leaves: auto, cpu or cuda."""
    resume: bool = False
    """Continue the run in --out from its last completed iteration."""
    force: bool = False
    """Replace a run already in --out."""
    threads: int = 1
    """torch threads of the main process (small networks run fastest on one)."""
    workers: int = 1
    """Processes (or Ray actors with --backend ray) playing the self-play games (one torch thread each)."""
    backend: str = "local"
    """Where the self-play games run: local (processes of this machine) or ray (Ray actors, the network sent once
    per iteration; they value leaves on their CPU); the examples are the same."""
    ray_address: str = ""
    """Ray cluster to join with --backend ray (host:port); empty: start a local Ray with --workers CPUs."""
    seed: int = 0
    """Seed of everything."""
    out: str = "runs/alphazero/run"
    """Output folder: best.pt, history.csv, learning_curve.png."""
    progress: bool = True
    """Show progress bars."""

    LIMITS: ClassVar = {
        **dict.fromkeys(("iterations", "buffer_iterations", "epochs"), Range(1, 10**6)),
        "temperature_plies": Range(0, 10**6),
        **dict.fromkeys(("games", "simulations", "fast_simulations", "eval_every"), COUNT),
        **dict.fromkeys(("eval_simulations", "arena_games", "eval_games", "warm_start_games"), COUNT_OR_ZERO),
        "gumbel_actions": Range(1, 10**4),
        "channels": Range(1, 4096),
        "blocks": Range(1, 1000),
        "hidden": Range(1, 65536),
        "batch_size": Range(1, 10**6),
        "threads": Range(1, 1024),
        "workers": WORKERS,
        "full_search_fraction": Range(0.0, 1.0, open_low=True),
        "exploration": Range(0.0, 1e6),
        "learning_rate": Range(0.0, 10.0, open_low=True),
        "score_weight": Range(0.0, 1e6),
        "accept_threshold": FRACTION,
        "sparring_fraction": FRACTION,
        "minutes": Range(0.0, 1e7),
    }  # fmt: skip


RENAMES = {"games_per_iteration": "games"}
"""Trainer settings whose flag has another name."""
UNEXPOSED = ("weight_decay", "selfplay.dirichlet_fraction", "selfplay.dirichlet_alpha", "selfplay.batch_size",
             "selfplay.determinizations", "eval_simulations", "time_budget_minutes")  # fmt: skip
"""Trainer settings without a flag of their own name: they keep their defaults (or are set from a flag whose
0 means "none" below)."""
FLAGS_OF_SETTINGS = {**RENAMES, "time_budget_minutes": "minutes"}
"""The field that sets a trainer setting of another name (for the errors the settings raise)."""


def settings_of(args: Args) -> AlphaZeroSettings:
    """The trainer's settings (``ValueError`` naming a bad one)."""
    return dataclasses.replace(
        settings_from(args, AlphaZeroSettings, renames=RENAMES, defaults=UNEXPOSED),
        eval_simulations=args.eval_simulations or None,
        time_budget_minutes=args.minutes or None,
    )


def check_args(args: Args) -> None:
    """Refuse bad settings, game, config or agents (opponents, sparring partner, teacher) before the run's folder
    is touched."""
    settings = settings_of(args)
    check_game(args.game, args.config)
    check_backend_options(args.backend, args.ray_address)
    if args.resume and args.force:
        raise OptionError("resume", "resume and force exclude each other: resume continues a run, force replaces it")
    opponents = settings.eval_opponents if settings.eval_games else ()
    for field_name, specs in (("eval_opponents", opponents), ("sparring", [args.sparring]),
                              ("warm_start", [args.warm_start])):  # fmt: skip
        for spec in (spec for spec in specs if spec.strip()):
            resolve_opponent(spec.strip(), args.game, field_name)  # its error starts with the field's name


def main(args: Args) -> list:
    """Train and print one line per iteration."""
    import torch

    torch.set_num_threads(args.threads)
    settings = settings_of(args)
    trainer = AlphaZeroTrainer(
        args.game, parse_config(args.config), settings, args.out, args.progress, resume=args.resume, force=args.force
    )
    if trainer.restarted:
        print(f"resuming {args.out}: it stopped before its first iteration finished, so it starts again", flush=True)
    elif args.resume:
        print(f"resuming {args.out} after iteration {trainer.completed}", flush=True)
    for row in trainer.run_iter():
        print(describe(row, list(trainer.opponents)), flush=True)
    print(f"wrote {trainer.best_path}, {trainer.out_dir / 'history.csv'}, {trainer.out_dir / 'learning_curve.png'}")
    return trainer.history


def describe(row: dict, opponents: list[str]) -> str:
    """One line of progress for a history row."""
    parts = [
        f"iteration {row['iteration']}: {row['examples']} examples",
        f"losses policy {row['policy_loss']:.3f} (ln legal {row['log_legal']:.3f}) value {row['value_loss']:.3f} "
        f"score {row['score_loss']:.3f}",
    ]
    if row["arena_score"] >= 0:
        parts.append(f"arena {row['arena_score']:.2f} ({'kept' if row['accepted'] else 'dropped'})")
    for label in opponents:
        score, low, high = (row[column] for column in eval_columns(label))
        if score >= 0:
            parts.append(f"vs {label} {score:.2f} [{low:.2f}, {high:.2f}]")
    parts.append(f"{row['elapsed_seconds'] / 60:.1f} training min")
    return ", ".join(parts)


def cli(argv: list[str] | None = None) -> None:
    """Entry point of ``python -m scripts.train_alphazero``."""
    run_cli(Args, argv, main, description=__doc__, check=check_args, renames=FLAGS_OF_SETTINGS)


if __name__ == "__main__":
    cli()
