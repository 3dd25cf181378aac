"""Action layout and precomputed lookup tables of one Splendor config (built once per config).

Token actions are stored as *patterns*: ``take[i]`` tokens from the supply and ``give[i]`` tokens back, per
colour (Rinascimento's ``PickCoins`` pattern, returns being its negative entries). Official rules have
``give == 0`` everywhere (returns are sub-decisions there); Rinascimento's preset enumerates every pattern
its ``PickDifferentCoins`` / ``PickSameCoins`` may accept (docs/rules/rules.md R5, R6), see :func:`rinascimento_takes`.
Nothing here decides legality: which actions a position allows is ``legality.py``'s.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations, combinations_with_replacement, product

import numpy as np

from boardenvs.games.splendor.cards import LETTERS, NUM_LEVELS, CardTable, card_table
from boardenvs.games.splendor.config import SplendorConfig

KINDS = ("take_different", "take_same", "reserve_face_up", "reserve_deck", "buy_face_up", "buy_reserved",
         "return", "noble", "pay_gold", "pay", "pass")  # fmt: skip
"""Action kinds in the order of their id ranges."""
(TAKE_DIFFERENT, TAKE_SAME, RESERVE_FACE_UP, RESERVE_DECK, BUY_FACE_UP, BUY_RESERVED, RETURN, NOBLE_CHOICE,
 PAY_GOLD, PAY, PASS) = range(len(KINDS))  # fmt: skip

Pattern = tuple[tuple[int, ...], tuple[int, ...], bool, str]
"""``(take per colour, give per colour, is take-same, notation)`` of one token action."""

LANE_BITS = 16
"""Bits per card in the affordability integers (:attr:`ActionTables.shortfall`)."""
LOW_BYTE = 0 if sys.byteorder == "little" else 1
"""Offset of the low byte of a native ``int16`` in ``ndarray.tobytes()``: ``tobytes()[LOW_BYTE::2]`` reads the
low byte of every card id, so ids 0..254 read as themselves and an empty slot (-1) as 255."""


@dataclass(frozen=True, eq=False)
class ActionTables:
    """Where each action kind lives and the arrays the mask and the rules read.

    Attributes:
        starts: first action id of each kind in :data:`KINDS` order, plus ``num_actions`` at the end.
        kind: ``int8[num_actions]`` kind index of each action; ``kind_list`` the same as Python ints.
        arg: ``int16[num_actions]`` argument of each action (pattern index, slot, level, colour, ...).
        take, give: ``int16[T, 5]`` tokens taken / returned by each token action (take-different ones first).
        take_total, give_total, take_count: ``int16[T]`` sums and the number of colours taken.
        is_same: ``bool[T]`` take-same patterns; ``same_colour``: ``int16[T]`` their colour (0 otherwise).
        take_names: notation of each token action.
        deltas: ``int16[T, 5]`` net change of the player's tokens (``take - give``); ``delta_items``: its
            non-zero ``(colour, amount)`` pairs per token action (the events to record); ``token_moves``: per token
            action the change of the supply (``int16[6]``) and of the player's ``players`` row (``int16[14]``).
        costs, bonuses, points: per card id, plain-Python copies of the card table (fast scalar reads).
        combos: colour tuples of the official take-different actions (sizes 1..take_different_count).
        cards: the card table of the config.
        deck_sizes: ``int16[3]`` cards per level deck; ``deck_size_list`` the same as Python ints.
        min_noble_total: the smallest total requirement of a noble (fewer bonuses never qualify).
        noble_reqs: per noble id, its requirement in bonuses as a Python tuple (fast scalar reads).
        card_slots: the length of a per-card byte table: one byte per card id and a last one for an empty slot
            (-1), at least 256 so that a table is a ``bytes.translate`` table when ``byte_ids``.
        byte_ids: card ids fit in a byte with 255 left for the empty slot (every shipped deck): the mask reads a
            row of card ids as bytes (``LOW_BYTE``) and maps it through a per-card table with ``bytes.translate``.
        present: per-card byte table: 1 for every id, 0 for the empty slot.
        shortfall: ``shortfall[c][p]``: every card's ``max(cost[c] - p, 0)`` for a player with ``p`` tokens plus
            bonuses of colour ``c``, as one int with card ``i`` in bits ``16i..16i+15`` (:func:`lanes`); ``p`` runs
            up to the colour's largest cost (beyond it nothing is short). Adding one entry per colour adds the
            shortfalls of every card at once (``legality.affordable_bytes``).
        card_lanes: 1 in the lane of every card (:func:`lanes`), 0 in the other lanes.
    """

    starts: tuple[int, ...]
    kind: np.ndarray
    kind_list: tuple[int, ...]
    arg: np.ndarray
    take: np.ndarray
    give: np.ndarray
    take_total: np.ndarray
    give_total: np.ndarray
    take_count: np.ndarray
    is_same: np.ndarray
    same_colour: np.ndarray
    take_names: tuple[str, ...]
    deltas: np.ndarray
    delta_items: tuple[tuple[tuple[int, int], ...], ...]
    token_moves: tuple[tuple[np.ndarray, np.ndarray], ...]
    costs: tuple[tuple[int, ...], ...]
    bonuses: tuple[int, ...]
    points: tuple[int, ...]
    combos: tuple[tuple[int, ...], ...]
    cards: CardTable
    deck_sizes: np.ndarray
    deck_size_list: tuple[int, ...]
    min_noble_total: int
    noble_reqs: tuple[tuple[int, ...], ...]
    card_slots: int
    byte_ids: bool
    present: bytes
    shortfall: tuple[tuple[int, ...], ...]
    card_lanes: int

    @property
    def num_actions(self) -> int:
        return self.starts[-1]

    def span(self, kind: str) -> slice:
        """The id range of ``kind``."""
        index = KINDS.index(kind)
        return slice(self.starts[index], self.starts[index + 1])


def lanes(values: np.ndarray) -> int:
    """An int with ``values[i]`` (0..2**15-1) in bits ``16i..16i+15``: adding two ints adds lane by lane."""
    return int.from_bytes(np.asarray(values, dtype="<u2").tobytes(), "little")


def _shortfall(cards: CardTable, slots: int) -> tuple[tuple[int, ...], ...]:
    """:attr:`ActionTables.shortfall` of ``cards`` in ``slots`` lanes (the sentinel row is not a card)."""
    tables = []
    for colour in range(5):
        cost = np.zeros(slots, dtype=np.int64)
        cost[: cards.num_cards] = cards.cost[:-1, colour]
        tables.append(tuple(lanes(np.maximum(cost - power, 0)) for power in range(int(cost.max()) + 1)))
    return tuple(tables)


def _token_move(delta: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """:attr:`ActionTables.token_moves` of a token action whose net change of the player's tokens is ``delta``."""
    to_supply, to_player = np.zeros(6, dtype=np.int16), np.zeros(14, dtype=np.int16)
    to_supply[:5], to_player[:5] = -delta, delta
    to_supply.flags.writeable = to_player.flags.writeable = False  # shared by every state
    return to_supply, to_player


def _letters(vector: tuple[int, ...]) -> str:
    return "".join(LETTERS[colour] * count for colour, count in enumerate(vector))


def _pattern(take: tuple[int, ...], give: tuple[int, ...], same: bool) -> Pattern:
    """A pattern with its notation: ``take WUG``, ``take 2 R``, ``... return KK``, ``take none``."""
    if same:
        colour = next(c for c, v in enumerate(take) if v)
        name = f"take {take[colour]} {LETTERS[colour]}"
    else:
        name = f"take {_letters(take) or 'none'}"
    if any(give):
        name += f" return {_letters(give)}"
    return take, give, same, name


def _vector(counts: dict[int, int]) -> tuple[int, ...]:
    return tuple(counts.get(colour, 0) for colour in range(5))


def _returns(others: tuple[int, ...], most: int) -> list[tuple[int, ...]]:
    """Every return vector of 0..``most`` tokens over the colours ``others``, fewest first."""
    vectors = []
    for size in range(most + 1):
        for chosen in combinations_with_replacement(others, size):
            vectors.append(_vector({c: chosen.count(c) for c in set(chosen)}))
    return vectors


def official_takes(config: SplendorConfig) -> tuple[list[Pattern], tuple[tuple[int, ...], ...]]:
    """Official token actions: take-different combinations of 1..count colours, then take-same per colour."""
    combos = tuple(c for size in range(1, config.take_different_count + 1) for c in combinations(range(5), size))
    amount = config.take_different_amount
    patterns = [_pattern(_vector(dict.fromkeys(combo, amount)), (0,) * 5, False) for combo in combos]
    patterns += [_pattern(_vector({c: config.take_same_amount}), (0,) * 5, True) for c in range(5)]
    return patterns, combos


def rinascimento_takes(config: SplendorConfig) -> list[Pattern]:
    """Every pattern Rinascimento's pick actions can accept (docs/rules/rules.md R5, R6), returns included.

    Take-different: "take none", then 1..``take_different_count`` colours with 1..``take_different_amount``
    tokens each, each with every return of 0..min(taken, ``max_tokens``) tokens of the colours not taken.
    Take-same: one colour, 1..``take_same_amount`` tokens, with every return of 0..min(taken, cap) tokens
    of the other colours. Which of them is legal depends on the position (``takes.take_mask``).
    """
    cap = config.max_tokens
    patterns = [_pattern((0,) * 5, (0,) * 5, False)]
    for size in range(1, config.take_different_count + 1):
        for colours in combinations(range(5), size):
            others = tuple(c for c in range(5) if c not in colours)
            for amounts in product(range(1, config.take_different_amount + 1), repeat=size):
                take = _vector(dict(zip(colours, amounts)))
                for give in _returns(others, min(sum(amounts), cap)):
                    patterns.append(_pattern(take, give, False))
    for colour in range(5):
        others = tuple(c for c in range(5) if c != colour)
        for amount in range(1, config.take_same_amount + 1):
            for give in _returns(others, min(amount, cap)):
                patterns.append(_pattern(_vector({colour: amount}), give, True))
    return patterns


@lru_cache(maxsize=64)
def tables_for(config: SplendorConfig) -> ActionTables:
    """The :class:`ActionTables` of ``config``."""
    if config.rinascimento:
        patterns, combos = rinascimento_takes(config), ()
    else:
        patterns, combos = official_takes(config)
    different = sum(1 for p in patterns if not p[2])
    slots = NUM_LEVELS * config.face_up
    official = 0 if config.rinascimento else 1
    sizes = (different, len(patterns) - different, slots, NUM_LEVELS, slots, config.max_reserved,
             6 * official, config.nobles * official, 5 * official, official, 1)  # fmt: skip
    starts = tuple(int(x) for x in np.concatenate([[0], np.cumsum(sizes)]))
    take = np.array([p[0] for p in patterns], dtype=np.int16).reshape(-1, 5)
    give = np.array([p[1] for p in patterns], dtype=np.int16).reshape(-1, 5)
    is_same = np.array([p[2] for p in patterns], dtype=bool)
    cards = card_table(config.deck, config.cards_file, config.nobles_file)
    card_slots = max(cards.num_cards + 1, 256)
    kind = np.concatenate([np.full(size, k, dtype=np.int8) for k, size in enumerate(sizes)])
    return ActionTables(
        starts=starts,
        kind=kind,
        kind_list=tuple(kind.tolist()),
        arg=np.concatenate([np.arange(size, dtype=np.int16) for size in sizes]),
        take=take,
        give=give,
        take_total=take.sum(axis=1).astype(np.int16),
        give_total=give.sum(axis=1).astype(np.int16),
        take_count=(take > 0).sum(axis=1).astype(np.int16),
        is_same=is_same,
        same_colour=np.where(is_same, take.argmax(axis=1), 0).astype(np.int16),
        take_names=tuple(p[3] for p in patterns),
        deltas=take - give,
        delta_items=tuple(tuple((c, v) for c, v in enumerate(row) if v) for row in (take - give).tolist()),
        token_moves=tuple(_token_move(delta) for delta in take - give),
        costs=tuple(tuple(row) for row in cards.cost.tolist()),
        bonuses=tuple(cards.bonus.tolist()),
        points=tuple(cards.points.tolist()),
        combos=combos,
        cards=cards,
        deck_sizes=np.array([len(ids) for ids in cards.by_level], dtype=np.int16),
        deck_size_list=tuple(len(ids) for ids in cards.by_level),
        min_noble_total=int(cards.noble_req.sum(axis=1).min()),
        noble_reqs=tuple(tuple(row) for row in cards.noble_req.tolist()),
        card_slots=card_slots,
        byte_ids=card_slots == 256,
        present=b"\x01" * (card_slots - 1) + b"\x00",
        shortfall=_shortfall(cards, card_slots),
        card_lanes=lanes(np.arange(card_slots) < cards.num_cards),
    )
