"""The schedule of a tournament: which agents sit where in every game, and the common game seeds.

* **Lineups.** With ``k`` agents and an ``n``-player game, a lineup is a multiset of ``n`` agents. If
  ``k >= n`` the lineups are all ``C(k, n)`` sets of ``n`` distinct agents (for 2 players: the round robin of
  all pairs). If ``k < n`` every agent is in every game and the extra seats are filled in every possible way:
  the ``C(n - 1, k - 1)`` multisets of size ``n`` that contain each agent at least once (for example with two
  agents in a 4-player game: ``AAAB``, ``AABB``, ``ABBB``). In one-vs-field mode each agent takes one seat and
  the field fills the others (:func:`field_lineups`).
* **Seat rotation.** Each lineup, written in the order the agents were given, is played in all ``n``
  cyclic rotations, so within a lineup an agent that holds ``m`` seats sits in every seat exactly ``m`` times.
  ``games_per_pairing`` (games per lineup) must therefore be a multiple of ``n``.
* **Common random numbers.** The same ``games_per_pairing / n`` game seeds (:func:`game_seeds`) are used for
  every lineup, and each seed is played in every rotation. ``play_game`` reseeds each agent from the game seed
  and its seat, so the whole tournament is a function of the seed.

Example:
    >>> [game.seat_names for game in tournament_schedule(["a", "b"], 2, 2, seed=0)]
    [('a', 'b'), ('b', 'a')]
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class ScheduledGame:
    """One game of a tournament: who sits where, and the game seed."""

    seat_names: tuple[str, ...]
    seed: int
    lineup: int


def tournament_lineups(names: Sequence[str], num_players: int) -> list[tuple[str, ...]]:
    """The lineups of a tournament (see the module docstring), each in the order ``names`` are given."""
    if len(names) >= num_players:
        return list(itertools.combinations(names, num_players))
    combos = itertools.combinations_with_replacement(names, num_players)
    return [combo for combo in combos if set(combo) == set(names)]


def game_seeds(seed: int, count: int) -> list[int]:
    """``count`` game seeds derived from ``seed``: the common random numbers shared by every lineup."""
    return [int(value) for value in np.random.SeedSequence(seed).generate_state(count)]


def field_lineups(focus: Sequence[str], field: Sequence[str], num_players: int) -> list[tuple[str, ...]]:
    """One-vs-field lineups: each ``focus`` agent in one seat, the other seats filled from ``field``.

    The field fills the ``num_players - 1`` other seats the way :func:`tournament_lineups` fills a game
    (every subset when the field is large enough, else every filling that seats each field agent).
    """
    if num_players == 2 or len(field) >= num_players - 1:
        fillings = list(itertools.combinations(field, num_players - 1))
    else:
        fillings = tournament_lineups(field, num_players - 1)
    return [(name, *filling) for name in focus for filling in fillings]


def tournament_schedule(
    names: Sequence[str],
    num_players: int,
    games_per_pairing: int,
    seed: int,
    field: Sequence[str] | None = None,
) -> list[ScheduledGame]:
    """Every game of a tournament: each lineup × each common seed × each cyclic seat rotation.

    Without ``field`` the lineups are the round robin of ``names`` (:func:`tournament_lineups`); with it, each
    agent of ``names`` plays one seat against the field (:func:`field_lineups`).
    """
    if games_per_pairing <= 0 or games_per_pairing % num_players:
        raise ValueError(
            f"games_per_pairing must be a positive multiple of {num_players} (the number of seat rotations, so "
            f"every agent plays every seat equally often), got {games_per_pairing}"
        )
    seeds = game_seeds(seed, games_per_pairing // num_players)
    lineups = tournament_lineups(names, num_players) if field is None else field_lineups(names, field, num_players)
    schedule = []
    for index, lineup in enumerate(lineups):
        for game_seed, shift in itertools.product(seeds, range(num_players)):
            schedule.append(ScheduledGame(lineup[shift:] + lineup[:shift], game_seed, index))
    return schedule
