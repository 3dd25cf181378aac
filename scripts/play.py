"""Play a game against an agent in the terminal.

    python -m scripts.play                                   # Quoridor 9x9 against the heuristic agent
    python -m scripts.play --config board_size=5 --opponent path --human-seat 1

Type moves in the game's notation (for Quoridor: ``e2`` moves the pawn to e2, ``c3h``/``c3v`` place a wall).
Commands: ``help``, ``moves``, ``undo`` (takes back your last move and the replies to it), ``quit``.

How ``undo`` keeps hidden information hidden is said in :mod:`baselines.arena.terminal`, which runs the session.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from baselines.arena.terminal import PlayResult, PlaySession, new_session
from baselines.inputs import parse_config

from ._args import OptionError, check_agents, check_game, run_cli


@dataclass
class Args:
    """Play a boardenvs game against an agent in the terminal."""

    game: str = "quoridor"
    """Game name (see boardenvs.list_games())."""
    config: list[str] = field(default_factory=list)
    """Game config as key=value pairs, e.g. board_size=5 num_players=4."""
    opponent: str = "heuristic"
    """Agent that plays every other seat: random, or the game's scripted agents (Quoridor: path, heuristic)."""
    human_seat: int = 0
    """Your seat; seat 0 moves first."""
    seed: int = 0
    """Seed of the game setup and of the opponents."""


def main(args: Args, input_fn: Callable[[str], str] = input, output: Callable[[str], Any] = print) -> PlayResult:
    """Play one game in the terminal (tests pass scripted ``input_fn`` and a collecting ``output``)."""
    return make_session(args, input_fn, output).run()


def make_session(args: Args, input_fn: Callable[[str], str], output: Callable[[str], Any]) -> PlaySession:
    """The :class:`~baselines.arena.terminal.PlaySession` that :func:`main` runs (tests read its positions)."""
    config = parse_config(args.config)
    return new_session(args.game, config, args.opponent, args.human_seat, args.seed, input_fn, output)


def check_args(args: Args) -> None:
    """Refuse a bad game, config, opponent or seat before the game starts."""
    game = check_game(args.game, args.config)
    if not 0 <= args.human_seat < game.spec.num_players:
        raise OptionError("human_seat", f"must be a seat in 0..{game.spec.num_players - 1}, got {args.human_seat}")
    check_agents("opponent", [args.opponent], args.game)


def cli(argv: list[str] | None = None) -> None:
    """Entry point of ``python -m scripts.play``."""
    run_cli(Args, argv, main, description=__doc__, check=check_args)


if __name__ == "__main__":
    cli()
