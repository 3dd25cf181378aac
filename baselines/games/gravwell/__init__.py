"""Gravwell (seed 000, Gravitas): the scripted agents and the value function.

* :mod:`.agents`: the random agents with and without Emergency Stop (§3.6) and the decision-tree agent (§3.5).
* :mod:`.search`: the value function of the search agents.

The paper's learners are learners (:mod:`baselines.learners`): its tabular Q-learning (§3.4) in
:mod:`baselines.learners.gravwell_q`, its neuro-evolution (§3.3) in :mod:`baselines.learners.neuroevolution`.
"""

from baselines.games.gravwell.agents import DecisionTreeAgent, RandomEmergencyStopAgent, RandomNoStopAgent, card_group
from baselines.games.gravwell.search import gravwell_value

__all__ = [
    "DecisionTreeAgent",
    "RandomEmergencyStopAgent",
    "RandomNoStopAgent",
    "card_group",
    "gravwell_value",
]
