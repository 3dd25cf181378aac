"""``rgb_array`` frames: the games' SVG pictures rasterised (``boardenvs.raster``), and videos of whole games.

Every game and config of ``tests/env_cases.py`` is drawn through the rasteriser (so it draws everything the games
emit), frames keep one size over a game (multiples of 16), seat views show no hidden card, text is really drawn,
and Gymnasium's ``RecordVideo`` and a PettingZoo game written with moviepy's ``ImageSequenceClip`` make videos.
"""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from boardenvs.raster import SUBSTITUTES, SYMBOLS, RasterError, frame_size, svg_to_rgb
from boardenvs.registry import make_game
from boardenvs.svg import SvgCanvas
from tests.env_cases import CASES, Case

needs_pillow = pytest.mark.skipif(importlib.util.find_spec("PIL") is None, reason="needs Pillow (the render extra)")
needs_moviepy = pytest.mark.skipif(importlib.util.find_spec("moviepy") is None, reason="needs moviepy (the dev extra)")
GAME_CASES = [case for case in CASES if not case.values[0].name.startswith("toy_")]
"""The registered games' configs (the toy games of the tests draw their text: no fixed size)."""
SHORT = {
    "quoridor": {"board_size": 5, "max_moves": 24},
    "splendor": {"max_plies": 24},
    "gravwell": {"num_players": 2, "max_plies": 24},
    "battle_sheep": {"num_players": 2, "board_size": 6, "field_size": 16, "sheep_per_player": 6},
    "node_conquest": {"preset": "small", "max_plies": 24},
}
"""Small configs with short games, for the videos."""


def picture_size(markup: str) -> tuple[float, float]:
    """``(width, height)`` of an SVG picture."""
    width, height = re.search(r'<svg[^>]* width="([\d.]+)" height="([\d.]+)"', markup).groups()
    return float(width), float(height)


def random_game(game: Any, seed: int, plies: int = 400) -> list[Any]:
    """The positions of a random game (at most ``plies`` moves)."""
    rng = np.random.default_rng(seed)
    states = [game.initial_state(rng)]
    while not game.is_terminal(states[-1]) and len(states) <= plies:
        states.append(game.apply(states[-1], int(rng.choice(game.legal_actions(states[-1])))))
    return states


def sample(states: list[Any], count: int = 4) -> list[Any]:
    """``count`` positions spread over a game, the first and the last included."""
    return [states[i] for i in sorted({round(k * (len(states) - 1) / (count - 1)) for k in range(count)})]


def colours(frame: np.ndarray) -> int:
    """The number of distinct colours of a frame."""
    packed = (frame[..., 0].astype(np.int32) << 16) | (frame[..., 1].astype(np.int32) << 8) | frame[..., 2]
    return len(np.unique(packed))


def drawn(markup: str, **kwargs: Any) -> np.ndarray:
    frame = svg_to_rgb(markup, **kwargs)
    assert frame.dtype == np.uint8 and frame.ndim == 3 and frame.shape[2] == 3
    return frame


def canvas_markup(draw: Any, width: float = 64, height: float = 48) -> str:
    canvas = SvgCanvas(width, height, "test")
    draw(canvas)
    return canvas.markup()


# -- every game --------------------------------------------------------------------------------------------------
@needs_pillow
@pytest.mark.parametrize("case", GAME_CASES)
def test_every_game_draws_one_frame_size_over_a_whole_game_in_multiples_of_16(case: Case) -> None:
    game = make_game(case.name, **case.config)
    states = random_game(game, seed=3)
    sizes = {picture_size(game.render_svg(state, seat)) for state in states for seat in (None, 0)}
    assert len(sizes) == 1, f"the picture changes size during a game: {sizes}"
    height, width = frame_size(*sizes.pop())
    assert height % 16 == 0 and width % 16 == 0
    frames = [game.render_rgb(state) for state in sample(states)]
    frames += [game.render_rgb(states[-1], seat) for seat in range(game.spec.num_players)]
    assert {frame.shape for frame in frames} == {(height, width, 3)}
    for frame in frames:  # a real picture: many colours, dark text and lines
        assert colours(frame) > 16 and (frame.max(axis=2) < 96).sum() > 500
    assert not np.array_equal(frames[0], frames[-1 - game.spec.num_players])  # the first and last positions differ


@needs_pillow
@pytest.mark.parametrize("case", GAME_CASES)
def test_a_seat_view_frame_is_the_same_for_every_determinization(case: Case) -> None:
    game = make_game(case.name, **case.config)
    if game.spec.perfect_information:
        pytest.skip("perfect information: nothing to hide")
    rng = np.random.default_rng(7)
    for state in sample(random_game(game, seed=5), count=3):
        for seat in range(game.spec.num_players):
            view = game.render_rgb(state, seat)
            assert np.array_equal(view, game.render_rgb(game.determinize(state, seat, rng), seat))


@needs_pillow
@pytest.mark.parametrize("name", ["splendor", "gravwell"])
def test_a_seat_view_frame_hides_what_the_spectators_frame_shows(name: str) -> None:
    game = make_game(name, **SHORT[name])
    rng = np.random.default_rng(3)
    for state in random_game(game, seed=2)[::-1]:
        other = game.determinize(state, 1, rng)
        if game.render_svg(other) != game.render_svg(state):  # seat 1 cannot see everything here
            break
    else:
        pytest.fail("no position hides anything from seat 1")
    assert not np.array_equal(game.render_rgb(state), game.render_rgb(other))  # the spectator sees the difference
    assert np.array_equal(game.render_rgb(state, 1), game.render_rgb(other, 1))  # seat 1 does not


@needs_pillow
def test_the_games_draw_only_characters_the_font_or_the_symbols_have() -> None:
    from PIL import Image, ImageDraw, ImageFont

    font = ImageFont.load_default(size=24)

    def glyph(char: str) -> bytes:
        image = Image.new("L", (40, 40))
        ImageDraw.Draw(image).text((8, 8), char, fill=255, font=font)
        return image.tobytes()

    missing = glyph("\U0010fffd")
    characters: set[str] = set()
    for param in GAME_CASES[::2]:
        game = make_game(param.values[0].name, **param.values[0].config)
        for state in sample(random_game(game, seed=1), count=3):
            for seat in (None, 0):
                characters |= set("".join(re.findall(r"<text[^>]*>([^<]*)</text>", game.render_svg(state, seat))))
    shown = {char for char in characters if not char.isspace() and char not in SYMBOLS}
    lacking = sorted(char for char in shown if glyph(char.translate(SUBSTITUTES)) == missing)
    assert not lacking, f"the built-in font has no glyph for {lacking}: add them to raster.SYMBOLS or SUBSTITUTES"


# -- the rasteriser ------------------------------------------------------------------------------------------------
@needs_pillow
def test_numbers_are_really_drawn_in_the_shape_of_their_digits() -> None:
    def digit(text: str) -> np.ndarray:
        frame = drawn(canvas_markup(lambda c: c.text(32, 24, text, size=40, fill="#000")))
        return frame.max(axis=2) < 100

    seven = digit("7")
    rows, cols = np.nonzero(seven)
    top, bottom, left, right = rows.min(), rows.max(), cols.min(), cols.max()
    assert 20 <= bottom - top <= 40 and abs((left + right) / 2 - 32) <= 3 and abs((top + bottom) / 2 - 24) <= 4
    band = max(2, (bottom - top) // 8)
    assert seven[top : top + band, left : right + 1].any(axis=0).mean() > 0.7  # the bar across the top
    assert seven[bottom - band : bottom + 1, left : right + 1].any(axis=0).mean() < 0.4  # a narrow foot
    digits = [digit(str(d)).tobytes() for d in range(10)]
    assert len(set(digits)) == 10  # every digit looks different


@needs_pillow
def test_shapes_are_drawn_where_the_svg_puts_them_with_their_colours() -> None:
    def draw(canvas: SvgCanvas) -> None:
        canvas.rect(4, 4, 20, 16, fill="#d32f2f", stroke="#000", stroke_width=2, rx=3)
        canvas.circle(44, 24, 10, fill="#1565c0")
        canvas.line(0, 40, 64, 40, stroke="#2e7d32", stroke_width=4)
        canvas.raw('<g transform="translate(30,0)"><rect x="20" y="2" width="8" height="8" fill="#f9a825"/></g>')

    frame = drawn(canvas_markup(draw))
    assert frame.shape == (48, 64, 3)
    assert frame[12, 14].tolist() == [211, 47, 47] and frame[4, 14].max() < 60  # fill, stroke on the edge
    assert frame[24, 44].tolist() == [21, 101, 192] and frame[40, 10].tolist() == [46, 125, 50]
    assert frame[6, 54].tolist() == [249, 168, 37] and frame[47, 63].tolist() == [255, 255, 255]


@needs_pillow
def test_opacity_blends_and_click_targets_are_not_drawn() -> None:
    def draw(canvas: SvgCanvas) -> None:
        canvas.rect(0, 0, 64, 48, fill="#000")
        canvas.rect(0, 0, 32, 48, fill="#fff", opacity=0.5)
        canvas.raw('<g opacity="0.25"><rect x="32" y="0" width="32" height="24" fill="#fff"/></g>')
        canvas.target_rect(40, 30, 10, 10, [3], "a target")

    frame = drawn(canvas_markup(draw))
    assert abs(int(frame[20, 10, 0]) - 128) <= 2 and abs(int(frame[10, 50, 0]) - 64) <= 2
    assert frame[35, 45].tolist() == [0, 0, 0]  # no target highlight


@needs_pillow
def test_a_frame_is_centred_in_its_padding_and_scales() -> None:
    markup = canvas_markup(lambda c: c.rect(0, 0, 40, 20, fill="#1565c0"), width=40, height=20)
    frame = drawn(markup)
    assert frame.shape == (32, 48, 3) and frame[0, 0].tolist() == [255, 255, 255]  # the white background fills it
    assert frame[6:26, 4:44].reshape(-1, 3).tolist() == [[21, 101, 192]] * 800
    assert drawn(markup, scale=2).shape == (48, 80, 3)


@needs_pillow
@pytest.mark.parametrize(
    ("markup", "message"),
    [
        ('<ellipse cx="1" cy="1" rx="2" ry="1"/>', "<ellipse> is not supported"),
        ('<path d="M0 0L4 4"/>', "<path> is not supported"),
        ('<rect width="4" height="4" transform="rotate(45)"/>', "'transform' is not supported"),
        ('<g transform="rotate(45)"><rect width="4" height="4"/></g>', r"transform='rotate\(45\)' is not supported"),
        ('<rect width="4" height="4" fill="url(#gradient)"/>', "colour 'url"),
        ('<text x="1" y="1" text-anchor="justify">a</text>', "text-anchor='justify' is not supported"),
        ('<text x="1" y="1"><tspan>a</tspan></text>', "with child elements"),
        ('<g stroke="#000"><text x="1" y="1">a</text></g>', "stroked <text>"),
        ('<line x1="0" y1="0" x2="4" y2="4" stroke-linecap="round"/>', "'stroke-linecap' is not supported"),
        ('<polyline points="0,0 4,4" fill="#000"/>', "filled <polyline>"),
        ('<rect width="50%" height="4"/>', "percentage"),
        ('<image href="x.png"/>', "<image> is not supported"),
    ],
)
def test_what_the_rasteriser_cannot_draw_is_a_clear_error(markup: str, message: str) -> None:
    svg = f'<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16" viewBox="0 0 16 16">{markup}</svg>'
    with pytest.raises(RasterError, match=message):
        svg_to_rgb(svg)


@needs_pillow
def test_markup_that_is_not_svg_is_refused() -> None:
    with pytest.raises(RasterError, match="not well-formed"):
        svg_to_rgb("<svg")
    with pytest.raises(RasterError, match="root element must be <svg>"):
        svg_to_rgb('<g width="4"/>')
    with pytest.raises(ValueError, match="scale must be > 0"):
        svg_to_rgb(SvgCanvas(4, 4, "x").markup(), scale=0)


@needs_pillow  # the env is made with Pillow, which is then taken away
def test_without_pillow_drawing_a_frame_names_the_render_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    from boardenvs.aec import BoardGameAEC

    env = BoardGameAEC("quoridor", board_size=5, render_mode="rgb_array")  # made while Pillow is there
    env.reset(seed=0)
    for module in [name for name in sys.modules if name == "PIL" or name.startswith("PIL.")]:
        monkeypatch.delitem(sys.modules, module)
    monkeypatch.setitem(sys.modules, "PIL", None)
    with pytest.raises(ImportError, match=re.escape('pip install "boardenvs[render]"')):
        svg_to_rgb(SvgCanvas(4, 4, "x").markup())
    with pytest.raises(ImportError, match=re.escape('pip install "boardenvs[render]"')):
        env.render()


def test_without_pygame_human_rendering_names_the_render_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    from boardenvs.rendering import HumanWindow

    monkeypatch.setitem(sys.modules, "pygame", None)
    with pytest.raises(ImportError, match=re.escape('pip install "boardenvs[render]"')):
        HumanWindow("test").show(np.zeros((16, 16, 3), dtype=np.uint8))


def test_the_rules_and_the_envs_import_without_pillow() -> None:
    code = (
        "import sys, boardenvs, boardenvs.core, boardenvs.raster, boardenvs.rendering, boardenvs.aec\n"
        "import boardenvs.games.splendor, boardenvs.games.gravwell\n"
        "print('PIL' in sys.modules)\n"
    )
    root = Path(__file__).resolve().parents[1]
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=root, check=True)
    assert out.stdout.strip() == "False"


# -- videos --------------------------------------------------------------------------------------------------------
def random_legal(rng: np.random.Generator, mask: np.ndarray) -> int:
    return int(rng.choice(np.flatnonzero(mask)))


@needs_pillow
@needs_moviepy
@pytest.mark.parametrize("name", list(SHORT))
def test_gymnasium_record_video_writes_a_whole_episode(name: str, tmp_path: Path) -> None:
    import gymnasium
    from gymnasium.wrappers import RecordVideo

    from boardenvs.envs import gym_env_id

    env = gymnasium.make(gym_env_id(name), render_mode="rgb_array", opponent="random", **SHORT[name])
    env = RecordVideo(env, str(tmp_path / "videos"), episode_trigger=lambda episode: True, disable_logger=True)
    rng = np.random.default_rng(0)
    observation, _ = env.reset(seed=0)
    done, steps = False, 0
    while not done:
        observation, _, terminated, truncated, _ = env.step(random_legal(rng, observation["action_mask"]))
        done, steps = terminated or truncated, steps + 1
    env.close()
    videos = list((tmp_path / "videos").glob("*.mp4"))
    assert steps >= 2 and len(videos) == 1 and videos[0].stat().st_size > 1000


@needs_pillow
@needs_moviepy
@pytest.mark.parametrize("name", list(SHORT))
def test_a_pettingzoo_game_records_as_a_video(name: str, tmp_path: Path) -> None:
    try:
        from moviepy import ImageSequenceClip
    except ImportError:  # moviepy < 2
        from moviepy.editor import ImageSequenceClip

    from boardenvs.aec import env as aec_env

    env = aec_env(name, render_mode="rgb_array", **SHORT[name])
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    frames = [env.render()]
    for _agent in env.agent_iter():
        observation, _, terminated, truncated, _ = env.last()
        env.step(None if terminated or truncated else random_legal(rng, observation["action_mask"]))
        if env.agents:
            frames.append(env.render())
    env.close()
    assert len(frames) > 4 and len({frame.shape for frame in frames}) == 1
    assert frames[0].shape[0] % 16 == 0 and frames[0].shape[1] % 16 == 0
    path = tmp_path / f"{name}.mp4"
    ImageSequenceClip(frames, fps=4).write_videofile(str(path), logger=None)
    assert path.stat().st_size > 1000
