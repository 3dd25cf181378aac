"""Time one tournament on every backend setup: local processes, a local Ray, and a simulated two-node Ray cluster.

    python -m scripts.bench_distributed                       # Quoridor 5x5, 4 agents, 1,008 games, 2 rounds
    python -m scripts.bench_distributed --games-per-pairing 34 --rounds 1 --out runs/bench_distributed

Setups, each with 1 and 2 workers: ``local`` (the spawned process pool), ``ray`` (a local Ray started once with
two CPUs; its start-up is timed apart and not charged to the runs), ``cluster`` (``ray.cluster_utils.Cluster``: a
head without CPUs, where this process lives, and two worker nodes of one CPU each, so two actors sit on different
nodes, as on two machines). Rounds alternate the setups so drifting machine load hits all of them alike. Every run
must give the records of the first one (the backend changes where games run, never what they are). Writes
``<out>/bench_distributed.csv`` and ``.png`` (games/s per setup and worker count) and prints the table;
``docs/scaling.md`` reads it.
"""

from __future__ import annotations

import csv
import os
import shutil
import statistics
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any, ClassVar

from baselines.arena import tournament
from baselines.distributed import WORKER_NICENESS_VARIABLE, require_backend
from baselines.factory import make_agent
from baselines.inputs import parse_config
from baselines.plots import plot_rates_by_setup
from boardenvs.registry import make_game

from ._args import OptionError, Range, about, check_agents, check_game, names_in, run_cli

SETUPS = ("local", "ray", "cluster")
FIELDS = ("setup", "workers", "round", "seconds", "games", "games_per_second")


@dataclass
class Args:
    """Time a tournament on local processes, a local Ray and a simulated two-node Ray cluster."""

    game: str = "quoridor"
    """Game name."""
    config: list[str] = field(default_factory=lambda: ["board_size=5"])
    """Game config as key=value pairs."""
    agents: str = "random,path,heuristic,mcts:simulations=40"
    """Comma-separated agent specs (baselines.factory)."""
    games_per_pairing: int = 168
    """Games per pairing (4 agents: 6 pairings, 1,008 games)."""
    rounds: int = 2
    """Timed rounds of every setup, alternating."""
    setups: str = ",".join(SETUPS)
    """Comma-separated setups to time: local (always included: the reference), ray, cluster."""
    seed: int = 1
    """Tournament seed (the same in every run)."""
    out: str = "runs/bench_distributed"
    """Output folder for the CSV and the PNG ("" to write nothing)."""

    LIMITS: ClassVar = {"games_per_pairing": Range(1, 10**6), "rounds": Range(1, 10**4)}


@dataclass(frozen=True)
class Timing:
    """One timed tournament."""

    setup: str
    workers: int
    round: int
    seconds: float
    games: int

    def values(self) -> list[Any]:
        return [self.setup, self.workers, self.round, round(self.seconds, 3), self.games, self.games / self.seconds]


def _tournament(args: Args, workers: int, backend: str) -> tuple[float, list[tuple]]:
    """Wall seconds and the comparable records of one run."""
    game = make_game(args.game, **parse_config(args.config))
    specs = [spec.strip() for spec in args.agents.split(",") if spec.strip()]
    agents = {spec: _factory(spec, game.spec.name) for spec in specs}
    started = time.perf_counter()
    result = tournament(
        game, agents, args.games_per_pairing, args.seed, progress=False, workers=workers, backend=backend
    )
    seconds = time.perf_counter() - started
    return seconds, [(tuple(record.actions), tuple(record.returns)) for record in result.records]


def _factory(spec: str, game_name: str) -> Callable[[int], Any]:
    """A picklable agent factory (workers build their own agents)."""
    return partial(make_agent, spec, game_name)


@contextmanager
def local_ray(workers: int) -> Iterator[float]:
    """A private local Ray with ``workers`` CPUs; yields its start-up seconds."""
    import ray

    with _private_ray_files():
        started = time.perf_counter()
        ray.init(address="local", num_cpus=workers, include_dashboard=False, log_to_driver=False)
        try:
            yield time.perf_counter() - started
        finally:
            ray.shutdown()


@contextmanager
def simulated_cluster(nodes: int) -> Iterator[float]:
    """A head without CPUs and ``nodes`` worker nodes of one CPU each; yields its start-up seconds."""
    import ray
    from ray.cluster_utils import Cluster

    with _private_ray_files():
        started = time.perf_counter()
        cluster = Cluster(initialize_head=True, head_node_args={"num_cpus": 0, "include_dashboard": False})
        for _ in range(nodes):
            cluster.add_node(num_cpus=1)
        ray.init(address=cluster.address, log_to_driver=False)
        try:
            yield time.perf_counter() - started
        finally:
            ray.shutdown()
            cluster.shutdown()


@contextmanager
def _private_ray_files() -> Iterator[None]:
    """Ray's session files in a short private folder (socket paths must stay under 108 characters), and Ray's
    workers at the local pool's niceness (``baselines.distributed.WORKER_NICENESS_VARIABLE``)."""
    temp, previous = tempfile.mkdtemp(prefix="ray", dir="/tmp"), os.environ.get("RAY_TMPDIR")
    os.environ["RAY_TMPDIR"] = temp
    os.environ.setdefault(WORKER_NICENESS_VARIABLE, "0")
    try:
        yield
    finally:
        os.environ.pop("RAY_TMPDIR") if previous is None else os.environ.update(RAY_TMPDIR=previous)
        shutil.rmtree(temp, ignore_errors=True)


def main(args: Args) -> tuple[list[Timing], dict[str, float]]:
    """Run every setup ``args.rounds`` times; returns the timings and each Ray setup's start-up seconds."""
    setups = chosen_setups(args.setups)
    if args.rounds < 1 or args.games_per_pairing < 1:
        raise ValueError(f"rounds and games_per_pairing must be >= 1, got {args.rounds}, {args.games_per_pairing}")
    if setups != ["local"]:
        require_backend("ray")
    timings, startup, reference = [], {}, None
    for round_index in range(args.rounds):
        for setup in setups:
            for workers in (1, 2):
                seconds, records, start = _run(args, setup, workers)
                reference = reference or records
                if records != reference:
                    raise RuntimeError(f"{setup} with {workers} workers gave other records than the first run")
                if start:
                    startup.setdefault(setup, start)
                timings.append(Timing(setup, workers, round_index, seconds, len(records)))
                print(f"round {round_index} {setup:8s} {workers} workers: {seconds:7.2f} s", flush=True)
    if args.out:
        _write(timings, Path(args.out))
    return timings, startup


def chosen_setups(text: str) -> list[str]:
    """The named setups in ``SETUPS`` order, ``local`` always first (``ValueError`` for an unknown name)."""
    names = {name.strip() for name in text.split(",") if name.strip()} | {"local"}
    unknown = names - set(SETUPS)
    if unknown:
        raise ValueError(f"setups must name some of {', '.join(SETUPS)}, got {sorted(unknown)}")
    return [setup for setup in SETUPS if setup in names]


def _run(args: Args, setup: str, workers: int) -> tuple[float, list[tuple], float]:
    if setup == "local":
        return (*_tournament(args, workers, "local"), 0.0)
    context = local_ray(2) if setup == "ray" else simulated_cluster(2)
    with context as start:
        return (*_tournament(args, workers, "ray"), start)


def _write(timings: list[Timing], out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    with open(out / "bench_distributed.csv", "w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(FIELDS)
        writer.writerows(timing.values() for timing in timings)
    _plot(timings, out / "bench_distributed.png")


def _plot(timings: list[Timing], path: Path) -> None:
    setups = [setup for setup in SETUPS if any(t.setup == setup for t in timings)]
    rates = {workers: [_median_rate(timings, setup, workers) for setup in setups] for workers in (1, 2)}
    plot_rates_by_setup(rates, setups, path, "one tournament on each backend")


def _median_rate(timings: list[Timing], setup: str, workers: int) -> float:
    return statistics.median(t.games / t.seconds for t in timings if (t.setup, t.workers) == (setup, workers))


def table(timings: list[Timing], startup: dict[str, float]) -> str:
    """Median seconds and games/s per setup and worker count, with the spread over rounds."""
    lines = [f"{'setup':8s} {'workers':>7s} {'median s':>9s} {'range s':>15s} {'games/s':>8s} {'vs local':>8s}"]
    for setup in [setup for setup in SETUPS if any(t.setup == setup for t in timings)]:
        for workers in (1, 2):
            runs = [t.seconds for t in timings if (t.setup, t.workers) == (setup, workers)]
            local = statistics.median(t.seconds for t in timings if (t.setup, t.workers) == ("local", workers))
            median = statistics.median(runs)
            spread = f"{min(runs):.2f}-{max(runs):.2f}"
            rate = _median_rate(timings, setup, workers)
            lines.append(f"{setup:8s} {workers:7d} {median:9.2f} {spread:>15s} {rate:8.1f} {median / local:8.2f}")
    lines.append("start-up (not in the times above): " + ", ".join(f"{k} {v:.1f} s" for k, v in startup.items()))
    return "\n".join(lines)


def check_args(args: Args) -> None:
    """Refuse a bad game, config, agent, schedule or setup before Ray starts."""
    game = check_game(args.game, args.config)
    check_agents("agents", names_in("agents", args.agents, minimum=2), args.game)
    if args.games_per_pairing % game.spec.num_players:
        raise OptionError("games_per_pairing", f"must be a multiple of {game.spec.num_players} (the seat rotations), "
                          f"got {args.games_per_pairing}")  # fmt: skip
    with about("setups"):
        chosen_setups(args.setups)


def cli(argv: list[str] | None = None) -> None:
    """Entry point of ``python -m scripts.bench_distributed``."""
    run_cli(Args, argv, lambda args: print(table(*main(args))), description=__doc__, check=check_args)


if __name__ == "__main__":
    cli()
