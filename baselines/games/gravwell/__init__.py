"""Gravwell (seed 000, Gravitas): the scripted agents, the value function and the compiled random playout.

* :mod:`.agents`: the random agents with and without Emergency Stop (§3.6) and the decision-tree agent (§3.5).
* :mod:`.search`: the value function of the search agents.
* :mod:`.compiled` (kernels in :mod:`.kernels`): the random playout compiled with Numba, the same moves from the
  same numbers as the generic playout.

The paper's learners are learners (:mod:`baselines.learners`): its tabular Q-learning (§3.4) in
:mod:`baselines.learners.gravwell_q`, its neuro-evolution (§3.3) in :mod:`baselines.learners.neuroevolution`.
"""

from baselines.games.gravwell.agents import DecisionTreeAgent, RandomEmergencyStopAgent, RandomNoStopAgent, card_group
from baselines.games.gravwell.compiled import gravwell_playout
from baselines.games.gravwell.search import gravwell_value

__all__ = [
    "DecisionTreeAgent",
    "RandomEmergencyStopAgent",
    "RandomNoStopAgent",
    "card_group",
    "gravwell_playout",
    "gravwell_value",
]
