"""The fitness of an agent from games: a candidate agent, named by its spec, against an opponent.

:class:`GameFitness` is the fitness :class:`~baselines.tuning.ntbea.NTBEA` tunes an agent with: the candidate's
share of the result (1 win, 1/2 shared first place, 0 loss) over a few seat-rotated games; agents are named by
``baselines.factory.make_agent`` specs: ``"rhea"``, ``"rhea:preset=bmrh_r2:sequence_length=3"``, ``"osla"``, ...
:func:`head_to_head` plays many such games of one fixed candidate (a validation of a tuned setting).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from baselines.distributed import require_backend
from baselines.factory import make_agent
from baselines.progress import progress_bar
from baselines.tuning.ntbea import check_count, executor_or_inline, tuple_call

_GAMES: dict[tuple[str, tuple[tuple[str, Any], ...]], Any] = {}


@dataclass(frozen=True)
class GameFitness:
    """Fitness of a candidate agent: its result in ``games`` games against ``opponent`` in every other seat.

    Evaluation ``index`` puts the candidate in seat ``(index + g) % players`` for its ``g``-th game, so
    consecutive evaluations rotate the seats. Picklable (only names and plain values), so it runs in workers.

    Attributes:
        game: the game's registered name.
        config: game config (and ``preset``) as keyword values.
        candidate: agent spec of the tuned agent; the evaluated parameters are added to it.
        opponent: agent spec of the opponent.
        games: games per evaluation; the fitness is the mean result.
    """

    game: str
    candidate: str
    opponent: str
    config: tuple[tuple[str, Any], ...] = ()
    games: int = 1

    def __post_init__(self) -> None:
        check_count("games", self.games)
        object.__setattr__(self, "config", tuple(sorted(dict(self.config).items())))

    def make_game(self) -> Any:
        """The configured game (cached per process)."""
        key = (self.game, self.config)
        if key not in _GAMES:
            from boardenvs.registry import make_game

            _GAMES[key] = make_game(self.game, **dict(self.config))
        return _GAMES[key]

    def __call__(self, params: dict[str, Any], seed: int, index: int) -> float:
        """The candidate's mean result (1 win, 1/2 shared first, 0 loss) over ``games`` games."""
        from baselines.arena import play_game

        game = self.make_game()
        players = game.spec.num_players
        streams = np.random.SeedSequence(seed).generate_state(2 + 2 * self.games)
        total = 0.0
        for g in range(self.games):
            seat = (index + g) % players
            candidate = make_agent(self.candidate, self.game, int(streams[2 * g]), params)
            opponent = make_agent(self.opponent, self.game, int(streams[2 * g + 1]))
            agents = [candidate if p == seat else opponent for p in range(players)]
            names = ["candidate" if p == seat else "opponent" for p in range(players)]
            total += play_game(game, agents, int(streams[-1 - g]), names=names).outcome("candidate")
        return total / self.games


def head_to_head(
    fitness: GameFitness,
    games: int,
    seed: int,
    workers: int = 1,
    progress: bool = False,
    desc: str = "games",
    backend: str = "local",
    ray_address: str | None = None,
) -> list[float]:
    """Outcomes of ``games`` seat-rotated games of ``fitness.candidate`` (as given) against its opponent.

    Game ``i`` uses seat ``i % players`` and the common game seed number ``i // players``, so every seed is
    played from every seat (common random numbers). The games run in ``workers`` processes or Ray actors
    (``backend``, ``ray_address``: :mod:`baselines.distributed`); the outcomes do not depend on them.
    """
    games = check_count("games", games)
    require_backend(backend, ray_address)
    players = fitness.make_game().spec.num_players
    seeds = [int(s) for s in np.random.SeedSequence(seed).generate_state(math.ceil(games / players))]
    jobs = [({}, seeds[i // players], i) for i in range(games)]
    bar = progress_bar(progress, games, desc, "game")
    outcomes: list[float] = []
    with executor_or_inline(workers, backend, ray_address) as pool:
        results = (fitness(*job) for job in jobs) if pool is None else pool.map(tuple_call(fitness), jobs)
        for value in results:
            outcomes.append(float(value))
            bar.update(1)
    bar.close()
    return outcomes
