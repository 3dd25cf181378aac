"""Text and picture forms of a Quoridor position (pure numpy, no drawing library)."""

from __future__ import annotations

import numpy as np

from boardenvs.core import TERMINAL
from boardenvs.games.quoridor.notation import LETTERS
from boardenvs.games.quoridor.state import NO_WINNER, QuoridorState
from boardenvs.games.quoridor.tables import Tables, bits_of


# -- text ---------------------------------------------------------------------------------------
def status_line(tables: Tables, state: QuoridorState) -> str:
    """``Quoridor 9x9, ply 12, player 1 to move, walls left: 9 10``."""
    if state.winner != NO_WINNER:
        status = f"player {state.winner} won"
    elif state.current_player == TERMINAL:
        status = "draw at the move cap"
    else:
        status = f"player {state.current_player} to move"
    walls = " ".join(str(w) for w in state.walls_left)
    return f"Quoridor {tables.n}x{tables.n}, ply {state.ply}, {status}, walls left: {walls}"


def board_lines(tables: Tables, state: QuoridorState) -> list[str]:
    """The board drawn exactly like OpenSpiel's ``str(state)`` (pawns as player ids ``0``..)."""
    n = tables.n
    width = 4 * n + 3
    grid = [[" "] * width for _ in range(2 * n - 1)]
    for row in range(n):
        grid[2 * row][3 : 4 * n : 4] = ["."] * n
    for player, cell in enumerate(state.pawns):
        row, col = divmod(cell, n)
        grid[2 * row][3 + 4 * col] = str(player)
    for bit in bits_of(state.board.placed):
        _draw_wall(grid, *tables.wall_of_bit(bit))
    header = "   " + "   ".join(LETTERS[:n])
    lines = [header]
    for index, chars in enumerate(grid):
        if index % 2 == 0:
            number = f"{index // 2 + 1:2d}"
            chars[0:3] = list(number + " ")
            chars[-3:] = list(" " + number)
        lines.append("".join(chars))
    lines.append(header)
    return lines


def _draw_wall(grid: list[list[str]], row: int, col: int, horizontal: bool) -> None:
    middle = 5 + 4 * col
    if horizontal:
        grid[2 * row + 1][middle - 3 : middle + 4] = list("---+---")
    else:
        grid[2 * row][middle] = "|"
        grid[2 * row + 1][middle] = "+"
        grid[2 * row + 2][middle] = "|"


def to_text(tables: Tables, state: QuoridorState) -> str:
    """The status line followed by the board."""
    return "\n".join([status_line(tables, state), *board_lines(tables, state)])


# -- picture ------------------------------------------------------------------------------------
SQUARE = 32  # pixels per square, grid lines included
MARGIN = 8
BOARD_COLOUR = (236, 214, 168)
LINE_COLOUR = (150, 120, 80)
WALL_COLOUR = (60, 35, 20)
PLAYER_COLOURS = ((200, 40, 40), (40, 90, 200), (230, 230, 235), (40, 150, 60))


def render_rgb(tables: Tables, state: QuoridorState) -> np.ndarray:
    """``uint8[H, W, 3]``: light board, grid lines, a coloured disc per pawn, walls as dark bars."""
    size = tables.n * SQUARE + 2 * MARGIN
    image = np.empty((size, size, 3), dtype=np.uint8)
    image[:] = BOARD_COLOUR
    _draw_grid(image, tables.n)
    for bit in bits_of(state.board.placed):
        _draw_wall_bar(image, *tables.wall_of_bit(bit))
    for player, cell in enumerate(state.pawns):
        _draw_disc(image, *divmod(cell, tables.n), PLAYER_COLOURS[player], player == state.current_player)
    return image


def _draw_grid(image: np.ndarray, n: int) -> None:
    for k in range(n + 1):
        position = MARGIN + k * SQUARE
        image[position - 1 : position + 1, MARGIN - 1 : MARGIN + n * SQUARE + 1] = LINE_COLOUR
        image[MARGIN - 1 : MARGIN + n * SQUARE + 1, position - 1 : position + 1] = LINE_COLOUR


def _draw_wall_bar(image: np.ndarray, row: int, col: int, horizontal: bool) -> None:
    thickness = 3
    if horizontal:
        y, x = MARGIN + (row + 1) * SQUARE, MARGIN + col * SQUARE
        image[y - thickness : y + thickness, x + 2 : x + 2 * SQUARE - 2] = WALL_COLOUR
    else:
        y, x = MARGIN + row * SQUARE, MARGIN + (col + 1) * SQUARE
        image[y + 2 : y + 2 * SQUARE - 2, x - thickness : x + thickness] = WALL_COLOUR


def _draw_disc(image: np.ndarray, row: int, col: int, colour: tuple[int, int, int], to_move: bool) -> None:
    top, left = MARGIN + row * SQUARE, MARGIN + col * SQUARE
    offsets = np.arange(SQUARE) - (SQUARE - 1) / 2
    distance = np.hypot(offsets[:, None], offsets[None, :])
    patch = image[top : top + SQUARE, left : left + SQUARE]
    radius = SQUARE * 0.36
    patch[distance <= radius] = (20, 20, 20) if to_move else colour
    patch[distance <= radius - (3 if to_move else 0)] = colour
