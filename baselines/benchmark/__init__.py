"""The learner benchmark: every learner on every game, at a stated budget, in one resumable table.

(Not to be confused with ``scripts/bench.py``, the engines' speed, measured by :mod:`baselines.speed`.)

One job per module:

- :mod:`~baselines.benchmark.table`: the benchmark as data. :data:`TABLE` holds one :class:`Cell` per game and
  learner, each with its game config, its training opponents, its learner settings and a :class:`Budget` per
  budget name (``small``: minutes for the whole table, a smoke test; ``standard``: every cell over 5 training seeds
  in <= 8 hours with 2 workers; ``full``: hours for one seed).
- :mod:`~baselines.benchmark.cell_settings`: a cell's learner settings (``key=value`` over the settings dataclass).
- :mod:`~baselines.benchmark.jobs`: one cell to run (:class:`CellJob`) and its result files.
- :mod:`~baselines.benchmark.trainers`: each learner's training of a cell with its own trainer (SB3's
  :func:`~baselines.learners.sb3.runs.train`, :class:`~baselines.learners.alphazero.AlphaZeroTrainer`, tabular
  :func:`~baselines.learners.tabular_q.train`).
- :mod:`~baselines.benchmark.evaluation`: the trained agent on fresh seeds against ``random`` and the game's best
  scripted agent (:data:`SCRIPTED`), seats rotated, counting illegal moves.
- :mod:`~baselines.benchmark.cells`: :func:`run_cell` trains and evaluates one cell and writes
  ``<out>/<cell>/result.json`` (atomically) last, so a cell with a result is finished and is never trained again
  (unless its spec changed or ``force``). A killed cell continues with the learner's own resume where it has one
  (SB3 and AlphaZero runs), otherwise it starts again.
- :mod:`~baselines.benchmark.report`: :func:`write_outputs` writes ``benchmark.csv`` (one row per cell and
  evaluation opponent), ``benchmark.md`` (one markdown table, game x learner) and one learning-curve PNG per game.
- :mod:`~baselines.benchmark.curves`: the learning curves, read from each learner's own history
  (:func:`learning_curve`), and their picture.
- :mod:`~baselines.benchmark.aggregate` and :mod:`~baselines.benchmark.seed_report`: the benchmark over training
  seeds (each seed a whole table in ``<out>/seed_<s>/``): interquartile means with stratified bootstrap intervals,
  learning curves with bands and performance profiles (``aggregate.csv``, ``aggregate.md``, ``profiles.png``,
  ``curves_<game>.png``).
- :mod:`~baselines.benchmark.shipping`: :func:`ship_models` copies each game's best PPO model into the shelf of
  ``ppo:pretrained`` (:mod:`baselines.learners.sb3.pretrained`).

``scripts/learner_benchmark.py`` is the command line.
"""

from __future__ import annotations

from baselines.benchmark.cell_settings import SAMPLED_LEARNERS, alphazero_settings, sb3_settings, with_settings
from baselines.benchmark.cells import check_cell, elapsed_text, run_cell, run_job, start_worker
from baselines.benchmark.curves import CurvePoint, learning_curve, plot_game
from baselines.benchmark.evaluation import CountingAgent, final_evaluation, trained_agent
from baselines.benchmark.jobs import CellJob, Trained, is_finished, read_result
from baselines.benchmark.report import CSV_COLUMNS, markdown_row, summary, write_outputs
from baselines.benchmark.shipping import ship_models
from baselines.benchmark.table import (
    LEARNERS,
    SCRIPTED,
    TABLE,
    Budget,
    Cell,
    budget_names,
    check_table,
    full,
    select,
    small,
    standard,
)
from baselines.benchmark.trainers import TRAINERS

__all__ = [
    "CSV_COLUMNS",
    "LEARNERS",
    "SAMPLED_LEARNERS",
    "SCRIPTED",
    "TABLE",
    "TRAINERS",
    "Budget",
    "Cell",
    "CellJob",
    "CountingAgent",
    "CurvePoint",
    "Trained",
    "alphazero_settings",
    "budget_names",
    "check_cell",
    "check_table",
    "elapsed_text",
    "final_evaluation",
    "full",
    "standard",
    "is_finished",
    "learning_curve",
    "markdown_row",
    "plot_game",
    "read_result",
    "run_cell",
    "run_job",
    "sb3_settings",
    "select",
    "ship_models",
    "small",
    "start_worker",
    "summary",
    "trained_agent",
    "with_settings",
    "write_outputs",
]
