"""The OpenSpiel adapter refuses values it cannot use before they reach pybind: every int parameter out of its
range (2**31 and more included) is an error naming the parameter and its range, a bool is never an action or a
player, and negative or out-of-range action ids are refused everywhere the adapter takes one."""

from __future__ import annotations

import re
from typing import Any

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from boardenvs.openspiel import (  # noqa: E402
    C_INT_MAX,
    MAX_CHANCE_OUTCOMES,
    PREFIX,
    check_parameters,
    parameter_specification,
)
from boardenvs.registry import list_games  # noqa: E402

INT_PARAMETERS = [
    pytest.param(game, key, id=f"{game}-{key}")
    for game in list_games()
    for key, default in parameter_specification(game).items()
    if type(default) is int
]
HUGE = [2**31, 2**63, -(2**31) - 1, 10**30]
SMALL = {
    "battle_sheep": {"board_size": 6, "field_size": 16, "num_players": 2, "sheep_per_player": 8},
    "gravwell": {"num_players": 2},
    "node_conquest": {"rows": 3, "cols": 3},
    "quoridor": {"board_size": 5},
    "splendor": {},
}
NOT_INTS = [True, False, np.True_, 2.0, "3", None, [1], np.array([1, 2])]


def test_every_game_has_its_int_parameters_covered() -> None:
    assert len(INT_PARAMETERS) >= 34  # 33 config fields and chance_outcomes per game (at least)


@pytest.mark.parametrize(("game", "key"), INT_PARAMETERS)
@pytest.mark.parametrize("value", HUGE, ids=["2^31", "2^63", "-2^31-1", "10^30"])
def test_an_int_parameter_out_of_range_names_the_parameter_and_its_range(game: str, key: str, value: int) -> None:
    if (game, key) == ("node_conquest", "nodes"):  # only a graph has nodes, and a graph needs edges
        with pytest.raises(ValueError, match="nodes is only for topology='graph'"):
            pyspiel.load_game(PREFIX + game, {key: value})
        return
    with pytest.raises(ValueError, match=rf"{key}\b.* must be ") as error:
        pyspiel.load_game(PREFIX + game, {key: value})
    assert re.search(r"must be .*\d.*, got", str(error.value)), error.value  # the allowed values, then the bad one


@pytest.mark.parametrize("game", list_games())
def test_the_game_string_form_is_checked_too(game: str) -> None:
    key = next(key for key, default in parameter_specification(game).items() if type(default) is int)
    with pytest.raises(ValueError, match=key):
        pyspiel.load_game(f"{PREFIX}{game}({key}={2**31})")
    with pytest.raises(ValueError, match="chance_outcomes"):
        pyspiel.load_game(f"{PREFIX}{game}(chance_outcomes={MAX_CHANCE_OUTCOMES + 1})")


@pytest.mark.parametrize(
    ("params", "error", "named"),
    [
        ({"board_size": True}, TypeError, "board_size must be an int"),
        ({"board_size": 5.0}, TypeError, "board_size must be an int"),
        ({"board_size": "5"}, TypeError, "board_size must be an int"),
        ({"liberal_jumps": 1}, TypeError, "liberal_jumps must be a bool"),
        ({"preset": 3}, TypeError, "preset must be a str"),
        ({"chance_outcomes": 0}, ValueError, rf"chance_outcomes must be an int in 1\.\.{MAX_CHANCE_OUTCOMES}"),
        ({"chance_outcomes": C_INT_MAX}, ValueError, "chance_outcomes"),
        ({"walls_per_player": -2}, ValueError, "walls"),
        ({"boardsize": 5}, ValueError, "unknown parameter.*boardsize"),
    ],
)
def test_wrong_types_and_values_are_named(params: dict[str, Any], error: type, named: str) -> None:
    with pytest.raises(error, match=named):
        pyspiel.load_game(PREFIX + "quoridor", params)


def test_numpy_ints_are_read_as_ints() -> None:
    game = pyspiel.load_game(PREFIX + "quoridor", {"board_size": np.int64(5)})
    assert game.engine.config.board_size == 5
    assert check_parameters("quoridor", {"board_size": np.int32(7)})["board_size"] == 7


def test_other_games_pass_through_unchanged() -> None:
    assert pyspiel.load_game("tic_tac_toe").num_distinct_actions() == 9
    assert pyspiel.load_game("kuhn_poker", {"players": 3}).num_players() == 3


def start(game_name: str) -> Any:
    """The first position after the chance node (if any) of a small config of ``game_name``."""
    state = pyspiel.load_game(PREFIX + game_name, SMALL[game_name]).new_initial_state()
    if state.is_chance_node():
        state.apply_action(0)
    return state


@pytest.mark.parametrize("game_name", sorted(SMALL))
@pytest.mark.parametrize("action", NOT_INTS, ids=repr)
def test_only_ints_are_actions_everywhere(game_name: str, action: Any) -> None:
    state = start(game_name)
    before, player = state.history(), state.current_player()
    for call in (
        lambda: state.apply_action(action),
        lambda: state.apply_action_with_legality_check(action),
        lambda: state.child(action),
        lambda: state.action_to_string(action),
        lambda: state.action_to_string(player, action),
    ):
        with pytest.raises(TypeError, match="action must be an int"):
            call()
    assert state.history() == before


@pytest.mark.parametrize("game_name", sorted(SMALL))
def test_negative_and_out_of_range_actions_are_refused(game_name: str) -> None:
    state = start(game_name)
    history, player, count = state.history(), state.current_player(), state.num_distinct_actions()
    calls = [(state.apply_action, ()), (state.child, ()), (state.action_to_string, ()),
             (state.action_to_string, (player,))]  # fmt: skip
    for action in (-1, -(2**40), count, 2**63, 2**64):
        for method, before_action in calls:
            with pytest.raises(ValueError, match=rf"action {action} is out of range \[0, {count}\)"):
                method(*before_action, action)
    assert state.history() == history
    legal = state.legal_actions()[0]
    assert state.action_to_string(player, np.int64(legal)) == state.action_to_string(legal)
    state.apply_action(np.int64(legal))
    assert state.history()[-1] == legal


def test_battle_sheep_no_longer_wraps_a_negative_action_to_a_cell() -> None:
    state = start("battle_sheep")
    with pytest.raises(ValueError, match="out of range"):
        state.action_to_string(state.current_player(), -1)


def test_chance_outcomes_are_checked_against_their_own_count() -> None:
    state = pyspiel.load_game(PREFIX + "splendor", {"chance_outcomes": 4}).new_initial_state()
    assert state.is_chance_node()
    for outcome in (-1, 4, 2**64):
        with pytest.raises(ValueError, match=rf"chance outcome {outcome} is out of range \[0, 4\)"):
            state.apply_action(outcome)
    with pytest.raises(TypeError):
        state.apply_action(True)
    assert state.action_to_string(-1, 3) == "setup 3"
    with pytest.raises(ValueError, match="no actions at the chance node"):
        state.action_to_string(0, 3)
    state.apply_action(np.int64(3))
    assert state.setup == 3


@pytest.mark.parametrize("player", [True, np.False_, 1.0, "0"])
def test_a_player_must_be_an_int(player: Any) -> None:
    state = start("quoridor")
    for call in (
        lambda: state.legal_actions(player),
        lambda: state.legal_actions_mask(player),
        lambda: state.action_to_string(player, 0),
    ):
        with pytest.raises(TypeError, match="player must be an int"):
            call()


@pytest.mark.parametrize("player", [2, -2, 2**40])
def test_a_player_out_of_range_is_refused(player: int) -> None:
    state = start("quoridor")
    with pytest.raises(ValueError, match=r"player must be a seat in 0\.\.1 or -1 \(chance\)"):
        state.legal_actions(player)
    with pytest.raises(ValueError, match="player must be a seat"):
        state.action_to_string(player, 0)
    assert state.legal_actions(0) == state.legal_actions() and state.legal_actions(1) == []


@pytest.mark.parametrize("game_name", sorted(SMALL))
def test_a_game_string_with_every_parameter_still_loads(game_name: str) -> None:
    game = pyspiel.load_game(PREFIX + game_name, SMALL[game_name])
    assert pyspiel.load_game(str(game)).get_parameters() == game.get_parameters()
