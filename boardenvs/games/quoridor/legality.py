"""Which Quoridor moves are legal, and why a move is not: every rule once, the mask and the reasons from it.

Moves here are *unified bits* (see :mod:`~boardenvs.games.quoridor.tables`): a square index for a pawn move,
``n*n + wall bit`` for a wall, ``tables.pass_bit`` for PASS; the game converts them to and from the acting
player's egocentric action ids. The rules, each decided by one function here with its message beside it:

1. **Pawn moves** (:func:`pawn_targets`): a step to an open neighbour square, a jump over an adjacent pawn,
   side-steps when a wall or the edge is behind it (or, with liberal jumps, every square that pawn could step
   to); never onto a pawn.
2. **Walls come from the stock** (:func:`walls_in_stock`).
3. **Walls do not overlap or cross** (``Walls.free``: every placed wall removes its ``tables.conflicts``).
4. **Walls leave every pawn a path to its goal** (:func:`cutting_walls`).
5. **PASS only when there is no other move** (in :func:`legal_moves`).

:func:`legal_moves` composes them into one int (memoised on the state); :func:`illegal_reason` asks the same
rules, in that order, which one excludes a move and returns its message.
"""

from __future__ import annotations

from boardenvs.core import TERMINAL
from boardenvs.games.quoridor.notation import move_name
from boardenvs.games.quoridor.state import QuoridorState
from boardenvs.games.quoridor.tables import DIRECTIONS, SIDES, Tables, bits_of
from boardenvs.games.quoridor.walls import Walls

_MEMO_LIMIT = 4096  # pawn placements remembered per set of walls


# -- 1. pawn moves -----------------------------------------------------------------------------------
def pawn_targets(tables: Tables, board: Walls, pawns: tuple[int, ...], player: int, liberal: bool) -> int:
    """Cell mask of the squares ``player``'s pawn may move to (official rules or the liberal variant)."""
    cell = pawns[player]
    others = 0  # the squares of the other pawns
    for square in pawns:
        others |= 1 << square
    others &= ~(1 << cell)
    opened, step = board.open, tables.step
    targets = 0
    for direction in DIRECTIONS:
        if not (opened[direction] >> cell) & 1:
            continue
        neighbour = cell + step[direction]
        if not (others >> neighbour) & 1:
            targets |= 1 << neighbour
        elif liberal:
            targets |= _steps_from(opened, step, neighbour) & ~(1 << cell)
        elif (opened[direction] >> neighbour) & 1:
            beyond = neighbour + step[direction]
            if not (others >> beyond) & 1:  # a third pawn behind: no move this way at all
                targets |= 1 << beyond
        else:  # wall or board edge behind the pawn: side-steps
            for side in SIDES[direction]:
                if (opened[side] >> neighbour) & 1:
                    targets |= 1 << (neighbour + step[side])
    return targets & ~others


def _steps_from(opened: tuple[int, ...], step: tuple[int, ...], cell: int) -> int:
    """Cell mask of the squares one open step away from ``cell``."""
    mask = 0
    for direction in DIRECTIONS:
        if (opened[direction] >> cell) & 1:
            mask |= 1 << (cell + step[direction])
    return mask


def unreachable_reason(name: str) -> str:
    """Why a pawn move outside :func:`pawn_targets` is illegal."""
    return f"{name} is not reachable"


# -- 2. the wall stock -------------------------------------------------------------------------------
def walls_in_stock(walls_left: tuple[int, ...], player: int) -> bool:
    """Whether ``player`` has a wall left to place."""
    return walls_left[player] > 0


def empty_stock_reason(name: str) -> str:
    """Why a wall is illegal for a player whose stock is empty."""
    return f"no walls left to place {name}"


# -- 3. no overlap, no crossing (the rule is ``Walls.free``) -----------------------------------------
def obstruction_reason(board: Walls, bit: int, name: str) -> str:
    """Why wall ``bit`` (not in ``board.free``) is illegal: a placed wall of the other orientation in its
    ``tables.conflicts`` crosses it, else one of the same orientation overlaps it."""
    span = board.tables.wall_span
    in_the_way = board.placed & board.tables.conflicts[bit]
    horizontal = (1 << span) - 1  # horizontal wall bits are below the span, vertical ones from it
    crossing = in_the_way & ~horizontal if bit < span else in_the_way & horizontal
    if crossing:
        return f"wall {name} crosses an existing wall"
    return f"wall {name} overlaps an existing wall"


# -- 4. every pawn keeps a path to its goal ----------------------------------------------------------
def cutting_walls(board: Walls, cell: int, goal: int, closers: int) -> int:
    """The wall bits among ``closers`` (``board.closers``: free walls that close a cycle, the only ones that can
    cut a region off) that would leave the pawn on ``cell`` no way to ``goal``."""
    risky = closers & board.path_blockers(cell, goal)
    cutting = 0
    for bit in bits_of(risky):
        if not board.reaches_with(cell, goal, bit):
            cutting |= 1 << bit
    return cutting


def cut_off_reason(name: str, player: int) -> str:
    """Why a wall that :func:`cutting_walls` finds for ``player``'s pawn is illegal."""
    return f"wall {name} would cut player {player} off from its goal"


def placeable_walls(board: Walls, pawns: tuple[int, ...]) -> int:
    """Wall bits placeable with the pawns on ``pawns`` (rules 3 and 4), memoised in ``board.placeable``."""
    memo = board.placeable
    legal = memo.get(pawns)
    if legal is None:
        legal = board.free
        closers = board.closers
        if closers:
            goals = board.tables.goals
            for player, cell in enumerate(pawns):
                legal &= ~cutting_walls(board, cell, goals[player], closers)
        if len(memo) >= _MEMO_LIMIT:
            memo.clear()
        memo[pawns] = legal
    return legal


# -- 5. PASS, and the composition --------------------------------------------------------------------
def legal_moves(tables: Tables, state: QuoridorState, liberal: bool) -> int:
    """The legal moves of the player to move as a unified bit mask (memoised on the state)."""
    legal = state._legal
    if legal is None:
        player = state.current_player
        if player == TERMINAL:
            legal = 0
        else:
            legal = pawn_targets(tables, state.board, state.pawns, player, liberal)
            if walls_in_stock(state.walls_left, player):
                legal |= placeable_walls(state.board, state.pawns) << tables.cells
            if not legal:
                legal = 1 << tables.pass_bit
        state._legal = legal
    return legal


def pass_reason() -> str:
    """Why PASS is illegal whenever :func:`legal_moves` holds another move."""
    return "pass is only legal when there is no other move"


def illegal_reason(tables: Tables, state: QuoridorState, move: int) -> str:
    """Why the unified ``move`` is not in :func:`legal_moves` of ``state`` (not over): the first rule that
    excludes it, naming the move (``wall c3h crosses an existing wall``)."""
    name = move_name(tables, move)
    if move == tables.pass_bit:
        return pass_reason()
    if move < tables.cells:
        return unreachable_reason(name)
    if not walls_in_stock(state.walls_left, state.current_player):
        return empty_stock_reason(name)
    board, bit = state.board, move - tables.cells
    if not (board.free >> bit) & 1:
        return obstruction_reason(board, bit, name)
    for player, cell in enumerate(state.pawns):
        if (cutting_walls(board, cell, tables.goals[player], board.closers) >> bit) & 1:
            return cut_off_reason(name, player)
    return f"wall {name} is not legal here"
