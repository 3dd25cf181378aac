"""A slow, plain reference implementation of Quoridor's legal moves, for cross-checking the bitboards.

Squares are ``(row, col)`` tuples; walls are ``(row, col, "h" | "v")`` anchors; nothing is cached.
"""

from __future__ import annotations

from collections import deque

Square = tuple[int, int]
Wall = tuple[int, int, str]
STEPS = ((-1, 0), (1, 0), (0, -1), (0, 1))


def goal_test(n: int, num_players: int, player: int):
    """Whether a square is on ``player``'s goal line."""
    if num_players == 2:
        return (lambda sq: sq[0] == 0) if player == 0 else (lambda sq: sq[0] == n - 1)
    return [lambda sq: sq[0] == 0, lambda sq: sq[1] == n - 1, lambda sq: sq[0] == n - 1, lambda sq: sq[1] == 0][player]


def blocked(walls: set[Wall], a: Square, b: Square) -> bool:
    """Whether a wall lies between the neighbouring squares ``a`` and ``b``."""
    if a[0] == b[0]:
        row, col = a[0], min(a[1], b[1])
        return (row, col, "v") in walls or (row - 1, col, "v") in walls
    row, col = min(a[0], b[0]), a[1]
    return (row, col, "h") in walls or (row, col - 1, "h") in walls


def step(n: int, walls: set[Wall], square: Square, delta: tuple[int, int]) -> Square | None:
    """The square one step from ``square`` towards ``delta``, or None past an edge or a wall."""
    target = (square[0] + delta[0], square[1] + delta[1])
    if not (0 <= target[0] < n and 0 <= target[1] < n) or blocked(walls, square, target):
        return None
    return target


def pawn_targets(n: int, walls: set[Wall], pawns: list[Square], player: int, liberal: bool) -> set[Square]:
    me, others = pawns[player], set(pawns) - {pawns[player]}
    targets = set()
    for delta in STEPS:
        neighbour = step(n, walls, me, delta)
        if neighbour is None:
            continue
        if neighbour not in others:
            targets.add(neighbour)
        elif liberal:
            targets |= {s for d in STEPS if (s := step(n, walls, neighbour, d)) is not None and s != me}
        elif (beyond := step(n, walls, neighbour, delta)) is not None:
            if beyond not in others:
                targets.add(beyond)
        else:
            sides = ((0, -1), (0, 1)) if delta[1] == 0 else ((-1, 0), (1, 0))
            targets |= {s for d in sides if (s := step(n, walls, neighbour, d)) is not None}
    return targets - others


def reaches(n: int, walls: set[Wall], start: Square, is_goal) -> bool:
    seen, queue = {start}, deque([start])
    while queue:
        square = queue.popleft()
        if is_goal(square):
            return True
        for delta in STEPS:
            nxt = step(n, walls, square, delta)
            if nxt is not None and nxt not in seen:
                seen.add(nxt)
                queue.append(nxt)
    return False


def wall_is_legal(n: int, walls: set[Wall], wall: Wall, pawns: list[Square]) -> bool:
    row, col, kind = wall
    other = "v" if kind == "h" else "h"
    neighbours = (
        [(row, col - 1, kind), (row, col + 1, kind)] if kind == "h" else [(row - 1, col, kind), (row + 1, col, kind)]
    )
    if wall in walls or (row, col, other) in walls or any(w in walls for w in neighbours):
        return False
    after = walls | {wall}
    return all(reaches(n, after, sq, goal_test(n, len(pawns), p)) for p, sq in enumerate(pawns))


def legal_moves(n: int, walls: set[Wall], pawns: list[Square], walls_left: list[int], player: int, liberal: bool):
    """Legal moves of ``player`` in OpenSpiel's notation (``pass`` when there is nothing else)."""
    name = lambda row, col: f"{chr(ord('a') + col)}{row + 1}"  # noqa: E731
    moves = {name(*sq) for sq in pawn_targets(n, walls, pawns, player, liberal)}
    if walls_left[player] > 0:
        anchors = [(r, c, k) for r in range(n - 1) for c in range(n - 1) for k in "hv"]
        moves |= {name(r, c) + k for r, c, k in anchors if wall_is_legal(n, walls, (r, c, k), pawns)}
    return moves or {"pass"}
