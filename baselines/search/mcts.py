"""Monte Carlo tree search for every boardenvs game: UCT or PUCT over any leaf evaluator.

One simulation walks down from the root, choosing children by UCT (``Q + c sqrt(ln N / n)``, every child
tried once first, in a random order or by decreasing prior when the evaluator gives priors) or PUCT
(``Q + c P sqrt(N) / (1 + n)``, unvisited children valued 0), until it reaches a terminal state (valued
by ``game.returns``) or a node never visited before (valued by the evaluator, whose priors feed PUCT).
The value *vector* (one entry per player, in [-1, 1]) is backed up: every node adds the entry of the
player who moved into it (max^n). So the search is right for 2-4 players, for several consecutive
decisions by the same player (sub-decisions) and for skipped turns: nothing assumes that players
alternate. Children are created when first chosen and keyed by ``(player to move, action)``.

**Gumbel root search** (``selection="gumbel"``, Danihelka et al. 2022; the arithmetic is in
:mod:`baselines.search.gumbel`). The root samples ``gumbel_actions`` actions without replacement by Gumbel-top-k
on the evaluator's priors and shares the simulations among them by sequential halving; below the root the
search visits the action that most lacks visits compared with the improved policy
``softmax(log prior + sigma(completed Q))``. The move is the surviving action with the best
``g + log prior + sigma(Q)``, and :attr:`SearchStats.policy_target` holds the root's improved policy (the
AlphaZero training target, useful after even 8-32 simulations). The Gumbel noise is the exploration: no
temperature, no Dirichlet noise, no tree reuse, and a simulation budget is required (the halving plans over it).

**Plain UCT and wide nodes.** UCT tries every child once before it prefers any, so a move that lets the
opponent win at once looks good for a while: most of the opponent's many replies do not win, and their values
average in until the winning reply has drawn enough visits. On Quoridor 5x5 this makes
``mcts:evaluator=heuristic`` *weaker* at 200-800 simulations than at 50 (the ladder, docs/results/ladder.md):
after ``c4 c2 c3 c4`` it plays ``c2`` and loses next ply at 800 simulations, where 50 (which never expands that
far), ``selection="puct"`` (the heuristic's move priors steer the replies) or ``exploration=0.5`` all play a wall.
With an evaluator that gives priors, prefer ``selection="puct"``.

**Budget.** ``simulations`` and/or ``seconds``: the search stops at whichever comes first (at least one
simulation). The move played is the most visited root action, ties broken by the higher mean value and
then by the agent's generator (``temperature > 0``: sampled with probability proportional to
``visits ** (1 / temperature)``).

**Hidden information** (``game.spec.perfect_information`` false). The agent only sees its ``view``. Each
move draws ``determinizations`` states ``game.determinize(view, player, rng)`` and the simulations cycle
through them (simulation ``i`` uses determinization ``i % determinizations``). All of them share one tree
whose nodes are action sequences (single-observer information-set MCTS): a node keeps one state per
determinization, computed when first reached in it, and only the actions legal in the simulation's
determinization are candidates. Perfect-information games use the view itself and no determinization.

**Fast playouts.** With ``evaluator="rollout"`` a game's own playout replaces the generic ``legal_actions`` +
``apply`` loop where it has one (same moves from the same random numbers, so the same search). Quoridor's,
Gravwell's, Battle Sheep's and Splendor's are compiled with Numba when the ``fast`` extra is installed (7-10x the
Python playout; ``BOARDENVS_NO_COMPILE=1`` plays the Python one; docs/results/engines.md).

**Tree reuse** (perfect information only). After a move the subtree under the chosen action is kept; the
next ``act`` looks for a node whose ``state.key()`` equals the new view within :data:`REUSE_PLIES` plies
below it (the other players' moves) and continues from it with its statistics, else starts afresh.
``reseed`` (the arena calls it before every game) drops the tree.

**Where the parts live.** This module is the agent that wires them: :mod:`.mcts_tree` (nodes, statistics,
backup), :mod:`.mcts_select` (UCT, PUCT, Gumbel below the root), :mod:`.mcts_gumbel` (the Gumbel root),
:mod:`.mcts_simulate` (the simulation loop and leaf batching) and :mod:`.mcts_roots` (determinization, tree reuse).
Each part is a mixin of :class:`MCTSAgent`, so a subclass can still override one step (``_new_root``,
``_select_uct``, ...) and the simulation loop calls them with no indirection.

**Parameters from strings.** Agent factories pass ``key=value`` pairs parsed to int/float/bool/str; every
parameter accepts those (``"none"`` for an optional one) and a bad value raises ``ValueError`` naming the
parameter and what is allowed.
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from baselines.agent import MAX_COEFFICIENT, MAX_COUNT, MAX_SAMPLES, MAX_SECONDS, BaseAgent, SeedLike
from baselines.params import bool_param, choice_param, float_param, int_param
from baselines.search.evaluators import EVALUATORS, Evaluator, make_evaluator
from baselines.search.mcts_gumbel import GumbelRoot
from baselines.search.mcts_roots import REUSE_PLIES, Roots
from baselines.search.mcts_simulate import VIRTUAL_LOSS, Simulations
from baselines.search.mcts_tree import Node, SearchStats
from boardenvs.core import Game

__all__ = [
    "DEFAULT_SIMULATIONS",
    "REUSE_PLIES",
    "SELECTIONS",
    "VIRTUAL_LOSS",
    "MCTSAgent",
    "Node",
    "SearchStats",
    "bool_param",
    "choice_param",
    "float_param",
    "int_param",
]

SELECTIONS = ("uct", "puct", "gumbel")
_SEED_BOUND = 2**63
DEFAULT_SIMULATIONS = 200
"""The budget of an :class:`MCTSAgent` given neither ``simulations`` nor ``seconds``."""


class MCTSAgent(Simulations, GumbelRoot, Roots, BaseAgent):
    """Monte Carlo tree search (see the module docstring).

    Args:
        seed: the agent's seed (int, generator or ``None``).
        name: display name (default ``"mcts"``).
        simulations: simulations per move, >= 1, or ``None``.
        seconds: wall-clock budget per move, > 0, or ``None``. With both budgets the search stops at whichever
            comes first; with ``seconds`` alone time is the only limit; with neither, 200 simulations
            (:data:`DEFAULT_SIMULATIONS`).
        evaluator: ``"rollout"`` (random playouts), ``"heuristic"`` (the game's heuristic value from
            :mod:`baselines.search.evaluators`; checked at the first ``act``) or an :class:`Evaluator` instance
            (for example a network with priors for PUCT).
        selection: ``"uct"``, ``"puct"`` or ``"gumbel"`` (see the module docstring).
        exploration: the constant ``c`` of UCT/PUCT, >= 0.
        rollout_depth: plies per playout of the ``"rollout"`` evaluator before the position is valued by
            the game's heuristic (or its scores), >= 1, or ``None`` to play to the end.
        rollouts: playouts averaged per leaf by the ``"rollout"`` evaluator, >= 1.
        determinizations: hidden-information games: states sampled from the view per move, >= 1.
        reuse_tree: keep the subtree of the chosen move for the next move (perfect information only; not with
            ``"gumbel"``); ``None``: on for UCT and PUCT.
        temperature: 0 plays the most visited action; > 0 samples ``visits ** (1 / temperature)``.
        dirichlet_fraction: share of Dirichlet noise mixed into the root priors (PUCT), in [0, 1].
        dirichlet_alpha: concentration of that noise, > 0.
        batch_size: new leaves valued together by one ``evaluator.evaluate_batch`` call (virtual loss keeps
            the descents of a batch apart), >= 1; 1 is the plain sequential search.
        gumbel_actions: Gumbel: root actions sampled for sequential halving, >= 1.
        gumbel_scale: Gumbel: scale of the root's Gumbel noise, >= 0 (0: the top actions by prior, no noise).
        gumbel_c_visit: Gumbel: ``c_visit`` of ``sigma``, >= 0.
        gumbel_c_scale: Gumbel: ``c_scale`` of ``sigma``, > 0.
    """

    name = "mcts"

    def __init__(
        self,
        seed: SeedLike = None,
        name: str | None = None,
        *,
        simulations: int | None = None,
        seconds: float | None = None,
        evaluator: str | Evaluator = "rollout",
        selection: str = "uct",
        exploration: float = 1.4,
        rollout_depth: int | None = None,
        rollouts: int = 1,
        determinizations: int = 8,
        reuse_tree: bool | None = None,
        temperature: float = 0.0,
        dirichlet_fraction: float = 0.0,
        dirichlet_alpha: float = 0.3,
        batch_size: int = 1,
        gumbel_actions: int = 16,
        gumbel_scale: float = 1.0,
        gumbel_c_visit: float = 50.0,
        gumbel_c_scale: float = 0.1,
    ) -> None:
        super().__init__(seed, name)
        self._set_budget(simulations, seconds)
        self.selection = choice_param("selection", selection, SELECTIONS)
        self.exploration = float_param("exploration", exploration, 0.0, MAX_COEFFICIENT)
        self.rollout_depth = int_param("rollout_depth", rollout_depth, 1, MAX_COUNT, optional=True)
        self.rollouts = int_param("rollouts", rollouts, 1, MAX_COUNT)
        self.determinizations = int_param("determinizations", determinizations, 1, MAX_SAMPLES)
        gumbel = self.selection == "gumbel"
        self.reuse_tree = not gumbel if reuse_tree is None else bool_param("reuse_tree", reuse_tree)
        self.temperature = float_param("temperature", temperature, 0.0, MAX_COEFFICIENT)
        self.dirichlet_fraction = float_param("dirichlet_fraction", dirichlet_fraction, 0.0, 1.0)
        self.dirichlet_alpha = float_param("dirichlet_alpha", dirichlet_alpha, 0.0, MAX_COEFFICIENT, positive=True)
        self.batch_size = int_param("batch_size", batch_size, 1, MAX_SAMPLES)
        self._set_gumbel(gumbel_actions, gumbel_scale, gumbel_c_visit, gumbel_c_scale)
        self.evaluator = self._build_evaluator(evaluator)
        self.last_search = SearchStats()
        self._checked: Game | None = None
        self._kept: tuple[Game, Node] | None = None
        self._gumbel_root: tuple[list[int], list[float], list[int]] = ([], [], [])
        """Gumbel search: the root's legal actions, their ``g + log prior`` and the considered indices."""

    def _set_budget(self, simulations: int | None, seconds: float | None) -> None:
        """Check and set ``simulations`` and ``seconds`` (neither: :data:`DEFAULT_SIMULATIONS`)."""
        self.simulations = int_param("simulations", simulations, 1, MAX_COUNT, optional=True)
        self.seconds = float_param("seconds", seconds, 0.0, MAX_SECONDS, positive=True, optional=True)
        if self.simulations is None and self.seconds is None:
            self.simulations = DEFAULT_SIMULATIONS

    def _set_gumbel(self, actions: int, scale: float, c_visit: float, c_scale: float) -> None:
        """Check and set the Gumbel settings; with ``selection="gumbel"`` also reject the settings it ignores."""
        self.gumbel_actions = int_param("gumbel_actions", actions, 1, MAX_SAMPLES)
        self.gumbel_scale = float_param("gumbel_scale", scale, 0.0, MAX_COEFFICIENT)
        self.gumbel_c_visit = float_param("gumbel_c_visit", c_visit, 0.0, MAX_COEFFICIENT)
        self.gumbel_c_scale = float_param("gumbel_c_scale", c_scale, 0.0, MAX_COEFFICIENT, positive=True)
        if self.selection == "gumbel":
            self._check_gumbel_settings()

    def _check_gumbel_settings(self) -> None:
        """Reject settings that mean nothing to a Gumbel search (its noise is the exploration)."""
        conflicts = {
            "temperature": (self.temperature > 0, "it samples through its Gumbel noise (gumbel_scale)"),
            "dirichlet_fraction": (self.dirichlet_fraction > 0, "its root noise is the Gumbel noise"),
            "reuse_tree": (self.reuse_tree, "every move starts a fresh sequential halving"),
            "seconds": (self.simulations is None, "give simulations, the budget sequential halving plans over"),
        }
        for parameter, (conflict, reason) in conflicts.items():
            if conflict:
                value = getattr(self, parameter)
                raise ValueError(f"{parameter}={value!r} does not apply to selection='gumbel': {reason}")

    def _build_evaluator(self, evaluator: str | Evaluator) -> Evaluator:
        """The leaf evaluator: ``evaluator`` itself, or the one :data:`EVALUATORS` names (sets ``evaluator_name``)."""
        if isinstance(evaluator, Evaluator):
            self.evaluator_name = type(evaluator).__name__
            if self.rollout_depth is not None or self.rollouts != 1:
                raise ValueError("rollout_depth and rollouts only apply to evaluator='rollout'")
            return evaluator
        name = evaluator.strip().lower() if isinstance(evaluator, str) else evaluator
        if name not in EVALUATORS:
            raise ValueError(f"evaluator must be one of {sorted(EVALUATORS)} or an Evaluator, got {evaluator!r}")
        if name != "rollout" and (self.rollout_depth is not None or self.rollouts != 1):
            raise ValueError(f"rollout_depth and rollouts only apply to evaluator='rollout', not {name!r}")
        self.evaluator_name = name
        return make_evaluator(name, self.rollout_depth, self.rollouts)

    def reseed(self, seed: int) -> None:
        """Restart the generator and drop the kept tree (a new game begins)."""
        super().reseed(seed)
        self._kept = None

    # -- acting -----------------------------------------------------------------------------------
    def act(self, game: Game, view: Any, player: int) -> int:
        """The action the search prefers for ``player`` in ``view``."""
        start = time.perf_counter()
        self._check_game(game)
        legal = game.legal_actions(view)
        if len(legal) == 0:
            raise ValueError(f"{self.name}: no legal action in the position given (is the game over?)")
        perfect = game.spec.perfect_information
        root = self._reused_root(game, view) if perfect else None
        reused = root is not None
        if len(legal) == 1:
            action = int(legal[0])
            self._keep(game, root, player, action)
            self.last_search = SearchStats(0, time.perf_counter() - start, {action: 0}, 0.0, reused)
            return action
        self.evaluator.reseed(int(self.rng.integers(_SEED_BOUND)))
        if root is None:
            root = self._new_root(game, view, player, perfect)
        simulations = self._search(game, root, player, start)
        if self.selection == "gumbel":
            action, target = self._gumbel_final(game, root, player)
        else:
            action, target = self._final_action(game, root, player, legal), None
        seconds = time.perf_counter() - start
        self.last_search = self._stats(game, root, player, legal, simulations, seconds, reused)
        self.last_search.policy_target = target
        self._keep(game, root, player, action)
        return action

    def search(self, game: Game, view: Any, player: int) -> Node:
        """A fresh search of ``view`` for ``player`` with the agent's budget; returns the root (nothing kept).

        For analysis and training: ``root.children`` maps ``player * num_actions + action`` to the nodes
        of the actions tried, with their ``visits`` and ``value()``.
        """
        start = time.perf_counter()
        self._check_game(game)
        self.evaluator.reseed(int(self.rng.integers(_SEED_BOUND)))
        root = self._new_root(game, view, player, game.spec.perfect_information)
        self._search(game, root, player, start)
        return root

    def _check_game(self, game: Game) -> None:
        """A ``ValueError`` naming the agent when its evaluator cannot value ``game`` (checked once per game)."""
        if self._checked is game:
            return
        try:
            self.evaluator.check(game)
        except ValueError as error:
            label = f"agent {self.name!r}: evaluator={self.evaluator_name!r}"
            raise ValueError(f"{label} cannot be used: {error}") from None
        self._checked = game

    # -- the move and the statistics --------------------------------------------------------------
    def _root_visits(self, game: Game, root: Node, player: int, legal: np.ndarray) -> dict[int, int]:
        """Legal root action -> visits of its child (0 if never tried)."""
        base = player * game.spec.num_actions
        visits = {}
        for action in legal.tolist():
            child = root.children.get(base + action)
            visits[action] = child.visits if child is not None else 0
        return visits

    def _final_action(self, game: Game, root: Node, player: int, legal: np.ndarray) -> int:
        """The most visited legal root action, or a visit-count sample when ``temperature > 0``.

        Ties in visits go to the higher mean value, then to the agent's generator.
        """
        visits = self._root_visits(game, root, player, legal)
        actions = list(visits)
        counts = np.array([visits[a] for a in actions], dtype=np.float64)
        if self.temperature > 0 and counts.sum() > 0:
            weights = (counts / counts.max()) ** (1.0 / self.temperature)
            return int(actions[int(self.rng.choice(len(actions), p=weights / weights.sum()))])
        most = [a for a, c in zip(actions, counts) if c == counts.max()]
        if len(most) > 1:
            base = player * game.spec.num_actions
            values = {a: root.children[base + a].value() if base + a in root.children else 0.0 for a in most}
            best = max(values.values())
            most = [a for a in most if values[a] == best]
        return self.choose(most)

    def _stats(
        self, game: Game, root: Node, player: int, legal: np.ndarray, sims: int, seconds: float, reused: bool
    ) -> SearchStats:
        """The :class:`SearchStats` of a finished search (without the Gumbel policy target)."""
        visits = self._root_visits(game, root, player, legal)
        base = player * game.spec.num_actions
        total = sum(visits.values())
        value = sum(root.children[base + a].total for a, n in visits.items() if n) / total if total else 0.0
        return SearchStats(sims, seconds, visits, value, reused)

    def __repr__(self) -> str:
        budget = f"simulations={self.simulations}, seconds={self.seconds}"
        search = f"evaluator={self.evaluator_name!r}, selection={self.selection!r}"
        return f"MCTSAgent(name={self.name!r}, {budget}, {search})"
