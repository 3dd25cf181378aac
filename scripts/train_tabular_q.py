"""Train a generic tabular Q-learning agent on any registered game (``baselines/learners/tabular_q/``).

    python -m scripts.train_tabular_q --game quoridor --config board_size=3 --episodes 20000 \\
        --opponents random --eval-every 1000 --eval-games 200 --out runs/tabular_q/quoridor3

The learner sits in rotating seats against ``--opponents`` (an agent spec, or ``self`` for self-play in every
seat) and is evaluated greedily against ``--eval-opponent`` every ``--eval-every`` episodes. Writes
``<out>/table.npz`` (play it with ``make_agent("tabular_q:table=<out>/table.npz", game)`` or
``scripts.play --opponent ...``), ``<out>/history.csv`` and ``<out>/learning_curve.png`` (win rate with 95%
Wilson intervals, and the number of states in the table).
"""

from __future__ import annotations

import csv
import dataclasses
from dataclasses import dataclass, field
from pathlib import Path
from typing import ClassVar

from baselines.learners.tabular_q import SELF_PLAY, TabularQAgent, TabularQPoint, TabularQSettings, train
from baselines.plots import plot_tabular_q_history
from baselines.settings import parse_config, settings_from
from boardenvs.registry import make_game

from ._args import COUNT, COUNT_OR_ZERO, FRACTION, POSITIVE, Range, check_agents, check_game, run_cli


@dataclass
class Args:
    """Train a tabular Q-learning agent."""

    game: str = "quoridor"
    """Registered game name."""
    config: list[str] = field(default_factory=list)
    """Game config as key=value pairs (e.g. board_size=3)."""
    episodes: int = 20_000
    """Training games."""
    opponents: str = "random"
    """Opponents: an agent spec (random, heuristic, mcts:simulations=20, ...) in the other seats, or self."""
    learning_rate: float = TabularQSettings.learning_rate
    """Learning rate alpha in (0, 1]."""
    discount: float = TabularQSettings.discount
    """Discount gamma in [0, 1] per own decision."""
    exploration: str = TabularQSettings.exploration
    """Exploration while training: epsilon (epsilon-greedy) or boltzmann."""
    epsilon: float = TabularQSettings.epsilon
    """Epsilon in [0, 1] at the start of training."""
    epsilon_final: str = "none"
    """Epsilon at the end of training, reached linearly (none: constant)."""
    temperature: float = TabularQSettings.temperature
    """Boltzmann temperature (> 0)."""
    initial_value: float = TabularQSettings.initial_value
    """Value of every action in a newly met state."""
    eval_every: int = 0
    """Evaluate every this many episodes (0: episodes // 20, at least 1)."""
    eval_games: int = 200
    """Greedy games per evaluation, learner seat rotating (0: no evaluation)."""
    eval_opponent: str = "random"
    """Agent spec of the evaluation opponent."""
    seed: int = 0
    """Seed of everything."""
    out: str = "runs/tabular_q/run"
    """Output folder: table.npz, history.csv, learning_curve.png."""
    progress: bool = True
    """Show a tqdm progress bar."""

    LIMITS: ClassVar = {
        "episodes": COUNT,
        "learning_rate": Range(0.0, 1.0, open_low=True),
        **dict.fromkeys(("discount", "epsilon"), FRACTION),
        "temperature": POSITIVE,
        "initial_value": Range(-1e6, 1e6),
        **dict.fromkeys(("eval_every", "eval_games"), COUNT_OR_ZERO),
    }


def check_args(args: Args) -> None:
    """The game, its config, the learning settings and the agents, before any episode."""
    check_game(args.game, args.config)
    settings_from(args, TabularQSettings)
    if args.opponents != SELF_PLAY:
        check_agents("opponents", [args.opponents], args.game)
    check_agents("eval_opponent", [args.eval_opponent], args.game)


def write_history(history: list[TabularQPoint], path: Path) -> None:
    """One CSV row per :class:`TabularQPoint`."""
    columns = [f.name for f in dataclasses.fields(TabularQPoint)]
    with open(path, "w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(columns)
        for point in history:
            writer.writerow([getattr(point, column) for column in columns])


def main(args: Args) -> tuple[TabularQAgent, list[TabularQPoint]]:
    """Train, then write the table, the history CSV and the learning curve into ``args.out``."""
    game = make_game(args.game, **parse_config(args.config))
    eval_every = args.eval_every or max(1, args.episodes // 20)
    agent, history = train(
        game, args.episodes, args.opponents, settings_from(args, TabularQSettings), args.seed, args.progress,
        eval_every=eval_every, eval_games=args.eval_games, eval_opponent=args.eval_opponent,
    )  # fmt: skip
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    agent.save(out / "table.npz")
    write_history(history, out / "history.csv")
    config = " ".join(args.config)
    title = f"tabular Q: {args.game} {config} vs {args.opponents}, eval vs {args.eval_opponent}".replace("  ", " ")
    plot_tabular_q_history(history, out / "learning_curve.png", title, game.spec.num_players)
    return agent, history


def cli(argv: list[str] | None = None) -> None:
    """Entry point of ``python -m scripts.train_tabular_q``."""
    run_cli(Args, argv, _run, description=__doc__, check=check_args)


def _run(args: Args) -> None:
    agent, history = main(args)
    last = history[-1]
    print(f"trained {args.episodes} episodes; {agent.table.num_states} states")
    if last.eval_games:
        print(
            f"vs {args.eval_opponent}: {last.eval_wins}-{last.eval_draws}-{last.eval_losses} in {last.eval_games} "
            f"games, score {last.eval_score:.3f} [{last.eval_low:.3f}, {last.eval_high:.3f}]; "
            f"{last.eval_informed:.1%} of its moves decided by the table"
        )
    out = Path(args.out)
    print(f"wrote {out / 'table.npz'}, {out / 'history.csv'}, {out / 'learning_curve.png'}")


if __name__ == "__main__":
    cli()
