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
paper's ``PointsHeuristic``); ``"ef"``: an event-value function over the events logged while the plan was
played (:mod:`baselines.games.splendor.event_values`, games with ``state.events`` of Table I records:
Splendor), set by ``ef_mapping``, ``ef_degree``, ``ef_perspective``, ``ef_count``, ``ef_weights``
(comma-separated, ``"paper"`` or ``"zeros"``) and single weights ``ef_w<i>``; or any callable
``value(game, root, end, player, events) -> float``.

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
(:data:`PRESETS`: ``bmrh_r1`` = BMRH*, ``bmrh_r2`` = BMRH**, ``ef_linear_hc`` = the paper's tuned EF agent,
``srh_r1`` = SRH*)
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

import re
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, fields, replace
from typing import Any, Protocol

import numpy as np

from baselines.agent import MAX_SECONDS, BaseAgent, SeedLike
from baselines.params import bool_param, choice_param, float_param, int_param
from boardenvs.core import Game

OPPONENT_MODELS = ("nothing", "random", "osla")
"""Opponent models, in Rinascimento's numbering 0, 1, 2."""
MUTATION_STYLES = (0, 1, 2, 3)
"""0 regenerate, 1 branching + uniform point, 2 branching + exponential-decay point, 3 branching + Gaussian."""
GENES = ("actions", "seeds")
"""What a gene is: an action id (BMRH) or a seed of the action sampler (SRH)."""
VALUES = ("score_diff", "score", "ef")
"""Named value functions."""
BUDGET_UNITS = ("actions", "seconds")
DETERMINIZE = ("evaluation", "act")
PAPER_BUDGET = 1000
"""Simulated actions per decision in seed 002 (Rinascimento's ``ActionsBudget(1000)``)."""

RHEA_SEARCH_SPACE: dict[str, list[Any]] = {
    "shift_buffer": [False, True],
    "sequence_length": [1, 2, 3, 5, 10, 20],
    "evaluations": [20, 50, 100, 200],
    "flip_at_least_one": [False, True],
    "mutation_style": [0, 1, 2],
    "opponent_model": ["nothing", "random", "osla"],
    "opponent_budget_share": [0.005, 0.01, 0.02, 0.05],
    "exponential_decay": [0.5, 0.7, 0.8, 0.9],
    "gaussian_mean": [0.0, 0.1, 0.3, 0.5, 0.75],
    "gaussian_std": [0.5, 1.0, 2.0],
}
"""BMRH's NTBEA search space (``rinascimento_agents.csv``; mutation style 3 exists in code, not in the space)."""
SRH_SEARCH_SPACE: dict[str, list[Any]] = {
    "flip_at_least_one": [False, True],
    "mutation_rate": [0.01, 0.05, 0.1, 0.2, 0.3, 0.5, 0.7, 0.8, 0.9, 1.0],
    "sequence_length": [1, 2, 3, 5, 10, 20],
    "evaluations": [0, 1, 5, 10, 20, 50, 100, 200],
    "shift_buffer": [False, True],
    "opponent_model": ["nothing", "random", "osla"],
    "opponent_budget_share": [0.001, 0.005, 0.01, 0.02, 0.05],
}
"""SRH's NTBEA search space (``agents/SeededRHEAParams.json`` of Rinascimento, ``rinascimento_agents.csv``)."""
SEED_BOUND = 2**63
"""Seeds of SRH's genes are drawn from ``[0, SEED_BOUND)``."""


@dataclass(frozen=True)
class RHEAParams:
    """BMRH and SRH hyper-parameters, validated (see the module docstring); defaults: BMRH with R1's tuned values
    and ``score_diff``. ``genes`` and ``mutation_rate`` (Java's default 0.2) are SRH's; ``mutation_style``,
    ``exponential_decay`` and the Gaussian parameters only BMRH's."""

    shift_buffer: bool = True
    sequence_length: int = 2
    evaluations: int = 200
    flip_at_least_one: bool = True
    mutation_style: int = 1
    opponent_model: str = "nothing"
    opponent_budget_share: float = 0.02
    exponential_decay: float = 0.8
    gaussian_mean: float = 0.1
    gaussian_std: float = 0.5
    genes: str = "actions"
    mutation_rate: float = 0.2
    budget: float = PAPER_BUDGET
    budget_unit: str = "actions"
    determinize: str = "evaluation"
    value: Any = "score_diff"
    ef_mapping: str = "hc"
    ef_degree: int = 1
    ef_perspective: str = "own"
    ef_count: str = "events"
    ef_weights: Any = "paper"

    @property
    def opponent_probes(self) -> int:
        """Legal actions the OSLA opponent model tries per decision (at least 1)."""
        nominal = self.budget if self.budget_unit == "actions" else PAPER_BUDGET
        return max(1, int(round(self.opponent_budget_share * nominal)))


PRESETS: dict[str, dict[str, Any]] = {
    "default": {},
    "bmrh_r1": {"value": "score"},
    "bmrh_r2": {
        "value": "score",
        "shift_buffer": False,
        "sequence_length": 3,
        "evaluations": 200,
        "flip_at_least_one": True,
        "mutation_style": 1,
        "opponent_model": "random",
        "opponent_budget_share": 0.02,
        "exponential_decay": 0.5,
        "gaussian_mean": 0.1,
        "gaussian_std": 2.0,
    },
    "ef_linear_hc": {
        "shift_buffer": False,
        "sequence_length": 2,
        "evaluations": 200,
        "flip_at_least_one": False,
        "mutation_style": 1,
        "opponent_model": "nothing",
        "opponent_budget_share": 0.01,
        "exponential_decay": 0.8,
        "gaussian_mean": 0.75,
        "gaussian_std": 2.0,
        "value": "ef",
        "ef_mapping": "hc",
        "ef_degree": 1,
        "ef_weights": "paper",
    },
    "srh_r1": {
        "genes": "seeds",
        "value": "score",
        "flip_at_least_one": False,
        "mutation_rate": 0.9,
        "sequence_length": 2,
        "evaluations": 200,
        "shift_buffer": True,
        "opponent_model": "nothing",
        "opponent_budget_share": 0.05,
    },
}
"""Named configurations (seed 002): ``default`` (R1's values with ``value="score_diff"``), BMRH* (R1 tuned
against OSLA) and BMRH** (R2) with the paper's own-points value, the paper's tuned ``lin^hc`` EF agent, and
SRH* (R1's tuned Seeding RHEA: no flip, mutation rate 0.9, length 2, 200 evaluations, shift buffer, DoNothing
opponents, share 0.05) with the own-points value."""


# -- parsing and validation -------------------------------------------------------------------------
_EF_WEIGHT = re.compile(r"^ef_w(\d+)$")


def parse_opponent_model(value: Any) -> str:
    """An opponent model by name or by Rinascimento's number (0 nothing, 1 random, 2 osla)."""
    text = str(value).strip().lower() if isinstance(value, str) else value
    if isinstance(text, str) and text in {"0", "1", "2"}:
        return OPPONENT_MODELS[int(text)]
    if isinstance(text, (int, np.integer)) and not isinstance(text, (bool, np.bool_)) and 0 <= text <= 2:
        return OPPONENT_MODELS[int(text)]
    if text in OPPONENT_MODELS:
        return str(text)
    allowed = [f"{i}/{name}" for i, name in enumerate(OPPONENT_MODELS)]
    raise ValueError(f"opponent_model must be one of {allowed}, got {value!r}")


_PARSERS: dict[str, Callable[[Any], Any]] = {
    "shift_buffer": lambda v: bool_param("shift_buffer", v),
    "sequence_length": lambda v: int_param("sequence_length", v, 1, 1000),
    "evaluations": lambda v: int_param("evaluations", v, 0, 10**7),
    "flip_at_least_one": lambda v: bool_param("flip_at_least_one", v),
    "mutation_style": lambda v: int_param("mutation_style", v, 0, 3),
    "opponent_model": parse_opponent_model,
    "opponent_budget_share": lambda v: float_param("opponent_budget_share", v, 0.0, 1.0),
    "exponential_decay": lambda v: float_param("exponential_decay", v, 0.0, 1.0, positive=True),
    "gaussian_mean": lambda v: float_param("gaussian_mean", v, 0.0, 1.0),
    "gaussian_std": lambda v: float_param("gaussian_std", v, 0.0, 100.0, positive=True),
    "genes": lambda v: choice_param("genes", v, GENES),
    "mutation_rate": lambda v: float_param("mutation_rate", v, 0.0, 1.0),
    "budget": lambda v: float_param("budget", v, 0.0, 1e9, positive=True),
    "budget_unit": lambda v: choice_param("budget_unit", v, BUDGET_UNITS),
    "determinize": lambda v: choice_param("determinize", v, DETERMINIZE),
    "ef_mapping": lambda v: choice_param("ef_mapping", v, ("hc", "id")),
    "ef_degree": lambda v: int_param("ef_degree", v, 1, 3),
    "ef_perspective": lambda v: choice_param("ef_perspective", v, ("own", "difference", "both")),
    "ef_count": lambda v: choice_param("ef_count", v, ("events", "amounts")),
}


def _parse_value(value: Any) -> Any:
    if callable(value):
        return value
    return choice_param("value", value, VALUES)


def _parse_weights(value: Any) -> Any:
    if isinstance(value, str):
        text = value.strip().lower()
        if text in ("paper", "default", "zeros"):
            return text
        parts = [part for part in re.split(r"[,\s]+", value.strip().strip("()[]")) if part]
        return tuple(float_param("ef_weights", part, -1e6, 1e6) for part in parts)
    if isinstance(value, (Sequence, np.ndarray)):
        return tuple(float_param("ef_weights", part, -1e6, 1e6) for part in value)
    raise ValueError(f"ef_weights must be 'paper', 'zeros' or a list of numbers, got {value!r}")


def parse_params(**hyperparams: Any) -> tuple[RHEAParams, dict[int, float]]:
    """Validated :class:`RHEAParams` from keyword values (ints, floats, bools or strings), plus single
    ``ef_w<i>`` weights by index. ``preset`` picks the base configuration."""
    preset = hyperparams.pop("preset", "default")
    base = dict(PRESETS[choice_param("preset", preset, tuple(PRESETS))])
    single: dict[int, float] = {}
    names = {f.name for f in fields(RHEAParams)}
    for key, value in hyperparams.items():
        match = _EF_WEIGHT.match(key)
        if match:
            single[int(match.group(1))] = float_param(key, value, -1e6, 1e6)
        elif key not in names:
            allowed = sorted(names | {"preset", "ef_w<i>"})
            raise ValueError(f"unknown RHEA parameter {key!r}; allowed: {allowed}")
        else:
            base[key] = value
    parsed = {key: _PARSERS[key](value) if key in _PARSERS else value for key, value in base.items()}
    if "value" in parsed:
        parsed["value"] = _parse_value(parsed["value"])
    if "ef_weights" in parsed:
        parsed["ef_weights"] = _parse_weights(parsed["ef_weights"])
    params = replace(RHEAParams(), **parsed)
    if params.budget_unit == "actions" and params.budget < 1:
        raise ValueError(f"budget must be >= 1 simulated action, got {params.budget!r}")
    if params.budget_unit == "seconds" and params.budget > MAX_SECONDS:
        raise ValueError(f"budget must be in (0, {MAX_SECONDS:g}] seconds, got {params.budget!r}")
    return params, single


# -- value functions --------------------------------------------------------------------------------
class ValueFunction(Protocol):
    """The value of a played plan for ``player``: ``root`` is where the plan started, ``end`` where it
    stopped and ``events`` what the game logged in between (empty unless ``needs_events``)."""

    def __call__(self, game: Game, root: Any, end: Any, player: int, events: Sequence[Any]) -> float: ...


def score_diff_value(game: Game, state: Any, player: int) -> float:
    """At the end: the return plus its sign; otherwise ``d / (1 + |d|)``, ``d`` = own minus best other score."""
    if game.is_terminal(state):
        outcome = float(game.returns(state)[player])
        return outcome + float(np.sign(outcome))
    scores = game.scores(state)
    best_other = max(float(scores[p]) for p in range(len(scores)) if p != player)
    difference = float(scores[player]) - best_other
    return difference / (1.0 + abs(difference))


class ScoreDiffValue:
    """``value="score_diff"``: :func:`score_diff_value` of the state the plan reached."""

    needs_events = False

    def __call__(self, game: Game, root: Any, end: Any, player: int, events: Sequence[Any]) -> float:
        del root, events
        return score_diff_value(game, end, player)


class ScoreGainValue:
    """``value="score"``: own score gained by the plan (the paper's ``PointsHeuristic``)."""

    needs_events = False

    def __call__(self, game: Game, root: Any, end: Any, player: int, events: Sequence[Any]) -> float:
        del events
        return float(game.scores(end)[player]) - float(game.scores(root)[player])


def make_value_function(params: RHEAParams, single_weights: Mapping[int, float] | None = None) -> Any:
    """The value function of ``params`` (an event-value function gets its weights from ``ef_weights`` and
    ``single_weights``)."""
    if callable(params.value):
        return params.value
    if params.value == "score_diff":
        return ScoreDiffValue()
    if params.value == "score":
        return ScoreGainValue()
    from baselines.games.splendor.event_values import EventValueFunction, default_weights

    weights = default_weights(params.ef_mapping, params.ef_degree, params.ef_perspective)
    if params.ef_weights == "zeros":
        weights[:] = 0.0
    elif isinstance(params.ef_weights, tuple):
        if len(params.ef_weights) != len(weights):
            raise ValueError(f"ef_weights must have {len(weights)} values here, got {len(params.ef_weights)}")
        weights = np.array(params.ef_weights, dtype=np.float64)
    for index, weight in (single_weights or {}).items():
        if not 0 <= index < len(weights):
            raise ValueError(f"ef_w{index} is out of range: this event-value function has weights ef_w0..ef_w"
                             f"{len(weights) - 1}")
        weights[index] = weight
    return EventValueFunction(params.ef_mapping, params.ef_degree, weights, params.ef_perspective, params.ef_count)


def model_opponent_action(game: Game, state: Any, mover: int, model: str, probes: int, rng: np.random.Generator,
                          budget: Any) -> int:  # fmt: skip
    """An opponent model's action for ``mover`` (see the module docstring; OSLA probes are charged to ``budget``).

    Args:
        game, state, mover: where the opponent moves.
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
        **hyperparams: any field of :class:`RHEAParams`, ``preset`` (a key of :data:`PRESETS`) and event-value
            weights ``ef_w<i>``; values may be strings.

    Raises:
        ValueError: an unknown parameter or a bad value (the message names it and the allowed values).
    """

    name = "rhea"

    def __init__(self, seed: SeedLike = None, name: str | None = None, **hyperparams: Any) -> None:
        super().__init__(seed, name)
        self.params, single = parse_params(**hyperparams)
        self.value_function = make_value_function(self.params, single)
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
