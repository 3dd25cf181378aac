"""Splendor (seed 002, Rinascimento): the paper's agents, the value function and the event-value functions.

* :mod:`.agents`: :class:`OSLAAgent` (seed 002's one-step look-ahead on points) and :class:`BuyerAgent`.
* :class:`~baselines.search.rmcts.RinascimentoMCTSAgent` (``rmcts``, the paper's MCTS with iterative widening) and
  :class:`~baselines.search.rhea.SRHAgent` (``srh``, the paper's Seeding RHEA) are search algorithms and live in
  :mod:`baselines.search`; both play every game and are registered by name for Splendor.
* :mod:`.search`: the value function of the search agents.
* :mod:`.compiled` (kernels in :mod:`.kernels` and :mod:`.kernel_moves`): the random playout compiled with Numba,
  the same moves from the same numbers as the generic playout.
* :mod:`.event_values`: seed 002's event-value functions, and :mod:`.plan_values`, which gives them to
  :class:`~baselines.search.rhea.RHEAAgent` as ``value="ef"`` (with the preset ``ef_linear_hc``).
"""

from baselines.games.splendor.agents import BuyerAgent, OSLAAgent
from baselines.games.splendor.compiled import splendor_playout
from baselines.games.splendor.event_values import EventValueFunction
from baselines.games.splendor.search import splendor_value
from baselines.search.rhea import SRHAgent
from baselines.search.rmcts import RinascimentoMCTSAgent

__all__ = [
    "BuyerAgent",
    "EventValueFunction",
    "OSLAAgent",
    "RinascimentoMCTSAgent",
    "SRHAgent",
    "splendor_playout",
    "splendor_value",
]
