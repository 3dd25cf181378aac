"""Gravwell (seed 000, Gravitas): the scripted agents, the paper's tabular Q-learning and the value function.

* :mod:`.agents`: the random agents with and without Emergency Stop (§3.6) and the decision-tree agent (§3.5).
* :mod:`.qlearning`: the paper's tabular Q-learning agent (§3.4), its training, and :class:`PretrainedQAgent`
  with the tables shipped in ``baselines/data/``.
* :mod:`.neuroevolution`: the paper's neuro-evolution agent (§3.3): the card-preference network, its
  simplified FS-NEAT mutations and evolution against pre-seeded random agents, with the shipped networks.
* :mod:`.search`: the value function of the search agents.
"""

from baselines.games.gravwell.agents import DecisionTreeAgent, RandomAgent, RandomNoStopAgent, card_group
from baselines.games.gravwell.neuroevolution import EvolutionSettings, Network, NeuroevolutionAgent, evolve
from baselines.games.gravwell.qlearning import PretrainedQAgent, QLearningAgent, QSettings, learn
from baselines.games.gravwell.search import gravwell_value

__all__ = [
    "DecisionTreeAgent",
    "EvolutionSettings",
    "Network",
    "NeuroevolutionAgent",
    "PretrainedQAgent",
    "QLearningAgent",
    "QSettings",
    "RandomAgent",
    "RandomNoStopAgent",
    "card_group",
    "evolve",
    "gravwell_value",
    "learn",
]
