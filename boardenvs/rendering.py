"""Rendering shared by the adapters: the render modes and a lazily created pygame window.

``ansi`` is the game's canonical text (``Game.to_text``), ``rgb_array`` its picture (``Game.render_rgb``: the game's
SVG picture rasterised by :mod:`boardenvs.raster`, ``uint8[H, W, 3]``, one size per config with width and height
multiples of 16, so ``RecordVideo`` works) and ``human`` shows that picture in a pygame window. Pillow and pygame
(the ``render`` extra) are imported only when a frame is first drawn, so environments construct and run on
headless machines without them; drawing one without them raises an ``ImportError`` naming the extra.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from typing import Any

import numpy as np

from boardenvs.core import Game
from boardenvs.raster import RENDER_EXTRA

RENDER_MODES: tuple[str, ...] = ("ansi", "rgb_array", "human")
"""The render modes every adapter supports (those whose modules are installed: :func:`available_render_modes`)."""
RENDER_MODULES: dict[str, tuple[str, ...]] = {"rgb_array": ("PIL",), "human": ("PIL", "pygame")}
"""The optional modules (the ``render`` extra) each render mode needs."""

RENDER_FPS: int = 2
"""Frames per second of ``human`` rendering (``metadata["render_fps"]``)."""


def missing_render_modules(render_mode: str) -> list[str]:
    """The modules ``render_mode`` needs that are not installed (found without importing them)."""
    return [name for name in RENDER_MODULES.get(render_mode, ()) if not _installed(name)]


def available_render_modes() -> list[str]:
    """The render modes this installation can draw: ``ansi`` always, ``rgb_array`` with Pillow, ``human`` with
    Pillow and pygame. The adapters' ``metadata["render_modes"]``, so checkers that try every listed mode (Gymnasium's
    ``check_env``, PettingZoo's ``render_test``) pass on a core install."""
    return [mode for mode in RENDER_MODES if not missing_render_modules(mode)]


def check_render_mode(render_mode: str | None) -> None:
    """Raise ``ValueError`` naming ``render_mode`` unless it is ``None`` or one of :data:`RENDER_MODES`.

    A mode whose modules are missing is accepted here (PettingZoo's ``render_test`` constructs every env with
    ``"human"`` before it reads the modes offered); drawing a frame then raises :func:`require_render_modules`'s
    error."""
    if render_mode is not None and render_mode not in RENDER_MODES:
        allowed = [None, *RENDER_MODES]
        raise ValueError(f"render_mode must be one of {allowed}, got {render_mode!r}")


def require_render_modules(render_mode: str) -> None:
    """Raise ``ImportError`` naming ``render_mode``, the missing modules and the extra, unless they are installed."""
    missing = missing_render_modules(render_mode)
    if missing:
        raise ImportError(f"render_mode={render_mode!r} needs {' and '.join(missing)}, not installed: {RENDER_EXTRA}")


def _installed(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except ValueError:  # in sys.modules without a spec
        return module in sys.modules and sys.modules[module] is not None


def rgb_frame(game: Game, state: Any, seat: int | None = None) -> np.ndarray:
    """The picture of ``state`` (as ``seat`` may see it, or everything for ``None``) as a fresh ``uint8[H, W, 3]``
    array."""
    frame = np.array(game.render_rgb(state) if seat is None else game.render_rgb(state, seat), dtype=np.uint8)
    if frame.ndim != 3 or frame.shape[2] != 3:
        raise ValueError(f"{game!r}.render_rgb must return an H x W x 3 array, got shape {frame.shape}")
    return frame


class HumanWindow:
    """A pygame window that shows RGB frames, created on the first :meth:`show`.

    Args:
        title: The window caption.
        fps: The frame rate :meth:`show` ticks at (it waits so frames are at least ``1 / fps`` apart).
    """

    def __init__(self, title: str, fps: float = RENDER_FPS) -> None:
        self.title = title
        self.fps = fps
        self._pygame: Any = None
        self._screen: Any = None
        self._clock: Any = None

    @property
    def is_open(self) -> bool:
        """Whether the window exists."""
        return self._screen is not None

    def show(self, frame: np.ndarray) -> None:
        """Draw ``frame`` (``uint8[H, W, 3]``), opening or resizing the window as needed."""
        pygame = self._open(frame.shape[1], frame.shape[0])
        surface = pygame.surfarray.make_surface(np.ascontiguousarray(frame.transpose(1, 0, 2)))
        self._screen.blit(surface, (0, 0))
        pygame.event.pump()
        pygame.display.flip()
        self._clock.tick(self.fps)

    def close(self) -> None:
        """Close the window; safe to call any number of times."""
        if self._screen is not None:
            self._pygame.display.quit()
        self._screen = None
        self._clock = None

    def _open(self, width: int, height: int) -> Any:
        if self._pygame is None:
            os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
            try:
                import pygame  # optional dependency, imported on first use
            except ImportError as error:
                raise ImportError(f"human rendering needs pygame: {RENDER_EXTRA}") from error

            self._pygame = pygame
        pygame = self._pygame
        if self._screen is None:
            pygame.display.init()
            pygame.display.set_caption(self.title)
            self._clock = pygame.time.Clock()
        if self._screen is None or self._screen.get_size() != (width, height):
            self._screen = pygame.display.set_mode((width, height))
        return pygame


def render_state(
    game: Game, state: Any, render_mode: str | None, window: HumanWindow | None
) -> str | np.ndarray | None:
    """Render ``state`` for a spectator (everything): :func:`render_view` without a seat."""
    return render_view(game, state, render_mode, window)


def render_view(
    game: Game, state: Any, render_mode: str | None, window: HumanWindow | None, seat: int | None = None
) -> str | np.ndarray | None:
    """Render ``state`` in ``render_mode`` for a spectator (``seat=None``: everything) or as seat ``seat`` may see it:
    text for ``ansi`` (``game.to_text``, or ``game.text_for(state, seat)``), an array for ``rgb_array``
    (``game.render_rgb(state, seat)``: the seat's own SVG picture, no hidden card drawn), a window for ``human``.

    ``window`` is used for ``human`` only (pass the env's lazily created :class:`HumanWindow`).
    """
    if render_mode == "ansi":
        return game.to_text(state) if seat is None else game.text_for(state, seat)
    if render_mode is not None:
        require_render_modules(render_mode)
    if render_mode == "rgb_array":
        return rgb_frame(game, state, seat)
    if render_mode == "human":
        if window is None:
            raise ValueError("human rendering needs a HumanWindow")
        window.show(rgb_frame(game, state, seat))
    return None
