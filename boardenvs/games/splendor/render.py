"""A picture of a Splendor position drawn with numpy: cards as coloured rectangles, tokens as blocks.

Layout, top to bottom: the nobles (requirements as columns of small squares), the three levels (level 3
first) with a deck back whose fill shows the cards left, then the face-up cards; the token supply on the
right; one strip per player: a marker (filled for the player to act), tokens per resource as stacked
blocks, bonuses as stacked bars, reserved cards (face-down ones framed in grey), points as a gold bar and
nobles as tan squares. Card faces: a header band in the bonus colour with one white pip per point and the
cost as columns of squares in the cost colours.
"""

from __future__ import annotations

import numpy as np

from boardenvs.games.splendor.cards import NUM_LEVELS, CardTable
from boardenvs.games.splendor.config import SplendorConfig
from boardenvs.games.splendor.state import POINTS, SplendorState

RESOURCE_COLOURS = np.array(
    [(245, 245, 245), (40, 90, 210), (30, 150, 70), (210, 40, 40), (35, 35, 35), (235, 190, 30)], dtype=np.uint8
)
"""White, blue, green, red, black, gold."""
BACKGROUND = (70, 95, 80)
CARD_FACE = (238, 230, 205)
OUTLINE = (20, 20, 20)
NOBLE_FACE = (205, 170, 120)
LEVEL_BACKS = ((90, 140, 60), (200, 160, 40), (60, 90, 170))
HIDDEN_FRAME = (150, 150, 150)
EMPTY_SLOT = (85, 110, 95)
CARD_W, CARD_H, GAP, MARGIN = 44, 60, 6, 8
BAND = 14
PIP = 5
STRIP = CARD_H + 10


def _rect(image: np.ndarray, top: int, left: int, height: int, width: int, colour, outline=None) -> None:
    """Fill a rectangle (clipped to the image), with a 1-pixel ``outline`` if given."""
    bottom, right = min(top + height, image.shape[0]), min(left + width, image.shape[1])
    if bottom <= top or right <= left:
        return
    if outline is not None:
        image[top:bottom, left:right] = outline
        top, left, bottom, right = top + 1, left + 1, bottom - 1, right - 1
    image[top:bottom, left:right] = colour


def _column(image: np.ndarray, bottom: int, left: int, count: int, colour, size: int = PIP, limit: int = 99) -> None:
    """``count`` squares stacked upwards from ``bottom`` (at most ``limit``)."""
    for k in range(min(count, limit)):
        _rect(image, bottom - (k + 1) * (size + 1), left, size + 1, size + 1, colour, OUTLINE)


def draw_card(image: np.ndarray, top: int, left: int, cards: CardTable, card: int, hidden: bool = False) -> None:
    """One card face at (``top``, ``left``); an empty slot for -1; a grey frame when face down."""
    if card < 0:
        _rect(image, top, left, CARD_H, CARD_W, EMPTY_SLOT, OUTLINE)
        return
    _rect(image, top, left, CARD_H, CARD_W, HIDDEN_FRAME if hidden else OUTLINE)
    _rect(image, top + 2, left + 2, CARD_H - 4, CARD_W - 4, CARD_FACE)
    _rect(image, top + 2, left + 2, BAND, CARD_W - 4, RESOURCE_COLOURS[int(cards.bonus[card])])
    for k in range(int(cards.points[card])):
        _rect(image, top + 4, left + CARD_W - 10 - k * 6, 6, 6, RESOURCE_COLOURS[0], OUTLINE)
    _draw_amounts(image, top + CARD_H - 3, left + 3, cards.cost[card].tolist(), limit=7)


def _draw_noble(image: np.ndarray, top: int, left: int, cards: CardTable, noble: int) -> None:
    if noble < 0:
        _rect(image, top, left, CARD_W, CARD_W, EMPTY_SLOT, OUTLINE)
        return
    _rect(image, top, left, CARD_W, CARD_W, NOBLE_FACE, OUTLINE)
    _draw_amounts(image, top + CARD_W - 3, left + 3, cards.noble_req[noble].tolist(), limit=6)


def _draw_amounts(image: np.ndarray, bottom: int, left: int, amounts: list[int], limit: int) -> None:
    """A column of blocks per colour with a non-zero amount (a cost or a noble's requirement), side by side."""
    column = 0
    for colour, amount in enumerate(amounts):
        if amount:
            _column(image, bottom, left + column * 8, amount, RESOURCE_COLOURS[colour], limit=limit)
            column += 1


def _draw_player(image: np.ndarray, top: int, cards: CardTable, state: SplendorState, player: int) -> None:
    row = state.players[player]
    bottom = top + STRIP - 4
    to_move = player == state.current_player
    _rect(image, top + 4, MARGIN, 12, 12, RESOURCE_COLOURS[5] if to_move else BACKGROUND, OUTLINE)
    x = MARGIN + 20
    for resource in range(6):
        _column(image, bottom, x + resource * 10, int(row[resource]), RESOURCE_COLOURS[resource], size=7, limit=8)
    x += 6 * 10 + GAP
    for colour in range(5):
        _column(image, bottom, x + colour * 10, int(row[6 + colour]), RESOURCE_COLOURS[colour], size=5, limit=10)
    x += 5 * 10 + GAP
    for slot, card in enumerate(state.reserved[player].tolist()):
        draw_card(image, top + 5, x + slot * (CARD_W + 4), cards, card, bool(state.hidden[player, slot]))
    x += state.reserved.shape[1] * (CARD_W + 4) + GAP
    _rect(image, top + 6, x, 10, 4 * int(row[POINTS]), RESOURCE_COLOURS[5], OUTLINE)
    for k in range(int(row[13])):
        _rect(image, top + 22, x + k * 14, 12, 12, NOBLE_FACE, OUTLINE)


def image_size(config: SplendorConfig) -> tuple[int, int]:
    """``(height, width)`` of the picture of ``config``."""
    board_w = (1 + config.face_up) * (CARD_W + GAP)
    supply_w = 6 * 14 + GAP
    player_w = 20 + 6 * 10 + 5 * 10 + 2 * GAP + config.max_reserved * (CARD_W + 4) + 4 * 60
    width = 2 * MARGIN + max(board_w + supply_w, player_w, (config.nobles + 1) * (CARD_W + GAP))
    height = 2 * MARGIN + CARD_W + GAP + NUM_LEVELS * (CARD_H + GAP) + config.num_players * STRIP
    return height, width


def render_rgb(config: SplendorConfig, cards: CardTable, state: SplendorState) -> np.ndarray:
    """``uint8[H, W, 3]`` picture of ``state`` (layout in the module docstring)."""
    image = np.empty((*image_size(config), 3), dtype=np.uint8)
    image[:] = BACKGROUND
    for slot, noble in enumerate(state.nobles.tolist()):
        _draw_noble(image, MARGIN, MARGIN + (slot + 1) * (CARD_W + GAP), cards, noble)
    sizes = [len(ids) for ids in cards.by_level]
    for row, level in enumerate(range(NUM_LEVELS - 1, -1, -1)):
        top = MARGIN + CARD_W + GAP + row * (CARD_H + GAP)
        _rect(image, top, MARGIN, CARD_H, CARD_W, EMPTY_SLOT, OUTLINE)
        remaining = (sizes[level] - int(state.top[level])) * (CARD_H - 2) // max(1, sizes[level])
        _rect(image, top + CARD_H - 1 - remaining, MARGIN + 1, remaining, CARD_W - 2, LEVEL_BACKS[level])
        for column, card in enumerate(state.face_up[level].tolist()):
            draw_card(image, top, MARGIN + (column + 1) * (CARD_W + GAP), cards, card)
    supply_left = MARGIN + (1 + config.face_up) * (CARD_W + GAP)
    supply_bottom = MARGIN + CARD_W + GAP + NUM_LEVELS * (CARD_H + GAP) - GAP
    for resource, count in enumerate(state.supply.tolist()):
        _column(image, supply_bottom, supply_left + resource * 14, count, RESOURCE_COLOURS[resource], size=11,
                limit=(supply_bottom - MARGIN) // 12)  # fmt: skip
    players_top = MARGIN + CARD_W + GAP + NUM_LEVELS * (CARD_H + GAP)
    for player in range(config.num_players):
        _draw_player(image, players_top + player * STRIP, cards, state, player)
    return image
