"""Text of Node Conquest positions (the picture is ``svg.py``)."""

from __future__ import annotations

from boardenvs.core import TERMINAL
from boardenvs.games.node_conquest.state import NodeConquestState
from boardenvs.games.node_conquest.tables import Board

OWNER_LETTERS = "ABCD"
"""Owner letter of players 0..3 in ``to_text``; neutral nodes show ``.``."""


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
