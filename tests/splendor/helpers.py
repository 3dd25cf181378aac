"""Builders for Splendor rule scenarios: a seeded start position edited field by field."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from boardenvs.games.splendor import COLOURS, Splendor, SplendorState


def start(game: Splendor, seed: int = 0, player: int = 0) -> SplendorState:
    """A fresh seeded game with ``player`` to move and starting."""
    state = game.initial_state(np.random.default_rng(seed)).copy()
    state.current_player = state.first_player = player
    return state


def edit(state: SplendorState, **fields: Any) -> SplendorState:
    """A copy of ``state`` with some fields replaced (arrays are copied in)."""
    new = state.copy()
    for name, value in fields.items():
        setattr(new, name, np.array(value, dtype=getattr(state, name).dtype) if name != "phase" else value)
    return new


def play(game: Splendor, state: SplendorState, *moves: str) -> SplendorState:
    """``state`` after the moves in notation."""
    for move in moves:
        state = game.apply(state, game.parse_action(state, move))
    return state


def legal_moves(game: Splendor, state: SplendorState) -> list[str]:
    return [game.action_to_str(state, int(a)) for a in game.legal_actions(state)]


def with_player(state: SplendorState, player: int, tokens=(0,) * 6, bonuses=(0,) * 5, points: int = 0,
                bought: int = 0) -> SplendorState:  # fmt: skip
    """A copy of ``state`` with ``player``'s tokens, bonuses, points and cards bought replaced."""
    players = state.players.copy()
    players[player, :6], players[player, 6:11] = tokens, bonuses
    players[player, 11], players[player, 12] = points, bought
    return edit(state, players=players)


def event_types(state: SplendorState) -> list[int]:
    return [event.type for event in state.events]


def write_random_cards(folder: Path, count: int = 300, seed: int = 3) -> Path:
    """A seeded cards file of ``count`` random cards (three tiers, every colour, 0-3 points, costs 0-4), to test
    decks far larger than the official 90 cards."""
    rng = np.random.default_rng(seed)
    lines = ["tier,bonus,points,cost_white,cost_blue,cost_green,cost_red,cost_black"]
    for index in range(count):
        cost = rng.integers(0, 5, size=5) * (rng.random(5) < 0.5)
        lines.append(f"{index * 3 // count + 1},{COLOURS[index % 5]},{index % 4}," + ",".join(map(str, cost)))
    cards = folder / "cards.csv"
    cards.write_text("\n".join(lines) + "\n")
    return cards
