"""Text and pictures of Node Conquest positions."""

from __future__ import annotations

import numpy as np

from boardenvs.core import TERMINAL
from boardenvs.games.node_conquest.board import Board
from boardenvs.games.node_conquest.state import NodeConquestState

OWNER_LETTERS = "ABCD"
"""Owner letter of players 0..3 in ``to_text``; neutral nodes show ``.``."""
COLOURS = np.array([[214, 60, 50], [50, 100, 214], [60, 170, 70], [220, 170, 40]], dtype=np.uint8)
NEUTRAL_COLOUR = np.array([200, 200, 200], dtype=np.uint8)
CELL = 24


def node_token(state: NodeConquestState, node: int) -> str:
    """``"A15"`` (owner letter, units) or ``".0"`` for a neutral node."""
    owner = int(state.owner[node])
    return f"{OWNER_LETTERS[owner] if owner >= 0 else '.'}{int(state.units[node])}"


def header(state: NodeConquestState) -> str:
    """First line of ``to_text``: ply, player to move or the result."""
    if state.current_player != TERMINAL:
        return f"ply {state.ply}, player {state.current_player} to move"
    end = "cap" if state.truncated else "elimination"
    return f"ply {state.ply}, over by {end}, winners {list(state.winners)}"


def to_text(board: Board, state: NodeConquestState) -> str:
    """Canonical text: a header line, then one line per grid row (hex rows shifted) or per graph node."""
    if board.rows == 0:
        lines = [
            f"{board.node_names[n]} {node_token(state, n)} > {' '.join(board.slot_names[n])}"
            for n in range(board.num_nodes)
        ]
        return "\n".join([header(state), *lines])
    width = max(4, max(len(node_token(state, n)) for n in range(board.num_nodes)) + 1)
    hexes = board.max_degree == 6
    columns = "".join(chr(ord("a") + c).rjust(width) for c in range(board.cols))
    lines = [header(state), "   " + columns]
    for row in range(board.rows):
        shift = " " * (width // 2) if hexes and row % 2 else ""
        cells = "".join(node_token(state, row * board.cols + c).rjust(width) for c in range(board.cols))
        lines.append(f"{row + 1:>3}{shift}{cells}".rstrip())
    return "\n".join(lines)


def render_rgb(board: Board, state: NodeConquestState, unit_scale: int) -> np.ndarray:
    """``uint8[H, W, 3]``: one coloured square per node, with a dark bar whose height is units / unit_scale."""
    if board.rows:
        rows, cols, cell_rows, cell_cols = board.rows, board.cols, board.cell_rows, board.cell_cols
    else:
        cols = int(np.ceil(np.sqrt(board.num_nodes)))
        rows = -(-board.num_nodes // cols)
        cell_rows, cell_cols = np.divmod(np.arange(board.num_nodes), cols)
    image = np.full((rows * CELL, cols * CELL + CELL // 2, 3), 255, dtype=np.uint8)
    for node in range(board.num_nodes):
        shift = CELL // 2 if board.max_degree == 6 and board.rows and cell_rows[node] % 2 else 0
        _draw_node(image, int(cell_rows[node]) * CELL, int(cell_cols[node]) * CELL + shift, state, node, unit_scale)
    return image


def _draw_node(image: np.ndarray, top: int, left: int, state: NodeConquestState, node: int, scale: int) -> None:
    owner = int(state.owner[node])
    colour = COLOURS[owner] if owner >= 0 else NEUTRAL_COLOUR
    image[top + 1 : top + CELL - 1, left + 1 : left + CELL - 1] = colour
    height = int(round(min(int(state.units[node]) / scale, 1.0) * (CELL - 4)))
    if height:
        image[top + CELL - 2 - height : top + CELL - 2, left + CELL // 2 - 3 : left + CELL // 2 + 3] = 30
