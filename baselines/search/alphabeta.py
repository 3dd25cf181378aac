"""Depth-limited alpha-beta search: the generic two-player agent ``alphabeta`` and the search core it shares.

**Search** (:class:`AlphaBeta`). Minimax with alpha-beta pruning from the root player's point of view: at a
node where the root player (or an ally, see below) is to move the search maximises the root player's value,
elsewhere it minimises it. With two players and a zero-sum value this is negamax with alpha-beta, written
without negamax's sign flip at every ply, so a player who moves twice in a row (sub-decisions) or a skipped
turn needs nothing special. With three or four players the same search is the *paranoid* reduction (every
other player minimises the root player's value), a two-sided game where alpha-beta is sound; Battle Sheep's
``minimax`` agent (:mod:`baselines.games.battle_sheep.minimax`) uses it that way. Leaves are valued by a
leaf function ``leaf(game, state, root, ply)``; the search counts every call as one *node*.

**Iterative deepening.** The search runs depth 1, 2, ... up to ``depth`` and stops early when ``seconds`` or
``nodes`` run out, or when an iteration met no depth cut (every line reached the end of the game). The move
is the best of the deepest completed iteration, or, when the budget ran out inside an iteration, the best of
the root moves that iteration finished (they are searched after the previous best, so a different one is
better at the new depth). A budget never interrupts the first root move of depth 1, so there is always a move.

**Move ordering.** At every node the candidate moves are shuffled with the search's generator (so equal
moves are tried, and ties broken, in a seeded random order), then stably sorted by the game's move priors if
they are given (:func:`baselines.search.knowledge.priors_of`), or else, with ``order_by_value``, by the leaf value of
each child (best first for the side to move) at nodes with at least two plies left. The best move found at
the same position by the previous iteration goes first.

The agent that plays it by name is :class:`baselines.search.alphabeta_agent.AlphaBetaAgent` (``alphabeta``).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Collection
from dataclasses import dataclass
from typing import Any

import numpy as np

from baselines.search.values import PriorsFn
from boardenvs.core import Game

LeafFn = Callable[[Game, Any, int, int], float]
"""``leaf(game, state, root, ply) -> float``: the value of ``state`` for player ``root``, ``ply`` plies below
the root."""
MovesFn = Callable[[Game, Any], list[int]]
"""``moves(game, state) -> actions``: the candidate moves of the player to move (default: the legal actions)."""
TERMINAL_DISCOUNT = 1e-3
"""The agent's terminal values shrink by this share per ply from the root (a sooner win, a later loss)."""
DEFAULT_DEPTH = 3
"""The agent's depth when neither ``depth`` nor a ``seconds``/``nodes`` budget is given."""
ORDERINGS = ("auto", "priors", "value", "none")
"""``auto``: the game's priors if it has some, else child values; ``priors``: the priors only (shuffled order
without); ``value``: child values; ``none``: the shuffled order."""


class _OutOfBudget(Exception):
    """The time or node budget ran out inside an iteration."""


@dataclass
class SearchResult:
    """What one search found.

    Attributes:
        action: the move chosen.
        value: its value for the root player at ``depth`` (of the interrupted iteration when ``complete`` is
            False).
        depth: the depth of the iteration the move comes from.
        complete: whether that iteration searched every root move.
        nodes: leaf valuations made (leaves and move-ordering look-ups).
        seconds: wall-clock time of the search.
    """

    action: int
    value: float
    depth: int
    complete: bool
    nodes: int
    seconds: float


class AlphaBeta:
    """Iteratively deepened alpha-beta search from one root player's point of view (see the module docstring).

    Args:
        leaf: the leaf value for the root player.
        rng: the generator that shuffles the moves (the tie-breaker).
        moves: the candidate moves at a position (default: ``game.legal_actions``).
        priors: move priors of the player to move (sorted on, highest first), or ``None``.
        order_by_value: without priors, order moves by the leaf value of each child at nodes with at least two
            plies left.
        allies: players who maximise with the root player (its partner in a team game); the root is always one.
    """

    def __init__(
        self,
        leaf: LeafFn,
        rng: np.random.Generator,
        moves: MovesFn | None = None,
        priors: PriorsFn | None = None,
        order_by_value: bool = False,
        allies: Collection[int] = (),
    ) -> None:
        self.leaf, self.rng, self.moves, self.priors = leaf, rng, moves, priors
        self.order_by_value = order_by_value
        self.allies = frozenset(allies)

    # -- iterative deepening ------------------------------------------------------------------------
    def run(
        self, game: Game, state: Any, root: int, depth: int, seconds: float | None = None, nodes: int | None = None
    ) -> SearchResult:
        """Search ``state`` for player ``root`` to ``depth`` plies at most, within ``seconds`` and ``nodes``."""
        start = time.perf_counter()
        self._setup(game, root, start + seconds if seconds is not None else math.inf, nodes)
        done: tuple[int, float, int] | None = None
        for current in range(1, depth + 1):
            self._root_best, self._depth_cut = None, False
            self._can_stop = done is not None
            try:
                value = self._value(state, current, -math.inf, math.inf, 0)
            except _OutOfBudget:
                if self._root_best is not None:  # the root moves this iteration finished
                    action, value = self._root_best
                    return SearchResult(action, value, current, False, self._count, time.perf_counter() - start)
                break
            done = (self._best_moves[state.key()], value, current)
            if not self._depth_cut or self._spent():
                break
        assert done is not None  # the first root move of depth 1 is never interrupted
        return SearchResult(done[0], done[1], done[2], True, self._count, time.perf_counter() - start)

    def _setup(self, game: Game, root: int, deadline: float, nodes: int | None) -> None:
        self.game, self.root, self.deadline = game, root, deadline
        self.limit = nodes if nodes is not None else math.inf
        self._count = 0
        self._best_moves: dict[bytes, int] = {}
        self._root_best: tuple[int, float] | None = None
        self._can_stop = False
        self._depth_cut = False

    def _spent(self) -> bool:
        return self._count >= self.limit or time.perf_counter() >= self.deadline

    def _value_of_leaf(self, state: Any, ply: int) -> float:
        """The leaf value, counted as one node; ``_OutOfBudget`` once the budget is spent and a move is known."""
        if self._can_stop and self._spent():
            raise _OutOfBudget
        self._count += 1
        return float(self.leaf(self.game, state, self.root, ply))

    # -- the tree ---------------------------------------------------------------------------------
    def _maximising(self, state: Any) -> bool:
        return state.current_player == self.root or state.current_player in self.allies

    def _value(self, state: Any, depth: int, alpha: float, beta: float, ply: int) -> float:
        """The alpha-beta value of ``state`` for the root player with ``depth`` plies left."""
        if self.game.is_terminal(state):
            return self._value_of_leaf(state, ply)
        if depth == 0:
            self._depth_cut = True
            return self._value_of_leaf(state, ply)
        maximising = self._maximising(state)
        best_value, best_action = (-math.inf if maximising else math.inf), -1
        for action, child in self._children(state, depth, maximising, ply):
            if child is None:
                child = self.game.apply(state, action)
            value = self._value(child, depth - 1, alpha, beta, ply + 1)
            if (value > best_value) if maximising else (value < best_value):
                best_value, best_action = value, action
                if ply == 0:
                    self._root_best, self._can_stop = (action, value), True
            if maximising:
                alpha = max(alpha, best_value)
            else:
                beta = min(beta, best_value)
            if alpha >= beta:
                break
        self._best_moves[state.key()] = best_action
        return best_value

    def _children(self, state: Any, depth: int, maximising: bool, ply: int) -> list[tuple[int, Any]]:
        """``(action, child state or None)`` in search order (see "Move ordering"); ``None`` children are made
        when reached."""
        game = self.game
        actions = list(self.moves(game, state)) if self.moves is not None else game.legal_actions(state).tolist()
        actions = [actions[i] for i in self.rng.permutation(len(actions))]
        children: dict[int, Any] = {}
        if self.priors is not None:
            priors = self.priors(game, state)
            actions.sort(key=lambda a: -float(priors[a]))
        elif self.order_by_value and depth >= 2:
            children = {a: game.apply(state, a) for a in actions}
            values = {a: self._value_of_leaf(children[a], ply + 1) for a in actions}
            actions.sort(key=lambda a: -values[a] if maximising else values[a])
        previous = self._best_moves.get(state.key())
        if previous in actions:
            actions.remove(previous)
            actions.insert(0, previous)
        return [(a, children.get(a)) for a in actions]
