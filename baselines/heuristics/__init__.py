"""Scripted agents from the source papers, one module per game, looked up by game name."""

from __future__ import annotations

from baselines.agent import BaseAgent
from baselines.heuristics.battle_sheep import EvaluationAgent
from baselines.heuristics.gravwell import DecisionTreeAgent, PretrainedQAgent, RandomAgent, RandomNoStopAgent
from baselines.heuristics.node_conquest import GreedyExpander
from baselines.heuristics.quoridor import HeuristicAgent, PathAgent
from baselines.heuristics.splendor import BuyerAgent, OSLAAgent

HEURISTIC_AGENTS: dict[str, dict[str, type[BaseAgent]]] = {
    "quoridor": {"path": PathAgent, "heuristic": HeuristicAgent},
    "battle_sheep": {"evaluation": EvaluationAgent},
    "node_conquest": {"greedy": GreedyExpander},
    "splendor": {"osla": OSLAAgent, "buyer": BuyerAgent},
    "gravwell": {"random_es": RandomAgent, "random_no_es": RandomNoStopAgent, "tree": DecisionTreeAgent,
                 "qlearning": PretrainedQAgent},  # fmt: skip
}
"""Game name → agent name → agent class."""


def heuristic_agents(game_name: str) -> dict[str, type[BaseAgent]]:
    """The scripted agents of ``game_name`` (empty for a game without any)."""
    return dict(HEURISTIC_AGENTS.get(game_name, {}))


__all__ = [
    "BuyerAgent",
    "EvaluationAgent",
    "HEURISTIC_AGENTS",
    "GreedyExpander",
    "HeuristicAgent",
    "OSLAAgent",
    "PathAgent",
    "heuristic_agents",
]
