"""The compiled rules of Gravwell's random playout (Numba, cached on disk): imported only where Numba is installed, by
:mod:`baselines.games.gravwell.compiled`, which documents them and converts states; the checks against the engine are
``tests/gravwell/test_compiled.py``.

Every function restates one function of ``boardenvs.games.gravwell`` (``transitions``, ``movement``, the move cap of
``Game.apply``) over the arrays below, in the same order of steps, so that the same moves give the same position and
the same events. Arrays (``int64``; the row and slot names are the constants of this module):

* ``rules`` = number of players, Hardcore, inert tractors, No Secrets, the move cap;
* ``cards[SIGNED | VALUE, card]``: the tiles a card moves its owner (negative: a repulsor, 0: a tractor) and its value;
* ``pos[ship]``: players' ships, then the hulks; ``seats[row, player]``: hands, known cards (bitmasks), commits,
  Emergency Stops left (0/1), the latest reveal, and the round's draft order (``seats[ORDER, k]``: the ``k``-th
  player to draft, not a per-player value);
* ``stacks[stack]`` = ``(face up, face down)``; ``queue[k]`` = ``(card, owner)``, the cards still to resolve being
  ``queue[counters[QUEUE_HEAD]:counters[QUEUE_END]]``; ``decks[round]``, ``ties[round]``: the pre-drawn randomness;
* ``counters``: the state's ints (player to move, ply, stacks on the table, picks, round, turn, phase, spent cards,
  winner, truncated, the pending card's direction), the plies still to play and the events recorded;
* ``events[k]`` = ``(kind, player, card, detail, tile)``: the events of the latest action, kinds numbered as
  :data:`EVENT_KINDS` of the compiled module.

The state's arrays travel as one tuple, ``arrays = (pos, seats, stacks, queue, decks, ties, counters, events)``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

Array = np.ndarray

# rules
PLAYERS, HARDCORE, INERT_TRACTORS, NO_SECRETS, MOVE_CAP = 0, 1, 2, 3, 4
# cards rows
SIGNED, VALUE = 0, 1
# seats rows
HANDS, KNOWN, COMMITS, STOPS, REVEALED, ORDER = 0, 1, 2, 3, 4, 5
# counters
PLAYER, PLY, PLIES_LEFT, FREE, PICKS, ROUND, TURN, PHASE, SPENT, WINNER, TRUNCATED, DIRECTION = range(12)
QUEUE_HEAD, QUEUE_END, EVENT_COUNT = 12, 13, 14
COUNTERS_SIZE = 15
# event kinds (the order of the compiled module's EVENT_KINDS)
DRAFTED, COMMITTED, REVEALED_CARD, MOVED, STUCK, STOPPED, ESCAPED, NEW_ROUND = range(8)
MAX_EVENTS = 64
"""Room for the events of one action (at most 27: a commit, 4 reveals, 4 cards moving up to 5 ships, an escape or a
new round)."""

DRAFT, COMMIT, STOP = 0, 1, 2
"""Phases, as ``boardenvs.games.gravwell.state``."""
TERMINAL = -1
ROUNDS = TURNS = 6
SINGULARITY, WARP_GATE, FAR = 0, 54, 100
"""Tiles and the distance sentinel of ``movement``."""
SHIP_BITS, SHIP_MASK = 3, 7
NEED_NUMBERS, FINISHED = 1, 0
"""Statuses of :func:`run`."""


# -- small helpers ---------------------------------------------------------------------------------------------------
@njit(cache=True, nogil=True)
def bit_count(bits: int) -> int:
    """How many bits of ``bits`` are set."""
    count = 0
    while bits:
        bits &= bits - 1
        count += 1
    return count


@njit(cache=True, nogil=True)
def nth_bit(bits: int, pick: int) -> int:
    """The index of the ``pick``-th set bit of ``bits``, lowest first (the ``pick``-th of the sorted legal ids)."""
    index = 0
    while True:
        if bits >> index & 1:
            if pick == 0:
                return index
            pick -= 1
        index += 1


@njit(cache=True, nogil=True)
def record(events: Array, counters: Array, kind: int, player: int, card: int, detail: int, tile: int) -> None:
    """Append the event ``(kind, player, card, detail, tile)`` to those of the current action."""
    k = counters[EVENT_COUNT]
    events[k, 0], events[k, 1], events[k, 2], events[k, 3], events[k, 4] = kind, player, card, detail, tile
    counters[EVENT_COUNT] = k + 1


@njit(cache=True, nogil=True)
def sort_keys(keys: Array, count: int) -> None:
    """Sort ``keys[:count]`` in place, ascending (insertion sort: at most 6 keys)."""
    for i in range(1, count):
        key = keys[i]
        j = i - 1
        while j >= 0 and keys[j] > key:
            keys[j + 1] = keys[j]
            j -= 1
        keys[j + 1] = key


# -- movement (``movement.heading``, ``slide``, ``resolve``, ``_pull``) ----------------------------------------------
@njit(cache=True, nogil=True)
def heading(pos: Array, ship: int) -> int:
    """+1 if ``ship``'s nearest ship is ahead, -1 if behind, 0 if it is stuck (``movement.heading``)."""
    here = pos[ship]
    above, below = WARP_GATE + 1, 0
    num_ahead = num_behind = same = 0
    for other in range(pos.shape[0]):
        tile = pos[other]
        if tile > here:
            num_ahead += 1
            if tile < above:
                above = tile
        elif tile < here:
            if tile:
                num_behind += 1
                if tile > below:
                    below = tile
        elif tile:
            same += 1
    ahead = above - here if num_ahead else FAR
    if same > 1:
        num_behind += same - 1
        behind = 0
    else:
        behind = here - below if num_behind else FAR
    if ahead != behind:
        return 1 if ahead < behind else -1
    if num_ahead != num_behind:
        return 1 if num_ahead > num_behind else -1
    return 0


@njit(cache=True, nogil=True)
def occupied(pos: Array, tile: int) -> bool:
    """Whether a ship stands on ``tile``."""
    for ship in range(pos.shape[0]):  # noqa: SIM110 (a loop, not any() over a generator: Numba)
        if pos[ship] == tile:
            return True
    return False


@njit(cache=True, nogil=True)
def slide(pos: Array, ship: int, delta: int) -> int:
    """Move ``ship`` by ``delta`` tiles, clamped to the board, then on past occupied tiles (``movement.slide``)."""
    tile = pos[ship] + delta
    if tile >= WARP_GATE:
        tile = WARP_GATE
    elif tile <= SINGULARITY:
        tile = SINGULARITY
    else:
        step = 1 if delta > 0 else -1
        while SINGULARITY < tile < WARP_GATE and occupied(pos, tile):
            tile += step
    pos[ship] = tile
    return tile


@njit(cache=True, nogil=True)
def pull(pos: Array, owner: int, card: int, value: int, n: int, events: Array, counters: Array) -> int:
    """The tractor ``card`` of ``owner`` pulls every other ship ``value`` tiles towards it, nearest first (ties: the
    ship behind first); returns the player whose ship escaped, or -1 (``movement._pull``)."""
    here = pos[owner]
    keys = np.empty(pos.shape[0], dtype=np.int64)
    count = 0
    for ship in range(pos.shape[0]):
        tile = pos[ship]
        if ship != owner and tile != here:
            rank = (tile - here) * 2 + 1 if tile > here else (here - tile) * 2
            keys[count] = rank << SHIP_BITS | ship
            count += 1
    sort_keys(keys, count)
    for k in range(count):
        ship = keys[k] & SHIP_MASK
        tile = slide(pos, ship, value if here > pos[ship] else -value)
        record(events, counters, MOVED, owner, card, ship, tile)
        if tile == WARP_GATE and ship < n:
            return ship
    return -1


@njit(cache=True, nogil=True)
def resolve(rules: Array, cards: Array, pos: Array, owner: int, card: int, direction: int, events: Array,
            counters: Array) -> int:  # fmt: skip
    """Apply ``card`` of ``owner`` moving ``direction`` (a tractor ignores it); returns the player who escaped, or -1
    (``movement.resolve``)."""
    signed = cards[SIGNED, card]
    if signed:
        if not direction:
            return -1
        tile = slide(pos, owner, direction * signed)
        record(events, counters, MOVED, owner, card, owner, tile)
        return owner if tile == WARP_GATE else -1
    if rules[INERT_TRACTORS]:
        return -1
    return pull(pos, owner, card, cards[VALUE, card], rules[PLAYERS], events, counters)


# -- rounds and turns (``transitions._start_round``, ``_end_turn``) --------------------------------------------------
@njit(cache=True, nogil=True)
def draft_order(pos: Array, ties: Array, seats: Array, n: int, round_: int) -> None:
    """``seats[ORDER]``: ships in the Singularity in the round's tie order, then the others furthest first."""
    k = 0
    for i in range(n):
        if pos[ties[round_, i]] == 0:
            seats[ORDER, k] = ties[round_, i]
            k += 1
    keys = np.empty(n, dtype=np.int64)
    count = 0
    for player in range(n):
        if pos[player] > 0:
            keys[count] = pos[player] << SHIP_BITS | player
            count += 1
    sort_keys(keys, count)
    for i in range(count):
        seats[ORDER, k + i] = keys[i] & SHIP_MASK


@njit(cache=True, nogil=True)
def start_round(rules: Array, arrays: tuple) -> None:
    """Deal the round's stacks, empty the hands, renew the stops (unless Hardcore) and set the draft order."""
    pos, seats, stacks, _, decks, ties, counters, events = arrays
    n, round_ = rules[PLAYERS], counters[ROUND]
    for stack in range(stacks.shape[0]):
        stacks[stack, 0], stacks[stack, 1] = decks[round_, 2 * stack], decks[round_, 2 * stack + 1]
    counters[FREE] = (1 << stacks.shape[0]) - 1
    for player in range(n):
        seats[HANDS, player] = seats[KNOWN, player] = 0
        if not rules[HARDCORE]:
            seats[STOPS, player] = 1
    counters[SPENT] = 0
    draft_order(pos, ties, seats, n, round_)
    counters[PICKS], counters[PHASE], counters[TURN] = 0, DRAFT, 0
    counters[PLAYER] = seats[ORDER, 0]
    record(events, counters, NEW_ROUND, -1, -1, round_, -1)


@njit(cache=True, nogil=True)
def end_turn(rules: Array, arrays: tuple) -> None:
    """After the turn's cards: the next turn's commits, the next round, or the end of the game."""
    _, _, _, _, _, _, counters, _ = arrays
    turn = counters[TURN] + 1
    if turn < TURNS:
        counters[TURN], counters[PHASE], counters[PLAYER] = turn, COMMIT, 0
    elif counters[ROUND] + 1 == ROUNDS:
        counters[TURN], counters[PLAYER] = TURNS - 1, TERMINAL
    else:
        counters[ROUND] += 1
        start_round(rules, arrays)


# -- resolution (``transitions._resolve_queue``) ---------------------------------------------------------------------
@njit(cache=True, nogil=True)
def resolve_queue(rules: Array, cards: Array, arrays: tuple, start: int, declined: int) -> None:
    """Resolve ``queue[start:end]`` until a card waits for its owner's Emergency Stop decision, a ship escapes or the
    turn ends. ``declined``: 0, or the way the card at ``start`` moves after its owner declined the stop."""
    pos, seats, _, queue, _, _, counters, events = arrays
    index = start
    while index < counters[QUEUE_END]:
        card, owner = queue[index, 0], queue[index, 1]
        if declined:
            direction, declined = declined, 0
        else:
            signed = cards[SIGNED, card]
            direction = heading(pos, owner) if signed else 0
            if signed and not direction:
                record(events, counters, STUCK, owner, card, -1, pos[owner])
                index += 1
                continue
            if seats[STOPS, owner]:
                counters[PHASE], counters[PLAYER], counters[QUEUE_HEAD] = STOP, owner, index
                counters[DIRECTION] = direction
                return
        winner = resolve(rules, cards, pos, owner, card, direction, events, counters)
        if winner >= 0:
            counters[WINNER], counters[PLAYER] = winner, TERMINAL
            counters[QUEUE_HEAD] = counters[QUEUE_END] = counters[DIRECTION] = 0
            record(events, counters, ESCAPED, winner, card, -1, WARP_GATE)
            return
        index += 1
    counters[QUEUE_HEAD] = counters[QUEUE_END] = counters[DIRECTION] = 0
    end_turn(rules, arrays)


# -- the moves (``transitions.draft``, ``commit``, ``reveal``, ``stop_decision``) -----------------------------------
@njit(cache=True, nogil=True)
def draft(rules: Array, seats: Array, stacks: Array, counters: Array, events: Array, player: int, stack: int) -> None:
    """``player`` takes ``stack``; after the last pick the commits start with seat 0."""
    up, down = stacks[stack, 0], stacks[stack, 1]
    seats[HANDS, player] |= 1 << up | 1 << down
    seats[KNOWN, player] |= 1 << up | (1 << down if rules[NO_SECRETS] else 0)
    counters[FREE] &= ~(1 << stack)
    counters[PICKS] += 1
    if counters[PICKS] == stacks.shape[0]:
        counters[PHASE], counters[PLAYER] = COMMIT, 0
    else:
        counters[PLAYER] = seats[ORDER, counters[PICKS] % rules[PLAYERS]]
    record(events, counters, DRAFTED, player, up, stack, -1)


@njit(cache=True, nogil=True)
def queue_revealed_cards(seats: Array, queue: Array, counters: Array, n: int) -> None:
    """``queue[:n]`` = the revealed ``(card, owner)`` pairs in resolution (card) order."""
    keys = np.empty(n, dtype=np.int64)
    for owner in range(n):
        keys[owner] = seats[REVEALED, owner] << SHIP_BITS | owner
    sort_keys(keys, n)
    for k in range(n):
        queue[k, 0], queue[k, 1] = keys[k] >> SHIP_BITS, keys[k] & SHIP_MASK
    counters[QUEUE_HEAD], counters[QUEUE_END] = 0, n


@njit(cache=True, nogil=True)
def reveal(rules: Array, cards: Array, arrays: tuple, card: int) -> None:
    """The last seat commits ``card``: every committed card is revealed, leaves its hand and resolves in card order."""
    _, seats, _, queue, _, _, counters, events = arrays
    n = rules[PLAYERS]
    seats[COMMITS, n - 1] = card
    record(events, counters, COMMITTED, n - 1, -1, -1, -1)
    for owner in range(n):
        played = seats[COMMITS, owner]
        seats[HANDS, owner] &= ~(1 << played)
        counters[SPENT] |= 1 << played
        record(events, counters, REVEALED_CARD, owner, played, -1, -1)
        seats[REVEALED, owner] = played
        seats[COMMITS, owner] = -1
    queue_revealed_cards(seats, queue, counters, n)
    resolve_queue(rules, cards, arrays, 0, 0)


@njit(cache=True, nogil=True)
def stop_decision(rules: Array, cards: Array, arrays: tuple, use: bool) -> None:
    """The owner of the next card uses its Emergency Stop (the card is cancelled) or not; the queue resolves on."""
    _, seats, _, queue, _, _, counters, events = arrays
    head = counters[QUEUE_HEAD]
    if use:
        card, owner = queue[head, 0], queue[head, 1]
        seats[STOPS, owner] = 0
        record(events, counters, STOPPED, owner, card, -1, -1)
        resolve_queue(rules, cards, arrays, head + 1, 0)
    else:
        declined = counters[DIRECTION] if counters[DIRECTION] else 2
        resolve_queue(rules, cards, arrays, head, declined)


# -- the playout -----------------------------------------------------------------------------------------------------
@njit(cache=True, nogil=True)
def legal_count(seats: Array, counters: Array) -> int:
    """How many actions the player to move has (the length of ``Gravwell.legal_actions``)."""
    phase = counters[PHASE]
    if phase == COMMIT:
        return bit_count(seats[HANDS, counters[PLAYER]])
    if phase == DRAFT:
        return bit_count(counters[FREE])
    return 2  # "stop" then "go"


@njit(cache=True, nogil=True)
def play(rules: Array, cards: Array, arrays: tuple, pick: int) -> None:
    """Play the ``pick``-th legal action (ascending ids) for the player to move, then the move cap of ``Game.apply``."""
    _, seats, stacks, _, _, _, counters, events = arrays
    player, phase = counters[PLAYER], counters[PHASE]
    counters[EVENT_COUNT] = 0
    counters[PLY] += 1
    if phase == COMMIT:
        card = nth_bit(seats[HANDS, player], pick)
        if player + 1 < rules[PLAYERS]:
            seats[COMMITS, player] = card
            counters[PLAYER] = player + 1
            record(events, counters, COMMITTED, player, -1, -1, -1)
        else:
            reveal(rules, cards, arrays, card)
    elif phase == DRAFT:
        draft(rules, seats, stacks, counters, events, player, nth_bit(counters[FREE], pick))
    else:
        stop_decision(rules, cards, arrays, pick == 0)
    if counters[PLY] >= rules[MOVE_CAP] and counters[PLAYER] != TERMINAL:
        counters[PLAYER], counters[TRUNCATED] = TERMINAL, 1


@njit(cache=True, nogil=True)
def run(rules: Array, cards: Array, arrays: tuple, values: Array, index: int) -> tuple[int, int]:
    """Uniformly random legal moves until the game ends or ``counters[PLIES_LEFT]`` plies were played (negative: no
    limit), each the ``int(u * count)``-th legal id for ``u = values[index]``; ``(status, index)``, the status
    :data:`NEED_NUMBERS` when ``values`` ran out before a draw."""
    _, seats, _, _, _, _, counters, _ = arrays
    end = values.shape[0]
    while counters[PLIES_LEFT] != 0 and counters[PLAYER] != TERMINAL:
        if index == end:
            return NEED_NUMBERS, index
        pick = int(values[index] * legal_count(seats, counters))
        index += 1
        play(rules, cards, arrays, pick)
        counters[PLIES_LEFT] -= 1
    return FINISHED, index
