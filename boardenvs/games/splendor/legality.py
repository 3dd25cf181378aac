"""Which Splendor actions are legal in a position, and why one is not: each rule written once, as a function.

The legal-action mask and the illegal-action reason come from the same functions:

* **Token actions**: the take rules, their mask and their reasons are ``takes.py``'s (:func:`take_bytes`,
  :func:`take_reason`).
* **Cards**: a free reserve slot (:func:`reserve_open`), a card in the slot (:func:`cards_present`), a deck
  left to draw from (:func:`decks_left`) and every card's price at once (:func:`affordable_bytes`).
* **Sub-decisions** (official rules): :func:`returnable`, :func:`eligible_nobles`, :func:`gold_options`;
  **pass** only when nothing else is legal (P4); the phase decides which kinds may be played (:data:`PHASE_KINDS`).

The main-phase mask is one byte per action (docs/results/splendor.md "Engine speed" says why); the reasons are in
the game's notation, list the legal choices instead and never name a card the player to move cannot see (a deck
card or another player's face-down reserve).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from operator import le, lt

import numpy as np

from boardenvs.core import TERMINAL
from boardenvs.games.splendor.cards import GOLD, NUM_LEVELS
from boardenvs.games.splendor.config import SplendorConfig
from boardenvs.games.splendor.notation import amounts, card_text, colour_name, slot_name
from boardenvs.games.splendor.state import BONUSES, BOUGHT, MAIN, NOBLE, PAY, RETURN, SplendorState
from boardenvs.games.splendor.tables import (
    BUY_FACE_UP,
    BUY_RESERVED,
    LANE_BITS,
    LOW_BYTE,
    NOBLE_CHOICE,
    PASS,
    PAY_GOLD,
    RESERVE_DECK,
    RESERVE_FACE_UP,
    TAKE_DIFFERENT,
    TAKE_SAME,
    ActionTables,
)  # fmt: skip
from boardenvs.games.splendor.tables import PAY as PAY_KIND
from boardenvs.games.splendor.tables import RETURN as RETURN_KIND
from boardenvs.games.splendor.takes import TokenFactors, take_bytes, take_reason, token_factors


# -- cards --------------------------------------------------------------------------------------
def reserve_open(config: SplendorConfig, reserved: np.ndarray) -> bool:
    """Reserving is on and the player (whose reserve row is ``reserved``) has a free slot (P5)."""
    return config.max_reserved > 0 and reserved[-1] < 0  # reserves are kept packed: the last slot frees last


def per_card(tables: ActionTables, cards: np.ndarray, table: bytes) -> bytes:
    """``table[card]`` for each card id of the ``int16`` array ``cards`` (an empty slot, -1, reads the last byte)."""
    if tables.byte_ids:
        return cards.tobytes()[LOW_BYTE::2].translate(table)
    return bytes([table[card] for card in cards.ravel().tolist()])


def cards_present(tables: ActionTables, cards: np.ndarray) -> bytes:
    """One byte per slot of ``cards``: 1 where it holds a card, 0 where it is empty (-1)."""
    return per_card(tables, cards, tables.present)


def decks_left(tables: ActionTables, state: SplendorState) -> bytes:
    """One byte per level: 1 while its deck has a card to draw (P5: no reserve from an empty deck)."""
    return bytes(map(lt, state.top.tolist(), tables.deck_size_list))


def affordable_bytes(tables: ActionTables, row: list[int]) -> bytes:
    """Byte ``card`` is 1 when the player whose ``players`` row is ``row`` can pay for it: the shortfalls of its
    colours (:func:`shortfall`) add up to at most the player's gold; the last byte (an empty slot, -1) is 0.

    Each colour's shortfall of every card is one entry of ``tables.shortfall`` (a 16-bit lane per card);
    adding the five entries gives every card's total shortfall, and ``2**15 + gold - total`` keeps bit 15 of a
    lane exactly when the total is at most the gold.
    """
    total = 0
    for by_power, tokens, bonus in zip(tables.shortfall, row, row[BONUSES]):
        power = tokens + bonus
        total += by_power[power if power < len(by_power) else -1]  # beyond the largest cost nothing is short
    top = LANE_BITS - 1
    fits = (((1 << top) + row[GOLD]) * tables.card_lanes - total) >> top & tables.card_lanes
    return fits.to_bytes(2 * tables.card_slots, "little")[::2]


def shortfall(tables: ActionTables, row: list[int], card: int) -> list[int]:
    """Per colour, what ``card`` costs beyond the bonuses and tokens of the player whose row is ``row``."""
    return [max(cost - bonus - tokens, 0) for cost, bonus, tokens in zip(tables.costs[card], row[BONUSES], row)]


# -- sub-decisions (official rules) -------------------------------------------------------------
def returnable(state: SplendorState) -> np.ndarray:
    """``bool[6]``: the resources (gold last) the player to move holds, so may return (P2)."""
    return state.players[state.current_player, :6] > 0


def eligible_nobles(tables: ActionTables, state: SplendorState, player: int) -> list[int]:
    """Slots of the nobles on the table whose requirement ``player``'s bonuses meet."""
    return eligible_slots(tables, state.players[player].tolist(), state.nobles)


def eligible_slots(tables: ActionTables, row: list[int], nobles: np.ndarray) -> list[int]:
    """:func:`eligible_nobles` of the player whose ``players`` row is ``row``."""
    if row[BOUGHT] < tables.min_noble_total:
        return []
    bonuses, reqs = row[BONUSES], tables.noble_reqs
    return [slot for slot, noble in enumerate(nobles.tolist()) if noble >= 0 and all(map(le, reqs[noble], bonuses))]


def paying_card(config: SplendorConfig, state: SplendorState, source: int | None = None) -> int:
    """The card at ``source`` (default ``state.paying``): a face-up slot, or ``3F +`` a reserve slot."""
    source = state.paying if source is None else source
    slots = NUM_LEVELS * config.face_up
    if source < slots:
        return int(state.face_up.flat[source])
    return int(state.reserved[state.current_player, source - slots])


def payment(tables: ActionTables, row: list[int], card: int, plan: tuple[int, ...]) -> tuple[list[int], list[int]]:
    """Coloured tokens and gold paid per colour for ``card`` when ``plan[c]`` golds replace tokens of colour ``c``.

    Per colour the player owes ``max(cost - bonus, 0)``; coloured tokens pay first, up to what it holds, less
    the ``plan`` golds it chose to spend instead (gold replaces any gem, official FAQ); gold pays the rest.
    """
    coloured, gold = [0] * 5, [0] * 5
    for colour, (cost, bonus, tokens, planned) in enumerate(zip(tables.costs[card], row[BONUSES], row, plan)):
        owed = cost - bonus
        if owed > 0:
            coloured[colour] = min(owed, tokens) - planned
            gold[colour] = owed - coloured[colour]
    return coloured, gold


def gold_options(tables: ActionTables, state: SplendorState, card: int, plan: tuple[int, ...]) -> list[int]:
    """Colours where one more gold can replace a coloured token (official: gold is a wildcard for any gem).

    A colour qualifies when the payment still spends a token of it, and a gold is spare after the gold
    the payment already needs (the shortfall of every colour plus the golds planned so far). A player
    short in a colour may also keep the tokens it holds of that colour by paying gold for them.
    """
    row = state.players[state.current_player].tolist()
    coloured, gold = payment(tables, row, card, plan)
    if row[GOLD] - sum(gold) <= 0:
        return []
    return [c for c in range(5) if coloured[c] > 0]


# -- the mask -----------------------------------------------------------------------------------
PHASE_KINDS = {
    MAIN: (TAKE_DIFFERENT, TAKE_SAME, RESERVE_FACE_UP, RESERVE_DECK, BUY_FACE_UP, BUY_RESERVED, PASS),
    RETURN: (RETURN_KIND,),
    NOBLE: (NOBLE_CHOICE,),
    PAY: (PAY_GOLD, PAY_KIND),
}
"""The action kinds each phase offers; the others wait for their phase."""


def legal_mask(config: SplendorConfig, tables: ActionTables, state: SplendorState,
               factors: TokenFactors | None = None) -> np.ndarray:  # fmt: skip
    """``bool[num_actions]`` of ``state`` (all False once terminal); read-only in the main phase.

    ``factors`` are the config's :func:`token_factors` (looked up when not given).
    """
    player = state.current_player
    if player == TERMINAL:
        return np.zeros(tables.num_actions, dtype=bool)
    if state.phase == MAIN:
        return _main_mask(config, tables, factors or token_factors(config), state, player)
    mask = np.zeros(tables.num_actions, dtype=bool)
    if state.phase == RETURN:
        start = tables.starts[RETURN_KIND]
        mask[start : start + 6] = returnable(state)
    elif state.phase == NOBLE:
        mask[[tables.starts[NOBLE_CHOICE] + slot for slot in eligible_nobles(tables, state, player)]] = True
    else:  # PAY
        start = tables.starts[PAY_GOLD]
        for colour in gold_options(tables, state, paying_card(config, state), state.gold_plan):
            mask[start + colour] = True
        mask[tables.starts[PAY_KIND]] = True
    return mask


def _main_mask(config: SplendorConfig, tables: ActionTables, factors: TokenFactors, state: SplendorState,
               player: int) -> np.ndarray:  # fmt: skip
    """The main-phase mask, built as one byte per action: token actions, reserves (while a reserve slot is free),
    purchases, the official sub-decisions (never in the main phase) and pass (P4: only when nothing else is)."""
    row, starts = state.players[player].tolist(), tables.starts
    parts = [take_bytes(factors, state.supply, row)]
    reserved = state.reserved[player]
    if reserve_open(config, reserved):
        parts += [cards_present(tables, state.face_up), decks_left(tables, state)]
    else:
        parts.append(bytes(starts[BUY_FACE_UP] - starts[RESERVE_FACE_UP]))
    can_pay = affordable_bytes(tables, row)
    parts += [per_card(tables, state.face_up, can_pay), per_card(tables, reserved, can_pay)]
    body = b"".join(parts) + bytes(starts[PASS] - starts[RETURN_KIND])
    return np.frombuffer(body + (b"\x00" if b"\x01" in body else b"\x01"), dtype=bool)


# -- why an action is illegal -------------------------------------------------------------------
LISTED = 6
"""Legal moves named in a message; the rest are counted."""
PENDING = {RETURN_KIND: "token return", NOBLE_CHOICE: "noble choice", PAY_GOLD: "payment", PAY_KIND: "payment"}
"""What a sub-decision action answers, for "no ... is pending"."""
FAMILIES = {
    TAKE_DIFFERENT: ((TAKE_DIFFERENT, TAKE_SAME), "takes"),
    TAKE_SAME: ((TAKE_DIFFERENT, TAKE_SAME), "takes"),
    RESERVE_FACE_UP: ((RESERVE_FACE_UP, RESERVE_DECK), "reserves"),
    RESERVE_DECK: ((RESERVE_FACE_UP, RESERVE_DECK), "reserves"),
    BUY_FACE_UP: ((BUY_FACE_UP, BUY_RESERVED), "buys"),
    BUY_RESERVED: ((BUY_FACE_UP, BUY_RESERVED), "buys"),
}
"""The main actions of the same family as a kind, and their name, for "legal takes: ..."."""


@dataclass(frozen=True)
class Refusal:
    """An illegal action in a position (in range, masked out, game not over), with what its reason reads."""

    config: SplendorConfig
    tables: ActionTables
    state: SplendorState
    mask: np.ndarray
    action_text: Callable[[int], str]

    @property
    def player(self) -> int:
        return self.state.current_player

    def listing(self, kinds: tuple[int, ...] | None = None) -> str:
        """The legal moves (of ``kinds``, default all) in notation: the first :data:`LISTED`, then a count."""
        ids = np.flatnonzero(self.mask)
        if kinds is not None:
            ids = ids[np.isin(self.tables.kind[ids], kinds)]
        names = [self.action_text(int(a)) for a in ids[:LISTED]]
        more = f" (+{len(ids) - LISTED} more)" if len(ids) > LISTED else ""
        return ", ".join(names) + more

    def instead(self, kind: int) -> str:
        """``"legal takes: ..."`` for the family of ``kind``, or every legal move when none of it is legal."""
        kinds, label = FAMILIES[kind]
        same_family = self.listing(kinds)
        return f"legal {label}: {same_family}" if same_family else f"no {label} are legal; legal: {self.listing()}"

    def card(self, card: int) -> str:
        return f"[{card_text(self.tables, card)}]"

    def paying_source(self) -> str:
        """The card being paid for: its face-up slot or reserve slot, and the card."""
        config, paying = self.config, self.state.paying
        slots = NUM_LEVELS * config.face_up
        source = slot_name(config, paying) if paying < slots else f"reserved {paying - slots + 1}"
        return f"{source} {self.card(paying_card(config, self.state))}"


def illegal_reason(config: SplendorConfig, tables: ActionTables, state: SplendorState, action: int,
                   mask: np.ndarray, action_text: Callable[[int], str]) -> str:  # fmt: skip
    """Why ``action`` (in range, masked out by ``mask``, game not over) cannot be played in ``state``, and what can;
    ``action_text`` writes an action id in notation."""
    refusal = Refusal(config, tables, state, mask, action_text)
    kind, arg = int(tables.kind[action]), int(tables.arg[action])
    if kind not in PHASE_KINDS[state.phase]:
        return f"{_phase_reason(refusal, kind)}; legal: {refusal.listing()}"
    if state.phase != MAIN:
        return f"{_SUB_DECISION_REASONS[kind](refusal, arg)}; legal: {refusal.listing()}"
    if kind == PASS:
        return f"pass is legal only when nothing else is; legal: {refusal.listing()}"
    if kind in (TAKE_DIFFERENT, TAKE_SAME):
        why = take_reason(config, tables, state, action - tables.starts[TAKE_DIFFERENT])
    elif kind in (RESERVE_FACE_UP, RESERVE_DECK):
        why = _reserve_reason(refusal, kind, arg)
    else:
        why = _buy_reason(refusal, kind, arg)
    return f"{why}; {refusal.instead(kind)}"


def _phase_reason(refusal: Refusal, kind: int) -> str:
    """The decision pending instead of ``kind`` (:data:`PHASE_KINDS`)."""
    state, player = refusal.state, refusal.player
    if state.phase == RETURN:
        held, cap = int(state.players[player, :6].sum()), refusal.config.max_tokens
        return (f"player {player} holds {held} tokens, over the cap of {cap}, and must first return {held - cap} one "
                f"at a time")  # fmt: skip
    if state.phase == NOBLE:
        return f"player {player} qualifies for several nobles and must first choose the one that visits"
    if state.phase == PAY:
        return f"player {player} is paying for {refusal.paying_source()} and must first spend gold on a colour or pay"
    return f"no {PENDING[kind]} is pending: player {player} chooses a main action (take, reserve or buy)"


def _return_reason(refusal: Refusal, colour: int) -> str:
    """:func:`returnable` excludes ``colour``."""
    return f"player {refusal.player} holds no {colour_name(colour)} token to return"


def _noble_reason(refusal: Refusal, slot: int) -> str:
    """:func:`eligible_nobles` excludes ``slot``: empty, or bonuses missing."""
    state, player = refusal.state, refusal.player
    noble = int(state.nobles[slot])
    if noble < 0:
        return f"noble slot {slot + 1} is empty (that noble has already visited)"
    req = refusal.tables.cards.noble_req[noble].tolist()
    bonuses = state.players[player, BONUSES].tolist()
    missing = [max(r - b, 0) for r, b in zip(req, bonuses)]
    return (f"noble {slot + 1} needs bonuses {amounts(req)} and player {player} has {amounts(bonuses)} "
            f"(missing {amounts(missing)})")  # fmt: skip


def _gold_reason(refusal: Refusal, colour: int) -> str:
    """:func:`gold_options` excludes ``colour`` (the phase lasts only while a gold is spare, so the colour is why)."""
    state, player = refusal.state, refusal.player
    card = paying_card(refusal.config, state)
    row = state.players[player].tolist()
    owed = max(refusal.tables.costs[card][colour] - row[6 + colour], 0)
    if owed == 0:
        return f"{refusal.card(card)} needs no {colour_name(colour)} (bonuses counted)"
    if row[colour] == 0:
        return f"player {player} holds no {colour_name(colour)}, so gold pays the {owed} owed anyway"
    return (f"the {min(owed, row[colour])} {colour_name(colour)} the payment would spend are all replaced by gold "
            f"already ({state.gold_plan[colour]} planned)")  # fmt: skip


_SUB_DECISION_REASONS: dict[int, Callable[[Refusal, int], str]] = {
    RETURN_KIND: _return_reason,
    NOBLE_CHOICE: _noble_reason,
    PAY_GOLD: _gold_reason,
}
"""The reason of each sub-decision kind refused in its own phase (``pay`` always is legal there)."""


def _reserve_reason(refusal: Refusal, kind: int, arg: int) -> str:
    """:func:`reserve_open`, then :func:`decks_left` or :func:`cards_present` excludes the reserve."""
    config, state, player = refusal.config, refusal.state, refusal.player
    if not reserve_open(config, state.reserved[player]):
        if config.max_reserved == 0:
            return "reserving is off in this game (max_reserved 0)"
        return f"player {player} already holds {config.max_reserved} reserved cards, the limit"
    if kind == RESERVE_DECK:
        return f"the level {arg + 1} deck is empty"
    return f"slot {slot_name(config, arg)} is empty (the level {arg // config.face_up + 1} deck has run out)"


def _buy_reason(refusal: Refusal, kind: int, arg: int) -> str:
    """:func:`cards_present`, then :func:`affordable_bytes` excludes the purchase."""
    config, tables, state, player = refusal.config, refusal.tables, refusal.state, refusal.player
    if kind == BUY_FACE_UP:
        card, where = int(state.face_up.flat[arg]), slot_name(config, arg)
        if not cards_present(tables, state.face_up)[arg]:
            return f"slot {where} is empty (the level {arg // config.face_up + 1} deck has run out)"
    else:
        card, where = int(state.reserved[player, arg]), f"reserved {arg + 1}"
        if not cards_present(tables, state.reserved[player])[arg]:
            count = sum(cards_present(tables, state.reserved[player]))
            return f"player {player} has {count} reserved card(s), so reserve slot {arg + 1} is empty"
    row = state.players[player].tolist()
    lacking = shortfall(tables, row, card)
    return (f"player {player} cannot afford {where} {refusal.card(card)}: after bonuses and tokens it lacks "
            f"{amounts(lacking)} ({sum(lacking)} tokens) and has {row[GOLD]} gold to cover them")  # fmt: skip
