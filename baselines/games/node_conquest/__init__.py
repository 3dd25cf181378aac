"""Node conquest (seed 001 describes no agent; these are ours): the scripted agent, the value function and the
compiled random playout.

* :mod:`.agents`: :class:`GreedyExpander` and :func:`node_conquest_value`, the value of the search agents.
* :mod:`.compiled` (kernels in :mod:`.kernels`): the random playout compiled with Numba, the same moves from the
  same numbers as the generic playout.
"""

from baselines.games.node_conquest.agents import GreedyExpander, node_conquest_value
from baselines.games.node_conquest.compiled import node_conquest_playout

__all__ = ["GreedyExpander", "node_conquest_playout", "node_conquest_value"]
