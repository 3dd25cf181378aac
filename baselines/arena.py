"""Matches and tournaments between agents (DESIGN.md §4).

``play_game`` plays one seeded game and returns a :class:`GameRecord`. ``tournament`` plays every lineup of
agents in every seat rotation on a common set of game seeds and summarises the results in a
:class:`TournamentResult` (win rates with Wilson intervals, mean returns, Elo ratings, pairwise win rates).

Tournament schedule (see :func:`tournament_schedule`):

* **Lineups.** With ``k`` agents and an ``n``-player game, a lineup is a multiset of ``n`` agents. If
  ``k >= n`` the lineups are all ``C(k, n)`` sets of ``n`` distinct agents (for 2 players: the round robin of
  all pairs). If ``k < n`` every agent is in every game and the extra seats are filled in every possible way:
  the ``C(n - 1, k - 1)`` multisets of size ``n`` that contain each agent at least once (for example with two
  agents in a 4-player game: ``AAAB``, ``AABB``, ``ABBB``).
* **Seat rotation.** Each lineup, written in the order the agents were given, is played in all ``n``
  cyclic rotations, so within a lineup an agent that holds ``m`` seats sits in every seat exactly ``m`` times.
  ``games_per_pairing`` (games per lineup) must therefore be a multiple of ``n``.
* **Common random numbers.** The same ``games_per_pairing / n`` game seeds are used for every lineup, and
  each seed is played in every rotation. ``play_game`` reseeds each agent from the game seed and its seat,
  so the whole tournament is a function of the seed.

Outcomes: in each game an agent's result is the best return among its seats; it wins if that beats the best
return of every other agent in the game, draws on a tie for first, and loses otherwise. The win rate counts
a draw as half a win. Pairwise results compare the two agents' best returns in every game they shared (so in
a multi-player game two agents that both lost to a third tie, as Quoridor ranks no losers), and the Elo
ratings are fitted to those pairwise results (:func:`baselines.ratings.fit_elo`). An agent object that holds
several seats of one game is reseeded for each of them in turn (the last seat's seed stands).
"""

from __future__ import annotations

import csv
import itertools
import math
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from baselines.agent import Agent
from baselines.progress import progress_bar
from baselines.ratings import fit_elo, wilson_interval
from baselines.tournament_log import TournamentLog
from boardenvs.core import Game, check_int

AgentOrFactory = Agent | Callable[[int], Agent]
"""A ready agent, or a factory called once with a seed (an agent class such as ``RandomAgent`` works)."""


class IllegalActionError(ValueError):
    """An agent chose an action that is not legal in the position it was given."""


@dataclass
class GameRecord:
    """Everything about one finished game.

    Attributes:
        agent_names: the name of the agent in each seat.
        seed: the game seed; ``play_game(game, agents, seed)`` replays the game.
        actions: every action, in order.
        action_strings: the actions in the game's notation.
        players: the seat that chose each action.
        returns: final returns per seat.
        scores: final game scores per seat.
        plies: number of actions played.
        truncated: whether the game ended at the length cap rather than by its rules.
    """

    agent_names: tuple[str, ...]
    seed: int
    actions: list[int] = field(default_factory=list)
    action_strings: list[str] = field(default_factory=list)
    players: list[int] = field(default_factory=list)
    returns: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.float32))
    scores: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.float32))
    plies: int = 0
    truncated: bool = False

    def best_returns(self) -> dict[str, float]:
        """Each agent's best return over the seats it held in this game."""
        best: dict[str, float] = {}
        for seat, name in enumerate(self.agent_names):
            best[name] = max(best.get(name, -math.inf), float(self.returns[seat]))
        return best

    def outcome(self, name: str) -> float:
        """1 if agent ``name`` won, 0.5 for a shared first place, 0 for a loss."""
        best = self.best_returns()
        others = [value for other, value in best.items() if other != name]
        if not others:
            return 0.5
        return _compare(best[name], max(others))


def _compare(mine: float, theirs: float) -> float:
    """1, 0.5 or 0 as ``mine`` is greater than, equal to or less than ``theirs``."""
    return 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0


# -- one game -------------------------------------------------------------------------------------
def play_game(game: Game, agents: Sequence[Agent], seed: int, names: Sequence[str] | None = None) -> GameRecord:
    """Play one game; ``agents[i]`` sits in seat ``i``.

    The seed drives the game setup, the determinizations the agents see, and the agents themselves: every
    agent with a ``reseed(int)`` method is reseeded from ``(seed, seat)`` first, so the record depends only
    on the agents and the seed.

    Args:
        game: the game to play.
        agents: one agent per seat.
        seed: the game seed.
        names: names recorded per seat; defaults to each agent's ``name``.

    Raises:
        IllegalActionError: an agent chose an illegal action (the message names the agent and seat).
    """
    if len(agents) != game.spec.num_players:
        raise ValueError(f"{game.spec.name} needs {game.spec.num_players} agents, got {len(agents)}")
    setup_rng, view_rng, agent_seeds = _game_streams(seed, len(agents))
    _reseed_agents(agents, agent_seeds)
    record = GameRecord(tuple(names or [agent.name for agent in agents]), seed)
    state = game.initial_state(setup_rng)
    while not game.is_terminal(state):
        player = state.current_player
        action = _checked_action(game, state, agents[player], player, view_rng, record.agent_names[player])
        record.actions.append(action)
        record.action_strings.append(game.action_to_str(state, action))
        record.players.append(player)
        state = game.apply(state, action)
    record.returns, record.scores = game.returns(state), game.scores(state)
    record.plies, record.truncated = len(record.actions), game.is_truncated(state)
    return record


def _game_streams(seed: int, num_seats: int) -> tuple[np.random.Generator, np.random.Generator, list[int]]:
    """Independent streams of one game seed: setup, determinization, and one agent seed per seat."""
    setup, views, agents = np.random.SeedSequence(seed).spawn(3)
    agent_seeds = [int(value) for value in agents.generate_state(num_seats)]
    return np.random.default_rng(setup), np.random.default_rng(views), agent_seeds


def _reseed_agents(agents: Sequence[Agent], seeds: Sequence[int]) -> None:
    for agent, seed in zip(agents, seeds):
        reseed = getattr(agent, "reseed", None)
        if callable(reseed):
            reseed(seed)


def _checked_action(game: Game, state: Any, agent: Agent, player: int, rng: np.random.Generator, name: str) -> int:
    """The action ``agent`` chooses from its determinized view, checked against the true state."""
    action = agent.act(game, game.determinize(state, player, rng), player)
    try:
        return game.check_action(state, action)
    except (TypeError, ValueError) as error:
        raise IllegalActionError(
            f"agent {name!r} (seat {player}) chose an illegal action at ply {state.ply}: {error}"
        ) from error


# -- the schedule ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class ScheduledGame:
    """One game of a tournament: who sits where, and the game seed."""

    seat_names: tuple[str, ...]
    seed: int
    lineup: int


def tournament_lineups(names: Sequence[str], num_players: int) -> list[tuple[str, ...]]:
    """The lineups of a tournament (see the module docstring), each in the order ``names`` are given."""
    if len(names) >= num_players:
        return list(itertools.combinations(names, num_players))
    combos = itertools.combinations_with_replacement(names, num_players)
    return [combo for combo in combos if set(combo) == set(names)]


def game_seeds(seed: int, count: int) -> list[int]:
    """``count`` game seeds derived from ``seed``: the common random numbers shared by every lineup."""
    return [int(value) for value in np.random.SeedSequence(seed).generate_state(count)]


def field_lineups(focus: Sequence[str], field: Sequence[str], num_players: int) -> list[tuple[str, ...]]:
    """One-vs-field lineups: each ``focus`` agent in one seat, the other seats filled from ``field``.

    The field fills the ``num_players - 1`` other seats the way :func:`tournament_lineups` fills a game
    (every subset when the field is large enough, else every filling that seats each field agent).
    """
    if num_players == 2 or len(field) >= num_players - 1:
        fillings = list(itertools.combinations(field, num_players - 1))
    else:
        fillings = tournament_lineups(field, num_players - 1)
    return [(name, *filling) for name in focus for filling in fillings]


def tournament_schedule(
    names: Sequence[str],
    num_players: int,
    games_per_pairing: int,
    seed: int,
    field: Sequence[str] | None = None,
) -> list[ScheduledGame]:
    """Every game of a tournament: each lineup × each common seed × each cyclic seat rotation.

    Without ``field`` the lineups are the round robin of ``names`` (:func:`tournament_lineups`); with it, each
    agent of ``names`` plays one seat against the field (:func:`field_lineups`).
    """
    if games_per_pairing <= 0 or games_per_pairing % num_players:
        raise ValueError(
            f"games_per_pairing must be a positive multiple of {num_players} (the number of seat rotations, so "
            f"every agent plays every seat equally often), got {games_per_pairing}"
        )
    seeds = game_seeds(seed, games_per_pairing // num_players)
    lineups = tournament_lineups(names, num_players) if field is None else field_lineups(names, field, num_players)
    schedule = []
    for index, lineup in enumerate(lineups):
        for game_seed, shift in itertools.product(seeds, range(num_players)):
            schedule.append(ScheduledGame(lineup[shift:] + lineup[:shift], game_seed, index))
    return schedule


# -- results --------------------------------------------------------------------------------------
@dataclass(frozen=True)
class AgentStats:
    """One agent's tournament summary; ``win_rate`` counts draws as half a win."""

    name: str
    games: int
    wins: int
    draws: int
    losses: int
    win_rate: float
    ci_low: float
    ci_high: float
    mean_return: float
    elo: float
    mean_rank: float = 1.0
    mean_score: float = 0.0


@dataclass
class TournamentResult:
    """Outcome of :func:`tournament`.

    Attributes:
        game_name: the game's name.
        names: the agents, in the order given.
        records: every game played.
        stats: per-agent summaries, in the order of ``names``.
        pairwise_scores: ``[i, j]`` points agent ``i`` took from agent ``j`` over their shared games.
        pairwise_games: ``[i, j]`` number of games ``i`` and ``j`` shared.
    """

    game_name: str
    names: list[str]
    records: list[GameRecord]
    stats: list[AgentStats]
    pairwise_scores: np.ndarray
    pairwise_games: np.ndarray

    @property
    def pairwise_win_rate(self) -> np.ndarray:
        """``[i, j]``: agent ``i``'s win rate against agent ``j`` (NaN where they never met)."""
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(self.pairwise_games > 0, self.pairwise_scores / self.pairwise_games, np.nan)

    def ranking(self) -> list[AgentStats]:
        """The agent summaries, best Elo first."""
        return sorted(self.stats, key=lambda stats: -stats.elo)

    def seat_counts(self) -> dict[str, list[int]]:
        """How many games each agent played in each seat."""
        num_seats = len(self.records[0].agent_names) if self.records else 0
        counts = {name: [0] * num_seats for name in self.names}
        for record in self.records:
            for seat, name in enumerate(record.agent_names):
                counts[name][seat] += 1
        return counts

    def table(self, pairwise: bool = True) -> str:
        """An aligned text table of the ranking, optionally followed by the pairwise win rates."""
        text = _format_rows(_ranking_rows(self.ranking()), left_column=1)
        if pairwise:
            text += "\n\npairwise win rate (row agent against column agent)\n"
            text += _format_rows(_pairwise_rows(self.names, self.pairwise_win_rate), left_column=0)
        return text

    def to_csv(self, path: str | Path) -> None:
        """Write one row per agent (the ranking's numbers, unrounded) to ``path``."""
        columns = list(AgentStats.__dataclass_fields__)
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        with open(path, "w", newline="") as handle:
            writer = csv.writer(handle)
            writer.writerow(columns)
            for stats in self.ranking():
                writer.writerow([getattr(stats, column) for column in columns])

    def plot(self, path: str | Path) -> None:
        """Save a PNG: win rates with 95% intervals, and the pairwise win-rate heatmap."""
        from baselines.arena_plot import plot_tournament

        plot_tournament(self, path)


def _ranking_rows(ranking: list[AgentStats]) -> list[list[str]]:
    header = ["rank", "agent", "games", "wins", "draws", "losses", "win rate", "95% CI", "mean return", "mean place"]
    rows = [header + ["mean score", "Elo"]]
    for rank, s in enumerate(ranking, start=1):
        interval = f"[{s.ci_low:.2f}, {s.ci_high:.2f}]"
        numbers = [s.games, s.wins, s.draws, s.losses, f"{s.win_rate:.3f}", interval, f"{s.mean_return:+.3f}"]
        numbers += [f"{s.mean_rank:.2f}", f"{s.mean_score:.2f}"]
        rows.append([str(rank), s.name, *map(str, numbers), f"{s.elo:.0f}"])
    return rows


def _pairwise_rows(names: list[str], rates: np.ndarray) -> list[list[str]]:
    rows = [["", *names]]
    for name, row in zip(names, rates):
        rows.append([name, *("-" if np.isnan(rate) else f"{rate:.2f}" for rate in row)])
    return rows


def _format_rows(rows: list[list[str]], left_column: int) -> str:
    """Rows as aligned text columns: ``left_column`` (the names) left-aligned, the others right-aligned."""
    widths = [max(len(row[column]) for row in rows) for column in range(len(rows[0]))]
    lines = []
    for row in rows:
        cells = [
            cell.ljust(width) if i == left_column else cell.rjust(width)
            for i, (cell, width) in enumerate(zip(row, widths))
        ]
        lines.append("  ".join(cells).rstrip())
    return "\n".join(lines)


def summarize(game_name: str, names: Sequence[str], records: list[GameRecord]) -> TournamentResult:
    """Turn game records into a :class:`TournamentResult`."""
    scores, games = _pairwise_totals(list(names), records)
    ratings = fit_elo(scores, games)
    stats = [_agent_stats(name, records, float(rating)) for name, rating in zip(names, ratings)]
    return TournamentResult(game_name, list(names), records, stats, scores, games)


def _pairwise_totals(names: list[str], records: list[GameRecord]) -> tuple[np.ndarray, np.ndarray]:
    index = {name: i for i, name in enumerate(names)}
    scores = np.zeros((len(names), len(names)))
    games = np.zeros((len(names), len(names)))
    for record in records:
        best = record.best_returns()
        for first, second in itertools.permutations(best, 2):
            scores[index[first], index[second]] += _compare(best[first], best[second])
            games[index[first], index[second]] += 1
    return scores, games


def _agent_stats(name: str, records: list[GameRecord], elo: float) -> AgentStats:
    played = [record for record in records if name in record.agent_names]
    outcomes = [record.outcome(name) for record in played]
    wins, draws = outcomes.count(1.0), outcomes.count(0.5)
    points = wins + 0.5 * draws
    low, high = wilson_interval(points, len(played))
    mean_return = float(np.mean([_mean_seat_return(record, name) for record in played])) if played else 0.0
    win_rate = points / len(played) if played else 0.0
    mean_rank = float(np.mean([_place(record, name) for record in played])) if played else 0.0
    mean_score = float(np.mean([_best_seat_score(record, name) for record in played])) if played else 0.0
    losses = len(played) - wins - draws
    return AgentStats(
        name, len(played), wins, draws, losses, win_rate, low, high, mean_return, elo, mean_rank, mean_score
    )


def _best_seat(record: GameRecord, name: str) -> int:
    seats = [seat for seat, seated in enumerate(record.agent_names) if seated == name]
    return max(seats, key=lambda seat: float(record.returns[seat]))


def _place(record: GameRecord, name: str) -> float:
    """The finishing place of ``name``'s best seat among the other agents' seats (1 = first; ties share)."""
    mine = float(record.returns[_best_seat(record, name)])
    others = [float(value) for value, seated in zip(record.returns, record.agent_names) if seated != name]
    return 1.0 + sum(value > mine for value in others) + 0.5 * sum(value == mine for value in others)


def _best_seat_score(record: GameRecord, name: str) -> float:
    return float(record.scores[_best_seat(record, name)]) if len(record.scores) else 0.0


def _mean_seat_return(record: GameRecord, name: str) -> float:
    return float(np.mean([record.returns[seat] for seat, seated in enumerate(record.agent_names) if seated == name]))


# -- the tournament -------------------------------------------------------------------------------
def tournament(
    game: Game,
    agents: Mapping[str, AgentOrFactory],
    games_per_pairing: int,
    seed: int = 0,
    progress: bool = False,
    field: Mapping[str, AgentOrFactory] | None = None,
    workers: int = 1,
    log_path: str | Path | None = None,
) -> TournamentResult:
    """Play a seat-rotated, common-random-numbers tournament (schedule in the module docstring).

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
            each process builds its own agents from the same seeds, so the records do not depend on ``workers``.
        log_path: a JSON-lines file that receives every game as it finishes (:mod:`baselines.tournament_log`);
            running the same tournament with the same path again plays only the games still missing.

    Returns:
        The records, in schedule order, and their summary.
    """
    _check_entrants(agents, field)
    check_int("workers", workers, 1)
    names, field_names = list(agents), list(field or {})
    everyone = {**agents, **(field or {})}
    schedule = tournament_schedule(names, game.spec.num_players, games_per_pairing, seed, field_names or None)
    log = _open_log(log_path, game, names, field_names, seed, games_per_pairing, schedule)
    records = dict(log.records) if log else {}
    pending = [(index, item) for index, item in enumerate(schedule) if index not in records]
    bar = progress_bar(progress, len(schedule), f"{game.spec.name} tournament", "game", done=len(records))
    try:
        for index, record in _play_all(game, everyone, seed, pending, workers):
            records[index] = record
            if log is not None:
                log.append(index, record)
            bar.update()
    finally:
        if log is not None:
            log.close()
        bar.close()
    return summarize(game.spec.name, names + field_names, [records[index] for index in range(len(schedule))])


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
    return TournamentLog.open(log_path, header, schedule)


def _play_all(
    game: Game,
    agents: Mapping[str, AgentOrFactory],
    seed: int,
    pending: list[tuple[int, ScheduledGame]],
    workers: int,
) -> Iterator[tuple[int, GameRecord]]:
    """Play the ``pending`` games, yielding ``(schedule index, record)`` as each finishes."""
    if workers == 1 or len(pending) <= 1:
        built = _build_agents(agents, seed)
        for index, item in pending:
            yield index, _play_scheduled(game, built, item)
        return
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor, as_completed

    context = multiprocessing.get_context("spawn")
    start = {"initializer": _start_worker, "initargs": (game, agents, seed)}
    with ProcessPoolExecutor(workers, mp_context=context, **start) as pool:
        futures = {pool.submit(_play_in_worker, item): index for index, item in pending}
        try:
            for future in as_completed(futures):
                yield futures[future], future.result()
        except BaseException:
            for future in futures:
                future.cancel()
            raise


def _play_scheduled(game: Game, agents: Mapping[str, Agent], item: ScheduledGame) -> GameRecord:
    return play_game(game, [agents[name] for name in item.seat_names], item.seed, names=item.seat_names)


_WORKER: dict[str, Any] = {}
"""A worker process's game and agents, set once by :func:`_start_worker`."""


def _start_worker(game: Game, agents: Mapping[str, AgentOrFactory], seed: int) -> None:
    _WORKER["game"], _WORKER["agents"] = game, _build_agents(agents, seed)


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


# -- one agent against one opponent ---------------------------------------------------------------
LEARNER_NAME = "learner"
"""The evaluated agent's name in the game records of :func:`evaluate_against`."""


def evaluate_against(
    game: Game, learner: Agent, opponent: Agent, games: int, seed: int, opponent_name: str | None = None
) -> tuple[int, int, int]:
    """``(wins, draws, losses)`` of ``learner`` in ``games`` seat-rotated seeded games against ``opponent``.

    Args:
        game: The game.
        learner: The evaluated agent; one seat per game, rotating.
        opponent: The agent in every other seat.
        games: Number of games.
        seed: Evaluation seed; the game seeds derive from it.
        opponent_name: The opponent's name in the records (default: its ``name``).
    """
    num_players = game.spec.num_players
    seeds = game_seeds(seed, math.ceil(games / num_players))
    label = _distinct_label(opponent_name or getattr(opponent, "name", "opponent"))
    outcomes = []
    for index in range(games):
        seat = index % num_players
        agents = [learner if player == seat else opponent for player in range(num_players)]
        names = [LEARNER_NAME if player == seat else label for player in range(num_players)]
        outcomes.append(play_game(game, agents, seeds[index // num_players], names=names).outcome(LEARNER_NAME))
    wins, draws = outcomes.count(1.0), outcomes.count(0.5)
    return wins, draws, games - wins - draws


def _distinct_label(name: str) -> str:
    return name if name != LEARNER_NAME else f"{name} (opponent)"
