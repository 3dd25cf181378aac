"""Small builders for the Quoridor tests: moves played and listed as notation, board symmetries, random positions."""

from __future__ import annotations

import numpy as np

from boardenvs.games.quoridor import Quoridor, QuoridorState
from boardenvs.games.quoridor.notation import LETTERS

WALL_SUFFIXES = ("h", "v")


def legal_strings(game: Quoridor, state: QuoridorState) -> set[str]:
    """Every legal move of the player to move, in notation."""
    return {game.action_to_str(state, int(a)) for a in game.legal_actions(state)}


def pawn_moves(game: Quoridor, state: QuoridorState) -> set[str]:
    """The legal pawn moves (target squares) of the player to move."""
    return {m for m in legal_strings(game, state) if not m.endswith(WALL_SUFFIXES) and m != "pass"}


def wall_moves(game: Quoridor, state: QuoridorState) -> set[str]:
    """The legal wall placements of the player to move."""
    return {m for m in legal_strings(game, state) if m.endswith(WALL_SUFFIXES)}


def play(game: Quoridor, state: QuoridorState, *moves: str) -> QuoridorState:
    """``state`` after the moves in notation, in turn."""
    for move in moves:
        state = game.apply(state, game.parse_action(state, move))
    return state


def square(row: int, col: int) -> str:
    return f"{LETTERS[col]}{row + 1}"


def placed_walls(game: Quoridor, state: QuoridorState) -> list[tuple[int, int, bool]]:
    """``(row, col, horizontal)`` of every wall on the board."""
    t = game.tables
    return [t.wall_of_bit(bit) for bit in range(2 * t.wall_span) if (state.board.placed >> bit) & 1]


def transformed(game: Quoridor, state: QuoridorState, quarter_turns_cw: int = 0, mirror: bool = False, shift: int = 0):
    """``state`` with the board turned clockwise and/or mirrored left-right, player ``p`` relabelled ``p + shift``."""
    n, players = game.config.board_size, game.config.num_players

    def move_square(row: int, col: int) -> tuple[int, int]:
        if mirror:
            col = n - 1 - col
        for _ in range(quarter_turns_cw):
            row, col = col, n - 1 - row
        return row, col

    def move_wall(row: int, col: int, horizontal: bool) -> str:
        i, j = row + 1, col + 1  # the wall's middle point on the (n + 1) x (n + 1) lattice of corners
        if mirror:
            j = n - j
        for _ in range(quarter_turns_cw):
            i, j, horizontal = j, n - i, not horizontal
        return square(i - 1, j - 1) + ("h" if horizontal else "v")

    pawns = [""] * players
    walls_left = [0] * players
    for player in range(players):
        pawns[(player + shift) % players] = square(*move_square(*game.pawn_square(state, player)))
        walls_left[(player + shift) % players] = state.walls_left[player]
    walls = [move_wall(*wall) for wall in placed_walls(game, state)]
    to_move = (state.current_player + shift) % players
    return game.position(pawns, walls, to_move=to_move, walls_left=walls_left, ply=state.ply)


def random_positions(game: Quoridor, seed: int, count: int) -> list[QuoridorState]:
    """Non-terminal positions met in seeded random games (one in every few plies)."""
    rng = np.random.default_rng(seed)
    found: list[QuoridorState] = []
    while len(found) < count:
        state = game.initial_state(rng)
        while state.current_player >= 0 and len(found) < count:
            if rng.random() < 0.3:
                found.append(state)
            legal = game.legal_actions(state)
            state = game.apply(state, int(legal[rng.integers(len(legal))]))
    return found
