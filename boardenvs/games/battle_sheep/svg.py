"""The SVG picture of a Battle Sheep position (``BattleSheep.render_svg``).

The board is drawn as a grid of square cells with the notation's column letters (``a``..) on top and row
numbers (``1``..) on the left: cells outside the playing field are grey stone, free field cells green grass, an
occupied cell is tinted in its owner's seat colour (:data:`boardenvs.svg.PLAYER_COLOURS`: A red, B blue,
C yellow, D green) and holds a round token with its stack size. A side panel lists every player: colour and
letter, its team (``teams``), sheep on the board and stacks, region score (the team's average with ``teams``),
and at the end its place and tournament points; the header says whose turn it is and in which phase, or the
result.

Hidden information (``hidden_counts``, the course's game 3): a seat's picture shows who owns every cell but
writes ``?`` on the tokens of the other players' stacks; their sheep totals (always ``sheep_per_player`` once
placed) and their stack counts and scores, which depend on ownership alone, are public and shown. So the
picture for seat ``p`` is the same for a state and for every ``determinize(state, p, rng)``.

Click targets (only with a ``mask``, and only for the player to move: the spectator's picture or that player's
own seat; every action of a target is in the mask and legal):

* placement ``place c5`` (ids ``[0, n*n)``): a target on cell ``c5``;
* a move ``c5 NE 3`` (source cell, direction, sheep): a target on the cell where the group stops, holding every
  legal move that ends there (from any source, in any direction, of any size), labelled with their notation.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from boardenvs.games.battle_sheep.scoring import rank_points, region_score
from boardenvs.games.battle_sheep.state import FREE, NONFIELD, BattleSheepState
from boardenvs.games.battle_sheep.tables import DIRECTION_NAMES, cell_name
from boardenvs.games.battle_sheep.transitions import slide_end
from boardenvs.svg import PLAYER_COLOURS, PLAYER_NAMES, SvgCanvas, number

if TYPE_CHECKING:
    from boardenvs.games.battle_sheep.game import BattleSheep

LETTERS = "ABCD"
TINTS: tuple[str, ...] = ("#f6c9c6", "#c3dcf7", "#fbe7a8", "#c6e6c7")
"""Light seat colours for the ground of an occupied cell (red, blue, yellow, green)."""
TOKEN_TEXT: tuple[str, ...] = ("#ffffff", "#ffffff", "#3e2723", "#ffffff")
GRASS, GRASS_EDGE, STONE, STONE_EDGE = "#cfe8a4", "#8fb36a", "#b8b8b0", "#a4a49c"
MARGIN, HEADER, LABEL, PANEL_WIDTH, BOX_HEIGHT, BOX_GAP = 14, 44, 20, 270, 88, 10
BOARD_PIXELS = 560
PLACES = ("1st", "2nd", "3rd", "4th")


class Layout(NamedTuple):
    """Where things go for one board size and number of players (the canvas size is fixed per config)."""

    cell: int
    """Side of a cell in pixels."""
    board_x: int
    board_y: int
    panel_x: int
    width: int
    height: int
    ground: tuple[str, ...]
    """Per cell, the ready-made markup of its free-grass ground (drawn under every field cell)."""
    stone: tuple[str, ...]
    """Per cell, the markup of a cell outside the field."""
    labels: str
    """The column letters and row numbers around the board."""


@functools.cache
def layout(size: int, players: int) -> Layout:
    """The :class:`Layout` of a ``size`` x ``size`` board with ``players`` players."""
    cell = max(20, min(48, BOARD_PIXELS // size))
    board_x, board_y = MARGIN + LABEL, HEADER + LABEL
    panel_x = board_x + size * cell + 24
    legend = 70
    height = max(board_y + size * cell + MARGIN, HEADER + players * (BOX_HEIGHT + BOX_GAP) + legend)
    ground, stone = [], []
    for index in range(size * size):
        x, y = board_x + index % size * cell, board_y + index // size * cell
        name = cell_name(size, index)
        ground.append(_square(x, y, cell, GRASS, GRASS_EDGE, f'class="cell free" data-cell="{name}"'))
        stone.append(_square(x, y, cell, STONE, STONE_EDGE, f'class="cell blocked" data-cell="{name}"'))
    return Layout(cell, board_x, board_y, panel_x, panel_x + PANEL_WIDTH + MARGIN, height, tuple(ground),
                  tuple(stone), _labels(size, cell, board_x, board_y))  # fmt: skip


def _square(x: float, y: float, side: float, fill: str, stroke: str, marks: str) -> str:
    """A cell's square; ``marks`` are its ``class`` and ``data-cell`` attributes."""
    return (
        f'<rect x="{number(x)}" y="{number(y)}" width="{number(side)}" height="{number(side)}" fill="{fill}" '
        f'stroke="{stroke}" stroke-width="1" {marks}/>'
    )


def _labels(size: int, cell: int, board_x: int, board_y: int) -> str:
    """Column letters above the board and row numbers left of it."""
    canvas = SvgCanvas(0, 0, "battle_sheep", background=None)
    for k in range(size):
        canvas.text(board_x + (k + 0.5) * cell, board_y - LABEL / 2, chr(ord("a") + k), size=12, fill="#555")
        canvas.text(board_x - LABEL / 2, board_y + (k + 0.5) * cell, k + 1, size=12, fill="#555")
    markup = canvas.markup()
    return markup[markup.index(">") + 1 : -len("</svg>")]


def draw_state(game: BattleSheep, state: BattleSheepState, seat: int | None, mask: np.ndarray | None) -> str:
    """The SVG picture of ``state`` as ``seat`` sees it (``None``: the spectator, everything), with the legal
    actions of ``mask`` drawn as click targets (see the module docstring)."""
    config = game.config
    size, players = config.board_size, config.num_players
    plan = layout(size, players)
    hidden = seat is not None and config.hidden_counts
    scores = [region_score(game.tables, state.owner, p) for p in range(players)]
    status = _status(game, state, scores)
    canvas = SvgCanvas(plan.width, plan.height, "battle_sheep", status)
    canvas.text(MARGIN, HEADER / 2, status, size=17, anchor="start", weight="bold")
    canvas.raw(plan.labels)
    _draw_cells(canvas, plan, state, size, seat if hidden else None)
    _draw_panel(canvas, plan, game, state, scores, seat)
    if mask is not None and (seat is None or seat == state.current_player) and state.current_player >= 0:
        _draw_targets(canvas, plan, game, state, mask)
    return canvas.markup()


def _draw_cells(canvas: SvgCanvas, plan: Layout, state: BattleSheepState, size: int, viewer: int | None) -> None:
    """Every cell: stone outside the field, grass, and a token in the owner's colour on each stack (its size,
    or ``?`` for another player's stack when ``viewer`` is a seat with hidden counts)."""
    owners = state.owner[: size * size].tolist()
    counts = state.counts[: size * size].tolist()
    cell, ground, stone, raw = plan.cell, plan.ground, plan.stone, canvas.raw
    for index, owner in enumerate(owners):
        if owner == NONFIELD:
            raw(stone[index])
        elif owner == FREE:
            raw(ground[index])
        else:
            x, y = plan.board_x + index % size * cell, plan.board_y + index // size * cell
            name = cell_name(size, index)
            raw(_square(x, y, cell, TINTS[owner - 1], GRASS_EDGE, f'class="cell owned" data-cell="{name}"'))
            shown = "?" if viewer is not None and owner != viewer + 1 else counts[index]
            _token(canvas, x + cell / 2, y + cell / 2, cell, owner - 1, shown, name)


def _token(canvas: SvgCanvas, cx: float, cy: float, cell: int, player: int, shown: object, name: str) -> None:
    """The stack on cell ``name``: a disc in ``player``'s colour with ``shown`` (its size, or ``?``) on it."""
    text = str(shown)
    size = cell * (0.34 if len(text) > 1 else 0.42)
    canvas.raw(
        f'<g class="stack" data-cell="{name}" data-player="{player}"><circle cx="{number(cx)}" cy="{number(cy)}" '
        f'r="{number(cell * 0.38)}" fill="{PLAYER_COLOURS[player]}" stroke="#ffffff" stroke-width="2"/>'
        f'<text x="{number(cx)}" y="{number(cy)}" font-size="{number(size)}" fill="{TOKEN_TEXT[player]}" '
        f'text-anchor="middle" dominant-baseline="central" font-weight="bold">{text}</text></g>'
    )


def player_label(player: int) -> str:
    """``"A (red)"``: the notation's letter of ``player`` and its seat colour."""
    return f"{LETTERS[player]} ({PLAYER_NAMES[player]})"


def _status(game: BattleSheep, state: BattleSheepState, scores: list[int]) -> str:
    """The header: whose turn and which phase, or the result."""
    player = state.current_player
    if player < 0:
        return "Game over: " + _result(game, scores)
    if game.in_placement(state):
        return f"Placement: {player_label(player)} places {game.config.sheep_per_player} sheep on a border cell"
    return f"{player_label(player)} to move: split a stack (ply {state.ply})"


def ranking_values(game: BattleSheep, scores: list[int]) -> list[float]:
    """The values that are ranked: the scores, averaged with the partner's when ``teams``."""
    if not game.config.teams:
        return [float(score) for score in scores]
    return [(scores[p] + scores[(p + 2) % 4]) / 2 for p in range(4)]


def _result(game: BattleSheep, scores: list[int]) -> str:
    """Who won: the player(s), or the team, with the best ranked score."""
    values = ranking_values(game, scores)
    best = max(values)
    winners = [p for p, value in enumerate(values) if value == best]
    if game.config.teams and len(winners) == 2:
        return f"team {LETTERS[winners[0]]}+{LETTERS[winners[1]]} wins ({number(best)} each)"
    names = " and ".join(player_label(p) for p in winners)
    return f"{names} {'win' if len(winners) > 1 else 'wins'} with {number(best)}"


def _draw_panel(canvas: SvgCanvas, plan: Layout, game: BattleSheep, state: BattleSheepState, scores: list[int],
                seat: int | None) -> None:  # fmt: skip
    """One box per player, then a legend."""
    players = game.config.num_players
    over = state.current_player < 0
    points = rank_points(np.array(ranking_values(game, scores))).tolist() if over else None
    for player in range(players):
        top = HEADER + player * (BOX_HEIGHT + BOX_GAP)
        _player_box(canvas, plan.panel_x, top, game, state, player, scores, points)
    _legend(canvas, plan.panel_x, HEADER + players * (BOX_HEIGHT + BOX_GAP), game, seat)


def _player_box(canvas: SvgCanvas, x: float, top: float, game: BattleSheep, state: BattleSheepState, player: int,
                scores: list[int], points: list[float] | None) -> None:  # fmt: skip
    """A player's box: colour, name, team, whose turn, sheep and stacks, score, and place at the end."""
    to_move = state.current_player == player
    canvas.rect(x, top, PANEL_WIDTH, BOX_HEIGHT, fill="#fffde7" if to_move else "#f5f5f5",
                stroke="#f57f17" if to_move else "#bdbdbd", stroke_width=2.5 if to_move else 1, rx=6)  # fmt: skip
    canvas.circle(x + 22, top + 22, 13, fill=PLAYER_COLOURS[player], stroke="#fff", stroke_width=2)
    canvas.text(x + 22, top + 22, LETTERS[player], size=14, fill=TOKEN_TEXT[player], weight="bold")
    canvas.text(x + 44, top + 20, f"Player {player_label(player)}", size=15, anchor="start", weight="bold")
    notes = [f"team {LETTERS[player % 2]}+{LETTERS[player % 2 + 2]}"] if game.config.teams else []
    notes += ["\u25b6 to move"] if to_move else []
    colour, weight = ("#e65100", "bold") if to_move else ("#555", None)
    canvas.text(x + 44, top + 38, " \u00b7 ".join(notes), size=12, anchor="start", fill=colour, weight=weight)
    canvas.text(x + 12, top + 58, _sheep_line(game, state, player), size=13, anchor="start")
    canvas.text(x + 12, top + 76, _score_line(game, scores, player), size=13, anchor="start")
    if points is not None:
        place = sorted(points, reverse=True).index(points[player])
        canvas.text(x + PANEL_WIDTH - 10, top + 20, f"{PLACES[place]} \u00b7 {number(points[player])} pts",
                    size=14, anchor="end", weight="bold")  # fmt: skip


def _sheep_line(game: BattleSheep, state: BattleSheepState, player: int) -> str:
    """``"16 sheep on 3 stacks"`` (public: a placed player always has all its sheep), or not placed yet."""
    stacks = len(state.stacks[player])
    if not stacks:
        return "no sheep placed" if game.in_placement(state) and state.placed <= player else "could not place"
    plural = "s" if stacks > 1 else ""
    return f"{game.config.sheep_per_player} sheep on {stacks} stack{plural}"


def _score_line(game: BattleSheep, scores: list[int], player: int) -> str:
    """The region score, and the team's average with ``teams``."""
    if not game.config.teams:
        return f"score {scores[player]}"
    return f"score {scores[player]}, team average {number(ranking_values(game, scores)[player])}"


def _legend(canvas: SvgCanvas, x: float, top: float, game: BattleSheep, seat: int | None) -> None:
    """What the picture means: the view and, with hidden counts, what ``?`` stands for."""
    lines = ["spectator view" if seat is None else f"view of player {player_label(seat)}"]
    if game.config.hidden_counts:
        lines.append("others' stack sizes hidden (?)" if seat is not None else "hidden counts: each sees its own")
    lines.append("score: sum of region size^1.25")
    for row, line in enumerate(lines):
        canvas.text(x, top + 8 + 18 * row, line, size=12, anchor="start", fill="#555")


def _draw_targets(canvas: SvgCanvas, plan: Layout, game: BattleSheep, state: BattleSheepState,
                  mask: np.ndarray) -> None:  # fmt: skip
    """Each legal action of ``mask`` as a target on its cell: the placement cell, or a move's destination."""
    legal = game.legal_actions(state)
    actions = legal[mask[legal]].tolist()
    size, cell = game.config.board_size, plan.cell
    for target, (ids, labels) in _targets(game, state, actions).items():
        x, y = plan.board_x + target % size * cell, plan.board_y + target // size * cell
        canvas.target_rect(x + 2, y + 2, cell - 4, cell - 4, ids, ", ".join(labels), rx=4)


def _targets(game: BattleSheep, state: BattleSheepState, actions: list[int]) -> dict[int, tuple[list[int], list[str]]]:
    """``{cell: (action ids, their notation)}``: placements on their cell, moves on the cell where they stop."""
    size, cells, splits = game.config.board_size, game.cells, game.splits
    owner, names = memoryview(state.owner), {}
    ends: dict[tuple[int, int], int] = {}
    grouped: dict[int, tuple[list[int], list[str]]] = {}
    for action in actions:
        if action < cells:
            target, label = action, f"place {cell_name(size, action)}"
        else:
            rest, split = divmod(action - cells, splits)
            source, direction = divmod(rest, 8)
            if (source, direction) not in ends:
                ends[source, direction] = slide_end(game.tables, owner, source, direction)
                names[source, direction] = f"{cell_name(size, source)} {DIRECTION_NAMES[direction]} "
            target, label = ends[source, direction], f"{names[source, direction]}{split + 1}"
        ids, labels = grouped.setdefault(target, ([], []))
        ids.append(action)
        labels.append(label)
    return grouped
