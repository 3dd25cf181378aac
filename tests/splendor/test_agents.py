"""The scripted Splendor agents beat random players and are registered."""

from __future__ import annotations

import pytest

import boardenvs
from baselines.agent import RandomAgent
from baselines.arena import play_game
from baselines.games import scripted_agents
from baselines.games.splendor import BuyerAgent, OSLAAgent


@pytest.mark.parametrize("agent_class", [OSLAAgent, BuyerAgent])
def test_agent_beats_random_in_two_player_games(agent_class: type) -> None:
    game = boardenvs.make_game("splendor")
    wins = 0
    for seed in range(20):
        seat = seed % 2
        agents = [RandomAgent(seed), RandomAgent(seed + 1)]
        agents[seat] = agent_class(seed)
        wins += int(play_game(game, agents, seed).returns[seat] > 0)
    assert wins >= 14


def test_buyer_buys_when_it_can_on_the_rinascimento_preset() -> None:
    game = boardenvs.make_game("splendor", preset="rinascimento")
    record = play_game(game, [BuyerAgent(0), RandomAgent(1)], 3)
    assert record.returns[0] > 0


def test_agents_are_registered() -> None:
    assert scripted_agents("splendor") == {"osla": OSLAAgent, "buyer": BuyerAgent}
