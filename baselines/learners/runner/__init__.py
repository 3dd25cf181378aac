"""The one run skeleton every learner family trains with: SB3, RLlib, tabular Q, QLNN, AlphaZero and neuro-evolution.

A run is: **plan** it from its settings (and a resumed run's checkpoint) before any work
(:mod:`.plan`: :class:`TrainPlan`, :class:`Resumed`, :func:`stretch_start`, :func:`resumed_config`; an
episode-based run against one opponent with :func:`plan_episodes`); check its opponent specs by parsing them against
the registry (:mod:`.opponents`: :func:`check_agent_specs`, :class:`OpponentMix`); claim its folder
(:class:`baselines.runs.RunDirectory`); cut a resumed run's history back to its checkpoint
(:func:`baselines.learners.evaluation.cut_eval_history`); train, evaluating periodically in the arena into
``eval.csv`` and ``learning_curve.png`` (:mod:`.record`: :class:`EvalLog`, :func:`crossed`) beside the family's
own ``history.csv`` (:mod:`.points` for tabular Q and QLNN; AlphaZero's losses and gating, neuro-evolution's
generations); and return a :class:`RunResult` (each family's subclass adds its model files).

What a family keeps for itself is what only it has: the steps it counts (timesteps, episodes, iterations,
generations), its checkpoint format and the resume checks that go with it (AlphaZero's ``state.pt`` and replay
window, neuro-evolution's network and generation log), AlphaZero's gating arena.
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
    plan_episodes,
    resumed_config,
    run_folder,
    stretch_start,
    was_killed,
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
    "plan_episodes",
    "resumed_config",
    "run_folder",
    "run_title",
    "stretch_start",
    "was_killed",
]
