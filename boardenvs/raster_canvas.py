"""The pixels of a raster frame (:mod:`boardenvs.raster`): a supersampled Pillow image and the few primitives
every SVG shape and text is drawn with.

:class:`Canvas` draws filled and stroked (rounded) boxes, discs and rings, polylines, polygons and coverage masks;
each primitive also widens the box of what was drawn, and draws nothing while ``measuring`` (so a group with
``opacity`` can be measured first and only its box blended). Text is laid out here too: Pillow's built-in scalable
font (FreeType), bold as a thin outline of the same colour, the symbols it lacks (:data:`SYMBOLS`) as polygons and
``monospace`` as fixed advances. The masks Pillow is slow to draw (rounded boxes, words) are cached. Pillow itself
comes in as an argument (``pil``), so importing this module imports no Pillow.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np

RENDER_EXTRA = 'pip install "boardenvs[render]"'
"""How to install what ``rgb_array`` and ``human`` rendering need (Pillow, pygame)."""

Point = tuple[float, float]
Box = tuple[float, float, float, float]
Colour = tuple[int, ...]
"""``(r, g, b)``, or ``(r, g, b, a)`` when translucent."""

SYMBOLS: dict[str, tuple[Point, ...]] = {
    "\u25b6": ((0.12, -0.36), (0.82, 0.0), (0.12, 0.36)),
    "\u25c0": ((0.82, -0.36), (0.12, 0.0), (0.82, 0.36)),
    "\u2605": tuple(
        (0.47 + r * math.sin(math.pi * k / 5), -r * math.cos(math.pi * k / 5) + 0.04)
        for k in range(10)
        for r in ((0.45, 0.18)[k % 2],)
    ),
}
"""Symbols the built-in font lacks, drawn as polygons: corners in em, x from the symbol's left edge (width
:data:`SYMBOL_WIDTH`), y down from the text's middle."""
SYMBOL_WIDTH = 0.94
SUBSTITUTES = str.maketrans({"\u2013": "-", "\u2014": "-", "\u2212": "-"})
"""Characters the built-in font lacks, drawn as a close plain character."""


@lru_cache(maxsize=64)
def _font(pil: Any, size: float) -> Any:
    """Pillow's built-in scalable font at ``size`` pixels (cached)."""
    font = pil.ImageFont.load_default(size=size)
    if not isinstance(font, pil.ImageFont.FreeTypeFont):
        raise ImportError(f"rgb_array frames need Pillow built with FreeType (scalable text): {RENDER_EXTRA}")
    return font


@lru_cache(maxsize=256)  # every config of the five games uses fewer than 50 sizes
def _rounded_mask(pil: Any, width: int, height: int, radius: int, stroke: int) -> Any:
    """The mask (mode ``1``) of a ``width`` x ``height`` rounded rectangle: filled (``stroke`` 0) or its outline
    ``stroke`` pixels wide inside the edge; cached (Pillow draws one corner by corner, ~5x slower than a mask)."""
    mask = pil.Image.new("1", (width, height), 0)
    paint = {"outline": 1, "width": stroke} if stroke else {"fill": 1}
    pil.ImageDraw.Draw(mask).rounded_rectangle((0, 0, width - 1, height - 1), radius=radius, **paint)
    return mask


@lru_cache(maxsize=8192)
def _text_mask(pil: Any, text: str, size: float, bold: bool, anchor: str) -> tuple[Any, int, int]:
    """The coverage mask (mode ``L``) of ``text`` and the offset of its top-left corner from the anchor point;
    cached, as most words of a game's pictures come back in every frame (FreeType draws ~20x slower)."""
    font = _font(pil, size)
    stroke = max(1, round(size / 36)) if bold else 0
    left, top, right, bottom = font.getbbox(text, anchor=anchor, stroke_width=stroke)
    mask = pil.Image.new("L", (max(1, right - left), max(1, bottom - top)), 0)
    pil.ImageDraw.Draw(mask).text((-left, -top), text, fill=255, font=font, anchor=anchor, stroke_width=stroke,
                                  stroke_fill=255)  # fmt: skip
    return mask, left, top


@dataclass(frozen=True)
class Text:
    """How a piece of text is drawn: font size in drawing pixels, weight, vertical anchor (Pillow's ``s``
    baseline or ``m`` middle) and colour."""

    size: float
    bold: bool
    vertical: str
    colour: Colour


class Canvas:
    """A supersampled RGB image (one per frame) and its drawing primitives.

    Every shape goes through the few ``_fill_*``/``_stroke_*`` primitives, which also keep the box of what was
    drawn (:attr:`bounds`); with :attr:`measuring` on they draw nothing, so a group can be measured first.

    Args:
        pil: The ``PIL`` package (:func:`boardenvs.raster.pillow`).
        size: ``(width, height)`` of the image in drawing pixels.
        supersample: Drawing pixels per frame pixel.
    """

    def __init__(self, pil: Any, size: tuple[int, int], supersample: int) -> None:
        self.pil = pil
        self.supersample = supersample
        self.image = pil.Image.new("RGB", size, (255, 255, 255))
        # Opaque paint draws without blending: Pillow's blending pen is ~20x slower even at full alpha.
        self.solid = pil.ImageDraw.Draw(self.image)
        self.blend = pil.ImageDraw.Draw(self.image, "RGBA")
        self.measuring = False
        self.bounds: list[float] = [math.inf, math.inf, -math.inf, -math.inf]

    def frame(self) -> np.ndarray:
        """The finished frame, scaled down to its size."""
        image = self.image.reduce(self.supersample) if self.supersample > 1 else self.image
        return np.asarray(image, dtype=np.uint8).copy()

    # -- primitives (drawing pixels) ------------------------------------------------------------------------
    def _skip(self, box: Box) -> bool:
        """Add ``box`` to the bounds of what was drawn; ``True`` while measuring (draw nothing)."""
        bounds = self.bounds
        bounds[0], bounds[1] = min(bounds[0], box[0]), min(bounds[1], box[1])
        bounds[2], bounds[3] = max(bounds[2], box[2]), max(bounds[3], box[3])
        return self.measuring

    def _pen(self, colour: Colour) -> Any:
        return self.blend if len(colour) == 4 else self.solid

    def _fill_box(self, box: Box, radius: float, colour: Colour) -> None:
        """A (rounded) rectangle from corner to corner (Pillow includes the last pixel, so one less)."""
        x0, y0, x1, y1 = (round(v) for v in box)
        if x1 <= x0 or y1 <= y0 or self._skip(box):
            return
        if round(radius) > 0:
            self._pen(colour).bitmap((x0, y0), _rounded_mask(self.pil, x1 - x0, y1 - y0, round(radius), 0), colour)
        else:
            self._pen(colour).rectangle((x0, y0, x1 - 1, y1 - 1), fill=colour)

    def _stroke_box(self, box: Box, radius: float, colour: Colour, width: float) -> None:
        x0, y0, x1, y1 = (round(v) for v in box)
        if x1 > x0 and y1 > y0 and not self._skip(box):
            mask = _rounded_mask(self.pil, x1 - x0, y1 - y0, round(radius), max(1, round(width)))
            self._pen(colour).bitmap((x0, y0), mask, colour)

    def _ellipse(self, cx: float, cy: float, r: float, colour: Colour, width: float = 0.0) -> None:
        """A disc (``width`` 0) or a ring ``width`` thick inside radius ``r``."""
        box = (cx - r, cy - r, cx + r, cy + r)
        if r > 0 and not self._skip(box):
            paint = {"outline": colour, "width": max(1, round(width))} if width else {"fill": colour}
            self._pen(colour).ellipse(box, **paint)

    def _lines(self, corners: Sequence[Point], colour: Colour, width: float, round_joins: bool = False) -> None:
        xs, ys = [x for x, _ in corners], [y for _, y in corners]
        half = width / 2
        if not self._skip((min(xs) - half, min(ys) - half, max(xs) + half, max(ys) + half)):
            joint = "curve" if round_joins and len(corners) > 2 else None
            self._pen(colour).line(list(corners), fill=colour, width=max(1, round(width)), joint=joint)

    def _fill_polygon(self, corners: Sequence[Point], colour: Colour) -> None:
        xs, ys = [x for x, _ in corners], [y for _, y in corners]
        if not self._skip((min(xs), min(ys), max(xs), max(ys))):
            self._pen(colour).polygon(list(corners), fill=colour)

    def _bitmap(self, x: int, y: int, mask: Any, colour: Colour) -> None:
        if not self._skip((x, y, x + mask.width, y + mask.height)):
            self._pen(colour).bitmap((x, y), mask, fill=colour)

    # -- text --------------------------------------------------------------------------------------------------
    def write(self, content: str, x: float, y: float, text: Text, shift: float, monospace: bool) -> None:
        """One line of text anchored at (``x``, ``y``): ``shift`` 0, 0.5 or 1 of its width left of ``x`` (start,
        middle, end); ``monospace`` places every character in a cell of 0.6 em."""
        if monospace:
            advance = 0.6 * text.size
            left = x - shift * advance * len(content)
            for index, char in enumerate(content):
                self.run(char, left + index * advance + (advance - self.run_width(char, text)) / 2, y, text)
        elif not any(char in SYMBOLS for char in content):
            self.word(content, x, y, text, "lmr"[round(2 * shift)])
        else:
            runs = [run for run in re.split(f"([{''.join(SYMBOLS)}])", content) if run]
            left = x - shift * sum(self.run_width(run, text) for run in runs)
            for run in runs:
                self.run(run, left, y, text)
                left += self.run_width(run, text)

    def word(self, content: str, x: float, y: float, text: Text, horizontal: str) -> None:
        """Plain text (no symbol) anchored at (``x``, ``y``)."""
        mask, left, top = _text_mask(self.pil, content, text.size, text.bold, horizontal + text.vertical)
        self._bitmap(round(x) + left, round(y) + top, mask, text.colour)

    def run(self, run: str, left: float, y: float, text: Text) -> None:
        """A symbol or a piece of plain text starting at ``left``."""
        if run in SYMBOLS:
            middle = y if text.vertical == "m" else y - 0.36 * text.size
            self._fill_polygon([(left + px * text.size, middle + py * text.size) for px, py in SYMBOLS[run]],
                               text.colour)  # fmt: skip
        elif not run.isspace():
            self.word(run, left, y, text, "l")

    def run_width(self, run: str, text: Text) -> float:
        """The advance of a symbol or a piece of plain text."""
        if run in SYMBOLS:
            return SYMBOL_WIDTH * text.size
        return float(_font(self.pil, text.size).getlength(run))


def rounded_outline(x: float, y: float, w: float, h: float, radius: float) -> list[Point]:
    """The closed outline of a rounded rectangle (each corner in eight steps), clockwise from the top edge."""
    if radius <= 0:
        return [(x, y), (x + w, y), (x + w, y + h), (x, y + h), (x, y)]
    outline: list[Point] = []
    centres = ((x + w - radius, y + radius), (x + w - radius, y + h - radius), (x + radius, y + h - radius),
               (x + radius, y + radius))  # fmt: skip
    for quarter, (cx, cy) in enumerate(centres):
        for step in range(9):
            angle = math.pi / 2 * (quarter - 1 + step / 8)
            outline.append((cx + radius * math.cos(angle), cy + radius * math.sin(angle)))
    return [*outline, outline[0]]


def dashes(corners: Sequence[Point], pattern: Sequence[float]) -> Iterator[list[Point]]:
    """The dashes along the polyline ``corners``: ``pattern`` alternates dash and gap lengths, repeated."""
    index, left, drawing = 0, pattern[0], True
    dash: list[Point] = [corners[0]]
    for start, end in zip(corners, corners[1:]):
        length, done = math.dist(start, end), 0.0
        while length - done > left:
            done += left
            t = done / length
            point = (start[0] + (end[0] - start[0]) * t, start[1] + (end[1] - start[1]) * t)
            if drawing:
                yield [*dash, point]
            dash = [point]
            index = (index + 1) % len(pattern)
            left, drawing = pattern[index], not drawing
        left -= length - done
        dash = [*dash, end] if drawing else [end]
    if drawing and len(dash) > 1:
        yield dash
