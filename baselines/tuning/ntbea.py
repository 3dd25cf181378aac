"""The N-Tuple Bandit Evolutionary Algorithm (NTBEA; Lucas, Liu & Perez-Liebana 2018) for hyper-parameters.

The search space is a dict ``name -> list of values``; a point picks one value index per parameter. NTBEA
keeps a *model* of the noisy fitness: one multi-armed bandit per tuple of parameters (every 1-tuple, every
2-tuple, optionally every 3-tuple, and the N-tuple of all parameters), whose arms are the value combinations
of the tuple. Every evaluated point updates one arm of every bandit. A point's score is

    UCB(x) = mean over visited tuples of the arm mean  +  mean over all tuples of k * sqrt(ln(1 + N) / (n + eps))

with ``N`` evaluations so far and ``n`` the arm's count (an unvisited arm, ``n = 0``, gets the largest bonus,
controlled by ``eps``). Each iteration draws ``neighbours`` mutants of the current point (each parameter
changes with probability ``mutation_probability``, default ``1/d``, and at least one changes), evaluates the
``batch_size`` mutants with the highest UCB (in parallel processes with ``workers > 1``, or Ray actors with
``backend="ray"``: :mod:`baselines.distributed`) and moves to the best of them. The recommendation is the
evaluated point with the best model estimate (arm means, no bonus).
The paper setting of seed 002: ``k = 1``, ``eps = 0.7``, 1-, 2- and N-tuples.

The fitness is a picklable callable ``fitness(params: dict, seed: int, index: int) -> float`` (higher is
better); ``index`` is the evaluation's number, which ``GameFitness`` uses to rotate seats. Seeds come from
``(seed, index)``, so a run does not depend on ``workers`` or the backend.

The fitness of an agent from games (:class:`~baselines.tuning.game_fitness.GameFitness`) is
:mod:`baselines.tuning.game_fitness`'s: this module knows nothing of games or agents.

Example:
    >>> space = {"x": [0, 1, 2, 3], "y": [0, 1, 2, 3]}
    >>> result = NTBEA(space, seed=0).run(lambda p, seed, index: -abs(p["x"] - 2) - abs(p["y"] - 1), 60)
    >>> result.best
    {'x': 2, 'y': 1}
"""

from __future__ import annotations

import csv
import functools
import itertools
import math
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from baselines.agent import SeedLike
from baselines.distributed import Executor, make_executor, require_backend, runs_inline
from baselines.plots import plot_ntbea_history
from baselines.progress import progress_bar

Fitness = Callable[[dict[str, Any], int, int], float]
"""``fitness(params, seed, index) -> float``; must be picklable to run with ``workers > 1``."""


def check_space(space: Mapping[str, Sequence[Any]]) -> dict[str, list[Any]]:
    """A validated copy of a search space: a non-empty dict of non-empty lists of distinct values."""
    if not isinstance(space, Mapping) or not space:
        raise ValueError(f"search space must be a non-empty dict name -> list of values, got {space!r}")
    checked: dict[str, list[Any]] = {}
    for name, values in space.items():
        if not isinstance(name, str) or not name:
            raise ValueError(f"search space names must be non-empty strings, got {name!r}")
        if isinstance(values, (str, bytes)) or not isinstance(values, Iterable):
            raise ValueError(f"search space entry {name!r} must be a list of values, got {values!r}")
        values = list(values)
        if not values:
            raise ValueError(f"search space entry {name!r} has no values")
        if any(values[i] == values[j] for i, j in itertools.combinations(range(len(values)), 2)):
            raise ValueError(f"search space entry {name!r} has repeated values: {values}")
        checked[name] = values
    return checked


@dataclass
class Evaluation:
    """One fitness evaluation: its number, batch, point (value indices), parameters, seed and fitness."""

    index: int
    batch: int
    point: tuple[int, ...]
    params: dict[str, Any]
    seed: int
    fitness: float


class NTupleModel:
    """Bandit statistics of every tuple of parameters (see the module docstring)."""

    def __init__(self, sizes: Sequence[int], tuples: Sequence[tuple[int, ...]], k: float, epsilon: float) -> None:
        self.sizes, self.tuples, self.k, self.epsilon = list(sizes), list(tuples), k, epsilon
        self.stats: list[dict[tuple[int, ...], list[float]]] = [{} for _ in self.tuples]
        self.count = 0

    def add(self, point: tuple[int, ...], fitness: float) -> None:
        """Update one arm of every bandit with ``fitness`` at ``point``."""
        for tup, table in zip(self.tuples, self.stats):
            arm = table.setdefault(tuple(point[i] for i in tup), [0.0, 0.0])
            arm[0] += 1.0
            arm[1] += fitness
        self.count += 1

    def _arms(self, point: tuple[int, ...]) -> Iterator[list[float] | None]:
        for tup, table in zip(self.tuples, self.stats):
            yield table.get(tuple(point[i] for i in tup))

    def estimate(self, point: tuple[int, ...]) -> float:
        """Mean of the visited arms' means (no exploration bonus); ``-inf`` for a point with no data."""
        means = [arm[1] / arm[0] for arm in self._arms(point) if arm is not None]
        return float(np.mean(means)) if means else -math.inf

    def ucb(self, point: tuple[int, ...]) -> float:
        """The estimate (0 without data) plus the mean exploration bonus over all tuples."""
        log_total = math.log(1.0 + self.count)
        means, bonus = [], 0.0
        for arm in self._arms(point):
            visits = 0.0 if arm is None else arm[0]
            if arm is not None:
                means.append(arm[1] / arm[0])
            bonus += self.k * math.sqrt(log_total / (visits + self.epsilon))
        return (float(np.mean(means)) if means else 0.0) + bonus / len(self.tuples)

    def visits(self, point: tuple[int, ...]) -> int:
        """How often exactly ``point`` was evaluated (the N-tuple's count; 0 without an N-tuple)."""
        full = tuple(range(len(self.sizes)))
        if full not in self.tuples:
            return 0
        arm = self.stats[self.tuples.index(full)].get(point)
        return int(arm[0]) if arm else 0


@dataclass
class NTBEAResult:
    """The outcome of :meth:`NTBEA.run`.

    Attributes:
        best: the recommended parameters.
        best_estimate: the model's estimate of their fitness.
        history: every evaluation, in order.
        estimates: after each batch, ``(evaluations so far, estimate of the recommendation then)``.
        space: the search space.
    """

    best: dict[str, Any]
    best_estimate: float
    history: list[Evaluation]
    estimates: list[tuple[int, float]]
    space: dict[str, list[Any]] = field(repr=False)

    def to_csv(self, path: str | Path) -> None:
        """One row per evaluation: index, batch, seed, each parameter, fitness."""
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        with open(path, "w", newline="") as handle:
            writer = csv.writer(handle)
            writer.writerow(["index", "batch", "seed", *self.space, "fitness"])
            for row in self.history:
                writer.writerow([row.index, row.batch, row.seed, *(row.params[n] for n in self.space), row.fitness])

    def plot(self, path: str | Path, window: int = 20) -> None:
        """Save a PNG: each fitness, its running mean over ``window`` evaluations, and the model estimate."""
        plot_ntbea_history([row.fitness for row in self.history], self.estimates, path, window)


class NTBEA:
    """NTBEA over ``space`` (see the module docstring).

    Args:
        space: name -> list of distinct values.
        k: exploration weight, >= 0.
        epsilon: added to arm counts in the bonus, > 0.
        neighbours: mutants drawn per iteration, >= 1.
        batch_size: mutants evaluated per iteration, >= 1 (the parallelism of a run).
        tuple_sizes: tuple sizes to model besides the N-tuple: a subset of {1, 2, 3}.
        full_tuple: model the N-tuple of all parameters.
        mutation_probability: chance that each parameter changes in a mutant, in (0, 1]; default ``1/d``.
        seed: seeds the search and the evaluation seeds.

    Raises:
        ValueError: any bad argument (the message names it and what is allowed).
    """

    def __init__(
        self,
        space: Mapping[str, Sequence[Any]],
        k: float = 1.0,
        epsilon: float = 0.7,
        neighbours: int = 50,
        batch_size: int = 1,
        tuple_sizes: Sequence[int] = (1, 2),
        full_tuple: bool = True,
        mutation_probability: float | None = None,
        seed: SeedLike = None,
    ) -> None:
        self.space = check_space(space)
        self.names = list(self.space)
        self.sizes = [len(values) for values in self.space.values()]
        self.k = _positive("k", k, allow_zero=True)
        self.epsilon = _positive("epsilon", epsilon)
        self.neighbours = check_count("neighbours", neighbours)
        self.batch_size = check_count("batch_size", batch_size)
        default_rate = 1.0 / len(self.names)
        rate = default_rate if mutation_probability is None else mutation_probability
        if isinstance(rate, bool) or not isinstance(rate, (int, float)) or not 0.0 < rate <= 1.0:
            raise ValueError(f"mutation_probability must be in (0, 1], got {mutation_probability!r}")
        self.mutation_probability = float(rate)
        self.tuples = _tuples(len(self.names), tuple_sizes, full_tuple)
        self.seed_sequence = np.random.SeedSequence(_seed_entropy(seed))
        self.rng = np.random.default_rng(self.seed_sequence.spawn(1)[0])
        self.model = NTupleModel(self.sizes, self.tuples, self.k, self.epsilon)

    # -- points ---------------------------------------------------------------------------------
    def params_of(self, point: Sequence[int]) -> dict[str, Any]:
        """The parameter dict of a point (value indices)."""
        return {name: self.space[name][i] for name, i in zip(self.names, point)}

    def point_of(self, params: Mapping[str, Any]) -> tuple[int, ...]:
        """The point of a parameter dict; ``ValueError`` for missing names or values outside the space."""
        missing = [name for name in self.names if name not in params]
        extra = [name for name in params if name not in self.space]
        if missing or extra:
            raise ValueError(f"parameters must name exactly {self.names}; missing {missing}, unknown {extra}")
        point = []
        for name in self.names:
            matches = [i for i, value in enumerate(self.space[name]) if value == params[name]]
            if not matches:
                raise ValueError(f"{name}={params[name]!r} is outside the search space {self.space[name]}")
            point.append(matches[0])
        return tuple(point)

    def random_point(self) -> tuple[int, ...]:
        """A uniformly random point."""
        return tuple(int(self.rng.integers(size)) for size in self.sizes)

    def mutate(self, point: tuple[int, ...]) -> tuple[int, ...]:
        """A neighbour: each parameter with more than one value changes with ``mutation_probability``, and
        at least one changes (when any can)."""
        free = [i for i, size in enumerate(self.sizes) if size > 1]
        if not free:
            return point
        changed = [i for i in free if self.rng.random() < self.mutation_probability]
        if not changed:
            changed = [free[int(self.rng.integers(len(free)))]]
        new = list(point)
        for i in changed:
            step = 1 + int(self.rng.integers(self.sizes[i] - 1))
            new[i] = (point[i] + step) % self.sizes[i]
        return tuple(new)

    def proposals(self, current: tuple[int, ...]) -> list[tuple[int, ...]]:
        """The ``batch_size`` distinct neighbours of ``current`` with the highest UCB."""
        unique = list(dict.fromkeys(self.mutate(current) for _ in range(self.neighbours)))
        scores = [self.model.ucb(point) for point in unique]
        order = sorted(range(len(unique)), key=lambda i: -scores[i])
        return [unique[i] for i in order[: self.batch_size]]

    def recommend(self, evaluated: Iterable[tuple[int, ...]]) -> tuple[tuple[int, ...], float]:
        """The evaluated point with the best model estimate (more evaluations break ties), and the estimate."""
        best = max(dict.fromkeys(evaluated), key=lambda p: (self.model.estimate(p), self.model.visits(p)))
        return best, self.model.estimate(best)

    # -- the run ----------------------------------------------------------------------------------
    def run(
        self,
        fitness: Fitness,
        evaluations: int,
        workers: int = 1,
        progress: bool = False,
        initial: Mapping[str, Any] | None = None,
        backend: str = "local",
        ray_address: str | None = None,
    ) -> NTBEAResult:
        """Spend ``evaluations`` fitness evaluations and return the recommendation and the history.

        Args:
            fitness: ``fitness(params, seed, index) -> float`` (picklable when ``workers > 1`` or with Ray).
            evaluations: the budget, >= 1.
            workers: processes (or Ray actors) evaluating a batch in parallel; 1 evaluates inline locally.
            progress: show a tqdm progress bar.
            initial: the starting parameters (default: a random point).
            backend: ``"local"`` or ``"ray"`` (:mod:`baselines.distributed`); the result does not depend on it.
            ray_address: the Ray cluster to join; ``None`` starts a local Ray (``backend="ray"``).
        """
        evaluations = check_count("evaluations", evaluations)
        workers = check_count("workers", workers)
        require_backend(backend, ray_address)
        if not callable(fitness):
            raise TypeError(f"fitness must be callable, got {type(fitness).__name__}")
        current = self.point_of(initial) if initial is not None else self.random_point()
        history: list[Evaluation] = []
        estimates: list[tuple[int, float]] = []
        bar = progress_bar(progress, evaluations, "NTBEA", "eval")
        with executor_or_inline(workers, backend, ray_address) as pool:
            batch_points = [current]
            while len(history) < evaluations:
                batch_points = batch_points[: evaluations - len(history)]
                done = self._evaluate(fitness, batch_points, len(history), len(estimates), pool)
                history.extend(done)
                estimates.append((len(history), self.recommend(e.point for e in history)[1]))
                current = max(done, key=lambda e: self.model.ucb(e.point)).point
                bar.update(len(done))
                batch_points = self.proposals(current)
        bar.close()
        best, estimate = self.recommend(e.point for e in history)
        return NTBEAResult(self.params_of(best), estimate, history, estimates, self.space)

    def _evaluate(
        self, fitness: Fitness, points: list[tuple[int, ...]], start: int, batch: int, pool: Executor | None
    ) -> list[Evaluation]:
        seeds = [evaluation_seed(self.seed_sequence, start + i) for i in range(len(points))]
        params = [self.params_of(point) for point in points]
        indices = list(range(start, start + len(points)))
        jobs = list(zip(params, seeds, indices))
        values = [fitness(*job) for job in jobs] if pool is None else list(pool.map(tuple_call(fitness), jobs))
        done = []
        for index, point, p, seed, value in zip(indices, points, params, seeds, values):
            value = float(value)
            if not math.isfinite(value):
                raise ValueError(f"fitness returned {value} for {p}; it must be a finite number")
            self.model.add(point, value)
            done.append(Evaluation(index, batch, point, p, seed, value))
        return done


def evaluation_seed(sequence: np.random.SeedSequence, index: int) -> int:
    """The seed of evaluation number ``index`` of a run."""
    return int(np.random.SeedSequence([*sequence.generate_state(2), index]).generate_state(1)[0])


def _seed_entropy(seed: SeedLike) -> int:
    if isinstance(seed, np.random.Generator):
        return int(seed.integers(2**63))
    if seed is None:
        return int(np.random.SeedSequence().entropy)  # type: ignore[arg-type]
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise ValueError(f"seed must be a non-negative int, a Generator or None, got {seed!r}")
    return int(seed)


def _tuples(dims: int, sizes: Sequence[int], full: bool) -> list[tuple[int, ...]]:
    allowed = {1, 2, 3}
    if isinstance(sizes, (str, bytes)) or not set(sizes) <= allowed:
        raise ValueError(f"tuple_sizes must be a subset of {sorted(allowed)}, got {sizes!r}")
    tuples = [t for size in sorted(set(sizes)) if size <= dims for t in itertools.combinations(range(dims), size)]
    if full and tuple(range(dims)) not in tuples:
        tuples.append(tuple(range(dims)))
    if not tuples:
        raise ValueError("the model needs at least one tuple: give tuple_sizes or full_tuple=True")
    return tuples


def _positive(name: str, value: Any, allow_zero: bool = False) -> float:
    ok = isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(value, bool)
    if not ok or not math.isfinite(value) or value < 0 or (value == 0 and not allow_zero):
        raise ValueError(f"{name} must be a finite number {'>=' if allow_zero else '>'} 0, got {value!r}")
    return float(value)


def check_count(name: str, value: Any) -> int:
    """``value`` as an int when it is one >= 1; ``ValueError`` naming ``name`` otherwise."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
        raise ValueError(f"{name} must be an int >= 1, got {value!r}")
    return int(value)


class _Inline:
    """Stands in for an executor when ``workers == 1``."""

    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: object) -> None:
        return None


def executor_or_inline(workers: int, backend: str = "local", ray_address: str | None = None) -> Any:
    """A context giving an executor (:mod:`baselines.distributed`), or ``None`` to evaluate in this process."""
    return _Inline() if runs_inline(backend, workers) else make_executor(backend, workers, ray_address=ray_address)


def tuple_call(fitness: Fitness) -> Callable[[tuple[Any, ...]], float]:
    """``fitness`` taking its arguments as one tuple, the executors' single item (picklable with ``fitness``)."""
    return functools.partial(_call_with, fitness)


def _call_with(fitness: Fitness, job: tuple[Any, ...]) -> float:
    return fitness(*job)
