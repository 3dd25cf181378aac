"""The Splendor observation: one ``float32`` vector of raw counts, seen from the observer's seat.

:func:`observe` runs on every step a learner takes, so it fills one preallocated vector through index tables
built once per config (:class:`ObservationPlan`): a few ``take`` calls gather the players' rows in seat order
and the 14 feature columns of every card shown, instead of building and concatenating a part per field.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from boardenvs.core import ObservationField
from boardenvs.games.splendor.cards import NUM_LEVELS, CardTable
from boardenvs.games.splendor.config import SplendorConfig
from boardenvs.games.splendor.legality import paying_card
from boardenvs.games.splendor.state import NO_PLAN, PAY, PLAYER_COLUMNS, SplendorState
from boardenvs.games.splendor.tables import tables_for

CARD_FEATURES = 14
"""Per card: present, face_down, level, points, bonus one-hot (5), cost (5)."""
NOBLE_FEATURES = 6
"""Per noble slot: present, requirement per colour (5)."""


@lru_cache(maxsize=8)
def card_features(cards: CardTable) -> tuple[np.ndarray, np.ndarray]:
    """``float32[N + 1, 14]`` features per card id (row -1: empty slot) and ``float32[4, 14]`` per hidden level."""
    n = cards.num_cards
    features = np.zeros((n + 1, CARD_FEATURES), dtype=np.float32)
    features[:n, 0] = 1
    features[:n, 2] = cards.level[:n]
    features[:n, 3] = cards.points[:n]
    features[np.arange(n), 4 + cards.bonus[:n]] = 1
    features[:n, 9:14] = cards.cost[:n]
    hidden = np.zeros((NUM_LEVELS + 1, CARD_FEATURES), dtype=np.float32)
    hidden[1:, :2] = 1
    hidden[1:, 2] = np.arange(1, NUM_LEVELS + 1)
    return features, hidden


def _layout(config: SplendorConfig) -> list[tuple[str, int, float, str]]:
    cards = tables_for(config).cards
    n, slots, r = config.num_players, NUM_LEVELS * config.face_up, config.max_reserved
    stack = float(max(config.tokens_per_colour, config.gold))
    most_points = float(cards.points.sum() + cards.noble_points[:-1].sum())
    deck = float(max(len(ids) for ids in cards.by_level))
    card_high = float(max(7, int(cards.cost[:-1].max())))
    noble_high = float(max(1, int(cards.noble_req[:-1].max()) if cards.num_nobles else 1))
    return [
        ("supply", 6, stack, "tokens on the table: white, blue, green, red, black, gold"),
        ("tokens", 6 * n, stack, "each player's 6 token counts, observer first, then in turn order"),
        ("bonuses", 5 * n, float(cards.num_cards), "each player's card bonuses per colour"),
        ("points", n, most_points, "each player's prestige points"),
        ("cards_bought", n, float(cards.num_cards), "each player's purchased cards (the tie-break)"),
        ("nobles_taken", n, float(cards.num_nobles), "each player's nobles"),
        ("reserved_count", n, float(r), "each player's reserved cards"),
        ("face_up", slots * CARD_FEATURES, card_high, "face-up cards level by level: 14 features each"),
        ("nobles", config.nobles * NOBLE_FEATURES, noble_high, "per noble slot: present, requirement per colour"),
        ("my_reserved", r * CARD_FEATURES, card_high, "my reserved cards (all visible to me)"),
        ("others_reserved", (n - 1) * r * CARD_FEATURES, card_high,
         "other players' reserves; face-down ones show only present, face_down and level"),
        ("deck_counts", NUM_LEVELS, deck, "cards left in each level's deck"),
        ("phase", 4, 1.0, "one-hot: main action, returning tokens, choosing a noble, paying with gold"),
        ("paying", CARD_FEATURES, card_high, "phase pay: the card being bought (14 features)"),
        ("gold_plan", 5, stack, "phase pay: gold chosen so far per colour"),
        ("turn_order", n, 1.0, "one-hot: my position after the start player (0 = I started)"),
        ("end_triggered", 1, 1.0, "someone reached the points to end; the round finishes"),
    ]  # fmt: skip


@lru_cache(maxsize=64)
def observation_fields(config: SplendorConfig) -> tuple[ObservationField, ...]:
    """The named slices of the observation (fields of size 0 are left out)."""
    fields, start = [], 0
    for name, size, high, description in _layout(config):
        if size:
            fields.append(ObservationField(name, start, start + size, 0.0, high, description))
            start += size
    return tuple(fields)


@dataclass(frozen=True, eq=False)
class ObservationPlan:
    """What :func:`observe` needs of one config, built once: where each field lies and the gather tables.

    Attributes:
        size: length of the observation.
        field: the slice of each field of :func:`_layout` by name (size-0 fields included, as empty slices).
        head: ``supply`` .. ``nobles_taken``, the fields copied from ``supply`` and ``players``.
        player_index: ``intp[n, 14n]`` per observer, the flat positions in ``state.players`` of ``tokens``,
            ``bonuses``, ``points``, ``cards_bought`` and ``nobles_taken`` with players in the observer's order.
        seat_order: ``intp[n, n]`` per observer, the seats from the observer on in turn order.
        card_rows: ``float32[2N + 1, 14]`` rows ``0..N-1`` the features of each card, rows ``N..2N-1`` what
            other players see of each card reserved face down (present, face_down, level), the last row an
            empty slot (id -1).
        face_down_shift: ``int16[n, n, R]`` per observer, ``N`` in the other players' rows of ``state.reserved``
            and 0 in the observer's: adding it where a reserve is face down points at the row others see.
        noble_rows: ``float32[K + 1, 6]`` per noble id: present, requirement; the last row an empty slot.
        deck_sizes: ``int16[3]`` cards per level deck.
        none_face_down: ``state.hidden.tobytes()`` when no reserve is face down (then nothing is shifted).
    """

    size: int
    field: dict[str, slice]
    head: slice
    player_index: np.ndarray
    seat_order: np.ndarray
    card_rows: np.ndarray
    face_down_shift: np.ndarray
    noble_rows: np.ndarray
    deck_sizes: np.ndarray
    none_face_down: bytes


def _player_index(n: int) -> np.ndarray:
    """:attr:`ObservationPlan.player_index`: token columns of every player, then bonuses, then the 3 counts."""
    columns = [range(0, 6), range(6, 11), [11], [12], [13]]
    index = np.empty((n, PLAYER_COLUMNS * n), dtype=np.intp)
    for observer in range(n):
        seats = [(observer + i) % n for i in range(n)]
        index[observer] = [seat * PLAYER_COLUMNS + c for group in columns for seat in seats for c in group]
    return index


def _face_down_shift(n: int, reserve: int, num_cards: int) -> np.ndarray:
    """:attr:`ObservationPlan.face_down_shift` (``int32`` if shifted ids could pass ``int16``)."""
    dtype = np.int16 if 2 * num_cards < np.iinfo(np.int16).max else np.int32
    shift = np.full((n, n, reserve), num_cards, dtype=dtype)
    shift[np.arange(n), np.arange(n)] = 0
    return shift


def _read_only(array: np.ndarray) -> np.ndarray:
    """``array``, no longer writeable: the plan's tables are shared by every call."""
    array.flags.writeable = False
    return array


@lru_cache(maxsize=64)
def observation_plan(config: SplendorConfig) -> ObservationPlan:
    """The :class:`ObservationPlan` of ``config``."""
    cards = tables_for(config).cards
    features, hidden = card_features(cards)
    n, num_cards = config.num_players, cards.num_cards
    field, position = {}, 0
    for name, size, _, _ in _layout(config):
        field[name], position = slice(position, position + size), position + size
    nobles = np.zeros((cards.num_nobles + 1, NOBLE_FEATURES), dtype=np.float32)
    nobles[:-1, 0] = 1
    nobles[:-1, 1:] = cards.noble_req[:-1]
    seats = np.arange(n)
    return ObservationPlan(
        size=position,
        field=field,
        head=slice(0, field["reserved_count"].start),
        player_index=_read_only(_player_index(n)),
        seat_order=_read_only((seats[:, None] + seats) % n),
        card_rows=_read_only(np.concatenate([features[:-1], hidden[cards.level[:-1]], features[-1:]])),
        face_down_shift=_read_only(_face_down_shift(n, config.max_reserved, num_cards)),
        noble_rows=_read_only(nobles),
        deck_sizes=_read_only(np.array([len(ids) for ids in cards.by_level], dtype=np.int16)),
        none_face_down=bytes(n * config.max_reserved),
    )


def _reserves_seen(plan: ObservationPlan, state: SplendorState, player: int) -> np.ndarray:
    """``state.reserved`` with the rows in ``player``'s order and the other players' face-down reserves as
    their rows in :attr:`ObservationPlan.card_rows` (card id + ``N``: present, face_down, level only)."""
    reserved = state.reserved
    if state.hidden.tobytes() != plan.none_face_down:
        reserved = reserved + state.hidden.astype(np.int16) * plan.face_down_shift[player]
    return reserved.take(plan.seat_order[player], axis=0)


def observe(config: SplendorConfig, state: SplendorState, player: int) -> np.ndarray:
    """``float32`` vector of :func:`observation_fields` for ``player`` (a fresh array).

    Card and noble ids index :attr:`ObservationPlan.card_rows` / ``noble_rows`` with ``mode="wrap"``: an empty
    slot (-1) reads the last row, and the rows are gathered straight into the output (``mode="raise"`` would
    buffer them; the engine's ids are always in range, ``tests/splendor/test_observation_reference.py``).
    """
    plan = observation_plan(config)
    field, rows = plan.field, plan.card_rows
    out = np.zeros(plan.size, dtype=np.float32)
    out[plan.head] = np.concatenate((state.supply, state.players.take(plan.player_index[player])))
    reserved = _reserves_seen(plan, state, player)
    reserve = config.max_reserved
    out[field["reserved_count"]] = [reserve - row.count(-1) for row in reserved.tolist()]  # ids >= -1
    rows.take(state.face_up.ravel(), 0, out[field["face_up"]].reshape(-1, CARD_FEATURES), "wrap")
    plan.noble_rows.take(state.nobles, 0, out[field["nobles"]].reshape(-1, NOBLE_FEATURES), "wrap")
    mine_and_others = slice(field["my_reserved"].start, field["others_reserved"].stop)
    rows.take(reserved.ravel(), 0, out[mine_and_others].reshape(-1, CARD_FEATURES), "wrap")
    out[field["deck_counts"]] = plan.deck_sizes - state.top
    out[field["phase"].start + state.phase] = 1
    if state.phase == PAY:
        out[field["paying"]] = rows[paying_card(config, state)]
    if state.gold_plan != NO_PLAN:
        out[field["gold_plan"]] = state.gold_plan
    out[field["turn_order"].start + (player - state.first_player) % config.num_players] = 1
    out[field["end_triggered"]] = state.end_triggered
    return out
