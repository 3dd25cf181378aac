"""Splendor rules on :class:`SplendorState`: setup, the legal-action mask and every state change.

Mutating helpers take a fresh copy (``Splendor._apply`` copies first) and append ``Event`` records to
``out``. Official rules follow docs/rules/rules.md §3.3 with P1-P7; ``config.rinascimento`` switches to R1, R5-R9.
Events follow Rinascimento's emission (``PickCoins``, ``BuyCard``, ``Reserve*Card``, ``TakeNoble``,
``State.placeCard``) so that counting a player's events gives the paper's synthesis sigma.

The main-phase mask is built as one byte per action from tables of ``tables.py``: Rinascimento's token part
from tables of the conditions written here (:func:`rinascimento_take_mask`), purchases from every card's
shortfall at once (:func:`affordable_bytes`); docs/results/splendor.md "Engine speed" says why.
"""

from __future__ import annotations

from functools import lru_cache
from operator import le, lt

import numpy as np

from boardenvs.core import TERMINAL
from boardenvs.games.splendor import events as ev
from boardenvs.games.splendor.cards import GOLD, NUM_LEVELS
from boardenvs.games.splendor.config import SplendorConfig
from boardenvs.games.splendor.events import Event
from boardenvs.games.splendor.state import (
    BONUSES,
    BOUGHT,
    MAIN,
    NO_PLAN,
    NOBLE,
    NOBLES_TAKEN,
    PAY,
    POINTS,
    RETURN,
    SplendorState,
)  # fmt: skip
from boardenvs.games.splendor.tables import (
    BUY_FACE_UP,
    LANE_BITS,
    LOW_BYTE,
    NOBLE_CHOICE,
    PASS,
    PAY_GOLD,
    RESERVE_FACE_UP,
    ActionTables,
    TokenFactors,
    byte_flags,
    tables_for,
)  # fmt: skip
from boardenvs.games.splendor.tables import RETURN as RETURN_KIND

TAKE_CACHE_BYTES = 16_000_000
"""Memory for the official token masks kept per config (by supply)."""


# -- setup --------------------------------------------------------------------------------------
def initial_state(config: SplendorConfig, tables: ActionTables, rng: np.random.Generator) -> SplendorState:
    """Shuffled decks, ``face_up`` cards per level, ``nobles`` nobles and a random start player."""
    cards, n = tables.cards, config.num_players
    width = max(len(ids) for ids in cards.by_level)
    decks = np.full((NUM_LEVELS, width), -1, dtype=np.int16)
    for level, ids in enumerate(cards.by_level):
        decks[level, : len(ids)] = rng.permutation(np.array(ids, dtype=np.int16))
    nobles = rng.permutation(cards.num_nobles)[: config.nobles].astype(np.int16)
    first = int(rng.integers(n))
    state = SplendorState(
        supply=np.array([config.tokens_per_colour] * 5 + [config.gold], dtype=np.int16),
        players=np.zeros((n, 14), dtype=np.int16),
        decks=decks,
        top=np.full(NUM_LEVELS, config.face_up, dtype=np.int16),
        face_up=decks[:, : config.face_up].copy(),
        reserved=np.full((n, config.max_reserved), -1, dtype=np.int16),
        hidden=np.zeros((n, config.max_reserved), dtype=bool),
        nobles=nobles,
        phase=MAIN, current_player=first, first_player=first, end_triggered=False, passes=0, ply=0,
    )  # fmt: skip
    setup = []
    for level in range(NUM_LEVELS):
        for col in range(config.face_up):
            card = int(decks[level, col])
            setup.append(Event(0, ev.ENGINE, ev.DRAW_CARD, card=card, deck=level))
            setup.append(Event(0, ev.ENGINE, ev.FILL_CARD, card=card, deck=level, position=col))
    setup += [Event(0, ev.ENGINE, ev.FILL_NOBLE, noble=int(k), position=i) for i, k in enumerate(nobles)]
    state.events = tuple(setup)
    return state


# -- the legal-action mask ----------------------------------------------------------------------
def affordable(tables: ActionTables, player_row: np.ndarray, card_ids: np.ndarray, out: np.ndarray | None = None
               ) -> np.ndarray:  # fmt: skip
    """``bool[len(card_ids)]``: which cards the player can pay for (gold covers any shortfall; -1 never).

    The shortfall of a colour is ``max(cost - bonus - tokens, 0)``; the card is affordable when the
    shortfalls add up to at most the player's gold. (The mask reads the same test from
    :func:`affordable_bytes`.)
    """
    shortfall = tables.cards.cost[card_ids] - (player_row[BONUSES] + player_row[:5])
    np.maximum(shortfall, 0, out=shortfall)
    return np.less_equal(shortfall.sum(axis=1), player_row[GOLD], out=out)


def affordable_bytes(tables: ActionTables, row: list[int]) -> bytes:
    """:func:`affordable` for every card id at once: byte ``card`` is 1 when the player whose ``players`` row is
    ``row`` can pay for it; the last byte (an empty slot, -1) is 0.

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


def per_card(tables: ActionTables, cards: np.ndarray, table: bytes) -> bytes:
    """``table[card]`` for each card id of the ``int16`` array ``cards`` (an empty slot, -1, reads the last byte)."""
    if tables.byte_ids:
        return cards.tobytes()[LOW_BYTE::2].translate(table)
    return bytes([table[card] for card in cards.ravel().tolist()])


def eligible_nobles(tables: ActionTables, state: SplendorState, player: int) -> list[int]:
    """Slots of the nobles on the table whose requirement ``player``'s bonuses meet."""
    return _eligible(tables, state.players[player].tolist(), state.nobles)


def _eligible(tables: ActionTables, row: list[int], nobles: np.ndarray) -> list[int]:
    """:func:`eligible_nobles` of the player whose ``players`` row is ``row``."""
    if row[BOUGHT] < tables.min_noble_total:
        return []
    bonuses, reqs = row[BONUSES], tables.noble_reqs
    return [slot for slot, noble in enumerate(nobles.tolist()) if noble >= 0 and all(map(le, reqs[noble], bonuses))]


def legal_mask(config: SplendorConfig, tables: ActionTables, state: SplendorState,
               factors: TokenFactors | None = None) -> np.ndarray:  # fmt: skip
    """``bool[num_actions]`` of ``state`` (all False once terminal); read-only in the main phase.

    ``factors`` (Rinascimento: :func:`token_factors`) makes the token part table reads; without them it is
    :func:`rinascimento_take_mask`.
    """
    player = state.current_player
    if player == TERMINAL:
        return np.zeros(tables.num_actions, dtype=bool)
    if state.phase == MAIN:
        return _main_mask(config, tables, factors, state, player)
    mask = np.zeros(tables.num_actions, dtype=bool)
    if state.phase == RETURN:
        start = tables.starts[RETURN_KIND]
        mask[start : start + 6] = state.players[player, :6] > 0
    elif state.phase == NOBLE:
        mask[[tables.starts[NOBLE_CHOICE] + slot for slot in eligible_nobles(tables, state, player)]] = True
    else:  # PAY
        start = tables.starts[PAY_GOLD]
        for colour in gold_options(tables, state, paying_card(config, state), state.gold_plan):
            mask[start + colour] = True
        mask[tables.starts[PAY_GOLD + 1]] = True
    return mask


def _main_mask(config: SplendorConfig, tables: ActionTables, factors: TokenFactors | None, state: SplendorState,
               player: int) -> np.ndarray:  # fmt: skip
    """The main-phase mask, built as one byte per action: token actions, reserves (while a reserve slot is free),
    purchases, the official sub-decisions (never in the main phase) and pass (P4: only when nothing else is)."""
    row, starts = state.players[player].tolist(), tables.starts
    if not config.rinascimento:
        parts = [official_take_bytes(config, tables, state.supply)]
    elif factors is None:
        parts = [rinascimento_take_mask(config, tables, state.supply, state.players[player]).tobytes()]
    else:
        parts = [rinascimento_take_bytes(config, factors, state.supply.tolist(), row)]
    reserved = state.reserved[player]
    if config.max_reserved and reserved[-1] < 0:  # reserves are kept packed: the last slot frees last
        decks_left = bytes(map(lt, state.top.tolist(), tables.deck_size_list))
        parts += [per_card(tables, state.face_up, tables.present), decks_left]
    else:
        parts.append(bytes(starts[BUY_FACE_UP] - starts[RESERVE_FACE_UP]))
    can_pay = affordable_bytes(tables, row)
    parts += [per_card(tables, state.face_up, can_pay), per_card(tables, reserved, can_pay)]
    body = b"".join(parts) + bytes(starts[PASS] - starts[RETURN_KIND])
    return np.frombuffer(body + (b"\x00" if b"\x01" in body else b"\x01"), dtype=bool)


def official_take_bytes(config: SplendorConfig, tables: ActionTables, supply: np.ndarray) -> bytes:
    """Official token actions legal with this supply, one byte each (P1 take-different; take-same from
    ``take_same_min``), cached per supply in ``tables.take_cache``."""
    key = supply.tobytes()
    cached = tables.take_cache.get(key)
    if cached is None:
        stacks = supply.tolist()[:5]
        bits = sum(1 << c for c in range(5) if stacks[c] >= config.take_different_amount)
        same = [count >= max(config.take_same_min, config.take_same_amount) for count in stacks]
        cached = tables.combo_mask[bits].tobytes() + bytes(same)
        if len(tables.take_cache) * (len(cached) + 150) < TAKE_CACHE_BYTES:
            tables.take_cache[key] = cached
    return cached


# -- Rinascimento's token mask (R5, R6) ---------------------------------------------------------
def rinascimento_take_mask(config: SplendorConfig, tables: ActionTables, supply: np.ndarray,
                           row: np.ndarray) -> np.ndarray:  # fmt: skip
    """Legal token patterns under ``PickDifferentCoins`` / ``PickSameCoins.canPerform`` (docs/rules/rules.md R5, R6).

    Every pattern: take at most the stacks, give at most the player's coloured tokens, and give exactly
    what brings an overflowing total back to ``max_tokens`` (nothing otherwise). Take-different: at most
    ``min(take_different_count, non-empty stacks)`` colours and some token on the table. Take-same: the
    stack holds ``take_same_min``; without overflow exactly ``min(take_same_amount, max_tokens - held)``.
    The conditions are split by what they read (:func:`fits_colour`, :func:`fits_held`, :func:`fits_limit`),
    so that the mask can also be read from tables of them (:func:`rinascimento_take_bytes`).
    """
    stacks, tokens = supply[:5].tolist(), row[:5].tolist()
    limit = min(config.take_different_count, sum(1 for stack in stacks if stack > 0))
    ok = fits_held(config, tables, int(row[:6].sum())) & fits_limit(tables, limit)
    for colour in range(5):
        ok &= fits_colour(config, tables, colour, stacks[colour], tokens[colour])
    return ok


def fits_colour(config: SplendorConfig, tables: ActionTables, colour: int, stack: int, tokens: int) -> np.ndarray:
    """Patterns that take at most ``stack`` and give back at most the player's ``tokens`` of ``colour``; a
    take-same of ``colour`` also needs ``take_same_min`` in its stack."""
    ok = (tables.take[:, colour] <= stack) & (tables.give[:, colour] <= tokens)
    if stack < config.take_same_min:
        ok &= ~(tables.is_same & (tables.same_colour == colour))
    return ok


def fits_held(config: SplendorConfig, tables: ActionTables, held: int) -> np.ndarray:
    """Patterns a player holding ``held`` tokens (gold included) may play: a take that overflows ``max_tokens``
    gives back exactly the excess, any other gives nothing back; a take-same that does not overflow takes
    exactly ``min(take_same_amount, max_tokens - held)``."""
    cap = config.max_tokens
    ok = tables.give_total == np.maximum(held + tables.take_total - cap, 0)
    overflow = held + tables.take_total > cap
    return ok & (~tables.is_same | overflow | (tables.take_total == min(config.take_same_amount, cap - held)))


def fits_limit(tables: ActionTables, limit: int) -> np.ndarray:
    """Patterns playable when ``limit = min(take_different_count, non-empty stacks)``: a take-different takes
    at most ``limit`` colours and needs a token on the table (``limit > 0``); every take-same passes."""
    return tables.is_same | ((tables.take_count <= limit) & (limit > 0))


@lru_cache(maxsize=8)
def token_factors(config: SplendorConfig) -> TokenFactors:
    """:class:`~boardenvs.games.splendor.tables.TokenFactors` of a Rinascimento config: :func:`fits_colour`,
    :func:`fits_held` and :func:`fits_limit` for every value they tell apart."""
    tables = tables_for(config)
    most_stack = max(int(tables.take.max()), config.take_same_min)  # larger stacks pass the same patterns
    most_tokens = int(tables.give.max())  # so do larger hands
    reads = [(stack, tokens) for stack in range(most_stack + 1) for tokens in range(most_tokens + 1)]
    return TokenFactors(
        by_colour=tuple(
            tuple(byte_flags(fits_colour(config, tables, colour, *read)) for read in reads) for colour in range(5)
        ),
        by_held=tuple(byte_flags(fits_held(config, tables, held)) for held in range(config.max_tokens + 1)),
        by_limit=tuple(byte_flags(fits_limit(tables, limit)) for limit in range(config.take_different_count + 1)),
        max_stack_read=most_stack,
        max_tokens_read=most_tokens,
        num_patterns=len(tables.take),
    )


def rinascimento_take_bytes(config: SplendorConfig, factors: TokenFactors, supply: list[int], row: list[int]
                            ) -> bytes:  # fmt: skip
    """:func:`rinascimento_take_mask` as one byte per token action, from the tables of its conditions."""
    held = sum(row[:6])
    if held > config.max_tokens:  # never in play (a take stops at the cap); the direct test
        tables = tables_for(config)
        return rinascimento_take_mask(config, tables, np.array(supply), np.array(row)).tobytes()
    limit = min(config.take_different_count, 5 - supply[:5].count(0))
    fits = factors.by_held[held] & factors.by_limit[limit]
    most_stack, most_tokens = factors.max_stack_read, factors.max_tokens_read
    for by_colour, stack, tokens in zip(factors.by_colour, supply, row):  # (conditional clamps: faster than min)
        stack = stack if stack < most_stack else most_stack
        fits &= by_colour[stack * (most_tokens + 1) + (tokens if tokens < most_tokens else most_tokens)]
    return fits.to_bytes(factors.num_patterns, "little")


# -- tokens -------------------------------------------------------------------------------------
def take_pattern(tables: ActionTables, state: SplendorState, index: int, out: list[Event]) -> None:
    """Token pattern ``index`` (``PickCoins.perform``): per colour, take from or give back to the table."""
    player, tick = state.current_player, state.ply
    to_supply, to_player = tables.token_moves[index]
    state.supply += to_supply
    state.players[player] += to_player
    for colour, amount in tables.delta_items[index]:
        if amount > 0:
            out.append(Event(tick, player, ev.DECREASE_TOKENS, amount, colour))
            out.append(Event(tick, player, ev.INCREASE_PLAYER_TOKENS, amount, colour))
        else:
            out.append(Event(tick, player, ev.INCREASE_TOKENS, -amount, colour))
            out.append(Event(tick, player, ev.DECREASE_PLAYER_TOKENS, -amount, colour))


def return_token(state: SplendorState, colour: int, out: list[Event]) -> None:
    """Official end-of-turn return: one token of ``colour`` (gold = 5) back to the table."""
    player, tick = state.current_player, state.ply
    state.supply[colour] += 1
    state.players[player, colour] -= 1
    if colour == GOLD:
        out.append(Event(tick, player, ev.INCREASE_GOLD, amount=1, stack=GOLD))
        out.append(Event(tick, player, ev.DECREASE_PLAYER_GOLD, amount=1, stack=GOLD))
    else:
        out.append(Event(tick, player, ev.INCREASE_TOKENS, amount=1, stack=colour))
        out.append(Event(tick, player, ev.DECREASE_PLAYER_TOKENS, amount=1, stack=colour))


# -- cards --------------------------------------------------------------------------------------
def refill(state: SplendorState, level: int, column: int, out: list[Event]) -> None:
    """Replace a taken face-up card from its deck; the slot stays empty (-1) once the deck is empty."""
    top = int(state.top[level])
    card = int(state.decks[level, top]) if top < state.decks.shape[1] else -1
    state.face_up[level, column] = card
    if card >= 0:
        state.top[level] = top + 1
        out.append(Event(state.ply, state.current_player, ev.DRAW_CARD, card=card, deck=level))
        out.append(Event(state.ply, state.current_player, ev.FILL_CARD, card=card, deck=level, position=column))


def _give_reserve_gold(config: SplendorConfig, state: SplendorState, out: list[Event]) -> None:
    """One gold if any is left; R7 (Rinascimento): only if it keeps the player within ``max_tokens``."""
    player = state.current_player
    if state.supply[GOLD] <= 0:
        return
    if config.rinascimento and sum(state.players[player].tolist()[:6]) >= config.max_tokens:
        return  # R7: no gold beyond the cap, and no discard
    state.supply[GOLD] -= 1
    state.players[player, GOLD] += 1
    out.append(Event(state.ply, player, ev.DECREASE_GOLD, amount=1, stack=GOLD))
    out.append(Event(state.ply, player, ev.INCREASE_PLAYER_GOLD, amount=1, stack=GOLD))


def _add_reserve(state: SplendorState, card: int, hidden: bool) -> int:
    player = state.current_player
    slot = state.reserved[player].tolist().index(-1)
    state.reserved[player, slot] = card
    state.hidden[player, slot] = hidden
    return slot


def reserve_face_up(config: SplendorConfig, state: SplendorState, slot: int, out: list[Event]) -> None:
    """``ReserveBoardCard``: the card, one gold (if any), then the refill."""
    level, column = divmod(slot, config.face_up)
    card = int(state.face_up[level, column])
    position = _add_reserve(state, card, hidden=False)
    out.append(Event(state.ply, state.current_player, ev.RESERVE_BOARD_CARD, card=card, deck=level, position=position))
    _give_reserve_gold(config, state, out)
    refill(state, level, column, out)


def reserve_deck(config: SplendorConfig, state: SplendorState, level: int, out: list[Event]) -> None:
    """``ReserveDeckCard``: the deck's top card face down, then one gold (if any)."""
    top = int(state.top[level])
    card = int(state.decks[level, top])
    state.top[level] = top + 1
    position = _add_reserve(state, card, hidden=True)
    out.append(Event(state.ply, state.current_player, ev.RESERVE_HIDDEN_CARD, card=card, deck=level,
                     position=position, face_down=True))  # fmt: skip
    _give_reserve_gold(config, state, out)


# -- buying and paying --------------------------------------------------------------------------
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


def buy(tables: ActionTables, config: SplendorConfig, state: SplendorState, source: int, out: list[Event]) -> None:
    """Buy the card at ``source``. Official rules with a real gold choice open the ``PAY`` phase; otherwise
    (and always in Rinascimento, R8) coloured tokens pay first and gold only the shortfall."""
    card = paying_card(config, state, source)
    if not config.rinascimento and gold_options(tables, state, card, NO_PLAN):
        state.phase, state.paying, state.gold_plan = PAY, source, NO_PLAN
        slots = NUM_LEVELS * config.face_up
        if source >= slots:  # a face-down reserve is shown when it is bought
            state.hidden[state.current_player, source - slots] = False
        return
    _complete(tables, config, state, source, NO_PLAN, out)


def plan_gold(tables: ActionTables, config: SplendorConfig, state: SplendorState, colour: int,
              out: list[Event]) -> None:  # fmt: skip
    """``PAY``: spend one more gold on ``colour``; the purchase completes once no choice is left."""
    plan = list(state.gold_plan)
    plan[colour] += 1
    state.gold_plan = tuple(plan)
    if not gold_options(tables, state, paying_card(config, state), state.gold_plan):
        finish_payment(tables, config, state, out)


def finish_payment(tables: ActionTables, config: SplendorConfig, state: SplendorState, out: list[Event]) -> None:
    """``PAY``: pay with the planned gold, the rest coloured first, and take the card."""
    source, plan = state.paying, state.gold_plan
    state.phase, state.paying, state.gold_plan = MAIN, -1, NO_PLAN
    _complete(tables, config, state, source, plan, out)


def _complete(tables: ActionTables, config: SplendorConfig, state: SplendorState, source: int,
              plan: tuple[int, ...], out: list[Event]) -> None:  # fmt: skip
    """``BuyCard.perform``: per colour pay coloured tokens then gold, receive points and bonus, refill."""
    player, tick = state.current_player, state.ply
    card = paying_card(config, state, source)
    held, supply = state.players[player].tolist(), state.supply.tolist()
    coloured, golds = payment(tables, held, card, plan)
    for colour in range(5):
        paid, gold = coloured[colour], golds[colour]
        if paid:
            held[colour] -= paid
            supply[colour] += paid
            out.append(Event(tick, player, ev.DECREASE_PLAYER_TOKENS, paid, colour))
            out.append(Event(tick, player, ev.INCREASE_TOKENS, paid, colour))
        if gold:
            held[GOLD] -= gold
            supply[GOLD] += gold
            out.append(Event(tick, player, ev.DECREASE_PLAYER_GOLD, gold, GOLD))
            out.append(Event(tick, player, ev.INCREASE_GOLD, gold, GOLD))
    bonus, points = tables.bonuses[card], tables.points[card]
    held[6 + bonus] += 1
    held[POINTS] += points
    held[BOUGHT] += 1
    state.players[player] = held
    state.supply[:] = supply
    out.append(Event(tick, player, ev.RECEIVE_CARD_POINTS, points=points, card=card))
    out.append(Event(tick, player, ev.RECEIVE_CARD_BONUS, 1, bonus, card))
    slots = NUM_LEVELS * config.face_up
    if source < slots:
        refill(state, *divmod(source, config.face_up), out)
        return
    slot = source - slots
    for array, empty in ((state.reserved, -1), (state.hidden, False)):
        line = array[player]
        line[slot:-1] = line[slot + 1 :].copy()
        line[-1] = empty


def take_noble(tables: ActionTables, state: SplendorState, player: int, slot: int, out: list[Event]) -> None:
    """``player`` receives the noble in ``slot`` and the slot empties (``TakeNoble``: the table by the engine)."""
    noble = int(state.nobles[slot])
    points = int(tables.cards.noble_points[noble])
    state.nobles[slot] = -1
    state.players[player, POINTS] += points
    state.players[player, NOBLES_TAKEN] += 1
    out.append(Event(state.ply, ev.ENGINE, ev.NOBLE_TAKEN, noble=noble, position=slot))
    out.append(Event(state.ply, player, ev.RECEIVE_NOBLE, noble=noble))
    out.append(Event(state.ply, player, ev.RECEIVE_NOBLE_POINTS, points=points, noble=noble))


# -- end of an action, a turn, the game ---------------------------------------------------------
def settle(tables: ActionTables, config: SplendorConfig, state: SplendorState, passed: bool,
           out: list[Event]) -> None:  # fmt: skip
    """After an action: token returns, nobles, the end check and the next player (or a sub-decision)."""
    if state.phase == PAY:
        return
    if config.rinascimento:
        _settle_rinascimento(tables, config, state, passed, out)
        return
    player = state.current_player
    if state.phase != NOBLE:
        row = state.players[player].tolist()
        if sum(row[:6]) > config.max_tokens:
            state.phase = RETURN
            return
        eligible = _eligible(tables, row, state.nobles)
        if len(eligible) > 1:
            state.phase = NOBLE
            return
        if len(eligible) == 1:
            take_noble(tables, state, player, eligible[0], out)
    state.phase = MAIN
    end_turn(config, state, passed)


def _settle_rinascimento(tables: ActionTables, config: SplendorConfig, state: SplendorState, passed: bool,
                         out: list[Event]) -> None:  # fmt: skip
    """R9: every player, in seat order from the start player, takes the first eligible noble in table
    order (at most one each); R1: the game ends at once when someone has ``points_to_end``."""
    n, rows = config.num_players, state.players.tolist()  # (a noble changes no one's bonuses or cards)
    for offset in range(n):
        player = (state.first_player + offset) % n
        eligible = _eligible(tables, rows[player], state.nobles)
        if eligible:
            take_noble(tables, state, player, eligible[0], out)
    if max(state.players[:, POINTS].tolist()) >= config.points_to_end:
        state.current_player = TERMINAL
        return
    state.phase = MAIN
    end_turn(config, state, passed)


def end_turn(config: SplendorConfig, state: SplendorState, passed: bool) -> None:
    """Next player; official end after the round in which someone reached ``points_to_end``; P4 all-pass end."""
    state.passes = state.passes + 1 if passed else 0
    if state.passes >= config.num_players:
        state.current_player = TERMINAL
        return
    if not config.rinascimento and state.players[state.current_player, POINTS] >= config.points_to_end:
        state.end_triggered = True  # only the player to move gains points in an official turn
    following = (state.current_player + 1) % config.num_players
    state.current_player = TERMINAL if state.end_triggered and following == state.first_player else following


def ranking_key(state: SplendorState) -> np.ndarray:
    """Higher is better: points first, then fewer purchased cards (R2 / official tie-break)."""
    return state.players[:, POINTS].astype(np.int64) * 1000 - state.players[:, BOUGHT]


def winners(state: SplendorState) -> list[int]:
    """The best players after the tie-break (:func:`ranking_key`): several share the win (P7), all tied is a draw."""
    key = ranking_key(state)
    return np.flatnonzero(key == key.max()).tolist()
