"""Raster frames of the games' SVG pictures: ``svg_to_rgb(markup) -> uint8[H, W, 3]`` (Pillow, imported lazily).

Every ``rgb_array`` frame of the environments is a game's own picture (``Game.render_svg``, written by
:class:`boardenvs.svg.SvgCanvas`) drawn with Pillow. This is not a general SVG renderer: it draws the subset our
canvas writes (``svg`` with ``width``/``height``/``viewBox``, ``g`` with ``translate`` and group ``opacity``,
``rect`` (``rx``), ``circle``, ``line``, ``polygon``, ``polyline`` and one-line ``text``, with ``fill``,
``stroke``, ``stroke-width``, ``stroke-dasharray``, the opacities, ``font-size``, ``font-weight`` and the anchors)
and raises :class:`RasterError` naming any other element, attribute or value that would change the picture, so a
game cannot draw something a video silently leaves out. Click targets (``<g class="target">``) and ``title``
elements are not drawn; ``class``, ``data-*`` and ``cursor`` only serve the browser pages.

Shapes are drawn at ``supersample`` times the size and scaled down by averaging each ``supersample`` x
``supersample`` block (antialiased edges, exact colours in flat areas). Text uses Pillow's built-in scalable font
(``ImageFont.load_default(size)``: FreeType, no system font needed); bold is drawn with a thin outline of the same
colour, italic upright, and the few symbols that font lacks (:data:`SYMBOLS`, :data:`SUBSTITUTES`) as shapes or
plain characters. A frame's width and height are the picture's times ``scale``, rounded up to multiples of 16 (video
encoders need it); the picture is centred and a ``width="100%"`` background fills the padding too. A game config
has one picture size, so it has one frame size for a whole game.

This module reads the SVG (elements, inherited attributes, translations, group opacity) and maps each element onto
the drawing primitives of :class:`boardenvs.raster_canvas.Canvas`, which holds the pixels, the fonts and the cached
masks.

Pillow is the ``render`` extra (``pip install "boardenvs[render]"``); without it :func:`svg_to_rgb` raises an
``ImportError`` that says so.

>>> from boardenvs.svg import SvgCanvas
>>> canvas = SvgCanvas(40, 20, "demo")
>>> canvas.rect(0, 0, 40, 20, fill="#1565c0")
>>> frame = svg_to_rgb(canvas.markup())
>>> frame.shape, frame.dtype.name, frame[8, 24].tolist()
((32, 48, 3), 'uint8', [21, 101, 192])
"""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np

from boardenvs.raster_canvas import RENDER_EXTRA, SUBSTITUTES, Canvas, Colour, Point, Text, dashes, rounded_outline
from boardenvs.raster_canvas import SYMBOLS as SYMBOLS  # re-exported: the symbols drawn as shapes

FRAME_MULTIPLE = 16
"""Frame widths and heights are multiples of this (video encoders work on 16 x 16 blocks)."""
SUPERSAMPLE = 2
"""Default drawing scale before the downscale (antialiased edges; 3 costs about twice as much)."""


class RasterError(ValueError):
    """The SVG uses an element, attribute or value that :func:`svg_to_rgb` does not draw."""


def pillow() -> Any:
    """The ``PIL`` package with ``Image``, ``ImageDraw``, ``ImageColor`` and ``ImageFont`` loaded, or an
    ``ImportError`` naming the ``render`` extra."""
    try:
        import PIL
        from PIL import Image, ImageColor, ImageDraw, ImageFont  # noqa: F401  (loads the submodules)
    except ImportError as error:
        raise ImportError(f"rgb_array and human rendering need Pillow>=10.1: {RENDER_EXTRA}") from error
    return PIL


def frame_size(width: float, height: float, scale: float = 1.0) -> tuple[int, int]:
    """``(height, width)`` of the frame of a ``width`` x ``height`` picture: scaled, rounded up to multiples of 16.

    >>> frame_size(894, 630), frame_size(179.8, 32, scale=2)
    ((640, 896), (64, 368))
    """
    return _padded(height * scale), _padded(width * scale)


def _padded(length: float) -> int:
    return max(FRAME_MULTIPLE, -(-math.ceil(length - 1e-6) // FRAME_MULTIPLE) * FRAME_MULTIPLE)


def svg_to_rgb(markup: str, scale: float = 1.0, supersample: int = SUPERSAMPLE) -> np.ndarray:
    """The picture ``markup`` (one of our games' SVG documents) as a fresh ``uint8[H, W, 3]`` frame.

    Args:
        markup: An ``<svg>`` document as :class:`boardenvs.svg.SvgCanvas` writes it.
        scale: Frame pixels per unit of the picture's ``width``/``height``.
        supersample: Drawing scale before the downscale (1: no antialiasing of shapes).

    Raises:
        RasterError: The markup is not XML or uses something this rasteriser does not draw.
        ImportError: Pillow is not installed (the ``render`` extra).
    """
    if not scale > 0 or int(supersample) != supersample or supersample < 1:
        raise ValueError(f"scale must be > 0 and supersample an int >= 1, got {scale} and {supersample}")
    pil = pillow()
    try:
        root = ET.fromstring(markup)
    except ET.ParseError as error:
        raise RasterError(f"not well-formed SVG: {error}") from None
    if _tag(root) != "svg":
        raise RasterError(f"the root element must be <svg>, got <{_tag(root)}>")
    painter = Painter(pil, root, scale, int(supersample))
    painter.children(root, Painter.inherit(Style(dict(INHERITED)), root))
    return painter.frame()


# -- attributes ----------------------------------------------------------------------------------------------
INHERITED = {
    "fill": "#000",
    "stroke": "none",
    "stroke-width": "1",
    "stroke-dasharray": "none",
    "stroke-linejoin": "miter",
    "fill-opacity": "1",
    "stroke-opacity": "1",
    "font-size": "16",
    "font-weight": "normal",
    "font-style": "normal",
    "font-family": "sans-serif",
    "text-anchor": "start",
    "dominant-baseline": "auto",
    "style": "",
}
"""Presentation attributes a child inherits from its group, with their SVG initial values."""
OWN = {
    "svg": {"width", "height", "viewBox", "version", "xmlns"},
    "g": {"transform", "opacity"},
    "rect": {"x", "y", "width", "height", "rx", "ry", "opacity"},
    "circle": {"cx", "cy", "r", "opacity"},
    "line": {"x1", "y1", "x2", "y2", "opacity"},
    "polygon": {"points", "opacity"},
    "polyline": {"points", "opacity"},
    "text": {"x", "y", "opacity"},
}
"""The attributes of each drawn element besides the inherited ones."""
CHOICES = {
    "font-weight": {"normal", "bold", "400", "700"},
    "font-style": {"normal", "italic"},
    "text-anchor": {"start", "middle", "end"},
    "dominant-baseline": {"auto", "alphabetic", "central", "middle"},
    "stroke-linejoin": {"miter", "round", "bevel"},
    "style": {"", "white-space:pre"},
}
"""Allowed values of the attributes that take a keyword."""
IGNORED = {"class", "cursor", "id"}
"""Attributes for the browser pages only (and every ``data-*``)."""


@dataclass(frozen=True)
class Style:
    """The inherited presentation attributes in force, and the user-unit offset of the enclosing ``translate``s."""

    values: dict[str, str]
    dx: float = 0.0
    dy: float = 0.0

    def __getitem__(self, name: str) -> str:
        return self.values[name]


def _tag(element: ET.Element) -> str:
    return element.tag.rsplit("}", 1)[-1]


def _check_attributes(tag: str, element: ET.Element) -> None:
    """A :class:`RasterError` unless the rasteriser draws every attribute of ``element`` as the browser would."""
    for name in _keyword_attributes(tag, tuple(element.attrib)):
        value = element.attrib[name]
        if value.replace(" ", "") not in CHOICES[name]:
            raise RasterError(f"<{tag}> {name}={value!r} is not supported; use one of {sorted(CHOICES[name])}")


@lru_cache(maxsize=512)
def _keyword_attributes(tag: str, names: tuple[str, ...]) -> tuple[str, ...]:
    """The ``names`` whose values :data:`CHOICES` limits; a :class:`RasterError` for an unknown name."""
    for name in names:
        known = name in INHERITED or name in OWN[tag] or name in IGNORED or name.startswith(("data-", "{"))
        if not known:
            raise RasterError(f"<{tag}> attribute {name!r} is not supported by the rasteriser")
    return tuple(name for name in names if name in CHOICES)


def _length(element: ET.Element, name: str, default: float = 0.0) -> float:
    text = element.get(name)
    if text is None:
        return default
    try:
        return float(text.removesuffix("px"))
    except ValueError:
        raise RasterError(f"<{_tag(element)}> {name}={text!r} is not a number") from None


def _numbers(element: ET.Element, name: str) -> list[float]:
    try:
        return [float(n) for n in re.split(r"[\s,]+", element.get(name, "").strip()) if n]
    except ValueError:
        raise RasterError(f"<{_tag(element)}> {name}={element.get(name)!r} is not a list of numbers") from None


def _translate(text: str | None) -> tuple[float, float]:
    """The offset of a ``translate(x[,y])`` transform; any other transform is a :class:`RasterError`."""
    if text is None:
        return 0.0, 0.0
    match = re.fullmatch(r"\s*translate\(\s*([-+.\deE]+)(?:[\s,]+([-+.\deE]+))?\s*\)\s*", text)
    if match is None:
        raise RasterError(f"transform={text!r} is not supported (only translate(x, y))")
    return float(match.group(1)), float(match.group(2) or 0.0)


@lru_cache(maxsize=1024)
def _colour(pil: Any, text: str) -> tuple[int, int, int] | None:
    """``(r, g, b)`` of a paint, ``None`` for ``none``; gradients and ``currentColor`` are :class:`RasterError`."""
    if text.strip() in ("none", "transparent"):
        return None
    try:
        return pil.ImageColor.getrgb(text.strip())[:3]
    except ValueError:
        raise RasterError(f"colour {text!r} is not supported (use #rgb, #rrggbb, a colour name or none)") from None


# -- drawing -------------------------------------------------------------------------------------------------
class Painter(Canvas):
    """Draws one SVG tree onto a :class:`~boardenvs.raster_canvas.Canvas` (one per frame): the structure, the
    inherited attributes, and each element as canvas primitives.

    A group with ``opacity`` is first measured (drawn with ``measuring`` on, which draws nothing), so only its box
    is blended back over the backdrop.

    Args:
        pil: The ``PIL`` package (:func:`pillow`).
        root: The ``<svg>`` element.
        scale: Frame pixels per picture unit.
        supersample: Drawing pixels per frame pixel.
    """

    def __init__(self, pil: Any, root: ET.Element, scale: float, supersample: int) -> None:
        _check_attributes("svg", root)
        width, height = _length(root, "width", -1), _length(root, "height", -1)
        box = _numbers(root, "viewBox") if root.get("viewBox") else [0.0, 0.0, width, height]
        if width <= 0 or height <= 0 or len(box) != 4 or box[2] <= 0 or box[3] <= 0:
            raise RasterError("the <svg> root needs a positive width and height and a viewBox 'x y width height'")
        if not math.isclose(width / box[2], height / box[3], rel_tol=1e-3):
            raise RasterError("a viewBox with another aspect ratio than width x height is not supported")
        self.frame_shape = frame_size(width, height, scale)
        self.unit = scale * supersample * width / box[2]  # drawing pixels per user unit
        self.origin = (
            (self.frame_shape[1] - width * scale) / 2 * supersample - box[0] * self.unit,
            (self.frame_shape[0] - height * scale) / 2 * supersample - box[1] * self.unit,
        )
        super().__init__(pil, (self.frame_shape[1] * supersample, self.frame_shape[0] * supersample), supersample)
        self.handlers: dict[str, Callable[[ET.Element, Style, float], None]] = {
            "rect": self.rect,
            "circle": self.circle,
            "line": self.line,
            "polygon": self.polygon,
            "polyline": self.polyline,
            "text": self.text,
        }

    @staticmethod
    def inherit(style: Style, element: ET.Element) -> Style:
        """``style`` updated by ``element``'s inherited attributes and ``translate``."""
        overrides = {name: value for name, value in element.attrib.items() if name in INHERITED}
        transform = element.get("transform")
        if not overrides and transform is None:
            return style
        dx, dy = _translate(transform)
        return Style({**style.values, **overrides}, style.dx + dx, style.dy + dy)

    # -- structure ----------------------------------------------------------------------------------------
    def children(self, parent: ET.Element, style: Style) -> None:
        """Draw every child of ``parent`` in document order."""
        for child in parent:
            self.element(child, style)

    def element(self, element: ET.Element, style: Style) -> None:
        """Draw one element (a group with its children)."""
        tag = _tag(element)
        if tag == "title":
            return
        if tag not in OWN or tag == "svg":
            raise RasterError(f"<{tag}> is not supported by the rasteriser")
        _check_attributes(tag, element)
        if tag != "text" and (element.text or "").strip():
            raise RasterError(f"<{tag}> holds text {element.text.strip()!r}; only <text> draws text")
        if tag == "g":
            self.group(element, style)
        elif len(element):
            raise RasterError(f"<{tag}> with child elements is not supported")
        else:
            self.handlers[tag](element, self.inherit(style, element), _length(element, "opacity", 1.0))

    def group(self, element: ET.Element, style: Style) -> None:
        """A ``<g>``: its children, faded as one layer by its ``opacity``; click targets are skipped."""
        if "target" in element.get("class", "").split():
            return
        inner = self.inherit(style, element)
        opacity = _length(element, "opacity", 1.0)
        if opacity >= 1.0 or self.measuring:
            self.children(element, inner)
            return
        outer, self.bounds = self.bounds, [math.inf, math.inf, -math.inf, -math.inf]
        self.measuring = True
        self.children(element, inner)
        self.measuring = False
        left, top = max(0, math.floor(self.bounds[0]) - 2), max(0, math.floor(self.bounds[1]) - 2)
        right = min(self.image.width, math.ceil(self.bounds[2]) + 2)
        bottom = min(self.image.height, math.ceil(self.bounds[3]) + 2)
        self.bounds = [min(outer[0], left), min(outer[1], top), max(outer[2], right), max(outer[3], bottom)]
        if right <= left or bottom <= top or opacity <= 0:
            return
        backdrop = self.image.crop((left, top, right, bottom))
        self.children(element, inner)
        faded = self.pil.Image.blend(backdrop, self.image.crop((left, top, right, bottom)), opacity)
        self.image.paste(faded, (left, top))

    # -- coordinates and paint -------------------------------------------------------------------------------
    def xy(self, style: Style, x: float, y: float) -> Point:
        """Drawing pixels of the user-space point (``x``, ``y``) inside ``style``'s translations."""
        return self.origin[0] + (x + style.dx) * self.unit, self.origin[1] + (y + style.dy) * self.unit

    def paint(self, style: Style, which: str, opacity: float) -> Colour | None:
        """The colour of ``fill`` or ``stroke`` with its opacities, or ``None`` for ``none`` (nothing to draw)."""
        rgb = _colour(self.pil, style[which])
        alpha = opacity * _number(style, f"{which}-opacity")
        if rgb is None or alpha <= 0:
            return None
        return rgb if alpha >= 1.0 else (*rgb, round(255 * alpha))

    def stroke(self, style: Style, opacity: float) -> tuple[Colour | None, float]:
        """The stroke colour and its width in drawing pixels (``None`` when there is no stroke)."""
        width = _number(style, "stroke-width") * self.unit
        return (self.paint(style, "stroke", opacity) if width > 0 else None), width

    # -- shapes -----------------------------------------------------------------------------------------------
    def rect(self, element: ET.Element, style: Style, opacity: float) -> None:
        """A rectangle, rounded by ``rx``, its stroke centred on the edge as in SVG."""
        if "%" in element.get("width", "") + element.get("height", ""):
            self.background(element, style, opacity)
            return
        x0, y0 = self.xy(style, _length(element, "x"), _length(element, "y"))
        w, h = _length(element, "width") * self.unit, _length(element, "height") * self.unit
        radius = max(0.0, min(_length(element, "rx", _length(element, "ry")) * self.unit, w / 2, h / 2))
        fill = self.paint(style, "fill", opacity)
        if fill is not None:
            self._fill_box((x0, y0, x0 + w, y0 + h), radius, fill)
        colour, width = self.stroke(style, opacity)
        if colour is not None and style["stroke-dasharray"] != "none":
            self.dashed(rounded_outline(x0, y0, w, h, radius), colour, width, style)
        elif colour is not None:
            half = width / 2
            self._stroke_box((x0 - half, y0 - half, x0 + w + half, y0 + h + half), radius + half, colour, width)

    def background(self, element: ET.Element, style: Style, opacity: float) -> None:
        """A ``width="100%" height="100%"`` rectangle: it fills the whole frame, padding included."""
        full = (element.get("width"), element.get("height")) == ("100%", "100%")
        if not full or _length(element, "x") or _length(element, "y") or element.get("rx"):
            raise RasterError("a percentage length is supported only as a background: width and height 100%")
        fill = self.paint(style, "fill", opacity)
        if fill is not None:
            self._fill_box((0, 0, self.image.width, self.image.height), 0, fill)

    def circle(self, element: ET.Element, style: Style, opacity: float) -> None:
        """A circle, its stroke centred on the edge."""
        cx, cy = self.xy(style, _length(element, "cx"), _length(element, "cy"))
        r = _length(element, "r") * self.unit
        fill = self.paint(style, "fill", opacity)
        if fill is not None:
            self._ellipse(cx, cy, r, fill)
        colour, width = self.stroke(style, opacity)
        if colour is not None and style["stroke-dasharray"] != "none":
            steps = max(16, round(r))
            angles = [2 * math.pi * k / steps for k in range(steps + 1)]
            self.dashed([(cx + r * math.cos(a), cy + r * math.sin(a)) for a in angles], colour, width, style)
        elif colour is not None:
            self._ellipse(cx, cy, r + width / 2, colour, width)

    def line(self, element: ET.Element, style: Style, opacity: float) -> None:
        """A straight line (butt ends)."""
        ends = [self.xy(style, _length(element, f"x{k}"), _length(element, f"y{k}")) for k in (1, 2)]
        self.path(ends, style, opacity)

    def polygon(self, element: ET.Element, style: Style, opacity: float) -> None:
        """A closed polygon: the fill, then the stroke along every edge."""
        corners = self.points(element, style)
        fill = self.paint(style, "fill", opacity)
        if fill is not None:
            self._fill_polygon(corners, fill)
        self.path([*corners, corners[0]], style, opacity)

    def polyline(self, element: ET.Element, style: Style, opacity: float) -> None:
        """An open polyline (its fill must be ``none``)."""
        if self.paint(style, "fill", opacity) is not None:
            raise RasterError('a filled <polyline> is not supported; give it fill="none" or draw a <polygon>')
        self.path(self.points(element, style), style, opacity)

    def points(self, element: ET.Element, style: Style) -> list[Point]:
        """The ``points`` of a polygon or polyline in drawing pixels."""
        numbers = _numbers(element, "points")
        if len(numbers) % 2 or len(numbers) < 4:
            raise RasterError(f"<{_tag(element)}> points={element.get('points')!r} is not a list of x,y pairs")
        return [self.xy(style, x, y) for x, y in zip(numbers[::2], numbers[1::2])]

    def path(self, corners: list[Point], style: Style, opacity: float) -> None:
        """Stroke the lines through ``corners`` (solid, or dashed by ``stroke-dasharray``)."""
        colour, width = self.stroke(style, opacity)
        if colour is not None and style["stroke-dasharray"] != "none":
            self.dashed(corners, colour, width, style)
        elif colour is not None:
            self._lines(corners, colour, width, round_joins=style["stroke-linejoin"] == "round")

    def dashed(self, corners: list[Point], colour: Colour, width: float, style: Style) -> None:
        """Dashes of ``stroke-dasharray`` (user units) along the lines through ``corners``."""
        text = style["stroke-dasharray"]
        try:
            pattern = [float(v) * self.unit for v in re.split(r"[\s,]+", text.strip())]
        except ValueError:
            pattern = []
        if not pattern or min(pattern) < 0 or sum(pattern) <= 0:
            raise RasterError(f"stroke-dasharray={text!r} is not a list of lengths")
        for dash in dashes(corners, pattern * (2 if len(pattern) % 2 else 1)):
            self._lines(dash, colour, width)

    # -- text --------------------------------------------------------------------------------------------------
    def text(self, element: ET.Element, style: Style, opacity: float) -> None:
        """One line of text at (``x``, ``y``), placed as ``text-anchor`` and ``dominant-baseline`` say."""
        content = (element.text or "").translate(SUBSTITUTES)
        if style["style"].replace(" ", "") != "white-space:pre":
            content = " ".join(content.split())
        if self.stroke(style, opacity)[0] is not None:
            raise RasterError('stroked <text> is not supported (give it or its group stroke="none")')
        fill = self.paint(style, "fill", opacity)
        size = round(_number(style, "font-size") * self.unit * 4) / 4
        if not content or fill is None or size <= 0:
            return
        x, y = self.xy(style, _length(element, "x"), _length(element, "y"))
        vertical = "s" if style["dominant-baseline"] in ("auto", "alphabetic") else "m"
        text = Text(size, style["font-weight"] in ("bold", "700"), vertical, fill)
        shift = {"start": 0.0, "middle": 0.5, "end": 1.0}[style["text-anchor"]]
        self.write(content, x, y, text, shift, "monospace" in style["font-family"])


def _number(style: Style, name: str) -> float:
    try:
        return float(style[name].removesuffix("px"))
    except ValueError:
        raise RasterError(f"{name}={style[name]!r} is not a number") from None
