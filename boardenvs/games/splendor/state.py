"""The Splendor state: token supply, players, decks, face-up cards, reserves, nobles and the turn phase."""

from __future__ import annotations

import struct
from typing import Any

MAIN, RETURN, NOBLE, PAY = 0, 1, 2, 3
"""``phase`` values: a turn's main action, returning tokens above the cap, choosing among nobles, paying
for a card with gold by choice (official rules)."""
PHASE_NAMES = ("main", "return", "noble", "pay")
NO_PLAN = (0, 0, 0, 0, 0)

TOKENS, BONUSES, POINTS, BOUGHT, NOBLES_TAKEN = slice(0, 6), slice(6, 11), 11, 12, 13
"""Columns of ``players``: 6 token counts (gold last), 5 bonuses, points, cards bought, nobles taken."""
PLAYER_COLUMNS = 14


class SplendorState:
    """One position. Treat it as immutable: ``Splendor.apply`` always builds a new state.

    Attributes:
        supply: ``int16[6]`` tokens on the table (5 colours, gold).
        players: ``int16[n, 14]`` per player: tokens (6), bonuses (5), points, cards bought, nobles taken.
        decks: ``int16[3, D]`` each level's card order (hidden), padded with -1; never mutated (shared).
        top: ``int16[3]`` index of each deck's next card; ``decks[l, top[l]:]`` is still in the deck.
        face_up: ``int16[3, F]`` face-up card ids, -1 for an empty slot.
        reserved: ``int16[n, R]`` reserved card ids in reservation order, -1 for a free slot.
        hidden: ``bool[n, R]`` reserved from a deck top (face down: only its owner sees it).
        nobles: ``int16[K]`` noble ids on the table, -1 once taken.
        phase: ``MAIN``, ``RETURN``, ``NOBLE`` or ``PAY`` (sub-decisions of ``current_player``).
        paying: in ``PAY``: the card being bought, as a face-up slot (``0..3F-1``) or ``3F +`` the buyer's
            reserve slot; -1 otherwise.
        gold_plan: in ``PAY``: gold the buyer chose to spend per colour so far (a tuple of 5 ints).
        current_player: the player to act, or ``TERMINAL`` (-1).
        first_player: the start player (a round ends before this player's turn).
        end_triggered: someone reached the points to end (official: finish the round).
        passes: consecutive turns that were a pass (P4).
        ply: actions played so far.
        truncated: the game ended at ``max_plies``.
        events: the events of the last action (``events.Event`` records, setup events at ply 0).
    """

    __slots__ = (
        "supply", "players", "decks", "top", "face_up", "reserved", "hidden", "nobles", "phase",
        "current_player", "first_player", "end_triggered", "passes", "ply", "truncated", "events", "mask", "paying",
        "gold_plan",
    )  # fmt: skip

    def __init__(self, **fields: Any) -> None:
        self.mask = None
        self.events: tuple = ()
        self.truncated = False
        self.paying = -1
        self.gold_plan = NO_PLAN
        for name, value in fields.items():
            setattr(self, name, value)

    def copy(self) -> SplendorState:
        """An equal, independent state (the immutable deck order is shared; events and mask cache are not)."""
        new = SplendorState.__new__(SplendorState)
        new.supply = self.supply.copy()
        new.players = self.players.copy()
        new.decks = self.decks
        new.top = self.top.copy()
        new.face_up = self.face_up.copy()
        new.reserved = self.reserved.copy()
        new.hidden = self.hidden.copy()
        new.nobles = self.nobles.copy()
        new.phase = self.phase
        new.current_player = self.current_player
        new.first_player = self.first_player
        new.end_triggered = self.end_triggered
        new.passes = self.passes
        new.ply = self.ply
        new.truncated = self.truncated
        new.paying = self.paying
        new.gold_plan = self.gold_plan
        new.events = ()
        new.mask = None
        return new

    def key(self) -> bytes:
        """Canonical bytes: equal keys mean equal positions (deck order included)."""
        header = struct.pack(
            "<13q", self.phase, self.current_player, self.first_player, self.end_triggered, self.passes, self.ply,
            self.truncated, self.paying, *self.gold_plan,
        )  # fmt: skip
        arrays = (self.supply, self.players, self.decks, self.top, self.face_up, self.reserved, self.hidden)
        return header + b"".join(a.tobytes() for a in arrays) + self.nobles.tobytes()

    def __getstate__(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in self.__slots__ if name != "mask"}

    def __setstate__(self, data: dict[str, Any]) -> None:
        self.mask = None
        for name, value in data.items():
            setattr(self, name, value)

    def __repr__(self) -> str:
        return f"SplendorState(phase={self.phase}, current_player={self.current_player}, ply={self.ply})"
