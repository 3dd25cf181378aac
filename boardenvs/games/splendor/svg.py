"""An SVG picture of a Splendor position (``Splendor.render_svg``), drawn with :class:`boardenvs.svg.SvgCanvas`.

**Layout.** A status bar on top (move number, who acts and which sub-decision: the main action, returning tokens,
choosing a noble or paying with gold; the final round; the result at the end). Below it, on the left, the nobles
(prestige points, and the bonuses each requires as numbers on small card-shaped squares), then the three levels,
level 3 first: each row starts with its deck (a card back in the level's colour with the number of cards left)
followed by the face-up cards. A card shows its bonus colour as its top band with a gem, its prestige points in
the band (none when 0), its cost as numbers on gem-coloured circles and its level (I, II, III) bottom right. To
the right of the cards, the token supply: one gem per colour, gold last, with the count inside and the notation
letter beside it. On the right, one panel per seat: name in the seat colour (``boardenvs.svg.PLAYER_COLOURS``),
prestige points, tokens per colour (circles, gold last), bonuses per colour (squares: cards bought of that
colour), cards bought, nobles won, the start player, and the reserved cards. Circles are always tokens, squares
always card bonuses. The picture has a fixed size per config (:func:`layout_for`).

**Hidden information.** ``seat=None`` (the spectator) sees every card. For ``seat=p`` a card another player
reserved from a deck top (``state.hidden``) is drawn as a card back showing only its level, as ``observe`` and
``text_for`` show it; ``p``'s own face-down reserves are drawn face up (captioned "face down", which every seat
knows). Decks show only their counts, never their order, and the picture reads nothing else that
``determinize`` resamples (nor ``state.events``): for a seat, a state and all its determinizations draw the
same string.

**Click targets** (only with a ``mask``; each a ``<g class="target" data-actions="...">`` labelled with the
actions' notation, holding legal actions only). The board element of each action kind:

* ``buy_face_up`` and ``reserve_face_up`` of slot ``L#c`` -> that face-up card (one target, both actions);
* ``reserve_deck`` of level ``l`` -> the deck of level ``l``;
* ``buy_reserved`` of slot ``r`` -> reserve ``r`` in the panel of the player to move;
* ``noble`` of slot ``k`` (official, when several nobles qualify) -> noble ``k``;
* ``return`` of a resource (official) -> that resource's gem in the supply (gold included);
* a token action that takes tokens of one colour only and gives none back (``take 2 R``; ``take R`` when it is
  the only colour left; Rinascimento's ``take 1 R`` .. ``take 3 R``) -> that colour's gem in the supply;
* ``pay`` (official gold choice) -> the card being paid for (a face-up slot or the buyer's reserve), and
  ``gold for <colour>`` -> that colour's cost circle on that card.

Token actions of several colours, "take none", token patterns with returns (Rinascimento) and ``pass`` have no
single place on the board: the page offers them as buttons only.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

import numpy as np

from boardenvs.core import TERMINAL
from boardenvs.games.splendor import transitions
from boardenvs.games.splendor.cards import LETTERS, NUM_LEVELS, CardTable
from boardenvs.games.splendor.config import SplendorConfig
from boardenvs.games.splendor.legality import paying_card
from boardenvs.games.splendor.notation import slot_name
from boardenvs.games.splendor.state import NOBLE, PAY, RETURN, SplendorState
from boardenvs.games.splendor.tables import (
    BUY_FACE_UP,
    BUY_RESERVED,
    NOBLE_CHOICE,
    PAY_GOLD,
    RESERVE_DECK,
    RESERVE_FACE_UP,
    TAKE_DIFFERENT,
    TAKE_SAME,
    ActionTables,
    tables_for,
)
from boardenvs.games.splendor.tables import PAY as PAY_KIND
from boardenvs.games.splendor.tables import RETURN as RETURN_KIND
from boardenvs.svg import PLAYER_COLOURS, PLAYER_NAMES, SvgCanvas, group_actions

if TYPE_CHECKING:
    from boardenvs.games.splendor.game import Splendor

GEM_FILLS = ("#f4f4f4", "#1f5fd0", "#1e9646", "#d22828", "#2b2b2b", "#e8b923")
"""White, blue, green, red, black, gold."""
GEM_TEXT = ("#222", "#fff", "#fff", "#fff", "#fff", "#222")
GEM_STROKES = ("#888", "#0d3b8c", "#0d5e29", "#8c1414", "#000", "#9c7a0c")
LEVEL_FILLS = ("#3f8f4f", "#c98f12", "#2f5fa8")
NUMERALS = ("I", "II", "III")
SEAT_TEXT = ("#fff", "#fff", "#222", "#fff")
HIGHLIGHT = "#f57f17"
BOARD_FILL, PANEL_FILL, STATUS_FILL = "#f3efe6", "#ffffff", "#37474f"
MARGIN, GAP, STATUS_H, CAPTION_H = 12, 10, 36, 16
CARD_W, CARD_H, BAND = 72, 100, 28
NOBLE_W = 72
COST_R, COST_PITCH = 10, 22
GEM_R, GEM_PITCH, SUPPLY_W = 18, 48, 66
TOKEN_R, TOKEN_PITCH = 13, 32
PANEL_HEADER, RESERVE_TOP, PANEL_H = 28, 62, 170
Place = tuple[str, int]
"""A board element: ``("card", face-up slot)``, ``("deck", level)``, ``("reserve", slot)``, ``("noble", slot)``,
``("gem", resource)``, ``("cost", colour)`` or ``("pay", 0)`` (the card being paid for)."""


# -- geometry -------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Layout:
    """Where everything lies in the picture of one config (SVG units).

    Attributes:
        width, height: the picture's size (fixed per config).
        noble_x, nobles_y: left edge of each noble slot and their top.
        column_x: left edge of the deck column (0) and of each face-up column (1..F).
        level_y: top of each level's row, by level index (level 1 = index 0, drawn lowest).
        supply_x, supply_y: centre column of the supply gems and each gem's centre height (gold last).
        panel_x, panel_y, panel_w: the players' panels (one ``panel_y`` per seat).
    """

    width: float
    height: float
    noble_x: tuple[float, ...]
    nobles_y: float
    column_x: tuple[float, ...]
    level_y: tuple[float, ...]
    supply_x: float
    supply_y: tuple[float, ...]
    panel_x: float
    panel_y: tuple[float, ...]
    panel_w: float

    def reserve_xy(self, seat: int, slot: int) -> tuple[float, float]:
        """Top-left corner of reserve ``slot`` in the panel of ``seat``."""
        return self.panel_x + 24 + 6 * TOKEN_PITCH + slot * (CARD_W + 8), self.panel_y[seat] + RESERVE_TOP


@lru_cache(maxsize=64)
def layout_for(config: SplendorConfig) -> Layout:
    """The :class:`Layout` of ``config``: board on the left, supply in the middle, panels on the right."""
    face_up, nobles, seats = config.face_up, config.nobles, config.num_players
    top = MARGIN + STATUS_H + GAP
    nobles_y = top + CAPTION_H
    board_w = max((1 + face_up) * (CARD_W + GAP), nobles * (NOBLE_W + GAP))
    level_top = nobles_y + NOBLE_W + GAP
    level_y = tuple(level_top + (NUM_LEVELS - 1 - level) * (CARD_H + GAP) for level in range(NUM_LEVELS))
    supply_x = MARGIN + board_w + SUPPLY_W / 2
    panel_x = MARGIN + board_w + SUPPLY_W + GAP
    panel_w = max(300, 24 + 6 * TOKEN_PITCH + config.max_reserved * (CARD_W + 8))
    board_h = CAPTION_H + NOBLE_W + GAP + NUM_LEVELS * (CARD_H + GAP)
    panels_h = seats * (PANEL_H + GAP)
    return Layout(
        width=panel_x + panel_w + MARGIN,
        height=top + max(board_h, panels_h) + MARGIN - GAP,
        noble_x=tuple(MARGIN + k * (NOBLE_W + GAP) for k in range(nobles)),
        nobles_y=nobles_y,
        column_x=tuple(MARGIN + column * (CARD_W + GAP) for column in range(face_up + 1)),
        level_y=level_y,
        supply_x=supply_x,
        supply_y=tuple(level_top + 22 + GEM_R + k * GEM_PITCH for k in range(6)),
        panel_x=panel_x,
        panel_y=tuple(top + seat * (PANEL_H + GAP) for seat in range(seats)),
        panel_w=panel_w,
    )


def stack_positions(amounts: Sequence[int], left: float, bottom: float, pitch: float) -> list[tuple[int, float, float]]:
    """``(colour, x, y)`` centres of the non-zero ``amounts``: columns of 3 filled bottom-up, left to right."""
    shown = [colour for colour, amount in enumerate(amounts) if amount]
    return [(colour, left + (k // 3) * pitch, bottom - (k % 3) * pitch) for k, colour in enumerate(shown)]


def cost_positions(cost: Sequence[int]) -> list[tuple[int, float, float]]:
    """Centres of a card's cost circles relative to its top-left corner."""
    return stack_positions(cost, 4 + COST_R, CARD_H - 4 - COST_R, COST_PITCH)


# -- small shapes -------------------------------------------------------------------------------
def draw_gem(canvas: SvgCanvas, cx: float, cy: float, r: float, resource: int, count: object) -> None:
    """A token: a circle in the resource's colour with ``count`` written on it."""
    canvas.circle(cx, cy, r, fill=GEM_FILLS[resource], stroke=GEM_STROKES[resource], stroke_width=1.5)
    canvas.text(cx, cy, count, size=round(r * 0.95), fill=GEM_TEXT[resource], weight="bold")


def draw_bonus(canvas: SvgCanvas, cx: float, cy: float, size: float, colour: int, count: object) -> None:
    """A card bonus (or a noble's requirement): a small card-shaped square in the colour with ``count`` on it."""
    w, h = size, size * 1.2
    canvas.rect(cx - w / 2, cy - h / 2, w, h, fill=GEM_FILLS[colour], stroke=GEM_STROKES[colour], stroke_width=1,
                rx=2)  # fmt: skip
    canvas.text(cx, cy, count, size=round(size * 0.62), fill=GEM_TEXT[colour], weight="bold")


@lru_cache(maxsize=4096)
def gem_markup(resource: int, count: int, r: float) -> str:
    """The fragment of :func:`draw_gem` centred on (0, 0)."""
    return fragment(lambda canvas: draw_gem(canvas, 0, 0, r, resource, count))


@lru_cache(maxsize=4096)
def bonus_markup(colour: int, count: int, size: float) -> str:
    """The fragment of :func:`draw_bonus` centred on (0, 0)."""
    return fragment(lambda canvas: draw_bonus(canvas, 0, 0, size, colour, count))


def gem(canvas: SvgCanvas, cx: float, cy: float, r: float, resource: int, count: int) -> None:
    """A token centred on (``cx``, ``cy``) (drawn once per resource, count and size, then placed)."""
    place(canvas, cx, cy, gem_markup(resource, count, r))


def bonus_square(canvas: SvgCanvas, cx: float, cy: float, size: float, colour: int, count: int) -> None:
    """A bonus square centred on (``cx``, ``cy``) (drawn once per colour, count and size, then placed)."""
    place(canvas, cx, cy, bonus_markup(colour, count, size))


def fragment(draw: Callable[[SvgCanvas], None]) -> str:
    """The markup ``draw`` writes on a canvas, without the ``<svg>`` root (to place it with a ``translate``)."""
    canvas = SvgCanvas(1, 1, "splendor", background=None)
    draw(canvas)
    return canvas.fragment()


def place(canvas: SvgCanvas, x: float, y: float, markup: str) -> None:
    """A ready-made fragment with its origin moved to (``x``, ``y``)."""
    canvas.raw(f'<g transform="translate({x:g},{y:g})">{markup}</g>')


# -- card, noble and back faces (drawn once per config and id) ----------------------------------
def draw_card_face(canvas: SvgCanvas, cards: CardTable, card: int) -> None:
    """A card at (0, 0): bonus-coloured band with a gem and the points, cost circles, level numeral."""
    bonus, points = int(cards.bonus[card]), int(cards.points[card])
    canvas.rect(0, 0, CARD_W, CARD_H, fill="#fffdf6", stroke="#7a7a7a", stroke_width=1, rx=7)
    canvas.rect(0, 0, CARD_W, BAND, fill=GEM_FILLS[bonus], rx=7)
    canvas.rect(0, BAND / 2, CARD_W, BAND / 2, fill=GEM_FILLS[bonus])
    canvas.line(0, BAND, CARD_W, BAND, stroke=GEM_STROKES[bonus], stroke_width=1)
    if points:
        canvas.text(13, BAND / 2 + 1, points, size=20, fill=GEM_TEXT[bonus], weight="bold")
    cx, cy = CARD_W - 15, BAND / 2
    diamond = ((cx, cy - 10), (cx + 9, cy - 3), (cx + 5, cy + 9), (cx - 5, cy + 9), (cx - 9, cy - 3))
    canvas.polygon(diamond, fill=GEM_FILLS[bonus], stroke=GEM_TEXT[bonus], stroke_width=1.5)
    cost = cards.cost[card].tolist()
    for colour, x, y in cost_positions(cost):
        draw_gem(canvas, x, y, COST_R, colour, cost[colour])
    canvas.text(CARD_W - 8, CARD_H - 10, NUMERALS[int(cards.level[card]) - 1], size=10, fill="#777", anchor="end",
                weight="bold")  # fmt: skip


def draw_back(canvas: SvgCanvas, level: int, caption: str) -> None:
    """A card back of ``level`` (0-based) at (0, 0): the level's colour, ``L<level>`` and a caption."""
    canvas.rect(0, 0, CARD_W, CARD_H, fill=LEVEL_FILLS[level], stroke="#333", stroke_width=1, rx=7)
    canvas.rect(5, 5, CARD_W - 10, CARD_H - 10, fill="none", stroke="#fff", stroke_width=1, rx=5, opacity=0.6)
    canvas.text(CARD_W / 2, CARD_H / 2 - 10, f"L{level + 1}", size=22, fill="#fff", weight="bold")
    canvas.text(CARD_W / 2, CARD_H / 2 + 14, caption, size=11, fill="#fff")


def draw_noble(canvas: SvgCanvas, cards: CardTable, noble: int) -> None:
    """A noble at (0, 0): its points top left, the bonuses it requires as numbered squares."""
    canvas.rect(0, 0, NOBLE_W, NOBLE_W, fill="#efe0c2", stroke="#9c7a4c", stroke_width=1.5, rx=6)
    canvas.text(14, 16, int(cards.noble_points[noble]), size=20, fill="#5d4037", weight="bold")
    requirement = cards.noble_req[noble].tolist()
    positions = stack_positions(requirement, 0, NOBLE_W - 15, 22)
    columns = (len(positions) + 2) // 3
    for colour, x, y in positions:
        draw_bonus(canvas, x + NOBLE_W - 14 - (columns - 1) * 22, y, 18, colour, requirement[colour])


class Art:
    """The fragments of one config's cards, backs and nobles, each drawn on first use and kept."""

    def __init__(self, cards: CardTable) -> None:
        self.cards = cards
        self._faces: dict[int, str] = {}
        self._nobles: dict[int, str] = {}
        self.cost_xy = [cost_positions(row) for row in cards.cost[:-1].tolist()]
        self.level = cards.level.tolist()

    def face(self, card: int) -> str:
        """The face of ``card``."""
        markup = self._faces.get(card)
        if markup is None:
            markup = self._faces[card] = fragment(lambda canvas: draw_card_face(canvas, self.cards, card))
        return markup

    def noble(self, noble: int) -> str:
        """The tile of ``noble``."""
        markup = self._nobles.get(noble)
        if markup is None:
            markup = self._nobles[noble] = fragment(lambda canvas: draw_noble(canvas, self.cards, noble))
        return markup

    @staticmethod
    def back(level: int, caption: str) -> str:
        """A card back of ``level`` (0-based) with ``caption``."""
        return card_back(level, caption)


@lru_cache(maxsize=1024)
def card_back(level: int, caption: str) -> str:
    """The fragment of a card back of ``level`` (0-based) with ``caption`` (the same in every config)."""
    return fragment(lambda canvas: draw_back(canvas, level, caption))


@lru_cache(maxsize=64)
def art_for(config: SplendorConfig) -> Art:
    """The :class:`Art` of ``config``'s card table."""
    return Art(tables_for(config).cards)


# -- targets --------------------------------------------------------------------------------------
def _token_place(tables: ActionTables, index: int) -> Place | None:
    """The supply gem of a token action that takes one colour only and gives nothing back, else ``None``."""
    take = tables.take[index].tolist()
    colours = [colour for colour, amount in enumerate(take) if amount]
    if len(colours) == 1 and not tables.give[index].any():
        return "gem", colours[0]
    return None


@lru_cache(maxsize=64)
def places_for(config: SplendorConfig) -> tuple[Place | None, ...]:
    """The board element of every action id (module docstring), ``None`` for those left to buttons."""
    tables = tables_for(config)
    by_kind: dict[int, Callable[[int], Place | None]] = {
        RESERVE_FACE_UP: lambda arg: ("card", arg), BUY_FACE_UP: lambda arg: ("card", arg),
        RESERVE_DECK: lambda arg: ("deck", arg), BUY_RESERVED: lambda arg: ("reserve", arg),
        NOBLE_CHOICE: lambda arg: ("noble", arg), RETURN_KIND: lambda arg: ("gem", arg),
        PAY_GOLD: lambda arg: ("cost", arg), PAY_KIND: lambda arg: ("pay", 0),
    }  # fmt: skip
    places: list[Place | None] = []
    for kind, arg in zip(tables.kind.tolist(), tables.arg.tolist()):
        if kind in (TAKE_DIFFERENT, TAKE_SAME):
            places.append(_token_place(tables, len(places)))
        else:
            places.append(by_kind[kind](arg) if kind in by_kind else None)
    return tuple(places)


@dataclass(frozen=True)
class Targets:
    """The legal actions of the position grouped by board element, with their notation."""

    actions: dict[Place, list[int]]
    describe: Callable[[int], str]

    def open(self, canvas: SvgCanvas, element: Place) -> bool:
        """Open ``element``'s target group if it has one (close it with :func:`close_card_target` or
        :func:`close_gem_target`); ``True`` if opened."""
        actions = self.actions.get(element)
        if not actions:
            return False
        canvas.begin_target(actions, " | ".join(self.describe(action) for action in actions))
        return True


def close_card_target(canvas: SvgCanvas, x: float, y: float) -> None:
    """Frame the card at (``x``, ``y``) as a target and close its group."""
    canvas.rect(x - 3, y - 3, CARD_W + 6, CARD_H + 6, stroke=HIGHLIGHT, stroke_width=3, rx=9)
    canvas.end_group()


def close_gem_target(canvas: SvgCanvas, cx: float, cy: float, r: float) -> None:
    """Ring the gem at (``cx``, ``cy``) as a target and close its group."""
    canvas.circle(cx, cy, r + 3, stroke=HIGHLIGHT, stroke_width=3)
    canvas.end_group()


# -- the scene ----------------------------------------------------------------------------------
@dataclass(frozen=True)
class Scene:
    """Everything one drawing reads: the game, the position, the viewer and the targets."""

    game: Splendor
    state: SplendorState
    seat: int | None
    targets: Targets
    layout: Layout
    art: Art
    winners: tuple[int, ...]

    def sees(self, player: int, face_down: bool) -> bool:
        """Whether the viewer sees the face of ``player``'s reserve (``face_down``: taken from a deck top)."""
        return not face_down or self.seat is None or self.seat == player


def paying_place(config: SplendorConfig, state: SplendorState) -> Place:
    """Where the card being paid for lies: a face-up slot or the buyer's reserve slot."""
    slots = NUM_LEVELS * config.face_up
    return ("card", state.paying) if state.paying < slots else ("reserve", state.paying - slots)


def targets_of(game: Splendor, state: SplendorState, mask: np.ndarray | None) -> Targets:
    """The :class:`Targets` of ``mask`` (none without one); ``pay`` goes on the card being paid for."""
    if mask is None or state.current_player == TERMINAL:
        return Targets({}, str)
    places = places_for(game.config)
    legal = np.flatnonzero(mask).tolist()
    grouped = group_actions((places[action], action) for action in legal if places[action] is not None)
    if ("pay", 0) in grouped:
        grouped[paying_place(game.config, state)] = grouped.pop(("pay", 0))
    return Targets(grouped, lambda action: game.action_to_str(state, action))


def scene_of(game: Splendor, state: SplendorState, seat: int | None, mask: np.ndarray | None) -> Scene:
    """The :class:`Scene` of one drawing."""
    winners = tuple(transitions.winners(state)) if state.current_player == TERMINAL else ()
    targets = targets_of(game, state, mask)
    return Scene(game, state, seat, targets, layout_for(game.config), art_for(game.config), winners)


def plural(count: int, noun: str) -> str:
    """``"1 point"``, ``"2 points"``."""
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def seat_name(player: int) -> str:
    """``"P0 red"``: a seat as the notation numbers it, with its colour."""
    return f"P{player} {PLAYER_NAMES[player]}"


# -- the status bar -------------------------------------------------------------------------------
def result_text(scene: Scene) -> str:
    """The outcome of a finished game: the winner(s) and their points, and why it ended early."""
    state, winners = scene.state, scene.winners
    points = state.players[:, 11].tolist()
    if len(winners) == len(points):
        text = f"Game over: a draw, everyone has {points[0]} points"
    elif len(winners) == 1:
        text = f"Game over: {seat_name(winners[0])} wins with {points[winners[0]]} points"
    else:
        names = " and ".join(seat_name(player) for player in winners)
        text = f"Game over: {names} share the win with {points[winners[0]]} points"
    if state.truncated:
        text += " (stopped at the move cap)"
    elif state.passes >= len(points):
        text += " (every player passed)"
    return text


def phase_text(scene: Scene) -> str:
    """What the player to move decides now: the main action or one of the official sub-decisions."""
    config, state = scene.game.config, scene.state
    player = state.current_player
    if state.phase == RETURN:
        held = sum(state.players[player].tolist()[:6])
        return f"returns tokens: holds {held}, keeps {config.max_tokens} (click a supply gem)"
    if state.phase == NOBLE:
        return "chooses one of the nobles who visit"
    if state.phase == PAY:
        kind, slot = paying_place(config, state)
        name = slot_name(config, slot) if kind == "card" else f"reserved {slot + 1}"
        plan = " ".join(f"{LETTERS[c]}{v}" for c, v in enumerate(state.gold_plan) if v) or "none yet"
        return f"pays for {name}: gold in place of gems? (gold so far: {plan})"
    return "takes tokens, buys or reserves a card"


def status_text(scene: Scene) -> str:
    """The status line: the move, who acts and how, the final round, or the result."""
    state = scene.state
    if state.current_player == TERMINAL:
        return result_text(scene)
    text = f"Move {state.ply + 1}: {seat_name(state.current_player)} {phase_text(scene)}"
    if state.end_triggered:
        text += f" - final round, ends before {seat_name(state.first_player)} plays again"
    return text


def draw_status(canvas: SvgCanvas, scene: Scene, text: str) -> None:
    """The status bar across the top, with the rules and the viewer on its right."""
    config, width = scene.game.config, scene.layout.width
    canvas.rect(MARGIN, MARGIN, width - 2 * MARGIN, STATUS_H, fill=STATUS_FILL, rx=6)
    player = scene.state.current_player
    if player != TERMINAL:
        canvas.circle(MARGIN + 18, MARGIN + STATUS_H / 2, 8, fill=PLAYER_COLOURS[player], stroke="#fff")
    canvas.text(MARGIN + 34, MARGIN + STATUS_H / 2, text, size=14, fill="#fff", anchor="start", weight="bold")
    rules_name = "Rinascimento" if config.rinascimento else "official rules"
    viewer = "spectator" if scene.seat is None else f"seen by {seat_name(scene.seat)}"
    canvas.text(width - MARGIN - 10, MARGIN + STATUS_H / 2, f"{rules_name}, {config.points_to_end} to win - {viewer}",
                size=11, fill="#cfd8dc", anchor="end")  # fmt: skip


# -- the board ------------------------------------------------------------------------------------
def draw_card_at(canvas: SvgCanvas, targets: Targets, element: Place | None, x: float, y: float,
                 markup: str) -> None:  # fmt: skip
    """A card (or back) fragment at (``x``, ``y``), inside ``element``'s target when it has one."""
    opened = element is not None and targets.open(canvas, element)
    place(canvas, x, y, markup)
    if opened:
        close_card_target(canvas, x, y)


def empty_slot(canvas: SvgCanvas, x: float, y: float, width: float, height: float, caption: str = "") -> None:
    """A dashed outline where a card or noble is missing."""
    canvas.rect(x, y, width, height, stroke="#b0a48c", stroke_width=1.5, rx=7, stroke_dasharray="5 4")
    if caption:
        canvas.text(x + width / 2, y + height / 2, caption, size=11, fill="#8d8370")


def draw_nobles(canvas: SvgCanvas, scene: Scene) -> None:
    """The nobles row, a dashed slot for each noble already taken."""
    y, targets = scene.layout.nobles_y, scene.targets
    canvas.text(MARGIN, y - CAPTION_H / 2 - 2, "Nobles: points, and the card bonuses each requires", size=11,
                fill="#5d4037", anchor="start", weight="bold")  # fmt: skip
    for slot, noble in enumerate(scene.state.nobles.tolist()):
        x = scene.layout.noble_x[slot]
        if noble < 0:
            empty_slot(canvas, x, y, NOBLE_W, NOBLE_W, "taken")
            continue
        opened = targets.open(canvas, ("noble", slot))
        place(canvas, x, y, scene.art.noble(noble))
        if opened:
            canvas.rect(x - 3, y - 3, NOBLE_W + 6, NOBLE_W + 6, stroke=HIGHLIGHT, stroke_width=3, rx=8)
            canvas.end_group()


def draw_levels(canvas: SvgCanvas, scene: Scene) -> None:
    """Each level's deck (cards left) and its face-up cards, level 3 on top."""
    layout, art, targets, face_up = scene.layout, scene.art, scene.targets, scene.game.config.face_up
    left = [size - top for size, top in zip(scene.game.tables.deck_size_list, scene.state.top.tolist())]
    for level, row in enumerate(scene.state.face_up.tolist()):
        y, x = layout.level_y[level], layout.column_x[0]
        if left[level]:
            draw_card_at(canvas, targets, ("deck", level), x, y, art.back(level, f"{left[level]} left"))
        else:
            empty_slot(canvas, x, y, CARD_W, CARD_H, f"L{level + 1} empty")
        for column, card in enumerate(row):
            x = layout.column_x[column + 1]
            if card < 0:
                empty_slot(canvas, x, y, CARD_W, CARD_H)
            else:
                draw_card_at(canvas, targets, ("card", level * face_up + column), x, y, art.face(card))


def draw_supply(canvas: SvgCanvas, scene: Scene) -> None:
    """The supply: one gem per resource (gold last) with its count and notation letter."""
    x, ys = scene.layout.supply_x, scene.layout.supply_y
    canvas.text(x, ys[0] - GEM_R - 14, "Supply", size=13, fill="#37474f", weight="bold")
    for resource, count in enumerate(scene.state.supply.tolist()):
        opened = scene.targets.open(canvas, ("gem", resource))
        gem(canvas, x + 6, ys[resource], GEM_R, resource, count)
        if opened:
            close_gem_target(canvas, x + 6, ys[resource], GEM_R)
        canvas.text(x - GEM_R - 6, ys[resource], LETTERS[resource], size=11, fill="#555", weight="bold")


def draw_payment(canvas: SvgCanvas, scene: Scene) -> None:
    """In the official gold choice: a frame in the buyer's colour around the card being paid for, and a target
    on each cost circle that gold may pay."""
    state = scene.state
    if state.phase != PAY or state.current_player == TERMINAL:
        return
    kind, slot = paying_place(scene.game.config, state)
    if kind == "card":
        level, column = divmod(slot, scene.game.config.face_up)
        x, y = scene.layout.column_x[column + 1], scene.layout.level_y[level]
    else:
        x, y = scene.layout.reserve_xy(state.current_player, slot)
    canvas.rect(x - 6, y - 6, CARD_W + 12, CARD_H + 12, stroke=PLAYER_COLOURS[state.current_player], stroke_width=3,
                rx=11, stroke_dasharray="6 3")  # fmt: skip
    card = paying_card(scene.game.config, state)
    cost = scene.art.cost_xy[card]
    amounts = scene.game.tables.costs[card]
    for colour, dx, dy in cost:
        if scene.targets.open(canvas, ("cost", colour)):
            gem(canvas, x + dx, y + dy, COST_R, colour, amounts[colour])
            close_gem_target(canvas, x + dx, y + dy, COST_R)


# -- the players' panels ----------------------------------------------------------------------------
def draw_panel_header(canvas: SvgCanvas, scene: Scene, player: int, x: float, y: float) -> None:
    """The seat's name in its colour, its points, and tags: to move, you, winner."""
    width, row = scene.layout.panel_w, scene.state.players[player].tolist()
    colour, ink = PLAYER_COLOURS[player], SEAT_TEXT[player]
    canvas.rect(x, y, width, PANEL_HEADER, fill=colour, rx=8)
    canvas.rect(x, y + PANEL_HEADER / 2, width, PANEL_HEADER / 2, fill=colour)
    name = seat_name(player) + (" (you)" if scene.seat == player else "")
    canvas.text(x + 12, y + PANEL_HEADER / 2, name, size=14, fill=ink, anchor="start", weight="bold")
    points = plural(row[11], "point")
    canvas.text(x + width - 12, y + PANEL_HEADER / 2, points, size=15, fill=ink, anchor="end", weight="bold")
    tag = "WINNER" if player in scene.winners else "TO MOVE" if player == scene.state.current_player else ""
    if tag:
        canvas.rect(x + width - 170, y + 5, 66, PANEL_HEADER - 10, fill="#fff", rx=9)
        canvas.text(x + width - 137, y + PANEL_HEADER / 2, tag, size=10, fill="#222", weight="bold")


def draw_holdings(canvas: SvgCanvas, scene: Scene, player: int, x: float, y: float) -> None:
    """Tokens per resource (circles, gold last), bonuses per colour (squares), cards, nobles, start player."""
    row, config = scene.state.players[player].tolist(), scene.game.config
    caption = {"size": 10, "fill": "#555", "anchor": "start"}
    canvas.text(x + 14, y + 40, f"tokens {sum(row[:6])}/{config.max_tokens}", **caption)
    canvas.text(x + 14, y + 88, f"bonuses: {plural(row[12], 'card')} bought", **caption)
    for resource in range(6):
        cx = x + 14 + TOKEN_R + resource * TOKEN_PITCH
        gem(canvas, cx, y + 62, TOKEN_R, resource, row[resource])
        if resource < 5:
            bonus_square(canvas, cx, y + 110, 22, resource, row[6 + resource])
    nobles = f"nobles won: {row[13]}" + (" - start player" if player == scene.state.first_player else "")
    canvas.text(x + 14, y + 146, nobles, size=11, fill="#333", anchor="start")


def draw_reserves(canvas: SvgCanvas, scene: Scene, player: int) -> None:
    """The reserved cards: faces, or card backs (level only) for a face-down reserve the viewer may not see."""
    state, art, layout = scene.state, scene.art, scene.layout
    cards, hidden = state.reserved[player].tolist(), state.hidden[player].tolist()
    if not cards:
        return
    x0, y0 = layout.reserve_xy(player, 0)
    held = len(cards) - cards.count(-1)
    canvas.text(x0, y0 - 22, f"reserved {held}/{len(cards)}", size=10, fill="#555", anchor="start")
    for slot, (card, face_down) in enumerate(zip(cards, hidden)):
        x, y = layout.reserve_xy(player, slot)
        if card < 0:
            empty_slot(canvas, x, y, CARD_W, CARD_H)
            continue
        element = ("reserve", slot) if player == state.current_player else None
        if scene.sees(player, face_down):
            if face_down:
                canvas.text(x + CARD_W / 2, y - 8, "face down", size=10, fill="#6a1b9a", font_style="italic")
            draw_card_at(canvas, scene.targets, element, x, y, art.face(card))
        else:
            draw_card_at(canvas, scene.targets, element, x, y, art.back(art.level[card] - 1, "face down"))


def draw_panel(canvas: SvgCanvas, scene: Scene, player: int) -> None:
    """One seat's panel (thick border for the player to move)."""
    x, y = scene.layout.panel_x, scene.layout.panel_y[player]
    acting = player == scene.state.current_player
    canvas.rect(x, y, scene.layout.panel_w, PANEL_H, fill=PANEL_FILL, stroke=PLAYER_COLOURS[player],
                stroke_width=4 if acting else 1.5, rx=8)  # fmt: skip
    draw_panel_header(canvas, scene, player, x, y)
    draw_holdings(canvas, scene, player, x, y)
    draw_reserves(canvas, scene, player)


# -- the picture ----------------------------------------------------------------------------------
def draw_svg(game: Splendor, state: SplendorState, seat: int | None = None, mask: np.ndarray | None = None) -> str:
    """The SVG document of ``state`` as ``seat`` sees it (``None``: the spectator), with ``mask``'s legal actions
    as click targets (module docstring); arguments as checked by ``Game.render_svg``."""
    scene = scene_of(game, state, seat, mask)
    status = status_text(scene)
    canvas = SvgCanvas(scene.layout.width, scene.layout.height, game.spec.name, title=status, background=BOARD_FILL)
    draw_status(canvas, scene, status)
    draw_nobles(canvas, scene)
    draw_levels(canvas, scene)
    draw_supply(canvas, scene)
    for player in range(game.config.num_players):
        draw_panel(canvas, scene, player)
    draw_payment(canvas, scene)
    return canvas.markup()
