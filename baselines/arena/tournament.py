"""The tournament: every lineup of agents in every seat rotation on common seeds, in one or more processes.

:func:`tournament` builds the schedule (:mod:`baselines.arena.schedule`), plays its games with
:func:`~baselines.arena.match.play_game` (in a pool of worker processes with ``workers > 1``; each process builds
its own agents from the same seeds, so the records do not depend on ``workers``; with ``backend="ray"`` the workers
are Ray actors, on this machine or a cluster, :mod:`baselines.distributed`), optionally appends every game to a
resumable log (:mod:`baselines.arena.log`; only this process writes it, whatever the backend), and summarises the
records (:mod:`baselines.arena.results`).
An agent object that holds several seats of one game is reseeded for each of them in turn (the last seat's seed
stands).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

import numpy as np

from baselines.agent import Agent
from baselines.arena.log import TournamentLog
from baselines.arena.match import GameRecord, play_game
from baselines.arena.results import TournamentResult, summarize
from baselines.arena.schedule import ScheduledGame, tournament_schedule
from baselines.distributed import make_executor, require_backend, runs_inline
from baselines.progress import progress_bar
from boardenvs.core import Game, check_int

AgentOrFactory = Agent | Callable[[int], Agent]
"""A ready agent, or a factory called once with a seed (an agent class such as ``RandomAgent`` works)."""


def tournament(
    game: Game,
    agents: Mapping[str, AgentOrFactory],
    games_per_pairing: int,
    seed: int = 0,
    progress: bool = False,
    field: Mapping[str, AgentOrFactory] | None = None,
    workers: int = 1,
    log_path: str | Path | None = None,
    backend: str = "local",
    ray_address: str | None = None,
) -> TournamentResult:
    """Play a seat-rotated, common-random-numbers tournament (the schedule: :mod:`baselines.arena.schedule`).

    Args:
        game: the game.
        agents: name → agent, or name → factory called once with a seed; the names label the results.
        games_per_pairing: games per lineup; a multiple of the number of players.
        seed: the tournament seed (game seeds and factory seeds derive from it).
        progress: show a tqdm progress bar.
        field: one-vs-field mode: each agent of ``agents`` takes one seat and the other seats are filled from
            ``field`` (for example ``{"random": RandomAgent}`` plays each agent against three random agents in a
            four-player game). ``None`` plays the round robin of ``agents``.
        workers: processes that play games in parallel (1: in this process). With more than one, ``game`` and
            every agent or factory must be picklable (``functools.partial(make_agent, name, game_name)`` is);
            each process builds its own agents from the same seeds, so the records do not depend on ``workers``;
            the workers end when this process ends, even by ``kill -9`` (:mod:`baselines.workers`).
        log_path: a JSON-lines file that receives every game as it finishes (:mod:`baselines.arena.log`);
            running the same tournament with the same path again plays only the games still missing.
        backend: ``"local"`` (worker processes of this machine) or ``"ray"`` (``workers`` Ray actors; the same
            seeds give the same records; a game whose actor or node dies is played again elsewhere, once).
        ray_address: the Ray cluster to join (``host:port``); ``None`` starts a local Ray (``backend="ray"``).

    Returns:
        The records, in schedule order, and their summary.
    """
    _check_entrants(agents, field)
    check_int("workers", workers, 1)
    require_backend(backend, ray_address)
    names, field_names = list(agents), list(field or {})
    everyone = {**agents, **(field or {})}
    schedule = tournament_schedule(names, game.spec.num_players, games_per_pairing, seed, field_names or None)
    log = _open_log(log_path, game, names, field_names, seed, games_per_pairing, schedule)
    records = _play_schedule(game, everyone, seed, schedule, log, progress, workers, backend, ray_address)
    return summarize(game.spec.name, names + field_names, [records[index] for index in range(len(schedule))])


def _play_schedule(
    game: Game,
    agents: Mapping[str, AgentOrFactory],
    seed: int,
    schedule: list[ScheduledGame],
    log: TournamentLog | None,
    progress: bool,
    workers: int,
    backend: str,
    ray_address: str | None,
) -> dict[int, GameRecord]:
    """Schedule index -> record of every game: those ``log`` already holds, then the missing ones played (each
    appended to ``log`` as it finishes; the log is closed at the end)."""
    records = dict(log.records) if log else {}
    pending = [(index, item) for index, item in enumerate(schedule) if index not in records]
    bar = progress_bar(progress, len(schedule), f"{game.spec.name} tournament", "game", done=len(records))
    try:
        for index, record in _play_all(game, agents, seed, pending, workers, backend, ray_address):
            records[index] = record
            if log is not None:
                log.append(index, record)
            bar.update()
    finally:
        if log is not None:
            log.close()
        bar.close()
    return records


def _check_entrants(agents: Mapping[str, AgentOrFactory], field: Mapping[str, AgentOrFactory] | None) -> None:
    if field is None:
        if len(agents) < 2:
            raise ValueError(f"a round-robin tournament needs at least 2 agents, got {list(agents)}")
        return
    if not agents or not field:
        raise ValueError(f"a one-vs-field tournament needs agents and a field, got {list(agents)} and {list(field)}")
    shared = sorted(set(agents) & set(field))
    if shared:
        raise ValueError(f"an agent name cannot be both an entrant and in the field: {shared}")


def _open_log(
    log_path: str | Path | None,
    game: Game,
    names: list[str],
    field_names: list[str],
    seed: int,
    games_per_pairing: int,
    schedule: list[ScheduledGame],
) -> TournamentLog | None:
    if log_path is None:
        return None
    header = {
        "game": repr(game),
        "agents": names,
        "field": field_names,
        "seed": seed,
        "games_per_pairing": games_per_pairing,
    }
    return TournamentLog.open(log_path, header, schedule, game)


def _play_all(
    game: Game,
    agents: Mapping[str, AgentOrFactory],
    seed: int,
    pending: list[tuple[int, ScheduledGame]],
    workers: int,
    backend: str = "local",
    ray_address: str | None = None,
) -> Iterator[tuple[int, GameRecord]]:
    """Play the ``pending`` games, yielding ``(schedule index, record)`` as each finishes (in any order)."""
    if runs_inline(backend, workers) or len(pending) <= 1:
        built = _build_agents(agents, seed)
        for index, item in pending:
            yield index, _play_scheduled(game, built, item)
        return
    with make_executor(backend, workers, _start_worker, (game, agents, seed), ray_address) as pool:
        for position, record in pool.map_unordered(_play_in_worker, [item for _, item in pending]):
            yield pending[position][0], record


def _play_scheduled(game: Game, agents: Mapping[str, Agent], item: ScheduledGame) -> GameRecord:
    return play_game(game, [agents[name] for name in item.seat_names], item.seed, names=item.seat_names)


_WORKER: dict[str, Any] = {}
"""A worker process's game and agents, set once by :func:`_start_worker`."""


def _start_worker(game: Game, agents: Mapping[str, AgentOrFactory], seed: int) -> None:
    _WORKER["game"], _WORKER["agents"] = game, _build_agents(agents, seed)
    _one_torch_thread()


def _one_torch_thread() -> None:
    """Workers share the machine's cores: torch, if an agent loaded it, gets one thread per worker (its default,
    a thread per core in every worker, oversubscribes the CPU; measured: a 2-worker AlphaZero tournament ran
    more than ten times slower)."""
    torch = sys.modules.get("torch")
    if torch is not None:
        torch.set_num_threads(1)


def _play_in_worker(item: ScheduledGame) -> GameRecord:
    return _play_scheduled(_WORKER["game"], _WORKER["agents"], item)


def _build_agents(agents: Mapping[str, AgentOrFactory], seed: int) -> dict[str, Agent]:
    """Agents ready to play: factories are called with a seed derived from the tournament seed."""
    factory_seeds = np.random.SeedSequence([seed, 1]).generate_state(len(agents))
    built = {}
    for (name, entry), factory_seed in zip(agents.items(), factory_seeds):
        built[name] = entry if _is_agent(entry) else entry(int(factory_seed))  # type: ignore[operator]
    return built


def _is_agent(entry: AgentOrFactory) -> bool:
    """True for an agent instance; false for a factory (an agent class counts as a factory)."""
    return not isinstance(entry, type) and callable(getattr(entry, "act", None))
