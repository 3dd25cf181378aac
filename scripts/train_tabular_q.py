"""Train a generic tabular Q-learning agent on any registered game (``baselines/learners/tabular_q/``).

    python -m scripts.train_tabular_q --game quoridor --config board_size=3 --episodes 20000 \\
        --opponents random --eval-every 1000 --eval-games 200 --out runs/tabular_q/quoridor3

The learner sits in rotating seats against ``--opponents`` (an agent spec, or ``self`` for self-play in every
seat) and is evaluated greedily against ``--eval-opponent`` every ``--eval-every`` episodes. Writes
``<out>/table.npz`` (play it with ``make_agent("tabular_q:table=<out>/table.npz", game)`` or
``scripts.play --opponent ...``), ``<out>/history.csv`` and ``<out>/learning_curve.png`` (win rate with 95%
Wilson intervals, and the number of states in the table). A killed run continues its table with ``--resume``; an
existing run in ``--out`` is refused unless ``--resume`` or ``--force`` is given.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import ClassVar

from baselines.learners.tabular_q import SELF_PLAY, TabularQAgent, TabularQPoint, TabularQSettings
from baselines.learners.tabular_q.runs import run

from ._args import COUNT, COUNT_OR_ZERO, OptionError, check_agents, check_game, run_cli


@dataclass
class Args:
    """Train a tabular Q-learning agent: the learning settings (one flag per field of :class:`TabularQSettings`)
    and the run's own options."""

    game: str = "quoridor"
    """Registered game name."""
    config: list[str] = field(default_factory=list)
    """Game config as key=value pairs (e.g. board_size=3)."""
    episodes: int = 20_000
    """Training games."""
    opponents: str = "random"
    """Opponents: an agent spec (random, heuristic, mcts:simulations=20, ...) in the other seats, or self."""
    settings: TabularQSettings = field(default_factory=TabularQSettings)
    """The learning settings, parsed field by field."""
    eval_every: int = 0
    """Evaluate every this many episodes (0: episodes // 20, at least 1)."""
    eval_games: int = 200
    """Greedy games per evaluation, learner seat rotating (0: no evaluation)."""
    eval_opponent: str = "random"
    """Agent spec of the evaluation opponent."""
    seed: int = 0
    """Seed of everything."""
    out: str = "runs/tabular_q/run"
    """Output folder: table.npz, history.csv, eval.csv, learning_curve.png, history.png."""
    resume: bool = False
    """Continue the table in --out (its histories are cut back to the table's episodes)."""
    force: bool = False
    """Replace the run --out holds."""
    progress: bool = True
    """Show a tqdm progress bar."""

    LIMITS: ClassVar = {"episodes": COUNT, **dict.fromkeys(("eval_every", "eval_games"), COUNT_OR_ZERO)}


def check_args(args: Args) -> None:
    """The game, its config, the agents and ``--resume`` with ``--force``, before any episode (the learning
    settings check themselves)."""
    check_game(args.game, args.config)
    if args.resume and args.force:
        raise OptionError("resume", "resume and force exclude each other: resume continues a run, force replaces it")
    if args.opponents != SELF_PLAY:
        check_agents("opponents", [args.opponents], args.game)
    check_agents("eval_opponent", [args.eval_opponent], args.game)


def main(args: Args) -> tuple[TabularQAgent, list[TabularQPoint]]:
    """Train on the run skeleton (:func:`baselines.learners.tabular_q.runs.run`): the table, ``history.csv``,
    ``eval.csv``, the learning curve and ``history.png`` in ``args.out``."""
    result = run(args, args.settings)
    return result.agent, result.history


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
