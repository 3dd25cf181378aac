"""Search agents that play every game through its forward model, and what they share.

* :mod:`.mcts`: :class:`~baselines.search.mcts.MCTSAgent`, UCT or PUCT over any leaf evaluator (``make_agent("mcts")``).
* :mod:`.rhea`: :class:`~baselines.search.rhea.RHEAAgent`, rolling-horizon evolution (seed 002; ``make_agent("rhea")``).
* :mod:`.ntbea`: NTBEA, the hyper-parameter tuner of seed 002, and :mod:`.tuning`, its named search spaces for RHEA.
* :mod:`.evaluators`: the generic leaf evaluators (rollouts, the game's heuristic) and :func:`make_evaluator`.
* :mod:`.values` and :mod:`.playout`: the shapes of value functions and playouts, and their generic versions.

Each game's own value function, move priors and fast playout are in :mod:`baselines.games`.
"""
