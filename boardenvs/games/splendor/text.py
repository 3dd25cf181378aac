"""Splendor as text: the canonical :func:`state_text` of golden tests and the view of one seat.

Line one holds the ply, phase, player to move, start player, end trigger and passes (and, while paying, the card
paid for and the gold planned); then the supply, the nobles, each level with its deck count and face-up cards,
and a line per player. A seat's view shows the other players' face-down reserves only by level (``?L2``).
"""

from __future__ import annotations

from boardenvs.games.splendor.cards import LETTERS, NUM_LEVELS
from boardenvs.games.splendor.config import SplendorConfig
from boardenvs.games.splendor.notation import card_text, slot_name
from boardenvs.games.splendor.state import PAY, PHASE_NAMES, POINTS, SplendorState
from boardenvs.games.splendor.tables import ActionTables


def state_text(config: SplendorConfig, tables: ActionTables, state: SplendorState, viewer: int | None = None) -> str:
    """The state as text; with a ``viewer`` seat, the others' face-down reserves show only their level."""
    lines = [
        f"ply {state.ply} phase {PHASE_NAMES[state.phase]} to_move {state.current_player} "
        f"first {state.first_player} end_triggered {int(state.end_triggered)} passes {state.passes}"
        f"{' truncated' if state.truncated else ''}{_paying_text(config, state)}",
        "supply " + " ".join(f"{LETTERS[c]}{int(v)}" for c, v in enumerate(state.supply)),
        "nobles " + " | ".join(_noble_text(tables, int(k)) for k in state.nobles),
    ]
    for level in range(NUM_LEVELS - 1, -1, -1):
        left = len(tables.cards.by_level[level]) - int(state.top[level])
        cards = " | ".join(card_text(tables, int(c)) for c in state.face_up[level])
        lines.append(f"L{level + 1} deck {left}: {cards}")
    for player in range(config.num_players):
        hide = viewer is not None and player != viewer
        lines.append(_player_text(tables, state, player, hide_face_down=hide))
    return "\n".join(lines)


def _paying_text(config: SplendorConfig, state: SplendorState) -> str:
    if state.phase != PAY:
        return ""
    slots = NUM_LEVELS * config.face_up
    paying = state.paying
    source = slot_name(config, paying) if paying < slots else f"reserved {paying - slots + 1}"
    plan = " ".join(f"{LETTERS[c]}{v}" for c, v in enumerate(state.gold_plan))
    return f" paying {source} gold_plan {plan}"


def _noble_text(tables: ActionTables, noble: int) -> str:
    if noble < 0:
        return "--"
    req = tables.cards.noble_req[noble]
    return " ".join(f"{LETTERS[c]}{int(v)}" for c, v in enumerate(req) if v)


def _player_text(tables: ActionTables, state: SplendorState, player: int, hide_face_down: bool = False) -> str:
    row = state.players[player]
    tokens = " ".join(f"{LETTERS[c]}{int(v)}" for c, v in enumerate(row[:6]))
    bonuses = " ".join(f"{LETTERS[c]}{int(v)}" for c, v in enumerate(row[6:11]))
    reserved = [
        _reserved_text(tables, int(card), bool(hidden), hide_face_down)
        for card, hidden in zip(state.reserved[player], state.hidden[player])
        if card >= 0
    ]
    return (
        f"P{player}: {int(row[POINTS])}p cards {int(row[12])} nobles {int(row[13])} tokens {tokens} "
        f"bonuses {bonuses} reserved [{', '.join(reserved)}]"
    )


def _reserved_text(tables: ActionTables, card: int, face_down: bool, hide_face_down: bool) -> str:
    """A reserved card; a face-down one is marked ``?`` and, for other players, shown only by level."""
    if face_down and hide_face_down:
        return f"?L{int(tables.cards.level[card])}"
    return ("?" if face_down else "") + card_text(tables, card)
