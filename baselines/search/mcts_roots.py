"""The root of each search of :class:`baselines.search.mcts.MCTSAgent`: determinizations and tree reuse.

**Hidden information** (``game.spec.perfect_information`` false): the root holds ``determinizations`` states
``game.determinize(view, player, rng)``, and every node of the one shared tree keeps one state per determinization
(single-observer information-set MCTS). Perfect-information games use the view itself.

**Tree reuse** (perfect information only): after a move the subtree under the chosen action is kept; the next search
looks for a node whose ``state.key()`` equals the new view within :data:`REUSE_PLIES` plies below it (the other
players' moves) and continues from it with its statistics, else starts afresh.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from baselines.search.mcts_tree import Node
from boardenvs.core import Game

REUSE_PLIES = 4
"""How many plies below the chosen child tree reuse searches for the new view."""


class Roots:
    """Builds a fresh root, keeps the subtree of the move played, and finds the next root in it.

    Reads the agent's ``rng``, ``determinizations`` and ``reuse_tree``; the kept subtree is ``_kept``
    (``(game, node)`` or ``None``). A subclass may override ``_new_root`` (for example to search a given state).
    """

    rng: np.random.Generator
    determinizations: int
    reuse_tree: bool
    _kept: tuple[Game, Node] | None

    def _new_root(self, game: Game, view: Any, player: int, perfect: bool) -> Node:
        """A fresh root: ``view`` itself (perfect information), else ``determinizations`` states drawn from it."""
        if perfect:
            root = Node(-1, 1)
            root.states[0] = view
            return root
        root = Node(-1, self.determinizations)
        root.states = [game.determinize(view, player, self.rng) for _ in range(self.determinizations)]
        return root

    def _keep(self, game: Game, root: Node | None, player: int, action: int) -> None:
        """Remember the subtree under ``action`` for the next move (perfect information only)."""
        self._kept = None
        if root is not None and self.reuse_tree and game.spec.perfect_information:
            child = root.children.get(player * game.spec.num_actions + action)
            if child is not None:
                self._kept = (game, child)

    def _reused_root(self, game: Game, view: Any) -> Node | None:
        """The kept node whose state is ``view`` (searched :data:`REUSE_PLIES` plies deep), else ``None``."""
        if self._kept is None or not self.reuse_tree:
            return None
        kept_game, node = self._kept
        self._kept = None
        if kept_game is not game and kept_game != game:
            return None
        target, target_ply = view.key(), view.ply
        frontier = [node]
        for _ in range(REUSE_PLIES + 1):
            deeper = []
            for candidate in frontier:
                state = candidate.states[0]
                if state is None or state.ply > target_ply:
                    continue
                if state.ply == target_ply and state.key() == target:
                    return candidate
                deeper.extend(candidate.children.values())
            frontier = deeper
        return None
