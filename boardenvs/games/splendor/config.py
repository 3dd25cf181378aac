"""The frozen, validated configuration of a Splendor game (official rules or Rinascimento's)."""

from __future__ import annotations

from dataclasses import dataclass
from os import PathLike

import numpy as np

from boardenvs.core import check_choice, check_int
from boardenvs.games.splendor.cards import DECKS, card_table

TOKENS_BY_PLAYERS = {2: 4, 3: 5, 4: 7}
"""Official tokens per colour stack by player count (docs/rules/rules.md §3.3)."""

_RANGES: dict[str, tuple[int, int]] = {
    "tokens_per_colour": (3, 30),
    "gold": (0, 30),
    "max_tokens": (3, 150),
    "points_to_end": (1, 30),
    "max_reserved": (0, 10),
    "take_different_count": (2, 5),
    "take_different_amount": (1, 3),
    "take_same_amount": (2, 5),
    "take_same_min": (1, 10),
    "max_plies": (10, 100_000),
}


@dataclass(frozen=True)
class SplendorConfig:
    """Settings of one Splendor game; defaults are the official 2-player game.

    Attributes:
        num_players: 2..4.
        tokens_per_colour: tokens in each gem stack, 3..30; ``None`` = official 4/5/7 for 2/3/4 players.
        gold: gold tokens, 0..30 (Rinascimento ``goldCount``).
        max_tokens: tokens a player may hold at the end of a turn, gold included, 3..150 (``maxCoins``).
        face_up: face-up cards per level, 1..10 and at most the smallest level deck (``cardsOnTableCount``).
        nobles: nobles revealed, 0..10; ``None`` = players + 1 (``noblesCount``).
        points_to_end: points that trigger the end, 1..30 (``endGameScore``).
        max_reserved: reserve limit, 0..10 (``maxReserveCards``).
        take_different_count: colours in a take-different, 2..5 (``pickDifferentCount``; official: exactly
            ``min(count, available)``, Rinascimento: up to).
        take_different_amount: tokens per colour in a take-different, 1..3 (``pickDifferentAmount``;
            official: exactly, Rinascimento: up to).
        take_same_amount: tokens in a take-same, 2..5 (``pickSameAmount``; Rinascimento: fewer only up to
            the cap, R6).
        take_same_min: stack size a take-same needs, 1..10 (``pickSameMinCoins``).
        rinascimento: Rinascimento's rule implementation (docs/rules/rules.md R1, R5-R9) instead of the official rules.
        deck: ``"official"`` or ``"rinascimento_native"`` (docs/rules/rules.md §3.4).
        cards_file: path of a custom card CSV (``cards.py`` formats) used instead of ``deck``; ``""`` = none.
        nobles_file: path of a custom noble CSV used instead of the shipped 10 nobles; ``""`` = none.
        max_plies: hard cap on plies; reaching it ends the game ranked by points (truncated), 10..100000.
    """

    num_players: int = 2
    tokens_per_colour: int | None = None
    gold: int = 5
    max_tokens: int = 10
    face_up: int = 4
    nobles: int | None = None
    points_to_end: int = 15
    max_reserved: int = 3
    take_different_count: int = 3
    take_different_amount: int = 1
    take_same_amount: int = 2
    take_same_min: int = 4
    rinascimento: bool = False
    deck: str = "official"
    cards_file: str = ""
    nobles_file: str = ""
    max_plies: int = 600

    def __post_init__(self) -> None:
        check_int("num_players", self.num_players, 2, 4)
        check_choice("deck", self.deck, DECKS)
        if not isinstance(self.rinascimento, (bool, np.bool_)):
            raise ValueError(f"rinascimento must be a bool, got {self.rinascimento!r}")
        object.__setattr__(self, "rinascimento", bool(self.rinascimento))
        object.__setattr__(self, "num_players", int(self.num_players))
        if self.tokens_per_colour is None:
            object.__setattr__(self, "tokens_per_colour", TOKENS_BY_PLAYERS[self.num_players])
        if self.nobles is None:
            object.__setattr__(self, "nobles", self.num_players + 1)
        for name, (low, high) in _RANGES.items():
            check_int(name, getattr(self, name), low, high)
            object.__setattr__(self, name, int(getattr(self, name)))
        for name in ("cards_file", "nobles_file"):
            value = getattr(self, name)
            if not isinstance(value, (str, PathLike)):
                raise ValueError(f"{name} must be a path (str), got {value!r}")
            object.__setattr__(self, name, str(value))
        if self.cards_file and self.deck != "official":
            raise ValueError(f"pass either deck={self.deck!r} or cards_file={self.cards_file!r}, not both")
        table = card_table(self.deck, self.cards_file, self.nobles_file)
        smallest_deck = min(len(ids) for ids in table.by_level)
        check_int("face_up", self.face_up, 1, min(10, smallest_deck))
        check_int("nobles", self.nobles, 0, table.num_nobles)
        object.__setattr__(self, "face_up", int(self.face_up))
        object.__setattr__(self, "nobles", int(self.nobles))


PRESETS: dict[str, dict[str, object]] = {
    "2p": {"num_players": 2},
    "3p": {"num_players": 3},
    "4p": {"num_players": 4},
    "rinascimento": {"num_players": 2, "rinascimento": True, "deck": "rinascimento_native"},
    "rinascimento_3p": {"num_players": 3, "rinascimento": True, "deck": "rinascimento_native"},
    "rinascimento_4p": {"num_players": 4, "rinascimento": True, "deck": "rinascimento_native"},
}
"""Official games for 2-4 players, and Rinascimento's ``defaultx2`` / ``defaultx3`` / ``default`` settings
(R1, R5-R9, native deck; 4/5/7 tokens per colour and players + 1 nobles, docs/rules/rules.md §3.5)."""
