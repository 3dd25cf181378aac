"""Evolve the neuro-evolution Gravwell agent (seed 000 §3.3) against pre-seeded random no-ES agents.

    python -m scripts.evolve_gravwell --generations 300 --out runs/gravwell_neuro/correct
    python -m scripts.evolve_gravwell --generations 300 --inert-tractors --out runs/gravwell_neuro/inert

Writes, after every generation, ``<out>/network.json`` (the current parent; a file
``make_agent("neuroevolution:network=<out>/network.json", "gravwell")`` plays) and ``<out>/history.csv``; at
the end ``<out>/evolution.png`` (the chosen candidate's win rate, mean final tile and size per generation).
A killed run continues with ``--resume`` exactly where it stopped (every generation's randomness comes from
``(seed, generation)``); ``--force`` replaces a finished one. ``--export-json PATH`` also copies the final
network to ``PATH`` (the package ships ``gravwell_neuro_correct.json`` and ``..._inert.json`` in
``baselines/learners/neuroevolution/models/``).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from baselines.learners.neuroevolution import (
    HISTORY_FILE,
    NETWORK_FILE,
    EvolutionSettings,
    Generation,
    Network,
    evolve,
    resume_evolution,
    save_network,
    training_record,
    write_history,
)
from baselines.plots import plot_evolution
from baselines.runs import RunDirectory, require_run
from baselines.settings import settings_from

from ._args import OptionError, Range, run_cli

NETWORK, HISTORY, PLOT = NETWORK_FILE, HISTORY_FILE, "evolution.png"


@dataclass(frozen=True)
class Args(EvolutionSettings):
    """Evolve a neuro-evolution Gravwell agent (the evolution options are :class:`EvolutionSettings`'s)."""

    out: str = "runs/gravwell_neuro/correct"
    """Output folder: network.json, history.csv, evolution.png."""
    resume: bool = False
    """Continue the run in --out from its last finished generation."""
    force: bool = False
    """Replace the run --out holds (its files are deleted)."""
    export_json: str = ""
    """Also write the final network to this path (the package's data file)."""
    progress: bool = True
    """Show a tqdm progress bar."""

    LIMITS: ClassVar = {
        "generations": Range(1, 10**6),
        "children": Range(1, 1000),
        **dict.fromkeys(("start_runs", "max_runs"), Range(1, 10**6)),
        "runs_step": Range(0, 10**6),
        "num_players": Range(2, 4),
    }


def resume_point(history: list[Generation], settings: EvolutionSettings) -> tuple[int, int | None]:
    """``(next generation, games per candidate then)`` after the recorded ``history``."""
    if not history:
        return 0, None
    last = history[-1]
    runs = last.runs + settings.runs_step if last.wins > last.runs / 2 else last.runs
    return last.generation + 1, min(runs, settings.max_runs)


def main(args: Args) -> tuple[Network, list[Generation]]:
    """Evolve (or continue) the run in ``args.out``; write its files; return the final network and history."""
    settings = settings_from(args, EvolutionSettings)
    out = Path(args.out)
    if args.resume:
        require_run(out, (NETWORK, HISTORY))  # before the folder is created or claimed
    with RunDirectory(out, (NETWORK, HISTORY, PLOT), resume=args.resume, force=args.force):
        history, parent = resume_evolution(out, settings, NETWORK, HISTORY) if args.resume else ([], None)
        start, runs = resume_point(history, settings)
        bar = _bar(args, start)

        def save(record: Generation, network: Network) -> None:
            history.append(record)
            write_history(history, out / HISTORY)  # first: a kill before the network is saved redoes this generation
            save_network(network, out / NETWORK, training_record(settings, history))
            if bar is not None:
                bar.update(1)
                bar.set_postfix(runs=record.runs, wins=f"{record.wins:.0f}", nodes=record.nodes)

        network, _ = evolve(settings, parent, start, runs, save) if start < settings.generations else (parent, [])
        if bar is not None:
            bar.close()
        if network is None:
            raise ValueError(f"{str(out)!r} holds no generation to resume from")
        preset = "inert tractors" if settings.inert_tractors else "correct tractors"
        plot_evolution(history, out / PLOT, f"Gravwell neuro-evolution, {settings.num_players} players, {preset}")
        if args.export_json:
            save_network(network, args.export_json, training_record(settings, history))
    return network, history


def _bar(args: Args, start: int) -> Any:
    if not args.progress:
        return None
    from tqdm import tqdm

    return tqdm(total=args.generations, initial=start, desc="generations", unit="gen")


def check_args(args: Args) -> None:
    """Refuse ``--resume`` with ``--force``, or without a run in ``--out``, before the folder is claimed (the
    evolution settings check themselves)."""
    if args.resume and args.force:
        raise OptionError("resume", "resume and force exclude each other: resume continues a run, force replaces it")
    if args.resume:
        require_run(Path(args.out), (NETWORK, HISTORY))


def cli(argv: list[str] | None = None) -> None:
    """Entry point of ``python -m scripts.evolve_gravwell``."""
    run_cli(Args, argv, _run, description=__doc__, check=check_args)


def _run(args: Args) -> None:
    network, history = main(args)
    last = history[-1]
    print(f"{len(history)} generations; last: {last.wins:.0f}/{last.runs} wins, {network.size()} hidden nodes")
    print(f"wrote {args.out}/{NETWORK}, {HISTORY}, {PLOT}" + (f" and {args.export_json}" if args.export_json else ""))


if __name__ == "__main__":
    cli()
