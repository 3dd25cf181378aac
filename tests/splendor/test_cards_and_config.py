"""Card data checks and clear errors for bad configs, bad card files and illegal actions."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from boardenvs.games.splendor import Splendor, card_table
from boardenvs.games.splendor.cards import COLOURS, parse_cards


@pytest.mark.parametrize("deck", ["official", "rinascimento_native"])
def test_decks_hold_90_cards_40_30_20_and_10_nobles(deck: str) -> None:
    table = card_table(deck)
    assert table.num_cards == 90 and [len(ids) for ids in table.by_level] == [40, 30, 20]
    assert table.num_nobles == 10 and set(table.noble_points[:-1].tolist()) == {3}


def test_official_white_level_one_card_w5_costs_two_blue_two_black() -> None:
    table = card_table("official")
    white = [c for c in table.by_level[0] if table.bonus[c] == COLOURS.index("white")]
    assert [0, 2, 0, 0, 2] in [table.cost[c].tolist() for c in white]


def test_native_deck_rewires_bonuses_suit_equals_cost_column() -> None:
    official, native = card_table("official"), card_table("rinascimento_native")
    assert sorted(official.points.tolist()) == sorted(native.points.tolist())
    def rows(table):
        return sorted((int(b), int(p), tuple(c)) for b, p, c in zip(table.bonus, table.points, table.cost.tolist()))

    assert sorted(r[2] for r in rows(official)) == sorted(r[2] for r in rows(native))  # same printed costs
    assert rows(official) != rows(native)  # but bonuses sit on other cards


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"num_players": 1}, "num_players"),
        ({"max_tokens": 2}, "max_tokens"),
        ({"face_up": 25}, "face_up"),
        ({"nobles": 11}, "nobles"),
        ({"deck": "mine"}, "deck"),
        ({"take_same_amount": 9}, "take_same_amount"),
        ({"rinascimento": "yes"}, "rinascimento"),
    ],
)
def test_bad_configs_raise_errors_naming_the_field(kwargs: dict, field: str) -> None:
    with pytest.raises(ValueError, match=field):
        Splendor(**kwargs)


def test_malformed_card_data_is_rejected_with_the_row(tmp_path: Path) -> None:
    header = "tier,bonus,points,cost_white,cost_blue,cost_green,cost_red,cost_black\n"
    bad = tmp_path / "cards.csv"
    bad.write_text(header + "1,white,0,0,0,0,2,1\n1,purple,0,1,1,1,1,0\n")
    with pytest.raises(ValueError, match="row 3: bonus"):
        parse_cards(bad)
    bad.write_text(header + "1,white,x,0,0,0,2,1\n")
    with pytest.raises(ValueError, match="points"):
        parse_cards(bad)
    bad.write_text(header + "1,white,0,0,0,0,2,1\n")
    with pytest.raises(ValueError, match="level 2 has no cards"):
        parse_cards(bad)


def test_illegal_actions_raise_clear_errors() -> None:
    game = Splendor()
    state = game.initial_state(np.random.default_rng(0))
    with pytest.raises(ValueError, match="illegal"):
        game.apply(state, game.tables.starts[6])  # a return outside the return phase
    with pytest.raises(ValueError, match="out of range"):
        game.apply(state, game.spec.num_actions)
    with pytest.raises(TypeError):
        game.apply(state, "take WUG")
    with pytest.raises(ValueError, match="not legal"):
        game.parse_action(state, "buy L9#9")
