"""Splendor (seed 002, Rinascimento): the paper's agents, the value function and the event-value functions.

* :mod:`.agents`: :class:`OSLAAgent` (seed 002's one-step look-ahead on points) and :class:`BuyerAgent`.
* :mod:`.rmcts`: :class:`RinascimentoMCTSAgent` (``rmcts``, the paper's MCTS with iterative widening).
* :class:`~baselines.search.rhea.SRHAgent` (``srh``, the paper's Seeding RHEA) lives with BMRH in
  :mod:`baselines.search.rhea`; both play every game and are registered by name for Splendor.
* :mod:`.search`: the value function of the search agents.
* :mod:`.event_values`: seed 002's event-value functions, a plan value of :class:`~baselines.search.rhea.RHEAAgent`.
"""

from baselines.games.splendor.agents import BuyerAgent, OSLAAgent
from baselines.games.splendor.event_values import EventValueFunction
from baselines.games.splendor.rmcts import RinascimentoMCTSAgent
from baselines.games.splendor.search import splendor_value
from baselines.search.rhea import SRHAgent

__all__ = ["BuyerAgent", "EventValueFunction", "OSLAAgent", "RinascimentoMCTSAgent", "SRHAgent", "splendor_value"]
