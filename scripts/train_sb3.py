"""Train MaskablePPO or a masked DQN on a boardenvs game and plot its learning curve.

    python -m scripts.train_sb3 --config board_size=5                       # PPO vs random on Quoridor 5x5
    python -m scripts.train_sb3 --config board_size=5 --algo dqn --steps 200000
    python -m scripts.train_sb3 --config board_size=5 --opponents random,heuristic,selfplay --vec subproc
    python -m scripts.train_sb3 --resume runs/quoridor-ppo-0/model.zip --steps 50000   # 50k more steps
    python -m scripts.train_sb3 --config board_size=5 --force               # replace runs/quoridor-ppo-0

The learner plays a random seat each episode against opponents drawn per episode from ``--opponents``
(``random``, the game's scripted agents, and ``selfplay``: snapshots of the learner saved every
``--snapshot-every`` steps). Every ``--eval-every`` steps it plays ``--eval-games`` seeded, seat-rotated
games against each evaluation opponent; the results go to ``<out>/eval.csv`` (win rate with draws counted
half, Wilson 95% interval, illegal moves) and ``<out>/learning_curve.png``, and the model to
``<out>/latest.zip`` (and to ``<out>/best.zip`` when its mean win rate is the best so far; measure that one
again on fresh seeds). The trained model ends in ``<out>/model.zip`` with its JSON sidecar ``model.json``; play
it with ``python -m scripts.tournament --agents random,heuristic,sb3:<out>/model.pt``. The run itself is
:func:`baselines.learners.sb3.runs.train`.

Every model (``model``, ``latest``, ``best``, the self-play snapshots) is saved as its safe files ``<name>.pt`` (the
policy's tensors) and ``<name>.json`` (its card, describing the network), which load without running code, and as
SB3's ``<name>.zip``. Only ``--resume`` loads the zips, which SB3 unpickles (running any code in them): resume only
runs you made.

A run survives ``kill -9``: every file is written whole (temporary file, then rename). Rerun a killed command with
``--resume <out>`` (or ``--resume <out>/model.zip``) and it continues from the newest intact checkpoint with
``eval.csv`` cut back to it, so the history holds every evaluation once and the run ends at the same step count.
A new run refuses an ``--out`` that already holds one; ``--force`` replaces it.
"""

from __future__ import annotations

from pathlib import Path

import torch

from baselines.learners.sb3.runs import SB3RunResult, SB3Settings, plan_training, run_folder, train

from ._args import OptionError, run_cli

Args = SB3Settings
"""The command line is the run's settings: one flag per field of :class:`SB3Settings`, its help the field's docstring
and a number's range the field's ``metadata``."""


def main(args: SB3Settings) -> SB3RunResult:
    """Train as ``args`` say (one torch thread), evaluate periodically, save the model; return what was produced."""
    torch.set_num_threads(1)
    return train(args)


def check_args(args: SB3Settings) -> None:
    """Every check of the run (:func:`~baselines.learners.sb3.runs.plan_training`) before anything is written,
    and a ``--resume`` that names another folder than ``--out``."""
    if args.resume and args.out and Path(args.out).resolve() != run_folder(args.resume).resolve():
        raise OptionError(
            "out",
            f"--resume {args.resume!r} continues the run in {str(run_folder(args.resume))!r} and writes there, "
            f"but --out names {args.out!r}: leave --out out, or resume the run in {args.out!r}",
        )
    plan_training(args)


def cli(argv: list[str] | None = None) -> SB3RunResult:
    """Entry point of ``python -m scripts.train_sb3``: train, then print the final evaluation."""
    return run_cli(Args, argv, _run, description=__doc__, check=check_args)


def _run(args: Args) -> SB3RunResult:
    result = main(args)
    print(f"{args.game} {' '.join(args.config)} {args.algo}: {result.steps} steps in {result.wall_seconds:.0f} s")
    for row in result.final_eval:
        interval = f"[{row.ci_low:.2f}, {row.ci_high:.2f}]"
        print(f"  vs {row.opponent}: win rate {row.win_rate:.3f} {interval} over {row.games} games")
    print(f"illegal moves: {result.train_illegal} in training, {sum(row.illegal for row in result.final_eval)} in eval")
    print(f"wrote {result.model_path}, {result.best_model_path}, {result.eval_csv}, {result.curve_png}")
    return result


if __name__ == "__main__":
    cli()
