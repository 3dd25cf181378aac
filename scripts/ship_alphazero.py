"""Ship a trained AlphaZero network with the package, so ``make_agent("alphazero:pretrained", game)`` plays it.

    python -m scripts.ship_alphazero --checkpoint runs/az/nc5/best.pt \
        --command "python -m scripts.train_alphazero --game node_conquest ..." --notes "docs/results/alphazero.md"

Copies the checkpoint into ``baselines/learners/alphazero/models/`` and records its game, config, the command
that trained it and the notes in ``index.json`` (replacing the network shipped for the same game and config).
"""

from __future__ import annotations

from dataclasses import dataclass

from baselines.learners.alphazero.pretrained import MODELS_DIR, ship

from ._args import OptionError, about, check_existing_file, run_cli

COMMAND_PREFIX = "python -m scripts.train_alphazero"
"""How the recorded training command must start."""


@dataclass
class Args:
    """Ship a trained AlphaZero network with the package."""

    checkpoint: str = ""
    """Path of the trainer's best.pt to ship."""
    command: str = ""
    """The exact command that trained it (recorded in the index)."""
    notes: str = ""
    """Where its results are written up, or anything else worth knowing."""


def check_args(args: Args) -> None:
    """Refuse a missing or unreadable checkpoint, or a command that is not the training command."""
    from baselines.learners.alphazero.network import load_checkpoint

    check_existing_file("checkpoint", args.checkpoint, "best.pt written by scripts.train_alphazero")
    with about("checkpoint"):
        load_checkpoint(args.checkpoint)
    if not args.command.startswith(COMMAND_PREFIX):
        raise OptionError("command", f"must be the training command ({COMMAND_PREFIX} ...), got {args.command!r}")


def main(args: Args) -> str:
    """Copy the checkpoint and print where it went."""
    if not args.checkpoint:
        raise ValueError("--checkpoint is required: the path of a best.pt written by scripts.train_alphazero")
    if not args.command.startswith(COMMAND_PREFIX):
        raise ValueError(f"--command must be the training command ({COMMAND_PREFIX} ...), got {args.command!r}")
    path = ship(args.checkpoint, args.command, args.notes)
    print(f"shipped {args.checkpoint} as {path} (index: {MODELS_DIR / 'index.json'})")
    return str(path)


def cli(argv: list[str] | None = None) -> None:
    """Entry point of ``python -m scripts.ship_alphazero``."""
    run_cli(Args, argv, main, description=__doc__, check=check_args)


if __name__ == "__main__":
    cli()
