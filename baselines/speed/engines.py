"""Random-play speed of a game's forward model (with and without the mask, with the observation), of its
pictures (SVG, RGB frames), and of OpenSpiel's C++ Quoridor for reference."""

from __future__ import annotations

from typing import Any

import numpy as np

import boardenvs
from baselines.speed.timing import Measurement, Uniforms, legal_ids, timed


def forward_model(game: boardenvs.Game, seconds: float, seed: int, masked: bool = False) -> Measurement:
    """``legal_actions`` + choice + ``apply`` in a random playout loop, as the reference engines are timed
    (``Game.legal_actions`` lists the true entries of the mask unless the game has a faster way); ``masked``
    reads ``legal_action_mask`` instead (what the environments hand to learners) and lists it with ``nonzero``."""
    uniforms = Uniforms(seed)
    rng = np.random.default_rng(seed)
    legal = (lambda state: legal_ids(game.legal_action_mask(state))) if masked else game.legal_actions

    def play() -> int:
        state, plies = game.initial_state(rng), 0
        while not game.is_terminal(state):
            state = game.apply(state, int(uniforms.pick(legal(state))))
            plies += 1
        return plies

    return timed(f"{game.spec.name} forward model{', mask' if masked else ''}", seconds, play)


def fast_playout_games(name: str, game: boardenvs.Game, seconds: float, seed: int) -> Measurement | None:
    """Whole random games by the game's fast playout (``baselines.games.fast_playout``: compiled with Numba where
    it is installed; the same moves from the same numbers as the ``legal_actions`` loop), each from the game's
    fast start (``baselines.games.fast_initial_state``: ``initial_state`` unless it has a faster one with the same
    result); ``None`` for a game without a fast playout. The loop over plies runs inside the playout, not in
    Python, so this row is the engine's random-game speed rather than a per-ply call's."""
    import importlib.util

    from baselines.games import fast_playout, random_game
    from baselines.search.compiled import compiling_disabled
    from baselines.search.playout import UniformStream

    if fast_playout(name) is None:
        return None
    rng = np.random.default_rng(seed)
    stream = UniformStream(rng)
    compiled = importlib.util.find_spec("numba") is not None and not compiling_disabled()

    def play() -> int:
        return int(random_game(name, game, rng, stream).ply)

    return timed(f"{game.spec.name} random games, {'compiled' if compiled else 'Python'} playout", seconds, play)


def forward_model_observed(game: boardenvs.Game, seconds: float, seed: int) -> Measurement:
    """The loop a learner needs from the engine alone: the mask, a choice, ``apply``, and the observation of the
    player to move next (the floor under every environment row)."""
    uniforms = Uniforms(seed)
    rng = np.random.default_rng(seed)

    def play() -> int:
        state, plies = game.initial_state(rng), 0
        game.observe(state, state.current_player)
        while not game.is_terminal(state):
            state = game.apply(state, int(uniforms.pick(legal_ids(game.legal_action_mask(state)))))
            if not game.is_terminal(state):
                game.observe(state, state.current_player)
            plies += 1
        return plies

    return timed(f"{game.spec.name} forward model + observe", seconds, play)


def svg_pictures(game: boardenvs.Game, seconds: float, seed: int) -> Measurement:
    """``Game.render_svg`` of the spectator's view, over every position of a few random games (one
    "transition" is one picture; ``us/transition`` is the time to draw one)."""
    rng = np.random.default_rng(seed)
    positions: list[Any] = []
    while len(positions) < 200:
        state = game.initial_state(rng)
        positions.append(state)
        while not game.is_terminal(state):
            state = game.apply(state, int(rng.choice(game.legal_actions(state))))
            positions.append(state)

    def draw_all() -> int:
        for state in positions:
            game.render_svg(state)
        return len(positions)

    return timed(f"{game.spec.name} SVG picture", seconds, draw_all)


def rgb_frames(game: boardenvs.Game, seconds: float, seed: int, count: int = 30) -> Measurement | None:
    """``Game.render_rgb`` (the spectator's SVG picture rasterised: every ``rgb_array`` frame and video frame) of
    ``count`` positions spread over random games; ``us/transition`` is the time of one frame. ``None`` without
    Pillow (the render extra)."""
    import importlib.util

    if importlib.util.find_spec("PIL") is None:
        return None
    rng = np.random.default_rng(seed)
    positions: list[Any] = []
    while len(positions) < count:
        state = game.initial_state(rng)
        while not game.is_terminal(state):
            if rng.random() < 0.1:  # a few positions of each game, so the frames span openings to endings
                positions.append(state)
            state = game.apply(state, int(rng.choice(game.legal_actions(state))))
        positions.append(state)

    def draw_all() -> int:
        for state in positions[:count]:
            game.render_rgb(state)
        return count

    return timed(f"{game.spec.name} rgb_array frame", seconds, draw_all)


def openspiel_quoridor(config: dict[str, Any], seconds: float, seed: int) -> Measurement | None:
    """OpenSpiel's C++ Quoridor driven from Python with the same loop, if ``open_spiel`` is installed."""
    try:
        import pyspiel
    except ImportError:
        return None
    params = {"board_size": config.get("board_size", 9), "players": config.get("num_players", 2)}
    if params["players"] != 2:
        return None  # OpenSpiel's 4-player Quoridor aborts on some positions
    os_game = pyspiel.load_game("quoridor", params)
    uniforms = Uniforms(seed)

    def play() -> int:
        state, plies = os_game.new_initial_state(), 0
        while not state.is_terminal():
            state.apply_action(uniforms.pick(state.legal_actions()))
            plies += 1
        return plies

    return timed("OpenSpiel quoridor (C++)", seconds, play)
