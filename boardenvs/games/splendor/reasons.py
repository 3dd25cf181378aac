"""Why an action is illegal in a Splendor position: one line in the game's own notation for the error message.

``illegal_reason`` is called (through ``Splendor.illegal_reason``) only for an in-range action that the mask
rejects in a non-terminal state. It names the pending phase or the rule that fails and lists the legal
choices instead. It never names a card the player to move cannot see: a deck card or another player's
face-down reserve (the player's own reserves and the face-up cards are known to it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from boardenvs.games.splendor.cards import COLOURS, GOLD, LETTERS, NUM_LEVELS
from boardenvs.games.splendor.state import BONUSES, NOBLE, PAY, RETURN, SplendorState
from boardenvs.games.splendor.tables import (
    BUY_FACE_UP,
    BUY_RESERVED,
    NOBLE_CHOICE,
    PASS,
    PAY_GOLD,
    RESERVE_DECK,
    RESERVE_FACE_UP,
    TAKE_DIFFERENT,
    TAKE_SAME,
    slot_name,
)  # fmt: skip
from boardenvs.games.splendor.tables import PAY as PAY_KIND
from boardenvs.games.splendor.tables import RETURN as RETURN_KIND

if TYPE_CHECKING:
    from boardenvs.games.splendor.game import Splendor

LISTED = 6
"""Legal moves named in a message; the rest are counted."""
PENDING = {RETURN_KIND: "token return", NOBLE_CHOICE: "noble choice", PAY_GOLD: "payment", PAY_KIND: "payment"}
"""What a sub-decision action answers, for "no ... is pending"."""
TAKES, RESERVES, BUYS = (TAKE_DIFFERENT, TAKE_SAME), (RESERVE_FACE_UP, RESERVE_DECK), (BUY_FACE_UP, BUY_RESERVED)


def illegal_reason(game: Splendor, state: SplendorState, action: int) -> str:
    """Why ``action`` (in range, masked out, game not over) cannot be played in ``state``, and what can."""
    kind = int(game.tables.kind[action])
    arg = int(game.tables.arg[action])
    mask = game.legal_action_mask(state)
    if state.phase == RETURN:
        return _return_phase(game, state, kind, arg, mask)
    if state.phase == NOBLE:
        return _noble_phase(game, state, kind, arg, mask)
    if state.phase == PAY:
        return _pay_phase(game, state, kind, arg, mask)
    if kind in PENDING:
        player = state.current_player
        return (f"no {PENDING[kind]} is pending: player {player} chooses a main action (take, reserve or buy); "
                f"legal: {_listing(game, state, mask)}")  # fmt: skip
    if kind == PASS:
        return f"pass is legal only when nothing else is; legal: {_listing(game, state, mask)}"
    if kind in TAKES:
        why = _take_reason(game, state, action)
        return f"{why}; {_instead(game, state, mask, TAKES, 'takes')}"
    if kind in RESERVES:
        return f"{_reserve_reason(game, state, kind, arg)}; {_instead(game, state, mask, RESERVES, 'reserves')}"
    return f"{_buy_reason(game, state, kind, arg)}; {_instead(game, state, mask, BUYS, 'buys')}"


# -- wording helpers ----------------------------------------------------------------------------
def colour_name(colour: int) -> str:
    """``"red (R)"``; gold is ``"gold (Y)"``."""
    return f"{'gold' if colour == GOLD else COLOURS[colour]} ({LETTERS[colour]})"


def amounts(values: list[int] | tuple[int, ...]) -> str:
    """``"R2 K1"``: the non-zero entries of a per-colour vector, ``"none"`` when all are zero."""
    return " ".join(f"{LETTERS[c]}{v}" for c, v in enumerate(values) if v) or "none"


def _listing(game: Splendor, state: SplendorState, mask: np.ndarray, kinds: tuple[int, ...] | None = None) -> str:
    """The legal moves (of ``kinds``, default all) in notation: the first :data:`LISTED`, then a count."""
    ids = np.flatnonzero(mask)
    if kinds is not None:
        ids = ids[np.isin(game.tables.kind[ids], kinds)]
    names = [game.action_to_str(state, int(a)) for a in ids[:LISTED]]
    more = f" (+{len(ids) - LISTED} more)" if len(ids) > LISTED else ""
    return ", ".join(names) + more


def _instead(game: Splendor, state: SplendorState, mask: np.ndarray, kinds: tuple[int, ...], label: str) -> str:
    """``"legal takes: ..."``, or every legal move when none of ``kinds`` is legal."""
    same_family = _listing(game, state, mask, kinds)
    if same_family:
        return f"legal {label}: {same_family}"
    return f"no {label} are legal; legal: {_listing(game, state, mask)}"


def _card(game: Splendor, card: int) -> str:
    return f"[{game.card_to_str(card)}]"


# -- sub-decision phases (official rules) -------------------------------------------------------
def _return_phase(game: Splendor, state: SplendorState, kind: int, arg: int, mask: np.ndarray) -> str:
    player, cap = state.current_player, game.config.max_tokens
    legal = _listing(game, state, mask)
    if kind == RETURN_KIND:
        return f"player {player} holds no {colour_name(arg)} token to return; legal: {legal}"
    held = int(state.players[player, :6].sum())
    return (f"player {player} holds {held} tokens, over the cap of {cap}, and must first return {held - cap} "
            f"one at a time; legal: {legal}")  # fmt: skip


def _noble_phase(game: Splendor, state: SplendorState, kind: int, arg: int, mask: np.ndarray) -> str:
    player = state.current_player
    legal = _listing(game, state, mask)
    if kind != NOBLE_CHOICE:
        return f"player {player} qualifies for several nobles and must first choose the one that visits; legal: {legal}"
    noble = int(state.nobles[arg])
    if noble < 0:
        return f"noble slot {arg + 1} is empty (that noble has already visited); legal: {legal}"
    req = game.tables.cards.noble_req[noble].tolist()
    bonuses = state.players[player, BONUSES].tolist()
    missing = [max(r - b, 0) for r, b in zip(req, bonuses)]
    return (f"noble {arg + 1} needs bonuses {amounts(req)} and player {player} has {amounts(bonuses)} "
            f"(missing {amounts(missing)}); legal: {legal}")  # fmt: skip


def _pay_phase(game: Splendor, state: SplendorState, kind: int, arg: int, mask: np.ndarray) -> str:
    player, config = state.current_player, game.config
    slots = NUM_LEVELS * config.face_up
    source = slot_name(config, state.paying) if state.paying < slots else f"reserved {state.paying - slots + 1}"
    card = _paying_card(game, state)
    legal = _listing(game, state, mask)
    if kind != PAY_GOLD:
        return (f"player {player} is paying for {source} {_card(game, card)} and must first spend gold on a "
                f"colour or pay; legal: {legal}")  # fmt: skip
    row = state.players[player].tolist()
    plan = state.gold_plan
    owed = max(game.tables.costs[card][arg] - row[6 + arg], 0)
    # the phase lasts only while a gold is spare (``rules.gold_options``), so the colour itself is the reason
    if owed == 0:
        why = f"{_card(game, card)} needs no {colour_name(arg)} (bonuses counted)"
    elif row[arg] == 0:
        why = f"player {player} holds no {colour_name(arg)}, so gold pays the {owed} owed anyway"
    else:
        why = (f"the {min(owed, row[arg])} {colour_name(arg)} the payment would spend are all replaced by gold "
               f"already ({plan[arg]} planned)")  # fmt: skip
    return f"{why}; legal: {legal}"


def _paying_card(game: Splendor, state: SplendorState) -> int:
    slots = NUM_LEVELS * game.config.face_up
    if state.paying < slots:
        return int(state.face_up.flat[state.paying])
    return int(state.reserved[state.current_player, state.paying - slots])


# -- main actions -------------------------------------------------------------------------------
def _take_reason(game: Splendor, state: SplendorState, action: int) -> str:
    index = action - game.tables.starts[TAKE_DIFFERENT]
    if game.config.rinascimento:
        return _rinascimento_take_reason(game, state, index)
    return _official_take_reason(game, state, index)


def _official_take_reason(game: Splendor, state: SplendorState, index: int) -> str:
    """P1: exactly ``min(count, colours available)`` colours; take-same from a stack of ``take_same_min``."""
    tables, config = game.tables, game.config
    stacks, name = state.supply[:5].tolist(), tables.take_names[index]
    if tables.is_same[index]:
        colour = int(tables.same_colour[index])
        need = max(config.take_same_min, config.take_same_amount)
        return f"'{name}' needs at least {need} {colour_name(colour)} in the supply, which has {stacks[colour]}"
    amount = config.take_different_amount
    for colour in np.flatnonzero(tables.take[index]).tolist():
        if stacks[colour] < amount:
            return f"the supply has {stacks[colour]} {colour_name(colour)} left, '{name}' needs {amount}"
    available = [c for c in range(5) if stacks[c] >= amount]
    need = min(config.take_different_count, len(available))
    return (f"a take of different colours takes exactly {need} colours while {len(available)} stacks "
            f"({''.join(LETTERS[c] for c in available)}) can give {amount}; '{name}' takes "
            f"{int(tables.take_count[index])}")  # fmt: skip


def _rinascimento_take_reason(game: Splendor, state: SplendorState, index: int) -> str:
    """The first rule of ``PickDifferentCoins`` / ``PickSameCoins`` (R5, R6) that pattern ``index`` breaks."""
    tables, config, player = game.tables, game.config, state.current_player
    stacks, row = state.supply[:5].tolist(), state.players[player].tolist()
    take, give, name = tables.take[index].tolist(), tables.give[index].tolist(), tables.take_names[index]
    held, cap = sum(row[:6]), config.max_tokens
    taken, given = int(tables.take_total[index]), int(tables.give_total[index])
    non_empty = sum(1 for s in stacks if s > 0)
    if non_empty == 0:
        return "every gem stack in the supply is empty, so no tokens can be taken"
    for colour in range(5):
        if take[colour] > stacks[colour]:
            return f"the supply has {stacks[colour]} {colour_name(colour)} left, '{name}' takes {take[colour]}"
    # (the colour limit min(count, non-empty stacks) of a take-different holds once every stack taken from is
    # large enough, so it never needs a reason of its own)
    colour = int(tables.same_colour[index])
    if tables.is_same[index] and stacks[colour] < config.take_same_min:
        return (f"taking several of one colour needs a stack of at least {config.take_same_min}; the "
                f"{colour_name(colour)} stack has {stacks[colour]}")  # fmt: skip
    owed = max(held + taken - cap, 0)
    if owed == 0 and given:
        return (f"player {player} holds {held} tokens and {taken} more stay within the cap of {cap}, so nothing "
                f"may be given back")  # fmt: skip
    for colour in range(5):
        if give[colour] > row[colour]:
            return f"player {player} holds {row[colour]} {colour_name(colour)}, '{name}' gives back {give[colour]}"
    if given != owed:
        return (f"player {player} holds {held} tokens; taking {taken} goes over the cap of {cap}, so exactly "
                f"{owed} must be given back, '{name}' gives back {given}")  # fmt: skip
    exact = min(config.take_same_amount, cap - held)
    return (f"a take of one colour within the cap takes exactly {exact} (player {player} holds {held} of {cap}); "
            f"'{name}' takes {taken}")  # fmt: skip


def _reserve_reason(game: Splendor, state: SplendorState, kind: int, arg: int) -> str:
    config, player = game.config, state.current_player
    if config.max_reserved == 0:
        return "reserving is off in this game (max_reserved 0)"
    if state.reserved[player, -1] >= 0:
        return f"player {player} already holds {config.max_reserved} reserved cards, the limit"
    if kind == RESERVE_DECK:
        return f"the level {arg + 1} deck is empty"
    return f"slot {slot_name(config, arg)} is empty (the level {arg // config.face_up + 1} deck has run out)"


def _buy_reason(game: Splendor, state: SplendorState, kind: int, arg: int) -> str:
    config, player = game.config, state.current_player
    if kind == BUY_FACE_UP:
        card, where = int(state.face_up.flat[arg]), slot_name(config, arg)
        if card < 0:
            return f"slot {where} is empty (the level {arg // config.face_up + 1} deck has run out)"
    else:
        card, where = int(state.reserved[player, arg]), f"reserved {arg + 1}"
        if card < 0:
            count = int((state.reserved[player] >= 0).sum())
            return f"player {player} has {count} reserved card(s), so reserve slot {arg + 1} is empty"
    row = state.players[player].tolist()
    cost = game.tables.costs[card]
    lacking = [max(cost[c] - row[6 + c] - row[c], 0) for c in range(5)]
    return (f"player {player} cannot afford {where} {_card(game, card)}: after bonuses and tokens it lacks "
            f"{amounts(lacking)} ({sum(lacking)} tokens) and has {row[GOLD]} gold to cover them")  # fmt: skip
