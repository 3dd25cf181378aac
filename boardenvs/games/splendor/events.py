"""Rinascimento's event log (seed 002, Table I): typed event records and the hand-crafted ("hc") grouping.

Each state change is one :class:`Event`. Ids and grouping come from ``rinascimento_events.csv`` (shipped in
this package): ``IdentityConverter`` ids 0..17 and ``SimpleConverter`` groups 0..4 (-1 = discarded).
"""

from __future__ import annotations

import csv
from pathlib import Path
from typing import NamedTuple

NOBLE_TAKEN = 0
INCREASE_TOKENS = 1
DECREASE_TOKENS = 2
INCREASE_GOLD = 3
DECREASE_GOLD = 4
DRAW_CARD = 5
FILL_CARD = 6
FILL_NOBLE = 7
INCREASE_PLAYER_TOKENS = 8
DECREASE_PLAYER_TOKENS = 9
INCREASE_PLAYER_GOLD = 10
DECREASE_PLAYER_GOLD = 11
RESERVE_HIDDEN_CARD = 12
RESERVE_BOARD_CARD = 13
RECEIVE_NOBLE = 14
RECEIVE_CARD_BONUS = 15
RECEIVE_CARD_POINTS = 16
RECEIVE_NOBLE_POINTS = 17
NUM_EVENT_TYPES = 18
ENGINE = -1
"""``Event.who`` of setup events (no player acted)."""


class Event(NamedTuple):
    """One recorded change (Rinascimento's ``REvent``): who caused it, its type id and its attributes.

    ``card`` is ``-1`` where no card is involved or where the card is hidden from the viewer
    (``Splendor.visible_events``); ``face_down`` marks the reserve of a deck-top card. Gold events carry
    ``stack`` 5; a "receive card points" event is recorded for every purchase (``points`` may be 0), as
    Rinascimento's ``BuyCard`` does; ``NOBLE_TAKEN`` (the table side of a visit) is the engine's (``who`` -1).
    """

    tick: int
    who: int
    type: int
    amount: int = 0
    stack: int = -1
    card: int = -1
    deck: int = -1
    position: int = -1
    noble: int = -1
    points: int = 0
    face_down: bool = False


def _load() -> tuple[tuple[str, ...], tuple[int, ...], dict[int, str]]:
    with open(Path(__file__).parent / "rinascimento_events.csv", newline="") as handle:
        rows = sorted(csv.DictReader(handle), key=lambda row: int(row["type_id"]))
    names = tuple(row["name_in_code"] for row in rows)
    groups = tuple(int(row["hc_group_id"]) for row in rows)
    group_names = {int(row["hc_group_id"]): row["hc_group_name"] for row in rows}
    return names, groups, group_names


EVENT_NAMES, HC_GROUP, HC_GROUP_NAMES = _load()
"""Event name per type id; hc group per type id (-1 discarded); group id -> group name."""
NUM_HC_GROUPS = 5


def hc_group(event_type: int) -> int:
    """The hand-crafted group (0..4, or -1 = discarded) of an event type id."""
    return HC_GROUP[event_type]


def event_counts(events: list[Event], player: int, grouped: bool = False) -> list[int]:
    """Synthesis sigma: how many of ``events`` ``player`` caused, per type id (18) or per hc group (5)."""
    counts = [0] * (NUM_HC_GROUPS if grouped else NUM_EVENT_TYPES)
    for event in events:
        if event.who == player:
            index = HC_GROUP[event.type] if grouped else event.type
            if index >= 0:
                counts[index] += 1
    return counts
