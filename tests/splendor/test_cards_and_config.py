"""Card data checks and clear errors for bad configs, bad card files and illegal actions."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from boardenvs.games.splendor import Splendor, card_table
from boardenvs.games.splendor.cards import COLOURS, parse_cards
from boardenvs.testing import check_game


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
        ({"tokens_per_colour": 2}, "tokens_per_colour"),
        ({"num_players": 5}, "num_players"),
        ({"take_different_count": 6}, "take_different_count"),
        ({"face_up": 0}, "face_up"),
    ],
)
def test_bad_configs_raise_errors_naming_the_field(kwargs: dict, field: str) -> None:
    with pytest.raises(ValueError, match=field):
        Splendor(**kwargs)


HEADER = "tier,bonus,points,cost_white,cost_blue,cost_green,cost_red,cost_black\n"
GOOD_ROWS = "".join(f"{level},{colour},{level - 1},1,1,0,0,{level}\n" for level in (1, 2, 3) for colour in COLOURS)
NOBLES = "id,points,req_white,req_blue,req_green,req_red,req_black\n0,3,2,2,0,0,0\n1,3,0,0,2,2,0\n2,4,1,1,1,1,1\n"


def write(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def test_a_custom_card_and_noble_table_from_the_config_plays(tmp_path: Path) -> None:
    cards, nobles = write(tmp_path, "deck.csv", HEADER + GOOD_ROWS), write(tmp_path, "nobles.csv", NOBLES)
    game = Splendor(cards_file=cards, nobles_file=nobles, face_up=3, rinascimento=True)
    assert game.tables.cards.num_cards == 15 and game.tables.cards.num_nobles == 3
    assert game.tables.cards.noble_points.tolist()[:3] == [3, 3, 4]
    report = check_game(game, num_games=2, seed=0)
    assert report.games == 2
    with pytest.raises(ValueError, match="face_up must be in 1..5"):
        Splendor(cards_file=cards, nobles_file=nobles, face_up=6)
    with pytest.raises(ValueError, match="nobles must be in 0..3"):
        Splendor(cards_file=cards, nobles_file=nobles, num_players=3)
    with pytest.raises(ValueError, match="either deck"):
        Splendor(cards_file=cards, deck="rinascimento_native")


def test_a_custom_native_card_file_reads_suit_equals_cost_column(tmp_path: Path) -> None:
    rows = "".join(f"{level},{suit},0,1,0,0,0,{level}\n" for level in (1, 2, 3) for suit in range(5))
    path = write(tmp_path, "native.csv", "tier,suit_id,points,cost0,cost1,cost2,cost3,cost4\n" + rows)
    table = Splendor(cards_file=path).tables.cards
    assert table.bonus[:5].tolist() == [0, 1, 2, 3, 4] and table.cost[14].tolist() == [1, 0, 0, 0, 3]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (HEADER + GOOD_ROWS + "1,purple,0,1,1,1,1,0\n", r"deck.csv, row 17, column 'bonus': must be one of"),
        (HEADER + "1,white,0,0,0,0,x,1\n" + GOOD_ROWS, r"deck.csv, row 2, column 'cost_red': must hold an integer"),
        (HEADER + GOOD_ROWS + "4,white,0,0,0,0,1,1\n", r"row 17, column 'tier': must be in 1..3, got 4"),
        (HEADER + "1,white,-1,0,0,0,2,1\n" + GOOD_ROWS, r"row 2, column 'points': must be in 0..30"),
        (HEADER + GOOD_ROWS + "1,white,0,0,0\n", r"row 17, column 'cost_green': missing value"),
        (HEADER.replace(",cost_black", "") + "1,white,0,0,0,0,2\n", r"row 1 \(header\): missing .*'cost_black'"),
        (HEADER + "1,white,0,0,0,0,2,1\n", r"level 2 has no cards"),
        (HEADER, r"no cards"),
    ],
)
def test_malformed_card_data_names_the_file_row_and_column(tmp_path: Path, text: str, message: str) -> None:
    path = write(tmp_path, "deck.csv", text)
    with pytest.raises(ValueError, match=message) as error:
        Splendor(cards_file=path)
    assert str(tmp_path) in str(error.value)


def test_malformed_noble_data_and_missing_files_are_clear_errors(tmp_path: Path) -> None:
    bad = write(tmp_path, "nobles.csv", NOBLES + "3,three,1,1,1,1,1\n")
    with pytest.raises(ValueError, match=r"nobles.csv, row 5, column 'points': must hold an integer, got 'three'"):
        Splendor(nobles_file=bad, nobles=2)
    with pytest.raises(ValueError, match="cards_file .*missing.csv.* cannot be read"):
        Splendor(cards_file=str(tmp_path / "missing.csv"))
    with pytest.raises(ValueError, match="nobles_file must be a path"):
        Splendor(nobles_file=3)


def test_shipped_card_parsing_rejects_bad_rows_too(tmp_path: Path) -> None:
    bad = tmp_path / "cards.csv"
    bad.write_text(HEADER + "1,white,0,0,0,0,2,1\n1,purple,0,1,1,1,1,0\n")
    with pytest.raises(ValueError, match="row 3, column 'bonus'"):
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
