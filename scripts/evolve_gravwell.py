"""Evolve the neuro-evolution Gravwell agent (seed 000 §3.3) against pre-seeded random no-ES agents.

    python -m scripts.evolve_gravwell --generations 300 --out runs/gravwell_neuro/correct
    python -m scripts.evolve_gravwell --generations 300 --inert-tractors --out runs/gravwell_neuro/inert

Writes, after every generation, ``<out>/network.json`` (the current parent; a file
``make_agent("neuroevolution:network=<out>/network.json", "gravwell")`` plays) and ``<out>/history.csv``; every
``--eval-every`` generations ``<out>/eval.csv`` and ``<out>/learning_curve.png`` (the parent's score against
``--eval-opponents``, as every learner writes them); at the end ``<out>/evolution.png`` (the chosen candidate's win
rate, mean final tile and size per generation).
A killed run continues with ``--resume`` exactly where it stopped (every generation's randomness comes from
``(seed, generation)``); ``--force`` replaces a finished one. ``--export-json PATH`` also copies the final
network to ``PATH`` (the package ships ``gravwell_neuro_correct.json`` and ``..._inert.json`` in
``baselines/learners/neuroevolution/models/``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from baselines.learners.neuroevolution import HISTORY_FILE, NETWORK_FILE, EvolutionSettings
from baselines.learners.neuroevolution.runs import EvolutionEvaluation, NeuroevolutionRunResult, plan_run, run
from baselines.runs import require_run

from ._args import OptionError, run_cli

NETWORK, HISTORY = NETWORK_FILE, HISTORY_FILE


@dataclass(frozen=True)
class Args:
    """Evolve a neuro-evolution Gravwell agent: the evolution's settings (one flag per field of
    :class:`EvolutionSettings`) and the script's own options."""

    settings: EvolutionSettings = field(default_factory=EvolutionSettings)
    """The evolution's settings, parsed field by field."""
    evaluation: EvolutionEvaluation = field(default_factory=EvolutionEvaluation)
    """The arena evaluations of the parent (``--eval-every``, ``--eval-games``, ``--eval-opponents``)."""
    out: str = "runs/gravwell_neuro/correct"
    """Output folder: network.json, history.csv, eval.csv, learning_curve.png, evolution.png."""
    resume: bool = False
    """Continue the run in --out from its last finished generation."""
    force: bool = False
    """Replace the run --out holds (its files are deleted)."""
    export_json: str = ""
    """Also write the final network to this path (the package's data file)."""
    progress: bool = True
    """Show a tqdm progress bar."""


def main(args: Args) -> NeuroevolutionRunResult:
    """Evolve (or continue) the run in ``args.out`` (:func:`baselines.learners.neuroevolution.runs.run`)."""
    options = {"resume": args.resume, "force": args.force, "export_json": args.export_json}
    return run(args.settings, args.out, evaluation=args.evaluation, **options, progress=args.progress)


def check_args(args: Args) -> None:
    """Refuse ``--resume`` with ``--force``, or without a run in ``--out``, and unknown evaluation opponents before
    the folder is claimed (the evolution settings check themselves)."""
    plan_run(args.settings, args.evaluation, Path(args.out))
    if args.resume and args.force:
        raise OptionError("resume", "resume and force exclude each other: resume continues a run, force replaces it")
    if args.resume:
        require_run(Path(args.out), (NETWORK, HISTORY))


def cli(argv: list[str] | None = None) -> None:
    """Entry point of ``python -m scripts.evolve_gravwell``."""
    run_cli(Args, argv, _run, description=__doc__, check=check_args)


def _run(args: Args) -> None:
    result = main(args)
    last = result.history[-1]
    print(f"{len(result.history)} generations; last: {last.wins:.0f}/{last.runs} wins, {result.network.size()} nodes")
    print("; ".join(f"vs {row.opponent}: {row.win_rate:.2f} [{row.ci_low:.2f}, {row.ci_high:.2f}]"
                    for row in result.final_eval) or "no evaluation")  # fmt: skip
    written = [result.network_path, result.history_csv, result.eval_csv, result.curve_png, result.plot_png]
    written += [Path(args.export_json)] if args.export_json else []
    print("wrote " + ", ".join(str(path) for path in written if path.exists()))


if __name__ == "__main__":
    cli()
