"""Card and noble data of Splendor, loaded from the CSV files shipped in this package (RULES.md §3.4).

Resources are indexed 0..4 = white, blue, green, red, black (the canonical CSV columns); index 5 is gold.
``"official"`` is the canonical 90-card deck. ``"rinascimento_native"`` is the Rinascimento ``assets/default``
deck read the way its engine reads it: a card's bonus is its suit id and its cost columns ``cost0..cost4`` are
the same five resources (RULES.md §3.4, "suit = cost column"), which re-wires bonuses relative to Splendor.
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from functools import cache
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
MAX_COST = 7


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


def _int(row: dict[str, str], column: str, low: int, high: int, where: str) -> int:
    try:
        value = int(row[column])
    except (KeyError, TypeError, ValueError):
        raise ValueError(f"{where}: column {column!r} must hold an integer, got {row.get(column)!r}") from None
    if not low <= value <= high:
        raise ValueError(f"{where}: {column} must be in {low}..{high}, got {value}")
    return value


def _official_row(row: dict[str, str], where: str) -> tuple[int, int, int, list[int]]:
    bonus = row.get("bonus")
    if bonus not in COLOURS:
        raise ValueError(f"{where}: bonus must be one of {list(COLOURS)}, got {bonus!r}")
    costs = [_int(row, f"cost_{colour}", 0, MAX_COST, where) for colour in COLOURS]
    level = _int(row, "tier", 1, NUM_LEVELS, where)
    return level, COLOURS.index(bonus), _int(row, "points", 0, 5, where), costs


def _native_row(row: dict[str, str], where: str) -> tuple[int, int, int, list[int]]:
    deck_file = row.get("deck_file") or ""
    level_text = Path(deck_file).stem
    if level_text not in ("1", "2", "3"):
        raise ValueError(f"{where}: deck_file must end in 1.csv, 2.csv or 3.csv, got {deck_file!r}")
    costs = [_int(row, f"cost{i}", 0, MAX_COST, where) for i in range(5)]
    return int(level_text), _int(row, "suit_id", 0, 4, where), _int(row, "points", 0, 5, where), costs


def parse_cards(path: Path, native: bool = False) -> list[tuple[int, int, int, list[int]]]:
    """``(level, bonus, points, costs)`` per card of a card CSV; ``ValueError`` naming the bad row otherwise."""
    with open(path, newline="") as handle:
        rows = list(csv.DictReader(handle))
    if not rows:
        raise ValueError(f"{path}: no cards")
    parse = _native_row if native else _official_row
    cards = [parse(row, f"{path.name} row {index + 2}") for index, row in enumerate(rows)]
    for level in range(1, NUM_LEVELS + 1):
        if not any(card[0] == level for card in cards):
            raise ValueError(f"{path}: level {level} has no cards")
    return cards


def parse_nobles(path: Path) -> list[tuple[int, list[int]]]:
    """``(points, requirements)`` per noble of a noble CSV; ``ValueError`` naming the bad row otherwise."""
    with open(path, newline="") as handle:
        rows = list(csv.DictReader(handle))
    nobles = []
    for index, row in enumerate(rows):
        where = f"{path.name} row {index + 2}"
        nobles.append((_int(row, "points", 0, 10, where), [_int(row, f"req_{c}", 0, 20, where) for c in COLOURS]))
    return nobles


def build_table(cards: list[tuple[int, int, int, list[int]]], nobles: list[tuple[int, list[int]]]) -> CardTable:
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


@cache
def card_table(deck: str = "official") -> CardTable:
    """The shipped card table of ``deck`` (one of :data:`DECKS`), read once."""
    if deck not in DECK_FILES:
        raise ValueError(f"deck must be one of {list(DECKS)}, got {deck!r}")
    cards = parse_cards(DATA_DIR / DECK_FILES[deck], native=deck == "rinascimento_native")
    return build_table(cards, parse_nobles(DATA_DIR / NOBLE_FILE))
