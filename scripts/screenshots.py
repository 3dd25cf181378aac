"""Screenshots of every game's replay page and of the live arena, and its ``rgb_array`` frames, for the docs.

    python -m scripts.screenshots                        # docs/images/replay_<game>.png, arena_*.png, frame_<game>.png
    python -m scripts.screenshots --out /tmp/shots --chromium /usr/bin/chromium
    python -m scripts.screenshots --frames-only          # docs/images/frame_<game>.png alone (no Chromium)

Each game is played by its scripted agents (seeded), written as an HTML replay, opened from disk and shot in the
middle of the game; the arena is started on 127.0.0.1 and shot during a Quoridor game against ``heuristic`` and a
Splendor game as seat 0 sees it. Needs Playwright (the dev extra) and a Chromium (``apt-get install chromium``).
The frames are ``Game.render_rgb`` of a busy position mid-game of the same games (what ``rgb_array`` rendering and
videos show; Pillow, the render extra): ``frame_<game>.png`` for the spectator and, for the games with hidden
information, ``frame_<game>_seat0.png`` as seat 0 (the learner of the single-agent env) sees it.
"""

from __future__ import annotations

import shutil
import socket
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from baselines.arena.match import play_game
from baselines.arena.replays import replay_from_record
from baselines.factory import make_agent
from boardenvs.registry import make_game
from boardenvs.replay import setup_rng
from boardenvs.replay_html import replay_html

from ._args import OptionError, run_cli

SHOWCASE: dict[str, tuple[dict[str, Any], tuple[str, ...]]] = {
    "quoridor": ({}, ("heuristic", "path")),
    "splendor": ({}, ("buyer", "osla")),
    "gravwell": ({"num_players": 3}, ("tree", "random", "random")),
    "battle_sheep": ({"num_players": 2, "hidden_counts": True}, ("evaluation", "random")),
    "node_conquest": ({"topology": "hex", "rows": 5, "cols": 6}, ("greedy", "random")),
}
"""The game, config and agents each screenshot shows."""


@dataclass
class Args:
    """Take the docs' screenshots of the replay pages and the arena."""

    out: str = "docs/images"
    """Folder of the PNG files."""
    chromium: str = ""
    """The Chromium executable (default: chromium on the PATH)."""
    seed: int = 1
    """Seed of the games shown."""
    frames_only: bool = False
    """Write only the rgb_array frames (frame_<game>.png): no Chromium needed."""


def replay_page(name: str, folder: Path, seed: int) -> Path:
    """Play the showcase game of ``name`` and write its HTML replay into ``folder``."""
    config, specs = SHOWCASE[name]
    game = make_game(name, **config)
    agents = [make_agent(spec, name, seed=seed + seat) for seat, spec in enumerate(specs)]
    replay = replay_from_record(game, play_game(game, agents, seed, names=list(specs)))
    path = folder / f"{name}.html"
    path.write_text(replay_html(replay, game), encoding="utf-8")
    return path


def middle_position(name: str, seed: int) -> tuple[Any, Any]:
    """The showcase game of ``name`` played by its agents, and its busiest position (the longest picture: full
    hands, many pieces) of the middle third of the game."""
    config, specs = SHOWCASE[name]
    game = make_game(name, **config)
    agents = [make_agent(spec, name, seed=seed + seat) for seat, spec in enumerate(specs)]
    record = play_game(game, agents, seed, names=list(specs))
    states = [game.initial_state(setup_rng(seed))]
    for action in record.actions:
        states.append(game.apply(states[-1], action))
    middle = states[len(states) // 3 : max(len(states) // 3 + 1, 2 * len(states) // 3)]
    return game, max(middle, key=lambda state: len(game.render_svg(state)))


def write_frames(out: Path, seed: int) -> list[Path]:
    """``frame_<game>.png``: each showcase game's ``rgb_array`` frame mid-game, and ``frame_<game>_seat0.png``
    (seat 0's view) for the games with hidden information."""
    from PIL import Image  # the render extra

    frames = []
    for name in SHOWCASE:
        game, state = middle_position(name, seed)
        seats = [None] if game.spec.perfect_information else [None, 0]
        for seat in seats:
            frames.append(out / (f"frame_{name}.png" if seat is None else f"frame_{name}_seat{seat}.png"))
            Image.fromarray(game.render_rgb(state, seat)).save(frames[-1])
    return frames


def shoot_replays(browser: Any, out: Path, seed: int) -> list[Path]:
    """One screenshot per game: its replay page halfway through the game."""
    shots = []
    with tempfile.TemporaryDirectory() as folder:
        for name in SHOWCASE:
            page = browser.new_page(viewport={"width": 1400, "height": 900})
            page.goto(replay_page(name, Path(folder), seed).as_uri())
            moves = page.locator("#moves li").count()
            page.locator("#moves li").nth(max(0, moves // 2 - 1)).click()
            shots.append(out / f"replay_{name}.png")
            page.screenshot(path=str(shots[-1]), full_page=True)
            page.close()
    return shots


def shoot_arena(browser: Any, out: Path) -> list[Path]:
    """The arena during a Quoridor game against ``heuristic`` and a Splendor game against ``buyer``."""
    import uvicorn

    from baselines.web.app import create_app

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(create_app(), host="127.0.0.1", port=port, log_level="warning"))
    threading.Thread(target=server.run, daemon=True).start()
    while not server.started:
        time.sleep(0.05)
    try:
        return [_arena_shot(browser, port, out, "quoridor", {"board_size": 7}, "heuristic", 6),
                _arena_shot(browser, port, out, "splendor", {}, "buyer", 8)]  # fmt: skip
    finally:
        server.should_exit = True


def _arena_shot(browser: Any, port: int, out: Path, game: str, config: dict, bot: str, moves: int) -> Path:
    page = browser.new_page(viewport={"width": 1400, "height": 900})
    page.goto(f"http://127.0.0.1:{port}/")
    page.wait_for_selector("#game option", state="attached")
    page.select_option("#game", game)
    for key, value in config.items():
        page.fill(f'#config input[data-key="{key}"]', str(value))
    page.fill("#seat-1", bot)
    with page.expect_response(lambda r: r.url.endswith("/api/sessions")):
        page.click("#start")
    for _ in range(moves):
        clickable = page.locator("#board .target").last
        clickable = clickable if clickable.count() else page.locator("#buttons button").first
        with page.expect_response(lambda r: "/move" in r.url):
            clickable.click()
            if page.locator("#choices button").count():
                page.locator("#choices button").first.click()
    path = out / f"arena_{game}.png"
    page.screenshot(path=str(path), full_page=True)
    page.close()
    return path


def chromium_executable(args: Args) -> str:
    """``--chromium``, or the Chromium on the PATH; an ``OptionError`` of ``chromium`` when there is none."""
    executable = shutil.which(args.chromium) if args.chromium else None
    executable = executable or (None if args.chromium else shutil.which("chromium") or shutil.which("chromium-browser"))
    if not executable:
        found = f"no executable {args.chromium!r}" if args.chromium else "no Chromium found"
        raise OptionError("chromium", f"{found}; apt-get install chromium, or pass --chromium PATH")
    return executable


def check_args(args: Args) -> None:
    """The Chromium must exist unless only the frames are written."""
    if not args.frames_only:
        chromium_executable(args)


def main(args: Args) -> list[Path]:
    """Take every screenshot and write every frame; returns their paths."""
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    frames = write_frames(out, args.seed)
    if args.frames_only:
        return frames
    from playwright.sync_api import sync_playwright  # the dev extra

    executable = chromium_executable(args)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=executable, args=["--no-sandbox"])
        shots = shoot_replays(browser, out, args.seed) + shoot_arena(browser, out)
        browser.close()
    return shots + frames


def cli(argv: list[str] | None = None) -> None:
    """Entry point of ``python -m scripts.screenshots``."""
    run_cli(Args, argv, _run, description=__doc__, check=check_args)


def _run(args: Args) -> None:
    shots = main(args)
    for path in shots:
        print(f"wrote {path}")


if __name__ == "__main__":
    cli()
