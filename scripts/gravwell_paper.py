"""Reproduce the Gravwell tournaments of seed 000 (Gravitas) with 95% Wilson intervals.

    python -m scripts.gravwell_paper --q-table runs/gravwell_q/q144 --out runs/gravwell_paper

(a) Q-learning vs three random agents (paper: 818/2,000 = 40.9%), (b) the decision tree vs three random
agents (paper: more than 50% of 10,000), (c) the four-way final of the paper's Fig. 15: tree, Q-learning,
neuro-evolution and random-no-ES (paper order: tree > Q-learning > neuro-evolution > random), (d) neuro-evolution
vs three random-no-ES agents (the paper's Fig. 14, 1,000 games: a little below them). Seats rotate cyclically.
Each runs with the correct tractors and with ``inert_tractors`` (the paper engine's preset). Without
``--q-table`` a Q-learning agent is trained first (``--train-games``); ``--q-table shipped`` uses the package's
trained tables (``make_agent("qlearning", "gravwell")``). The neuro-evolution agent plays the package's evolved
networks (``--neuro-network shipped``) or a file of ``scripts/evolve_gravwell.py``.
Writes ``<out>/gravwell_paper.csv`` and ``<out>/gravwell_paper.png``.

``--ablations`` runs the Q-learning ablations of the paper's §4.1 instead: each variant of ``ABLATIONS`` is
trained ``--train-games`` games against three random agents, then plays ``--ablation-games`` seat-rotated
games against three random agents (greedy, same game seeds for every variant); writes
``<out>/gravwell_ablations.csv`` and ``<out>/gravwell_ablations.png``.

    python -m scripts.gravwell_paper --ablations --train-games 5000 --ablation-games 1000
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from baselines.agent import BaseAgent
from baselines.arena import game_seeds, play_game
from baselines.arena.ratings import wilson_interval
from baselines.games.gravwell import DecisionTreeAgent, RandomNoStopAgent
from baselines.games.gravwell import RandomEmergencyStopAgent as RandomAgent
from baselines.learners.gravwell_q import GravwellQAgent, GravwellQSettings, PretrainedQAgent, learn
from baselines.learners.neuroevolution import NeuroevolutionAgent
from baselines.plots import plot_grouped_win_rates
from boardenvs.games.gravwell import Gravwell

from ._args import COUNT, about, run_cli

PRESETS = (("correct", False), ("inert_tractors", True))
"""Engine presets: name and ``inert_tractors``."""
FIELDS = ("experiment", "preset", "agent", "games", "wins", "win_rate", "ci_low", "ci_high")
ABLATIONS: dict[str, dict[str, Any]] = {
    "default": {},
    "states_864": {"representation": 864},
    "round_reward": {"reward_timing": "round"},
    "no_negative_factor": {"negative_factor": 1.0},
    "stop_never": {"use_stop": False},
}
"""Q-learning variants: name and the ``GravwellQSettings`` fields that differ from the paper's Table 1 defaults
(144 states, per-turn reward, negative factor 10, Emergency Stop learned)."""


@dataclass
class Args:
    """Reproduce the paper's Gravwell tournaments."""

    q_games: int = 2_000
    """Games of (a) Q-learning vs three random agents."""
    tree_games: int = 10_000
    """Games of (b) the decision tree vs three random agents."""
    final_games: int = 10_000
    """Games of (c) the four-way final."""
    neuro_games: int = 1_000
    """Games of (d) neuro-evolution vs three random-no-ES agents."""
    neuro_network: str = "shipped"
    """The neuro-evolution network: "shipped" (the package's, per preset) or a network.json of evolve_gravwell."""
    q_table: str = ""
    """Trained tables (path of train_gravwell_q's --out; "shipped": the package tables); empty: train first."""
    train_games: int = 5_000
    """Training games per preset when --q-table is empty."""
    seed: int = 2024
    """Seed of the evaluation games (and of the training when there is no table)."""
    out: str = "runs/gravwell_paper"
    """Output folder for the CSV and the PNG."""
    progress: bool = True
    """Show tqdm progress bars."""
    ablations: bool = False
    """Run the Q-learning ablations (see the module docstring) instead of the paper's tournaments."""
    ablation_games: int = 1_000
    """Evaluation games per ablation variant and preset."""
    presets: str = "correct,inert_tractors"
    """Comma-separated engine presets to run: correct, inert_tractors."""

    LIMITS: ClassVar = dict.fromkeys(
        ("q_games", "tree_games", "final_games", "neuro_games", "train_games", "ablation_games"), COUNT
    )


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
    for name in ("q_games", "tree_games", "final_games", "neuro_games", "train_games", "ablation_games"):
        if getattr(args, name) < 1:
            raise ValueError(f"{name} must be >= 1, got {getattr(args, name)}")
    _presets(args)


def check_args(args: Args) -> None:
    """The game counts and presets, and the network and Q tables loaded once, before any game."""
    from baselines.learners.neuroevolution import load_network

    _check(args)
    with about("q_table"):
        if args.q_table not in ("", "shipped"):
            GravwellQAgent.load(args.q_table)
    with about("neuro_network"):
        if args.neuro_network != "shipped":
            load_network(args.neuro_network)


def _presets(args: Args) -> list[tuple[str, bool]]:
    """The chosen ``PRESETS`` entries, in ``PRESETS`` order."""
    names = {name.strip() for name in args.presets.split(",") if name.strip()}
    known = dict(PRESETS)
    if not names or names - set(known):
        raise ValueError(f"presets must name some of {list(known)}, got {args.presets!r}")
    return [(name, inert) for name, inert in PRESETS if name in names]


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


def q_agent_for(args: Args, game: Gravwell) -> GravwellQAgent:
    """The loaded table, or an agent trained against random agents on ``game``."""
    if args.q_table == "shipped":
        return PretrainedQAgent(args.seed, name="qlearning")
    if args.q_table:
        return GravwellQAgent.load(args.q_table, seed=args.seed, name="qlearning")
    agent = GravwellQAgent(args.seed, GravwellQSettings())
    learn(agent, args.train_games, args.seed, "random", game, args.progress)
    return agent


def run_preset(args: Args, preset: str, inert: bool) -> list[Row]:
    """Experiments (a), (b), (c), (d) on one engine preset."""
    game = Gravwell(num_players=4, inert_tractors=inert)
    q_agent = q_agent_for(args, game)
    neuro = NeuroevolutionAgent(args.seed, args.neuro_network, name="neuroevolution")
    randoms = {f"random_{i}": RandomAgent(i) for i in range(1, 4)}
    no_stop = {f"random_no_es_{i}": RandomNoStopAgent(i) for i in range(1, 4)}
    experiments = (
        ("a", {"qlearning": q_agent, **randoms}, args.q_games),
        ("b", {"tree": DecisionTreeAgent(0), **randoms}, args.tree_games),
        ("c", {"tree": DecisionTreeAgent(0), "qlearning": q_agent, "neuroevolution": neuro,
               "random_no_es": RandomNoStopAgent(6)}, args.final_games),
        ("d", {"neuroevolution": neuro, **no_stop}, args.neuro_games),
    )  # fmt: skip
    rows = []
    for experiment, agents, games in experiments:
        wins = play_rotated(game, agents, games, args.seed, f"({experiment}) {preset}", args.progress)
        rows += [Row(experiment, preset, agent, games, count) for agent, count in wins.items()]
    return rows


def run_ablations(args: Args, preset: str, inert: bool) -> list[Row]:
    """Every ``ABLATIONS`` variant on one preset: train, then play against three random agents."""
    game = Gravwell(num_players=4, inert_tractors=inert)
    randoms = {f"random_{i}": RandomAgent(i) for i in range(1, 4)}
    rows = []
    for variant, changes in ABLATIONS.items():
        agent = GravwellQAgent(args.seed, GravwellQSettings(**changes), name=variant)
        learn(agent, args.train_games, args.seed, "random", game, args.progress)
        label = f"{variant} {preset}"
        wins = play_rotated(game, {variant: agent, **randoms}, args.ablation_games, args.seed, label, args.progress)
        rows.append(Row("ablation", preset, variant, args.ablation_games, wins[variant]))
    return rows


def write_csv(rows: list[Row], path: Path) -> None:
    """One line per row, ``FIELDS`` as the header."""
    with open(path, "w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(FIELDS)
        writer.writerows(row.values() for row in rows)


def plot_rows(rows: list[Row], path: Path) -> None:
    """Win rates with 95% Wilson intervals, one panel per experiment, bars grouped by preset."""
    panels: dict[str, dict[str, list[tuple[str, float, float, float]]]] = {}
    for experiment in sorted({row.experiment for row in rows}):
        chosen = [row for row in rows if row.experiment == experiment]
        panels[f"({experiment}) {chosen[0].games} games"] = {
            preset: [(row.agent, *row.values()[5:8]) for row in chosen if row.preset == preset] for preset, _ in PRESETS
        }
    plot_grouped_win_rates(panels, path)


def table(rows: list[Row]) -> str:
    """The rows as aligned text."""
    width = max([13, *(len(row.agent) for row in rows)])
    lines = [f"{'exp':3s} {'preset':15s} {'agent':{width}s} {'games':>6s} {'wins':>8s} {'rate':>6s}  95% CI"]
    for row in rows:
        _, _, _, games, wins, rate, low, high = row.values()
        head = f"{row.experiment:3s} {row.preset:15s} {row.agent:{width}s} {games:6d} {wins:8.1f} {rate:6.3f}"
        lines.append(f"{head}  [{low:.3f}, {high:.3f}]")
    return "\n".join(lines)


def main(args: Args) -> list[Row]:
    """Run every experiment (or the ablations) on the chosen presets; write the CSV and the PNG; return the rows."""
    _check(args)
    run = run_ablations if args.ablations else run_preset
    rows = [row for preset, inert in _presets(args) for row in run(args, preset, inert)]
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    stem = "gravwell_ablations" if args.ablations else "gravwell_paper"
    write_csv(rows, out / f"{stem}.csv")
    plot_rows(rows, out / f"{stem}.png")
    return rows


def cli(argv: list[str] | None = None) -> None:
    """Entry point of ``python -m scripts.gravwell_paper``: print the table."""
    run_cli(Args, argv, _run, description=__doc__, check=check_args)


def _run(args: Args) -> None:
    print(table(main(args)))


if __name__ == "__main__":
    cli()
