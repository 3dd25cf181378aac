"""Train and watch boardenvs agents with rl-zoo3, with action masks: its own train and enjoy, plus ppo_mask.

    python -m scripts.rl_zoo train --env boardenvs/Quoridor-v0 -n 200000 -f logs
    python -m scripts.rl_zoo enjoy --env boardenvs/Quoridor-v0 -f logs --no-render -n 2000
    python -m scripts.rl_zoo train --help                      # rl-zoo3's own options

Everything after the command goes to rl-zoo3 (``pip install -c constraints.txt -e ".[train,zoo]"``), after these
defaults, which the same options given on the command line replace: ``--algo ppo_mask`` (MaskablePPO whose policy
masks itself with the observation's action mask, so rl-zoo3's evaluation and ``enjoy``, which pass no mask, play
legal moves), ``--gym-packages boardenvs`` and, when training ``ppo_mask``, ``--conf-file`` with the shipped
hyperparameters of every game (``baselines/learners/sb3/rl_zoo_hyperparams.yml``) and ``--env-kwargs`` with its
entry's config (e.g. Quoridor 5x5; an ``--env-kwargs`` of yours replaces all of it). See
``baselines.learners.sb3.rl_zoo``.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field, replace

from ._args import DEBUG_FLAG, OptionError, run_cli

COMMANDS = ("train", "enjoy")
"""rl-zoo3's commands this script runs (``baselines.learners.sb3.rl_zoo.COMMANDS``, without importing SB3 to say so)."""


@dataclass
class Args:
    """Run rl-zoo3's train or enjoy on boardenvs with the masked ppo_mask algorithm."""

    command: str = "train"
    """train or enjoy: the rl-zoo3 command (written first: python -m scripts.rl_zoo train --env ...)."""
    zoo_args: list[str] = field(default_factory=list)
    """rl-zoo3's own arguments: everything after the command (rl-zoo3 checks them; train --help lists them)."""


def check_args(args: Args) -> None:
    """Refuse an unknown command before rl-zoo3 is imported."""
    if args.command not in COMMANDS:
        raise OptionError("command", f"must be one of {list(COMMANDS)}, got {args.command!r}")


def main(args: Args) -> None:
    """Hand ``args.zoo_args`` (after the defaults) to rl-zoo3's ``train`` or ``enjoy``."""
    from baselines.learners.sb3.rl_zoo import run

    run(args.command, args.zoo_args)


def split_arguments(arguments: list[str]) -> tuple[list[str], list[str]]:
    """This script's arguments and rl-zoo3's: a first word that is not an option is the command and everything
    after it is rl-zoo3's (``--debug`` excepted, which is this script's); otherwise all are this script's.

    >>> split_arguments(["train", "--env", "boardenvs/Quoridor-v0", "--debug"])
    (['--command', 'train', '--debug'], ['--env', 'boardenvs/Quoridor-v0'])
    >>> split_arguments(["--help"])
    (['--help'], [])
    """
    if not arguments or arguments[0].startswith("-"):
        return arguments, []
    rest = [argument for argument in arguments[1:] if argument != DEBUG_FLAG]
    return ["--command", arguments[0], *([DEBUG_FLAG] if DEBUG_FLAG in arguments[1:] else [])], rest


def cli(argv: list[str] | None = None) -> None:
    """Entry point of ``python -m scripts.rl_zoo``: ``train`` or ``enjoy`` and rl-zoo3's arguments."""
    ours, theirs = split_arguments(list(sys.argv[1:] if argv is None else argv))
    run_cli(Args, ours, lambda args: main(replace(args, zoo_args=[*args.zoo_args, *theirs])), description=__doc__,
            check=check_args)  # fmt: skip


if __name__ == "__main__":
    cli()
