"""The SVG picture of a Node Conquest position (see :mod:`boardenvs.svg`).

Every node is a disc at its place: grids in rows and columns, hex maps with odd rows shifted half a step right
(rows 1.. down the left, columns a.. along the top, as in the notation ``b3``), graphs on a circle (the config
gives no coordinates), node 0 at the top and the others clockwise, each named ``n7`` beside its disc. A disc is
filled with its owner's seat colour (:data:`boardenvs.svg.PLAYER_COLOURS`; neutral nodes grey) and shows its
unit count; the edges are grey lines. Where the growth rates differ between nodes, each node shows its rate as
a ``+g`` badge (otherwise the panel states the one rate). Under the map a panel gives whose turn it is, or the
result, and each player's nodes and units.

Click targets (only when a ``mask`` is given). An action ``origin * D + slot`` sends units from node ``origin``
to its neighbour through ``slot`` (the amount is fixed by the rules), so each legal move is one directed edge:
its target is an arrowhead on the half of that edge next to the node it moves to, pointing at it. The two
directions of one edge use its two halves, so targets never overlap on grids and hex maps (on a graph, only
where two edges meet a node at nearly the same angle); every target holds exactly one action, labelled with its
notation (``a1>R``, ``n3>n7``). PASS has no place on the map and gets no target.

The picture depends only on the position (and ``seat``, which adds "(you)" to that player's line), never on
randomness, so a seat's picture of a state and of its determinization are the same string.
"""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np

from boardenvs.core import TERMINAL
from boardenvs.games.node_conquest.config import NodeConquestConfig
from boardenvs.games.node_conquest.state import NEUTRAL, NodeConquestState
from boardenvs.games.node_conquest.tables import Board, board_for
from boardenvs.svg import PLAYER_COLOURS, PLAYER_NAMES, TARGET_FILL, TARGET_OPACITY, SvgCanvas

STEP = 88
"""Distance between neighbouring nodes of a grid or hex map, pixels."""
RADIUS = 21
"""Radius of a node's disc."""
MARGIN = 46
"""Room around the map (coordinates, graph node names)."""
LINE = 22
"""Height of a panel line."""
MIN_WIDTH = 500
NEUTRAL_FILL, EDGE_COLOUR = "#bdbdbd", "#9e9e9e"
TEXT_ON = ("#fff", "#fff", "#000", "#fff")
"""Readable text colour on each seat colour (neutral nodes: black)."""
ARROW_MAX, ARROW_MIN, ARROW_HALF_WIDTH = 26, 8, 10


class Layout:
    """Where everything of one map is drawn, and the static part of the picture.

    Attributes:
        board: the map.
        xs, ys: the centre of every node's disc.
        width, height: the picture's size; ``map_bottom`` is where the panel starts.
        background: markup of the edges, coordinates and node names (the same for every position).
        arrows: ``{action: target markup}`` for every move that stays on the map: an arrowhead labelled with the
            move's notation.
        badges: where to write each node's growth rate (centre of its badge), or ``[]`` when all rates are equal.
        badge_markup: each node's badge (``""`` when all rates are equal).
        node_heads: memo of :meth:`node_head`.
        growth: the rates as Python ints.
    """

    def __init__(self, config: NodeConquestConfig) -> None:
        self.board = board = board_for(config)
        xs, ys = graph_positions(board.num_nodes) if board.rows == 0 else lattice_positions(board)
        self.xs, self.ys = xs, ys
        self.growth = board.growth.tolist()
        self.badges = [self.badge_place(node) for node in range(board.num_nodes)] if len(set(self.growth)) > 1 else []
        self.badge_markup = [self._badge(node) for node in range(board.num_nodes)]
        self.node_heads: dict[tuple[int, int, bool], str] = {}
        self.map_bottom = max(ys) + RADIUS + MARGIN / 2
        self.width = max(MIN_WIDTH, max(xs) + RADIUS + MARGIN)
        self.height = self.map_bottom + LINE * (config.num_players + 2) + 8
        self.background = self._background()
        self.arrows = self._arrows()

    def _background(self) -> str:
        canvas = SvgCanvas(self.width, self.height, "node_conquest", background=None)
        xs, ys = self.xs, self.ys
        canvas.begin_group("edges")
        for node, others in enumerate(self.board.adjacency):
            for other in others:
                if other > node:
                    canvas.line(xs[node], ys[node], xs[other], ys[other], stroke=EDGE_COLOUR, stroke_width=3,
                                data_edge=f"{self.board.node_names[node]}-{self.board.node_names[other]}")  # fmt: skip
        canvas.end_group()
        if self.board.rows == 0:
            self._draw_node_names(canvas)
        else:
            self._draw_coordinates(canvas)
        return canvas.fragment()

    def _draw_coordinates(self, canvas: SvgCanvas) -> None:
        """Column letters above the top row, row numbers left of each row."""
        board, xs, ys = self.board, self.xs, self.ys
        top = ys[0] - RADIUS - 14
        for col in range(board.cols):
            canvas.text(xs[col], top, board.node_names[col][0], size=13, fill="#555")
        for row in range(board.rows):
            first = row * board.cols
            canvas.text(xs[first] - RADIUS - 16, ys[first], row + 1, size=13, fill="#555")

    def _draw_node_names(self, canvas: SvgCanvas) -> None:
        """Each graph node's name just outside its disc, away from the circle's centre."""
        centre_x, centre_y = (max(self.xs) + min(self.xs)) / 2, (max(self.ys) + min(self.ys)) / 2
        for node, name in enumerate(self.board.node_names):
            dx, dy = self.xs[node] - centre_x, self.ys[node] - centre_y
            scale = (RADIUS + 13) / (math.hypot(dx, dy) or 1.0)
            x, y = round(self.xs[node] + dx * scale), round(self.ys[node] + dy * scale)
            canvas.text(x, y, name, size=12, fill="#555")

    def _arrows(self) -> dict[int, str]:
        """The target markup of every move that stays on the map (built once: only the legal ones are drawn)."""
        board, arrows = self.board, {}
        for action, target in enumerate(board.neighbours.ravel().tolist()):
            if target >= 0:
                origin, slot = divmod(action, board.max_degree)
                canvas = SvgCanvas(0, 0, "node_conquest", background=None)
                canvas.begin_target([action], f"{board.node_names[origin]}>{board.slot_names[origin][slot]}")
                canvas.polygon(self.arrowhead(origin, target), fill=TARGET_FILL, stroke="#f57f17", stroke_width=1.5,
                               fill_opacity=TARGET_OPACITY, stroke_linejoin="round")  # fmt: skip
                canvas.end_group()
                arrows[action] = canvas.fragment()
        return arrows

    def node_head(self, node: int, owner: int, small: bool) -> str:
        """The markup of a node's disc in ``owner``'s colour and the opening tag of its unit count (``small``: a
        smaller font for counts of 4 digits and more), cached in :attr:`node_heads`."""
        canvas = SvgCanvas(0, 0, "node_conquest", background=None)
        x, y, name = self.xs[node], self.ys[node], self.board.node_names[node]
        fill = NEUTRAL_FILL if owner == NEUTRAL else PLAYER_COLOURS[owner]
        canvas.circle(x, y, RADIUS, fill=fill, stroke="#fff" if owner == NEUTRAL else "#222", stroke_width=1.5,
                      data_node=name, data_owner=owner)  # fmt: skip
        ink = "#000" if owner == NEUTRAL else TEXT_ON[owner]
        canvas.text(x, y, "", size=11 if small else 15, fill=ink, weight="bold", data_units=name)
        head = self.node_heads[node, owner, small] = canvas.fragment()[: -len("</text>")]
        return head

    def _badge(self, node: int) -> str:
        """The markup of a node's ``+rate`` growth badge (``""`` when all rates are equal)."""
        if not self.badges:
            return ""
        canvas = SvgCanvas(0, 0, "node_conquest", background=None)
        (x, y), text = self.badges[node], f"+{self.growth[node]}"
        width = 7 * len(text) + 4
        canvas.rect(x - width / 2, y - 7, width, 14, fill="#fff", stroke="#555", stroke_width=1, rx=7)
        canvas.text(x, y, text, size=10, fill="#333", data_growth=self.growth[node])
        return canvas.fragment()

    def badge_place(self, node: int) -> tuple[float, float]:
        """Centre of a node's growth badge on the rim of its disc: lower right on grids, below on hex maps (between
        the edges), and on graphs in the middle of the widest angle left free by the edges and the name."""
        x, y = self.xs[node], self.ys[node]
        if self.board.rows:
            angle = math.pi / 4 if self.board.max_degree == 4 else math.pi / 2
        else:
            centre_x, centre_y = (max(self.xs) + min(self.xs)) / 2, (max(self.ys) + min(self.ys)) / 2
            taken = [math.atan2(self.ys[other] - y, self.xs[other] - x) for other in self.board.adjacency[node]]
            angle = widest_gap([*taken, math.atan2(y - centre_y, x - centre_x)])
        return round(x + RADIUS * math.cos(angle)), round(y + RADIUS * math.sin(angle))

    def arrowhead(self, origin: int, target: int) -> list[tuple[float, float]]:
        """A triangle on the half of edge ``origin``-``target`` next to ``target``, pointing at it (corners rounded to
        0.1 px: :func:`boardenvs.svg.number` writes a float a hair off an integer as ``"217."``)."""
        x0, y0, x1, y1 = self.xs[origin], self.ys[origin], self.xs[target], self.ys[target]
        length = math.hypot(x1 - x0, y1 - y0)
        ux, uy = (x1 - x0) / length, (y1 - y0) / length
        tip_x, tip_y = x1 - ux * (RADIUS + 3), y1 - uy * (RADIUS + 3)
        depth = min(ARROW_MAX, max(ARROW_MIN, length / 2 - RADIUS - 5))
        base_x, base_y = tip_x - ux * depth, tip_y - uy * depth
        wx, wy = -uy * ARROW_HALF_WIDTH, ux * ARROW_HALF_WIDTH
        points = [(tip_x, tip_y), (base_x + wx, base_y + wy), (base_x - wx, base_y - wy)]
        return [(round(x, 1), round(y, 1)) for x, y in points]


@lru_cache(maxsize=32)
def layout_for(config: NodeConquestConfig) -> Layout:
    """The (cached) layout of a config's map."""
    return Layout(config)


def lattice_positions(board: Board) -> tuple[list[float], list[float]]:
    """Disc centres of a grid or hex map (hex: odd rows half a step right, rows closer together)."""
    hexes = board.max_degree == 6
    row_step = STEP * math.sqrt(3) / 2 if hexes else STEP
    rows, cols = board.cell_rows.tolist(), board.cell_cols.tolist()
    left, top = MARGIN + RADIUS, MARGIN / 2 + 8 + RADIUS
    xs = [round(left + col * STEP + (STEP / 2 if hexes and row % 2 else 0)) for row, col in zip(rows, cols)]
    ys = [round(top + row * row_step) for row in rows]
    return xs, ys


def widest_gap(angles: list[float]) -> float:
    """The direction (radians) in the middle of the widest angle between the directions ``angles``."""
    ordered = sorted(angle % (2 * math.pi) for angle in angles)
    gaps = [(ordered[(k + 1) % len(ordered)] - angle) % (2 * math.pi) or 2 * math.pi for k, angle in enumerate(ordered)]
    widest = max(range(len(gaps)), key=gaps.__getitem__)
    return ordered[widest] + gaps[widest] / 2


def graph_positions(nodes: int) -> tuple[list[float], list[float]]:
    """Disc centres of a graph on a circle, node 0 at the top and the others clockwise, neighbours on the circle
    about ``STEP`` apart."""
    radius = max(150.0, nodes * STEP / (2 * math.pi))
    centre = radius + RADIUS + MARGIN
    angles = [2 * math.pi * node / nodes - math.pi / 2 for node in range(nodes)]
    xs = [round(centre + radius * math.cos(angle)) for angle in angles]
    return xs, [round(centre + radius * math.sin(angle)) for angle in angles]


def status_text(state: NodeConquestState, max_plies: int) -> str:
    """Whose turn it is, or the result, and the ply: ``"red (player 0) to move, ply 12 of 200"``."""
    ply = f"ply {state.ply} of {max_plies}"
    if state.current_player != TERMINAL:
        return f"{player_name(state.current_player)} to move, {ply}"
    how = "at the ply cap" if state.truncated else "by elimination"
    if not state.winners:
        return f"draw {how}, {ply}"
    names = " and ".join(player_name(player) for player in state.winners)
    return f"{names} {'win' if len(state.winners) > 1 else 'wins'} {how}, {ply}"


def player_name(player: int) -> str:
    """``"red (player 0)"``."""
    return f"{PLAYER_NAMES[player]} (player {player})"


def plural(count: int, noun: str) -> str:
    """``"1 node"``, ``"3 nodes"``."""
    return f"{count} {noun}{'' if count == 1 else 's'}"


def growth_text(config: NodeConquestConfig, layout: Layout) -> str:
    """How the owned nodes grow: the one rate, or a pointer to the badges."""
    when = "after every ply" if config.growth_timing == "every_ply" else "after its owner's move"
    rate = "its +rate" if layout.badges else f"+{layout.growth[0]}"
    return f"growth: each owned node gains {rate} {when} (neutral nodes never grow)"


def node_conquest_svg(config: NodeConquestConfig, state: NodeConquestState, seat: int | None = None,
                      mask: np.ndarray | None = None) -> str:  # fmt: skip
    """The position drawn as an SVG document.

    Args:
        config: The game's config (``game.config``): the map and the rates.
        state: The position.
        seat: The seat viewing (its panel line says "(you)"), or ``None`` for a spectator.
        mask: The legal actions of the player to move (``bool[num_actions]``), drawn as click targets, or
            ``None`` for none.

    Returns:
        The ``<svg>`` markup.
    """
    layout = layout_for(config)
    title = f"Node Conquest: {status_text(state, config.max_plies)}"
    canvas = SvgCanvas(layout.width, layout.height, "node_conquest", title)
    canvas.raw(layout.background)
    owners, units = state.owner.tolist(), state.units.tolist()
    _draw_nodes(canvas, layout, owners, units)
    if mask is not None and state.current_player != TERMINAL:
        _draw_targets(canvas, layout, mask)
    _draw_panel(canvas, layout, config, state, seat)
    return canvas.markup()


def _draw_nodes(canvas: SvgCanvas, layout: Layout, owners: list[int], units: list[int]) -> None:
    """Each node's disc in its owner's colour with its unit count (and its growth badge where rates differ)."""
    heads, badges = layout.node_heads, layout.badge_markup
    for node, owner in enumerate(owners):
        count = units[node]
        key = (node, owner, count >= 1000)
        head = heads.get(key) or layout.node_head(*key)
        canvas.raw(f"{head}{count}</text>{badges[node]}")


def _draw_targets(canvas: SvgCanvas, layout: Layout, mask: np.ndarray) -> None:
    """One arrowhead target per legal move (PASS, the last id where it exists, has none)."""
    arrows = layout.arrows
    for action in np.flatnonzero(mask).tolist():
        markup = arrows.get(action)
        if markup is not None:
            canvas.raw(markup)


def _draw_panel(canvas: SvgCanvas, layout: Layout, config: NodeConquestConfig, state: NodeConquestState,
                seat: int | None) -> None:  # fmt: skip
    """The status line, each player's nodes and units, then how nodes grow."""
    x, y = 16, layout.map_bottom + LINE / 2
    canvas.text(x, y, status_text(state, config.max_plies), size=15, anchor="start", weight="bold")
    owners = state.owner
    nodes = np.bincount(owners[owners >= 0], minlength=config.num_players).tolist()
    totals = np.bincount(owners[owners >= 0], weights=state.units[owners >= 0], minlength=config.num_players)
    for player, total in enumerate(totals.tolist()):
        y += LINE
        canvas.circle(x + 7, y, 7, fill=PLAYER_COLOURS[player], stroke="#333", stroke_width=1)
        canvas.text(x + 20, y, _player_line(state, player, seat, nodes[player], int(total)), size=13,
                    anchor="start", weight="bold" if player == state.current_player else None,
                    data_player=player)  # fmt: skip
    canvas.text(x, y + LINE, growth_text(config, layout), size=12, anchor="start", fill="#555")


def _player_line(state: NodeConquestState, player: int, seat: int | None, nodes: int, units: int) -> str:
    """``"red (player 0) (you): 7 nodes, 85 units  ◀ to move"``."""
    you = " (you)" if player == seat else ""
    line = f"{player_name(player)}{you}: {plural(nodes, 'node')}, {plural(units, 'unit')}"
    if player == state.current_player:
        line += "  \u25c0 to move"
    elif player in state.winners:
        line += "  \u2605 winner"
    elif not state.alive[player]:
        line += "  (eliminated)"
    return line
