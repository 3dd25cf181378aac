"""The SVG picture of a Gravwell position (``Gravwell.render_svg``).

**Picture.** The header says the round, the turn, the phase and who acts, or the result. The 55 tiles run as a
serpentine of five rows of eleven, from the Singularity (tile 0, dark, top left) to the Warp Gate (tile 54,
purple, bottom right), each numbered; every player's ship is a disc in its seat colour
(:data:`boardenvs.svg.PLAYER_COLOURS`) marked with its seat, the hulks are grey squares marked ``H``. Beside the
track: during the draft, every stack of the round (its face-up card on top, the face-down card behind it;
taken stacks as empty outlines) with the draft order and the pick; after it, the latest reveal in resolution
order (each card with its owner, the cards still to resolve marked and the next one highlighted while its owner
decides on the Emergency Stop) and the cards played so far this round. At the end, the ranking. Below, one row
per player: ship tile, Emergency Stop (a red stop sign while available, grey once used), hand, and this turn's
commit. Cards are coloured by type (fuel yellow, repulsor purple, tractor teal) and show symbol, value and type;
a dot marks a card drafted face up, which everybody knows.

**Hidden information.** The spectator (``seat=None``) sees everything: every hand, face-down stack cards (drawn
face up with a dashed frame), and the cards committed this turn (face up, dashed, also dimmed in the hand). A
seat sees exactly what ``observe``/``text_for`` give it: its own hand and commit; of another player the cards
drafted face up (face up) and the rest of its hand face down, and only *whether* it committed (a face-down
card); face-down stack cards on the table face down (unless ``no_secrets``); never the undealt cards, the decks
of later rounds or the tie orders. So the picture for seat ``p`` is the same string for a state and for every
``determinize(state, p, rng)``.

**Targets** (only with a ``mask``; the actions drawn are those of the mask that are legal for the person looking:
the player to move for the spectator or that seat, or in the commit phase a seat still to commit):

* ``draft s`` (ids ``[0, 3n)``): the open stack ``s``;
* ``play X`` (ids ``[3n, 3n + 26)``): card ``X`` in the player's hand;
* ``stop`` (id ``3n + 26``): the player's Emergency Stop sign; ``go`` (id ``3n + 27``): the GO button beside it.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

from boardenvs.games.gravwell.cards import NORMAL, REPULSOR, SYMBOLS, TYPES, VALUES, bits_to_cards
from boardenvs.games.gravwell.movement import WARP_GATE
from boardenvs.games.gravwell.state import COMMIT, DRAFT, STOP, GravwellState
from boardenvs.games.gravwell.tables import ROUNDS, TURNS
from boardenvs.svg import PLAYER_COLOURS, PLAYER_NAMES, SvgCanvas, number

if TYPE_CHECKING:
    import numpy as np

    from boardenvs.games.gravwell.game import Gravwell

COLUMNS, ROWS, TILE, TILE_GAP, ROW_PITCH = 11, 5, 50, 8, 64
MARGIN, HEADER, SIDE_X, SIDE_WIDTH, ROW_HEIGHT, ROW_GAP = 16, 48, 668, 316, 70, 8
WIDTH = SIDE_X + SIDE_WIDTH + MARGIN
TRACK_BOTTOM = HEADER + ROWS * ROW_PITCH
CARD_W, CARD_H, MINI_W, MINI_H = 34, 46, 22, 30
HAND_X, STOP_X, GO_X, COMMIT_X, LAST_X = 292, 196, 236, 580, 760  # COMMIT_X: after a full hand of six
CARD_FILLS = ("#ffe082", "#ce93d8", "#80cbc4")
"""Card faces by type: fuel (normal) yellow, repulsor purple, tractor teal (the printed colours)."""
TYPE_LABELS = ("fuel", "repulse", "tractor")
SHIP_TEXT = ("#ffffff", "#ffffff", "#3e2723", "#ffffff")
HULK_FILL = "#9e9e9e"
PLACES = ("1st", "2nd", "3rd", "4th")


def tile_corner(tile: int) -> tuple[int, int]:
    """The top-left corner of ``tile``: rows of eleven, left to right then right to left (a serpentine)."""
    row, column = divmod(tile, COLUMNS)
    if row % 2:
        column = COLUMNS - 1 - column
    return MARGIN + column * (TILE + TILE_GAP), HEADER + 8 + row * ROW_PITCH


def row_top(player: int) -> int:
    """The top of ``player``'s row below the track."""
    return TRACK_BOTTOM + 16 + player * (ROW_HEIGHT + ROW_GAP)


def canvas_height(n: int) -> int:
    """The picture's height with ``n`` players (fixed per config)."""
    return row_top(n) + 36


# -- ready-made pieces ------------------------------------------------------------------------------
@functools.cache
def card_face(card: int, width: int = CARD_W, height: int = CARD_H) -> str:
    """The face of ``card`` with its top-left corner at the origin: symbol, value and type on its type's colour."""
    canvas = SvgCanvas(0, 0, "gravwell", background=None)
    canvas.rect(0, 0, width, height, fill=CARD_FILLS[TYPES[card]], stroke="#5d4037", stroke_width=1, rx=4)
    if width < CARD_W:
        canvas.text(width / 2, height * 0.3, SYMBOLS[card], size=10, weight="bold")
        canvas.text(width / 2, height * 0.72, VALUES[card], size=11)
        return canvas.fragment()
    canvas.text(width / 2, 10, SYMBOLS[card], size=12, weight="bold")
    canvas.text(width / 2, 25, VALUES[card], size=16, weight="bold")
    canvas.text(width / 2, 39, TYPE_LABELS[TYPES[card]], size=8, fill="#424242")
    return canvas.fragment()


@functools.cache
def card_back(width: int = CARD_W, height: int = CARD_H) -> str:
    """A face-down card at the origin."""
    canvas = SvgCanvas(0, 0, "gravwell", background=None)
    canvas.rect(0, 0, width, height, fill="#37474f", stroke="#263238", stroke_width=1, rx=4)
    canvas.rect(3, 3, width - 6, height - 6, fill="none", stroke="#78909c", stroke_width=1, rx=3)
    canvas.text(width / 2, height / 2, "?", size=16, fill="#b0bec5", weight="bold")
    return canvas.fragment()


PUBLIC_DOT = '<circle cx="29" cy="5" r="3" fill="#ffffff" stroke="#424242" stroke-width="1"/>'
"""The mark of a card drafted face up (everybody knows it is in that hand)."""
SECRET_FRAME = (
    f'<rect x="-2" y="-2" width="{CARD_W + 4}" height="{CARD_H + 4}" fill="none" stroke="#212121" '
    'stroke-width="1.5" stroke-dasharray="4 3" rx="5"/>'
)
"""The frame of a card that its owner's opponents cannot see (shown to the spectator only)."""


def place(canvas: SvgCanvas, x: float, y: float, markup: str, opacity: float | None = None, marks: str = "") -> None:
    """Draw ready-made ``markup`` (drawn at the origin) with its origin at (``x``, ``y``); ``marks`` are extra
    attributes of the group (see :func:`card_marks`)."""
    fade = f' opacity="{number(opacity)}"' if opacity is not None else ""
    canvas.raw(f'<g transform="translate({number(x)},{number(y)})"{fade}{marks}>{markup}</g>')


def card_marks(zone: str, owner: int, card: int) -> str:
    """The attributes that name a drawn card for the page and the tests: ``class="card"``, its ``data-zone``
    (``hand``, ``commit``, ``stack``, ``last``, ``reveal``, ``played``), its owner (player, stack or -1) and
    ``data-card``: the symbol, or ``?`` for a face-down card."""
    symbol = SYMBOLS[card] if card >= 0 else "?"
    return f' class="card" data-zone="{zone}" data-owner="{owner}" data-card="{symbol}"'


@functools.cache
def track_markup() -> str:
    """The 55 tiles, their numbers and the line through them (the same for every position)."""
    canvas = SvgCanvas(0, 0, "gravwell", background=None)
    centres = [(x + TILE / 2, y + TILE / 2) for x, y in map(tile_corner, range(WARP_GATE + 1))]
    canvas.raw(f'<polyline points="{" ".join(f"{x},{y}" for x, y in centres)}" fill="none" stroke="#cfd8dc" '
               'stroke-width="8" stroke-linejoin="round"/>')  # fmt: skip
    for tile in range(WARP_GATE + 1):
        x, y = tile_corner(tile)
        fill, ink = {0: ("#263238", "#ffffff"), WARP_GATE: ("#6a1b9a", "#ffffff")}.get(tile, ("#eceff1", "#78909c"))
        canvas.rect(x, y, TILE, TILE, fill=fill, stroke="#90a4ae", stroke_width=1, rx=5)
        canvas.text(x + 4, y + 8, tile, size=9, fill=ink, anchor="start")
    x, y = tile_corner(0)
    canvas.text(x + TILE / 2, y + TILE + 6, "Singularity", size=9, fill="#263238")
    x, y = tile_corner(WARP_GATE)
    canvas.text(x + TILE / 2, y + TILE + 6, "Warp Gate", size=9, fill="#6a1b9a", weight="bold")
    return canvas.fragment()


@functools.cache
def ship_slots(count: int) -> tuple[float, tuple[tuple[float, float], ...]]:
    """The radius and the centres (relative to a tile's corner) of ``count`` ships sharing a tile."""
    if count == 1:
        return 15, ((TILE / 2, TILE / 2 + 3),)
    columns = 2 if count <= 4 else 3
    step = TILE / (columns + 0.5)
    rows = -(-count // columns)
    top = TILE / 2 + 4 - (rows - 1) * 7
    centres = tuple((step * (0.75 + k % columns), top + 14 * (k // columns)) for k in range(count))
    return (9 if count <= 4 else 7), centres


def player_label(player: int) -> str:
    """``"P1 (blue)"``: the player's seat as the texts write it, and its colour."""
    return f"P{player} ({PLAYER_NAMES[player]})"


# -- the picture --------------------------------------------------------------------------------
def draw_state(game: Gravwell, state: GravwellState, seat: int | None, mask: np.ndarray | None) -> str:
    """The SVG picture of ``state`` as ``seat`` sees it (``None``: the spectator, everything), with the legal
    actions of ``mask`` drawn as click targets (see the module docstring)."""
    n = game.n
    status = _status(game, state)
    canvas = SvgCanvas(WIDTH, canvas_height(n), "gravwell", status)
    canvas.text(MARGIN, HEADER / 2, status, size=17, anchor="start", weight="bold")
    canvas.raw(track_markup())
    _draw_ships(canvas, state.pos, n)
    if state.phase == DRAFT and state.current_player >= 0:
        _draw_draft(canvas, game, state, seat)
    else:
        _draw_turn(canvas, game, state)
    for player in range(n):
        _draw_player(canvas, game, state, player, seat)
    _legend(canvas, game, seat, canvas_height(n) - 18)
    if mask is not None:
        _draw_targets(canvas, game, state, seat, mask)
    return canvas.markup()


def _status(game: Gravwell, state: GravwellState) -> str:
    """The header: round, turn, phase and who acts; or the result."""
    player = state.current_player
    if player < 0:
        return "Game over: " + _result(game, state)
    clock = f"Round {state.round + 1}/{ROUNDS}"
    if state.phase == DRAFT:
        return f"{clock} \u00b7 draft: {player_label(player)} takes a stack ({state.picks + 1} of {game.num_stacks})"
    clock += f" \u00b7 turn {state.turn + 1}/{TURNS}"
    if state.phase == COMMIT:
        return f"{clock} \u00b7 {player_label(player)} chooses a card in secret"
    return f"{clock} \u00b7 {player_label(player)}: Emergency Stop or go?"


def _result(game: Gravwell, state: GravwellState) -> str:
    """Who won: the escaped player, else the ship(s) nearest the Warp Gate."""
    if state.winner >= 0:
        return f"{player_label(state.winner)} escaped through the Warp Gate"
    leaders = game.leaders(state)
    cap = " (move cap)" if state.truncated else ""
    names = " and ".join(player_label(p) for p in leaders)
    return f"{names} nearest the Warp Gate, tile {state.pos[leaders[0]]}{cap}"


def _draw_ships(canvas: SvgCanvas, pos: list[int], n: int) -> None:
    """Every ship on its tile: players as seat-coloured discs, hulks as grey squares."""
    on_tile: dict[int, list[int]] = {}
    for ship, tile in enumerate(pos):
        on_tile.setdefault(tile, []).append(ship)
    for tile, ships in on_tile.items():
        x, y = tile_corner(tile)
        radius, centres = ship_slots(len(ships))
        for ship, (dx, dy) in zip(ships, centres):
            _ship(canvas, x + dx, y + dy, radius, ship, n)


def _ship(canvas: SvgCanvas, cx: float, cy: float, radius: float, ship: int, n: int, css: str = "ship") -> None:
    """One ship: player ``ship`` (< ``n``) or a hulk; ``css`` is the class of a player's disc (``ship`` on the
    track)."""
    size = number(radius * (1.05 if radius > 10 else 1.2))
    if ship < n:
        canvas.raw(f'<circle cx="{number(cx)}" cy="{number(cy)}" r="{number(radius)}" fill="{PLAYER_COLOURS[ship]}" '
                   f'stroke="#ffffff" stroke-width="2" class="{css}" data-player="{ship}"/>'
                   f'<text x="{number(cx)}" y="{number(cy)}" font-size="{size}" fill="{SHIP_TEXT[ship]}" '
                   f'text-anchor="middle" dominant-baseline="central" font-weight="bold">{ship}</text>')  # fmt: skip
        return
    side = radius * 1.8
    canvas.raw(f'<rect x="{number(cx - side / 2)}" y="{number(cy - side / 2)}" width="{number(side)}" '
               f'height="{number(side)}" fill="{HULK_FILL}" stroke="#616161" stroke-width="1.5" rx="2" class="hulk"/>'
               f'<text x="{number(cx)}" y="{number(cy)}" font-size="{size}" fill="#212121" text-anchor="middle" '
               f'dominant-baseline="central" font-weight="bold">H</text>')  # fmt: skip


# -- beside the track: the draft, the turn, the result ----------------------------------------------
def stack_corner(stack: int) -> tuple[int, int]:
    """The top-left corner of draft stack ``stack`` (four to a row)."""
    row, column = divmod(stack, 4)
    return SIDE_X + column * 80, HEADER + 46 + row * 78


def _draw_draft(canvas: SvgCanvas, game: Gravwell, state: GravwellState, seat: int | None) -> None:
    """The round's stacks (taken ones as outlines), the draft order and whose pick it is."""
    canvas.text(SIDE_X, HEADER + 10, f"Draft, round {state.round + 1}: take one stack", size=14, anchor="start",
                weight="bold")  # fmt: skip
    passes = f"order, pass {state.picks // game.n + 1} of 3:"
    canvas.text(SIDE_X, HEADER + 32, passes, size=12, anchor="start", fill="#555")
    for k, player in enumerate(state.order):
        mover = player == state.current_player
        canvas.text(SIDE_X + 130 + k * 36, HEADER + 32, f"P{player}", size=14 if mover else 12, anchor="start",
                    fill=PLAYER_COLOURS[player], weight="bold" if mover else None)  # fmt: skip
    for stack in range(game.num_stacks):
        _draw_stack(canvas, game, state, stack, seat)


def _draw_stack(canvas: SvgCanvas, game: Gravwell, state: GravwellState, stack: int, seat: int | None) -> None:
    """Draft stack ``stack``: its face-up card and its face-down card (face up for the spectator, dashed, and with
    No Secrets), or an outline once taken (``determinize`` forgets what a taken stack held)."""
    x, y = stack_corner(stack)
    canvas.text(x + 37, y + 64, f"stack {stack}", size=10, fill="#555")
    if not state.free >> stack & 1:
        canvas.rect(x, y, 74, CARD_H + 8, fill="none", stroke="#bdbdbd", stroke_width=1, stroke_dasharray="4 3", rx=5)
        canvas.text(x + 37, y + 27, "taken", size=10, fill="#9e9e9e")
        return
    up, down = state.stacks[stack]
    shown = seat is None or game.config.no_secrets
    canvas.rect(x, y, 74, CARD_H + 8, fill="#eceff1", stroke="#90a4ae", stroke_width=1, rx=5)
    place(canvas, x + 3, y + 4, card_face(up), marks=card_marks("stack", stack, up))
    secret = SECRET_FRAME if seat is None and not game.config.no_secrets else ""
    face = card_face(down) + secret if shown else card_back()
    place(canvas, x + 37, y + 4, face, marks=card_marks("stack", stack, down if shown else -1))


def _draw_turn(canvas: SvgCanvas, game: Gravwell, state: GravwellState) -> None:
    """After the draft: the result at the end, the latest reveal in resolution order and the round's cards."""
    top = HEADER
    if state.current_player < 0:
        top = _draw_ranking(canvas, game, state)
    _draw_reveal(canvas, game, state, top)
    spent = bits_to_cards(state.spent)
    top += 148 if state.phase == STOP else 120
    canvas.text(SIDE_X, top, f"Played this round ({len(spent)})", size=13, anchor="start", weight="bold")
    for k, card in enumerate(spent):
        row, column = divmod(k, 12)
        x, y = SIDE_X + column * (MINI_W + 4), top + 14 + row * (MINI_H + 4)
        place(canvas, x, y, card_face(card, MINI_W, MINI_H), marks=card_marks("played", -1, card))


def _draw_ranking(canvas: SvgCanvas, game: Gravwell, state: GravwellState) -> int:
    """The final ranking (places shared by tied ships); returns the top of what follows it."""
    canvas.text(SIDE_X, HEADER + 10, "Final ranking", size=14, anchor="start", weight="bold")
    for k, player in enumerate(game.ranking(state)):
        place_ = final_place(state, player)
        where = "escaped" if player == state.winner else f"tile {state.pos[player]}"
        y = HEADER + 32 + 18 * k
        canvas.circle(SIDE_X + 8, y, 6, fill=PLAYER_COLOURS[player])
        canvas.text(SIDE_X + 20, y, f"{PLACES[place_]}  {player_label(player)}  {where}", size=13, anchor="start",
                    weight="bold" if place_ == 0 else None)  # fmt: skip
    return HEADER + 40 + 18 * game.n


def final_place(state: GravwellState, player: int) -> int:
    """0 for first: how many players finished ahead of ``player`` (tied ships share a place)."""
    key = (player != state.winner, -state.pos[player])
    return sum(1 for other in range(len(state.hands)) if (other != state.winner, -state.pos[other]) < key)


def _draw_reveal(canvas: SvgCanvas, game: Gravwell, state: GravwellState, top: int) -> None:
    """The latest reveal in resolution order, each card over its owner; cards still to resolve are marked."""
    played = sorted((card, owner) for owner, card in enumerate(state.revealed) if card >= 0)
    canvas.text(SIDE_X, top + 10, "Latest reveal (resolution order)", size=13, anchor="start", weight="bold")
    if not played:
        canvas.text(SIDE_X + 8, top + 40, "none yet", size=12, anchor="start", fill="#9e9e9e")
    pending = set(state.queue)
    for k, (card, owner) in enumerate(played):
        x, y = SIDE_X + 4 + k * 62, top + 28
        if (card, owner) in pending:
            deciding = state.phase == STOP and (card, owner) == state.queue[0]
            canvas.rect(x - 4, y - 4, CARD_W + 8, CARD_H + 8, fill="#fff59d" if deciding else "none",
                        stroke="#f57f17", stroke_width=2, rx=5)  # fmt: skip
        place(canvas, x, y, card_face(card), marks=card_marks("reveal", owner, card))
        canvas.circle(x + CARD_W / 2, y + CARD_H + 14, 8, fill=PLAYER_COLOURS[owner])
        canvas.text(x + CARD_W / 2, y + CARD_H + 14, owner, size=10, fill=SHIP_TEXT[owner], weight="bold")
    if state.phase == STOP and state.current_player >= 0:
        canvas.text(SIDE_X, top + 118, _stop_question(state), size=12, anchor="start", fill="#e65100")


def _stop_question(state: GravwellState) -> str:
    """What the card waiting for its owner's Emergency Stop decision would do."""
    card, owner = state.queue[0]
    if TYPES[card] not in (NORMAL, REPULSOR):
        effect = f"pull every ship {VALUES[card]} towards P{owner}"
    else:
        way = "towards the Warp Gate" if state.direction > 0 else "back towards the Singularity"
        effect = f"move P{owner} {VALUES[card]} {way}"
    return f"next: {SYMBOLS[card]} would {effect}"


# -- the players' rows ----------------------------------------------------------------------------
def _draw_player(canvas: SvgCanvas, game: Gravwell, state: GravwellState, player: int, seat: int | None) -> None:
    """A player's row: ship and tile, Emergency Stop, hand, this turn's commit."""
    top, acting = row_top(player), player == state.current_player
    canvas.rect(MARGIN, top, WIDTH - 2 * MARGIN, ROW_HEIGHT, fill="#fffde7" if acting else "#f5f5f5",
                stroke="#f57f17" if acting else "#bdbdbd", stroke_width=2.5 if acting else 1, rx=6)  # fmt: skip
    _ship(canvas, MARGIN + 24, top + 24, 14, player, game.n, "badge")
    you = "you \u00b7 " if seat == player else ""
    canvas.text(MARGIN + 46, top + 20, player_label(player), size=15, anchor="start", weight="bold")
    canvas.text(MARGIN + 46, top + 40, you + _where(state, player), size=12, anchor="start", fill="#555")
    if acting:
        canvas.text(MARGIN + 46, top + 58, "\u25b6 to act", size=12, anchor="start", fill="#e65100", weight="bold")
    _stop_sign(canvas, STOP_X, top + 30, state.stops[player])
    if acting and state.phase == STOP:
        _go_button(canvas, GO_X, top + 30)
    canvas.text(HAND_X - 6, top + 35, "hand", size=11, anchor="end", fill="#555")
    _draw_hand(canvas, game, state, player, seat, top + 12)
    _draw_commit(canvas, state, player, seat, top + 12)
    _draw_last(canvas, state, player, top + 12)


def _draw_last(canvas: SvgCanvas, state: GravwellState, player: int, top: int) -> None:
    """The card ``player`` played in the latest reveal, and its place once the game is over."""
    canvas.text(LAST_X - 6, top + CARD_H / 2, "last played", size=11, anchor="end", fill="#555")
    card = state.revealed[player]
    if card >= 0:
        place(canvas, LAST_X, top, card_face(card), marks=card_marks("last", player, card))
    if state.current_player < 0:
        place_ = final_place(state, player)
        label = PLACES[place_] + (" \u2013 winner" if place_ == 0 else "")
        canvas.text(WIDTH - MARGIN - 14, top + CARD_H / 2, label, size=16, anchor="end", weight="bold")


def _where(state: GravwellState, player: int) -> str:
    """Where the ship is: the Singularity, a tile, or through the Warp Gate."""
    tile = state.pos[player]
    if player == state.winner:
        return "escaped (tile 54)"
    return "Singularity (tile 0)" if tile == 0 else f"tile {tile}, {WARP_GATE - tile} to go"


def _stop_sign(canvas: SvgCanvas, cx: float, cy: float, available: bool) -> None:
    """The Emergency Stop: a red octagon while available, a grey one marked ``used`` once spent."""
    r, k = 18, 0.4142
    corners = [(-k, -1), (k, -1), (1, -k), (1, k), (k, 1), (-k, 1), (-1, k), (-1, -k)]
    fill, label = ("#c62828", "STOP") if available else ("#bdbdbd", "used")
    marks = {"class": "emergency-stop", "data-available": int(available)}
    canvas.polygon([(cx + r * dx, cy + r * dy) for dx, dy in corners], fill=fill, stroke="#ffffff", stroke_width=2,
                   **marks)  # fmt: skip
    canvas.text(cx, cy, label, size=9, fill="#ffffff" if available else "#616161", weight="bold")


def _go_button(canvas: SvgCanvas, cx: float, cy: float) -> None:
    """The button that lets the waiting card resolve (declines the Emergency Stop)."""
    canvas.circle(cx, cy, 16, fill="#2e7d32", stroke="#ffffff", stroke_width=2)
    canvas.text(cx, cy, "GO", size=11, fill="#ffffff", weight="bold")


def hand_cards(state: GravwellState, player: int, seat: int | None) -> list[int]:
    """The cards of ``player``'s hand as ``seat`` sees them in drawing order: every card for the spectator and
    the player itself; for another seat the cards drafted face up, then -1 for each face-down card."""
    hand = state.hands[player]
    if seat is None or seat == player:
        return bits_to_cards(hand)
    known = state.known[player]
    return bits_to_cards(hand & known) + [-1] * (hand & ~known).bit_count()


def hand_corner(slot: int, top: int) -> tuple[int, int]:
    """The top-left corner of hand slot ``slot`` in a row whose cards start at ``top``."""
    return HAND_X + slot * (CARD_W + 4), top


def _draw_hand(canvas: SvgCanvas, game: Gravwell, state: GravwellState, player: int, seat: int | None,
               top: int) -> None:  # fmt: skip
    """The hand: faces (dimmed: the card committed this turn, if the viewer may know it), or backs."""
    known, committed = state.known[player], state.commits[player]
    if seat is not None and seat != player:
        committed = -1
    cards = hand_cards(state, player, seat)
    if not cards:
        canvas.text(HAND_X + 2, top + CARD_H / 2, "empty", size=11, anchor="start", fill="#9e9e9e")
    for slot, card in enumerate(cards):
        x, y = hand_corner(slot, top)
        if card < 0:
            place(canvas, x, y, card_back(), marks=card_marks("hand", player, -1))
            continue
        dot, fade = PUBLIC_DOT if known >> card & 1 else "", 0.35 if card == committed else None
        place(canvas, x, y, card_face(card) + dot, fade, card_marks("hand", player, card))


def _draw_commit(canvas: SvgCanvas, state: GravwellState, player: int, seat: int | None, top: int) -> None:
    """This turn's commit: face up for the spectator and the player itself, face down for the others."""
    canvas.text(COMMIT_X - 6, top + CARD_H / 2, "commit", size=11, anchor="end", fill="#555")
    card = state.commits[player] if state.phase == COMMIT else -1
    x = COMMIT_X
    if card < 0:
        waiting = state.phase == COMMIT and player >= state.current_player >= 0
        canvas.rect(x, top, CARD_W, CARD_H, fill="none", stroke="#bdbdbd", stroke_width=1, stroke_dasharray="4 3",
                    rx=4)  # fmt: skip
        canvas.text(x + CARD_W / 2, top + CARD_H / 2, "\u2026" if waiting else "", size=14, fill="#9e9e9e")
    elif seat is None or seat == player:
        place(canvas, x, top, card_face(card) + SECRET_FRAME, marks=card_marks("commit", player, card))
    else:
        place(canvas, x, top, card_back(), marks=card_marks("commit", player, -1))
    if state.phase == COMMIT and card >= 0:
        canvas.text(x + CARD_W + 8, top + CARD_H / 2, "secret", size=11, anchor="start", fill="#555")


def _legend(canvas: SvgCanvas, game: Gravwell, seat: int | None, y: float) -> None:
    """The view, the card colours and the variants."""
    view = "spectator view (dashed: secret cards)" if seat is None else f"view of {player_label(seat)}"
    rules = [name for name in ("no_secrets", "hardcore", "inert_tractors") if getattr(game.config, name)]
    canvas.text(MARGIN, y, view, size=12, anchor="start", fill="#555")
    x = 330
    for kind, label in enumerate(("fuel: towards nearest ship", "repulsor: away", "tractor: pulls ships")):
        canvas.rect(x, y - 7, 14, 14, fill=CARD_FILLS[kind], stroke="#5d4037", stroke_width=1, rx=2)
        canvas.text(x + 19, y, label, size=11, anchor="start", fill="#555")
        x += 30 + 6 * len(label)
    canvas.circle(x + 4, y, 3, fill="#ffffff", stroke="#424242", stroke_width=1)
    canvas.text(x + 11, y, "drafted face up", size=11, anchor="start", fill="#555")
    if rules:
        canvas.text(WIDTH - MARGIN, y, "variants: " + ", ".join(rules), size=11, anchor="end", fill="#555")


# -- targets ------------------------------------------------------------------------------------
def _draw_targets(canvas: SvgCanvas, game: Gravwell, state: GravwellState, seat: int | None, mask: np.ndarray) -> None:
    """The legal actions of ``mask`` of the person looking, each on its place (see the module docstring)."""
    mover = state.current_player
    actor = mover if seat is None else seat
    if mover < 0:
        return
    if state.phase == COMMIT and actor >= mover:
        _hand_targets(canvas, game, state, actor, mask)
    elif actor == mover and state.phase == DRAFT:
        for stack, _up, _down in state.open_stacks():
            if mask[stack]:
                x, y = stack_corner(stack)
                canvas.target_rect(x - 2, y - 2, 78, CARD_H + 12, [stack], game.action_to_str(state, stack), rx=6)
    elif actor == mover and state.phase == STOP:
        stop, top = game.stop_action, row_top(mover)
        if mask[stop]:
            canvas.target_circle(STOP_X, top + 30, 21, [stop], "stop")
        if mask[stop + 1]:
            canvas.target_circle(GO_X, top + 30, 19, [stop + 1], "go")


def _hand_targets(canvas: SvgCanvas, game: Gravwell, state: GravwellState, player: int, mask: np.ndarray) -> None:
    """Each card of ``player``'s hand whose play is in ``mask``."""
    if state.commits[player] >= 0:
        return
    for slot, card in enumerate(bits_to_cards(state.hands[player])):
        action = game.play_base + card
        if mask[action]:
            x, y = hand_corner(slot, row_top(player) + 12)
            canvas.target_rect(x - 2, y - 2, CARD_W + 4, CARD_H + 4, [action], f"play {SYMBOLS[card]}", rx=5)
