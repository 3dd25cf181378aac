"""Tuning agents' settings by playing games: NTBEA and the named search spaces of RHEA.

* :mod:`.ntbea`: the N-Tuple Bandit Evolutionary Algorithm (seed 002), for any noisy fitness.
* :mod:`.game_fitness`: :class:`~.game_fitness.GameFitness`, the fitness of a candidate agent from games against
  an opponent, and :func:`~.game_fitness.head_to_head`, many such games of one candidate.
* :mod:`.tuning`: :func:`~.tuning.tune` and the search spaces (``rhea``, the plan values' own spaces such as
  Splendor's ``ef``, or a JSON file), the library behind ``scripts/tune_ntbea.py``.

It sits above search, games, the arena and the learners on the ladder of ``docs/design.md`` §1: it builds agents
by name with :mod:`baselines.factory` and plays them against each other.
"""
