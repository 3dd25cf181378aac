"""Convert a trusted SB3 zip into the safe format, which loads without running code.

    python -m scripts.convert_sb3 --model runs/q5/model.zip              # writes runs/q5/model.pt and model.json
    python -m scripts.convert_sb3 --model theirs.zip --out models/theirs --game quoridor --config board_size=5

An SB3 zip stores pickled Python objects, and loading it unpickles them, which runs any code the file's author put
in it. This script does exactly that, once, because you ask it to: convert only zips you trust. It writes
``<stem>.pt`` (the policy's tensors, read back with ``torch.load(weights_only=True)``) and ``<stem>.json`` (the zip's
model card with a description of the network, from which the policy is rebuilt), then loads them back the safe way
and checks that they choose the same moves with the same scores as the zip on ``--positions`` positions of seeded
random games. Play the result with ``sb3:<stem>.pt`` (``python -m scripts.tournament --agents random,sb3:<stem>.pt``).
Trainers (``scripts/train_sb3.py``) write the safe files of every model they save already.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import ClassVar

from baselines.inputs import checked_game
from baselines.learners.sb3.convert import Agreement, convert_zip

from ._args import COUNT_OR_ZERO, OptionError, check_existing_file, check_game, run_cli


@dataclass
class Args:
    """Convert a trusted SB3 zip into the safe format (tensors and JSON)."""

    model: str = ""
    """The SB3 zip to convert (it is unpickled, which runs any code in it: only a file you trust)."""
    out: str = ""
    """Where to write: <out>.pt and <out>.json (a suffix is dropped); empty: next to the zip, with its name."""
    game: str = ""
    """The game the model plays; empty: the game its model card names (a zip saved without a card needs it)."""
    config: list[str] = field(default_factory=list)
    """With --game: its config as key=value pairs, e.g. board_size=5."""
    positions: int = 200
    """Positions of seeded random games on which the converted policy must play as the zip does (0: no check)."""
    seed: int = 0
    """Seed of those random games."""

    LIMITS: ClassVar = {"positions": COUNT_OR_ZERO}


def check_args(args: Args) -> None:
    """Refuse a missing zip, or a game config without its game, before the zip is unpickled."""
    check_existing_file("model", args.model, "SB3 zip")
    if args.config and not args.game:
        raise OptionError("config", "needs --game: the config of which game?")
    if args.game:
        check_game(args.game, args.config)


@dataclass(frozen=True)
class Conversion:
    """What a conversion wrote and how the converted policy compared with the zip.

    Attributes:
        weights: The ``.pt`` written.
        description: The ``.json`` written beside it.
        agreement: The comparison on ``--positions`` positions (``None`` with 0).
    """

    weights: Path
    description: Path
    agreement: Agreement | None


def main(args: Args) -> Conversion:
    """Convert ``args.model`` as ``args`` say, print what was written and how it compares; return it."""
    if not args.model:
        raise ValueError("--model is required: the SB3 zip to convert")
    if args.positions < 0:
        raise ValueError(f"--positions must be >= 0 (0: no check), got {args.positions}")
    if args.config and not args.game:
        raise ValueError("--config needs --game: the config of which game?")
    game = checked_game(args.game, args.config)[0] if args.game else None
    weights, agreement = convert_zip(args.model, args.out, game, args.positions, args.seed)
    description = weights.with_suffix(".json")
    print(f"wrote {weights} and {description}; play it with sb3:{weights}")
    if agreement is not None:
        print(
            f"checked on {agreement.positions} positions: the same best move on {agreement.same_actions}, largest "
            f"score difference {agreement.max_score_difference}, largest probability difference "
            f"{agreement.max_probability_difference}"
        )
    return Conversion(weights, description, agreement)


def cli(argv: list[str] | None = None) -> Conversion:
    """Entry point of ``python -m scripts.convert_sb3``."""
    return run_cli(Args, argv, main, description=__doc__, check=check_args)


if __name__ == "__main__":
    cli()
