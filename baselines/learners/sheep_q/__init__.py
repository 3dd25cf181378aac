"""Battle Sheep's ``qlearning`` agent: seed 003's tabular Q-learning (its game-1 comparison), with a shipped table.

The seed's Q-table holds "Q-values in the format [row, column, moving direction], [...] a 12 x 12 x 8 matrix",
updated by the Bellman equation; it says nothing more. Our reading of that abstraction:

* **State and action.** The table has no board state: an entry is the value of moving a group from the stack
  on cell ``(row, column)`` in one of the 8 directions. The agent plays the legal (cell, direction) pair with
  the highest value (ties to its generator) and moves half the stack (``n // 2``, the middle one of the seed's
  three split sizes 1, n // 2, n - 1; the table has no split dimension). Other board sizes read the 12 x 12
  table through the cell's scaled position (``row * 12 // n``).
* **Placement.** The seed's convolution start cell (:meth:`EvaluationAgent.start_cell`), as in all its agents.
* **Learning** (:func:`learn`). One-step Q-learning between the learner's successive decisions:
  ``Q(s, a) += alpha (r + gamma max_a' Q(s', a') - Q(s, a))`` over the legal pairs ``a'`` of the next decision,
  with ``r`` the change of the learner's region score over the interval divided by ``S ** 1.25`` (the seed's
  score normaliser) and, after its last decision, that change plus the game's return (``gamma`` does not
  apply there). Exploration is epsilon-greedy, epsilon falling linearly (:class:`baselines.schedules.LinearDecay`).
  The learner takes each seat in turn against random players in the 4-player basic game (course game 1).
* **Hidden stack sizes** do not matter: the agent reads only its own stacks and which cells are free.

The shipped table (``models/battle_sheep_q.json`` in this package, written by ``python -m
scripts.battle_sheep_paper --train-q``) is what ``make_agent("qlearning", "battle_sheep")`` plays;
``qlearning:table=<file.json>`` plays another one.

The modules: :mod:`.table` (:class:`SheepQTable`, :class:`SheepQSettings`, the file), :mod:`.agent`
(:class:`SheepQAgent`), :mod:`.training` (:class:`SheepQLearner`, :func:`learn`).
"""

from baselines.factory import register_agent
from baselines.learners.sheep_q.agent import SheepQAgent, half_split_action, move_pairs
from baselines.learners.sheep_q.table import (
    DIRECTIONS,
    MODELS_DIR,
    SHIPPED,
    SHIPPED_TABLE,
    TABLE_SIZE,
    SheepQSettings,
    SheepQTable,
)
from baselines.learners.sheep_q.training import SheepQLearner, learn
from boardenvs.registry import register_opponent

__all__ = [
    "DIRECTIONS",
    "MODELS_DIR",
    "SHIPPED",
    "SHIPPED_TABLE",
    "TABLE_SIZE",
    "SheepQAgent",
    "SheepQLearner",
    "SheepQSettings",
    "SheepQTable",
    "half_split_action",
    "learn",
    "move_pairs",
]

register_agent("qlearning", SheepQAgent, games=("battle_sheep",))
register_opponent("battle_sheep", "qlearning", SheepQAgent)
