"""A small SVG writer shared by the games' pictures (standard library only).

Every game draws its state with :class:`SvgCanvas`: rectangles, circles, lines, polygons and text, each written
straight into a list of strings (no DOM, so a position draws in well under a millisecond). Board elements that a
person may click to play are *targets*: a group ``<g class="target" data-actions="3 17">`` around a highlighted
shape, where ``data-actions`` lists the legal action ids that clicking it may mean (one plays at once, several
let the person choose). The browser pages (``boardenvs.replay_html``, the live arena) read targets from that
markup alone, so a game's picture is the single place that knows where its moves are drawn.

>>> canvas = SvgCanvas(40, 20, "demo")
>>> canvas.rect(0, 0, 40, 20, fill="#eee")
>>> canvas.target_rect(5, 5, 10, 10, [3], "a3")
>>> markup = canvas.markup()
>>> markup.startswith("<svg") and 'data-actions="3"' in markup
True
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from html import escape

TARGET_FILL = "#ffd54f"
"""The colour of a target's highlight (legal moves of the person to play)."""
TARGET_OPACITY = 0.45
PLAYER_COLOURS: tuple[str, ...] = ("#d32f2f", "#1565c0", "#f9a825", "#2e7d32")
"""Seat colours shared by every game: red, blue, yellow, green (seat 0..3)."""
PLAYER_NAMES: tuple[str, ...] = ("red", "blue", "yellow", "green")


def number(value: float) -> str:
    """A coordinate as short text: ``3`` for 3.0, ``2.5`` for 2.5, two decimals at most.

    >>> number(3.0), number(2.25), number(1 / 3), number(217.00000000000003), number(-0.001)
    ('3', '2.25', '0.33', '217', '0')
    """
    if value == int(value):
        return str(int(value))
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def attributes(**values: object) -> str:
    """`` name="value"`` pairs for the values that are not ``None`` (``stroke_width`` becomes ``stroke-width``)."""
    parts = []
    for name, value in values.items():
        if value is None:
            continue
        text = number(value) if isinstance(value, float) else escape(str(value))
        parts.append(f' {name.replace("_", "-")}="{text}"')
    return "".join(parts)


class SvgCanvas:
    """An SVG picture being written: shapes are appended in drawing order, :meth:`markup` closes it.

    Args:
        width: Picture width in SVG units (pixels at scale 1).
        height: Picture height.
        game: The game's name, written as the root's ``data-game`` and CSS class ``boardenvs-<game>``.
        title: An accessible title for the whole picture (whose turn, the score), or ``None``.
        background: The background fill, or ``None`` for transparent.
    """

    def __init__(self, width: float, height: float, game: str, title: str | None = None,
                 background: str | None = "#ffffff") -> None:  # fmt: skip
        self.width, self.height = width, height
        size = f'width="{number(width)}" height="{number(height)}" viewBox="0 0 {number(width)} {number(height)}"'
        self._parts: list[str] = [
            f'<svg xmlns="http://www.w3.org/2000/svg" {size} class="boardenvs boardenvs-{escape(game)}" '
            f'data-game="{escape(game)}" font-family="Helvetica, Arial, sans-serif">'
        ]
        if title is not None:
            self._parts.append(f"<title>{escape(title)}</title>")
        if background is not None:
            self._parts.append(f'<rect width="100%" height="100%" fill="{background}"/>')

    # -- shapes ----------------------------------------------------------------------------------
    def rect(self, x: float, y: float, width: float, height: float, fill: str = "none", stroke: str | None = None,
             stroke_width: float | None = None, rx: float | None = None, **extra: object) -> None:  # fmt: skip
        """A rectangle with its top-left corner at (``x``, ``y``); ``extra`` adds attributes (``opacity=0.5``)."""
        self._parts.append(
            f'<rect x="{number(x)}" y="{number(y)}" width="{number(width)}" height="{number(height)}" '
            f'fill="{fill}"{attributes(stroke=stroke, stroke_width=stroke_width, rx=rx, **extra)}/>'
        )

    def circle(self, cx: float, cy: float, r: float, fill: str = "none", stroke: str | None = None,
               stroke_width: float | None = None, **extra: object) -> None:  # fmt: skip
        """A circle centred on (``cx``, ``cy``)."""
        self._parts.append(
            f'<circle cx="{number(cx)}" cy="{number(cy)}" r="{number(r)}" fill="{fill}"'
            f"{attributes(stroke=stroke, stroke_width=stroke_width, **extra)}/>"
        )

    def line(self, x1: float, y1: float, x2: float, y2: float, stroke: str = "#000", stroke_width: float = 1,
             **extra: object) -> None:  # fmt: skip
        """A straight line."""
        self._parts.append(
            f'<line x1="{number(x1)}" y1="{number(y1)}" x2="{number(x2)}" y2="{number(y2)}" stroke="{stroke}" '
            f'stroke-width="{number(stroke_width)}"{attributes(**extra)}/>'
        )

    def polygon(self, points: Iterable[tuple[float, float]], fill: str = "none", stroke: str | None = None,
                stroke_width: float | None = None, **extra: object) -> None:  # fmt: skip
        """A closed polygon through ``points``."""
        path = " ".join(f"{number(x)},{number(y)}" for x, y in points)
        self._parts.append(
            f'<polygon points="{path}" fill="{fill}"{attributes(stroke=stroke, stroke_width=stroke_width, **extra)}/>'
        )

    def text(self, x: float, y: float, content: object, size: float = 12, fill: str = "#000",
             anchor: str = "middle", weight: str | None = None, **extra: object) -> None:  # fmt: skip
        """Text whose baseline is vertically centred on ``y`` and anchored at ``x`` (``start``/``middle``/``end``)."""
        self._parts.append(
            f'<text x="{number(x)}" y="{number(y)}" font-size="{number(size)}" fill="{fill}" '
            f'text-anchor="{anchor}" dominant-baseline="central"{attributes(font_weight=weight, **extra)}>'
            f"{escape(str(content))}</text>"
        )

    def raw(self, markup: str) -> None:
        """Append ready-made markup (the caller escapes it)."""
        self._parts.append(markup)

    # -- groups and targets --------------------------------------------------------------------------
    def begin_group(self, css_class: str | None = None, **extra: object) -> None:
        """Open a ``<g>``; close it with :meth:`end_group`."""
        css = f' class="{escape(css_class)}"' if css_class else ""
        self._parts.append(f"<g{css}{attributes(**extra)}>")

    def end_group(self) -> None:
        """Close the innermost group."""
        self._parts.append("</g>")

    def begin_target(self, actions: Sequence[int], label: str) -> None:
        """Open a clickable target for ``actions`` (legal action ids) with a hover ``label``; draw its shape, then
        :meth:`end_group`."""
        ids = " ".join(str(int(action)) for action in actions)
        self._parts.append(f'<g class="target" data-actions="{ids}" cursor="pointer"><title>{escape(label)}</title>')

    def target_rect(self, x: float, y: float, width: float, height: float, actions: Sequence[int], label: str,
                    rx: float | None = None) -> None:  # fmt: skip
        """A highlighted rectangle that plays ``actions`` when clicked."""
        self.begin_target(actions, label)
        self.rect(x, y, width, height, fill=TARGET_FILL, stroke="#f57f17", stroke_width=1.5, rx=rx,
                  fill_opacity=TARGET_OPACITY)  # fmt: skip
        self.end_group()

    def target_circle(self, cx: float, cy: float, r: float, actions: Sequence[int], label: str) -> None:
        """A highlighted circle that plays ``actions`` when clicked."""
        self.begin_target(actions, label)
        self.circle(cx, cy, r, fill=TARGET_FILL, stroke="#f57f17", stroke_width=1.5, fill_opacity=TARGET_OPACITY)
        self.end_group()

    def markup(self) -> str:
        """The finished ``<svg>`` document fragment."""
        return "".join(self._parts) + "</svg>"

    def fragment(self) -> str:
        """What was drawn, without the ``<svg>`` element around it: a piece to draw again with :meth:`raw` (games
        draw their unchanging parts once per config and reuse them)."""
        return "".join(self._parts[1:])


def group_actions(pairs: Iterable[tuple[object, int]]) -> dict[object, list[int]]:
    """Actions grouped by the board element they are drawn on: ``{element: [action, ...]}`` in first-seen order.

    >>> group_actions([("a1", 4), ("b2", 7), ("a1", 9)])
    {'a1': [4, 9], 'b2': [7]}
    """
    grouped: dict[object, list[int]] = {}
    for element, action in pairs:
        grouped.setdefault(element, []).append(action)
    return grouped


def text_svg(text: str, game: str, title: str | None = None) -> str:
    """A plain picture of monospaced text lines, the default picture of a game without a drawing of its own."""
    lines = text.splitlines() or [""]
    width = 16 + 7.8 * max(len(line) for line in lines)
    canvas = SvgCanvas(width, 16 + 16 * len(lines), game, title)
    for row, line in enumerate(lines):
        canvas.text(8, 16 + 16 * row, line, size=13, anchor="start", font_family="monospace", style="white-space:pre")
    return canvas.markup()
