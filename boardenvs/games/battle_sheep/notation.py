"""Battle Sheep's moves: the :class:`Move` NamedTuple, the codec between moves and action ids, the action text
(``"place c5"``, ``"c5 NE 3"``) and its parser.

With ``cells = n * n`` and ``splits = S - 1`` (``S`` sheep per player), ids ``[0, cells)`` place on cell ``c``;
``cells + (c * 8 + d) * splits + (m - 1)`` sends ``m`` sheep from cell ``c`` in direction ``d``. The codec does not
depend on the state.
"""

from __future__ import annotations

from typing import NamedTuple

from boardenvs.games.battle_sheep.tables import DIRECTION_NAMES, cell_name, parse_cell


class Move(NamedTuple):
    """A decoded action: ``kind`` is "place" (``direction``/``split`` 0) or "move" (``split`` sheep leave
    ``cell`` towards direction index ``direction``, see ``tables.DIRECTION_NAMES``)."""

    kind: str
    cell: int
    direction: int = 0
    split: int = 0


def split_of(cells: int, splits: int, action: int) -> tuple[int, int, int]:
    """``(cell, direction, split)`` of the split action id ``action`` (``>= cells``)."""
    rest, split = divmod(action - cells, splits)
    cell, direction = divmod(rest, 8)
    return cell, direction, split + 1


def decode(cells: int, splits: int, action: int) -> Move:
    """The :class:`Move` of action id ``action``."""
    if action < cells:
        return Move("place", int(action))
    return Move("move", *split_of(cells, splits, int(action)))


def encode(size: int, splits: int, move: Move) -> int:
    """The action id of ``move`` on a ``size x size`` board; ``ValueError`` if no id means that move."""
    cells = size * size
    kind, cell, direction, split = move
    if kind == "place" and 0 <= cell < cells and direction == split == 0:
        return cell
    if kind == "move" and 0 <= cell < cells and 0 <= direction < 8 and 1 <= split <= splits:
        return cells + (cell * 8 + direction) * splits + split - 1
    raise ValueError(f"{move} has no action id: {notation_help(size, splits)}")


def move_text(size: int, move: Move) -> str:
    """The move in the game's notation: ``"place c5"`` or ``"c5 NE 3"``."""
    name = cell_name(size, move.cell)
    if move.kind == "place":
        return f"place {name}"
    return f"{name} {DIRECTION_NAMES[move.direction]} {move.split}"


def parse_move(size: int, splits: int, text: str) -> int:
    """The action id written ``text`` (``"place c5"`` or ``"c5 NE 3"``), legal or not; ``ValueError`` with
    :func:`notation_help` when the text names no action."""
    words = text.split()
    try:
        if len(words) == 2 and words[0] == "place":
            return encode(size, splits, Move("place", parse_cell(size, words[1])))
        cell, direction, split = parse_cell(size, words[0]), DIRECTION_NAMES.index(words[1]), int(words[2])
        return encode(size, splits, Move("move", cell, direction, split))
    except (IndexError, ValueError):
        raise ValueError(f"move {text!r} is not legal here: {notation_help(size, splits)}") from None


def notation_help(size: int, splits: int) -> str:
    """How moves are written, for the error on text that names no action."""
    last = cell_name(size, size * size - 1)
    place = f"write 'place <cell>' (cells a1..{last})"
    if not splits:
        return place
    directions = ", ".join(DIRECTION_NAMES)
    return f"{place} or '<cell> <direction> <sheep>' (directions {directions}; 1..{splits} sheep)"
