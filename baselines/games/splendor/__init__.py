"""Splendor (seed 002, Rinascimento): the scripted agents, the value function and the event-value functions.

* :mod:`.agents`: :class:`OSLAAgent` (seed 002's one-step look-ahead on points) and :class:`BuyerAgent`.
* :mod:`.search`: the value function of the search agents.
* :mod:`.event_values`: seed 002's event-value functions, a plan value of :class:`~baselines.search.rhea.RHEAAgent`.
"""

from baselines.games.splendor.agents import BuyerAgent, OSLAAgent
from baselines.games.splendor.event_values import EventValueFunction
from baselines.games.splendor.search import splendor_value

__all__ = ["BuyerAgent", "EventValueFunction", "OSLAAgent", "splendor_value"]
