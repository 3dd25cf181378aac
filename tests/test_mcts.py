"""Tests of baselines.search.mcts: parameters, known answers, max^n backup, hidden information, tree reuse, budgets."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from baselines import RandomAgent, play_game
from baselines.search.evaluators import Evaluator, RolloutEvaluator
from baselines.search.mcts import MCTSAgent, SearchStats, bool_param, float_param, int_param
from boardenvs import make_game
from boardenvs.core import Game
from tests.toy_games import CountDown, CountDownState, TicTacToe, TicTacToeState


def tictactoe(cells: str, to_move: int) -> TicTacToeState:
    """A tic-tac-toe position from 9 characters: x = player 0, o = player 1, . = empty."""
    board = np.array([{"x": 0, "o": 1, ".": -1}[c] for c in cells], dtype=np.int8)
    return TicTacToeState(board, to_move, int((board >= 0).sum()))


class ConstantEvaluator(Evaluator):
    """Values every leaf with the same vector and, optionally, fixed priors."""

    def __init__(self, values: list[float], priors: np.ndarray | None = None) -> None:
        self.values = np.array(values)
        self.priors = priors
        self.calls = 0

        self.batches: list[int] = []

    def evaluate(self, game: Game, state: Any) -> tuple[np.ndarray, np.ndarray | None]:
        self.calls += 1
        return self.values, self.priors

    def evaluate_batch(self, game: Game, states: list) -> list[tuple[np.ndarray, np.ndarray | None]]:
        self.batches.append(len(states))
        return [self.evaluate(game, state) for state in states]


# -- parameters -----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("params", "named"),
    [
        ({"simulations": 0}, "simulations"),
        ({"simulations": -5}, "simulations"),
        ({"simulations": 1.5}, "simulations"),
        ({"simulations": True}, "simulations"),
        ({"simulations": "many"}, "simulations"),
        ({"seconds": 0}, "seconds"),
        ({"seconds": -1.0}, "seconds"),
        ({"evaluator": "oracle"}, "evaluator"),
        ({"evaluator": 3}, "evaluator"),
        ({"selection": "ucb2"}, "selection"),
        ({"exploration": -0.1}, "exploration"),
        ({"rollout_depth": 0}, "rollout_depth"),
        ({"rollouts": 0}, "rollouts"),
        ({"determinizations": 0}, "determinizations"),
        ({"reuse_tree": "maybe"}, "reuse_tree"),
        ({"temperature": -1}, "temperature"),
        ({"dirichlet_fraction": 1.5}, "dirichlet_fraction"),
        ({"dirichlet_alpha": 0}, "dirichlet_alpha"),
        ({"evaluator": "heuristic", "rollout_depth": 5}, "rollout_depth"),
        ({"batch_size": 0}, "batch_size"),
    ],
)
def test_bad_parameters_raise_value_errors_naming_them(params: dict, named: str) -> None:
    with pytest.raises(ValueError, match=named):
        MCTSAgent(0, **params)


def test_parameters_accept_the_types_a_factory_parses_from_strings() -> None:
    agent = MCTSAgent(0, "mcts", simulations="50", seconds="none", exploration=2, reuse_tree="false",
                      rollout_depth="10", selection="PUCT", evaluator="Rollout", temperature=1)  # fmt: skip
    assert (agent.simulations, agent.seconds, agent.exploration) == (50, None, 2.0)
    assert (agent.reuse_tree, agent.rollout_depth, agent.selection, agent.temperature) == (False, 10, "puct", 1.0)
    assert MCTSAgent(0, simulations=20.0, seconds=1, reuse_tree=0).simulations == 20
    assert MCTSAgent(0, simulations=None, seconds="0.5").seconds == 0.5


def test_parameter_helpers_describe_the_allowed_range() -> None:
    assert int_param("n", "7", 1) == 7 and int_param("n", "None", 1, optional=True) is None
    assert float_param("x", 3, 0.0) == 3.0 and bool_param("b", "yes") is True and bool_param("b", 0) is False
    with pytest.raises(ValueError, match=r"n must be an int >= 1, got 0"):
        int_param("n", 0, 1)
    with pytest.raises(ValueError, match=r"x must be a number in \(0.0, inf\]"):
        float_param("x", 0, 0.0, positive=True)


def test_an_evaluator_unavailable_for_the_game_is_rejected_at_the_first_move() -> None:
    agent = MCTSAgent(0, "planner", evaluator="heuristic")
    game = TicTacToe()
    with pytest.raises(ValueError, match=r"'planner'.*evaluator='heuristic'.*toy_tictactoe.*quoridor"):
        agent.act(game, game.initial_state(np.random.default_rng(0)), 0)


# -- known answers --------------------------------------------------------------------------------
@pytest.mark.parametrize("selection", ["uct", "puct"])
def test_it_takes_a_win_in_one(selection: str) -> None:
    game = TicTacToe()
    state = tictactoe("xx.oo....", to_move=0)
    for seed in range(3):
        assert MCTSAgent(seed, simulations=200, selection=selection).act(game, state, 0) == 2


@pytest.mark.parametrize("selection", ["uct", "puct"])
def test_it_blocks_a_loss_in_one(selection: str) -> None:
    game = TicTacToe()
    state = tictactoe("oo.x....x", to_move=0)
    for seed in range(3):
        assert MCTSAgent(seed, simulations=300, selection=selection).act(game, state, 0) == 2


@pytest.mark.parametrize("evaluator", ["rollout", "heuristic"])
def test_it_takes_a_win_in_one_at_quoridor(evaluator: str) -> None:
    game = make_game("quoridor", board_size=5)
    state = game.position(["b2", "d4"], to_move=0)
    action = MCTSAgent(0, simulations=100, evaluator=evaluator).act(game, state, 0)
    assert game.action_to_str(state, action) in ("b1",)


@pytest.mark.parametrize(("evaluator", "simulations"), [("heuristic", 200), ("rollout", 400)])
def test_it_blocks_a_loss_in_one_at_quoridor(evaluator: str, simulations: int) -> None:
    """Player 1 on a4 reaches row 5 next move; only the wall a4h stops it, and then player 0 (e3, two steps
    from row 1) wins the race, as player 1 has no wall left."""
    game = make_game("quoridor", board_size=5)
    state = game.position(["e3", "a4"], to_move=0, walls_left=[1, 0])
    for seed in range(3):
        action = MCTSAgent(seed, simulations=simulations, evaluator=evaluator).act(game, state, 0)
        assert game.action_to_str(state, action) == "a4h"


@pytest.mark.parametrize("settings", [{"selection": "puct"}, {"exploration": 0.5}])
def test_with_many_walls_open_it_still_blocks_a_pawn_one_step_from_goal(settings: dict) -> None:
    """After c4 c2 c3 c4 on 5x5 (the mcts.py docstring: plain UCT at 800 simulations steps to c2 here and loses
    next ply): with the heuristic's priors steering the replies, or less exploration, the search walls c4 off."""
    game = make_game("quoridor", board_size=5)
    state = game.position(["c3", "c4"], to_move=0)
    for seed in range(2):
        action = MCTSAgent(seed, simulations=300, evaluator="heuristic", **settings).act(game, state, 0)
        assert game.action_to_str(state, action) in ("b4h", "c4h")


def test_consecutive_moves_and_skipped_turns_are_backed_up_for_the_right_player() -> None:
    """Countdown, 3 players, counter 3: only "take two and move again" (1) wins; taking one (0) lets the
    next player win, "take one and skip" (2) lets the player after it win."""
    game = CountDown(num_players=3)
    state = CountDownState(3, current_player=0)
    for seed in range(3):
        agent = MCTSAgent(seed, simulations=300)
        assert agent.act(game, state, 0) == 1
        assert agent.last_search.value > 0.5


def test_every_node_holds_the_value_of_the_player_who_moved_into_it() -> None:
    game = CountDown(num_players=3, start=40, cap=100)  # no terminal state within reach of the search
    values = [0.5, -0.25, 0.125]
    agent = MCTSAgent(0, simulations=150, evaluator=ConstantEvaluator(values))
    root = agent.search(game, CountDownState(40, current_player=1), 1)
    assert root.visits == 150
    pairs = [(root, child) for child in root.children.values()]
    movers = set()
    while pairs:
        parent, node = pairs.pop()
        assert node.mover == parent.states[0].current_player
        assert node.value() == pytest.approx(values[node.mover])
        movers.add(node.mover)
        pairs.extend((node, child) for child in node.children.values())
    assert movers == {0, 1, 2}


# -- batched evaluation ---------------------------------------------------------------------------
def test_batched_search_values_leaves_together_and_leaves_no_virtual_loss_behind() -> None:
    game = CountDown(num_players=3, start=40, cap=100)
    values = [0.5, -0.25, 0.125]
    evaluator = ConstantEvaluator(values)
    agent = MCTSAgent(0, simulations=120, evaluator=evaluator, batch_size=8)
    root = agent.search(game, CountDownState(40, current_player=2), 2)
    assert root.visits == 120 and evaluator.calls == 120
    assert max(evaluator.batches) > 1 and sum(evaluator.batches) == 120
    stack = list(root.children.values())
    while stack:
        node = stack.pop()
        assert node.value() == pytest.approx(values[node.mover])  # every virtual loss was taken back
        stack.extend(node.children.values())


@pytest.mark.parametrize("selection", ["uct", "puct"])
def test_batched_search_still_finds_the_win_and_the_block(selection: str) -> None:
    game = TicTacToe()
    for cells, expected in (("xx.oo....", 2), ("oo.x....x", 2)):
        agent = MCTSAgent(0, simulations=400, batch_size=8, selection=selection)
        assert agent.act(game, tictactoe(cells, 0), 0) == expected
        assert agent.last_search.simulations == 400


# -- playing --------------------------------------------------------------------------------------
GAMES = [
    ("toy_tictactoe", None),
    ("toy_countdown", None),
    ("quoridor", "small"),
    ("quoridor", "4p"),
    ("node_conquest", "small"),
    ("node_conquest", "4p"),
    ("battle_sheep", "basic"),
    ("battle_sheep", "imperfect"),
    ("battle_sheep", "teams"),
    ("splendor", "2p"),
    ("splendor", "3p"),
    ("gravwell", "2p"),
    ("gravwell", "4p"),
]


@pytest.mark.parametrize(("name", "preset"), GAMES, ids=[f"{n}-{p}" for n, p in GAMES])
def test_it_plays_legal_moves_in_every_game(name: str, preset: str | None) -> None:
    game = make_game(name, preset) if preset else make_game(name)
    evaluator = "rollout" if name.startswith("toy") else "heuristic"
    agents = [
        MCTSAgent(seat, simulations=8, rollout_depth=4, determinizations=2) if seat % 2 == 0
        else MCTSAgent(seat, simulations=8, evaluator=evaluator, selection="puct", determinizations=3, batch_size=4)
        for seat in range(game.spec.num_players)
    ]  # fmt: skip
    record = play_game(game, agents, seed=1)  # play_game raises IllegalActionError on an illegal move
    assert record.plies > 0 and len(record.returns) == game.spec.num_players


def test_hidden_information_is_only_read_through_determinizations_of_the_view() -> None:
    game = make_game("splendor", "2p")
    view = game.initial_state(np.random.default_rng(0))
    calls = []
    original = game.determinize

    def spy(state: Any, player: int, rng: np.random.Generator) -> Any:
        calls.append((state, player))
        return original(state, player, rng)

    game.determinize = spy  # type: ignore[method-assign]
    agent = MCTSAgent(0, simulations=30, determinizations=5, rollout_depth=6)
    action = agent.act(game, view, view.current_player)
    assert game.legal_action_mask(view)[action]
    assert len(calls) == 5 and all(state is view and p == view.current_player for state, p in calls)
    agent.act(game, view, view.current_player)
    assert not agent.last_search.reused  # hidden information: a fresh tree every move


def test_perfect_information_games_are_not_determinized() -> None:
    game = TicTacToe()
    game.determinize = lambda *args: pytest.fail("determinize called")  # type: ignore[method-assign]
    MCTSAgent(0, simulations=20).act(game, game.initial_state(np.random.default_rng(0)), 0)


def test_it_is_reproducible_for_a_fixed_seed() -> None:
    game = make_game("quoridor", board_size=5)
    first = play_game(game, [MCTSAgent(1, simulations=40), MCTSAgent(2, simulations=40, evaluator="heuristic")], 7)
    again = play_game(game, [MCTSAgent(5, simulations=40), MCTSAgent(6, simulations=40, evaluator="heuristic")], 7)
    assert first.actions == again.actions  # play_game reseeds the agents from the game seed
    a, b = MCTSAgent(3, simulations=60), MCTSAgent(3, simulations=60)
    state = game.initial_state(np.random.default_rng(0))
    assert a.act(game, state, 0) == b.act(game, state, 0) and a.last_search.visits == b.last_search.visits


def test_it_never_loses_at_tictactoe_and_beats_random() -> None:
    game = TicTacToe()
    outcomes = []
    for seed in range(6):
        seat = seed % 2
        agents = [RandomAgent(), RandomAgent()]
        agents[seat] = MCTSAgent(simulations=150)
        outcomes.append(play_game(game, agents, seed).returns[seat])
    assert min(outcomes) >= 0 and sum(o > 0 for o in outcomes) >= 4


def test_it_beats_random_at_quoridor_5x5() -> None:
    game = make_game("quoridor", board_size=5)
    wins = 0
    for seed in range(8):
        seat = seed % 2
        agents = [RandomAgent(), RandomAgent()]
        agents[seat] = MCTSAgent(simulations=60)
        wins += play_game(game, agents, seed).returns[seat] > 0
    assert wins >= 7


def test_the_default_budget_is_simulations_unless_seconds_are_given() -> None:
    assert (MCTSAgent(0).simulations, MCTSAgent(0).seconds) == (200, None)
    assert (MCTSAgent(0, seconds=2).simulations, MCTSAgent(0, seconds=2).seconds) == (None, 2.0)
    assert (MCTSAgent(0, seconds=2, simulations=9).simulations) == 9


def test_a_seconds_budget_alone_returns_a_legal_move() -> None:
    game = make_game("quoridor", board_size=5)
    state = game.initial_state(np.random.default_rng(0))
    agent = MCTSAgent(0, simulations=None, seconds=0.05)
    assert game.legal_action_mask(state)[agent.act(game, state, 0)]
    assert agent.last_search.simulations >= 1
    both = MCTSAgent(0, simulations=5, seconds=30.0)
    both.act(game, state, 0)
    assert both.last_search.simulations == 5  # the simulation budget ends the search first


# -- tree reuse -----------------------------------------------------------------------------------
def test_the_subtree_of_the_move_played_is_reused_after_the_reply() -> None:
    game = TicTacToe()
    agent = MCTSAgent(0, simulations=200)
    state = game.initial_state(np.random.default_rng(0))
    first = agent.act(game, state, 0)
    state = game.apply(state, first)
    reply = int(game.legal_actions(state)[0])
    state = game.apply(state, reply)
    agent.act(game, state, 0)
    assert agent.last_search.reused
    assert sum(agent.last_search.visits.values()) > 200  # the kept visits plus the new simulations
    fresh = MCTSAgent(0, simulations=200, reuse_tree=False)
    fresh.act(game, game.initial_state(np.random.default_rng(0)), 0)
    fresh.act(game, state, 0)
    assert not fresh.last_search.reused and sum(fresh.last_search.visits.values()) == 199


def test_reseeding_drops_the_kept_tree() -> None:
    game = TicTacToe()
    agent = MCTSAgent(0, simulations=50)
    state = game.initial_state(np.random.default_rng(0))
    agent.act(game, state, 0)
    agent.reseed(1)
    agent.act(game, state, 0)
    assert not agent.last_search.reused


def test_an_unrelated_position_starts_a_fresh_tree() -> None:
    game = TicTacToe()
    agent = MCTSAgent(0, simulations=50)
    agent.act(game, tictactoe(".........", 0), 0)
    agent.act(game, tictactoe("x.o.x.o..", 0), 0)
    assert not agent.last_search.reused


# -- PUCT with priors, noise, temperature -----------------------------------------------------------
def test_puct_follows_the_evaluators_priors() -> None:
    game = TicTacToe()
    priors = np.full(9, 0.01)
    priors[7] = 1.0
    agent = MCTSAgent(0, simulations=40, selection="puct", evaluator=ConstantEvaluator([0.0, 0.0], priors))
    assert agent.act(game, game.initial_state(np.random.default_rng(0)), 0) == 7
    assert agent.last_search.visits[7] > 30


def test_uct_tries_unvisited_children_by_decreasing_prior() -> None:
    game = TicTacToe()
    priors = np.array([0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.9, 0.8])
    agent = MCTSAgent(0, simulations=4, evaluator=ConstantEvaluator([0.0, 0.0], priors))
    root = agent.search(game, game.initial_state(np.random.default_rng(0)), 0)
    assert sorted(root.children) == [6, 7, 8]  # the root's evaluation, then the three best priors


def test_noise_and_temperature_give_a_policy_over_legal_moves() -> None:
    game = TicTacToe()
    state = tictactoe("x...o....", 0)
    agent = MCTSAgent(0, simulations=60, selection="puct", dirichlet_fraction=0.25, temperature=1.0)
    action = agent.act(game, state, 0)
    policy = agent.last_search.policy(9)
    assert game.legal_action_mask(state)[action]
    assert policy.sum() == pytest.approx(1.0) and policy[0] == 0 and policy[4] == 0
    assert agent.last_search.simulations == 60


def test_search_stats_policy_of_an_empty_search_is_zero() -> None:
    assert SearchStats().policy(4).tolist() == [0.0, 0.0, 0.0, 0.0]


def test_a_forced_move_is_played_without_search() -> None:
    game = TicTacToe()
    state = tictactoe("xoxxoo.xo", 0)
    agent = MCTSAgent(0, evaluator=RolloutEvaluator())
    assert agent.act(game, state, 0) == 6 and agent.last_search.simulations == 0
