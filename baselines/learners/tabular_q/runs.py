"""A whole tabular Q training run on the shared run skeleton (:mod:`baselines.learners.runner`): :func:`run`.

The run checks its settings before any work (the game and its config, the opponents and the evaluation opponent
*parsed* against the agent registry, never built), plans its stretch of episodes (:class:`TrainPlan`), claims its
folder (:class:`~baselines.runs.RunDirectory`: a new run refuses a folder holding one unless ``force``), trains,
and at every evaluation writes, each atomically:

- ``eval.csv`` and ``learning_curve.png``: the greedy agent against the evaluation opponent, the shared log and
  curve of every learner (:class:`~baselines.learners.runner.record.EvalLog`);
- ``history.csv``: the family's rows (:class:`TabularQPoint`: ε, states, training score, informed moves);
- ``table.npz``: the table so far, its ``training`` record holding the stretch's start and target episodes.

At the end it draws ``history.png`` (win rate with 95% intervals and the table's states). A run given ``resume``
continues the table in its folder: ``eval.csv`` and ``history.csv`` are cut back to the table's episodes, and
``episodes`` counts from where the run started, as every learner's ``steps`` do
(:func:`~baselines.learners.runner.plan.stretch_start`). The random state is not saved, so a resumed run is not
bit-identical to a straight one.

``settings`` is any object with the run's fields: ``game``, ``config``, ``episodes``, ``opponents``, ``eval_every``
(0: ``episodes // 20``), ``eval_games``, ``eval_opponent``, ``seed``, ``out``, ``progress`` and, optionally,
``resume`` and ``force`` (``scripts/train_tabular_q.py``'s options).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from baselines.learners.evaluation import EvalRow, cut_eval_history
from baselines.learners.runner import EvalLog, Resumed, RunResult, TrainPlan, plan_episodes, run_title
from baselines.learners.runner.points import cut_points, write_points
from baselines.learners.tabular_q.agent import TabularQAgent
from baselines.learners.tabular_q.settings import TabularQSettings
from baselines.learners.tabular_q.table import QTable
from baselines.learners.tabular_q.training import SELF_PLAY, QTrainer, TabularQPoint
from baselines.runs import RunDirectory, atomic_write, require_run

KIND = "tabular_q"
"""The learner's name in default run folders (``runs/<game>-tabular_q-<seed>``)."""
TABLE, HISTORY, EVAL, CURVE, HISTORY_PLOT = "table.npz", "history.csv", "eval.csv", "learning_curve.png", "history.png"
OUTPUTS = (TABLE, HISTORY, EVAL, CURVE, HISTORY_PLOT)
"""The files of a run's folder."""


@dataclass
class TabularQRunResult(RunResult):
    """What a tabular Q run produced (besides :class:`~baselines.learners.runner.RunResult`'s fields).

    Attributes:
        agent: The greedy agent of the trained table.
        history: The run's :class:`TabularQPoint` rows (a resumed run's earlier rows included).
        table_path: The saved table.
        history_csv: The rows as CSV.
    """

    agent: TabularQAgent
    history: list[TabularQPoint]
    table_path: Path
    history_csv: Path


def plan_run(settings: Any) -> TrainPlan:
    """Check the run's settings (``ValueError`` naming the bad one) and plan its stretch of episodes
    (:func:`~baselines.learners.runner.plan_episodes`; self-play is an opponent too)."""
    return plan_episodes(settings, KIND, learner_kinds=(SELF_PLAY,), resume_from=resumed_table)


def resumed_table(out: Path) -> Resumed:
    """The table a resumed run in ``out`` goes on from (``FileNotFoundError`` if the folder holds no run)."""
    require_run(out, (TABLE,))
    table = QTable.load(out / TABLE)
    return Resumed(out / TABLE, int(table.training.get("episodes", 0)), extra=table.training, card=table)


def run(settings: Any, learning: TabularQSettings) -> TabularQRunResult:
    """Check, plan and train the run ``settings`` describes with the ``learning`` settings; write its files.

    Raises:
        ValueError: a bad setting, or a damaged file of a resumed run.
        FileNotFoundError: ``resume`` without a table in the folder.
        FileExistsError: a new run in a folder that holds one, without ``force``.
    """
    plan = plan_run(settings)
    resuming = plan.resumed is not None
    with RunDirectory(plan.out, OUTPUTS, resume=resuming, force=bool(getattr(settings, "force", False))):
        agent = _agent(plan, learning, settings.seed)
        steps = plan.resumed_steps
        points = cut_points(plan.out / HISTORY, TabularQPoint, steps) if resuming else []
        rows: list[EvalRow] = cut_eval_history(plan.out / EVAL, steps)[0] if resuming else []
        title = run_title(settings, "tabular Q")
        log = EvalLog(plan, settings.game, settings.seed, settings.eval_games, title, rows, steps="episodes")
        trainer = LoggedTrainer(plan, agent, settings, log)
        eval_every = settings.eval_every or max(1, settings.episodes // 20)
        stretch, done = plan.target_steps - plan.start_steps, steps - plan.start_steps

        def keep(point: TabularQPoint) -> None:
            points.append(point)
            write_points(points, TabularQPoint, plan.out / HISTORY)
            save_table(agent, plan, settings, point.episode)

        trainer.run(stretch, learning.epsilon_schedule, eval_every, settings.progress, done=done,
                    offset=plan.start_steps, first_point=not resuming, on_point=keep)  # fmt: skip
        _plot_history(points, plan, settings)
        fields = log.result_fields(plan.target_steps)
    return TabularQRunResult(**fields, agent=agent, history=points, table_path=plan.out / TABLE,
                             history_csv=plan.out / HISTORY)  # fmt: skip


def _agent(plan: TrainPlan, learning: TabularQSettings, seed: int) -> TabularQAgent:
    table = plan.resumed.card if plan.resumed is not None else QTable.empty(plan.game, learning)
    table.settings = learning
    agent = TabularQAgent(seed, table=table)
    agent.check_game(plan.game)
    return agent


def save_table(agent: TabularQAgent, plan: TrainPlan, settings: Any, episodes: int) -> Path:
    """Save the agent's table into the run's folder atomically, recording its episodes and the stretch's marks."""
    label = settings.opponents
    agent.table.training = {"episodes": episodes, "opponents": label, "seed": settings.seed, **plan.marks()}
    return atomic_write(plan.out / TABLE, agent.table.save)


def _plot_history(points: list[TabularQPoint], plan: TrainPlan, settings: Any) -> None:
    from baselines.plots import plot_tabular_q_history

    config = " ".join(settings.config)
    title = f"tabular Q: {settings.game} {config} vs {settings.opponents}, eval vs {settings.eval_opponent}"
    plot_tabular_q_history(points, plan.out / HISTORY_PLOT, title.replace("  ", " "), plan.game.spec.num_players)


class LoggedTrainer(QTrainer):
    """A :class:`QTrainer` whose evaluations are the run's :class:`EvalLog` records (``eval.csv`` and the curve)."""

    def __init__(self, plan: TrainPlan, agent: TabularQAgent, settings: Any, log: EvalLog) -> None:
        opponents, evaluator = settings.opponents, settings.eval_opponent
        super().__init__(plan.game, agent, opponents, settings.seed, settings.eval_games, evaluator)
        self.log = log
        self.at = 0

    def point(self, episode: int, epsilon: float) -> TabularQPoint:
        """The history row at ``episode`` (its evaluation logged at that episode)."""
        self.at = episode
        return super().point(episode, epsilon)

    def evaluate(self) -> tuple[int, int, int]:
        """``(wins, draws, losses)`` of the greedy agent, from the row the log records now."""
        if self.eval_games == 0:
            return 0, 0, 0
        self.agent.moves = self.agent.informed_moves = 0
        row = self.log.record(self.agent, self.at)[0]
        return row.wins, row.draws, row.losses


__all__ = ["OUTPUTS", "LoggedTrainer", "TabularQRunResult", "plan_run", "resumed_table", "run", "save_table"]
