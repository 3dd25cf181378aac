"""What a tournament's games add up to: per-agent statistics, pairwise win rates, Elo ratings and tables.

:func:`summarize` turns game records into a :class:`TournamentResult`. An agent's outcome in a game is that of
:meth:`~baselines.arena.match.GameRecord.outcome` (win, shared first place, loss); the win rate counts a draw as
half a win, with a Wilson 95% interval. Pairwise results compare the two agents' best returns in every game they
shared (so in a multi-player game two agents that both lost to a third tie, as Quoridor ranks no losers), and
the Elo ratings are fitted to those pairwise results (:func:`baselines.arena.ratings.fit_elo`).

:func:`place_points` scores finishing places instead (Battle Sheep's course gives 5, 3, 2 and 1 points to the
1st to 4th place, seed 003), and :func:`placement_summary` averages them per agent over game records.
"""

from __future__ import annotations

import csv
import io
import itertools
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from baselines.arena.match import GameRecord, outcome_points
from baselines.arena.plot import plot_tournament
from baselines.arena.ratings import fit_elo, wilson_interval
from baselines.runs import atomic_write_text


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
        """Write one row per agent (the ranking's numbers, unrounded) to ``path`` (atomically)."""
        columns = list(AgentStats.__dataclass_fields__)
        text = io.StringIO()
        writer = csv.writer(text)
        writer.writerow(columns)
        for stats in self.ranking():
            writer.writerow([getattr(stats, column) for column in columns])
        atomic_write_text(path, text.getvalue())

    def plot(self, path: str | Path) -> None:
        """Save a PNG: win rates with 95% intervals, and the pairwise win-rate heatmap."""
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
            scores[index[first], index[second]] += outcome_points(best[first], best[second])
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


# -- placement points -----------------------------------------------------------------------------
def place_points(returns: np.ndarray, table: list[float]) -> np.ndarray:
    """Each seat's points: places ordered by ``returns`` (higher is better), ties share their places' points.

    Example:
        >>> place_points(np.array([1.0, 1.0, 0.0, -1.0]), [5, 3, 2, 1]).tolist()
        [4.0, 4.0, 2.0, 1.0]
    """
    if len(table) != len(returns):
        raise ValueError(f"points needs one entry per seat ({len(returns)}), got {len(table)}: {table}")
    order = sorted(table, reverse=True)
    points = np.zeros(len(returns))
    for seat, value in enumerate(returns):
        above = int(np.sum(returns > value))
        tied = int(np.sum(returns == value))
        points[seat] = float(np.mean(order[above : above + tied]))
    return points


def placement_summary(records: Iterable[GameRecord], table: list[float]) -> dict[str, dict[str, float]]:
    """Agent name -> ``{"seats", "mean_points", "mean_score"}`` over every seat of ``records``."""
    points: dict[str, list[float]] = defaultdict(list)
    scores: dict[str, list[float]] = defaultdict(list)
    for record in records:
        seat_points = place_points(np.asarray(record.returns), table)
        for seat, name in enumerate(record.agent_names):
            points[name].append(float(seat_points[seat]))
            scores[name].append(float(record.scores[seat]))
    return {
        name: {"seats": len(values), "mean_points": float(np.mean(values)), "mean_score": float(np.mean(scores[name]))}
        for name, values in points.items()
    }
