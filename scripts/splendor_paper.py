"""Seed 002's Splendor experiments with BMRH, event-value functions and NTBEA (2 players, 1,000 simulated
actions per decision), with Wilson 95% intervals.

    nice -n 10 python -m scripts.splendor_paper --workers 2 --out runs/splendor_paper

(a) BMRH* (the R1-tuned BMRH of ``rinascimento_agents.csv``) against OSLA, seat-rotated, for every preset in
``--osla-presets`` (Rinascimento's rules and deck, and the official 2-player game).
(b) NTBEA tunes BMRH with an event-value function (``--ef-agent``; search space ``--tune-space``: by default
the 5 ``lin^hc`` weights, ``rhea+ef`` adds BMRH's parameters as the paper does) against BMRH*, then the
recommendation plays BMRH* (the untuned BMRH) for ``--validate-games`` (paper: 56-62% after 10^4-10^5 tuning
games).
(c) Reference: the paper's own tuned ``lin^hc`` EF agent (``preset=ef_linear_hc``) against BMRH*.
(d) With ``--round-robin-games N``: the round robin of the paper's agent set RND, OSLA, MCTS*, BMRH*, SRH*, EF
(:data:`ROUND_ROBIN`; ``scripts.tournament``: seat-rotated, common game seeds) with N games per pairing on
``--preset``. Writes ``<out>/round_robin.{jsonl,csv,png}`` (log, ranking, heatmap) and
``<out>/round_robin_pairwise.csv`` (every pairing's win rate with its Wilson interval); the log resumes.
Writes ``<out>/splendor_paper.csv``, ``<out>/splendor_paper.png`` and NTBEA's files under ``<out>/ntbea/``, and
prints Markdown tables.
"""

from __future__ import annotations

import csv
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

from baselines.arena import TournamentResult
from baselines.arena.ratings import wilson_interval
from baselines.distributed import require_backend
from baselines.plots import plot_match_win_rates
from baselines.tuning.game_fitness import GameFitness, head_to_head
from baselines.tuning.tuning import TuneOutcome

from . import tournament as tournament_script
from . import tune_ntbea
from ._args import (
    COUNT,
    COUNT_OR_ZERO,
    WORKERS,
    OptionError,
    Range,
    about,
    check_agents,
    check_backend_options,
    check_game,
    run_cli,
)

BMRH_STAR = "rhea:preset=bmrh_r1"
"""BMRH* (R1 tuned values), 1,000 simulated actions per decision."""
PAPER_EF = "rhea:preset=ef_linear_hc"
"""The paper's tuned ``lin^hc`` EF agent."""
ROUND_ROBIN = ["random", "osla", "rmcts", BMRH_STAR, "srh", PAPER_EF]
"""Seed 002's agent set: RND, OSLA, MCTS* (Rinascimento's MCTS), BMRH*, SRH* and the paper's ``lin^hc`` EF agent."""
PAIRWISE_FIELDS = ("agent", "opponent", "games", "points", "win_rate", "ci_low", "ci_high")
FIELDS = ("experiment", "preset", "agent", "opponent", "games", "points", "win_rate", "ci_low", "ci_high")


@dataclass
class Args:
    """Seed 002's Splendor experiments: BMRH* vs OSLA, NTBEA-tuned BMRH+EF vs BMRH*, the paper's EF vs BMRH*."""

    osla_presets: list[str] = field(default_factory=lambda: ["rinascimento", "2p"])
    """Splendor presets of experiment (a)."""
    osla_games: int = 100
    """Games of (a) per preset."""
    preset: str = "rinascimento"
    """Splendor preset of (b) and (c)."""
    ef_agent: str = "rhea:preset=ef_linear_hc"
    """The EF agent NTBEA tunes (fixed parameters; the rest come from --tune-space). Default: the paper's tuned
    lin^hc agent's BMRH part, so that --tune-space ef tunes its 5 weights."""
    tune_space: str = "ef"
    """Search space of (b): rhea, ef, rhea+ef (the paper's), or a JSON file (see scripts.tune_ntbea)."""
    tune_evaluations: int = 150
    """NTBEA budget of (b), in games against BMRH*."""
    validate_games: int = 100
    """Games of the tuned agent against BMRH* (0 skips the tuning)."""
    reference_games: int = 50
    """Games of (c) (0 skips it)."""
    batch_size: int = 2
    """NTBEA mutants evaluated per iteration."""
    round_robin_games: int = 0
    """Games per pairing of the round robin (d), a multiple of 2 (0 skips it)."""
    round_robin_agents: list[str] = field(default_factory=lambda: list(ROUND_ROBIN))
    """The agents of the round robin (d), as make_agent specs."""
    workers: int = 1
    """Processes (or Ray actors with --backend ray) playing games in parallel."""
    backend: str = "local"
    """Where the games run: local (processes of this machine) or ray (Ray actors); the results are the same."""
    ray_address: str = ""
    """Ray cluster to join with --backend ray (host:port); empty: start a local Ray."""
    seed: int = 2019
    """Seed of every experiment."""
    out: str = "runs/splendor_paper"
    """Output folder."""
    progress: bool = True
    """Show progress bars."""

    LIMITS: ClassVar = {
        **dict.fromkeys(("osla_games", "validate_games", "reference_games", "round_robin_games"), COUNT_OR_ZERO),
        "tune_evaluations": COUNT,
        "batch_size": Range(1, 10**4),
        "workers": WORKERS,
    }


@dataclass(frozen=True)
class Row:
    """One match result."""

    experiment: str
    preset: str
    agent: str
    opponent: str
    outcomes: tuple[float, ...]

    def values(self) -> list[Any]:
        """The CSV fields, in ``FIELDS`` order."""
        games, points = len(self.outcomes), sum(self.outcomes)
        low, high = wilson_interval(points, games)
        return [self.experiment, self.preset, self.agent, self.opponent, games, points, points / games, low, high]


def check_args(args: Args) -> None:
    """``ValueError`` for negative game counts, a budget below 1 or an unknown backend; ``ImportError`` for
    ``--backend ray`` without Ray."""
    require_backend(args.backend, args.ray_address or None)
    for name in ("osla_games", "validate_games", "reference_games", "round_robin_games"):
        if getattr(args, name) < 0:
            raise ValueError(f"{name} must be >= 0, got {getattr(args, name)}")
    for name in ("tune_evaluations", "workers", "batch_size"):
        if getattr(args, name) < 1:
            raise ValueError(f"{name} must be >= 1, got {getattr(args, name)}")


def check_options(args: Args) -> None:
    """:func:`check_args`, and every preset, agent and search space built once, before any game."""
    from baselines.tuning.tuning import search_space

    check_backend_options(args.backend, args.ray_address)
    check_args(args)
    for preset in args.osla_presets:
        check_game("splendor", [f"preset={preset}"], config_field="osla_presets")
    check_game("splendor", [f"preset={args.preset}"], config_field="preset")
    check_agents("ef_agent", [args.ef_agent], "splendor")
    if args.validate_games:
        with about("tune_space"):
            search_space(args.tune_space, args.ef_agent)
    if args.round_robin_games % 2:
        raise OptionError("round_robin_games", f"must be a multiple of 2 (the seats), got {args.round_robin_games}")
    if args.round_robin_games:
        if len(set(args.round_robin_agents)) != len(args.round_robin_agents) or len(args.round_robin_agents) < 2:
            raise OptionError("round_robin_agents", f"name at least 2 distinct agents, got {args.round_robin_agents}")
        check_agents("round_robin_agents", args.round_robin_agents, "splendor")


def match(args: Args, experiment: str, preset: str, agent: str, opponent: str, games: int) -> Row:
    """``games`` seat-rotated games of ``agent`` against ``opponent`` on a Splendor preset."""
    fitness = GameFitness("splendor", agent, opponent, (("preset", preset),))
    outcomes = head_to_head(fitness, games, args.seed, args.workers, args.progress, f"{experiment} {preset}",
                            args.backend, args.ray_address or None)  # fmt: skip
    return Row(experiment, preset, agent, opponent, tuple(outcomes))


def tune(args: Args) -> tuple[Row, TuneOutcome]:
    """Experiment (b): NTBEA, then validation of the recommendation against BMRH*."""
    tune_args = tune_ntbea.Args(
        game="splendor",
        config=[f"preset={args.preset}"],
        agent=args.ef_agent,
        space=args.tune_space,
        opponent=BMRH_STAR,
        evaluations=args.tune_evaluations,
        batch_size=args.batch_size,
        workers=args.workers,
        backend=args.backend,
        ray_address=args.ray_address,
        validate_games=args.validate_games,
        seed=args.seed,
        out=str(Path(args.out) / "ntbea"),
        progress=args.progress,
    )
    outcome = tune_ntbea.main(tune_args)
    row = Row("b: NTBEA-tuned BMRH+EF", args.preset, outcome.tuned_spec, BMRH_STAR, tuple(outcome.validation))
    return row, outcome


def round_robin(args: Args) -> TournamentResult:
    """Experiment (d): the round robin of ``args.round_robin_agents``, its files, and the pairwise intervals."""
    out = Path(args.out)
    tournament_args = tournament_script.Args(
        game="splendor",
        config=[f"preset={args.preset}"],
        agents=",".join(args.round_robin_agents),
        games_per_pairing=args.round_robin_games,
        seed=args.seed,
        csv=str(out / "round_robin.csv"),
        png=str(out / "round_robin.png"),
        workers=args.workers,
        backend=args.backend,
        ray_address=args.ray_address,
        log=str(out / "round_robin.jsonl"),
        progress=args.progress,
    )
    out.mkdir(parents=True, exist_ok=True)
    result = tournament_script.main(tournament_args)
    with open(out / "round_robin_pairwise.csv", "w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(PAIRWISE_FIELDS)
        writer.writerows(pairwise_rows(result))
    return result


def pairwise_rows(result: TournamentResult) -> list[list[Any]]:
    """Every ordered pairing that met: agent, opponent, games, points, win rate and its Wilson 95% interval."""
    rows = []
    for i, agent in enumerate(result.names):
        for j, opponent in enumerate(result.names):
            games = int(result.pairwise_games[i, j])
            if i != j and games:
                points = float(result.pairwise_scores[i, j])
                rows.append([agent, opponent, games, points, points / games, *wilson_interval(points, games)])
    return rows


def pairwise_markdown(result: TournamentResult) -> str:
    """The pairwise win rates as a Markdown matrix, each cell ``rate [low, high]`` (row agent against column)."""
    cells = {(row[0], row[1]): f"{row[4]:.2f} [{row[5]:.2f}, {row[6]:.2f}]" for row in pairwise_rows(result)}
    lines = ["| row vs column | " + " | ".join(result.names) + " |", "|---" * (len(result.names) + 1) + "|"]
    for agent in result.names:
        lines.append(f"| {agent} | " + " | ".join(cells.get((agent, other), "-") for other in result.names) + " |")
    return "\n".join(lines)


def main(args: Args) -> tuple[list[Row], TournamentResult | None]:
    """Run the experiments and write their files; the rows of (a)-(c) and the round robin (d) if played."""
    check_args(args)
    result = round_robin(args) if args.round_robin_games else None
    rows = []
    if args.osla_games:
        for preset in args.osla_presets:
            rows.append(match(args, "a: BMRH* vs OSLA", preset, BMRH_STAR, "osla", args.osla_games))
    if args.validate_games:
        rows.append(tune(args)[0])
    if args.reference_games:
        rows.append(match(args, "c: paper lin^hc EF vs BMRH*", args.preset, PAPER_EF, BMRH_STAR, args.reference_games))
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    with open(out / "splendor_paper.csv", "w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(FIELDS)
        writer.writerows(row.values() for row in rows)
    if rows:
        plot(rows, out / "splendor_paper.png")
    return rows, result


def plot(rows: list[Row], path: Path) -> None:
    """Win rates with Wilson 95% intervals, one bar per match, and the 50% line."""
    bars = [
        (f"{row.experiment.split(':')[0]}) {row.preset}\nn={len(row.outcomes)}", *row.values()[6:9]) for row in rows
    ]
    plot_match_win_rates(bars, path, "Splendor 2p, 1,000 simulated actions per decision")


def markdown(rows: list[Row]) -> str:
    """The results as a Markdown table."""
    lines = ["| experiment | preset | games | win rate | 95% CI |", "|---|---|---|---|---|"]
    for row in rows:
        v = row.values()
        lines.append(f"| {row.experiment} | {row.preset} | {v[4]} | {v[6]:.3f} | [{v[7]:.3f}, {v[8]:.3f}] |")
    return "\n".join(lines)


def cli(argv: list[str] | None = None) -> None:
    """Entry point of ``python -m scripts.splendor_paper``."""
    run_cli(Args, argv, _run, description=__doc__, check=check_options)


def _run(args: Args) -> None:
    started = time.perf_counter()
    rows, result = main(args)
    print(f"done in {time.perf_counter() - started:.0f} s, seed {args.seed}\n")
    if result is not None:
        print(result.table(pairwise=False) + "\n\n" + pairwise_markdown(result) + "\n")
    print(markdown(rows))
    for row in rows:
        print(f"{row.experiment}: {row.agent} vs {row.opponent}")
    print(f"wrote {args.out}/splendor_paper.csv and .png")


if __name__ == "__main__":
    cli()
