"""The text of a Battle Sheep state: ``to_text`` (the golden records' form) and a seat's view; the picture is
``svg.py``."""

from __future__ import annotations

from boardenvs.games.battle_sheep.state import FREE, NONFIELD, BattleSheepState

PLAYER_LETTERS = "ABCD"


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
