"""Reproduce seed 003's Battle Sheep comparison (course game 1) as one tournament, with 95% Wilson intervals.

    python -m scripts.battle_sheep_paper --simulations 200 --games-per-pairing 40 --out docs/results
    python -m scripts.battle_sheep_paper --train-q --train-games 20000     # retrain the shipped Q table

The seed's "Algorithm Choices" table reports wins out of 10 games in game 1 (4 players, 16 sheep, 64-cell
field): random 3, minimax 2, classical MCTS 4, Q-learning 4, its own MCTS valued by the evaluation score 7,
each agent thinking 3 s per move. Here the five play one seat-rotated round robin of the basic preset (every
set of 4 of the 5 agents, ``games_per_pairing`` games each, common game seeds) at an equal budget of
``simulations`` position valuations per move instead of 3 s (``docs/results/battle_sheep_paper.md`` says
why): ``minimax:depth=4:nodes=N`` (paranoid alpha-beta, deepening until N evaluations), ``mcts:simulations=N``
(classical: random rollouts to the end), ``qlearning`` (the shipped table, no search), and
``mcts:simulations=N:evaluator=heuristic`` (the evaluation score at the leaves). A win is a first place (a
shared first place counts half). Writes ``<out>/battle_sheep_paper.csv`` (ours next to the seed's) and
``<out>/battle_sheep_paper.png``. ``--restricted-splits`` plays the same with the seed's move set as the rules.

``--train-q`` trains the Q table instead (``baselines.learners.sheep_q.learn``), saves it (``--q-table shipped``
writes the package's ``baselines/learners/sheep_q/models/battle_sheep_q.json``), then plays it and an
untrained (all-zero) table against three random players for ``--q-eval-games`` seat-rotated games each.
"""

from __future__ import annotations

import csv
import time
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import ClassVar

from baselines.arena import TournamentResult, tournament
from baselines.arena.ratings import wilson_interval
from baselines.factory import make_agent
from baselines.learners.sheep_q import MODELS_DIR, SHIPPED, SHIPPED_TABLE, SheepQAgent, SheepQTable, learn
from baselines.plots import plot_paired_win_rates
from boardenvs import make_game

from ._args import COUNT, WORKERS, OptionError, Range, about, check_agents, run_cli

GAME = "battle_sheep"
PAPER_WINS: dict[str, int] = {"random": 3, "minimax": 2, "mcts_classical": 4, "qlearning": 4, "mcts_evaluation": 7}
"""Seed 003, "Algorithm Choices": wins out of :data:`PAPER_GAMES` games in game 1."""
PAPER_GAMES = 10
FIELDS = (
    "agent", "spec", "games", "wins", "draws", "win_rate", "ci_low", "ci_high", "mean_return", "mean_place",
    "paper_wins", "paper_games", "paper_rate", "paper_ci_low", "paper_ci_high",
)  # fmt: skip


@dataclass
class Args:
    """Reproduce seed 003's game-1 comparison of Battle Sheep agents."""

    simulations: int = 200
    """Budget per move of the search agents: position valuations (minimax nodes, MCTS simulations)."""
    games_per_pairing: int = 40
    """Games per set of 4 agents (5 sets); a multiple of 4, the seat rotations."""
    seed: int = 0
    """Tournament seed (common game seeds, agent seeds); with --train-q, the training seed."""
    out: str = "runs/battle_sheep_paper"
    """Folder of the CSV and PNG."""
    workers: int = 1
    """Processes playing games in parallel."""
    log: str = ""
    """JSON-lines log of every game; rerunning with the same log resumes an interrupted tournament."""
    progress: bool = True
    """Show a progress bar (--no-progress turns it off)."""
    restricted_splits: bool = False
    """Play with the seed's move set as the rules (splits of 1, n // 2, n - 1 only; the files get the suffix
    _restricted_splits)."""
    q_table: str = SHIPPED
    """The Q agent's table: "shipped" (baselines/learners/sheep_q/models/battle_sheep_q.json) or a path; --train-q
    writes it."""
    train_q: bool = False
    """Train and save the Q table, then evaluate it against random players, instead of the tournament."""
    train_games: int = 20_000
    """--train-q: training games (the learner against three random players, seats rotating)."""
    q_eval_games: int = 400
    """--train-q: evaluation games of the trained and of an untrained table against three random players."""

    LIMITS: ClassVar = {
        "simulations": COUNT,
        **dict.fromkeys(("games_per_pairing", "q_eval_games"), Range(1, 10**6)),
        "workers": WORKERS,
        "train_games": COUNT,
    }


def check_args(args: Args) -> None:
    """Refuse game counts that are not multiples of the 4 seats, a missing or damaged Q table, or a budget the
    agents refuse, before any game."""
    players = make_game(GAME, preset="basic").spec.num_players
    for name in ("games_per_pairing", "q_eval_games"):
        if getattr(args, name) % players:
            raise OptionError(name, f"must be a multiple of {players} (the seat rotations), got {getattr(args, name)}")
    if args.train_q:
        return
    with about("q_table"):
        if args.q_table != SHIPPED:
            SheepQTable.load(args.q_table)
    check_agents("simulations", [spec for label, spec in agent_specs(args.simulations).items() if label != "qlearning"],
                 GAME)  # fmt: skip


def agent_specs(simulations: int, q_table: str = SHIPPED) -> dict[str, str]:
    """The seed's five agents (label -> ``make_agent`` spec) at ``simulations`` valuations per move."""
    q_spec = "qlearning" if q_table == SHIPPED else f"qlearning:table={q_table}"
    return {
        "random": "random",
        "minimax": f"minimax:depth=4:nodes={simulations}",
        "mcts_classical": f"mcts:simulations={simulations}",
        "qlearning": q_spec,
        "mcts_evaluation": f"mcts:simulations={simulations}:evaluator=heuristic",
    }


def run_tournament(args: Args) -> TournamentResult:
    """The round robin of the five agents on the basic preset."""
    specs = agent_specs(args.simulations, args.q_table)
    factories = {label: partial(make_agent, spec, GAME) for label, spec in specs.items()}
    return tournament(
        make_game(GAME, preset="basic", restricted_splits=args.restricted_splits),
        factories,
        args.games_per_pairing,
        seed=args.seed,
        progress=args.progress,
        workers=args.workers,
        log_path=args.log or None,
    )


def comparison_rows(result: TournamentResult, specs: dict[str, str]) -> list[dict[str, object]]:
    """One row per agent: our numbers next to the seed's (with a Wilson interval of its x / 10 too)."""
    rows = []
    for stats in result.stats:
        paper = PAPER_WINS[stats.name]
        low, high = wilson_interval(paper, PAPER_GAMES)
        rows.append({
            "agent": stats.name, "spec": specs[stats.name], "games": stats.games, "wins": stats.wins,
            "draws": stats.draws, "win_rate": round(stats.win_rate, 4), "ci_low": round(stats.ci_low, 4),
            "ci_high": round(stats.ci_high, 4), "mean_return": round(stats.mean_return, 4),
            "mean_place": round(stats.mean_rank, 3), "paper_wins": paper, "paper_games": PAPER_GAMES,
            "paper_rate": paper / PAPER_GAMES, "paper_ci_low": round(low, 4), "paper_ci_high": round(high, 4),
        })  # fmt: skip
    return rows


def write_csv(rows: list[dict[str, object]], path: Path) -> None:
    """The comparison rows as CSV."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", newline="") as handle:
        writer = csv.DictWriter(handle, FIELDS, lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)


def plot(rows: list[dict[str, object]], path: Path, title: str) -> None:
    """Our win rate and the seed's x / 10 per agent, each with its 95% Wilson interval."""
    columns = (("ours", "tab:blue", "win_rate", "ci_low", "ci_high"),
               ("seed 003", "tab:gray", "paper_rate", "paper_ci_low", "paper_ci_high"))  # fmt: skip
    series = [(label, color, *([float(row[name]) for row in rows] for name in names))
              for label, color, *names in columns]  # fmt: skip
    labels = [str(row["agent"]) for row in rows]
    plot_paired_win_rates(labels, series, path, title, "first places (shared = 1/2), 95% CI", chance=0.25)


def report(result: TournamentResult, args: Args) -> list[dict[str, object]]:
    """Write the CSV and PNG of the comparison; return its rows."""
    rows = comparison_rows(result, agent_specs(args.simulations, args.q_table))
    write_csv(rows, output_path(args, "csv"))
    title = f"Battle Sheep game 1: {len(result.records)} games, {args.simulations} valuations per move"
    plot(rows, output_path(args, "png"), title + (", seed's move set" if args.restricted_splits else ""))
    return rows


def output_path(args: Args, suffix: str) -> Path:
    """``<out>/battle_sheep_paper[_restricted_splits].<suffix>``."""
    stem = "battle_sheep_paper" + ("_restricted_splits" if args.restricted_splits else "")
    return Path(args.out) / f"{stem}.{suffix}"


def train_and_evaluate(args: Args) -> TournamentResult:
    """Train the Q table, save it, and play it and an all-zero table against three random players."""
    table, _ = learn(args.train_games, args.seed, progress=args.progress)
    path = MODELS_DIR / SHIPPED_TABLE if args.q_table == SHIPPED else Path(args.q_table)
    table.save(path)
    print(f"wrote {path}")
    agents = {
        "qlearning": partial(SheepQAgent, table=SheepQTable.load(str(path))),
        "untrained": partial(SheepQAgent, table=SheepQTable()),
    }
    field = {"random": partial(make_agent, "random", GAME)}
    game = make_game(GAME, preset="basic")
    return tournament(game, agents, args.q_eval_games, seed=args.seed + 1, progress=args.progress, field=field)


def main(args: Args) -> TournamentResult:
    """Run what ``args`` asks for (see the module docstring); return the tournament played."""
    if args.train_q:
        return train_and_evaluate(args)
    result = run_tournament(args)
    report(result, args)
    return result


def cli(argv: list[str] | None = None) -> None:
    """Entry point of ``python -m scripts.battle_sheep_paper``: run, then print the tables and the run time."""
    run_cli(Args, argv, _run, description=__doc__, check=check_args)


def _run(args: Args) -> None:
    started = time.perf_counter()
    result = main(args)
    elapsed = time.perf_counter() - started
    print(f"{len(result.records)} games in {elapsed:.1f} s, seed {args.seed}\n")
    print(result.table())
    if not args.train_q:
        print("\nagent             ours (first places)          seed 003")
        for row in comparison_rows(result, agent_specs(args.simulations, args.q_table)):
            ours = f"{row['win_rate']:.3f} [{row['ci_low']:.2f}, {row['ci_high']:.2f}] of {row['games']}"
            print(f"{row['agent']:<17} {ours:<28} {row['paper_wins']}/{PAPER_GAMES}")
        print(f"wrote {output_path(args, 'csv')} and {output_path(args, 'png')}")


if __name__ == "__main__":
    cli()
