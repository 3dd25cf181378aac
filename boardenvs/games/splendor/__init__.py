"""Splendor (official rules and Rinascimento's variant): the game, its config, state, events and presets."""

from boardenvs.games.splendor.cards import COLOURS, CardTable, card_table
from boardenvs.games.splendor.config import SplendorConfig
from boardenvs.games.splendor.events import EVENT_NAMES, HC_GROUP, HC_GROUP_NAMES, Event, event_counts, hc_group
from boardenvs.games.splendor.game import Move, Splendor
from boardenvs.games.splendor.state import SplendorState

PRESETS: dict[str, dict[str, object]] = {
    "2p": {"num_players": 2},
    "3p": {"num_players": 3},
    "4p": {"num_players": 4},
    "rinascimento": {"num_players": 2, "rinascimento": True, "deck": "rinascimento_native"},
}
"""Official games for 2-4 players, and Rinascimento's ``defaultx2`` setting (R1, R5-R9, native deck)."""

__all__ = [
    "COLOURS", "EVENT_NAMES", "HC_GROUP", "HC_GROUP_NAMES", "PRESETS", "CardTable", "Event", "Move", "Splendor",
    "SplendorConfig", "SplendorState", "card_table", "event_counts", "hc_group",
]  # fmt: skip
