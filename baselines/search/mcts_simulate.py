"""The simulations of :class:`baselines.search.mcts.MCTSAgent`: the budgeted loop, one simulation, and batches of
simulations whose new leaves are valued together.

One simulation descends from the root by the agent's selection rule until it reaches a terminal state (valued by
``game.returns``) or a node never visited before (valued by the evaluator), then backs the value vector up (max^n).
With ``batch_size > 1`` a batch of descents is collected first, kept apart by a virtual loss (:data:`VIRTUAL_LOSS`
per pending descent), and its new leaves are valued by one ``evaluator.evaluate_batch`` call. With several
determinizations, simulation ``i`` runs in determinization ``i % determinizations``.

This is the hot loop: the code is inlined on purpose (local names for the methods it calls, no helper calls per
node beyond the selection rule).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from baselines.search.evaluators import Evaluator
from baselines.search.mcts_select import SelectionRules
from baselines.search.mcts_tree import Node
from boardenvs.core import Game

VIRTUAL_LOSS = 1.0
"""Value subtracted per pending descent in batched search (``batch_size > 1``)."""


class Simulations(SelectionRules):
    """Runs the agent's budget of simulations from a root.

    Reads the agent's ``simulations``, ``seconds``, ``selection``, ``batch_size``, ``dirichlet_fraction`` and
    ``evaluator``; a Gumbel search goes to ``_search_gumbel`` (:class:`baselines.search.mcts_gumbel.GumbelRoot`).
    """

    simulations: int | None
    seconds: float | None
    selection: str
    batch_size: int
    evaluator: Evaluator
    _search_gumbel: Callable[[Game, Node, int, float, float], int]

    def _search(self, game: Game, root: Node, player: int, start: float) -> int:
        """Run simulations until the budget is spent; returns how many ran."""
        limit = self.simulations if self.simulations is not None else math.inf
        deadline = start + self.seconds if self.seconds is not None else math.inf
        if self.selection == "gumbel":
            return self._search_gumbel(game, root, player, limit, deadline)
        count, batch = len(root.states), self.batch_size
        simulate, clock = self._simulate, time.perf_counter
        done = 0
        if self.selection == "puct" and self.dirichlet_fraction > 0:
            if root.visits == 0:
                simulate(game, root, 0)
                done = 1
            self._add_root_noise(game, root)
        while done < limit and (done == 0 or clock() < deadline):
            if batch == 1:
                simulate(game, root, done % count)
                done += 1
            else:
                done += self._simulate_batch(game, root, done, int(min(batch, limit - done)))
        return done

    def _simulate(self, game: Game, root: Node, d: int, first_action: int | None = None) -> None:
        """One simulation in determinization ``d``: select (``first_action`` at the root, if given), evaluate a
        new leaf (or read a terminal), back up."""
        path, leaf, state, values = self._descend(game, root, d, None, first_action)
        if values is None:
            values, priors = self.evaluator.evaluate(game, state)
            self._set_evaluation(leaf, values, priors)
        self._backup(root, path, values)

    def _simulate_batch(
        self, game: Game, root: Node, first: int, size: int, root_choice: Callable[[int], int] | None = None
    ) -> int:
        """Up to ``size`` simulations whose new leaves are valued by one ``evaluate_batch`` call.

        Each descent adds a virtual loss (a visit valued -1 for its mover) along its path, so the next
        descents of the batch spread out; collecting stops early when a descent reaches a leaf that is already
        waiting. Terminal states are backed up at once. ``root_choice(index)``, if given, picks the root action of
        simulation ``index`` (after the virtual losses of the earlier descents). Returns the simulations
        completed (at least one).
        """
        count = len(root.states)
        waiting: dict[int, tuple[list[Node], Node, Any]] = {}
        done = 0
        for index in range(first, first + size):
            first_action = root_choice(index) if root_choice is not None else None
            path, leaf, state, values = self._descend(game, root, index % count, waiting, first_action)
            if values is not None:
                self._backup(root, path, values)
                done += 1
            elif id(leaf) in waiting:
                break
            else:
                waiting[id(leaf)] = (path, leaf, state)
                self._virtual_loss(root, path, 1, -VIRTUAL_LOSS)
        if waiting:
            items = list(waiting.values())
            results = self.evaluator.evaluate_batch(game, [state for _, _, state in items])
            for (path, leaf, _), (values, priors) in zip(items, results):
                self._virtual_loss(root, path, -1, VIRTUAL_LOSS)
                self._set_evaluation(leaf, values, priors)
                self._backup(root, path, values)
            done += len(items)
        return done

    def _descend(
        self, game: Game, root: Node, d: int, waiting: dict[int, Any] | None, first_action: int | None = None
    ) -> tuple[list[Node], Node, Any, np.ndarray | None]:
        """Select down to a terminal state (its returns come back), a new node or a node waiting for its value
        (values ``None``); returns the path below the root, the last node, its state and the values.
        ``first_action``, if given and legal in determinization ``d``, is taken at the root."""
        node, state, path = root, root.states[d], []
        is_terminal, select = game.is_terminal, getattr(self, f"_select_{self.selection}")
        while True:
            if is_terminal(state):
                return path, node, state, game.returns(state)
            if node.visits == 0 or (waiting and id(node) in waiting):
                return path, node, state, None
            if first_action is not None and node is root and first_action in self._legal(game, node, d, state):
                node, action = self._child(game, node, state, first_action), first_action
            else:
                node, action = select(game, node, d, state)
            child_state = node.states[d]
            if child_state is None:
                child_state = node.states[d] = game.apply(state, action)
            state = child_state
            path.append(node)
