"""The SVG picture of a Quoridor position (see :mod:`boardenvs.svg`).

The board is drawn as in the notation (:mod:`boardenvs.games.quoridor.notation`): columns ``a..`` left to
right, rows ``1..`` top to bottom, written on all four sides. Squares are light tiles separated by grooves;
placed walls are dark bars in the grooves (two squares long); pawns are discs in the seat colours
(:data:`boardenvs.svg.PLAYER_COLOURS`) with the player's number, the pawn to move ringed in black. Each
player's goal side is a strip in its colour along that edge of the board. Under the board a panel says whose
turn it is (or who won, or the draw at the move cap), and for each player its walls left and its goal.

Click targets (only when a ``mask`` is given; ids in the frame of the player to move, labelled with the
move's notation):

* a pawn move: the destination square;
* a horizontal wall anchored at ``(r, c)`` (``c3h``): the groove segment below square ``(r, c)``, one square
  wide and 8 px thick, so that no two wall targets overlap;
* a vertical wall anchored at ``(r, c)`` (``c3v``): the groove segment right of square ``(r, c)``;
* PASS has no place on the board and gets no target.

Every target holds exactly one action. The picture depends only on the position (and ``seat``, which adds
"(you)" to that player's line), never on randomness, so a seat's picture of a state and of its
determinization are the same string.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from boardenvs.core import TERMINAL
from boardenvs.games.quoridor.notation import LETTERS, move_name
from boardenvs.games.quoridor.state import NO_WINNER, QuoridorState
from boardenvs.games.quoridor.tables import Tables, bits_of
from boardenvs.svg import PLAYER_COLOURS, PLAYER_NAMES, TARGET_FILL, SvgCanvas

SQUARE = 40
"""Side of a square, pixels."""
GAP = 10
"""Width of the groove between squares (where walls go)."""
PITCH = SQUARE + GAP
BORDER = 8
"""Frame around the squares; the goal strips are drawn in it."""
LABELS = 20
"""Room for the coordinates outside the frame."""
TARGET_THICKNESS = 8
WALL_TARGET_OPACITY = 0.7
LINE = 22
"""Height of a panel line."""
MIN_WIDTH = 480
BOARD_FILL, FRAME_FILL, SQUARE_FILL, WALL_FILL = "#b08d5f", "#8a6a43", "#f6ead2", "#2b1a10"
WINNER_RING = "#ff8f00"
TEXT_ON = ("#fff", "#fff", "#000", "#fff")
"""Readable text colour on each seat colour."""


class Layout:
    """Where everything of a board size and player count is drawn, and the static part of the picture.

    Attributes:
        tables: the game's geometry.
        left, top: top-left corner of square a1.
        width, height: the picture's size.
        background: markup of the board, coordinates and goal strips (the same for every position).
        targets: ``{unified move bit: (x, y, width, height, notation)}`` for every pawn move and wall.
    """

    def __init__(self, tables: Tables) -> None:
        self.tables = tables
        n = tables.n
        span = n * SQUARE + (n - 1) * GAP
        self.width = max(MIN_WIDTH, span + 2 * (BORDER + LABELS))
        self.left = (self.width - span) // 2
        self.top = BORDER + LABELS
        self.board_bottom = self.top + span + BORDER + LABELS
        self.height = self.board_bottom + LINE * (tables.num_players + 1) + 12
        self.span = span
        self.background = self._background()
        self.targets = self._targets()
        self._markups: dict[int, list[str]] = {}

    def x(self, col: int) -> int:
        """Left edge of column ``col``'s squares."""
        return self.left + col * PITCH

    def y(self, row: int) -> int:
        """Top edge of row ``row``'s squares."""
        return self.top + row * PITCH

    def wall_rect(self, row: int, col: int, horizontal: bool) -> tuple[int, int, int, int]:
        """``(x, y, width, height)`` of a placed wall anchored at ``(row, col)``."""
        if horizontal:
            return self.x(col), self.y(row) + SQUARE, 2 * SQUARE + GAP, GAP
        return self.x(col) + SQUARE, self.y(row), GAP, 2 * SQUARE + GAP

    def _background(self) -> str:
        canvas = SvgCanvas(self.width, self.height, "quoridor", background=None)
        left, top, span = self.left, self.top, self.span
        canvas.rect(left - BORDER, top - BORDER, span + 2 * BORDER, span + 2 * BORDER, fill=FRAME_FILL, rx=4)
        canvas.rect(left - 2, top - 2, span + 4, span + 4, fill=BOARD_FILL)
        self._draw_goal_strips(canvas)
        for row in range(self.tables.n):
            for col in range(self.tables.n):
                canvas.rect(self.x(col), self.y(row), SQUARE, SQUARE, fill=SQUARE_FILL, rx=3)
        self._draw_coordinates(canvas)
        return canvas.fragment()

    def _draw_goal_strips(self, canvas: SvgCanvas) -> None:
        """A strip in each player's colour along the board edge it must reach."""
        left, top, span, edge = self.left, self.top, self.span, BORDER - 2
        for player in range(self.tables.num_players):
            side = goal_side(self.tables, player)
            x = left + span + BORDER - edge if side == "right" else left - BORDER if side == "left" else left
            y = top + span + BORDER - edge if side == "bottom" else top - BORDER if side == "top" else top
            wide = side in ("top", "bottom")
            canvas.rect(x, y, span if wide else edge, edge if wide else span, fill=PLAYER_COLOURS[player],
                        data_goal=player)  # fmt: skip

    def _draw_coordinates(self, canvas: SvgCanvas) -> None:
        """Column letters above and below the board, row numbers left and right of it."""
        low, high = self.top - BORDER - LABELS / 2, self.top + self.span + BORDER + LABELS / 2
        side_low, side_high = self.left - BORDER - LABELS / 2, self.left + self.span + BORDER + LABELS / 2
        canvas.begin_group("coordinates")
        for k in range(self.tables.n):
            middle_x, middle_y = self.x(k) + SQUARE / 2, self.y(k) + SQUARE / 2
            for y in (low, high):
                canvas.text(middle_x, y, LETTERS[k], size=13, fill="#555")
            for x in (side_low, side_high):
                canvas.text(x, middle_y, k + 1, size=13, fill="#555")
        canvas.end_group()

    def target_markup(self, player: int) -> list[str]:
        """The target of every action id in ``player``'s frame (``""`` for PASS), built once per player: pawn
        targets are outlined squares, wall targets thin bars without an outline, so that a board full of legal
        walls stays readable."""
        found = self._markups.get(player)
        if found is None:
            frame = self.tables.frame_to_unified[player]
            found = self._markups[player] = [self._target(action, frame[action]) for action in range(len(frame))]
        return found

    def _target(self, action: int, move: int) -> str:
        if move not in self.targets:
            return ""
        x, y, width, height, label = self.targets[move]
        canvas = SvgCanvas(0, 0, "quoridor", background=None)
        if move < self.tables.cells:
            canvas.target_rect(x, y, width, height, [action], label, rx=3)
        else:
            canvas.begin_target([action], label)
            canvas.rect(x, y, width, height, fill=TARGET_FILL, rx=2, fill_opacity=WALL_TARGET_OPACITY)
            canvas.end_group()
        return canvas.fragment()

    def _targets(self) -> dict[int, tuple[int, int, int, int, str]]:
        t, targets = self.tables, {}
        thin, inset = TARGET_THICKNESS, (GAP - TARGET_THICKNESS) / 2
        for cell in range(t.cells):
            row, col = divmod(cell, t.n)
            targets[cell] = (self.x(col), self.y(row), SQUARE, SQUARE, move_name(t, cell))
        for row in range(t.n - 1):
            for col in range(t.n - 1):
                for horizontal in (True, False):
                    move = t.cells + t.wall_bit(row, col, horizontal)
                    if horizontal:
                        box = (self.x(col), self.y(row) + SQUARE + inset, SQUARE, thin)
                    else:
                        box = (self.x(col) + SQUARE + inset, self.y(row), thin, SQUARE)
                    targets[move] = (*box, move_name(t, move))
        return targets


@lru_cache(maxsize=32)
def layout_for(tables: Tables) -> Layout:
    """The (cached) layout of a board size and player count."""
    return Layout(tables)


def goal_side(tables: Tables, player: int) -> str:
    """``"top"``, ``"bottom"``, ``"left"`` or ``"right"``: the board edge ``player`` must reach."""
    goal = tables.goals[player]
    if goal == tables.row_masks[0]:
        return "top"
    if goal == tables.row_masks[tables.n - 1]:
        return "bottom"
    return "left" if goal == tables.col_masks[0] else "right"


def goal_text(tables: Tables, player: int) -> str:
    """``"goal: row 1 (top)"`` or ``"goal: column i (right)"``."""
    side, n = goal_side(tables, player), tables.n
    line = {"top": "row 1", "bottom": f"row {n}", "left": "column a", "right": f"column {LETTERS[n - 1]}"}[side]
    return f"goal: {line} ({side})"


def status_text(state: QuoridorState) -> str:
    """Whose turn it is, or the result, and the ply: ``"red (player 0) to move, ply 12"``."""
    if state.winner != NO_WINNER:
        status = f"{PLAYER_NAMES[state.winner]} (player {state.winner}) wins"
    elif state.current_player == TERMINAL:
        status = "draw at the move cap"
    else:
        status = f"{PLAYER_NAMES[state.current_player]} (player {state.current_player}) to move"
    return f"{status}, ply {state.ply}"


def quoridor_svg(tables: Tables, state: QuoridorState, seat: int | None = None, mask: np.ndarray | None = None) -> str:
    """The position drawn as an SVG document.

    Args:
        tables: The game's geometry (``game.tables``).
        state: The position.
        seat: The seat viewing (its panel line says "(you)"), or ``None`` for a spectator.
        mask: The legal actions of the player to move (``bool[num_actions]``, ids in its frame), drawn as click
            targets, or ``None`` for none.

    Returns:
        The ``<svg>`` markup.
    """
    layout = layout_for(tables)
    title = f"Quoridor {tables.n}x{tables.n}: {status_text(state)}"
    canvas = SvgCanvas(layout.width, layout.height, "quoridor", title)
    canvas.raw(layout.background)
    _draw_walls(canvas, layout, state.board.placed)
    _draw_pawns(canvas, layout, state)
    if mask is not None and state.current_player != TERMINAL:
        _draw_targets(canvas, layout, state.current_player, mask)
    _draw_panel(canvas, layout, state, seat)
    return canvas.markup()


def _draw_walls(canvas: SvgCanvas, layout: Layout, placed: int) -> None:
    """Every placed wall as a dark bar, in a group ``<g class="walls">`` (one ``rect`` per wall)."""
    tables = layout.tables
    canvas.begin_group("walls")
    for bit in bits_of(placed):
        x, y, width, height = layout.wall_rect(*tables.wall_of_bit(bit))
        canvas.rect(x, y, width, height, fill=WALL_FILL, rx=2, data_wall=move_name(tables, tables.cells + bit))
    canvas.end_group()


def _draw_pawns(canvas: SvgCanvas, layout: Layout, state: QuoridorState) -> None:
    n = layout.tables.n
    for player, cell in enumerate(state.pawns):
        row, col = divmod(cell, n)
        cx, cy = layout.x(col) + SQUARE / 2, layout.y(row) + SQUARE / 2
        if player in (state.current_player, state.winner):
            ring = "#000" if player == state.current_player else WINNER_RING
            canvas.circle(cx, cy, SQUARE * 0.44, fill="none", stroke=ring, stroke_width=3)
        canvas.circle(cx, cy, SQUARE * 0.35, fill=PLAYER_COLOURS[player], stroke="#fff", stroke_width=2,
                      data_pawn=player)  # fmt: skip
        canvas.text(cx, cy, player, size=15, fill=TEXT_ON[player], weight="bold")


def _draw_targets(canvas: SvgCanvas, layout: Layout, player: int, mask: np.ndarray) -> None:
    """One target per legal pawn move or wall (PASS has no place on the board)."""
    markups = layout.target_markup(player)
    for action in np.flatnonzero(mask).tolist():
        if markups[action]:
            canvas.raw(markups[action])


def _draw_panel(canvas: SvgCanvas, layout: Layout, state: QuoridorState, seat: int | None) -> None:
    """The status line, then per player: colour, walls left, goal, "to move" and "(you)"."""
    x, y = 16, layout.board_bottom + LINE / 2
    canvas.text(x, y, status_text(state), size=15, anchor="start", weight="bold")
    for player, walls in enumerate(state.walls_left):
        y += LINE
        canvas.circle(x + 7, y, 7, fill=PLAYER_COLOURS[player], stroke="#333", stroke_width=1)
        you = " (you)" if player == seat else ""
        line = f"{PLAYER_NAMES[player]} (player {player}){you}: {walls} walls left, {goal_text(layout.tables, player)}"
        if player == state.current_player:
            line += "  \u25c0 to move"
        elif player == state.winner:
            line += "  \u2605 winner"
        canvas.text(x + 20, y, line, size=13, anchor="start", data_player=player,
                    weight="bold" if player == state.current_player else None)  # fmt: skip
