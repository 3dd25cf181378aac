"""The scripted GreedyExpander beats random play and follows its rules."""

from __future__ import annotations

from baselines.agent import RandomAgent
from baselines.arena import play_game
from baselines.games import scripted_agents
from baselines.games.node_conquest import GreedyExpander
from boardenvs.games.node_conquest import NodeConquest


def test_greedy_expander_beats_random_in_at_least_90_percent_of_20_games() -> None:
    game, wins = NodeConquest(), 0
    for seed in range(20):
        seat = seed % 2
        agents = [GreedyExpander(), RandomAgent()] if seat == 0 else [RandomAgent(), GreedyExpander()]
        wins += int(play_game(game, agents, seed).returns[seat] > 0)
    assert wins >= 18


def test_greedy_expander_prefers_capturing_an_enemy_node() -> None:
    game = NodeConquest(rows=3, cols=3)
    state = game.position("A9 B3 . . . . . . B5")
    assert game.action_to_str(state, GreedyExpander(seed=0).act(game, state, 0)) == "a1>R"


def test_greedy_expander_reinforces_a_threatened_frontier_node() -> None:
    game = NodeConquest(topology="graph", nodes=4, edges=((0, 1), (1, 2), (0, 3)))
    state = game.position("A6 A2 B9 .10")  # n1 is threatened by n2; n0 is safe; nothing can be captured
    assert game.action_to_str(state, GreedyExpander(seed=0).act(game, state, 0)) == "n0>n1"  # not to n3


def test_greedy_expander_moves_its_biggest_stack_toward_free_nodes() -> None:
    game = NodeConquest(rows=2, cols=3)
    state = game.position("A2 A9 A2 A2 A2 B30")
    assert game.action_to_str(state, GreedyExpander(seed=0).act(game, state, 0)) == "b1>D"


def test_greedy_expander_is_registered() -> None:
    assert scripted_agents("node_conquest") == {"greedy": GreedyExpander}
