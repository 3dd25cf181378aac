"""OpenSpiel's Quoridor notation, so move lists compare with OpenSpiel as strings.

Columns are letters from ``a`` (left), rows are numbers from ``1`` (top). A pawn move is its
target square (``e8``). A wall is its anchor square plus ``h`` or ``v``: ``c3h`` lies under the
squares c3 and d3, ``a4v`` lies right of a4 and a5. PASS is ``pass``.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from boardenvs.games.quoridor.tables import Tables

LETTERS = "abcdefghijklmnopqrstuvwxyz"
PASS_TEXT = "pass"
_PATTERN = re.compile(r"([a-z])([0-9]{1,2})([hv]?)")
_EXPECTED = "expected a square like 'e2', a wall like 'c3h' or 'c3v', or 'pass'"


class Move(NamedTuple):
    """A readable move in absolute board coordinates (row 0 is the top row, column 0 the left).

    ``kind`` is ``"pawn"`` (``row, col`` = target square), ``"wall"`` (``row, col`` = anchor,
    ``horizontal`` = orientation) or ``"pass"`` (``row = col = -1``).
    """

    kind: str
    row: int
    col: int
    horizontal: bool = False


def square_name(row: int, col: int) -> str:
    return f"{LETTERS[col]}{row + 1}"


def move_name(tables: Tables, move: int) -> str:
    """Notation of a unified move bit."""
    if move < tables.cells:
        return square_name(*divmod(move, tables.n))
    if move == tables.pass_bit:
        return PASS_TEXT
    row, col, horizontal = tables.wall_of_bit(move - tables.cells)
    return square_name(row, col) + ("h" if horizontal else "v")


def move_of_unified(tables: Tables, move: int) -> Move:
    """The ``Move`` of a unified move bit."""
    if move < tables.cells:
        return Move("pawn", *divmod(move, tables.n))
    if move == tables.pass_bit:
        return Move("pass", -1, -1)
    row, col, horizontal = tables.wall_of_bit(move - tables.cells)
    return Move("wall", row, col, horizontal)


def unified_of_move(tables: Tables, move: Move) -> int:
    """The unified move bit of a ``Move``; ``ValueError`` if it is off the board."""
    kind, row, col, horizontal = move
    if kind == "pass":
        return tables.pass_bit
    if kind not in ("pawn", "wall"):
        raise ValueError(f"move kind must be 'pawn', 'wall' or 'pass', got {kind!r}")
    limit = tables.n if kind == "pawn" else tables.n - 1
    if not (0 <= row < limit and 0 <= col < limit):
        raise ValueError(f"{kind} ({row}, {col}) is off the board: row and col must be in 0..{limit - 1}")
    if kind == "pawn":
        return row * tables.n + col
    return tables.cells + tables.wall_bit(row, col, bool(horizontal))


def parse_move(tables: Tables, text: str) -> Move:
    """Read notation into a ``Move`` (legality is not checked); ``ValueError`` naming the text."""
    cleaned = text.strip().lower()
    if cleaned == PASS_TEXT:
        return Move("pass", -1, -1)
    found = _PATTERN.fullmatch(cleaned)
    if found is None:
        raise ValueError(f"cannot read move {text!r}: {_EXPECTED}")
    letter, number, orientation = found.groups()
    row, col = int(number) - 1, LETTERS.index(letter)
    limit = tables.n if not orientation else tables.n - 1
    if not (0 <= row < limit and 0 <= col < limit):
        last = square_name(limit - 1, limit - 1)
        what = "squares" if not orientation else "wall anchors"
        raise ValueError(f"move {text!r} is off the board: {what} go from a1 to {last} on this board")
    if not orientation:
        return Move("pawn", row, col)
    return Move("wall", row, col, orientation == "h")
