"""Evaluate one agent against opponents: wins, draws and losses over seeded, seat-rotated games.

    python -m scripts.evaluate --agent heuristic --opponents random,path --games 200
    python -m scripts.evaluate --config board_size=5 --agent sb3:runs/q5/best.zip --opponents random,path --seed 7

Use a seed other than the training run's (its evaluations use ``--seed`` of ``train_sb3``) to measure a
model selected on its evaluation games (``best.zip``) on fresh games.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import ClassVar

from baselines.arena import evaluate_against
from baselines.arena.ratings import wilson_interval
from baselines.factory import make_agent
from baselines.inputs import parse_config
from boardenvs.registry import make_game

from ._args import COUNT, check_agents, check_game, names_in, run_cli


@dataclass
class Args:
    """Evaluate an agent against each opponent over seeded, seat-rotated games."""

    game: str = "quoridor"
    """Game name (see boardenvs.list_games())."""
    config: list[str] = field(default_factory=list)
    """Game config as key=value pairs, e.g. board_size=5."""
    agent: str = "heuristic"
    """The evaluated agent: random, the game's scripted agents, or sb3:<path/to/model.zip>."""
    opponents: str = "random"
    """Comma-separated opponents, each evaluated separately (it plays every other seat)."""
    games: int = 100
    """Games per opponent; the evaluated agent's seat rotates."""
    seed: int = 1
    """Seed of the games and the agents."""
    progress: bool = True
    """Show a progress bar per opponent (on stderr)."""

    LIMITS: ClassVar = {"games": COUNT}


@dataclass(frozen=True)
class EvaluationLine:
    """The agent's results against one opponent."""

    opponent: str
    wins: int
    draws: int
    losses: int

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    def text(self) -> str:
        low, high = wilson_interval(self.wins, self.games)
        share = self.wins / self.games
        return (
            f"vs {self.opponent:12s} wins {self.wins}/{self.games} = {share:.3f} [{low:.3f}, {high:.3f}]"
            f"  draws {self.draws}  losses {self.losses}"
        )


def main(args: Args, on_line: Callable[[EvaluationLine], None] | None = None) -> list[EvaluationLine]:
    """Play ``args.games`` games against each opponent; return one line per opponent (each also handed to
    ``on_line`` as soon as its games are played)."""
    from tqdm import tqdm

    if args.games < 1:
        raise ValueError(f"games must be >= 1, got {args.games}")
    game = make_game(args.game, **parse_config(args.config))
    agent = make_agent(args.agent, args.game, args.seed)
    names = [name.strip() for name in args.opponents.split(",") if name.strip()]
    if not names:
        raise ValueError(f"opponents: name at least one opponent, got {args.opponents!r}")
    lines = []
    for name in names:
        opponent = make_agent(name, args.game, args.seed + 1)
        with tqdm(total=args.games, desc=f"vs {name}", unit="game", disable=not args.progress) as bar:
            wins, draws, losses = evaluate_against(game, agent, opponent, args.games, args.seed, name, bar.update)
        lines.append(EvaluationLine(name, wins, draws, losses))
        if on_line is not None:
            on_line(lines[-1])
    return lines


def check_args(args: Args) -> None:
    """Refuse a bad game, config, agent or opponent before any game is played."""
    check_game(args.game, args.config)
    check_agents("agent", [args.agent], args.game)
    check_agents("opponents", names_in("opponents", args.opponents), args.game)


def cli(argv: list[str] | None = None) -> None:
    """Entry point of ``python -m scripts.evaluate``: print one line per opponent."""
    run_cli(Args, argv, _run, description=__doc__, check=check_args)


def _run(args: Args) -> None:
    config = " ".join(args.config) or "default config"
    print(
        f"{args.agent} on {args.game} ({config}), seed {args.seed}; 95% Wilson intervals of the win share", flush=True
    )
    main(args, lambda line: print(line.text(), flush=True))


if __name__ == "__main__":
    cli()
