"""The Splendor agents beat random players, are registered, and the paper's agents play every config."""

from __future__ import annotations

import pytest

import boardenvs
from baselines.agent import RandomAgent
from baselines.arena import play_game
from baselines.factory import make_agent
from baselines.games import scripted_agents
from baselines.games.splendor import BuyerAgent, OSLAAgent, RinascimentoMCTSAgent, SRHAgent
from boardenvs.games.splendor import PRESETS

PAPER_AGENTS = ("random", "osla", "rmcts:budget=40", "rhea:preset=bmrh_r1:budget=40", "srh:budget=40",
                "rhea:preset=ef_linear_hc:budget=40", "buyer")  # fmt: skip
"""Seed 002's RND, OSLA, MCTS, BMRH, SRH and EF (small budgets), and the buyer."""


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
    assert scripted_agents("splendor") == {
        "osla": OSLAAgent, "buyer": BuyerAgent, "srh": SRHAgent, "rmcts": RinascimentoMCTSAgent
    }  # fmt: skip
    assert isinstance(make_agent("srh", "splendor", seed=0), SRHAgent)
    assert make_agent("rmcts:depth=3", "splendor", seed=0).params.depth == 3


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_every_paper_agent_plays_every_config(preset: str) -> None:
    game = boardenvs.make_game("splendor", preset=preset)
    n = game.spec.num_players
    for first in range(0, len(PAPER_AGENTS), n):
        names = [PAPER_AGENTS[(first + seat) % len(PAPER_AGENTS)] for seat in range(n)]
        agents = [make_agent(name, "splendor", seed=seat) for seat, name in enumerate(names)]
        record = play_game(game, agents, seed=first)
        assert record.plies > 0 and record.returns.shape == (n,), names
