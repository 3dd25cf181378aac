"""Splendor rules on :class:`SplendorState`: setup, the legal-action mask and every state change.

Mutating helpers take a fresh copy (``Splendor.apply`` copies first) and append ``Event`` records to
``events``. Official rules follow RULES.md §3.3 with P1-P7; ``config.rinascimento`` switches to R1, R5-R9.
"""

from __future__ import annotations

import numpy as np

from boardenvs.core import TERMINAL
from boardenvs.games.splendor import events as ev
from boardenvs.games.splendor.cards import GOLD, NUM_LEVELS
from boardenvs.games.splendor.config import SplendorConfig
from boardenvs.games.splendor.events import Event
from boardenvs.games.splendor.state import BONUSES, BOUGHT, MAIN, NOBLE, NOBLES_TAKEN, POINTS, RETURN, SplendorState
from boardenvs.games.splendor.tables import ActionTables

NO_NOBLES = np.empty(0, dtype=np.int64)


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
    setup = [Event(0, ev.ENGINE, ev.FILL_NOBLE, noble=int(k), position=i) for i, k in enumerate(nobles)]
    for level in range(NUM_LEVELS):
        for col in range(config.face_up):
            setup.append(Event(0, ev.ENGINE, ev.FILL_CARD, card=int(decks[level, col]), deck=level, position=col))
    state.events = tuple(setup)
    return state


# -- the legal-action mask ----------------------------------------------------------------------
def affordable(tables: ActionTables, player_row: np.ndarray, card_ids: np.ndarray) -> np.ndarray:
    """``bool[len(card_ids)]``: which cards the player can pay for (gold covers any shortfall; -1 never)."""
    need = np.maximum(tables.cards.cost[card_ids] - player_row[BONUSES], 0)
    shortfall = np.maximum(need - player_row[:5], 0).sum(axis=1)
    return shortfall <= player_row[GOLD]


def eligible_nobles(tables: ActionTables, state: SplendorState, player: int) -> np.ndarray:
    """Slots of the nobles on the table whose requirement ``player``'s bonuses meet."""
    if state.players[player, BOUGHT] < tables.min_noble_total:
        return NO_NOBLES
    req = tables.cards.noble_req[state.nobles]
    return np.flatnonzero((req <= state.players[player, BONUSES]).all(axis=1))


def legal_mask(config: SplendorConfig, tables: ActionTables, state: SplendorState) -> np.ndarray:
    """``bool[num_actions]`` of ``state`` (all False once terminal)."""
    mask = np.zeros(tables.num_actions, dtype=bool)
    player = state.current_player
    if player == TERMINAL:
        return mask
    if state.phase == RETURN:
        held = state.players[player, :6] > 0
        if config.rinascimento:
            held[GOLD] = False  # R5: gold cannot be returned
        mask[tables.span("return")] = held
    elif state.phase == NOBLE:
        start = tables.starts[7]
        mask[start + eligible_nobles(tables, state, player)] = True
    else:
        _main_mask(config, tables, state, player, mask)
    return mask


def _main_mask(config: SplendorConfig, tables: ActionTables, state: SplendorState, player: int,
               mask: np.ndarray) -> None:  # fmt: skip
    s, row = tables.starts, state.players[player]
    supply = state.supply
    amount = config.take_different_amount
    bits = sum(1 << c for c, count in enumerate(supply.tolist()[:5]) if count >= amount)
    mask[s[0] : s[1]] = tables.combo_mask[int(config.rinascimento), bits]
    mask[s[1] : s[2]] = supply[:5] >= max(config.take_same_min, _take_same_amount(config, row))
    reserved = state.reserved[player]
    if config.max_reserved and reserved[-1] < 0:  # reserves are kept packed: the last slot frees last
        flat = state.face_up.ravel()
        mask[s[2] : s[3]] = flat >= 0
        mask[s[3] : s[4]] = state.top < tables.deck_sizes
    cards = np.concatenate([state.face_up.ravel(), reserved])
    ok = affordable(tables, row, cards)
    mask[s[4] : s[6]] = ok
    if not mask.any():
        mask[s[8]] = True  # P4: pass only when nothing else is legal


def _take_same_amount(config: SplendorConfig, row: np.ndarray) -> int:
    """Official: ``take_same_amount``. R6: only up to the token cap, unless already at the cap."""
    if not config.rinascimento:
        return config.take_same_amount
    room = config.max_tokens - int(row[:6].sum())
    return min(config.take_same_amount, room) if room > 0 else config.take_same_amount


# -- token moves --------------------------------------------------------------------------------
def move_tokens(state: SplendorState, player: int, colour: int, amount: int, out: list[Event]) -> None:
    """``amount`` tokens of ``colour`` from the supply to ``player`` (negative: back to the supply)."""
    if amount == 0:
        return
    state.supply[colour] -= amount
    state.players[player, colour] += amount
    tick, gold = state.ply, colour == GOLD
    if amount > 0:
        table_type, player_type = (ev.DECREASE_GOLD, ev.INCREASE_PLAYER_GOLD) if gold else (
            ev.DECREASE_TOKENS, ev.INCREASE_PLAYER_TOKENS)  # fmt: skip
    else:
        table_type, player_type = (ev.INCREASE_GOLD, ev.DECREASE_PLAYER_GOLD) if gold else (
            ev.INCREASE_TOKENS, ev.DECREASE_PLAYER_TOKENS)  # fmt: skip
    size = abs(amount)
    out.append(Event(tick, player, table_type, amount=size, stack=colour))
    out.append(Event(tick, player, player_type, amount=size, stack=colour))


def take_different(tables: ActionTables, config: SplendorConfig, state: SplendorState, index: int,
                   out: list[Event]) -> None:  # fmt: skip
    player, amount, tick = state.current_player, config.take_different_amount, state.ply
    vector = tables.combo_vectors[index]
    state.supply[:5] -= vector
    state.players[player, :5] += vector
    for colour in tables.combos[index]:
        out.append(Event(tick, player, ev.DECREASE_TOKENS, amount=amount, stack=colour))
        out.append(Event(tick, player, ev.INCREASE_PLAYER_TOKENS, amount=amount, stack=colour))


def take_same(config: SplendorConfig, state: SplendorState, colour: int, out: list[Event]) -> None:
    player = state.current_player
    move_tokens(state, player, colour, _take_same_amount(config, state.players[player]), out)


# -- cards --------------------------------------------------------------------------------------
def draw(state: SplendorState, level: int, out: list[Event], face_down: bool = False) -> int:
    """The top card of ``level``'s deck, removed from it (-1 if empty)."""
    top = int(state.top[level])
    card = int(state.decks[level, top]) if top < state.decks.shape[1] else -1
    if card >= 0:
        state.top[level] = top + 1
        out.append(Event(state.ply, state.current_player, ev.DRAW_CARD, card=card, deck=level, face_down=face_down))
    return card


def refill(state: SplendorState, level: int, column: int, out: list[Event]) -> None:
    """Replace a taken face-up card from its deck; the slot stays empty (-1) once the deck is empty."""
    card = draw(state, level, out)
    state.face_up[level, column] = card
    if card >= 0:
        out.append(Event(state.ply, state.current_player, ev.FILL_CARD, card=card, deck=level, position=column))


def _give_reserve_gold(config: SplendorConfig, state: SplendorState, out: list[Event]) -> None:
    player = state.current_player
    if state.supply[GOLD] <= 0:
        return
    if config.rinascimento and state.players[player, :6].sum() >= config.max_tokens:
        return  # R7: no gold beyond the cap, and no discard
    move_tokens(state, player, GOLD, 1, out)


def _add_reserve(state: SplendorState, card: int, hidden: bool) -> int:
    player = state.current_player
    slot = int(np.flatnonzero(state.reserved[player] < 0)[0])
    state.reserved[player, slot] = card
    state.hidden[player, slot] = hidden
    return slot


def reserve_face_up(tables: ActionTables, config: SplendorConfig, state: SplendorState, slot: int,
                    out: list[Event]) -> None:  # fmt: skip
    level, column = divmod(slot, config.face_up)
    card = int(state.face_up[level, column])
    position = _add_reserve(state, card, hidden=False)
    out.append(Event(state.ply, state.current_player, ev.RESERVE_BOARD_CARD, card=card, deck=level, position=position))
    refill(state, level, column, out)
    _give_reserve_gold(config, state, out)


def reserve_deck(config: SplendorConfig, state: SplendorState, level: int, out: list[Event]) -> None:
    card = draw(state, level, out, face_down=True)
    position = _add_reserve(state, card, hidden=True)
    out.append(Event(state.ply, state.current_player, ev.RESERVE_HIDDEN_CARD, card=card, deck=level,
                     position=position, face_down=True))  # fmt: skip
    _give_reserve_gold(config, state, out)


def pay_and_take(tables: ActionTables, state: SplendorState, card: int, out: list[Event]) -> None:
    """Pay ``card`` (coloured tokens first, gold for the shortfall; R8) and add its bonus and points."""
    player = state.current_player
    row = state.players[player]
    need = np.maximum(tables.cards.cost[card] - row[BONUSES], 0)
    coloured = np.minimum(need, row[:5])
    for colour, paid in enumerate(coloured.tolist()):
        move_tokens(state, player, colour, -paid, out)
    move_tokens(state, player, GOLD, -int((need - coloured).sum()), out)
    bonus, points = int(tables.cards.bonus[card]), int(tables.cards.points[card])
    row[6 + bonus] += 1
    row[POINTS] += points
    row[BOUGHT] += 1
    out.append(Event(state.ply, player, ev.RECEIVE_CARD_BONUS, amount=1, stack=bonus, card=card))
    if points:
        out.append(Event(state.ply, player, ev.RECEIVE_CARD_POINTS, points=points, card=card))


def buy_face_up(tables: ActionTables, config: SplendorConfig, state: SplendorState, slot: int,
                out: list[Event]) -> None:  # fmt: skip
    level, column = divmod(slot, config.face_up)
    pay_and_take(tables, state, int(state.face_up[level, column]), out)
    refill(state, level, column, out)


def buy_reserved(tables: ActionTables, state: SplendorState, slot: int, out: list[Event]) -> None:
    player = state.current_player
    card = int(state.reserved[player, slot])
    pay_and_take(tables, state, card, out)
    for array, empty in ((state.reserved, -1), (state.hidden, False)):
        row = array[player]
        row[slot:-1] = row[slot + 1 :].copy()
        row[-1] = empty


def take_noble(tables: ActionTables, state: SplendorState, player: int, slot: int, out: list[Event]) -> None:
    """``player`` receives the noble in ``slot`` (3 points) and the slot empties."""
    noble = int(state.nobles[slot])
    points = int(tables.cards.noble_points[noble])
    state.nobles[slot] = -1
    state.players[player, POINTS] += points
    state.players[player, NOBLES_TAKEN] += 1
    out.append(Event(state.ply, player, ev.NOBLE_TAKEN, noble=noble, position=slot))
    out.append(Event(state.ply, player, ev.RECEIVE_NOBLE, noble=noble))
    out.append(Event(state.ply, player, ev.RECEIVE_NOBLE_POINTS, points=points, noble=noble))


# -- end of an action, a turn, the game ---------------------------------------------------------
def settle(tables: ActionTables, config: SplendorConfig, state: SplendorState, passed: bool,
           out: list[Event]) -> None:  # fmt: skip
    """After an action: token returns, nobles, the end check and the next player (or a sub-decision)."""
    player = state.current_player
    if config.rinascimento:
        _settle_rinascimento(tables, config, state, passed, out)
        return
    if state.phase != NOBLE and state.players[player, :6].sum() > config.max_tokens:
        state.phase = RETURN
        return
    if state.phase != NOBLE:
        eligible = eligible_nobles(tables, state, player)
        if len(eligible) > 1:
            state.phase = NOBLE
            return
        if len(eligible) == 1:
            take_noble(tables, state, player, int(eligible[0]), out)
    state.phase = MAIN
    end_turn(config, state, passed)


def _settle_rinascimento(tables: ActionTables, config: SplendorConfig, state: SplendorState, passed: bool,
                         out: list[Event]) -> None:  # fmt: skip
    """R9: every player takes the first eligible noble in table order; R1: the game ends at once."""
    for player in range(config.num_players):
        eligible = eligible_nobles(tables, state, player)
        if len(eligible):
            take_noble(tables, state, player, int(eligible[0]), out)
    if state.players[:, POINTS].max() >= config.points_to_end:
        state.current_player = TERMINAL
        return
    if state.players[state.current_player, :6].sum() > config.max_tokens:
        state.phase = RETURN  # R5/R6: the same action returns down to the cap (one token per sub-decision)
        return
    state.phase = MAIN
    end_turn(config, state, passed)


def end_turn(config: SplendorConfig, state: SplendorState, passed: bool) -> None:
    """Next player; official end after the round in which someone reached ``points_to_end``; P4 all-pass end."""
    state.passes = state.passes + 1 if passed else 0
    if state.passes >= config.num_players:
        state.current_player = TERMINAL
        return
    if not config.rinascimento and state.players[:, POINTS].max() >= config.points_to_end:
        state.end_triggered = True
    following = (state.current_player + 1) % config.num_players
    state.current_player = TERMINAL if state.end_triggered and following == state.first_player else following


def ranking_key(state: SplendorState) -> np.ndarray:
    """Higher is better: points first, then fewer purchased cards (R2 / official tie-break)."""
    return state.players[:, POINTS].astype(np.int64) * 1000 - state.players[:, BOUGHT]


def outcome(state: SplendorState) -> np.ndarray:
    """Zero-sum returns: the best players (after the tie-break) share the win; P7 shared win on a full tie."""
    key = ranking_key(state)
    winners = key == key.max()
    n, k = len(key), int(winners.sum())
    returns = np.full(n, -1.0 / (n - 1), dtype=np.float32)
    returns[winners] = (n - k) / (k * (n - 1))
    return returns
