"""Text forms of a Quoridor position (the picture is ``svg.py``)."""

from __future__ import annotations

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
