"""Small builders for Gravwell rule scenarios."""

from __future__ import annotations

import numpy as np

from boardenvs.games.gravwell import Gravwell, GravwellState, card_of_symbol
from boardenvs.games.gravwell.state import COMMIT


def turn_state(game: Gravwell, pos: list[int], hands: list[list[str]], stops: bool = True) -> GravwellState:
    """A commit-phase state of turn 1 with ships on ``pos`` (players then hulks) and the given hands."""
    s = game.initial_state(np.random.default_rng(0))
    s.pos = list(pos)
    s.hands = [sum(1 << card_of_symbol(c) for c in hand) for hand in hands]
    s.known = [0] * game.n
    s.free = 0  # no stack left on the table
    s.phase, s.current_player, s.stops = COMMIT, 0, [stops] * game.n
    return s


def play_turn(game: Gravwell, s: GravwellState, cards: list[str], stop: bool = False) -> GravwellState:
    """Every player commits its card; Emergency Stop decisions answered with ``stop``."""
    for card in cards:
        s = game.apply(s, game.play_base + card_of_symbol(card))
    while s.current_player >= 0 and s.phase == 2:
        s = game.apply(s, game.stop_action + (0 if stop else 1))
    return s
