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

import torch

from baselines.learners.rllib.runs import RLlibRunResult, plan_training, train
from baselines.learners.rllib.settings import RLlibSettings

from ._args import run_cli

Args = RLlibSettings
"""The command line is the run's settings: one flag per field of :class:`RLlibSettings`, its help the field's docstring
and a number's range the field's ``metadata``."""


def main(args: RLlibSettings) -> RLlibRunResult:
    """Train as ``args`` say (one torch thread in the driver), checkpoint and evaluate periodically; return what
    was produced."""
    torch.set_num_threads(1)
    return train(args)


def cli(argv: list[str] | None = None) -> RLlibRunResult:
    """Entry point of ``python -m scripts.train_rllib``: train, then print the final evaluation."""
    return run_cli(Args, argv, _run, description=__doc__, check=check_args)


def check_args(args: RLlibSettings) -> None:
    """Every check of the run (:func:`~baselines.learners.rllib.runs.plan_training`) before Ray starts."""
    plan_training(args)


def _run(args: Args) -> RLlibRunResult:
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
