"""The compiled transitions of Splendor's random playout (Numba, cached on disk): what each action does and how a turn
settles, restated from ``boardenvs.games.splendor.transitions`` over the arrays that
:mod:`baselines.games.splendor.kernels` describes (that module also holds the constants, the legal actions and the
loop). Split from it to keep each module short; imported only where Numba is installed.

Events are not recorded: the compiled playout plays its last ply with ``Game.apply`` (``compiled.py`` says why).
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numba.core.cpu import CPUTargetOptions

Array = np.ndarray

PLAIN = {"cache": True, "nogil": True, **({"_nrt": False} if hasattr(CPUTargetOptions, "_nrt") else {})}
"""The options of every kernel but the loop: cached on disk, and compiled without Numba's reference counting where
Numba offers that switch (``_nrt``). These functions allocate nothing, they read and write the arrays they are
given; counted, every call that passes or unpacks the state's views paid atomic increments and decrements on each
of them, about a fifth of a random game's time (``docs/results/engines.md``)."""

# rules
PLAYERS, RINASCIMENTO, MAX_TOKENS, POINTS_TO_END, SAME_NEED, SAME_AMOUNT, DIFFERENT_COUNT, LEAST_OFFERED = range(8)
FACE_UP, MAX_RESERVED, MOVE_CAP, MIN_NOBLE_TOTAL, NOBLES = 8, 9, 10, 11, 12
RULES_SIZE = 13
# patterns columns: take (5), give (5), then
TAKE_TOTAL, GIVE_TOTAL, TAKE_COUNT, IS_SAME, SAME_COLOUR, NEED = 10, 11, 12, 13, 14, 15
PATTERN_COLUMNS = 16
LANE_BITS, LANE_MOST = 6, 31
"""``patterns[i, NEED]`` packs the take (lanes 0-4) and the give (lanes 5-9) of a pattern in 6-bit lanes, and a
position packs each colour's stack and the player's tokens of it the same way (clamped to 31, above every take and
give) with the lane's top bit set: one subtraction tells whether every lane has enough (the top bits survive)."""
GUARDS = sum(1 << (LANE_BITS * lane + LANE_BITS - 1) for lane in range(10))
# take groups columns: the group's first pattern, its take alone packed in lanes, then the bounds by give total
GROUP_PATTERN, GROUP_TAKE, GROUP_BOUNDS = 0, 1, 2
# cards columns: cost (5), then
BONUS, CARD_POINTS = 5, 6
CARD_COLUMNS = 7
# players columns (``state.py``)
GOLD, BONUSES, POINTS, BOUGHT, NOBLES_TAKEN = 5, 6, 11, 12, 13
# counters
PHASE, PLAYER, FIRST, END_TRIGGERED, PASSES, PLY, TRUNCATED, PAYING, PLAN = 0, 1, 2, 3, 4, 5, 6, 7, 8
PLIES_LEFT, LAST_ACTION, PLAYED, LAST_COUNT = 13, 14, 15, 16
COUNTERS_SIZE = 17
# phases (``state.py``) and the player-to-move sentinel
MAIN, RETURN, NOBLE, PAY = 0, 1, 2, 3
TERMINAL = -1
NUM_LEVELS = 3


# -- tokens ----------------------------------------------------------------------------------------------------------
@njit(**PLAIN)
def take_pattern(patterns: Array, supply: Array, players: Array, player: int, index: int) -> None:
    """Token pattern ``index``: per colour take from or give back to the table (``transitions.take_pattern``)."""
    for colour in range(5):
        delta = patterns[index, colour] - patterns[index, 5 + colour]
        supply[colour] -= delta
        players[player, colour] += delta


@njit(**PLAIN, inline="always")
def held_tokens(players: Array, player: int) -> int:
    """Tokens ``player`` holds, gold included."""
    total = 0
    for colour in range(6):
        total += players[player, colour]
    return total


# -- cards -----------------------------------------------------------------------------------------------------------
@njit(**PLAIN)
def refill(decks: Array, top: Array, face_up: Array, level: int, column: int) -> None:
    """Replace a taken face-up card from its deck; the slot stays empty (-1) once the deck is empty."""
    at = top[level]
    card = decks[level, at] if at < decks.shape[1] else -1
    face_up[level, column] = card
    if card >= 0:
        top[level] = at + 1


@njit(**PLAIN)
def give_reserve_gold(rules: Array, supply: Array, players: Array, player: int) -> None:
    """One gold if any is left; R7 (Rinascimento): only if it keeps the player within ``max_tokens``."""
    if supply[GOLD] <= 0:
        return
    if rules[RINASCIMENTO] and held_tokens(players, player) >= rules[MAX_TOKENS]:
        return
    supply[GOLD] -= 1
    players[player, GOLD] += 1


@njit(**PLAIN)
def add_reserve(reserved: Array, hidden: Array, player: int, card: int, face_down: bool) -> None:
    """``card`` into ``player``'s first free reserve slot."""
    for slot in range(reserved.shape[1]):
        if reserved[player, slot] < 0:
            reserved[player, slot] = card
            hidden[player, slot] = face_down
            return


@njit(**PLAIN)
def reserve_face_up(rules: Array, decks: Array, arrays: tuple, slot: int) -> None:
    """``ReserveBoardCard``: the card, one gold (if any), then the refill."""
    supply, players, top, face_up, reserved, hidden, _, counters = arrays
    level, column = slot // rules[FACE_UP], slot % rules[FACE_UP]
    player = counters[PLAYER]
    add_reserve(reserved, hidden, player, face_up[level, column], False)
    give_reserve_gold(rules, supply, players, player)
    refill(decks, top, face_up, level, column)


@njit(**PLAIN)
def reserve_deck(rules: Array, decks: Array, arrays: tuple, level: int) -> None:
    """``ReserveDeckCard``: the deck's top card face down, then one gold (if any)."""
    supply, players, top, _, reserved, hidden, _, counters = arrays
    player = counters[PLAYER]
    card = decks[level, top[level]]
    top[level] += 1
    add_reserve(reserved, hidden, player, card, True)
    give_reserve_gold(rules, supply, players, player)


@njit(**PLAIN, inline="always")
def card_at(rules: Array, face_up: Array, reserved: Array, player: int, source: int) -> int:
    """The card at ``source``: a face-up slot, or ``3F +`` a reserve slot of ``player`` (``legality.paying_card``)."""
    slots = NUM_LEVELS * rules[FACE_UP]
    if source < slots:
        return face_up[source // rules[FACE_UP], source % rules[FACE_UP]]
    return reserved[player, source - slots]


@njit(**PLAIN, inline="always")
def colour_payment(cards: Array, players: Array, player: int, card: int, colour: int, planned: int) -> tuple[int, int]:
    """``(coloured tokens, gold)`` ``player`` pays in ``colour`` for ``card``, ``planned`` golds replacing tokens of
    that colour (``legality.payment``)."""
    owed = cards[card, colour] - players[player, BONUSES + colour]
    if owed <= 0:
        return 0, 0
    tokens = players[player, colour]
    coloured = (owed if owed < tokens else tokens) - planned
    return coloured, owed - coloured


@njit(**PLAIN)
def gold_option_bits(cards: Array, players: Array, player: int, card: int, plan: Array) -> int:
    """The colours where one more gold can replace a coloured token, as bits (``legality.gold_options``)."""
    bits = golds = 0
    for colour in range(5):
        coloured, gold = colour_payment(cards, players, player, card, colour, plan[colour])
        golds += gold
        if coloured > 0:
            bits |= 1 << colour
    return bits if players[player, GOLD] - golds > 0 else 0


@njit(**PLAIN)
def complete(rules: Array, cards: Array, decks: Array, arrays: tuple, source: int, plan: Array) -> None:
    """``BuyCard.perform``: per colour pay coloured tokens then gold, take points and bonus, refill or close the
    reserve row (``transitions._complete``)."""
    supply, players, top, face_up, reserved, hidden, _, counters = arrays
    player = counters[PLAYER]
    card = card_at(rules, face_up, reserved, player, source)
    for colour in range(5):  # a colour's payment reads only that colour's tokens: pay each as it is worked out
        coloured, gold = colour_payment(cards, players, player, card, colour, plan[colour])
        players[player, colour] -= coloured
        supply[colour] += coloured
        players[player, GOLD] -= gold
        supply[GOLD] += gold
    players[player, BONUSES + cards[card, BONUS]] += 1
    players[player, POINTS] += cards[card, CARD_POINTS]
    players[player, BOUGHT] += 1
    slots = NUM_LEVELS * rules[FACE_UP]
    if source < slots:
        refill(decks, top, face_up, source // rules[FACE_UP], source % rules[FACE_UP])
        return
    last = reserved.shape[1] - 1
    for slot in range(source - slots, last):
        reserved[player, slot], hidden[player, slot] = reserved[player, slot + 1], hidden[player, slot + 1]
    reserved[player, last], hidden[player, last] = -1, False


@njit(**PLAIN)
def buy(rules: Array, cards: Array, decks: Array, arrays: tuple, source: int) -> None:
    """Buy the card at ``source``: official rules with a gold choice open the ``PAY`` phase (a face-down reserve is
    shown), otherwise coloured tokens pay first and gold the shortfall (``transitions.buy``)."""
    _, players, _, face_up, reserved, hidden, _, counters = arrays
    player = counters[PLAYER]
    card = card_at(rules, face_up, reserved, player, source)
    no_plan = counters[PLAN : PLAN + 5]  # all 0 outside the PAY phase
    if not rules[RINASCIMENTO] and gold_option_bits(cards, players, player, card, no_plan):
        counters[PHASE], counters[PAYING] = PAY, source
        slots = NUM_LEVELS * rules[FACE_UP]
        if source >= slots:
            hidden[player, source - slots] = False
        return
    complete(rules, cards, decks, arrays, source, no_plan)


@njit(**PLAIN)
def finish_payment(rules: Array, cards: Array, decks: Array, arrays: tuple) -> None:
    """``PAY``: pay with the planned gold, the rest coloured first, and take the card."""
    counters = arrays[7]
    complete(rules, cards, decks, arrays, counters[PAYING], counters[PLAN : PLAN + 5])
    counters[PHASE], counters[PAYING] = MAIN, -1
    counters[PLAN : PLAN + 5] = 0


@njit(**PLAIN)
def plan_gold(rules: Array, cards: Array, decks: Array, arrays: tuple, colour: int) -> None:
    """``PAY``: spend one more gold on ``colour``; the purchase completes once no choice is left."""
    _, players, _, face_up, reserved, _, _, counters = arrays
    counters[PLAN + colour] += 1
    player = counters[PLAYER]
    card = card_at(rules, face_up, reserved, player, counters[PAYING])
    if not gold_option_bits(cards, players, player, card, counters[PLAN : PLAN + 5]):
        finish_payment(rules, cards, decks, arrays)


# -- nobles and the end of a turn ------------------------------------------------------------------------------------
@njit(**PLAIN, inline="always")
def noble_fits(rules: Array, noble_reqs: Array, players: Array, player: int, noble: int) -> bool:
    """Whether ``player``'s bonuses meet the requirement of the noble id ``noble`` (-1: none)."""
    if noble < 0 or players[player, BOUGHT] < rules[MIN_NOBLE_TOTAL]:
        return False
    for colour in range(5):  # noqa: SIM110 (a loop, not all() over a generator: Numba)
        if noble_reqs[noble, colour] > players[player, BONUSES + colour]:
            return False
    return True


@njit(**PLAIN)
def eligible_bits(rules: Array, noble_reqs: Array, players: Array, nobles: Array, player: int) -> int:
    """The noble slots whose noble ``player`` qualifies for, as bits (``legality.eligible_slots``)."""
    bits = 0
    for slot in range(nobles.shape[0]):
        if noble_fits(rules, noble_reqs, players, player, nobles[slot]):
            bits |= 1 << slot
    return bits


@njit(**PLAIN)
def take_noble(noble_points: Array, players: Array, nobles: Array, player: int, slot: int) -> None:
    """``player`` receives the noble in ``slot`` and the slot empties."""
    players[player, POINTS] += noble_points[nobles[slot]]
    players[player, NOBLES_TAKEN] += 1
    nobles[slot] = -1


@njit(**PLAIN)
def lowest_bit(bits: int) -> int:
    """The index of the lowest set bit of the non-zero ``bits``."""
    index = 0
    while not bits >> index & 1:
        index += 1
    return index


@njit(**PLAIN)
def end_turn(rules: Array, players: Array, counters: Array, passed: bool) -> None:
    """Next player; official end after the round in which someone reached the points; P4 all-pass end."""
    n, player = rules[PLAYERS], counters[PLAYER]
    counters[PASSES] = counters[PASSES] + 1 if passed else 0
    if counters[PASSES] >= n:
        counters[PLAYER] = TERMINAL
        return
    if not rules[RINASCIMENTO] and players[player, POINTS] >= rules[POINTS_TO_END]:
        counters[END_TRIGGERED] = 1
    following = (player + 1) % n
    counters[PLAYER] = TERMINAL if counters[END_TRIGGERED] and following == counters[FIRST] else following


@njit(**PLAIN)
def settle(rules: Array, noble_reqs: Array, noble_points: Array, arrays: tuple, passed: bool) -> None:
    """After an action: token returns, nobles, the end check and the next player (``transitions.settle``)."""
    _, players, _, _, _, _, nobles, counters = arrays
    if counters[PHASE] == PAY:
        return
    n, player = rules[PLAYERS], counters[PLAYER]
    if rules[RINASCIMENTO]:
        best = -1
        for offset in range(n):
            seat = (counters[FIRST] + offset) % n
            bits = eligible_bits(rules, noble_reqs, players, nobles, seat)
            if bits:
                take_noble(noble_points, players, nobles, seat, lowest_bit(bits))
        for seat in range(n):
            best = max(best, players[seat, POINTS])
        if best >= rules[POINTS_TO_END]:
            counters[PLAYER] = TERMINAL
            return
    elif counters[PHASE] != NOBLE:
        if held_tokens(players, player) > rules[MAX_TOKENS]:
            counters[PHASE] = RETURN
            return
        bits = eligible_bits(rules, noble_reqs, players, nobles, player)
        if bits & (bits - 1):
            counters[PHASE] = NOBLE
            return
        if bits:
            take_noble(noble_points, players, nobles, player, lowest_bit(bits))
    counters[PHASE] = MAIN
    end_turn(rules, players, counters, passed)
