"""Battle Sheep (seed 003): the agents of the seed's game-1 comparison and the value function of the search agents.

* :mod:`.evaluation`: the seed's "Evaluation Score" (:func:`evaluation_score`), its move set
  (:func:`seed_moves`), the convolution start cell, the greedy :class:`EvaluationAgent` (``evaluation``) and
  :func:`battle_sheep_value`, the value of the search agents (MCTS's ``heuristic`` evaluator, ``alphabeta``).
* :mod:`.minimax`: :class:`MinimaxAgent` (``minimax``), depth-limited paranoid minimax with alpha-beta on the
  evaluation score.
* :mod:`.compiled` (kernels in :mod:`.kernels`): the random playout and the field draw compiled with Numba, the
  same games from the same numbers as the engine and the generic playout.

The seed's 12 x 12 x 8 tabular Q agent (``qlearning``) is a learner: :mod:`baselines.learners.sheep_q`. The rest
of the seed's comparison is generic: ``random``, classical MCTS (``mcts``, random rollouts) and the
seed's own agent, MCTS valued by the evaluation score (``mcts:evaluator=heuristic``); ``scripts/battle_sheep_paper.py``
plays them all.
"""

from baselines.games.battle_sheep.compiled import battle_sheep_initial_state, battle_sheep_playout
from baselines.games.battle_sheep.evaluation import (
    BATTLE_SHEEP_GAIN,
    START_KERNEL,
    EvaluationAgent,
    battle_sheep_value,
    crowding_map,
    evaluation_score,
    seed_moves,
    seed_splits,
)
from baselines.games.battle_sheep.minimax import MinimaxAgent

__all__ = [
    "BATTLE_SHEEP_GAIN",
    "START_KERNEL",
    "EvaluationAgent",
    "MinimaxAgent",
    "battle_sheep_initial_state",
    "battle_sheep_playout",
    "battle_sheep_value",
    "crowding_map",
    "evaluation_score",
    "seed_moves",
    "seed_splits",
]
