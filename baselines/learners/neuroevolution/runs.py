"""A whole neuro-evolution run in a folder, new or resumed: :func:`run` (``scripts/evolve_gravwell.py``'s work).

The run claims its folder (:class:`~baselines.runs.RunDirectory`: a new run refuses a folder holding one unless
``force``), evolves (:func:`~baselines.learners.neuroevolution.training.evolve`) and writes, after every
generation, ``history.csv`` then ``network.json`` (the current parent, with its training record); at the end
``evolution.png`` (the chosen candidate's win rate, mean final tile and size per generation) and, when asked,
a copy of the final network elsewhere. A run given ``resume`` continues exactly where it stopped: every
generation's randomness comes from ``(seed, generation)``, and a kill between the history and the network
redoes that generation.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from baselines.learners.neuroevolution.files import save_network
from baselines.learners.neuroevolution.history import (
    HISTORY_FILE,
    NETWORK_FILE,
    resume_evolution,
    training_record,
    write_history,
)
from baselines.learners.neuroevolution.network import Network
from baselines.learners.neuroevolution.training import EvolutionSettings, Generation, evolve
from baselines.plots import plot_evolution
from baselines.runs import RunDirectory, require_run

PLOT = "evolution.png"
"""The run's plot of its generations."""
OUTPUTS = (NETWORK_FILE, HISTORY_FILE, PLOT)
"""The files of a run's folder."""


def resume_point(history: list[Generation], settings: EvolutionSettings) -> tuple[int, int | None]:
    """``(next generation, games per candidate then)`` after the recorded ``history``."""
    if not history:
        return 0, None
    last = history[-1]
    runs = last.runs + settings.runs_step if last.wins > last.runs / 2 else last.runs
    return last.generation + 1, min(runs, settings.max_runs)


def run(
    settings: EvolutionSettings,
    out: str | Path,
    *,
    resume: bool = False,
    force: bool = False,
    export_json: str = "",
    progress: bool = False,
) -> tuple[Network, list[Generation]]:
    """Evolve (or, with ``resume``, continue) the run in the folder ``out``; write its files (and the final network
    to ``export_json`` when given); return the final network and the whole history.

    Raises:
        FileNotFoundError: ``resume`` without a run in ``out`` (nothing is created).
        FileExistsError: a new run in a folder that holds one, without ``force``.
        ValueError: a resumed run whose files are damaged, disagree, or were saved with other settings.
    """
    out = Path(out)
    if resume:
        require_run(out, (NETWORK_FILE, HISTORY_FILE))  # before the folder is created or claimed
    with RunDirectory(out, OUTPUTS, resume=resume, force=force):
        history, parent = resume_evolution(out, settings, NETWORK_FILE, HISTORY_FILE) if resume else ([], None)
        network = _evolve_saving(settings, out, history, parent, progress)
        _plot(history, settings, out / PLOT)
        if export_json:
            save_network(network, export_json, training_record(settings, history))
    return network, history


def _evolve_saving(
    settings: EvolutionSettings, out: Path, history: list[Generation], parent: Network | None, progress: bool
) -> Network:
    """Run the generations after ``history`` (appending to it), saving the history and the parent after each."""
    start, runs = resume_point(history, settings)
    bar = _bar(settings, start) if progress else None

    def save(record: Generation, network: Network) -> None:
        history.append(record)
        write_history(history, out / HISTORY_FILE)  # first: a kill before the network is saved redoes this generation
        save_network(network, out / NETWORK_FILE, training_record(settings, history))
        if bar is not None:
            bar.update(1)
            bar.set_postfix(runs=record.runs, wins=f"{record.wins:.0f}", nodes=record.nodes)

    network, _ = evolve(settings, parent, start, runs, save) if start < settings.generations else (parent, [])
    if bar is not None:
        bar.close()
    if network is None:
        raise ValueError(f"{str(out)!r} holds no generation to resume from")
    return network


def _bar(settings: EvolutionSettings, start: int) -> Any:
    from tqdm import tqdm

    return tqdm(total=settings.generations, initial=start, desc="generations", unit="gen")


def _plot(history: list[Generation], settings: EvolutionSettings, path: Path) -> None:
    preset = "inert tractors" if settings.inert_tractors else "correct tractors"
    plot_evolution(history, path, f"Gravwell neuro-evolution, {settings.num_players} players, {preset}")


__all__ = ["OUTPUTS", "PLOT", "resume_point", "run"]
