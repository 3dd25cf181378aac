"""Gravwell: Escape from the 9th Dimension (seed 000, Gravitas rules): the game, config, state and cards."""

from boardenvs.games.gravwell.cards import NUM_CARDS, SYMBOLS, TYPES, VALUES, card_of_symbol
from boardenvs.games.gravwell.config import GravwellConfig
from boardenvs.games.gravwell.game import Gravwell, Move
from boardenvs.games.gravwell.state import GravwellEvent, GravwellState

__all__ = [
    "NUM_CARDS", "SYMBOLS", "TYPES", "VALUES", "Gravwell", "GravwellConfig", "GravwellEvent", "GravwellState",
    "Move", "card_of_symbol",
]  # fmt: skip
