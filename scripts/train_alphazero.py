"""Train AlphaZero on any registered game by self-play (seed 001 §4.2, with Gumbel root search).

    python -m scripts.train_alphazero --game node_conquest --iterations 12 --games 60 --simulations 32 \
        --workers 2 --out runs/alphazero/nc5
    python -m scripts.train_alphazero --game node_conquest --backend ray --ray-address 10.0.0.1:6379 --workers 64 \
        --out runs/alphazero/nc5_ray                                     # self-play in 64 actors of a Ray cluster

Each iteration plays ``--games`` self-play games with the best network (``--search gumbel``, the default:
Gumbel-top-k root actions, sequential halving and the improved-policy target; or ``--search puct``),
``--batch-games`` of them at a time with the leaves of all their searches valued in one forward pass (on the GPU with
``--device cuda``; a resumed run keeps it), trains the
network on the replay window and plays ``--eval-games`` against each of ``--eval-opponents`` (``scripted`` is the
game's default scripted agent). Writes ``<out>/best.pt`` (play it with
``make_agent("alphazero:checkpoint=<out>/best.pt", game)`` or ``scripts.play --opponent ...``),
``<out>/iteration_<k>.pt``, ``<out>/eval.csv`` and ``<out>/learning_curve.png`` (the evaluations, as every learner
writes them), ``<out>/history.csv`` and ``<out>/history.png`` (losses, gating, timings, scores) and the run's state
(``state.pt``, ``replay/``). A killed run continues with ``--resume`` (one killed before its first ``state.pt``
starts again from the beginning); an existing ``--out`` is refused unless ``--resume`` or ``--force`` is given.
``--minutes`` stops the run once its self-play and training time reaches the budget.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from baselines.inputs import parse_config
from baselines.learners.alphazero import AlphaZeroSettings, AlphaZeroTrainer
from baselines.learners.alphazero.trainer import eval_columns, resolve_opponent

from ._args import OptionError, Range, check_backend_options, check_game, run_cli


@dataclass
class Args:
    """Train AlphaZero by self-play: the trainer's settings (one flag per field of :class:`AlphaZeroSettings`, its
    ``selfplay`` and ``network`` parts flattened; ``selfplay.batch_size`` is ``--selfplay-batch-size``) and the
    script's own options."""

    game: str = "node_conquest"
    """Registered game name."""
    config: list[str] = field(default_factory=list)
    """Game config as key=value pairs (e.g. rows=3 cols=3)."""
    settings: AlphaZeroSettings = field(default_factory=AlphaZeroSettings)
    """The trainer's settings, parsed field by field."""
    resume: bool = False
    """Continue the run in --out from its last completed iteration."""
    force: bool = False
    """Replace a run already in --out."""
    threads: int = 1
    """torch threads of the main process (small networks run fastest on one)."""
    out: str = "runs/alphazero/run"
    """Output folder: best.pt, eval.csv, learning_curve.png, history.csv, history.png."""
    progress: bool = True
    """Show progress bars."""

    LIMITS: ClassVar = {"threads": Range(1, 1024)}


def check_args(args: Args) -> None:
    """Refuse bad settings, game, config or agents (opponents, sparring partner, teacher) before the run's folder
    is touched."""
    settings = args.settings
    check_game(args.game, args.config)
    check_backend_options(settings.backend, settings.ray_address)
    if args.resume and args.force:
        raise OptionError("resume", "resume and force exclude each other: resume continues a run, force replaces it")
    opponents = settings.eval_opponents if settings.eval_games else ()
    for field_name, specs in (("eval_opponents", opponents), ("sparring", [settings.sparring]),
                              ("warm_start", [settings.warm_start])):  # fmt: skip
        for spec in (spec for spec in specs if spec.strip()):
            resolve_opponent(spec.strip(), args.game, field_name)  # its error starts with the field's name


def main(args: Args) -> list:
    """Train and print one line per iteration."""
    import torch

    torch.set_num_threads(args.threads)
    trainer = AlphaZeroTrainer(
        args.game,
        parse_config(args.config),
        args.settings,
        args.out,
        args.progress,
        resume=args.resume,
        force=args.force,
    )
    if trainer.restarted:
        print(f"resuming {args.out}: it stopped before its first iteration finished, so it starts again", flush=True)
    elif args.resume:
        print(f"resuming {args.out} after iteration {trainer.completed}", flush=True)
    for row in trainer.run_iter():
        print(describe(row, list(trainer.opponents)), flush=True)
    result = trainer.result()
    written = [result.best_path, result.history_csv, result.history_csv.with_suffix(".png"), result.eval_csv]
    written.append(result.curve_png)
    print("wrote " + ", ".join(str(path) for path in written if path.exists()))
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
    run_cli(Args, argv, main, description=__doc__, check=check_args)


if __name__ == "__main__":
    cli()
