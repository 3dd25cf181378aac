"""The SVG picture of a Splendor position: what it shows, what a seat may not see, and its click targets."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections import Counter

import numpy as np
import pytest

import boardenvs
from boardenvs.games.splendor import Splendor, SplendorState
from boardenvs.games.splendor.state import NOBLE, PAY, RETURN
from boardenvs.games.splendor.svg import GEM_FILLS, art_for, cost_positions, layout_for, places_for
from tests.splendor.helpers import play, start, with_player

SVG = "{http://www.w3.org/2000/svg}"
GAME = Splendor()
GAME_3P = Splendor(num_players=3)
PRESETS = ["2p", "3p", "4p", "rinascimento", "rinascimento_4p"]


def playout(game: Splendor, seed: int, every: int = 1) -> list[SplendorState]:
    """Every ``every``-th state of a seeded random game, the end included."""
    rng = np.random.default_rng(seed)
    state, states = game.initial_state(rng), []
    while not game.is_terminal(state):
        states.append(state)
        state = game.apply(state, int(rng.choice(game.legal_actions(state))))
    return states[::every] + [state]


def parse(markup: str) -> ET.Element:
    return ET.fromstring(markup)


def targets(markup: str) -> list[tuple[list[int], str]]:
    """``(actions, label)`` of every click target."""
    found = []
    for group in parse(markup).iter(f"{SVG}g"):
        if group.get("class") == "target":
            found.append(([int(a) for a in group.get("data-actions").split()], group.find(f"{SVG}title").text))
    return found


def group_at(markup: str, x: float, y: float) -> ET.Element:
    """The placed fragment (a card, back or noble) whose origin is (``x``, ``y``)."""
    wanted = f"translate({x:g},{y:g})"
    return next(g for g in parse(markup).iter(f"{SVG}g") if g.get("transform") == wanted)


def texts(element: ET.Element) -> list[str]:
    return [t.text for t in element.iter(f"{SVG}text")]


def target_of(markup: str, action: int) -> list[int]:
    """The actions of the one target holding ``action``."""
    holding = [actions for actions, _ in targets(markup) if action in actions]
    assert len(holding) == 1, f"action {action} is in {len(holding)} targets"
    return holding[0]


# -- the document -----------------------------------------------------------------------------------
@pytest.mark.parametrize("preset", PRESETS)
def test_output_parses_as_xml_and_keeps_one_size_through_a_game(preset: str) -> None:
    game = boardenvs.make_game("splendor", preset=preset)
    sizes = set()
    for state in playout(game, 1, every=7):
        root = parse(game.render_svg(state, seat=0, mask=game.legal_action_mask(state)))
        assert root.tag == f"{SVG}svg" and root.get("data-game") == "splendor"
        sizes.add((root.get("width"), root.get("height")))
    layout = layout_for(game.config)
    assert len(sizes) == 1 and sizes == {(f"{layout.width:g}", f"{layout.height:g}")}


@pytest.mark.parametrize("config", [{"face_up": 1, "max_reserved": 0, "nobles": 0}, {"face_up": 6, "max_reserved": 5,
                                    "nobles": 6, "num_players": 4}])  # fmt: skip
def test_other_config_sizes_draw_every_slot(config: dict) -> None:
    game = Splendor(**config)
    for state in playout(game, 2, every=11):
        markup = game.render_svg(state, seat=None, mask=game.legal_action_mask(state))
        parse(markup)
        for card in state.face_up.ravel().tolist():
            assert card < 0 or art_for(game.config).face(card) in markup


def test_the_picture_is_a_pure_function_of_the_state() -> None:
    state = playout(GAME, 3)[30]
    assert GAME.render_svg(state) == GAME.render_svg(state.copy())
    assert GAME.render_svg(state) != GAME.render_svg(playout(GAME, 3)[31])


# -- what it shows ----------------------------------------------------------------------------------
def test_every_face_up_card_shows_its_bonus_colour_cost_and_points() -> None:
    state = playout(GAME, 4)[25]
    markup, cards, layout = GAME.render_svg(state), GAME.tables.cards, layout_for(GAME.config)
    for level, row in enumerate(state.face_up.tolist()):
        for column, card in enumerate(row):
            group = group_at(markup, layout.column_x[column + 1], layout.level_y[level])
            cost, points = cards.cost[card].tolist(), int(cards.points[card])
            expected = [str(points)] * bool(points) + [str(cost[c]) for c, _, _ in cost_positions(cost)]
            assert Counter(texts(group)) == Counter([*expected, "I" * (level + 1)])
            fills = [c.get("fill") for c in group.iter(f"{SVG}circle")]
            assert fills == [GEM_FILLS[c] for c, _, _ in cost_positions(cost)]
            assert group.find(f"{SVG}rect[2]").get("fill") == GEM_FILLS[int(cards.bonus[card])]


def test_every_noble_shows_its_points_and_requirements() -> None:
    state = start(GAME_3P)
    markup, cards, layout = GAME_3P.render_svg(state), GAME_3P.tables.cards, layout_for(GAME_3P.config)
    for slot, noble in enumerate(state.nobles.tolist()):
        group = group_at(markup, layout.noble_x[slot], layout.nobles_y)
        requirement = [str(v) for v in cards.noble_req[noble].tolist() if v]
        assert Counter(texts(group)) == Counter([str(int(cards.noble_points[noble])), *requirement])


def test_decks_show_the_cards_left_and_never_their_order() -> None:
    state = play(GAME, start(GAME), "reserve deck L3")
    markup = GAME.render_svg(state)
    left = [len(ids) - top for ids, top in zip(GAME.tables.cards.by_level, state.top.tolist())]
    assert all(f"{n} left" in markup for n in left) and left[2] == 15
    shuffled = GAME.determinize(state, 0, np.random.default_rng(9))
    assert not np.array_equal(shuffled.decks, state.decks)
    assert GAME.render_svg(shuffled) == markup


def test_supply_and_panels_show_every_count() -> None:
    state = with_player(start(GAME_3P), 1, tokens=(1, 2, 3, 4, 5, 6), bonuses=(7, 8, 9, 11, 12), points=13, bought=47)
    markup = GAME_3P.render_svg(state)
    assert "13 points" in markup and "bonuses: 47 cards bought" in markup and "tokens 21/10" in markup
    words = Counter(texts(parse(markup)))
    for count in (1, 2, 3, 4, 6, 7, 8, 9, 11, 12):
        assert words[str(count)] >= 1
    assert words["5"] >= 5  # the supply's five stacks of 5 and gold, and player 1's five black tokens


def test_status_names_the_player_to_move_and_the_sub_decision() -> None:
    state = play(GAME, with_player(start(GAME), 0, tokens=(2, 2, 2, 2, 1, 0)), "take WUG")
    assert state.phase == RETURN
    title = parse(GAME.render_svg(state)).find(f"{SVG}title").text
    assert title.startswith("Move 2: P0 red returns tokens: holds 12, keeps 10")
    state = play(GAME, with_player(start(GAME), 0, bonuses=(4, 4, 4, 4, 4), bought=20), "take WUG")
    assert state.phase == NOBLE
    assert "P0 red chooses one of the nobles" in GAME.render_svg(state)


def test_the_end_names_the_winner_and_its_points() -> None:
    state = playout(GAME, 5)[-1]
    winner = int(np.argmax(GAME.returns(state)))
    points = int(state.players[winner, 11])
    markup = GAME.render_svg(state)
    assert f"Game over: P{winner} " in markup and f"wins with {points} points" in markup and "WINNER" in markup


# -- hidden information -----------------------------------------------------------------------------
def reserved_from_deck() -> tuple[SplendorState, int]:
    """Player 0 (of 3) has reserved the top of the level 2 deck face down; the card's id."""
    state = play(GAME_3P, start(GAME_3P), "reserve deck L2")
    return state, int(state.reserved[0, 0])


def test_opponents_face_down_reserve_is_drawn_as_a_back_for_a_seat() -> None:
    state, card = reserved_from_deck()
    x, y = layout_for(GAME_3P.config).reserve_xy(0, 0)
    for seat in (1, 2):
        markup = GAME_3P.render_svg(state, seat=seat)
        assert texts(group_at(markup, x, y)) == ["L2", "face down"]
        assert art_for(GAME_3P.config).face(card) not in markup


def test_own_face_down_reserve_is_face_up_for_its_owner() -> None:
    state, card = reserved_from_deck()
    markup = GAME_3P.render_svg(state, seat=0)
    x, y = layout_for(GAME_3P.config).reserve_xy(0, 0)
    assert group_at(markup, x, y).get("transform") and art_for(GAME_3P.config).face(card) in markup
    assert "face down" in markup and "P0 red (you)" in markup


def test_spectator_sees_every_reserve() -> None:
    state = play(GAME_3P, start(GAME_3P), "reserve deck L2", "reserve deck L1", "reserve L3#2")
    markup = GAME_3P.render_svg(state)
    for card in state.reserved[state.reserved >= 0].tolist():
        assert art_for(GAME_3P.config).face(card) in markup


@pytest.mark.parametrize("preset", ["2p", "3p", "rinascimento"])
def test_seat_view_is_the_same_for_every_determinization(preset: str) -> None:
    game = boardenvs.make_game("splendor", preset=preset)
    n, hidden_seen = game.config.num_players, 0
    for seed in range(3):
        for state in playout(game, seed, every=3):
            for seat in range(n):
                mask = game.legal_action_mask(state) if seat == state.current_player else None
                picture = game.render_svg(state, seat=seat, mask=mask)
                others = state.hidden.copy()
                others[seat] = False
                hidden_seen += bool(others.any())
                for rng_seed in range(3):
                    view = game.determinize(state, seat, np.random.default_rng(rng_seed))
                    view_mask = game.legal_action_mask(view) if mask is not None else None
                    assert game.render_svg(view, seat=seat, mask=view_mask) == picture
    assert hidden_seen > 20  # the check met many positions with another seat's face-down reserve


# -- click targets ------------------------------------------------------------------------------------
def test_no_targets_without_a_mask() -> None:
    for state in playout(GAME, 6, every=5):
        assert targets(GAME.render_svg(state)) == [] and 'class="target"' not in GAME.render_svg(state, seat=0)


@pytest.mark.parametrize("preset", PRESETS)
def test_targets_hold_only_legal_actions_labelled_with_their_notation(preset: str) -> None:
    game = boardenvs.make_game("splendor", preset=preset)
    for state in playout(game, 7, every=2):
        mask = game.legal_action_mask(state)
        for actions, label in targets(game.render_svg(state, mask=mask)):
            assert actions and all(mask[a] for a in actions)
            assert label == " | ".join(game.action_to_str(state, a) for a in actions)


@pytest.mark.parametrize("preset", PRESETS)
def test_every_legal_action_with_a_place_on_the_board_has_one_target(preset: str) -> None:
    game = boardenvs.make_game("splendor", preset=preset)
    places = places_for(game.config)
    for state in playout(game, 8, every=2):
        markup = game.render_svg(state, seat=1, mask=game.legal_action_mask(state))
        held = Counter(a for actions, _ in targets(markup) for a in actions)
        placed = [a for a in game.legal_actions(state).tolist() if places[a] is not None]
        assert held == Counter(placed)


def test_a_face_up_card_carries_its_buy_and_reserve_actions() -> None:
    state = start(GAME)
    card = int(state.face_up[0, 0])
    state = with_player(state, 0, tokens=(*GAME.tables.cards.cost[card].tolist(), 0))
    markup = GAME.render_svg(state, mask=GAME.legal_action_mask(state))
    buy, reserve, deck = (GAME.parse_action(state, move) for move in ("buy L1#1", "reserve L1#1", "reserve deck L3"))
    assert target_of(markup, buy) == sorted([reserve, buy]) and target_of(markup, deck) == [deck]
    assert GAME.parse_action(state, "take WUG") not in {a for actions, _ in targets(markup) for a in actions}


def test_own_reserved_card_is_a_target_to_buy_it() -> None:
    state = play(GAME, start(GAME), "reserve L1#2", "take WUG")
    card = int(state.reserved[0, 0])
    state = with_player(state, 0, tokens=(*GAME.tables.cards.cost[card].tolist(), 0))
    markup = GAME.render_svg(state, mask=GAME.legal_action_mask(state))
    buy = GAME.parse_action(state, "buy reserved 1")
    assert target_of(markup, buy) == [buy]
    assert "buy reserved 1" in [label for _, label in targets(markup)]


def test_token_returns_and_single_colour_takes_are_supply_gems() -> None:
    state = play(GAME, with_player(start(GAME), 0, tokens=(2, 2, 2, 2, 1, 1)), "take WUG")
    labels = [label for _, label in targets(GAME.render_svg(state, mask=GAME.legal_action_mask(state)))]
    assert labels == ["return W", "return U", "return G", "return R", "return K", "return Y"]
    labels = [label for _, label in targets(GAME.render_svg(start(GAME), mask=GAME.legal_action_mask(start(GAME))))]
    assert {"take 2 W", "take 2 K"} <= set(labels) and not any(label.startswith("take WU") for label in labels)


def test_noble_choice_targets_the_qualifying_nobles() -> None:
    state = play(GAME, with_player(start(GAME), 0, bonuses=(4, 4, 4, 4, 4), bought=20), "take WUG")
    labels = [label for _, label in targets(GAME.render_svg(state, mask=GAME.legal_action_mask(state)))]
    assert labels == ["noble 1", "noble 2", "noble 3"]


def test_gold_choice_targets_the_card_and_its_cost_circles() -> None:
    state = start(GAME)
    card = int(state.face_up[0, 0])
    cost = GAME.tables.cards.cost[card].tolist()
    state = play(GAME, with_player(state, 0, tokens=(*cost, 1)), "buy L1#1")
    assert state.phase == PAY
    markup = GAME.render_svg(state, mask=GAME.legal_action_mask(state))
    found = {label: actions for actions, label in targets(markup)}
    colours = [c for c, v in enumerate(cost) if v]
    assert set(found) == {"pay"} | {f"gold for {'WUGRK'[c]}" for c in colours}
    assert "P0 red pays for L1#1" in GAME.render_svg(state)
