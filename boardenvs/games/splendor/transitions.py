"""What a legal Splendor action does to a :class:`SplendorState`: the setup, every state change and the end.

:func:`play` is the game's transition (``Splendor._apply``): it copies the state, performs the action and settles
the turn. Helpers change that fresh copy and append ``Event`` records to ``out``. Official rules follow
docs/rules/rules.md §3.3 with P1-P7; ``config.rinascimento`` switches to R1, R5-R9. Events follow Rinascimento's
emission (``PickCoins``, ``BuyCard``, ``Reserve*Card``, ``TakeNoble``, ``State.placeCard``) so that counting a
player's events gives the paper's synthesis sigma. Which actions are legal is ``legality.py``'s.
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

import numpy as np

from boardenvs.core import TERMINAL
from boardenvs.games.splendor import events as ev
from boardenvs.games.splendor.cards import GOLD, NUM_LEVELS
from boardenvs.games.splendor.config import SplendorConfig
from boardenvs.games.splendor.events import Event
from boardenvs.games.splendor.legality import eligible_slots, gold_options, paying_card, payment
from boardenvs.games.splendor.state import (
    BOUGHT,
    MAIN,
    NO_PLAN,
    NOBLE,
    NOBLES_TAKEN,
    PAY,
    PLAYER_COLUMNS,
    POINTS,
    RETURN,
    SplendorState,
)
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
    ActionTables,
)  # fmt: skip
from boardenvs.games.splendor.tables import PAY as PAY_KIND
from boardenvs.games.splendor.tables import RETURN as RETURN_KIND

_new_state = object.__new__


# -- a transition -------------------------------------------------------------------------------
def play(config: SplendorConfig, tables: ActionTables, state: SplendorState, action: int) -> SplendorState:
    """The successor of ``state`` after the legal ``action``, with ``ply`` one higher and its events."""
    new, out = state.copy(), []
    kind = tables.kind_list[action]
    _perform(config, tables, new, kind, action, out)
    settle(tables, config, new, kind == PASS, out)
    new.ply += 1
    new.events = tuple(out)
    return new


def _perform(config: SplendorConfig, tables: ActionTables, state: SplendorState, kind: int, action: int,
             out: list[Event]) -> None:  # fmt: skip
    """The action's own change, by kind (the turn is settled after it)."""
    arg = action - tables.starts[kind]
    if kind <= TAKE_SAME:
        take_pattern(tables, state, action - tables.starts[TAKE_DIFFERENT], out)
    elif kind == RESERVE_FACE_UP:
        reserve_face_up(config, state, arg, out)
    elif kind == RESERVE_DECK:
        reserve_deck(config, state, arg, out)
    elif kind == BUY_FACE_UP:
        buy(tables, config, state, arg, out)
    elif kind == BUY_RESERVED:
        buy(tables, config, state, NUM_LEVELS * config.face_up + arg, out)
    elif kind == RETURN_KIND:
        return_token(state, arg, out)
    elif kind == NOBLE_CHOICE:
        take_noble(tables, state, state.current_player, arg, out)
    elif kind == PAY_GOLD:
        plan_gold(tables, config, state, arg, out)
    elif kind == PAY_KIND:
        finish_payment(tables, config, state, out)


# -- setup --------------------------------------------------------------------------------------
def initial_state(config: SplendorConfig, tables: ActionTables, rng: np.random.Generator) -> SplendorState:
    """Shuffled decks, ``face_up`` cards per level, ``nobles`` nobles and a random start player."""
    setup = _setup(config, tables)
    decks = setup.decks.copy()
    for level, ids in enumerate(setup.level_ids):
        decks[level, : len(ids)] = rng.permutation(ids)
    nobles = rng.permutation(tables.cards.num_nobles)[: config.nobles].astype(np.int16)
    first = int(rng.integers(config.num_players))
    state = _new_state(SplendorState)
    state.supply, state.players, state.decks = setup.supply.copy(), setup.players.copy(), decks
    state.top, state.face_up = setup.top.copy(), decks[:, : config.face_up].copy()
    state.reserved, state.hidden, state.nobles = setup.reserved.copy(), setup.hidden.copy(), nobles
    state.phase, state.current_player, state.first_player, state.end_triggered = MAIN, first, first, False
    state.passes = state.ply = 0
    state.truncated, state.paying, state.gold_plan, state.mask = False, -1, NO_PLAN, None
    state.events = _setup_events(decks, nobles, config.face_up)
    return state


class _Setup(NamedTuple):
    """What every game of a config starts from (arrays to copy), built once per config."""

    level_ids: tuple[np.ndarray, ...]
    decks: np.ndarray
    supply: np.ndarray
    players: np.ndarray
    top: np.ndarray
    reserved: np.ndarray
    hidden: np.ndarray


@lru_cache(maxsize=64)
def _setup(config: SplendorConfig, tables: ActionTables) -> _Setup:
    cards, n = tables.cards, config.num_players
    return _Setup(
        level_ids=tuple(np.array(ids, dtype=np.int16) for ids in cards.by_level),
        decks=np.full((NUM_LEVELS, max(len(ids) for ids in cards.by_level)), -1, dtype=np.int16),
        supply=np.array([config.tokens_per_colour] * 5 + [config.gold], dtype=np.int16),
        players=np.zeros((n, PLAYER_COLUMNS), dtype=np.int16),
        top=np.full(NUM_LEVELS, config.face_up, dtype=np.int16),
        reserved=np.full((n, config.max_reserved), -1, dtype=np.int16),
        hidden=np.zeros((n, config.max_reserved), dtype=bool),
    )


def _setup_events(decks: np.ndarray, nobles: np.ndarray, face_up: int) -> tuple[Event, ...]:
    """The setup's records: each face-up card drawn then placed, level by level, then each noble placed."""
    setup = []
    for level, row in enumerate(decks[:, :face_up].tolist()):
        for column, card in enumerate(row):
            setup.append(Event(0, ev.ENGINE, ev.DRAW_CARD, card=card, deck=level))
            setup.append(Event(0, ev.ENGINE, ev.FILL_CARD, card=card, deck=level, position=column))
    for slot, noble in enumerate(nobles.tolist()):
        setup.append(Event(0, ev.ENGINE, ev.FILL_NOBLE, noble=noble, position=slot))
    return tuple(setup)


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
        eligible = eligible_slots(tables, row, state.nobles)
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
        eligible = eligible_slots(tables, rows[player], state.nobles)
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
