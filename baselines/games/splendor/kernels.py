"""The compiled rules of Splendor's random playout (Numba, cached on disk): imported only where Numba is installed, by
:mod:`baselines.games.splendor.compiled`, which documents them and converts states; the checks against the engine are
``tests/splendor/test_compiled.py``.

This module lists the legal actions (``legality.legal_mask`` and ``takes``' token rules, in increasing id order),
dispatches an action id to its transition and runs the loop; the transitions themselves are
:mod:`baselines.games.splendor.kernel_moves` (with the constants of the layout). Arrays:

* ``tables = (rules, starts, patterns, cards, noble_reqs, noble_points, deck_sizes, groups)``, all ``int64``,
  per config: ``rules`` (slots ``PLAYERS`` .. ``MIN_NOBLE_TOTAL``), ``starts`` (the first id of each action kind and
  the number of actions, ``ActionTables.starts``), ``patterns[T, 16]`` (take and give per colour, take total, give
  total, colours taken, take-same, its colour, take and give packed in lanes), ``cards[C, 7]`` (cost per colour,
  bonus, points), ``noble_reqs[K, 5]``, ``noble_points[K]``, ``deck_sizes[3]``, ``groups[G, 2 + E + 2]``: the token
  patterns grouped by their take (consecutive ids, gives fewest first): the group's first pattern, its take packed
  in lanes, and for each give total ``e`` in ``0..E`` the first pattern giving back at least ``e``, then the
  group's end;
* ``decks``: the state's pre-drawn deck order (``int16``, read only: a state holds all its randomness);
* ``flat``: one ``int64`` buffer holding the state's arrays, and ``arrays = (supply, players, top, face_up, reserved,
  hidden, nobles, counters)``: its views, in the state's shapes (``hidden`` as 0/1), ``counters`` being phase,
  player to move, first player, end triggered, passes, ply, truncated, paying, the gold plan (5), the plies still
  to play, the last action played, the plies played and the count of legal ids before the last ply; ``backup``:
  ``flat`` as it was before the last ply (one copy a ply).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from baselines.games.splendor import kernel_moves
from baselines.games.splendor.kernel_moves import (
    BONUSES,
    COUNTERS_SIZE,
    DIFFERENT_COUNT,
    FACE_UP,
    GOLD,
    GROUP_BOUNDS,
    GROUP_PATTERN,
    GROUP_TAKE,
    GUARDS,
    IS_SAME,
    LANE_BITS,
    LANE_MOST,
    LAST_ACTION,
    LAST_COUNT,
    LEAST_OFFERED,
    MAIN,
    MAX_RESERVED,
    MAX_TOKENS,
    MOVE_CAP,
    NEED,
    NOBLE,
    NOBLES,
    NUM_LEVELS,
    PAYING,
    PHASE,
    PLAIN,
    PLAN,
    PLAYED,
    PLAYER,
    PLAYERS,
    PLIES_LEFT,
    PLY,
    RETURN,
    RINASCIMENTO,
    RULES_SIZE,
    SAME_AMOUNT,
    SAME_COLOUR,
    SAME_NEED,
    TAKE_COUNT,
    TAKE_TOTAL,
    TERMINAL,
    TRUNCATED,
    buy,
    card_at,
    eligible_bits,
    finish_payment,
    gold_option_bits,
    held_tokens,
    plan_gold,
    reserve_deck,
    reserve_face_up,
    settle,
    take_noble,
    take_pattern,
)  # fmt: skip

Array = np.ndarray

# action kinds (``tables.KINDS``)
TAKE_DIFFERENT, TAKE_SAME, RESERVE_FACE_UP, RESERVE_DECK, BUY_FACE_UP, BUY_RESERVED = range(6)
RETURN_KIND, NOBLE_CHOICE, PAY_GOLD, PAY_KIND, PASS = range(6, 11)
NEED_NUMBERS, FINISHED = 1, 0
"""Statuses of :func:`run`."""
__all__ = [
    "COUNTERS_SIZE",
    "FINISHED",
    "LAST_ACTION",
    "LAST_COUNT",
    "NEED_NUMBERS",
    "PLAYED",
    "PLIES_LEFT",
    "RULES_SIZE",
    "kernel_moves",
    "run",
    "state_views",
]


# -- the legal actions -----------------------------------------------------------------------------------------------
@njit(**PLAIN, inline="always")
def colours_offered(rules: Array, supply: Array) -> int:
    """How many colours a take-different may take (``takes.offer``)."""
    stacks = 0
    for colour in range(5):
        if supply[colour] >= rules[LEAST_OFFERED]:
            stacks += 1
    return min(rules[DIFFERENT_COUNT], stacks)


@njit(**PLAIN, inline="always")
def take_allowed(rinascimento: bool, take: int, take_count: int, is_same: bool, same_fits: bool, packed: int,
                 offered: int) -> bool:  # fmt: skip
    """Whether the token rules allow a take (``takes.take_mask`` without the gives): ``take`` packed in lanes, the
    colours it takes, whether it is a take-same and whether it fits the take-same rules (stack, exact amount);
    ``packed``: the stacks and the player's tokens in lanes."""
    if (packed - take) & GUARDS != GUARDS:
        return False  # a take beyond a stack
    if is_same:
        return same_fits
    return take_count <= offered if rinascimento else take_count == offered


@njit(**PLAIN, inline="always")
def packed_position(supply: Array, players: Array, player: int) -> int:
    """The stacks (lanes 0-4) and ``player``'s tokens (lanes 5-9), clamped to ``LANE_MOST``, each lane's top bit
    set (``kernel_moves.LANE_BITS``)."""
    packed = 0
    for colour in range(5):
        packed |= (min(supply[colour], LANE_MOST) | 1 << LANE_BITS - 1) << LANE_BITS * colour
        packed |= (min(players[player, colour], LANE_MOST) | 1 << LANE_BITS - 1) << LANE_BITS * (5 + colour)
    return packed


@njit(**PLAIN)
def list_takes(tables: tuple, arrays: tuple, legal: Array, count: int) -> int:
    """Append the legal token actions to ``legal[count:]``; the new count. Takes come in groups (one take, its
    gives fewest first): a group's take is tested once, then only its gives of the one allowed total (Rinascimento:
    exactly the excess over the cap, ``takes.give_exact_excess``; official rules: every give, all empty)."""
    rules, starts, patterns, groups = tables[0], tables[1], tables[2], tables[7]
    supply, players, counters = arrays[0], arrays[1], arrays[7]
    player = counters[PLAYER]
    offered = colours_offered(rules, supply)
    rinascimento = rules[RINASCIMENTO] != 0
    if rinascimento and offered == 0:
        return count  # every token action, "take none" included, needs a colour on offer
    held = held_tokens(players, player)
    packed = packed_position(supply, players, player)
    exact = min(rules[SAME_AMOUNT], rules[MAX_TOKENS] - held)
    most = groups.shape[1] - GROUP_BOUNDS - 2  # the largest give total
    for group in range(groups.shape[0]):
        first = groups[group, GROUP_PATTERN]
        take_total = patterns[first, TAKE_TOTAL]
        excess = held + take_total - rules[MAX_TOKENS]
        owed = max(excess, 0) if rinascimento else 0
        if owed > most:
            continue
        low = groups[group, GROUP_BOUNDS + owed]
        high = groups[group, GROUP_BOUNDS + owed + 1] if rinascimento else groups[group, GROUP_BOUNDS + most + 1]
        if low == high:
            continue
        within = not rinascimento or excess > 0 or take_total == exact  # a take-same within the cap takes ``exact``
        same_fits = within and supply[patterns[first, SAME_COLOUR]] >= rules[SAME_NEED]
        if not take_allowed(rinascimento, groups[group, GROUP_TAKE], patterns[first, TAKE_COUNT],
                            patterns[first, IS_SAME] != 0, same_fits, packed, offered):  # fmt: skip
            continue
        for index in range(low, high):
            if (packed - patterns[index, NEED]) & GUARDS == GUARDS:  # a give within the player's tokens
                legal[count] = starts[TAKE_DIFFERENT] + index
                count += 1
    return count


@njit(**PLAIN, inline="always")
def affordable(cards: Array, players: Array, player: int, card: int) -> bool:
    """Whether ``player`` can pay for ``card`` (-1: no card): its colours' shortfalls add up to at most its gold."""
    if card < 0:
        return False
    short = 0
    for colour in range(5):
        owed = cards[card, colour] - players[player, BONUSES + colour] - players[player, colour]
        if owed > 0:
            short += owed
    return short <= players[player, GOLD]


@njit(**PLAIN)
def list_cards(tables: tuple, arrays: tuple, legal: Array, count: int) -> int:
    """Append the legal reserves (a free slot, P5) and purchases to ``legal[count:]``; the new count."""
    rules, starts, cards, deck_sizes = tables[0], tables[1], tables[3], tables[6]
    _, players, top, face_up, reserved, _, _, counters = arrays
    player, width = counters[PLAYER], rules[FACE_UP]
    slots = NUM_LEVELS * width
    if rules[MAX_RESERVED] > 0 and reserved[player, rules[MAX_RESERVED] - 1] < 0:
        for slot in range(slots):
            if face_up[slot // width, slot % width] >= 0:
                legal[count] = starts[RESERVE_FACE_UP] + slot
                count += 1
        for level in range(NUM_LEVELS):
            if top[level] < deck_sizes[level]:
                legal[count] = starts[RESERVE_DECK] + level
                count += 1
    for slot in range(slots):
        if affordable(cards, players, player, face_up[slot // width, slot % width]):
            legal[count] = starts[BUY_FACE_UP] + slot
            count += 1
    for slot in range(rules[MAX_RESERVED]):
        if affordable(cards, players, player, reserved[player, slot]):
            legal[count] = starts[BUY_RESERVED] + slot
            count += 1
    return count


@njit(**PLAIN)
def list_bits(bits: int, start: int, legal: Array, count: int) -> int:
    """Append ``start + b`` for each set bit ``b`` of ``bits``, lowest first; the new count."""
    index = 0
    while bits >> index:
        if bits >> index & 1:
            legal[count] = start + index
            count += 1
        index += 1
    return count


@njit(**PLAIN)
def list_legal(tables: tuple, arrays: tuple, legal: Array) -> int:
    """``legal[:count]`` = the legal action ids in increasing order (``Splendor.legal_actions``); returns ``count``."""
    rules, starts, cards, noble_reqs = tables[0], tables[1], tables[3], tables[4]
    _, players, _, face_up, reserved, _, nobles, counters = arrays
    phase, player = counters[PHASE], counters[PLAYER]
    if phase == MAIN:
        count = list_cards(tables, arrays, legal, list_takes(tables, arrays, legal, 0))
        if count == 0:  # P4: pass only when nothing else is legal
            legal[0] = starts[PASS]
            count = 1
        return count
    if phase == RETURN:
        bits = 0
        for colour in range(6):
            if players[player, colour] > 0:
                bits |= 1 << colour
        return list_bits(bits, starts[RETURN_KIND], legal, 0)
    if phase == NOBLE:
        return list_bits(eligible_bits(rules, noble_reqs, players, nobles, player), starts[NOBLE_CHOICE], legal, 0)
    card = card_at(rules, face_up, reserved, player, counters[PAYING])
    count = list_bits(gold_option_bits(cards, players, player, card, counters[PLAN : PLAN + 5]), starts[PAY_GOLD],
                      legal, 0)  # fmt: skip
    legal[count] = starts[PAY_KIND]
    return count + 1


# -- playing an action -----------------------------------------------------------------------------------------------
@njit(**PLAIN)
def kind_of(starts: Array, action: int) -> int:
    """The kind whose id range holds ``action``."""
    kind = 0
    while starts[kind + 1] <= action:
        kind += 1
    return kind


@njit(**PLAIN)
def perform(tables: tuple, decks: Array, arrays: tuple, kind: int, arg: int) -> None:
    """The action's own change, by kind (``transitions._perform``; the turn is settled after it)."""
    rules, cards, noble_points = tables[0], tables[3], tables[5]
    supply, players, _, _, _, _, nobles, counters = arrays
    player = counters[PLAYER]
    if kind <= TAKE_SAME:
        take_pattern(tables[2], supply, players, player, arg + tables[1][kind] - tables[1][TAKE_DIFFERENT])
    elif kind == RESERVE_FACE_UP:
        reserve_face_up(rules, decks, arrays, arg)
    elif kind == RESERVE_DECK:
        reserve_deck(rules, decks, arrays, arg)
    elif kind == BUY_FACE_UP:
        buy(rules, cards, decks, arrays, arg)
    elif kind == BUY_RESERVED:
        buy(rules, cards, decks, arrays, NUM_LEVELS * rules[FACE_UP] + arg)
    elif kind == RETURN_KIND:
        supply[arg] += 1
        players[player, arg] -= 1
    elif kind == NOBLE_CHOICE:
        take_noble(noble_points, players, nobles, player, arg)
    elif kind == PAY_GOLD:
        plan_gold(rules, cards, decks, arrays, arg)
    elif kind == PAY_KIND:
        finish_payment(rules, cards, decks, arrays)


@njit(**PLAIN)
def play(tables: tuple, decks: Array, arrays: tuple, action: int) -> None:
    """Play the legal ``action``: its change, the settling of the turn, the ply and the move cap of ``Game.apply``."""
    rules, starts, counters = tables[0], tables[1], arrays[7]
    kind = kind_of(starts, action)
    perform(tables, decks, arrays, kind, action - starts[kind])
    settle(rules, tables[4], tables[5], arrays, kind == PASS)
    counters[PLY] += 1
    if counters[PLY] >= rules[MOVE_CAP] and counters[PLAYER] != TERMINAL:
        counters[PLAYER], counters[TRUNCATED] = TERMINAL, 1


@njit(cache=True, nogil=True)
def state_views(rules: Array, flat: Array) -> tuple:
    """The ``arrays`` of the buffer ``flat``: its views in the state's shapes, in ``STATE_ARRAYS`` order then the
    counters (``compiled.layout`` lays out the same)."""
    n, width, slots = rules[PLAYERS], rules[FACE_UP], rules[MAX_RESERVED]
    at = 6 + 14 * n
    players = flat[6:at].reshape((n, 14))
    top = flat[at : at + NUM_LEVELS]
    at += NUM_LEVELS
    face_up = flat[at : at + NUM_LEVELS * width].reshape((NUM_LEVELS, width))
    at += NUM_LEVELS * width
    reserved = flat[at : at + n * slots].reshape((n, slots))
    hidden = flat[at + n * slots : at + 2 * n * slots].reshape((n, slots))
    at += 2 * n * slots
    nobles = flat[at : at + rules[NOBLES]]
    return flat[:6], players, top, face_up, reserved, hidden, nobles, flat[at + rules[NOBLES] :]


@njit(cache=True, nogil=True)
def run(tables: tuple, decks: Array, flat: Array, backup: Array, legal: Array, values: Array,
        index: int) -> tuple[int, int]:  # fmt: skip
    """Uniformly random legal moves until the game ends or ``counters[PLIES_LEFT]`` plies were played (negative: no
    limit), each the ``int(u * count)``-th legal id for ``u = values[index]``. ``backup`` keeps ``flat`` as it was
    before the last ply, ``counters[LAST_ACTION]`` that ply's action and ``counters[LAST_COUNT]`` how many legal ids
    it had (``legal[:count]``). ``(status, index)``, the status :data:`NEED_NUMBERS` when ``values`` ran out before a
    draw."""
    arrays = state_views(tables[0], flat)
    counters = arrays[7]
    end = values.shape[0]
    while counters[PLIES_LEFT] != 0 and counters[PLAYER] != TERMINAL:
        if index == end:
            return NEED_NUMBERS, index
        count = list_legal(tables, arrays, legal)
        action = legal[int(values[index] * count)]
        index += 1
        backup[:] = flat  # the position before the ply
        play(tables, decks, arrays, action)
        counters[LAST_ACTION], counters[LAST_COUNT] = action, count
        counters[PLAYED] += 1
        counters[PLIES_LEFT] -= 1
    return FINISHED, index
