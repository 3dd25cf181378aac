"""A whole neuro-evolution run in a folder, new or resumed, on the shared run skeleton
(:mod:`baselines.learners.runner`): :func:`run` (``scripts/evolve_gravwell.py``'s work).

The run checks its evaluation opponents before any work (*parsed* against the agent registry), plans itself as every
learner does (a :class:`~baselines.learners.runner.TrainPlan` whose steps are generations), claims its folder
(:class:`~baselines.runs.RunDirectory`: a new run refuses a folder holding one unless ``force``) and evolves
(:func:`~baselines.learners.neuroevolution.training.evolve`). After every generation it writes ``history.csv`` (the
family's own record, one :class:`Generation` per row) then ``network.json`` (the current parent, with its training
record); every ``eval_every`` generations and after the last it first plays the parent in the arena against the
evaluation opponents (:class:`~baselines.learners.runner.EvalLog`: ``eval.csv`` and ``learning_curve.png``, the log
and curve every learner writes). At the end it draws ``evolution.png`` (the chosen candidate's win rate, mean final
tile and size per generation) and, when asked, copies the final network elsewhere.

A run given ``resume`` continues exactly where it stopped: every generation's randomness comes from
``(seed, generation)`` and the evaluation games from ``seed``; a kill between the files of a generation redoes that
generation, and ``eval.csv`` is cut back to the generations the network holds.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from baselines.learners.evaluation import EvalRow, cut_eval_history
from baselines.learners.neuroevolution.agent import NeuroevolutionAgent
from baselines.learners.neuroevolution.files import load_saved_network, save_network
from baselines.learners.neuroevolution.history import (
    HISTORY_FILE,
    NETWORK_FILE,
    resume_evolution,
    training_record,
    write_history,
)
from baselines.learners.neuroevolution.network import Network
from baselines.learners.neuroevolution.training import EvolutionSettings, Generation, evolve
from baselines.learners.runner import (
    EvalLog,
    OpponentMix,
    Resumed,
    RunResult,
    TrainPlan,
    check_agent_specs,
    crossed,
    game_config_of,
)
from baselines.plots import plot_evolution
from baselines.progress import progress_bar
from baselines.runs import RunDirectory, require_run
from baselines.settings import Range, setting
from boardenvs.registry import make_game

GAME = "gravwell"
"""The game neuro-evolution plays."""
PLOT, EVAL, CURVE = "evolution.png", "eval.csv", "learning_curve.png"
"""The run's plot of its generations, and the shared evaluation log and learning curve."""
OUTPUTS = (NETWORK_FILE, HISTORY_FILE, PLOT, EVAL, CURVE)
"""The files of a run's folder."""
TRAINING_OPPONENT = "random_no_es"
"""Who the candidates play in the generations' games (the seed's pre-seeded random no-ES agents)."""


@dataclass(frozen=True)
class EvolutionEvaluation:
    """How a run evaluates its parent network in the arena (``scripts/evolve_gravwell.py``'s ``--eval-*`` options).

    The generations' own games measure the candidates against random no-ES agents only; these evaluations put the
    parent against fixed reference agents on the same seeded games each time, the learning curve every learner draws.
    """

    eval_every: int = setting(0, Range(0, 10**6))
    """Generations between evaluations (0: a tenth of the generations); the last generation is always evaluated."""
    eval_games: int = setting(20, Range(0, 10**6))
    """Games against each evaluation opponent per evaluation, seats rotating (0: no evaluation)."""
    eval_opponents: str = "random_no_es,tree"
    """Comma-separated agent specs of Gravwell's evaluation opponents (the seed's random no-ES and decision tree)."""

    def every(self, generations: int) -> int:
        """Generations between evaluations for a run of ``generations``."""
        return self.eval_every or max(1, generations // 10)


@dataclass
class NeuroevolutionRunResult(RunResult):
    """What a neuro-evolution run produced (besides :class:`~baselines.learners.runner.RunResult`'s fields, whose
    ``steps`` are generations).

    Attributes:
        network: The final parent network.
        history: Every generation's record (a resumed run's earlier ones included).
        network_path: The saved network (``network.json``).
        history_csv: The generations as CSV.
        plot_png: ``evolution.png``.
    """

    network: Network
    history: list[Generation]
    network_path: Path
    history_csv: Path
    plot_png: Path


def resume_point(history: list[Generation], settings: EvolutionSettings) -> tuple[int, int | None]:
    """``(next generation, games per candidate then)`` after the recorded ``history``."""
    if not history:
        return 0, None
    last = history[-1]
    runs = last.runs + settings.runs_step if last.wins > last.runs / 2 else last.runs
    return last.generation + 1, min(runs, settings.max_runs)


def plan_run(
    settings: EvolutionSettings, evaluation: EvolutionEvaluation, out: Path, resumed: Resumed | None = None
) -> TrainPlan:
    """The run's plan: Gravwell with the settings' seats and tractors, the evaluation opponents (checked; a
    ``ValueError`` starting with ``eval_opponents:``), the folder and the checkpoint it resumes."""
    game = make_game(GAME, num_players=settings.num_players, inert_tractors=settings.inert_tractors)
    specs = check_agent_specs("eval_opponents", evaluation.eval_opponents, GAME) if evaluation.eval_games else []
    plan = TrainPlan(game, game_config_of(game), OpponentMix((TRAINING_OPPONENT,)), specs, out, resumed)
    plan.target_steps = settings.generations
    return plan


def run(
    settings: EvolutionSettings,
    out: str | Path,
    *,
    evaluation: EvolutionEvaluation | None = None,
    resume: bool = False,
    force: bool = False,
    export_json: str = "",
    progress: bool = False,
) -> NeuroevolutionRunResult:
    """Evolve (or, with ``resume``, continue) the run in the folder ``out``; write its files (and the final network
    to ``export_json`` when given).

    Raises:
        FileNotFoundError: ``resume`` without a run in ``out`` (nothing is created).
        FileExistsError: a new run in a folder that holds one, without ``force``.
        ValueError: an unknown evaluation opponent, or a resumed run whose files are damaged, disagree, or were
            saved with other settings.
    """
    out, evaluation = Path(out), evaluation or EvolutionEvaluation()
    plan_run(settings, evaluation, out)  # every setting checked before the folder is touched
    if resume:
        require_run(out, (NETWORK_FILE, HISTORY_FILE))
    with RunDirectory(out, OUTPUTS, resume=resume, force=force):
        history, parent = resume_evolution(out, settings, NETWORK_FILE, HISTORY_FILE) if resume else ([], None)
        plan = plan_run(settings, evaluation, out, _resumed(out, history))
        log = _eval_log(plan, settings, evaluation, resuming=resume)
        network = _evolve_saving(plan, settings, evaluation.every(settings.generations), log, history, parent, progress)
        _plot(history, settings, out / PLOT)
        if export_json:
            save_network(network, export_json, training_record(settings, history, log.wall_seconds()))
        fields = log.result_fields(len(history))
    return NeuroevolutionRunResult(
        **fields, network=network, history=history, network_path=out / NETWORK_FILE,
        history_csv=out / HISTORY_FILE, plot_png=out / PLOT,
    )  # fmt: skip


def _resumed(out: Path, history: list[Generation]) -> Resumed | None:
    """The checkpoint a resumed run goes on from: its network, generations and wall time (``None``: from scratch)."""
    if not history:
        return None
    training = load_saved_network(out / NETWORK_FILE)[1]
    wall = training.get("wall_seconds", 0.0)
    wall = float(wall) if isinstance(wall, int | float) and not isinstance(wall, bool) and wall >= 0 else 0.0
    return Resumed(out / NETWORK_FILE, len(history), wall, extra=training)


def _eval_log(plan: TrainPlan, settings: EvolutionSettings, evaluation: EvolutionEvaluation, resuming: bool) -> EvalLog:
    rows: list[EvalRow] = cut_eval_history(plan.out / EVAL, plan.resumed_steps)[0] if resuming else []
    title = f"Gravwell neuro-evolution, {_preset(settings)}, seed {settings.seed}"
    return EvalLog(plan, GAME, settings.seed, evaluation.eval_games, title, rows, steps="generations")


def _evolve_saving(
    plan: TrainPlan,
    settings: EvolutionSettings,
    eval_every: int,
    log: EvalLog,
    history: list[Generation],
    parent: Network | None,
    progress: bool,
) -> Network:
    """Run the generations after ``history`` (appending to it); after each, evaluate the parent when due, then save
    the history and the parent."""
    start, runs = resume_point(history, settings)
    with progress_bar(progress, settings.generations, "generations", "gen", done=start) as bar:

        def save(record: Generation, network: Network) -> None:
            steps = record.generation + 1
            if plan.eval_opponents and (crossed(steps - 1, steps, eval_every) or steps == settings.generations):
                log.record(NeuroevolutionAgent(settings.seed, network), steps)
            history.append(record)
            write_history(history, plan.out / HISTORY_FILE)  # first: a kill before the network redoes the generation
            save_network(network, plan.out / NETWORK_FILE, training_record(settings, history, log.wall_seconds()))
            bar.update(1)
            bar.set_postfix(runs=record.runs, wins=f"{record.wins:.0f}", nodes=record.nodes, eval=log.status())

        network, _ = evolve(settings, parent, start, runs, save) if start < settings.generations else (parent, [])
    if network is None:
        raise ValueError(f"{str(plan.out)!r} holds no generation to resume from")
    return network


def _preset(settings: EvolutionSettings) -> str:
    tractors = "inert tractors" if settings.inert_tractors else "correct tractors"
    return f"{settings.num_players} players, {tractors}"


def _plot(history: list[Generation], settings: EvolutionSettings, path: Path) -> None:
    plot_evolution(history, path, f"Gravwell neuro-evolution, {_preset(settings)}")


__all__ = [
    "OUTPUTS",
    "PLOT",
    "EvolutionEvaluation",
    "NeuroevolutionRunResult",
    "plan_run",
    "resume_point",
    "run",
]
