"""The Gumbel root search of :class:`baselines.search.mcts.MCTSAgent` (``selection="gumbel"``, Danihelka et al.
2022; the arithmetic is :mod:`baselines.search.gumbel`).

The root is evaluated, ``gumbel_actions`` actions are sampled without replacement by Gumbel-top-k on the priors,
and the simulations are shared among them by sequential halving; the move is the best of the most visited
considered actions by ``g + log prior + sigma(completed Q)``, and the root's improved policy is the training
target. Below the root the selection is :meth:`~baselines.search.mcts_select.SelectionRules._select_gumbel`.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np

from baselines.search import gumbel
from baselines.search.mcts_select import SelectionRules
from baselines.search.mcts_tree import Node, evaluated_value
from boardenvs.core import Game


class GumbelRoot(SelectionRules):
    """Sequential halving over the Gumbel-sampled root actions, and the move and policy it gives.

    Reads the agent's ``gumbel_scale``, ``gumbel_actions`` and ``batch_size``, runs its ``_simulate`` and
    ``_simulate_batch`` (:class:`baselines.search.mcts_simulate.Simulations`), and keeps the root's sample in
    ``_gumbel_root``: the legal actions, their ``g + log prior`` and the considered indices.
    """

    gumbel_scale: float
    gumbel_actions: int
    batch_size: int
    _gumbel_root: tuple[list[int], list[float], list[int]]
    _gumbel_index: dict[int, int]
    _simulate: Callable[..., None]
    _simulate_batch: Callable[..., int]

    def _search_gumbel(self, game: Game, root: Node, player: int, limit: float, deadline: float) -> int:
        """Evaluate the root, sample the considered actions, then sequential halving over the budget left."""
        done = 0
        if root.visits == 0:
            self._simulate(game, root, 0)
            done = 1
        actions = self._legal(game, root, 0, root.states[0])
        priors = self._action_statistics(game, root, actions, player)[0]
        noise = self.rng.gumbel(size=len(actions)) * self.gumbel_scale if self.gumbel_scale > 0 else 0.0
        scores = (np.asarray(gumbel.logits_of(priors)) + noise).tolist()
        considered = sorted(range(len(actions)), key=lambda i: -scores[i])[: self.gumbel_actions]
        self._gumbel_root = (actions, scores, considered)
        self._gumbel_index = {action: index for index, action in enumerate(actions)}
        schedule = gumbel.halving_schedule(len(considered), int(max(0, limit - done)))
        count, clock, step, offset = len(root.states), time.perf_counter, 0, done

        def root_choice(index: int) -> int:
            return self._gumbel_root_action(game, root, player, schedule[index - offset])

        while step < len(schedule) and (done == 0 or clock() < deadline):
            size = min(self.batch_size, len(schedule) - step)
            if size == 1:
                self._simulate(game, root, done % count, root_choice(done))
                ran = 1
            else:
                ran = self._simulate_batch(game, root, done, size, root_choice)
            done, step = done + ran, step + ran
        return done

    def _gumbel_scores(
        self, game: Game, root: Node, player: int
    ) -> tuple[list[int], list[float], tuple[list[float], list[int], list[float]]]:
        """Root visits, ``g + log prior + sigma(completed Q)`` of every root action, and the statistics
        (priors, visits, values) they come from."""
        actions, scores, _ = self._gumbel_root
        statistics = self._action_statistics(game, root, actions, player)
        priors, visits, values = statistics
        completed = gumbel.completed_values(priors, visits, values, evaluated_value(root, player))
        sigmas = gumbel.sigma(completed, visits, self.gumbel_c_visit, self.gumbel_c_scale)
        return visits, [score + s for score, s in zip(scores, sigmas)], statistics

    def _gumbel_root_action(self, game: Game, root: Node, player: int, target: int) -> int:
        """The best considered action among those with ``target`` visits (else among the least visited)."""
        actions, _, considered = self._gumbel_root
        visits, scores = self._considered_scores(game, root, player)
        candidates = [i for i in considered if visits[i] == target]
        if not candidates:
            fewest = min(visits[i] for i in considered)
            candidates = [i for i in considered if visits[i] == fewest]
        return actions[max(candidates, key=lambda i: scores[i])]

    def _considered_scores(self, game: Game, root: Node, player: int) -> tuple[dict[int, int], dict[int, float]]:
        """Root visits and ``g + log prior + sigma(completed Q)`` of the considered actions (by index): the values
        :meth:`_gumbel_scores` gives them, computed over the considered and the visited actions only, every other
        root action standing in as one unvisited action (its completed value is the node's mixed value). Called
        once per root simulation, so its cost is the considered actions', not every legal action's."""
        actions, scores, considered = self._gumbel_root
        base, num_actions, children = player * game.spec.num_actions, game.spec.num_actions, root.children
        indices = set(considered)
        for key, child in children.items():
            index = self._gumbel_index.get(key - base) if base <= key < base + num_actions else None
            if index is not None and child.visits:
                indices.add(index)
        order = sorted(indices)
        priors, visits, values = self._action_statistics(game, root, [actions[i] for i in order], player, len(actions))
        others = len(order) < len(actions)
        if others:  # one stand-in for the unvisited actions left out: prior 0 keeps it out of the mixed value
            priors, visits, values = priors + [0.0], visits + [0], values + [0.0]
        completed = gumbel.completed_values(priors, visits, values, evaluated_value(root, player))
        sigmas = gumbel.sigma(completed, visits, self.gumbel_c_visit, self.gumbel_c_scale)
        return dict(zip(order, visits)), {i: scores[i] + s for i, s in zip(order, sigmas)}

    def _gumbel_final(self, game: Game, root: Node, player: int) -> tuple[int, dict[int, float]]:
        """The move (the best of the most visited considered actions) and the root's improved policy."""
        actions, _, considered = self._gumbel_root
        visits, scores, (priors, _, values) = self._gumbel_scores(game, root, player)
        most = max(visits[i] for i in considered)
        action = actions[max((i for i in considered if visits[i] == most), key=lambda i: scores[i])]
        policy = self._improved_policy(priors, visits, values, evaluated_value(root, player))
        return action, dict(zip(actions, policy))
