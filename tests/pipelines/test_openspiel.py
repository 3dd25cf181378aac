"""boardenvs games as OpenSpiel games (``boardenvs.openspiel``): the game type and parameters, random games
through pyspiel's API checked move by move against our engine, OpenSpiel's MCTS on every game, IS-MCTS on the
hidden-information games, CFR on a tiny Node Conquest, no hidden-information leak, and bad parameters."""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import numpy as np
import pytest

import boardenvs

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python import policy as policy_lib  # noqa: E402
from open_spiel.python.algorithms import (  # noqa: E402
    cfr,
    evaluate_bots,
    expected_game_score,
    exploitability,
    ismcts,
    mcts,
)

from boardenvs.openspiel import PREFIX, OpenSpielState, register_games  # noqa: E402

GameType = pyspiel.GameType
SMALL_SHEEP = {"board_size": 6, "field_size": 16, "num_players": 2, "sheep_per_player": 8}
CONFIGS: dict[str, list[dict[str, Any]]] = {
    "battle_sheep": [SMALL_SHEEP, {**SMALL_SHEEP, "num_players": 3, "hidden_counts": True}],
    "gravwell": [{"num_players": 2}, {"num_players": 3, "max_plies": 60}],
    "node_conquest": [{"rows": 3, "cols": 3, "max_plies": 40}, {"topology": "hex", "num_players": 3, "max_plies": 40}],
    "quoridor": [{"board_size": 5}, {"board_size": 5, "num_players": 4}],
    "splendor": [{}, {"preset": "rinascimento_3p", "max_plies": 90}],
}
"""Two small configs per game (the first one is also used by the bot tests)."""
CASES = [
    pytest.param(name, config, id=f"{name}-{index}")
    for name, configs in CONFIGS.items()
    for index, config in enumerate(configs)
]
FIRST_CASES = [pytest.param(name, configs[0], id=name) for name, configs in CONFIGS.items()]
BOT_CONFIGS = {
    "gravwell": {"num_players": 2, "max_plies": 40},
    "node_conquest": {"rows": 3, "cols": 3, "max_plies": 16},
    "splendor": {"max_plies": 40},
}
"""Shorter games for the tests whose bots search at every move."""


def load(name: str, config: dict[str, Any]) -> Any:
    return pyspiel.load_game(PREFIX + name, config)


def engine_config(config: dict[str, Any]) -> dict[str, Any]:
    """The boardenvs config of OpenSpiel parameters (``chance_outcomes`` is the adapter's own)."""
    return {key: value for key, value in config.items() if key != "chance_outcomes"}


def play_random(game: Any, rng: np.random.Generator, check: Any = None) -> OpenSpielState:
    """A random game through pyspiel's API (uniform chance, uniform legal moves), ``check(state)`` before moves."""
    state = game.new_initial_state()
    while not state.is_terminal():
        if check is not None:
            check(state)
        if state.is_chance_node():
            outcomes, probabilities = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(outcomes, p=probabilities)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    return state


def first_move_state(game: Any, outcome: int = 0) -> OpenSpielState:
    """The state after the chance node (the start of a deterministic game)."""
    state = game.new_initial_state()
    if state.is_chance_node():
        state.apply_action(outcome)
    return state


# -- game type and parameters ----------------------------------------------------------------------
def test_every_registered_game_loads() -> None:
    register_games()  # games registered after the import (the test session's toy games) are added too
    for name in boardenvs.list_games():
        game = pyspiel.load_game(PREFIX + name)
        engine = boardenvs.make_game(name)
        assert game.get_type().short_name == PREFIX + name
        assert game.num_distinct_actions() == engine.spec.num_actions
        assert game.num_players() == engine.spec.num_players
        assert tuple(game.observation_tensor_shape()) == engine.spec.observation_shape
        assert play_random(game, np.random.default_rng(0)).is_terminal()


@pytest.mark.parametrize(("name", "config"), CASES)
def test_game_type_and_info_follow_the_config(name: str, config: dict[str, Any]) -> None:
    game, engine = load(name, config), boardenvs.make_game(name, **config)
    kind, spec = game.get_type(), engine.spec
    stochastic = name in ("battle_sheep", "gravwell", "splendor")  # setups drawn: fields, decks, start players
    assert kind.dynamics == GameType.Dynamics.SEQUENTIAL
    assert kind.reward_model == GameType.RewardModel.TERMINAL
    assert kind.chance_mode == (
        GameType.ChanceMode.EXPLICIT_STOCHASTIC if stochastic else GameType.ChanceMode.DETERMINISTIC
    )
    hidden = name in ("gravwell", "splendor") or config.get("hidden_counts", False)
    assert kind.information == (
        GameType.Information.IMPERFECT_INFORMATION if hidden else GameType.Information.PERFECT_INFORMATION
    )
    assert kind.utility == GameType.Utility.ZERO_SUM and game.utility_sum() == 0.0
    assert (game.min_utility(), game.max_utility()) == (-1.0, 1.0)
    assert game.num_players() == spec.num_players and game.num_distinct_actions() == spec.num_actions
    assert game.max_game_length() == spec.max_game_length + int(stochastic)
    assert game.max_chance_outcomes() == (64 if stochastic else 0)
    assert game.observation_tensor_shape() == list(spec.observation_shape)
    assert game.information_state_tensor_shape() == [int(np.prod(spec.observation_shape)) + 1]


def test_parameters_are_the_scalar_config_fields_with_their_defaults() -> None:
    parameters = load("quoridor", {}).get_parameters()
    assert parameters == {
        "board_size": 9, "num_players": 2, "walls_per_player": -1, "max_moves": -1, "liberal_jumps": False,
        "preset": "", "chance_outcomes": 64,
    }  # fmt: skip
    node_conquest = load("node_conquest", {}).get_parameters()
    assert "edges" not in node_conquest and node_conquest["topology"] == "grid"


def test_preset_and_fields_combine_like_make_game() -> None:
    game = load("battle_sheep", {"preset": "imperfect", "board_size": 8, "field_size": 20})
    assert game.engine == boardenvs.make_game("battle_sheep", preset="imperfect", board_size=8, field_size=20)
    assert game.get_type().information == GameType.Information.IMPERFECT_INFORMATION
    assert load("quoridor", {"walls_per_player": 3}).engine.config.walls == 3
    assert load("splendor", {"chance_outcomes": 5}).new_initial_state().chance_outcomes() == [
        (k, 0.2) for k in range(5)
    ]


@pytest.mark.parametrize(
    ("params", "named"),
    [
        ({"boardsize": 5}, "boardsize"),  # unknown
        ({"board_size": 5.0}, "board_size"),  # wrong type (TypeError)
        ({"liberal_jumps": 1}, "liberal_jumps"),
        ({"board_size": 2}, "board_size"),  # bad value: refused by the game's config
        ({"walls_per_player": -3}, "walls_per_player"),
        ({"chance_outcomes": 0}, "chance_outcomes"),
        ({"preset": "huge"}, "huge"),
    ],
)
def test_bad_parameters_raise_an_error_naming_them(params: dict[str, Any], named: str) -> None:
    with pytest.raises((ValueError, TypeError), match=named):  # checked before OpenSpiel converts them
        load("quoridor", params)


def test_a_process_that_loaded_games_exits_cleanly() -> None:
    """OpenSpiel frees the registered factories after the interpreter: they must not be freed then."""
    code = (
        "import pyspiel, boardenvs.openspiel\n"
        "for name in ('quoridor', 'splendor'):\n"
        "    state = pyspiel.load_game('boardenvs_' + name).new_initial_state()\n"
    )
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, timeout=120).returncode == 0


# -- random games against the engine ---------------------------------------------------------------
@pytest.mark.parametrize(("name", "config"), CASES)
def test_random_games_match_the_engine(name: str, config: dict[str, Any]) -> None:
    game, engine = load(name, config), boardenvs.make_game(name, **engine_config(config))
    for seed in range(2):
        rng = np.random.default_rng(seed)
        state = game.new_initial_state()
        if state.is_chance_node():
            state.apply_action(int(rng.integers(len(state.chance_outcomes()))))
        ours = engine.initial_state(np.random.default_rng(state.setup or 0))
        while not state.is_terminal():
            assert state.current_player() == ours.current_player
            assert state.legal_actions() == np.flatnonzero(engine.legal_action_mask(ours)).tolist()
            assert str(state) == engine.to_text(ours)
            action = int(rng.choice(state.legal_actions()))
            assert state.action_to_string(action) == engine.action_to_str(ours, action)
            state.apply_action(action)
            ours = engine.apply(ours, action)
        assert engine.is_terminal(ours) and state.current_player() == pyspiel.PlayerId.TERMINAL
        returns = np.array(state.returns())
        assert np.array_equal(returns, engine.returns(ours)) and returns.sum() == pytest.approx(0.0, abs=1e-6)
        assert np.all(np.abs(returns) <= 1.0)
        assert state.rewards() == state.returns()


@pytest.mark.parametrize(("name", "config"), FIRST_CASES)
def test_observations_and_information_states_come_from_the_game(name: str, config: dict[str, Any]) -> None:
    game = load(name, config)
    engine = game.engine

    def check(state: OpenSpielState) -> None:
        if state.is_chance_node():
            assert not any(state.observation_tensor(0)) and "chance" in state.information_state_string(0)
            return
        for player in range(game.num_players()):
            view = state.engine_state
            observation = np.array(state.observation_tensor(player), dtype=np.float32)
            assert np.array_equal(observation, engine.observe(view, player).ravel())
            assert state.observation_string(player) == engine.text_for(view, player)
            information = state.information_state_string(player)
            assert information.endswith(engine.text_for(view, player))
            assert len(state.information_lines(player)) == view.ply + 1  # start view, then one line a move
            tensor = state.information_state_tensor(player)
            assert tensor[:-1] == observation.tolist()
            assert tensor[-1] == pytest.approx(view.ply / engine.spec.max_game_length)

    state = play_random(game, np.random.default_rng(1), check)
    clone = state.clone()
    assert clone.information_state_string(0) == state.information_state_string(0) and clone.history() == state.history()


def test_clones_are_independent_and_states_serialize() -> None:
    game = load("splendor", {"chance_outcomes": 4})
    state = first_move_state(game, 3)
    clone = state.clone()
    clone.apply_action(clone.legal_actions()[0])
    assert len(state.history()) == 1 and len(clone.history()) == 2 and clone.setup == 3
    text = pyspiel.serialize_game_and_state(game, clone)
    _, restored = pyspiel.deserialize_game_and_state(text)
    assert str(restored) == str(clone) and restored.history() == clone.history()


# -- OpenSpiel's algorithms ------------------------------------------------------------------------
@pytest.mark.parametrize(("name", "config"), FIRST_CASES)
def test_mcts_bots_play_every_game(name: str, config: dict[str, Any]) -> None:
    game = load(name, BOT_CONFIGS.get(name, config))
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(0))
    bots = [
        mcts.MCTSBot(game, 1.4, 6, evaluator, random_state=np.random.RandomState(seat))
        for seat in range(game.num_players())
    ]
    returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, np.random.RandomState(0))
    assert len(returns) == game.num_players() and sum(returns) == pytest.approx(0.0, abs=1e-6)
    assert all(-1.0 <= value <= 1.0 for value in returns)


@pytest.mark.parametrize("name", ["gravwell", "splendor"])
def test_ismcts_plays_a_hidden_information_game_to_the_end(name: str) -> None:
    game = load(name, {**BOT_CONFIGS[name], "num_players": 2})
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(0))
    bots = []
    for seat in range(2):
        bot = ismcts.ISMCTSBot(game, evaluator, 1.4, 8, random_state=np.random.RandomState(seat))
        sampler = pyspiel.UniformProbabilitySampler(seat, 0.0, 1.0)
        bot.set_resampler(lambda state, player, sampler=sampler: state.resample_from_infostate(player, sampler))
        bots.append(bot)
    state, rng = game.new_initial_state(), np.random.default_rng(0)
    while not state.is_terminal():  # evaluate_bots needs Bot.restart_at, which ISMCTSBot lacks
        if state.is_chance_node():
            state.apply_action(int(rng.integers(game.max_chance_outcomes())))
        else:
            state.apply_action(bots[state.current_player()].step(state))
    assert sorted(state.returns()) in ([-1.0, 1.0], [0.0, 0.0])


def test_cfr_solves_a_tiny_node_conquest() -> None:
    """2x2 grid, 6 plies: 627 histories. CFR's average policy approaches a Nash equilibrium (NashConv falls
    tenfold in 10 iterations) whose value is the minimax value 0."""
    game = load("node_conquest", {"rows": 2, "cols": 2, "max_plies": 6})
    uniform = exploitability.nash_conv(game, policy_lib.UniformRandomPolicy(game))
    solver = cfr.CFRSolver(game)
    for _ in range(10):
        solver.evaluate_and_update_policy()
    average = solver.average_policy()
    table = average.action_probability_array
    assert np.all(table >= 0) and np.allclose(table.sum(axis=1), 1.0)
    assert exploitability.nash_conv(game, average) < uniform / 5
    values = expected_game_score.policy_value(game.new_initial_state(), [average, average])
    assert values[0] == pytest.approx(0.0, abs=0.1)


# -- hidden information ----------------------------------------------------------------------------
def views(state: OpenSpielState, player: int) -> tuple[Any, ...]:
    """Everything ``player`` is told about ``state``."""
    return (
        state.information_state_string(player),
        state.information_state_tensor(player),
        state.observation_string(player),
        state.observation_tensor(player),
    )


def test_gravwell_secret_commit_is_not_in_the_other_players_views() -> None:
    game = load("gravwell", {"num_players": 2})
    state = first_move_state(game, 5)
    rng = np.random.default_rng(0)

    def plays() -> list[int]:
        return [a for a in state.legal_actions() if state.action_to_string(a).startswith("play ")]

    while not plays():
        state.apply_action(int(rng.choice(state.legal_actions())))  # draft until the first card is committed
    committer = state.current_player()
    first, second = state.child(plays()[0]), state.child(plays()[-1])
    other = 1 - committer
    assert first.current_player() == other
    assert views(first, other) == views(second, other)
    assert views(first, committer) != views(second, committer)


def test_splendor_deck_order_and_face_down_reserve_are_not_in_the_other_players_views() -> None:
    """Two worlds that differ only in the deck order (a resample for the non-mover) and so in the card the
    mover reserves face down: the other player's information state, observation and tensors are equal."""
    game = load("splendor", {})
    world = first_move_state(game, 7)
    mover = world.current_player()
    other = 1 - mover
    twin = world.resample_from_infostate(other, pyspiel.UniformProbabilitySampler(1, 0.0, 1.0))
    assert twin.engine_state.key() != world.engine_state.key()
    reserve = game.engine.parse_action(world.engine_state, "reserve deck L1")
    world.apply_action(reserve)
    twin.apply_action(reserve)
    assert views(world, other) == views(twin, other)
    assert world.observation_tensor(mover) != twin.observation_tensor(mover)  # the mover sees its card


@pytest.mark.parametrize(("name", "config"), [("gravwell", {"num_players": 3}), ("splendor", {"num_players": 2})])
def test_resampled_states_keep_what_the_player_knows(name: str, config: dict[str, Any]) -> None:
    game = load(name, config)
    rng = np.random.default_rng(0)
    state = first_move_state(game, 2)
    changed = 0
    for _ in range(30):
        player = state.current_player()
        sampled = state.resample_from_infostate(player, pyspiel.UniformProbabilitySampler(0.0, 1.0))
        assert views(sampled, player) == views(state, player)
        assert sampled.legal_actions() == state.legal_actions()
        changed += sampled.engine_state.key() != state.engine_state.key()
        state.apply_action(int(rng.choice(state.legal_actions())))
    assert changed > 20  # the hidden part was really resampled


def test_state_at_starts_from_an_engine_position() -> None:
    game = load("splendor", {})
    engine = game.engine
    position = engine.initial_state(np.random.default_rng(3))
    for action in (0, 1, 2):
        position = engine.apply(position, int(engine.legal_actions(position)[action]))
    state = game.state_at(position)
    assert not state.is_chance_node() and str(state) == engine.to_text(position) and state.setup is None
    state.apply_action(state.legal_actions()[0])
    assert len(state.information_lines(0)) == 2  # the view at the position, then the move
    assert state.engine_state.ply == 4


def test_perfect_information_resample_is_a_clone() -> None:
    state = first_move_state(load("quoridor", {"board_size": 5}))
    sampled = state.resample_from_infostate(0, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert str(sampled) == str(state) and sampled.history() == state.history()
