"""Card and noble data of Splendor, loaded from CSV files (docs/rules/rules.md §3.4).

Resources are indexed 0..4 = white, blue, green, red, black (the canonical CSV columns); index 5 is gold.
``"official"`` is the canonical 90-card deck. ``"rinascimento_native"`` is the Rinascimento ``assets/default``
deck read the way its engine reads it: a card's bonus is its suit id and its cost columns ``cost0..cost4`` are
the same five resources (docs/rules/rules.md §3.4, "suit = cost column"), which re-wires bonuses relative to Splendor.

Custom tables (``SplendorConfig.cards_file`` / ``nobles_file``, for game-design experiments) use one of two
card formats, told apart by the header:

* canonical: ``tier,bonus,points,cost_white,cost_blue,cost_green,cost_red,cost_black`` (``bonus`` a colour
  name, ``tier`` 1..3);
* native: ``suit_id,points,cost0,...,cost4`` plus ``tier`` or Rinascimento's ``deck_file`` (``.../1.csv``).

Nobles: ``points,req_white,req_blue,req_green,req_red,req_black``. Every malformed cell raises a
``ValueError`` naming the file, the row (1 = header) and the column.
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

COLOURS: tuple[str, ...] = ("white", "blue", "green", "red", "black")
"""The five gem colours, in resource-index order."""
LETTERS: tuple[str, ...] = ("W", "U", "G", "R", "K", "Y")
"""One-letter names of the resources (``Y`` = gold) used in the notation."""
GOLD = 5
NUM_LEVELS = 3
DECKS: tuple[str, ...] = ("official", "rinascimento_native")
DATA_DIR = Path(__file__).parent
DECK_FILES = {"official": "splendor_cards.csv", "rinascimento_native": "splendor_cards_rinascimento_native.csv"}
NOBLE_FILE = "splendor_nobles.csv"
MAX_VALUE = 30
"""Largest cost, point value or noble requirement a table may hold."""
CANONICAL_COLUMNS = ("tier", "bonus", "points", *(f"cost_{c}" for c in COLOURS))
NATIVE_COLUMNS = ("suit_id", "points", *(f"cost{i}" for i in range(5)))
NOBLE_COLUMNS = ("points", *(f"req_{c}" for c in COLOURS))


@dataclass(frozen=True, eq=False)
class CardTable:
    """Card and noble arrays; card ``i`` is row ``i``; every array has one sentinel row at index ``-1``.

    Attributes:
        level: ``int16[N + 1]`` levels 1..3 (sentinel 0).
        bonus: ``int16[N + 1]`` bonus resource 0..4 (sentinel 0).
        points: ``int16[N + 1]`` prestige points.
        cost: ``int16[N + 1, 5]`` printed costs (sentinel row: 99, never affordable).
        noble_req: ``int16[K + 1, 5]`` noble requirements in bonuses (sentinel row: 99).
        noble_points: ``int16[K + 1]``.
        by_level: card ids of each level, in file order.
    """

    level: np.ndarray
    bonus: np.ndarray
    points: np.ndarray
    cost: np.ndarray
    noble_req: np.ndarray
    noble_points: np.ndarray
    by_level: tuple[tuple[int, ...], ...]

    @property
    def num_cards(self) -> int:
        return len(self.level) - 1

    @property
    def num_nobles(self) -> int:
        return len(self.noble_points) - 1


Card = tuple[int, int, int, list[int]]
"""``(level, bonus, points, costs)`` of one parsed card row."""


def _cell(row: dict[str, str], column: str, where: str) -> str:
    value = row.get(column)
    if value is None:
        raise ValueError(f"{where}, column {column!r}: missing value")
    return value.strip()


def _int(row: dict[str, str], column: str, low: int, high: int, where: str) -> int:
    text = _cell(row, column, where)
    try:
        value = int(text)
    except ValueError:
        raise ValueError(f"{where}, column {column!r}: must hold an integer, got {text!r}") from None
    if not low <= value <= high:
        raise ValueError(f"{where}, column {column!r}: must be in {low}..{high}, got {value}")
    return value


def _canonical_row(row: dict[str, str], where: str) -> Card:
    bonus = _cell(row, "bonus", where)
    if bonus not in COLOURS:
        raise ValueError(f"{where}, column 'bonus': must be one of {list(COLOURS)}, got {bonus!r}")
    costs = [_int(row, f"cost_{colour}", 0, MAX_VALUE, where) for colour in COLOURS]
    level = _int(row, "tier", 1, NUM_LEVELS, where)
    return level, COLOURS.index(bonus), _int(row, "points", 0, MAX_VALUE, where), costs


def _native_row(row: dict[str, str], where: str) -> Card:
    if "tier" in row:
        level = _int(row, "tier", 1, NUM_LEVELS, where)
    else:
        deck_file = _cell(row, "deck_file", where)
        if Path(deck_file).stem not in ("1", "2", "3"):
            raise ValueError(f"{where}, column 'deck_file': must end in 1.csv, 2.csv or 3.csv, got {deck_file!r}")
        level = int(Path(deck_file).stem)
    costs = [_int(row, f"cost{i}", 0, MAX_VALUE, where) for i in range(5)]
    return level, _int(row, "suit_id", 0, 4, where), _int(row, "points", 0, MAX_VALUE, where), costs


def _read(path: Path, what: str) -> tuple[list[str], list[dict[str, str]]]:
    """The header and rows of a CSV file; ``ValueError`` naming ``what`` if it cannot be read."""
    try:
        with open(path, newline="") as handle:
            reader = csv.DictReader(handle)
            rows = list(reader)
            header = list(reader.fieldnames or [])
    except (OSError, UnicodeDecodeError, csv.Error) as error:
        raise ValueError(f"{what} {str(path)!r} cannot be read: {error}") from None
    return [name.strip() for name in header], [{k.strip(): v for k, v in r.items() if k} for r in rows]


def _require(path: Path, header: list[str], columns: tuple[str, ...]) -> None:
    missing = [column for column in columns if column not in header]
    if missing:
        raise ValueError(f"{path}, row 1 (header): missing column(s) {missing}; found {header}")


def parse_cards(path: Path) -> list[Card]:
    """``(level, bonus, points, costs)`` per card of a card CSV in either format (told apart by the header)."""
    path = Path(path)
    header, rows = _read(path, "cards_file")
    native = "suit_id" in header
    _require(path, header, NATIVE_COLUMNS if native else CANONICAL_COLUMNS)
    if native and "tier" not in header and "deck_file" not in header:
        raise ValueError(f"{path}, row 1 (header): a native card file needs a 'tier' or 'deck_file' column")
    if not rows:
        raise ValueError(f"{path}: no cards")
    parse = _native_row if native else _canonical_row
    cards = [parse(row, f"{path}, row {index + 2}") for index, row in enumerate(rows)]
    for level in range(1, NUM_LEVELS + 1):
        if not any(card[0] == level for card in cards):
            raise ValueError(f"{path}: level {level} has no cards (every level 1..{NUM_LEVELS} needs one)")
    return cards


def parse_nobles(path: Path) -> list[tuple[int, list[int]]]:
    """``(points, requirements)`` per noble of a noble CSV; ``ValueError`` naming file, row and column."""
    path = Path(path)
    header, rows = _read(path, "nobles_file")
    _require(path, header, NOBLE_COLUMNS)
    nobles = []
    for index, row in enumerate(rows):
        where = f"{path}, row {index + 2}"
        requirement = [_int(row, f"req_{c}", 0, MAX_VALUE, where) for c in COLOURS]
        nobles.append((_int(row, "points", 0, MAX_VALUE, where), requirement))
    return nobles


def build_table(cards: list[Card], nobles: list[tuple[int, list[int]]]) -> CardTable:
    """The arrays of :class:`CardTable` from parsed rows."""
    level = np.array([c[0] for c in cards] + [0], dtype=np.int16)
    cost = np.array([c[3] for c in cards] + [[99] * 5], dtype=np.int16)
    noble_req = np.array([n[1] for n in nobles] + [[99] * 5], dtype=np.int16).reshape(-1, 5)
    by_level = tuple(tuple(int(i) for i in np.flatnonzero(level == lv)) for lv in range(1, NUM_LEVELS + 1))
    return CardTable(
        level=level,
        bonus=np.array([c[1] for c in cards] + [0], dtype=np.int16),
        points=np.array([c[2] for c in cards] + [0], dtype=np.int16),
        cost=cost,
        noble_req=noble_req,
        noble_points=np.array([n[0] for n in nobles] + [0], dtype=np.int16),
        by_level=by_level,
    )


@lru_cache(maxsize=32)
def card_table(deck: str = "official", cards_file: str = "", nobles_file: str = "") -> CardTable:
    """The card table of ``deck`` (one of :data:`DECKS`), or of ``cards_file`` / ``nobles_file`` when given."""
    if deck not in DECK_FILES:
        raise ValueError(f"deck must be one of {list(DECKS)}, got {deck!r}")
    cards = parse_cards(Path(cards_file) if cards_file else DATA_DIR / DECK_FILES[deck])
    return build_table(cards, parse_nobles(Path(nobles_file) if nobles_file else DATA_DIR / NOBLE_FILE))
