"""Test-session setup: headless rendering and the toy games registered for every test module alike."""

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from tests.toy_games import ensure_toy_games_registered  # noqa: E402

ensure_toy_games_registered()
