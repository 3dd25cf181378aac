"""Splendor (official rules and Rinascimento's variant): the game, its config, state, events and presets.

The files, as in every game package: ``config.py`` (the config and presets), ``cards.py`` (card and noble data),
``tables.py`` (action layout and lookup tables per config), ``state.py``, ``legality.py`` (which actions are
legal and why not), ``transitions.py`` (setup and what an action does), ``notation.py`` (moves, codec, action
texts), ``text.py``, ``observation.py``, ``svg.py`` and ``game.py`` (the ``Game``); two topic files of their own:
``takes.py``, the token-take rules (official and Rinascimento) with their mask and reasons, and ``events.py``,
Rinascimento's event log (the typed records every action leaves on the state).
"""

from boardenvs.games.splendor.cards import COLOURS, CardTable, card_table
from boardenvs.games.splendor.config import PRESETS, SplendorConfig
from boardenvs.games.splendor.events import EVENT_NAMES, HC_GROUP, HC_GROUP_NAMES, Event, event_counts, hc_group
from boardenvs.games.splendor.game import Splendor
from boardenvs.games.splendor.notation import Move
from boardenvs.games.splendor.state import SplendorState

__all__ = [
    "COLOURS", "EVENT_NAMES", "HC_GROUP", "HC_GROUP_NAMES", "PRESETS", "CardTable", "Event", "Move", "Splendor",
    "SplendorConfig", "SplendorState", "card_table", "event_counts", "hc_group",
]  # fmt: skip
