"""Text and picture forms of a Battle Sheep state."""

from __future__ import annotations

import numpy as np

from boardenvs.games.battle_sheep.state import FREE, NONFIELD, BattleSheepState

PLAYER_LETTERS = "ABCD"
COLOURS = np.array([[214, 69, 65], [52, 120, 200], [240, 190, 40], [60, 170, 90]], dtype=np.uint8)
FIELD_COLOUR, OUTSIDE_COLOUR, GRID_COLOUR = (225, 235, 200), (120, 120, 120), (60, 60, 60)


def cell_text(owner: int, count: int, hidden: bool = False) -> str:
    """Three characters: ``" # "`` outside the field, ``" . "`` free, ``"A16"`` player 0's stack of 16,
    ``"B ?"`` a stack whose size is ``hidden``."""
    if owner == NONFIELD:
        return " # "
    if owner == FREE:
        return " . "
    return f"{PLAYER_LETTERS[owner - 1]} ?" if hidden else f"{PLAYER_LETTERS[owner - 1]}{count:>2}"


def to_text(state: BattleSheepState, size: int, num_players: int, viewer: int | None = None) -> str:
    """Canonical ASCII board: a status line, column letters, then one line per row ``x`` (1-based). With a
    ``viewer`` seat, other players' stack sizes are shown as ``?`` (the ``hidden_counts`` setting)."""
    status = "game over" if state.current_player < 0 else f"to move: {PLAYER_LETTERS[state.current_player]}"
    phase = "placement" if state.placed < num_players and state.current_player >= 0 else "moves"
    lines = [f"ply {state.ply}, {status}, placed {state.placed}, {phase}"]
    lines.append("    " + " ".join(f" {chr(ord('a') + y)} " for y in range(size)))
    for x in range(size):
        row = []
        for y in range(size):
            owner = int(state.owner[x * size + y])
            hidden = viewer is not None and owner > 0 and owner != viewer + 1
            row.append(cell_text(owner, int(state.counts[x * size + y]), hidden))
        lines.append(f"{x + 1:>3} " + " ".join(row))
    return "\n".join(lines)


def render_rgb(state: BattleSheepState, size: int, sheep: int, scale: int = 24) -> np.ndarray:
    """``uint8[size*scale, size*scale, 3]``: field colours, owners' colours and a bar per stack height."""
    image = np.zeros((size * scale, size * scale, 3), dtype=np.uint8)
    image[:] = GRID_COLOUR
    for cell in range(size * size):
        top, left = (cell // size) * scale, (cell % size) * scale
        owner, count = int(state.owner[cell]), int(state.counts[cell])
        colour = OUTSIDE_COLOUR if owner == NONFIELD else FIELD_COLOUR
        image[top + 1 : top + scale - 1, left + 1 : left + scale - 1] = colour
        if owner > 0:
            image[top + 2 : top + scale - 2, left + 2 : left + scale - 2] = COLOURS[owner - 1] // 2 + 100
            height = max(1, round((scale - 6) * count / sheep))
            bar = slice(left + scale // 3, left + scale - scale // 3)
            image[top + scale - 3 - height : top + scale - 3, bar] = COLOURS[owner - 1]
    return image
