"""Quoridor (seed 004, Hol'a's thesis): the scripted agents and what the search agents use.

* :mod:`.agents`: :class:`PathAgent` (§4.5 PathPlayer) and :class:`HeuristicAgent` (§4.6 HeuristicPlayer).
* :mod:`.search`: the value function, move priors and the fast bitmask playout.
"""

from baselines.games.quoridor.agents import HeuristicAgent, PathAgent, closest_opponent
from baselines.games.quoridor.search import quoridor_playout, quoridor_priors, quoridor_value

__all__ = ["HeuristicAgent", "PathAgent", "closest_opponent", "quoridor_playout", "quoridor_priors", "quoridor_value"]
