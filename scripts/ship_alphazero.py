"""Ship a trained AlphaZero network with the package, so ``make_agent("alphazero:pretrained", game)`` plays it.

    python -m scripts.ship_alphazero --checkpoint runs/az/nc5/best.pt \
        --command "python -m scripts.train_alphazero --game node_conquest ..." --notes "docs/results/alphazero.md"

Copies the checkpoint into ``baselines/learners/alphazero/models/`` and records its game, config, the command
that trained it and the notes in ``index.json`` (replacing the network shipped for the same game and config).
"""

from __future__ import annotations

import sys
from dataclasses import dataclass

from baselines.learners.alphazero.pretrained import MODELS_DIR, ship
from scripts._args import parse_args


@dataclass
class Args:
    """Ship a trained AlphaZero network with the package."""

    checkpoint: str = ""
    """Path of the trainer's best.pt to ship."""
    command: str = ""
    """The exact command that trained it (recorded in the index)."""
    notes: str = ""
    """Where its results are written up, or anything else worth knowing."""


def main(args: Args) -> str:
    """Copy the checkpoint and print where it went."""
    if not args.checkpoint:
        raise ValueError("--checkpoint is required: the path of a best.pt written by scripts.train_alphazero")
    if not args.command.startswith("python -m scripts.train_alphazero"):
        raise ValueError(
            f"--command must be the training command (python -m scripts.train_alphazero ...), got {args.command!r}"
        )
    path = ship(args.checkpoint, args.command, args.notes)
    print(f"shipped {args.checkpoint} as {path} (index: {MODELS_DIR / 'index.json'})")
    return str(path)


def cli(argv: list[str] | None = None) -> None:
    main(parse_args(Args, argv))


if __name__ == "__main__":
    cli(sys.argv[1:])
