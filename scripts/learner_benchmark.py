"""The baselines' benchmark: train and evaluate every learner on every game, and write the table.

    python -m scripts.learner_benchmark --budget small --workers 2            # the smoke version: minutes
    python -m scripts.learner_benchmark --budget full --workers 2             # the full table: hours
    python -m scripts.learner_benchmark --budget small --games quoridor splendor --learners ppo dqn
    python -m scripts.learner_benchmark --budget standard --seeds 5 --workers 2  # every cell over 5 seeds: < 8 h
    python -m scripts.learner_benchmark --budget full --ship                  # ship each game's best PPO model

The cells (game x learner: MaskablePPO and masked DQN as SB3 runs, tabular Q where a config is small enough,
AlphaZero), their configs, training opponents, settings and budgets are one table, ``baselines.benchmark.TABLE``.
Each cell trains with its learner's own trainer and is then evaluated on fresh seeds against ``random`` and the
game's best scripted agent (``small``: 40 games per opponent, ``full``: 200; seats rotated), illegal moves counted.
``--workers N`` runs N cells at a time, each in its own process on one torch thread.

Training seed ``s`` is a whole table in ``<out>/seed_<s>/`` (``--seeds N``: seeds ``--seed`` to ``--seed + N - 1``).
Outputs, rewritten after every finished cell: ``<out>/seed_<s>/<game>-<learner>/result.json`` (and the learner's
run in ``.../run/``), ``<out>/seed_<s>/benchmark.csv`` (a row per cell and opponent), ``benchmark.md`` (one markdown
table) and ``curve_<game>.png`` (every learner of the game, win rate against training wall time); and over every
seed finished in ``<out>``: ``aggregate.csv`` and ``aggregate.md`` (each cell's IQM over its seeds with a stratified
bootstrap interval, each learner across games), ``profiles.png`` (performance profiles) and ``curves_<game>.png``
(learning curves with bands over seeds; ``baselines.benchmark.aggregate``). **Resumable**: a finished cell is never
trained again; rerun the same command after a kill and it finishes the table (SB3 and AlphaZero runs continue from
their last checkpoint, tabular Q starts its cell again). A cell whose entry in the table changed is trained again;
``--force`` trains every selected cell again.
"""

from __future__ import annotations

import os
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

from baselines.benchmark import (
    TABLE,
    Cell,
    CellJob,
    budget_names,
    check_cell,
    check_table,
    elapsed_text,
    is_finished,
    read_result,
    run_job,
    select,
    ship_models,
    start_worker,
    summary,
    write_outputs,
)
from baselines.benchmark.seed_report import write_seed_outputs
from baselines.distributed import make_executor

from ._args import COUNT, WORKERS, run_cli

SHIP_BUDGETS = ("full",)
"""The budgets whose PPO models ``--ship`` may ship."""


@dataclass
class Args:
    """Train and evaluate every learner on every game and write the benchmark table."""

    budget: str = "small"
    """Budget of every cell: small (the whole table in minutes) or full (hours)."""
    games: list[str] = field(default_factory=list)
    """Only these games (default: all)."""
    learners: list[str] = field(default_factory=list)
    """Only these learners: ppo, dqn, tabular_q, alphazero (default: all)."""
    out: str = ""
    """Output folder; empty: runs/benchmark/<budget>."""
    workers: int = 1
    """Cells trained at a time, each in its own process with one torch thread (1: in this process)."""
    seed: int = 0
    """The first training seed (each cell's training and evaluation derive from its seed)."""
    seeds: int = 1
    """Training seeds per cell: --seed, --seed + 1, ... (each a whole table in <out>/seed_<s>/)."""
    force: bool = False
    """Train the selected cells again even if they have finished (their folders are deleted)."""
    ship: bool = False
    """Train nothing: copy each selected game's best PPO model of the finished full table into the package's
    ppo:pretrained shelf (baselines/learners/sb3/models)."""
    progress: bool = True
    """Show the learners' progress bars (with --workers 1; a line per cell is always shown)."""

    LIMITS: ClassVar = {"workers": WORKERS, "seeds": COUNT}


def output_folder(args: Args) -> Path:
    """``--out``, or ``runs/benchmark/<budget>``."""
    return Path(args.out or f"runs/benchmark/{args.budget}")


def checked_cells(args: Args, table: Sequence[Cell]) -> list[Cell]:
    """The selected cells; ``ValueError`` naming a bad option before anything runs."""
    check_table(table)
    if args.workers < 1:
        raise ValueError(f"workers must be >= 1, got {args.workers}")
    if args.seeds < 1:
        raise ValueError(f"seeds must be >= 1, got {args.seeds}")
    cells = select(table, args.games, args.learners)
    if not cells:
        raise ValueError(f"no cell plays {args.games or 'any game'} with {args.learners or 'any learner'}")
    budgets = budget_names(cells)
    lacking = [cell.name for cell in cells if args.budget not in {budget.name for budget in cell.budgets}]
    if args.budget not in budgets or lacking:
        where = f" (cells without it: {lacking})" if lacking else ""
        raise ValueError(f"budget must be one of {budgets}, got {args.budget!r}{where}")
    if args.ship and args.budget not in SHIP_BUDGETS:
        raise ValueError(f"--ship ships the models of a finished {'/'.join(SHIP_BUDGETS)} table, not {args.budget!r}")
    if args.ship and args.force:
        raise ValueError("--ship trains nothing; --force trains again: run them one after the other")
    return cells


def main(args: Args, table: Sequence[Cell] = TABLE) -> list[dict[str, Any]]:
    """Run (or resume) the selected cells, writing the outputs after each; return every finished cell's result.
    With ``ship``, ship the finished table's PPO models instead.

    Raises:
        ValueError: a bad option (before anything runs).
        RuntimeError: some cells failed (the others finished; the message names each failure).
    """
    cells, out = checked_cells(args, table), output_folder(args)
    if args.ship:
        for path in ship_models(seed_folder(out, args.seed), cells, args.budget):
            print(f"shipped {path}")
        return []
    started = time.time()
    progress = args.progress and args.workers == 1
    seeds = range(args.seed, args.seed + args.seeds)
    jobs = [CellJob(cell, args.budget, seed_folder(out, seed), seed, args.force, progress, started)
            for seed in seeds for cell in cells]  # fmt: skip
    for job in jobs:
        check_cell(job)
    pending = [job for job in jobs if args.force or not is_finished(job)]
    pending.sort(key=lambda job: job.cell.learner != "alphazero")  # the longest cells first: workers end together
    for job in (job for job in jobs if job not in pending):
        print(f"[{elapsed_text(started)}] skip  {job_name(job)}: finished, {summary(read_result(job.folder) or {})}")
    failures = run_all(pending, args.workers, table)
    for seed in seeds:
        write_outputs(seed_folder(out, seed), table, args.budget)
    write_seed_outputs(out, table, args.budget)
    print(f"[{elapsed_text(started)}] {len(pending) - len(failures)} cell(s) run, {len(jobs) - len(pending)} skipped")
    if failures:
        raise RuntimeError(f"{len(failures)} cell(s) failed: " + "; ".join(failures))
    return [result for result in (read_result(job.folder) for job in jobs) if result is not None]


def seed_folder(out: Path, seed: int) -> Path:
    """Where training seed ``seed``'s table lives."""
    return out / f"seed_{seed}"


def job_name(job: CellJob) -> str:
    """``quoridor-ppo (seed 3)``: a job in the progress lines."""
    return f"{job.cell.name} (seed {job.seed})"


def run_all(jobs: Sequence[CellJob], workers: int, table: Sequence[Cell]) -> list[str]:
    """Run ``jobs`` (``workers`` at a time), writing the outputs after each; return the failures."""
    failures: list[str] = []

    def finished(job: CellJob, result: dict[str, Any] | None, error: str) -> None:
        if result is None:
            failures.append(f"{job_name(job)}: {error}")
            print(f"[{elapsed_text(job.started)}] FAILED {job_name(job)}: {error}", flush=True)
            return
        write_outputs(job.out, table, job.budget, games={job.cell.game})  # only its game's curves changed
        write_seed_outputs(job.out.parent, table, job.budget, games={job.cell.game})
        seconds = result["cell_seconds"]
        print(f"[{elapsed_text(job.started)}] done  {job_name(job)} in {seconds:.0f} s: {summary(result)}", flush=True)

    if workers == 1 or len(jobs) <= 1:
        start_worker()
        for job in jobs:
            finished(job, *run_job(job))
        return failures
    os.environ["OMP_NUM_THREADS"] = "1"  # the workers inherit it: one thread each
    with make_executor("local", min(workers, len(jobs)), start_worker) as pool:
        for index, (result, error) in pool.map_unordered(run_job, list(jobs)):
            finished(jobs[index], result, error)
    return failures


def cli(argv: list[str] | None = None) -> None:
    """Entry point of ``python -m scripts.learner_benchmark``: run, then print the table."""
    run_cli(Args, argv, _run, description=__doc__, check=lambda args: checked_cells(args, TABLE))


def _run(args: Args) -> None:
    started = time.perf_counter()
    main(args)
    if not args.ship:
        out = output_folder(args)
        table = out / ("aggregate.md" if args.seeds > 1 else f"seed_{args.seed}/benchmark.md")
        print(f"\n{table.read_text()}\nwrote {out}/seed_<s>/ and {out}/aggregate.csv, aggregate.md, profiles.png, "
              f"curves_<game>.png in {time.perf_counter() - started:.0f} s")  # fmt: skip


if __name__ == "__main__":
    cli()
