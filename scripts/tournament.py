"""Run a tournament between agents and print the ranking (the project's main demo).

    python -m scripts.tournament                              # Quoridor 9x9: random, path, heuristic
    python -m scripts.tournament --config board_size=9 num_players=4 --games-per-pairing 40
    python -m scripts.tournament --csv results.csv --png results.png
    python -m scripts.tournament --game battle_sheep --agents mcts:seconds=1:evaluator=heuristic,evaluation \
        --field random --games-per-pairing 100 --workers 2 --log runs/sheep.jsonl   # each agent vs 3 random
    python -m scripts.tournament --backend ray --ray-address 10.0.0.1:6379 --workers 64   # on a Ray cluster

Agents are named as in ``baselines.factory``: ``random``, ``mcts``, ``rhea``, the game's scripted agents, any of them
with ``:key=value`` settings, or ``sb3:<model.zip>``. With ``--log`` every game is written as it finishes and an
interrupted run continues where it stopped when started again with the same arguments. ``--backend ray`` plays the
games in Ray actors (a local Ray, or the cluster at ``--ray-address``) with the same records as the local processes;
this process alone writes the log.

Every lineup of agents plays ``games_per_pairing`` games on the same game seeds, rotating the seats so every
agent plays every seat equally often (the schedule is described in ``baselines.arena``).
"""

from __future__ import annotations

import dataclasses
import time
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import ClassVar

from baselines.arena import GameRecord, TournamentResult, tournament
from baselines.arena.replays import replay_from_record
from baselines.factory import make_agent
from baselines.inputs import parse_config
from boardenvs.core import Game
from boardenvs.registry import make_game
from boardenvs.replay_html import replay_html

from ._args import (
    WORKERS,
    OptionError,
    Range,
    about,
    check_agents,
    check_backend_options,
    check_game,
    run_cli,
)

MAX_GAMES_PER_PAIRING = 10**6
"""The most games per lineup (the schedule of every game is built before the first one is played)."""


@dataclass
class Args:
    """Run a seat-rotated tournament between agents and print the ranking."""

    game: str = "quoridor"
    """Game name (see boardenvs.list_games())."""
    config: list[str] = dataclasses.field(default_factory=list)
    """Game config as key=value pairs, e.g. board_size=5 num_players=4."""
    agents: str = "random,path,heuristic"
    """Comma-separated agents: random, mcts, rhea, the game's scripted agents (Quoridor: path, heuristic), each
    optionally with :key=value settings (mcts:simulations=400), or sb3:<model.zip>."""
    field: str = ""
    """One-vs-field mode: comma-separated agents that fill the other seats of every game (e.g. random)."""
    games_per_pairing: int = 100
    """Games per lineup of agents; a multiple of the number of players (the seat rotations)."""
    seed: int = 0
    """Tournament seed: the common game seeds and the agents' seeds derive from it."""
    csv: str = "runs/tournament.csv"
    """Write the ranking as CSV to this path ("" to skip)."""
    png: str = "runs/tournament.png"
    """Save the win-rate and pairwise plot as PNG to this path ("" to skip)."""
    workers: int = 1
    """Processes (or Ray actors with --backend ray) playing games in parallel."""
    backend: str = "local"
    """Where the games run: local (processes of this machine) or ray (Ray actors); the records are the same."""
    ray_address: str = ""
    """Ray cluster to join with --backend ray (host:port); empty: start a local Ray with --workers CPUs."""
    html: str = "runs/tournament.html"
    """Write one game between the two best-rated agents as a self-contained HTML replay here ("" to skip)."""
    log: str = ""
    """JSON-lines log of every game; rerunning with the same log resumes an interrupted tournament."""
    progress: bool = True
    """Show a progress bar (--no-progress turns it off)."""

    LIMITS: ClassVar = {"games_per_pairing": Range(1, MAX_GAMES_PER_PAIRING), "workers": WORKERS}


def agent_names(agents: str, minimum: int = 2, what: str = "a tournament") -> list[str]:
    """The names in a comma-separated list; ``ValueError`` on an empty list or a repeated name."""
    names = [name.strip() for name in agents.split(",") if name.strip()]
    if len(names) < minimum:
        raise ValueError(f"{what} needs at least {minimum} agent(s), got {agents!r}")
    repeated = sorted({name for name in names if names.count(name) > 1})
    if repeated:
        raise ValueError(f"agent names must be distinct, repeated: {repeated}")
    return names


def main(args: Args) -> TournamentResult:
    """Play the tournament described by ``args``; write the CSV and PNG if asked; return the result."""
    game = make_game(args.game, **parse_config(args.config))
    names = agent_names(args.agents, minimum=1 if args.field else 2)
    field_names = agent_names(args.field, minimum=1, what="--field") if args.field else []
    for name in names + field_names:
        make_agent(name, args.game)  # fail fast, listing the choices, before any game is played
    factories = {name: partial(make_agent, name, args.game) for name in names}
    field = {name: partial(make_agent, name, args.game) for name in field_names} or None
    result = tournament(
        game,
        factories,
        args.games_per_pairing,
        seed=args.seed,
        progress=args.progress,
        field=field,
        workers=args.workers,
        log_path=args.log or None,
        backend=args.backend,
        ray_address=args.ray_address or None,
    )
    if args.csv:
        result.to_csv(args.csv)
    if args.png:
        result.plot(args.png)
    if args.html:
        write_showcase(game, result, args.html)
    return result


def showcase_record(result: TournamentResult) -> GameRecord:
    """The first game in which the two best-rated agents met (any game when fewer than two played)."""
    best = {stats.name for stats in result.ranking()[:2]}
    return next((r for r in result.records if best <= set(r.agent_names)), result.records[0])


def write_showcase(game: Game, result: TournamentResult, path: str) -> None:
    """Write the HTML replay of :func:`showcase_record` to ``path``."""
    replay = replay_from_record(game, showcase_record(result), {"source": "scripts.tournament"})
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    Path(path).write_text(replay_html(replay, game), encoding="utf-8")


def check_args(args: Args) -> None:
    """Refuse a bad option (the game, its config, the agents, the schedule, the backend) before any game is
    played; an :class:`~scripts._args.OptionError` naming it."""
    game = check_game(args.game, args.config)
    with about("agents"):
        names = agent_names(args.agents, minimum=1 if args.field else 2)
    with about("field"):
        field_names = agent_names(args.field, minimum=1, what="--field") if args.field else []
    check_agents("agents", names, args.game)
    check_agents("field", field_names, args.game)
    shared = sorted(set(names) & set(field_names))
    if shared:
        raise OptionError("field", f"an agent cannot be both an entrant and in the field: {shared}")
    players = game.spec.num_players
    if args.games_per_pairing % players:
        raise OptionError("games_per_pairing", f"must be a multiple of {players} (the seat rotations), "
                          f"got {args.games_per_pairing}")  # fmt: skip
    check_backend_options(args.backend, args.ray_address)


def cli(argv: list[str] | None = None) -> None:
    """Entry point of ``python -m scripts.tournament``: run, then print the table and the run time."""
    run_cli(Args, argv, _run, description=__doc__, check=check_args)


def _run(args: Args) -> None:
    started = time.perf_counter()
    result = main(args)
    elapsed = time.perf_counter() - started
    config = " ".join(args.config) or "default config"
    print(f"{args.game} ({config}): {len(result.records)} games in {elapsed:.1f} s, seed {args.seed}\n")
    print(result.table())
    for path in (args.csv, args.png, args.html):
        if path:
            print(f"wrote {path}")


if __name__ == "__main__":
    cli()
