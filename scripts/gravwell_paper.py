"""Reproduce the Gravwell tournaments of seed 000 (Gravitas) with 95% Wilson intervals.

    python -m scripts.gravwell_paper --q-table runs/gravwell_q/q144 --out runs/gravwell_paper

(a) Q-learning vs three random agents (paper: 818/2,000 = 40.9%), (b) the decision tree vs three random
agents (paper: more than 50% of 10,000), (c) the four-way final: tree, Q-learning, random, random-no-ES (paper
order: tree > Q-learning > neuro-evolution > random; neuro-evolution is not reimplemented, random-no-ES
takes its seat). Seats rotate cyclically. Each runs with the correct tractors and with ``inert_tractors``
(the paper engine's preset). Without ``--q-table`` a Q-learning agent is trained first (``--train-games``).
Writes ``<out>/gravwell_paper.csv`` and ``<out>/gravwell_paper.png``.
"""

from __future__ import annotations

import csv
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from baselines.agent import BaseAgent
from baselines.arena import game_seeds, play_game
from baselines.gravwell_qlearning import QLearningAgent, QSettings, learn
from baselines.heuristics.gravwell import DecisionTreeAgent, RandomAgent, RandomNoStopAgent
from baselines.ratings import wilson_interval
from boardenvs.games.gravwell import Gravwell
from scripts._args import parse_args

PRESETS = (("correct", False), ("inert_tractors", True))
"""Engine presets: name and ``inert_tractors``."""
FIELDS = ("experiment", "preset", "agent", "games", "wins", "win_rate", "ci_low", "ci_high")


@dataclass
class Args:
    """Reproduce the paper's Gravwell tournaments."""

    q_games: int = 2_000
    """Games of (a) Q-learning vs three random agents."""
    tree_games: int = 10_000
    """Games of (b) the decision tree vs three random agents."""
    final_games: int = 10_000
    """Games of (c) the four-way final."""
    q_table: str = ""
    """Trained tables (path of train_gravwell_q's --out); empty: train one per preset first."""
    train_games: int = 5_000
    """Training games per preset when --q-table is empty."""
    seed: int = 2024
    """Seed of the evaluation games (and of the training when there is no table)."""
    out: str = "runs/gravwell_paper"
    """Output folder for the CSV and the PNG."""
    progress: bool = True
    """Show tqdm progress bars."""


@dataclass(frozen=True)
class Row:
    """One agent's result in one experiment."""

    experiment: str
    preset: str
    agent: str
    games: int
    wins: float

    def values(self) -> list[Any]:
        """The CSV fields, in ``FIELDS`` order."""
        low, high = wilson_interval(self.wins, self.games)
        return [self.experiment, self.preset, self.agent, self.games, self.wins, self.wins / self.games, low, high]


def _check(args: Args) -> None:
    for name in ("q_games", "tree_games", "final_games", "train_games"):
        if getattr(args, name) < 1:
            raise ValueError(f"{name} must be >= 1, got {getattr(args, name)}")


def _bar(count: int, enabled: bool, description: str) -> Any:
    if not enabled:
        return range(count)
    from tqdm import tqdm

    return tqdm(range(count), desc=description, unit="game")


def play_rotated(
    game: Gravwell, agents: dict[str, BaseAgent], games: int, seed: int, label: str, progress: bool
) -> dict[str, float]:
    """Wins per agent name (ties shared) over ``games`` seat-rotated games of the four ``agents`` seats.

    ``agents`` maps a seat label to an agent; game ``i`` rotates the seats by ``i % 4``.
    """
    labels = list(agents)
    seeds = game_seeds(seed, games)
    wins = dict.fromkeys(labels, 0.0)
    for index in _bar(games, progress, label):
        shift = index % len(labels)
        seated = labels[shift:] + labels[:shift]
        record = play_game(game, [agents[name] for name in seated], seeds[index], names=seated)
        winners = [name for name, value in zip(seated, record.returns) if value > 0]
        for name in winners:
            wins[name] += 1.0 / len(winners)
    return wins


def q_agent_for(args: Args, game: Gravwell) -> QLearningAgent:
    """The loaded table, or an agent trained against random agents on ``game``."""
    if args.q_table:
        return QLearningAgent.load(args.q_table, seed=args.seed, name="qlearning")
    agent = QLearningAgent(args.seed, QSettings())
    learn(agent, args.train_games, args.seed, "random", game, args.progress)
    return agent


def run_preset(args: Args, preset: str, inert: bool) -> list[Row]:
    """Experiments (a), (b), (c) on one engine preset."""
    game = Gravwell(num_players=4, inert_tractors=inert)
    q_agent = q_agent_for(args, game)
    randoms = {f"random_{i}": RandomAgent(i) for i in range(1, 4)}
    rows = []
    for experiment, hero, games in (("a", q_agent, args.q_games), ("b", DecisionTreeAgent(0), args.tree_games)):
        name = "qlearning" if experiment == "a" else "tree"
        wins = play_rotated(game, {name: hero, **randoms}, games, args.seed, f"({experiment}) {preset}", args.progress)
        rows += [Row(experiment, preset, agent, games, count) for agent, count in wins.items()]
    final = {
        "tree": DecisionTreeAgent(0),
        "qlearning": q_agent,
        "random": RandomAgent(5),
        "random_no_es": RandomNoStopAgent(6),
    }
    wins = play_rotated(game, final, args.final_games, args.seed, f"(c) {preset}", args.progress)
    return rows + [Row("c", preset, agent, args.final_games, count) for agent, count in wins.items()]


def write_csv(rows: list[Row], path: Path) -> None:
    """One line per row, ``FIELDS`` as the header."""
    with open(path, "w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(FIELDS)
        writer.writerows(row.values() for row in rows)


def plot_rows(rows: list[Row], path: Path) -> None:
    """Win rates with 95% Wilson intervals, one panel per experiment, bars grouped by preset."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    experiments = sorted({row.experiment for row in rows})
    fig, axes = plt.subplots(1, len(experiments), figsize=(5 * len(experiments), 4), squeeze=False)
    for ax, experiment in zip(axes[0], experiments):
        chosen = [row for row in rows if row.experiment == experiment]
        for offset, (preset, _) in enumerate(PRESETS):
            part = [row for row in chosen if row.preset == preset]
            rates = [row.wins / row.games for row in part]
            bounds = [wilson_interval(row.wins, row.games) for row in part]
            errors = [
                [rate - low for rate, (low, _) in zip(rates, bounds)],
                [high - rate for rate, (_, high) in zip(rates, bounds)],
            ]
            xs = [index + 0.4 * offset for index in range(len(part))]
            ax.bar(xs, rates, width=0.4, yerr=errors, capsize=3, label=preset)
            ax.set_xticks([index + 0.2 for index in range(len(part))], [row.agent for row in part], rotation=30)
        ax.axhline(0.25, color="grey", linestyle="--")
        ax.set_title(f"({experiment}) {chosen[0].games} games")
        ax.set_ylabel("win rate")
        ax.legend()
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def table(rows: list[Row]) -> str:
    """The rows as aligned text."""
    lines = [f"{'exp':3s} {'preset':15s} {'agent':13s} {'games':>6s} {'wins':>8s} {'rate':>6s}  95% CI"]
    for row in rows:
        _, _, _, games, wins, rate, low, high = row.values()
        head = f"{row.experiment:3s} {row.preset:15s} {row.agent:13s} {games:6d} {wins:8.1f} {rate:6.3f}"
        lines.append(f"{head}  [{low:.3f}, {high:.3f}]")
    return "\n".join(lines)


def main(args: Args) -> list[Row]:
    """Run every experiment on both presets; write the CSV and the PNG; return the rows."""
    _check(args)
    rows = [row for preset, inert in PRESETS for row in run_preset(args, preset, inert)]
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    write_csv(rows, out / "gravwell_paper.csv")
    plot_rows(rows, out / "gravwell_paper.png")
    return rows


def cli(argv: list[str] | None = None) -> None:
    """Entry point of ``python -m scripts.gravwell_paper``: print the table."""
    args = parse_args(Args, argv if argv is not None else sys.argv[1:], description=__doc__)
    print(table(main(args)))


if __name__ == "__main__":
    cli()
