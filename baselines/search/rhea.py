"""Branching Mutation Rolling Horizon (BMRH, seed 002, Rinascimento's ``HyperRHEA``) and Seeding RHEA (SRH), every game.

A plan is a sequence of ``sequence_length`` genes, one action id per decision of the acting player. For
each decision the agent hill-climbs (a (1+1) evolutionary algorithm) over plans with a forward model:

1. **Start**: the previous best plan shifted by one decision (``shift_buffer``) or a fresh random plan; it
   is played once to get its fitness.
2. **Mutate** (``evaluations`` times, until the budget runs out): ``mutation_style`` 0 regenerates the whole
   plan; 1, 2 and 3 are *branching* mutations: a mutation point ``m`` is chosen (uniformly; by exponential
   decay: stop at index ``i`` with probability ``p_i``, ``p_0 = exponential_decay``, ``p_{i+1} = p_i**2``; or
   ``round(N(0, 1) * gaussian_std + gaussian_mean * L)``), genes before ``m`` are copied and replayed, and
   every gene from ``m`` on is drawn anew from the legal actions of the state the plan reaches ("rolling the
   state"). ``flip_at_least_one`` makes the gene at ``m`` differ from the parent's where another legal
   action exists (for style 2, a point past the end becomes the last gene; without it the plan is only
   replayed, a re-evaluation).
3. **Select**: the mutant replaces the best plan if its fitness is at least as high (Rinascimento's ``>=``,
   which lets the search drift across plateaus; among equal values a plan that ends the game sooner wins).
4. **Act**: the first gene of the best plan.

**Playing a plan.** From the agent's view (re-determinized for every evaluation in hidden-information games,
``determinize="evaluation"``, as Rinascimento reshuffles decks on every copy; or once per decision,
``"act"``), the agent's decisions take the genes in order and every other player's decisions are taken by the
``opponent_model``: ``"osla"`` (2) plays its best one-step look-ahead among up to
``opponent_budget_share * budget`` sampled legal actions, by the same score value as ``value="score_diff"``
from its own point of view; ``"random"`` (1, Rinascimento's SafeRandom) a uniformly random legal action;
``"nothing"`` (0, DoNothing) the lowest-id legal action. The contract has no null move, so "nothing"
is the closest stand-in: a fixed, non-adaptive, costless choice that models no opponent intent. A plan stops
after the agent's last gene or at the end of the game. A gene that is illegal where it is played (the state
moved on, another determinization) is **repaired**: replaced by a uniformly random legal action, and the plan
keeps the repaired gene; the agent never returns an illegal action.

**Budget.** ``budget`` simulated actions (every forward-model ``apply``, the opponent model's look-ahead
included; the paper's 1,000 by default) or seconds (``budget_unit="seconds"``, not reproducible). An
evaluation the budget cannot finish is dropped, as Rinascimento's ``BudgetOverException`` does.

**Value** of a played plan, from the acting player's point of view: ``"score_diff"`` (default): at the end
of the game the return plus its sign (a win is above, a loss below, every unfinished position), otherwise
``d / (1 + |d|)`` with ``d`` = own score minus the best other score; ``"score"``: own score gained (the
paper's ``PointsHeuristic``); a value a game registered by name with its own settings
(:func:`~baselines.search.rhea_params.register_plan_value`; Splendor's ``"ef"``, an event-value function over the
events logged while the plan was played, set by ``ef_mapping``, ``ef_degree``, ``ef_perspective``, ``ef_count``,
``ef_weights`` and single weights ``ef_w<i>``: :mod:`baselines.games.splendor.plan_values`); or any callable
``value(game, root, end, player, events) -> float``. The parameters, presets and values are in
:mod:`baselines.search.rhea_params`.

**Seeding RHEA** (SRH, Rinascimento's ``SeedingRHEA``; ``genes="seeds"``, :class:`SRHAgent`, preset ``srh_r1`` =
SRH*). The genes are not actions but *seeds of the action sampler*: a decision whose legal actions are
``legal`` plays ``legal[seed % len(legal)]``, a uniformly random legal action fixed by the seed, so a gene
is legal in every state it meets and needs no repair. The mutation is uniform: each gene gets a fresh
random seed with probability ``mutation_rate``, plus one gene at a random index when ``flip_at_least_one``.
Each of the ``evaluations`` iterations plays the current plan **and** its mutant (the current plan is
re-evaluated every time, against the noise of hidden information and opponents) and keeps the mutant if it
is at least as good. ``shift_buffer`` keeps the plan shifted by one decision with a fresh seed appended.
The action is the first seed's action in the agent's view. Rinascimento's sampler is a weighted generator
over action kinds (R12); ours draws uniformly among the legal actions, as BMRH's mutation does here.

Every hyper-parameter accepts an int, float, bool or string (``"key=value"`` command lines) and a bad value
raises ``ValueError`` naming the parameter and the allowed values. ``preset`` names a base configuration
(:data:`PRESETS`: ``bmrh_r1`` = BMRH*, ``bmrh_r2`` = BMRH**, ``srh_r1`` = SRH*, and those games register:
Splendor's ``ef_linear_hc`` = the paper's tuned EF agent)
that the other arguments override. Defaults are BMRH*'s tuned values (seed 002, ``rinascimento_agents.csv``)
with ``value="score_diff"``; the ``bmrh_r1``/``bmrh_r2`` presets use the paper's own-points value (``"score"``).

Example:
    >>> from boardenvs import make_game
    >>> from baselines.arena import play_game
    >>> from baselines.agent import RandomAgent
    >>> game = make_game("splendor")
    >>> record = play_game(game, [RHEAAgent(seed=0, budget="200"), RandomAgent(1)], seed=3)
    >>> record.returns.shape
    (2,)
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import numpy as np

from baselines.agent import BaseAgent, SeedLike
from baselines.search.rhea_params import (
    PRESETS,
    RHEA_SEARCH_SPACE,
    SEED_BOUND,
    SRH_SEARCH_SPACE,
    RHEAParams,
    make_value_function,
    parse_rhea_params,
    score_diff_value,
)
from boardenvs.core import Game


def model_opponent_action(game: Game, state: Any, mover: int, model: str, probes: int, rng: np.random.Generator,
                          budget: Any) -> int:  # fmt: skip
    """An opponent model's action for ``mover`` (see the module docstring; OSLA probes are charged to ``budget``).

    Args:
        game: The game.
        state: The position where the opponent moves.
        mover: The opponent's seat.
        model: ``"nothing"`` (the lowest-id legal action), ``"random"`` or ``"osla"``.
        probes: legal actions OSLA tries (at most).
        rng: the searching agent's generator.
        budget: an :class:`ActionBudget` (or anything with ``spend()``).
    """
    legal = np.flatnonzero(game.legal_action_mask(state))
    if model == "nothing" or len(legal) == 1:
        return int(legal[0])
    if model == "random":
        return int(legal[int(rng.integers(len(legal)))])
    candidates = legal if len(legal) <= probes else rng.choice(legal, size=probes, replace=False)
    values = []
    for action in candidates:
        budget.spend()
        values.append(score_diff_value(game, game.apply(state, int(action)), mover))
    best = np.flatnonzero(np.array(values) == max(values))
    return int(candidates[int(best[int(rng.integers(len(best)))])])


# -- the search -------------------------------------------------------------------------------------
class BudgetSpent(Exception):
    """Raised inside an evaluation when the forward-model budget is used up."""


class ActionBudget:
    """Counts simulated actions (or watches the clock) for one decision."""

    def __init__(self, amount: float, unit: str) -> None:
        self.unit, self.used = unit, 0
        self.limit = int(amount) if unit == "actions" else 0
        self.deadline = time.perf_counter() + amount if unit == "seconds" else 0.0

    def spend(self) -> None:
        """Account for one ``apply``; raise :class:`BudgetSpent` when none is left."""
        if self.unit == "actions":
            if self.used >= self.limit:
                raise BudgetSpent
        elif time.perf_counter() >= self.deadline:
            raise BudgetSpent
        self.used += 1


@dataclass
class _Plan:
    """A played plan: its genes (-1 = not played), fitness and how many genes were played."""

    genes: list[int]
    fitness: float
    played: int

    def beats(self, other: _Plan) -> bool:
        """At least as good (the hill-climber's ``>=``); equal values prefer a shorter played plan."""
        return (self.fitness, -self.played) >= (other.fitness, -other.played)


class _Search:
    """One decision's hill-climb (see the module docstring)."""

    def __init__(self, agent: RHEAAgent, game: Game, view: Any, player: int) -> None:
        self.agent, self.game, self.view, self.player = agent, game, view, player
        self.params, self.rng = agent.params, agent.rng
        self.budget = ActionBudget(self.params.budget, self.params.budget_unit)
        self.resample = self.params.determinize == "evaluation" and not game.spec.perfect_information
        self.needs_events = bool(getattr(agent.value_function, "needs_events", False))
        if self.needs_events and not hasattr(view, "events"):
            raise ValueError(f"an event-value function needs state.events, which {game.spec.name} does not log")

    def run(self, start: list[int]) -> list[int]:
        """The best plan found from the plan ``start``."""
        length = self.params.sequence_length
        try:
            best = self.play(start, point=length, parent=None)
        except BudgetSpent:
            return start
        for _ in range(self.params.evaluations):
            point, fresh_parent = self.mutation_point()
            try:
                child = self.play(best.genes, point, best.genes if fresh_parent else None)
            except BudgetSpent:
                break
            if child.beats(best):
                best = child
        return best.genes

    def mutation_point(self) -> tuple[int, bool]:
        """Where the mutation starts, and whether the gene there must differ from the parent's."""
        style, length, flip = self.params.mutation_style, self.params.sequence_length, self.params.flip_at_least_one
        if style == 0:
            return 0, flip
        if style == 1:
            return int(self.rng.integers(length)), flip
        if style == 2:
            point, chance = 0, self.params.exponential_decay
            while point < length and self.rng.random() > chance:
                point, chance = point + 1, chance * chance
            return (min(point, length - 1), True) if flip else (point, False)
        centre = self.rng.normal() * self.params.gaussian_std + self.params.gaussian_mean * length
        return int(min(max(round(centre), 0), length - 1)), flip

    def play(self, genes: list[int], point: int, parent: list[int] | None) -> _Plan:
        """Play ``genes`` (redrawn from ``point`` on) from the view and value the result."""
        game, player, length = self.game, self.player, self.params.sequence_length
        state = game.determinize(self.view, player, self.rng) if self.resample else self.view
        played, events, out = 0, [], [-1] * length
        while played < length and not game.is_terminal(state):
            mover = state.current_player
            if mover == player:
                gene = genes[played] if played < point else -1
                action = self.repair(state, gene, parent[played] if parent is not None and played == point else -1)
                out[played], played = action, played + 1
            else:
                action = self.agent.opponent_action(game, state, mover, self.budget)
            self.budget.spend()
            state = game.apply(state, action)
            if self.needs_events:
                events.extend(state.events)
        value = self.agent.value_function(game, self.view, state, player, events)
        return _Plan(out, float(value), played)

    def repair(self, state: Any, gene: int, avoid: int) -> int:
        """``gene`` if legal; otherwise a random legal action (other than ``avoid`` where possible)."""
        mask = self.game.legal_action_mask(state)
        if avoid < 0 and 0 <= gene < len(mask) and mask[gene]:
            return gene
        legal = np.flatnonzero(mask)
        if 0 <= avoid < len(mask) and mask[avoid] and len(legal) > 1:
            legal = legal[legal != avoid]
        return int(legal[int(self.rng.integers(len(legal)))])


def seed_action(legal: np.ndarray, seed: int) -> int:
    """SRH's sampler: the legal action a gene's ``seed`` picks (uniform over ``legal`` for a uniform seed)."""
    return int(legal[seed % len(legal)])


class _SeedSearch(_Search):
    """One decision of Seeding RHEA: plans of sampler seeds, uniform mutation, the parent re-evaluated."""

    def run(self, start: list[int]) -> list[int]:
        """The plan kept after ``evaluations`` parent-versus-mutant comparisons (fewer if the budget ends)."""
        best = start
        for _ in range(self.params.evaluations):
            mutant = self.mutate(best)
            try:
                parent_value = self.play_seeds(best)
                mutant_value = self.play_seeds(mutant)
            except BudgetSpent:
                break
            if mutant_value >= parent_value:
                best = mutant
        return best

    def mutate(self, seeds: list[int]) -> list[int]:
        """Each seed redrawn with probability ``mutation_rate``; with ``flip_at_least_one`` one more at random."""
        forced = int(self.rng.integers(len(seeds))) if self.params.flip_at_least_one else -1
        return [
            self.agent.new_seed() if i == forced or self.rng.random() < self.params.mutation_rate else seed
            for i, seed in enumerate(seeds)
        ]

    def play_seeds(self, seeds: list[int]) -> float:
        """Play the plan's seeds (opponents by the opponent model) from the view and value the result."""
        game, player = self.game, self.player
        state = game.determinize(self.view, player, self.rng) if self.resample else self.view
        played, events = 0, []
        while played < len(seeds) and not game.is_terminal(state):
            mover = state.current_player
            if mover == player:
                action = seed_action(np.flatnonzero(game.legal_action_mask(state)), seeds[played])
                played += 1
            else:
                action = self.agent.opponent_action(game, state, mover, self.budget)
            self.budget.spend()
            state = game.apply(state, action)
            if self.needs_events:
                events.extend(state.events)
        return float(self.agent.value_function(game, self.view, state, player, events))


class RHEAAgent(BaseAgent):
    """Branching Mutation Rolling Horizon (BMRH) with a forward-model budget; see the module docstring.

    Args:
        seed: an int, a generator or ``None``.
        name: display name (default ``"rhea"``).
        **hyperparams: any field of :class:`RHEAParams`, ``preset`` (a key of :data:`PRESETS`) and the settings
            of registered plan values (``ef_mapping``, ``ef_w<i>``, ...); values may be strings.

    Raises:
        ValueError: an unknown parameter or a bad value (the message names it and the allowed values).
    """

    name = "rhea"

    def __init__(self, seed: SeedLike = None, name: str | None = None, **hyperparams: Any) -> None:
        super().__init__(seed, name)
        self.params, indexed = parse_rhea_params(**hyperparams)
        self.value_function = make_value_function(self.params, indexed)
        self._plans: dict[int, list[int]] = {}

    def reseed(self, seed: int) -> None:
        """Restart the generator and forget the remembered plans (the arena calls this before every game)."""
        super().reseed(seed)
        self._plans.clear()

    def act(self, game: Game, view: Any, player: int) -> int:
        """The first action of the best plan found within the budget."""
        if view.current_player != player:
            raise ValueError(f"player {player} is not to move (current player {view.current_player})")
        mask = game.legal_action_mask(view)
        legal = np.flatnonzero(mask)
        if len(legal) == 0:
            raise ValueError("no legal action: the game is over")
        if len(legal) == 1:
            self._remember(player, None)
            return int(legal[0])
        seeds = self.params.genes == "seeds"
        search = (_SeedSearch if seeds else _Search)(self, game, view, player)
        plan = search.run(self._start_plan(player))
        if seeds:
            action = seed_action(legal, plan[0])
        else:
            action = plan[0] if 0 <= plan[0] < len(mask) and mask[plan[0]] else self.choose(legal)
        self._remember(player, plan)
        return int(action)

    def new_seed(self) -> int:
        """A fresh SRH gene: a seed drawn uniformly from ``[0, SEED_BOUND)``."""
        return int(self.rng.integers(SEED_BOUND))

    def _empty_gene(self) -> int:
        """A gene to be drawn later: -1 (BMRH draws it when played) or a fresh seed (SRH)."""
        return self.new_seed() if self.params.genes == "seeds" else -1

    def _start_plan(self, player: int) -> list[int]:
        """The shifted previous plan, or a fresh plan (BMRH: all genes drawn when played; SRH: random seeds)."""
        plan = self._plans.get(player)
        length = self.params.sequence_length
        if plan is None or not self.params.shift_buffer:
            return [self._empty_gene() for _ in range(length)]
        return (plan + [self._empty_gene() for _ in range(length - len(plan))])[:length]

    def _remember(self, player: int, plan: list[int] | None) -> None:
        """Keep the plan shifted by the decision just taken (only with ``shift_buffer``)."""
        if plan is None or not self.params.shift_buffer:
            self._plans.pop(player, None)
        else:
            self._plans[player] = plan[1:] + [self._empty_gene()]

    def opponent_action(self, game: Game, state: Any, mover: int, budget: Any) -> int:
        """The opponent model's action for ``mover`` inside a plan (OSLA probes are charged to ``budget``)."""
        return model_opponent_action(
            game, state, mover, self.params.opponent_model, self.params.opponent_probes, self.rng, budget
        )

    def __repr__(self) -> str:
        return f"{type(self).__name__}(name={self.name!r}, params={self.params})"


class SRHAgent(RHEAAgent):
    """Seeding RHEA (seed 002's SRH): :class:`RHEAAgent` with ``preset="srh_r1"`` (SRH*) unless another is given.

    ``make_agent("srh", "splendor")`` plays SRH*; ``"srh:sequence_length=5:mutation_rate=0.3"`` changes it.
    """

    name = "srh"

    def __init__(self, seed: SeedLike = None, name: str | None = None, **hyperparams: Any) -> None:
        hyperparams.setdefault("preset", "srh_r1")
        super().__init__(seed, name, **hyperparams)


__all__ = [
    "PRESETS",
    "RHEA_SEARCH_SPACE",
    "SRH_SEARCH_SPACE",
    "ActionBudget",
    "BudgetSpent",
    "RHEAAgent",
    "RHEAParams",
    "SRHAgent",
    "model_opponent_action",
    "parse_rhea_params",
    "seed_action",
]
