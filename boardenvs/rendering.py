"""Rendering shared by the adapters: the render modes and a lazily created pygame window.

``ansi`` is the game's canonical text (``Game.to_text``), ``rgb_array`` its picture (``Game.render_rgb``,
``uint8[H, W, 3]``) and ``human`` shows that picture in a pygame window. pygame is imported only when a
``human`` frame is first drawn, so environments construct and run on headless machines without it.
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np

from boardenvs.core import Game, text_to_rgb

RENDER_MODES: tuple[str, ...] = ("ansi", "rgb_array", "human")
"""The render modes every adapter supports."""

RENDER_FPS: int = 2
"""Frames per second of ``human`` rendering (``metadata["render_fps"]``)."""


def check_render_mode(render_mode: str | None) -> None:
    """Raise ``ValueError`` naming ``render_mode`` unless it is ``None`` or one of :data:`RENDER_MODES`."""
    if render_mode is not None and render_mode not in RENDER_MODES:
        allowed = [None, *RENDER_MODES]
        raise ValueError(f"render_mode must be one of {allowed}, got {render_mode!r}")


def rgb_frame(game: Game, state: Any) -> np.ndarray:
    """The picture of ``state`` as a fresh ``uint8[H, W, 3]`` array."""
    frame = np.array(game.render_rgb(state), dtype=np.uint8)
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
            import pygame  # optional dependency, imported on first use

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
    """Render ``state`` in ``render_mode``: text for ``ansi``, an array for ``rgb_array``, a window for ``human``.

    ``window`` is used for ``human`` only (pass the env's lazily created :class:`HumanWindow`).
    """
    if render_mode == "ansi":
        return game.to_text(state)
    if render_mode == "rgb_array":
        return rgb_frame(game, state)
    if render_mode == "human":
        if window is None:
            raise ValueError("human rendering needs a HumanWindow")
        window.show(rgb_frame(game, state))
    return None


def render_view(
    game: Game, state: Any, render_mode: str | None, window: HumanWindow | None, seat: int | None = None
) -> str | np.ndarray | None:
    """Render ``state`` for a spectator (``seat=None``: everything) or as seat ``seat`` may see it.

    For a seat, ``ansi`` is ``game.text_for(state, seat)``; ``rgb_array``/``human`` show the game's own picture
    only when the game has perfect information (the pictures draw hidden cards), otherwise a plain picture of
    that seat's text (:func:`boardenvs.core.text_to_rgb`).
    """
    if seat is None or (render_mode != "ansi" and game.spec.perfect_information):
        return render_state(game, state, render_mode, window)
    text = game.text_for(state, seat)
    if render_mode == "ansi":
        return text
    frame = text_to_rgb(text)
    if render_mode == "rgb_array":
        return frame
    if window is None:
        raise ValueError("human rendering needs a HumanWindow")
    window.show(frame)
    return None
