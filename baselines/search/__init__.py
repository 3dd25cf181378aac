"""Search agents that play every game through its forward model, and what they share.

* :mod:`.mcts`: :class:`~baselines.search.mcts.MCTSAgent`, UCT or PUCT over any leaf evaluator (``make_agent("mcts")``).
* :mod:`.rhea`: :class:`~baselines.search.rhea.RHEAAgent`, rolling-horizon evolution (seed 002; ``make_agent("rhea")``),
  with its parameters, presets and plan values in :mod:`.rhea_params`.
* :mod:`.rmcts`: :class:`~baselines.search.rmcts.RinascimentoMCTSAgent`, Rinascimento's MCTS (seed 002;
  ``make_agent("rmcts", "splendor")``).
* :mod:`.alphabeta_agent`: :class:`~baselines.search.alphabeta_agent.AlphaBetaAgent` over :mod:`.alphabeta`
  (two-player games with a value; ``make_agent("alphabeta")``).
* :mod:`.evaluators`: the generic leaf evaluators (rollouts, the game's heuristic) and :func:`make_evaluator`.
* :mod:`.values` and :mod:`.playout`: the shapes of value functions and playouts, and their generic versions.
* :mod:`.knowledge`: each game's value function, move priors and fast playout by game name, which
  :mod:`baselines.games` registers: search never imports a game.

Importing this package registers its agents with :mod:`baselines.factory`. NTBEA, which tunes them by playing
games, is in :mod:`baselines.tuning`.
"""

from baselines.factory import register_agent
from baselines.search.alphabeta_agent import AlphaBetaAgent
from baselines.search.mcts import MCTSAgent
from baselines.search.rhea import RHEAAgent
from baselines.search.rmcts import RinascimentoMCTSAgent

register_agent("mcts", MCTSAgent)
register_agent("rhea", RHEAAgent)
register_agent("alphabeta", AlphaBetaAgent)
register_agent("rmcts", RinascimentoMCTSAgent, games=("splendor",))
