"""Everything game-specific in ``baselines``, one home per game, and the registry that finds it by game name.

Each game's module (or package) holds its scripted agents from the source paper, its value function for the
search agents and, where it has them, move priors and a fast random playout:

* :mod:`.quoridor` (seed 004): ``path``, ``heuristic``; value, priors, bitmask playout.
* :mod:`.battle_sheep` (seed 003): ``evaluation``, ``minimax``; value, compiled playout and start (its tabular Q
  agent ``qlearning`` is a learner: :mod:`baselines.learners.sheep_q`).
* :mod:`.node_conquest` (seed 001 has no agent; ours): ``greedy``; value, compiled playout.
* :mod:`.splendor` (seed 002): ``osla``, ``buyer``, ``srh`` (Seeding RHEA) and ``rmcts`` (Rinascimento's MCTS), both
  from :mod:`baselines.search`; value, compiled playout; the event-value functions of RHEA (``rhea:value=ef``).
* :mod:`.gravwell` (seed 000): ``random_es`` (:class:`RandomEmergencyStopAgent`),
  ``random_no_es``, ``tree``; value, compiled playout (its learners ``qlearning`` and ``neuroevolution`` are in
  :mod:`baselines.learners.gravwell_q` and :mod:`baselines.learners.neuroevolution`).

:data:`GAMES` maps a game name to its :class:`GameBaselines`; :func:`scripted_agents`, :func:`value_function`,
:func:`move_priors` and :func:`fast_playout` look one part up. Importing this package runs :func:`register_games`,
which hands the scripted agents to ``baselines.factory`` and the values, priors and playouts to
``baselines.search.knowledge`` (search never imports a game), and gives RHEA Splendor's event values.
:func:`register_opponents` makes the scripted agents opponents of the single-agent environments
(``boardenvs.registry.register_opponent``).

Example:
    >>> sorted(scripted_agents("quoridor"))
    ['heuristic', 'path']
    >>> GAMES["gravwell"].default_opponent
    'tree'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from baselines.agent import BaseAgent
from baselines.factory import register_agent
from baselines.games.battle_sheep import (
    EvaluationAgent,
    MinimaxAgent,
    battle_sheep_initial_state,
    battle_sheep_playout,
    battle_sheep_value,
)
from baselines.games.gravwell import (
    DecisionTreeAgent,
    RandomEmergencyStopAgent,
    RandomNoStopAgent,
    gravwell_playout,
    gravwell_value,
)
from baselines.games.node_conquest import GreedyExpander, node_conquest_playout, node_conquest_value
from baselines.games.quoridor import HeuristicAgent, PathAgent, quoridor_playout, quoridor_priors, quoridor_value
from baselines.games.splendor import (
    BuyerAgent,
    OSLAAgent,
    RinascimentoMCTSAgent,
    SRHAgent,
    splendor_playout,
    splendor_value,
)
from baselines.games.splendor import plan_values as splendor_plan_values
from baselines.search.knowledge import register_game_knowledge
from baselines.search.playout import PlayoutFn, UniformStream, random_playout
from baselines.search.values import PriorsFn, ValueFn
from boardenvs.core import Game
from boardenvs.registry import register_opponent


@dataclass(frozen=True)
class GameBaselines:
    """What ``baselines`` knows about one game.

    Attributes:
        agents: agent name (for ``make_agent``) -> scripted agent class.
        default_opponent: the name, among ``agents``, of the game's default scripted opponent.
        value: the value function of the search agents (``None``: the game has none).
        priors: move priors of the heuristic evaluator (``None``: uniform).
        playout: a faster random playout with the distribution of the generic one (``None``: the generic one).
        initial_state: ``fn(game, rng) -> state``, a faster ``game.initial_state(rng)`` with the same state and the
            same draws (``None``: the engine's); what whole random games start from in the speed bench.
    """

    agents: Mapping[str, type[BaseAgent]]
    default_opponent: str
    value: ValueFn | None = None
    priors: PriorsFn | None = None
    playout: PlayoutFn | None = None
    initial_state: Callable[[Game, np.random.Generator], Any] | None = None


GAMES: dict[str, GameBaselines] = {
    "quoridor": GameBaselines(
        {"path": PathAgent, "heuristic": HeuristicAgent}, "heuristic", quoridor_value, quoridor_priors, quoridor_playout
    ),
    "battle_sheep": GameBaselines(
        {"evaluation": EvaluationAgent, "minimax": MinimaxAgent},
        "evaluation",
        battle_sheep_value,
        playout=battle_sheep_playout,
        initial_state=battle_sheep_initial_state,
    ),
    "node_conquest": GameBaselines(
        {"greedy": GreedyExpander}, "greedy", node_conquest_value, playout=node_conquest_playout
    ),
    "splendor": GameBaselines(
        {"osla": OSLAAgent, "buyer": BuyerAgent, "srh": SRHAgent, "rmcts": RinascimentoMCTSAgent},
        "buyer",
        splendor_value,
        playout=splendor_playout,
    ),
    "gravwell": GameBaselines(
        {"random_es": RandomEmergencyStopAgent, "random_no_es": RandomNoStopAgent, "tree": DecisionTreeAgent},
        "tree",
        gravwell_value,
        playout=gravwell_playout,
    ),  # fmt: skip
}
"""Game name -> what ``baselines`` knows about it."""


def scripted_agents(game_name: str) -> dict[str, type[BaseAgent]]:
    """The scripted agents of ``game_name`` by ``make_agent`` name (empty for a game without any)."""
    entry = GAMES.get(game_name)
    return dict(entry.agents) if entry else {}


def value_function(game_name: str) -> ValueFn | None:
    """The value function of ``game_name`` (``None`` if it has none)."""
    entry = GAMES.get(game_name)
    return entry.value if entry else None


def games_with_values() -> list[str]:
    """The names of the games that have a value function, sorted."""
    return sorted(name for name, entry in GAMES.items() if entry.value is not None)


def move_priors(game_name: str) -> PriorsFn | None:
    """The move priors of ``game_name`` (``None``: uniform priors)."""
    entry = GAMES.get(game_name)
    return entry.priors if entry else None


def fast_playout(game_name: str) -> PlayoutFn | None:
    """The fast random playout of ``game_name`` (``None``: use the generic one)."""
    entry = GAMES.get(game_name)
    return entry.playout if entry else None


def fast_initial_state(game_name: str) -> Callable[[Game, np.random.Generator], Any]:
    """``fn(game, rng)``: the faster start of ``game_name`` where it has one, else ``game.initial_state(rng)``."""
    entry = GAMES.get(game_name)
    if entry is not None and entry.initial_state is not None:
        return entry.initial_state
    return lambda game, rng: game.initial_state(rng)


def random_game(game_name: str, game: Game, rng: np.random.Generator, stream: UniformStream) -> Any:
    """The final state of one whole random game of ``game`` (named ``game_name``): from the game's fast start
    (setup drawn from ``rng``) by its fast playout (compiled where they are), moves from ``stream``. The very game of
    ``game.initial_state(rng)`` + the generic playout, only faster."""
    playout = fast_playout(game_name) or random_playout
    return playout(game, fast_initial_state(game_name)(game, rng), stream, -1)


def random_games(game_name: str, game: Game, rng: np.random.Generator | int, games: int) -> list[int]:
    """The plies of ``games`` :func:`random_game` games, setups and moves drawn from ``rng`` (one stream)."""
    rng = np.random.default_rng(rng)
    stream = UniformStream(rng)
    return [random_game(game_name, game, rng, stream).ply for _ in range(games)]


def register_games() -> None:
    """Hand every game's knowledge to the registries below: its scripted agents to :mod:`baselines.factory`, its
    value, priors and playout to :mod:`baselines.search.knowledge`, Splendor's event values to RHEA."""
    for game_name, entry in GAMES.items():
        for name, agent_class in entry.agents.items():
            register_agent(name, agent_class, games=(game_name,))
        register_game_knowledge(game_name, value=entry.value, priors=entry.priors, playout=entry.playout)
    splendor_plan_values.register()


def register_opponents() -> None:
    """Register every scripted agent as an opponent of its game's environments, under its ``make_agent`` name.

    Each factory builds a fresh agent (unseeded); the game's :attr:`GameBaselines.default_opponent` becomes its
    default (``opponent="heuristic"``).
    """
    for game_name, entry in GAMES.items():
        for name, agent_class in entry.agents.items():
            register_opponent(game_name, name, agent_class, default=name == entry.default_opponent)


__all__ = [
    "GAMES",
    "BuyerAgent",
    "DecisionTreeAgent",
    "EvaluationAgent",
    "GameBaselines",
    "GreedyExpander",
    "HeuristicAgent",
    "OSLAAgent",
    "PathAgent",
    "RandomEmergencyStopAgent",
    "RandomNoStopAgent",
    "fast_initial_state",
    "fast_playout",
    "random_game",
    "random_games",
    "games_with_values",
    "move_priors",
    "register_games",
    "register_opponents",
    "scripted_agents",
    "value_function",
]

register_games()
