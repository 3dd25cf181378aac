"""The live arena in Chromium: a whole game played by clicks, illegal clicks refused, seat views only."""

from __future__ import annotations

import json

import pytest

from baselines.web.requests import HUMAN

pytestmark = pytest.mark.browser


def shown(page, response):
    """Wait until the page shows the position ``response`` answered with; its JSON."""
    data = json.loads(response.body())
    page.wait_for_selector(f'#board[data-ply="{data["ply"]}"]', state="attached")
    return data


def start_game(page, base, game, config=None, seats=("human", "random")):
    page.goto(base)
    page.wait_for_selector("#game option", state="attached")
    page.select_option("#game", game)
    for key, value in (config or {}).items():
        page.fill(f'#config input[data-key="{key}"]', str(value))
    for seat, spec in enumerate(seats):
        page.fill(f"#seat-{seat}", spec)
    with page.expect_response(lambda r: r.url.endswith("/api/sessions")) as answer:
        page.click("#start")
    shown(page, answer.value)


def play_first_move(page):
    """Click the first highlighted target on the board, else the first move button; wait for the answer."""
    target = page.locator("#board .target").first
    clickable = target if target.count() else page.locator("#buttons button").first
    with page.expect_response(lambda r: "/move" in r.url) as answer:
        clickable.click()
        if page.locator("#choices button").count():
            page.locator("#choices button").first.click()
    shown(page, answer.value)
    return answer.value


def test_a_whole_quoridor_game_against_random_is_played_by_clicks(page, arena_server):
    base, _ = arena_server
    start_game(page, base, "quoridor", {"board_size": 5})
    assert page.locator("#status").inner_text() == "Your move (seat 0)"
    for _ in range(200):
        if page.locator("#result").inner_text():
            break
        response = play_first_move(page)
        assert response.status == 200
    assert page.locator("#result").inner_text().startswith("Result:")
    assert page.locator("#status").inner_text().startswith("Game over")
    # a pawn needs 4 moves to cross a 5x5 board, or 3 with a jump over the opponent: at least 5 plies in all
    assert page.locator("#moves li").count() >= 5


def test_an_illegal_move_is_refused_and_the_board_stays_as_it_was(page, arena_server):
    base, arena = arena_server
    start_game(page, base, "quoridor", {"board_size": 5})
    board = page.locator("#board").inner_html()
    page.locator("#board svg").click(position={"x": 3, "y": 3})  # not a target: nothing is sent
    assert page.locator("#board").inner_html() == board
    illegal = page.evaluate("view.legal.length ? 0 : -1")
    with page.expect_response(lambda r: "/move" in r.url) as answer:
        page.evaluate("(action) => play(action)", illegal)
    assert answer.value.status == 400
    page.wait_for_selector("#error:has-text('illegal')")
    assert page.locator("#board").inner_html() == board
    session_id = page.evaluate("view.id")
    assert arena.session(session_id).state.ply == 0


def test_undo_and_start_over_buttons(page, arena_server):
    base, _ = arena_server
    start_game(page, base, "quoridor", {"board_size": 5})
    board = page.locator("#board").inner_html()
    assert page.locator("#undo").is_disabled()
    play_first_move(page)
    assert page.locator("#moves li").count() == 2
    with page.expect_response(lambda r: "/undo" in r.url) as answer:
        page.click("#undo")
    shown(page, answer.value)
    assert page.locator("#moves li").count() == 0 and page.locator("#board").inner_html() == board


def test_every_response_to_a_person_holds_only_their_seats_view(page, arena_server):
    base, arena = arena_server
    bodies = []
    page.on("response", lambda r: bodies.append(r) if "/api/sessions" in r.url else None)
    start_game(page, base, "splendor")
    for _ in range(25):
        if page.locator("#result").inner_text():
            break
        play_first_move(page)
    assert len(bodies) >= 10
    for response in bodies:
        data = json.loads(response.body())
        session = arena.session(data["id"])
        assert data["viewer"] == 0 and session.seats[0] == HUMAN
        assert not {"seed", "state", "states"} & set(data)
        state = session.states[data["ply"]]
        mask = session.game.legal_action_mask(state) if data["your_turn"] else None
        assert data["svg"] == session.game.render_svg(state, 0, mask)
    spectator = page.evaluate("fetch('/api/sessions/' + view.id + '?view=spectator').then(r => r.status)")
    assert spectator == 403


def test_bots_play_each_other_at_the_chosen_speed(page, arena_server):
    base, _ = arena_server
    start_game(page, base, "node_conquest", {"max_plies": 30}, seats=("greedy", "random"))
    assert page.locator("#watch").is_visible()
    page.select_option("#speed", "50")
    page.click("#run")
    from playwright.sync_api import expect  # the browser fixture has checked that Playwright is there

    expect(page.locator("#result")).to_contain_text("Result", timeout=60_000)
    assert 0 < page.locator("#moves li").count() <= 30  # an elimination can end it before the cap
    with page.expect_response(lambda r: "view=spectator" in r.url) as answer:
        page.select_option("#view", "spectator")
    assert json.loads(answer.value.body())["viewer"] == "spectator"
