"""What the search agents know about a game, by game name: its value function, move priors and fast playout.

Search never imports a game's own code: each game hands its knowledge over with
:func:`register_game_knowledge` (:mod:`baselines.games` does so for every game it knows when it is imported), and
the evaluators and agents look it up by ``game.spec.name`` here.

Example:
    >>> import numpy as np
    >>> register_game_knowledge("toy_doctest", value=lambda game, state: np.zeros(2))
    >>> value_of("toy_doctest") is not None, priors_of("toy_doctest"), playout_of("toy_doctest")
    (True, None, None)
    >>> forget_game_knowledge("toy_doctest")
"""

from __future__ import annotations

from dataclasses import dataclass

from baselines.search.playout import PlayoutFn
from baselines.search.values import PriorsFn, ValueFn


@dataclass(frozen=True)
class GameKnowledge:
    """One game's knowledge for search.

    Attributes:
        value: the heuristic value function (``None``: the game has none).
        priors: move priors of the heuristic evaluator and move ordering (``None``: uniform).
        playout: a faster random playout with the distribution of the generic one (``None``: the generic one).
    """

    value: ValueFn | None = None
    priors: PriorsFn | None = None
    playout: PlayoutFn | None = None


_KNOWLEDGE: dict[str, GameKnowledge] = {}


def register_game_knowledge(
    game_name: str,
    *,
    value: ValueFn | None = None,
    priors: PriorsFn | None = None,
    playout: PlayoutFn | None = None,
) -> None:
    """Tell search what it may use on ``game_name`` (registering a game again replaces what it knew)."""
    _KNOWLEDGE[game_name] = GameKnowledge(value, priors, playout)


def forget_game_knowledge(game_name: str) -> None:
    """Drop what search knows about ``game_name`` (for tests of toy games)."""
    _KNOWLEDGE.pop(game_name, None)


def value_of(game_name: str) -> ValueFn | None:
    """The value function of ``game_name`` (``None`` if it has none)."""
    entry = _KNOWLEDGE.get(game_name)
    return entry.value if entry else None


def priors_of(game_name: str) -> PriorsFn | None:
    """The move priors of ``game_name`` (``None``: uniform priors)."""
    entry = _KNOWLEDGE.get(game_name)
    return entry.priors if entry else None


def playout_of(game_name: str) -> PlayoutFn | None:
    """The fast random playout of ``game_name`` (``None``: use the generic one)."""
    entry = _KNOWLEDGE.get(game_name)
    return entry.playout if entry else None


def games_with_values() -> list[str]:
    """The names of the games that have a value function, sorted."""
    return sorted(name for name, entry in _KNOWLEDGE.items() if entry.value is not None)
