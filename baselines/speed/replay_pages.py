"""HTML replay pages' speed: size, build time, and opening and stepping through one in headless Chromium."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from boardenvs.registry import make_game

STEP_THROUGH_SCRIPT = (
    "() => { const t = performance.now(); for (let i = 0; i <= last; i++) show(i); return performance.now() - t; }"
)
"""Shows every position of a replay page once, timed inside the page (milliseconds)."""


@dataclass
class ReplayPageSpeed:
    """One game's HTML replay: its size and how long it takes to build, open and step through."""

    name: str
    plies: int
    megabytes: float
    build_seconds: float
    open_seconds: float
    step_milliseconds: float

    @property
    def per_second(self) -> float:
        return 1000.0 / self.step_milliseconds


def bench_replay_pages(names: list[str], config: dict[str, Any], seed: int) -> list[ReplayPageSpeed]:
    """Build, open and step through the replay of one random game of each game (see the module docstring)."""
    import shutil
    import tempfile
    from pathlib import Path

    from playwright.sync_api import sync_playwright  # the dev extra

    executable = shutil.which("chromium") or shutil.which("chromium-browser")
    if executable is None:
        raise ValueError("--replay-page needs a Chromium (apt-get install chromium)")
    results = []
    with tempfile.TemporaryDirectory() as folder, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=executable, args=["--no-sandbox"])
        for name in names:
            results.append(_replay_page_speed(browser, Path(folder) / f"{name}.html", name, config, seed))
        browser.close()
    return results


def _replay_page_speed(browser: Any, path: Any, name: str, config: dict[str, Any], seed: int) -> ReplayPageSpeed:
    from baselines.agent import RandomAgent
    from baselines.arena import play_game
    from baselines.arena.replays import replay_from_record
    from boardenvs.replay_html import replay_html

    game = make_game(name, **({"max_plies": 300} if name == "node_conquest" and not config else config))
    record = play_game(game, [RandomAgent() for _ in range(game.spec.num_players)], seed)
    start = time.perf_counter()
    path.write_text(replay_html(replay_from_record(game, record), game), encoding="utf-8")
    build = time.perf_counter() - start
    page = browser.new_page()
    start = time.perf_counter()
    page.goto(path.as_uri())
    opened = time.perf_counter() - start
    total = page.evaluate(STEP_THROUGH_SCRIPT)
    page.close()
    megabytes = path.stat().st_size / 1e6
    return ReplayPageSpeed(name, record.plies, megabytes, build, opened, total / (record.plies + 1))


def report_replay_pages(results: list[ReplayPageSpeed]) -> str:
    """One line per game: plies, page size, build, open and per-position step times."""
    lines = [f"{'game':16s} {'plies':>6s} {'MB':>6s} {'build s':>8s} {'open s':>7s} {'ms/position':>12s}"]
    for r in results:
        lines.append(f"{r.name:16s} {r.plies:6d} {r.megabytes:6.2f} {r.build_seconds:8.2f} {r.open_seconds:7.2f} "
                     f"{r.step_milliseconds:12.1f}")  # fmt: skip
    return "\n".join(lines)
