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
    "rinascimento_3p": {"num_players": 3, "rinascimento": True, "deck": "rinascimento_native"},
    "rinascimento_4p": {"num_players": 4, "rinascimento": True, "deck": "rinascimento_native"},
}
"""Official games for 2-4 players, and Rinascimento's ``defaultx2`` / ``defaultx3`` / ``default`` settings
(R1, R5-R9, native deck; 4/5/7 tokens per colour and players + 1 nobles, docs/rules/rules.md §3.5)."""

__all__ = [
    "COLOURS", "EVENT_NAMES", "HC_GROUP", "HC_GROUP_NAMES", "PRESETS", "CardTable", "Event", "Move", "Splendor",
    "SplendorConfig", "SplendorState", "card_table", "event_counts", "hc_group",
]  # fmt: skip
