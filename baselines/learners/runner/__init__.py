"""The one run skeleton the learner families train with: SB3, RLlib, tabular Q and QLNN run on all of it; AlphaZero
shares its opponent check (its gating and evaluation are per iteration, in its own history); neuro-evolution keeps
its generation log (it has no arena evaluation) and the run folder handling (``neuroevolution/runs.py``).

A run is: **plan** it from its settings (and a resumed run's checkpoint) before any work
(:mod:`.plan`: :class:`TrainPlan`, :class:`Resumed`, :func:`stretch_start`, :func:`resumed_config`); check its
opponent specs by parsing them against the registry (:mod:`.opponents`: :func:`check_agent_specs`,
:class:`OpponentMix`); claim its folder (:class:`baselines.runs.RunDirectory`); cut a resumed run's history back to
its checkpoint (:func:`baselines.learners.evaluation.cut_eval_history`); train, evaluating periodically in the arena
into ``eval.csv`` and the learning curve (:mod:`.record`: :class:`EvalLog`, :func:`crossed`), the family's own
``history.csv`` (:mod:`.points`); and return a :class:`RunResult`.
"""

from baselines.learners.runner.opponents import (
    LEARNER_KINDS,
    SELF,
    SELFPLAY,
    SNAPSHOT,
    OpponentMix,
    check_agent_specs,
    evaluation_opponents,
    training_opponents,
)
from baselines.learners.runner.plan import (
    Resumed,
    TrainPlan,
    check_resume_force,
    game_config_of,
    resumed_config,
    run_folder,
    stretch_start,
)
from baselines.learners.runner.record import EvalLog, RunResult, best_score, crossed, run_title

__all__ = [
    "LEARNER_KINDS",
    "SELF",
    "SELFPLAY",
    "SNAPSHOT",
    "EvalLog",
    "OpponentMix",
    "Resumed",
    "RunResult",
    "TrainPlan",
    "best_score",
    "check_agent_specs",
    "evaluation_opponents",
    "training_opponents",
    "check_resume_force",
    "crossed",
    "game_config_of",
    "resumed_config",
    "run_folder",
    "run_title",
    "stretch_start",
]
