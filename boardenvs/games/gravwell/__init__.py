"""Gravwell: Escape from the 9th Dimension (seed 000, Gravitas rules): the game, config, state and cards.

The modules, as in every game package: ``config`` (the frozen config), ``cards`` (the 26 fuel cards of
``cards.csv``), ``tables`` (the fixed sizes and the lookup tables built once per config), ``state`` (the state and
its events), ``legality`` (which actions are legal and why one is not), ``transitions`` (what a legal action does),
``movement`` (how one card moves the ships: the topic file of the transitions and the agents), ``notation`` (the
``Move`` codec and action text), ``text`` (the state as text), ``observation``, ``svg`` and ``game`` (the ``Game``
subclass on top of them).
"""

from boardenvs.games.gravwell.cards import NUM_CARDS, SYMBOLS, TYPES, VALUES, card_of_symbol
from boardenvs.games.gravwell.config import GravwellConfig
from boardenvs.games.gravwell.game import Gravwell
from boardenvs.games.gravwell.notation import Move
from boardenvs.games.gravwell.state import GravwellEvent, GravwellState

__all__ = [
    "NUM_CARDS", "SYMBOLS", "TYPES", "VALUES", "Gravwell", "GravwellConfig", "GravwellEvent", "GravwellState",
    "Move", "card_of_symbol",
]  # fmt: skip
