"""Search agents that measure Gravwell's ceilings against a random opponent (``scripts/gravwell_ceiling.py``).

* ``fair``: the repo's ``mcts:simulations=N``; it sees its determinized view, like every agent.
* ``fairbr``: fair, but in its tree the opponent picks uniformly random moves (:class:`BestResponseMCTS`).
* ``peek``: sees the true *current* state but not the future (:class:`PeekMCTS`).
* ``cheat``: searches the true state, everything included (:class:`CheatingMCTS`).
* ``cheatbr``: ``cheat`` with the random opponent model of ``fairbr``.

**``peek``, ``cheat`` and ``cheatbr`` see hidden information on purpose** (through :class:`TrueStateGravwell`):
they measure upper bounds, they are not agents to use, and their win rates are nobody's playing strength.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from baselines.agent import Agent, SeedLike
from baselines.factory import make_agent
from baselines.games.gravwell.agents import RandomNoStopAgent
from baselines.search.mcts import MCTSAgent, Node
from boardenvs.games.gravwell import NUM_CARDS, Gravwell, GravwellConfig, GravwellState
from boardenvs.games.gravwell.cards import bits_to_cards
from boardenvs.games.gravwell.state import STOP
from boardenvs.games.gravwell.tables import ROUNDS

GAME_NAME = "gravwell"
KINDS = ("fair", "fairbr", "peek", "cheat", "cheatbr")
SEES_HIDDEN_INFORMATION = ("peek", "cheat", "cheatbr")
"""The kinds that are given the true state: upper bounds, not agents."""


# -- the learners ---------------------------------------------------------------------------------
# MCTSAgent has no public hook for the root of a search or for the choice at a node, so these agents override
# its protected methods _new_root and _select_uct (and call _child): they depend on baselines.search.mcts.
class CheatingMCTS(MCTSAgent):
    """MCTS that searches the state it is given as it is (no determinization). Given the true state (see
    :class:`TrueStateGravwell`) it knows everything, the future decks and tie orders included."""

    def __init__(self, seed: SeedLike = None, name: str | None = None, **settings: Any) -> None:
        super().__init__(seed, name, **{**settings, "determinizations": 1})

    def _new_root(self, game: Gravwell, view: GravwellState, player: int, perfect: bool) -> Node:
        root = Node(-1, 1)
        root.states[0] = view
        return root


class PeekMCTS(MCTSAgent):
    """MCTS that, given the true state, knows the present but not the future: each determinization keeps every
    hand and face-down card, and re-draws the opponent's pending commit (from the opponent's true hand), the
    decks of the rounds to come and their tie orders."""

    def _new_root(self, game: Gravwell, view: GravwellState, player: int, perfect: bool) -> Node:
        root = Node(-1, self.determinizations)
        root.states = [self._redraw_future(game, view, player) for _ in range(self.determinizations)]
        return root

    def _redraw_future(self, game: Gravwell, state: GravwellState, player: int) -> GravwellState:
        redrawn = state.copy()
        for other in range(game.spec.num_players):
            if other != player and redrawn.commits[other] >= 0:
                redrawn.commits[other] = int(self.rng.choice(bits_to_cards(redrawn.hands[other])))
        kept = state.round + 1  # the rounds so far, the current one included, keep their decks and tie orders
        decks = self.rng.permuted(_unshuffled_rows(NUM_CARDS)[kept:], axis=1).tolist()
        redrawn.decks = state.decks[:kept] + tuple(map(tuple, decks))
        ties = self.rng.permuted(_unshuffled_rows(game.spec.num_players)[kept:], axis=1).tolist()
        redrawn.ties = state.ties[:kept] + tuple(map(tuple, ties))
        return redrawn


def _unshuffled_rows(size: int) -> np.ndarray:
    """``ROUNDS`` rows of ``0..size-1``: what ``Gravwell.initial_state`` shuffles into the decks (26 cards) and
    the tie orders (one entry per player), row by row."""
    return np.tile(np.arange(size), (ROUNDS, 1))


class BestResponseMCTS(MCTSAgent):
    """MCTS whose tree models the other players as uniformly random: at their nodes the move is drawn at random
    (not chosen by UCT), so the search estimates the best response to a random opponent.

    Args:
        opponent_stops: whether the modelled opponent uses an offered Emergency Stop half the time (``random``)
            or never (``random_no_es``).
        seed, name, settings: as for :class:`MCTSAgent`.
    """

    def __init__(
        self, seed: SeedLike = None, name: str | None = None, *, opponent_stops: bool = True, **settings: Any
    ) -> None:
        super().__init__(seed, name, **settings)
        self.opponent_stops = opponent_stops
        self._searching_player = -1

    def act(self, game: Gravwell, view: GravwellState, player: int) -> int:
        self._searching_player = player
        return super().act(game, view, player)

    def _select_uct(self, game: Gravwell, node: Node, d: int, state: GravwellState) -> tuple[Node, int]:
        if state.current_player == self._searching_player:
            return super()._select_uct(game, node, d, state)
        action = self._random_opponent_action(game, state)
        return self._child(game, node, state, action), action

    def _random_opponent_action(self, game: Gravwell, state: GravwellState) -> int:
        if state.phase == STOP:
            stops = self.opponent_stops and self.rng.random() < 0.5
            return game.stop_action + (0 if stops else 1)
        legal = game.legal_actions(state)
        return int(legal[self.rng.integers(len(legal))])


class CheatingBestResponseMCTS(BestResponseMCTS, CheatingMCTS):
    """:class:`CheatingMCTS` with the random opponent model of :class:`BestResponseMCTS`."""


def make_learner(kind: str, simulations: int, opponent: Agent, seed: int) -> Agent:
    """The learner of ``kind`` with ``simulations`` per move (its best-response model follows ``opponent``)."""
    if kind == "fair":
        return make_agent(f"mcts:simulations={simulations}", GAME_NAME, seed=seed)
    if kind == "peek":
        return PeekMCTS(seed, name=kind, simulations=simulations)
    if kind == "cheat":
        return CheatingMCTS(seed, name=kind, simulations=simulations)
    opponent_stops = not isinstance(opponent, RandomNoStopAgent)
    learner_class = BestResponseMCTS if kind == "fairbr" else CheatingBestResponseMCTS
    return learner_class(seed, name=kind, simulations=simulations, opponent_stops=opponent_stops)


# -- the games ------------------------------------------------------------------------------------
class TrueStateGravwell(Gravwell):
    """Gravwell whose ``determinize`` gives seat ``seat`` (a copy of) the true state instead of a determinization.

    ``play_game`` shows each agent ``game.determinize(true_state, player, rng)``: playing this game rather than
    the plain one is how the kinds that see hidden information get the true state through the public game loop.
    The determinization is still drawn for that seat, so the random streams, and with the same moves the games,
    are those of the plain game.
    """

    def __init__(self, config: GravwellConfig, seat: int) -> None:
        super().__init__(config)
        self.seat = seat

    def determinize(self, state: GravwellState, player: int, rng: np.random.Generator) -> GravwellState:
        view = super().determinize(state, player, rng)
        return state.copy() if player == self.seat else view

    def __eq__(self, other: object) -> bool:
        return super().__eq__(other) and other.seat == self.seat  # type: ignore[attr-defined]

    def __hash__(self) -> int:
        return hash((super().__hash__(), self.seat))

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.config, self.seat))


def games_by_seat(kind: str, game: Gravwell) -> list[Gravwell]:
    """The game ``play_game`` runs when the learner sits in each seat: for the kinds that see hidden information,
    one that shows the learner's seat the true state; else the plain game."""
    seats = range(game.spec.num_players)
    if kind in SEES_HIDDEN_INFORMATION:
        return [TrueStateGravwell(game.config, seat) for seat in seats]
    return [game for _ in seats]
