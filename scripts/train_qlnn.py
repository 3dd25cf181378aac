"""Train seed 004's Q-learning neural network (``baselines/learners/qlnn/``) against a scripted opponent.

    # the thesis' setup (9x9, ANN(.., 160, 187, ..), sigmoid, plain SGD, online updates, terminal reward only)
    python -m scripts.train_qlnn --config board_size=9 --episodes 3000 --opponents path --out runs/qlnn/thesis
    # what it takes to learn (5x5, shaping, replay, target network, Adam, ReLU)
    python -m scripts.train_qlnn --config board_size=5 --episodes 4000 --opponents path --hidden 128,128 \\
        --activation relu --optimizer adam --learning-rate 0.001 --discount 0.95 --shaping 1 --replay 20000 \\
        --target-sync 200 --epsilon-decay 0.6 --out runs/qlnn/learn

The learner's seat rotates; every ``--eval-every`` episodes the greedy network plays ``--eval-games`` games
against ``--eval-opponent``. Writes ``<out>/qlnn.pt`` (``make_agent("qlnn:weights=<out>/qlnn.pt", game)``),
``<out>/history.csv`` and ``<out>/learning_curve.png`` (score with 95% Wilson intervals vs episodes).
"""

from __future__ import annotations

import csv
import dataclasses
from dataclasses import dataclass, field
from pathlib import Path
from typing import ClassVar

from baselines.learners.qlnn import QLNNAgent, QLNNPoint, QLNNSettings, train
from baselines.plots import plot_qlnn_history
from baselines.settings import parse_config
from boardenvs.registry import make_game

from ._args import COUNT, COUNT_OR_ZERO, FRACTION, OptionError, Range, check_agents, check_game, run_cli

DEFAULTS = QLNNSettings()


@dataclass
class Args:
    """Train a Q-learning neural network (seed 004)."""

    game: str = "quoridor"
    """Registered game name."""
    config: list[str] = field(default_factory=list)
    """Game config as key=value pairs (e.g. board_size=5)."""
    episodes: int = 3000
    """Training games."""
    opponents: str = "path"
    """Opponent agent spec in the other seats (path or heuristic for the thesis)."""
    hidden: str = ",".join(str(width) for width in DEFAULTS.hidden)
    """Hidden layer widths, comma-separated."""
    activation: str = DEFAULTS.activation
    """Hidden activation: sigmoid, tanh or relu."""
    optimizer: str = DEFAULTS.optimizer
    """sgd or adam."""
    learning_rate: float = DEFAULTS.learning_rate
    """Optimizer step size."""
    discount: float = DEFAULTS.discount
    """Discount per own decision."""
    epsilon: float = DEFAULTS.epsilon
    """Epsilon at the start."""
    epsilon_final: float = DEFAULTS.epsilon_final
    """Epsilon at the end of the decay."""
    epsilon_decay: float = DEFAULTS.epsilon_decay
    """Share of the episodes over which epsilon decays linearly."""
    shaping: float = DEFAULTS.shaping
    """Weight of the potential-based path-length-difference reward (0: terminal reward only)."""
    replay: int = DEFAULTS.replay
    """Replay buffer size (0: online update of each decision, as the thesis)."""
    batch_size: int = DEFAULTS.batch_size
    """Mini-batch size with replay."""
    target_sync: int = DEFAULTS.target_sync
    """Target network copied every this many updates (0: none)."""
    eval_every: int = 0
    """Evaluate every this many episodes (0: episodes // 10)."""
    eval_games: int = 50
    """Greedy games per evaluation, seats rotating."""
    eval_opponent: str = "random"
    """Agent spec of the evaluation opponent."""
    seed: int = 0
    """Seed of everything."""
    threads: int = 1
    """torch CPU threads."""
    out: str = "runs/qlnn/run"
    """Output folder: qlnn.pt, history.csv, learning_curve.png."""
    progress: bool = False
    """Show a tqdm bar (else one line per evaluation)."""

    LIMITS: ClassVar = {
        "episodes": COUNT,
        "learning_rate": Range(0.0, 10.0, open_low=True),
        **dict.fromkeys(("discount", "epsilon", "epsilon_final"), FRACTION),
        "epsilon_decay": Range(0.0, 1.0, open_low=True),
        "shaping": Range(0.0, 1e6),
        **dict.fromkeys(("replay", "target_sync", "eval_every", "eval_games"), COUNT_OR_ZERO),
        "batch_size": Range(1, 10**6),
        "threads": Range(1, 1024),
    }


def settings_of(args: Args) -> QLNNSettings:
    """The :class:`QLNNSettings` the arguments describe."""
    hidden = tuple(int(width) for width in args.hidden.split(",") if width.strip())
    names = [f.name for f in dataclasses.fields(QLNNSettings) if f.name != "hidden"]
    return QLNNSettings(hidden=hidden, **{name: getattr(args, name) for name in names})


def check_args(args: Args) -> None:
    """The game, its config, the network settings and the agents, before any episode."""
    check_game(args.game, args.config)
    widths = [width.strip() for width in args.hidden.split(",") if width.strip()]
    if not all(width.lstrip("-").isdigit() for width in widths):
        raise OptionError("hidden", f"must be comma-separated layer widths (ints), got {args.hidden!r}")
    settings_of(args)
    check_agents("opponents", [args.opponents], args.game)
    check_agents("eval_opponent", [args.eval_opponent], args.game)


def write_history(history: list[QLNNPoint], path: Path) -> None:
    """One CSV row per :class:`QLNNPoint`."""
    columns = [f.name for f in dataclasses.fields(QLNNPoint)]
    with open(path, "w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(columns)
        writer.writerows([getattr(point, column) for column in columns] for point in history)


def report(point: QLNNPoint) -> None:
    """One progress line per evaluation."""
    print(f"episode {point.episode:6d}  eps {point.epsilon:.3f}  {point.seconds:7.1f}s  train {point.train_score:.3f}"
          f"  eval {point.eval_score:.3f} [{point.eval_low:.3f}, {point.eval_high:.3f}]", flush=True)  # fmt: skip


def main(args: Args) -> tuple[QLNNAgent, list[QLNNPoint]]:
    """Train, then write the network, the history CSV and the learning curve into ``args.out``."""
    import torch

    torch.set_num_threads(args.threads)
    game = make_game(args.game, **parse_config(args.config))
    eval_every = args.eval_every or max(1, args.episodes // 10)
    agent, history, _ = train(
        game, args.episodes, args.opponents, settings_of(args), args.seed, args.progress,
        eval_every=eval_every, eval_games=args.eval_games, eval_opponent=args.eval_opponent, callback=report,
    )  # fmt: skip
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    assert agent.network is not None
    agent.network.save(out / "qlnn.pt")
    write_history(history, out / "history.csv")
    title = f"qlnn: {args.game} {' '.join(args.config)} vs {args.opponents}, eval vs {args.eval_opponent}"
    plot_qlnn_history(history, out / "learning_curve.png", title)
    return agent, history


def cli(argv: list[str] | None = None) -> None:
    """Entry point of ``python -m scripts.train_qlnn``."""
    run_cli(Args, argv, _run, description=__doc__, check=check_args)


def _run(args: Args) -> None:
    main(args)
    out = Path(args.out)
    print(f"wrote {out / 'qlnn.pt'}, {out / 'history.csv'}, {out / 'learning_curve.png'}")


if __name__ == "__main__":
    cli()
