"""Every game's HTML replay opens from disk in Chromium and plays to its result."""

from __future__ import annotations

import pytest

from baselines.agent import RandomAgent
from baselines.arena import play_game
from baselines.arena.replays import replay_from_record
from boardenvs import make_game
from boardenvs.replay import replay_states
from boardenvs.replay_html import replay_html

pytestmark = pytest.mark.browser

GAMES = [
    ("quoridor", {"board_size": 5}),
    ("splendor", {}),
    ("gravwell", {"num_players": 2}),
    ("battle_sheep", {"num_players": 2, "hidden_counts": True}),
    ("node_conquest", {"topology": "hex", "rows": 4, "cols": 4, "max_plies": 60}),
]


def write_page(tmp_path, name, config, seed=2):
    game = make_game(name, **config)
    record = play_game(game, [RandomAgent() for _ in range(game.spec.num_players)], seed)
    replay = replay_from_record(game, record)
    path = tmp_path / f"{name}.html"
    path.write_text(replay_html(replay), encoding="utf-8")
    return path, replay, game


@pytest.mark.parametrize(("name", "config"), GAMES)
def test_the_replay_opens_from_disk_and_steps_to_the_result(page, tmp_path, name, config):
    path, replay, game = write_page(tmp_path, name, config)
    page.goto(path.as_uri())
    assert page.locator("#board svg").count() == 1
    assert page.locator("#moves li").count() == len(replay.moves)
    assert not page.locator("#result").is_visible()
    for _ in replay.moves:
        page.click("#next")
    assert page.locator("#status").inner_text().startswith(f"move {len(replay.moves)} of {len(replay.moves)}")
    assert page.locator("#result").is_visible()
    assert page.locator("#result").inner_text().startswith("Result: random (seat")
    assert page.locator("#moves li.current").inner_text() == replay.moves[-1].notation


def test_the_slider_and_the_move_list_jump_to_a_position(page, tmp_path):
    path, replay, game = write_page(tmp_path, "quoridor", {"board_size": 5})
    page.goto(path.as_uri())
    page.locator("#moves li").nth(2).click()
    assert page.locator("#status").inner_text().startswith("move 3 of")
    page.locator("#slider").fill("0")
    assert page.locator("#status").inner_text().startswith("start")


def test_play_runs_to_the_end_by_itself(page, tmp_path):
    path, replay, game = write_page(tmp_path, "quoridor", {"board_size": 5})
    page.goto(path.as_uri())
    page.select_option("#speed", "16")
    page.click("#play")
    page.wait_for_selector("#result.shown", timeout=30_000)
    assert page.locator("#play").inner_text().endswith("play")


def test_a_seat_view_shows_what_that_seat_saw(page, tmp_path):
    path, replay, game = write_page(tmp_path, "splendor", {})
    states = replay_states(replay, game)
    page.goto(path.as_uri())
    assert page.locator("#view option").count() == 3
    page.select_option("#view", "1")
    page.click("#last")
    shown = page.locator("#board").inner_html()
    expected = game.render_svg(states[-1], 0)
    assert shown.count("<rect") == expected.count("<rect") and shown.count("<text") == expected.count("<text")


def test_a_300_ply_replay_plays_through_without_a_stall(page, tmp_path):
    path, replay, game = write_page(tmp_path, "node_conquest", {"max_plies": 300}, seed=1)
    assert len(replay.moves) == 300
    page.goto(path.as_uri())
    page.focus("body")
    for _ in range(300):
        page.keyboard.press("ArrowRight")
    assert page.locator("#result").is_visible()
