"""Gravwell: Escape from the 9th Dimension (seed 000, Gravitas rules): the game, config, state and cards."""

from boardenvs.games.gravwell.cards import NUM_CARDS, SYMBOLS, TYPES, VALUES, card_of_symbol
from boardenvs.games.gravwell.config import GravwellConfig
from boardenvs.games.gravwell.game import Action, Gravwell
from boardenvs.games.gravwell.state import GravwellEvent, GravwellState

__all__ = [
    "NUM_CARDS", "SYMBOLS", "TYPES", "VALUES", "Action", "Gravwell", "GravwellConfig", "GravwellEvent",
    "GravwellState", "card_of_symbol",
]  # fmt: skip
