"""How an AlphaZero run assesses its networks: the network's player, the gating arena (seat-rotated games, scores
with 95% Wilson intervals), the evaluation opponents' specs and the names of their history columns (the evaluation
games themselves are the shared :class:`~baselines.learners.runner.EvalLog`'s)."""

from __future__ import annotations

import dataclasses
import re

from baselines.agent import Agent
from baselines.arena import evaluate_against
from baselines.arena.ratings import wilson_interval
from baselines.learners.alphazero.evaluator import NetworkEvaluator
from baselines.learners.alphazero.network import PolicyValueNet
from baselines.learners.alphazero.settings import SCRIPTED, AlphaZeroSettings
from baselines.learners.runner.opponents import check_agent_specs
from baselines.search.mcts import MCTSAgent
from boardenvs.core import Game


class Assessor:
    """Builds a run's network players and plays them against each other (gating).

    Args:
        game: The game.
        game_name: Its registered name (the opponents are built for it).
        settings: The run's settings (search, ``eval_simulations``, game counts).
        opponents: The evaluation opponents: history label -> resolved agent spec.
    """

    def __init__(self, game: Game, game_name: str, settings: AlphaZeroSettings, opponents: dict[str, str]) -> None:
        self.game, self.game_name, self.settings, self.opponents = game, game_name, settings, opponents

    def player(self, net: PolicyValueNet, seed: int, name: str) -> MCTSAgent:
        """The network's competitive player: the self-play search without root noise, ``eval_simulations``."""
        selfplay = self.settings.selfplay
        simulations = self.settings.eval_simulations or selfplay.simulations
        budget = dataclasses.replace(
            selfplay, simulations=simulations, fast_simulations=min(selfplay.fast_simulations, simulations)
        )
        return budget.searcher(NetworkEvaluator(net), seed, noise=False, name=name)

    def arena(self, candidate: PolicyValueNet, best: PolicyValueNet, seed: int) -> float:
        """The candidate network's score against the best network (one seat each game, rotated)."""
        hero, other = self.player(candidate, seed, "candidate"), self.player(best, seed + 1, "best")
        return self.score(hero, other, self.settings.arena_games, seed)[0]

    def skipped(self) -> dict[str, float]:
        """The evaluation columns of an iteration without an evaluation (every one -1)."""
        return {column: -1.0 for label in self.opponents for column in eval_columns(label)}

    def score(self, hero: Agent, other: Agent, games: int, seed: int) -> tuple[float, float, float]:
        """``hero``'s score (a win 1, a draw 1/2) in seat-rotated games against ``other`` in every other seat."""
        wins, draws, _ = evaluate_against(self.game, hero, other, games, seed)
        points = wins + 0.5 * draws
        return (points / games, *wilson_interval(points, games))


# -- evaluation opponents ----------------------------------------------------------------------------------
def resolve_opponent(spec: str, game_name: str, setting: str = "eval_opponents") -> str:
    """``spec`` with ``"scripted"`` replaced by the game's default scripted agent; checked by parsing it against
    the registry (:func:`baselines.learners.runner.check_agent_specs`).

    Raises:
        ValueError: ``"scripted"`` for a game without scripted agents, or a spec the registry does not know (the
            message names ``setting``).
    """
    from baselines.games import GAMES

    if spec.strip().lower() == SCRIPTED:
        if game_name not in GAMES:
            raise ValueError(f"{setting}: {game_name!r} has no scripted agent to stand for {SCRIPTED!r}")
        spec = GAMES[game_name].default_opponent
    try:
        check_agent_specs(setting, [spec], game_name)
    except ValueError as error:
        reason = str(error).removeprefix(f"{setting}: ")
        raise ValueError(f"{setting}: {spec!r} is not an agent of {game_name!r}: {reason}") from None
    return spec


def label_of(spec: str) -> str:
    """The history's name of a (resolved) evaluation opponent: its spec in lower case with every run of other
    characters than letters and digits made one ``_`` (``mcts:simulations=50`` -> ``mcts_simulations_50``)."""
    return re.sub(r"[^a-z0-9]+", "_", spec.lower()).strip("_")


def eval_columns(label: str) -> tuple[str, str, str]:
    """The history columns of an evaluation opponent: its score and the ends of its 95% interval."""
    return f"vs_{label}", f"vs_{label}_low", f"vs_{label}_high"


__all__ = ["Assessor", "eval_columns", "label_of", "resolve_opponent"]
