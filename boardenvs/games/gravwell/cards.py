"""The 26 Gravwell fuel cards (``cards.csv``, shipped in the package), indexed by resolution order 0..25.

Card ``c`` resolves before card ``c + 1`` (alphabetical order of the element symbol, docs/rules/rules.md §1.4).
"""

from __future__ import annotations

import csv
from pathlib import Path

NORMAL, REPULSOR, TRACTOR = 0, 1, 2
"""Card types."""
TYPE_NAMES: tuple[str, ...] = ("normal", "repulsor", "tractor")


def _load() -> tuple[tuple[str, ...], tuple[int, ...], tuple[int, ...]]:
    with open(Path(__file__).with_name("cards.csv"), newline="") as handle:
        rows = sorted(csv.DictReader(handle), key=lambda row: int(row["resolution_order"]))
    symbols = tuple(row["symbol"] for row in rows)
    types = tuple(TYPE_NAMES.index(row["type"]) for row in rows)
    values = tuple(int(row["value"]) for row in rows)
    return symbols, types, values


SYMBOLS, TYPES, VALUES = _load()
"""Per card: element symbol ("Ar"…"Zr"), type (``NORMAL``/``REPULSOR``/``TRACTOR``) and value 1..10."""
NUM_CARDS: int = len(SYMBOLS)
assert NUM_CARDS == 26 and sum(VALUES) == 131, "cards.csv must hold the 26 Gravwell fuel cards"


def card_name(card: int) -> str:
    """``"Mg(normal 10)"``-style label of card ``card``."""
    return f"{SYMBOLS[card]}({TYPE_NAMES[TYPES[card]]} {VALUES[card]})"


def card_of_symbol(symbol: str) -> int:
    """The card index of an element symbol; ``ValueError`` for an unknown one."""
    try:
        return SYMBOLS.index(symbol)
    except ValueError:
        raise ValueError(f"unknown card symbol {symbol!r}; symbols are {list(SYMBOLS)}") from None


def bits_to_cards(bits: int) -> list[int]:
    """The card indices in a hand bitmask, in resolution order."""
    return [card for card in range(NUM_CARDS) if bits >> card & 1]
