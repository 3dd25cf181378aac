"""The observation vector of one seat (``observation_kind="vector"``), "me" first (see ``Gravwell``).

``observe`` is on the hot path of every learner step (a few microseconds against the engine's ~3 per move),
so it never writes entries one by one. Every value an entry, or a run of entries, can take is turned into
``float32`` bytes once (:class:`_Pieces`), and each observer seat of each config gets its own small function
(:func:`_observer`) whose body is one ``bytearray.join`` of those pieces with the seat rotation written out as
constant indices: ``tile[pos[2]], tile[pos[0]], ...``. Constant indices are what makes it fast: looping over
a rotated seat list, or mapping a table over it, costs about three times as much in CPython. The functions are
generated from the field templates in :func:`_observer_source` (as ``dataclasses`` generates ``__init__``);
``tests/gravwell/test_observation_reference.py`` checks them against the plain per-entry reference.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from itertools import product
from operator import getitem
from typing import Any, NamedTuple

import numpy as np

from boardenvs.core import ObservationField
from boardenvs.games.gravwell.cards import NUM_CARDS
from boardenvs.games.gravwell.state import COMMIT, GravwellState
from boardenvs.games.gravwell.tables import ROUNDS, TURNS

BOARD_END = 54.0
_LOW_BITS = 13
"""A hand bitmask becomes entries in two halves of 13 cards (a table of 2**13 rows serves both)."""
_LOW_MASK = (1 << _LOW_BITS) - 1
_STACK_CARDS = range(-NUM_CARDS, NUM_CARDS)
"""The card values a stack table accepts: 0..25, and -1 for a face-down card that ``determinize`` or a test
blanked (all that indexing a 26-entry table accepted)."""


def field_sizes(n: int) -> list[tuple[str, int, str]]:
    """``(name, size, description)`` of every observation field for ``n`` players."""
    c = NUM_CARDS
    return [
        ("ships", n, "tile / 54 of each player's ship, me first, then the next seats"),
        ("hulks", 2, "tile / 54 of the hulks (36, then 26; 0 when absent)"),
        ("my_hand", c, "1 for each card in my hand (card index = resolution order)"),
        ("known_cards", (n - 1) * c, "per other seat, the cards everybody knows it holds (drafted face up)"),
        ("hand_sizes", n, "cards in hand / 6, per seat"),
        ("stacks", 3 * n * 2, "per stack: (face-up card + 1) / 26, (face-down card + 1) / 26 if shown; 0 taken"),
        ("emergency_stop", n, "1 if that seat's Emergency Stop is available"),
        ("committed", n, "1 if that seat already committed a card this turn (never which card)"),
        ("revealed", n * c, "per seat, the card it played in the latest reveal"),
        ("pending", c, "cards revealed this turn and not yet resolved"),
        ("round", ROUNDS, "one-hot round"),
        ("turn", TURNS, "one-hot turn within the round"),
        ("phase", 3, "one-hot phase: draft, commit, emergency stop"),
        ("to_move", n, "one-hot seat to move (all zero when the game is over)"),
    ]


def observation_fields(n: int) -> tuple[ObservationField, ...]:
    """The field layout for ``n`` players; all values lie in [0, 1]."""
    fields, start = [], 0
    for name, size, description in field_sizes(n):
        fields.append(ObservationField(name, start, start + size, 0.0, 1.0, description))
        start += size
    return tuple(fields)


def _floats(values: Any) -> bytes:
    """The ``float32`` bytes of ``values`` (a number or an array, flattened)."""
    return np.asarray(values, dtype=np.float32).tobytes()


_ZERO, _ONE = _floats(0.0), _floats(1.0)


class _Pieces(NamedTuple):
    """``float32`` bytes of every value an entry, or a run of entries, can take (the same for every config)."""

    tile: tuple[bytes, ...]
    """Per tile 0..54: tile / 54."""
    bits: tuple[bytes, ...]
    """Per 13-bit half of a card bitmask: 13 entries, 1 where the bit is set."""
    hand_size: tuple[bytes, ...]
    """Per card count: count / 6."""
    revealed: tuple[bytes, ...]
    """Per card 0..25, then one more for -1 (no card): 26 entries, one-hot at the card (all 0 for none)."""
    hidden_stack: dict[tuple[int, int], bytes]
    """Per ``(face_up, face_down)`` stack on the table: (face-up + 1) / 26, then 0 (the card face down)."""
    open_stack: dict[tuple[int, int], bytes]
    """Per ``(face_up, face_down)`` stack on the table with No Secrets: both cards' (card + 1) / 26."""
    taken_stack: dict[tuple[int, int], bytes]
    """Per ``(face_up, face_down)``: the two zeros of a taken stack."""
    clock: tuple[tuple[tuple[bytes, ...], ...], ...]
    """Per ``[round][turn][phase]``: the one-hot ``round``, ``turn`` and ``phase`` fields together."""


@functools.cache
def _pieces() -> _Pieces:
    """The :class:`_Pieces` (built on first use: the 13-bit table takes a few milliseconds)."""
    card = [_floats((up + 1) / NUM_CARDS) for up in range(NUM_CARDS)]
    pairs = list(product(_STACK_CARDS, _STACK_CARDS))
    halves = (np.arange(1 << _LOW_BITS)[:, None] >> np.arange(_LOW_BITS)) & 1
    round_, turn, phase = np.eye(ROUNDS), np.eye(TURNS), np.eye(3)
    clock = tuple(
        tuple(tuple(_floats(np.concatenate([round_[r], turn[t], phase[p]])) for p in range(3)) for t in range(TURNS))
        for r in range(ROUNDS)
    )
    return _Pieces(
        tile=tuple(_floats(tile / BOARD_END) for tile in range(int(BOARD_END) + 1)),
        bits=tuple(_floats(row) for row in halves),
        hand_size=tuple(_floats(count / 6.0) for count in range(NUM_CARDS + 1)),
        revealed=tuple(_floats(row) for row in np.eye(NUM_CARDS + 1, NUM_CARDS)[[*range(NUM_CARDS), NUM_CARDS]]),
        hidden_stack={(up, down): card[up] + _ZERO for up, down in pairs},
        open_stack={(up, down): card[up] + card[down] for up, down in pairs},
        taken_stack=dict.fromkeys(pairs, _ZERO * 2),
        clock=clock,
    )


class _StackTables(dict):  # type: ignore[type-arg]
    """Per ``free`` bitmask: per stack, the table that turns its ``(face_up, face_down)`` into its two entries
    (the stack's own table if it is on the table, zeros if taken). Filled on first use of each bitmask."""

    def __init__(self, num_stacks: int, shown: dict[tuple[int, int], bytes], taken: dict[tuple[int, int], bytes]):
        super().__init__()
        self.num_stacks, self.shown, self.taken = num_stacks, shown, taken

    def __missing__(self, free: int) -> tuple[dict[tuple[int, int], bytes], ...]:
        tables = tuple(self.shown if free >> index & 1 else self.taken for index in range(self.num_stacks))
        self[free] = tables
        return tables


def _pending_cards(queue: Iterable[tuple[int, int]]) -> bytes:
    """The ``pending`` field: 1 for each card of ``queue`` (``(card, owner)`` pairs)."""
    pending = 0
    for card, _owner in queue:
        pending |= 1 << card
    bits = _pieces().bits
    return bits[pending & _LOW_MASK] + bits[pending >> _LOW_BITS]


def _observer_source(n: int, player: int) -> str:
    """The source of ``observe(state)`` for seat ``player`` (``0 <= player < n``) of an ``n``-player game: the
    pieces of every field of ``field_sizes`` in order, one line per field, seat indices written out."""
    seats = [(player + k) % n for k in range(n)]
    ships = [*seats, *range(n, n + (1 if n == 2 else 2))]  # then the hulks: 36 (and 26 with 3+ players)

    def halves(mask: str) -> list[str]:
        return [f"bits[({mask}) & {_LOW_MASK}]", f"bits[({mask}) >> {_LOW_BITS}]"]

    def joined(pieces: list[str]) -> str:
        return ", ".join(pieces)

    fields = [
        ("ships, hulks", [f"tile[pos[{ship}]]" for ship in ships] + ["ZERO"] * (2 + n - len(ships))),
        ("my_hand", halves(f"hands[{player}]")),
        ("known_cards", [piece for seat in seats[1:] for piece in halves(f"known[{seat}] & hands[{seat}]")]),
        ("hand_sizes", [f"hand_size[hands[{seat}].bit_count()]" for seat in seats]),
        ("stacks", ["*(map(getitem, stack_tables[free], state.stacks) if free else no_stacks)"]),
        ("emergency_stop", [f"ONE if stops[{seat}] else ZERO" for seat in seats]),
        ("committed", [f"*(({joined([f'ONE if commits[{seat}] >= 0 else ZERO' for seat in seats])},)"
                       " if state.phase == COMMIT else not_committing)"]),
        ("revealed", [f"revealed[latest[{seat}]]" for seat in seats]),
        ("pending", ["pending_cards(queue) if queue else no_cards"]),
        ("round, turn, phase", [f"clock[min(state.round, {ROUNDS - 1})][state.turn][state.phase]"]),
        ("to_move", ["to_move[state.current_player]"]),
    ]  # fmt: skip
    return "\n".join([
        "def observe(state):",
        "    pos, hands, known, stops = state.pos, state.hands, state.known, state.stops",
        "    commits, latest, free, queue = state.commits, state.revealed, state.free, state.queue",
        "    return frombuffer(join((",
        *(f"        {joined(pieces)},  # {name}" for name, pieces in fields),
        "    )), float32)",
    ])  # fmt: skip


@functools.cache
def _stack_tables(n: int, open_: bool) -> _StackTables:
    """The :class:`_StackTables` of ``n`` players (``3n`` stacks), face-down cards shown if ``open_``."""
    pieces = _pieces()
    return _StackTables(3 * n, pieces.open_stack if open_ else pieces.hidden_stack, pieces.taken_stack)


@functools.cache
def _observer(n: int, player: int, open_: bool) -> Callable[[GravwellState], np.ndarray]:
    """``observe(state)`` of seat ``player`` (``0 <= player < n``) with ``n`` players, face-down stack cards
    shown if ``open_``: compiled from :func:`_observer_source` over the tables it names."""
    seats = [(player + k) % n for k in range(n)]
    namespace = {
        **_pieces()._asdict(),
        "ZERO": _ZERO,
        "ONE": _ONE,
        "COMMIT": COMMIT,
        "getitem": getitem,
        "join": bytearray().join,  # straight into a bytearray: one copy less than bytearray(b"".join(...))
        "frombuffer": np.frombuffer,
        "float32": np.dtype(np.float32),
        "pending_cards": _pending_cards,
        "stack_tables": _stack_tables(n, open_),
        "no_stacks": (_ZERO * (6 * n),),
        "not_committing": (_ZERO * n,),
        "no_cards": _ZERO * NUM_CARDS,
        # per seat to move, then -1 (the game is over): the one-hot ``to_move`` field
        "to_move": (*(_floats(np.eye(n)[seats.index(mover)]) for mover in range(n)), _ZERO * n),
    }
    source = _observer_source(n, player)
    exec(compile(source, f"<gravwell observer n={n} player={player}>", "exec"), namespace)
    observe_: Callable[[GravwellState], np.ndarray] = namespace["observe"]
    observe_.__doc__ = f"The observation of seat {player} of {n}; generated source:\n\n{source}"
    return observe_


def observe(state: GravwellState, player: int, n: int, open_: bool) -> np.ndarray:
    """The observation of ``player``, its pieces joined in the order of ``field_sizes``; ``open_`` shows
    face-down stack cards (No Secrets). A fresh, writable ``float32`` array."""
    return _observer(n, player % n, open_)(state)
