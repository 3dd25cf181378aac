"""Train RLlib masked PPO with self-play on a boardenvs game and plot its learning curve.

    python -m scripts.train_rllib --config board_size=5                          # shared-policy self-play
    python -m scripts.train_rllib --config board_size=5 --opponents random,path,heuristic --steps 300000
    python -m scripts.train_rllib --config board_size=5 --opponents self,snapshot,heuristic --workers 2
    python -m scripts.train_rllib --out runs/quoridor-rllib-0 --resume --steps 50000  # 50k more steps
    python -m scripts.train_rllib --config board_size=5 --force                  # replace runs/quoridor-rllib-0

RLlib's new API stack trains one masked module, ``shared``. Each episode is played at a table drawn from
``--opponents``: ``self`` puts the shared policy in every seat (all seats learn), ``snapshot`` puts it in one seat
and a frozen snapshot of it in the others (non-trained RLlib modules, refreshed every ``--snapshot-every`` steps),
and a scripted agent's name (``random``, ``path``, ``heuristic`` for Quoridor) puts it in one seat and the scripted
agent in the others, acting inside the env. At the start, every ``--eval-every`` steps and at the end the run saves
a checkpoint (``<out>/checkpoints/step_<n>/``) and plays ``--eval-games`` seeded, seat-rotated games of the
checkpoint against each evaluation opponent with the project's arena; the results go to ``<out>/eval.csv`` (win rate
with draws counted half, Wilson 95% interval, illegal moves) and ``<out>/learning_curve.png``. Play a trained module
with ``python -m scripts.tournament --agents random,heuristic,rllib:unsafe:<out>`` (a run folder means its newest
checkpoint). The run itself is :func:`baselines.learners.rllib.runs.train`; it starts a local Ray with
``--workers + 1`` CPUs unless one is running.

A run survives ``kill -9``: rerun the command with ``--resume`` and it continues from the newest checkpoint in
``--out`` with ``eval.csv`` cut back to it, ending at the same step count. A new run refuses an ``--out`` that
already holds one; ``--force`` replaces it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import torch

from baselines.learners.rllib.runs import TrainResult, plan_training, train
from baselines.learners.rllib.settings import RLlibSettings
from baselines.settings import settings_from

from ._args import COUNT, FRACTION, Range, run_cli


@dataclass
class Args(RLlibSettings):
    """Train RLlib masked PPO with self-play on a boardenvs game; evaluate it periodically in the arena."""

    LIMITS: ClassVar = {
        **dict.fromkeys(("steps", "eval_every", "eval_games", "snapshot_every", "train_batch_size",
                         "minibatch_size"), COUNT),
        "workers": Range(0, 1024),
        "envs_per_worker": Range(1, 1024),
        "keep_checkpoints": Range(0, 10**6),
        "snapshot_slots": Range(1, 1000),
        "num_epochs": Range(1, 10**4),
        "conv_channels": Range(1, 4096),
        "hidden": Range(1, 65536),
        "lr": Range(0.0, 10.0, open_low=True),
        "gamma": FRACTION,
        "gae_lambda": FRACTION,
        "entropy_coeff": Range(0.0, 100.0),
        "clip_param": Range(0.0, 100.0, open_low=True),
        **dict.fromkeys(("vf_loss_coeff", "kl_coeff", "grad_clip"), Range(0.0, 1e6)),
    }  # fmt: skip


def main(args: Args) -> TrainResult:
    """Train as ``args`` say (one torch thread in the driver), checkpoint and evaluate periodically; return what
    was produced."""
    settings = settings_from(args, RLlibSettings)
    torch.set_num_threads(1)
    return train(settings)


def cli(argv: list[str] | None = None) -> TrainResult:
    """Entry point of ``python -m scripts.train_rllib``: train, then print the final evaluation."""
    return run_cli(Args, argv, _run, description=__doc__, check=check_args)


def check_args(args: Args) -> None:
    """Every check of the run (:func:`~baselines.learners.rllib.runs.plan_training`) before Ray starts."""
    plan_training(settings_from(args, RLlibSettings))


def _run(args: Args) -> TrainResult:
    result = main(args)
    minutes = result.wall_seconds / 60
    print(
        f"{args.game} {' '.join(args.config)} rllib ppo vs {args.opponents}: {result.steps} steps in {minutes:.1f} min "
        f"({result.eval_seconds / 60:.1f} min of it checkpointing and evaluating)"
    )
    for row in result.final_eval:
        interval = f"[{row.ci_low:.2f}, {row.ci_high:.2f}]"
        print(f"  vs {row.opponent}: win rate {row.win_rate:.3f} {interval} over {row.games} games")
    print(f"illegal moves: {result.train_illegal} in training, {sum(row.illegal for row in result.final_eval)} in eval")
    print(f"wrote {result.checkpoint}, {result.eval_csv}, {result.curve_png}")
    return result


if __name__ == "__main__":
    cli()
