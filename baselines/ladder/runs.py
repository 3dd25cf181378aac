"""Playing a ladder, fitting it from its logs alone, writing its files, and rating a new agent against it.

A ladder is a folder of rounds. Round 0 plays every pair of agents ``games_per_pairing`` seat-rotated games; each
later round plays another ``games_per_pairing`` games only for the pairs whose ratings (fitted on the rounds before)
lie within :data:`INFORMATIVE_GAP` of each other: a pair whose result is a foregone conclusion (``random`` against
a trained network) says little about either rating, a close pair says the most. Every pair's games of round ``k``
are one tournament log, ``round_<k>/<a>--vs--<b>.jsonl`` (seed ``seed + k``), so a killed run resumes where it
stopped, and a larger ``rounds`` adds games without touching the old ones. The fit reads the logs alone
(:func:`fit_folder`) and writes ``ratings.csv`` (label, spec, rating, interval, games), ``bootstrap.csv`` (every
bootstrap replicate: what a new agent's interval samples) and ``ladder.png``. :func:`rate_agent` plays one new agent
against anchors of a fitted ladder, logged to ``rate_<label>.jsonl`` (resumable too), and rates it with the anchors
held fixed.
"""

from __future__ import annotations

import csv
import io
import itertools
import json
import textwrap
import time
from dataclasses import dataclass
from functools import partial
from pathlib import Path

import numpy as np

from baselines.arena import tournament
from baselines.arena.log import read_records
from baselines.arena.match import GameRecord
from baselines.factory import make_agent
from baselines.inputs import parse_config
from baselines.ladder.fit import (
    BOOTSTRAP_SAMPLES,
    LadderFit,
    NewRating,
    anchored_ratings,
    comparisons,
    fit_ladder,
    rate_against,
)
from baselines.ladder.roster import ANCHOR, Roster
from baselines.runs import atomic_write_text
from boardenvs.core import Game
from boardenvs.registry import make_game

RATINGS_FILE = "ratings.csv"
RATED_FILE = "rated.csv"
BOOTSTRAP_FILE = "bootstrap.csv"
PICTURE_FILE = "ladder.png"
TIMING_FILE = "timing.csv"
PAIR_SEPARATOR = "--vs--"
"""Between the two labels of a pair's log file name."""
INFORMATIVE_GAP = 400.0
"""Rounds after the first play only pairs at most this far apart (Elo): a 9% to 91% expected score."""
ANCHORS = 6
"""How many anchors a new agent meets by default: spread evenly over the ladder's ratings."""


@dataclass(frozen=True)
class PlaySettings:
    """How a ladder's (or a new agent's) games are played."""

    games_per_pairing: int = 20
    """Games per pair of agents in each round (a multiple of the number of players: seats rotate)."""
    rounds: int = 1
    """Rounds: the first plays every pair, each later one the close pairs (see the module docstring)."""
    seed: int = 0
    workers: int = 1
    backend: str = "local"
    ray_address: str | None = None
    progress: bool = True


def ladder_game(roster: Roster) -> Game:
    """The ladder's game, on its config."""
    return make_game(roster.game, **parse_config(list(roster.config)))


def factories(roster: Roster, labels: list[str]) -> dict[str, partial]:
    """Label -> a picklable factory of that entry's agent (called with a seed)."""
    return {label: partial(make_agent, roster.entries[label], roster.game) for label in labels}


def play_ladder(roster: Roster, folder: Path, settings: PlaySettings) -> list[GameRecord]:
    """Play (or resume) every round of ``roster``'s ladder into ``folder``; every logged game is returned."""
    game, agents = ladder_game(roster), factories(roster, list(roster.names))
    for number in range(settings.rounds):
        pairs = round_pairs(roster, folder, number)
        for a, b in pairs:
            started = time.perf_counter()
            log = folder / f"round_{number:03d}" / f"{a}{PAIR_SEPARATOR}{b}.jsonl"
            log.parent.mkdir(parents=True, exist_ok=True)
            logged = _lines_in(log)
            tournament(
                game, {a: agents[a], b: agents[b]}, settings.games_per_pairing, seed=settings.seed + number,
                workers=settings.workers, log_path=log, backend=settings.backend, ray_address=settings.ray_address,
            )  # fmt: skip
            seconds = time.perf_counter() - started
            if _lines_in(log) > logged:  # a pair whose games were all in its log already took no playing time
                _log_timing(folder, number, a, b, settings, seconds)
            if settings.progress:
                print(f"[round {number}] {a} vs {b}: {settings.games_per_pairing} games, {seconds:.1f} s", flush=True)
    return ladder_records(folder)


def _lines_in(path: Path) -> int:
    """The complete lines of the file at ``path`` (0 if there is none)."""
    return path.read_bytes().count(b"\n") if path.is_file() else 0


def _log_timing(folder: Path, number: int, a: str, b: str, settings: PlaySettings, seconds: float) -> None:
    """Append the pair's wall time to ``timing.csv`` (round, pair, games, workers, seconds): what the page reports."""
    path = folder / TIMING_FILE
    new = not path.is_file()
    with open(path, "a", newline="") as handle:
        writer = csv.writer(handle, lineterminator="\n")
        if new:
            writer.writerow(["round", "first", "second", "games", "workers", "seconds"])
        writer.writerow([number, a, b, settings.games_per_pairing, settings.workers, f"{seconds:.1f}"])


def played_time(folder: Path) -> tuple[float, list[int]]:
    """The wall time of every pair played into ``folder`` and the worker counts they were played with (from
    ``timing.csv``; ``(0.0, [])`` without it)."""
    path = folder / TIMING_FILE
    if not path.is_file():
        return 0.0, []
    with open(path, newline="") as handle:
        rows = list(csv.DictReader(handle))
    return sum(float(row["seconds"]) for row in rows), sorted({int(row["workers"]) for row in rows})


def round_pairs(roster: Roster, folder: Path, number: int) -> list[tuple[str, str]]:
    """The pairs round ``number`` plays: every pair in round 0; later, the pairs within :data:`INFORMATIVE_GAP` of
    each other on the fit of the rounds before (a function of the logs, so a resumed run plays the same pairs)."""
    pairs = list(itertools.combinations(roster.names, 2))
    if number == 0:
        return pairs
    earlier = [record for k in range(number) for record in _round_records(folder / f"round_{k:03d}")]
    data = comparisons(earlier, roster.names)
    ratings = anchored_ratings(*data.totals(), roster.names.index(ANCHOR))
    where = {name: i for i, name in enumerate(roster.names)}
    return [(a, b) for a, b in pairs if abs(ratings[where[a]] - ratings[where[b]]) <= INFORMATIVE_GAP]


def ladder_records(folder: Path) -> list[GameRecord]:
    """Every game of the ladder's finished logs, round by round (each checked against the rules)."""
    rounds = sorted(path for path in folder.glob("round_*") if path.is_dir())
    if not rounds:
        raise FileNotFoundError(f"{folder} holds no round_*/ logs: play the ladder first")
    return [record for path in rounds for record in _round_records(path)]


def _round_records(path: Path) -> list[GameRecord]:
    return [record for log in sorted(path.glob("*.jsonl")) for record in read_records(log)]


def fit_folder(roster: Roster, folder: Path, samples: int = BOOTSTRAP_SAMPLES, seed: int = 0) -> LadderFit:
    """Fit the ladder from its logs alone, write ``ratings.csv``, ``bootstrap.csv`` and ``ladder.png``, and
    ``rated.csv`` when agents were rated against it (:func:`rated_agents`, their logs rated against the new fit)."""
    records = ladder_records(folder)
    names = [name for name in roster.names if any(name in record.agent_names for record in records)]
    fit = fit_ladder(records, names, ANCHOR, samples, seed)
    atomic_write_text(folder / RATINGS_FILE, ratings_csv(fit, roster))
    atomic_write_text(folder / BOOTSTRAP_FILE, _table(list(fit.names), fit.replicates.tolist()))
    plot_ladder(fit, folder / PICTURE_FILE, f"{roster.game} ({', '.join(roster.config) or 'default config'})")
    rated = rated_agents(folder, fit)
    if rated:
        atomic_write_text(folder / RATED_FILE, rated_csv(rated))
    return fit


def ratings_csv(fit: LadderFit, roster: Roster) -> str:
    """The ladder as CSV rows, best first: label, spec, rating, interval, games."""
    order = np.argsort(-fit.ratings)
    rows = [
        [fit.names[i], roster.entries.get(fit.names[i], ""), f"{fit.ratings[i]:.1f}", f"{fit.low[i]:.1f}",
         f"{fit.high[i]:.1f}", int(fit.games[i])]
        for i in order
    ]  # fmt: skip
    return _table(["agent", "spec", "rating", "low", "high", "games"], rows)


def load_fit(folder: Path) -> LadderFit:
    """The fitted ladder that :func:`fit_folder` wrote into ``folder``."""
    path = folder / RATINGS_FILE
    if not path.is_file():
        raise FileNotFoundError(f"{path} is missing: fit the ladder first (python -m scripts.ladder --game ...)")
    with open(path, newline="") as handle:
        rows = list(csv.DictReader(handle))
    with open(folder / BOOTSTRAP_FILE, newline="") as handle:
        reader = csv.reader(handle)
        header = next(reader)
        replicates = np.array([[float(value) for value in row] for row in reader])
    names = tuple(header)
    by_name = {row["agent"]: row for row in rows}
    column = {
        key: np.array([float(by_name[name][key]) for name in names]) for key in ("rating", "low", "high", "games")
    }
    return LadderFit(names, column["rating"], column["low"], column["high"], column["games"], replicates)


def default_anchors(fit: LadderFit, count: int = ANCHORS) -> list[str]:
    """``count`` agents of the ladder spread evenly over its ratings (the lowest and the highest included)."""
    order = [fit.names[i] for i in np.argsort(fit.ratings)]
    picks = np.unique(np.linspace(0, len(order) - 1, min(count, len(order))).round().astype(int))
    return [order[i] for i in picks]


def rate_agent(
    roster: Roster, folder: Path, spec: str, label: str, settings: PlaySettings, anchors: list[str] | None = None
) -> NewRating:
    """Play agent ``spec`` (named ``label``) against anchors of the fitted ladder in ``folder``; its rating. The games
    go to ``rate_<label>.jsonl`` and what was rated, how and how long to ``rate_<label>.json`` (:func:`rated_agents`
    reads both back)."""
    fit = load_fit(folder)
    if label in fit.names:
        raise ValueError(f"label: {label!r} is already on the {roster.game} ladder; name the new agent otherwise")
    chosen = anchors or default_anchors(fit)
    unknown = [name for name in chosen if name not in fit.names]
    if unknown:
        raise ValueError(f"anchors: {unknown} are not on the ladder; choices: {', '.join(fit.names)}")
    entry = {label: partial(make_agent, spec, roster.game)}
    started = time.perf_counter()
    records = tournament(
        ladder_game(roster), entry, settings.games_per_pairing, seed=settings.seed, progress=settings.progress,
        field=factories(roster, chosen), workers=settings.workers, log_path=folder / f"rate_{label}.jsonl",
        backend=settings.backend, ray_address=settings.ray_address,
    ).records  # fmt: skip
    about = {"label": label, "spec": spec, "anchors": chosen, "games_per_pairing": settings.games_per_pairing,
             "workers": settings.workers, "seconds": round(time.perf_counter() - started, 1)}  # fmt: skip
    atomic_write_text(folder / f"rate_{label}.json", json.dumps(about, indent=1) + "\n")
    return rate_against(label, records, fit)


@dataclass(frozen=True)
class RatedAgent:
    """An agent rated against a ladder (:func:`rate_agent`), refitted from its log against the ladder as it is now."""

    spec: str
    rating: NewRating
    seconds: float
    workers: int


def rated_agents(folder: Path, fit: LadderFit | None = None) -> list[RatedAgent]:
    """Every agent rated against the fitted ladder in ``folder``, best first: each ``rate_<label>.jsonl`` log rated
    again (:func:`~baselines.ladder.fit.rate_against`) against the ladder's current fit, with the spec and wall time
    of its ``rate_<label>.json``. Left out: a log without that file or still unplayed, and one whose anchors are
    not all on the ladder as fitted now (a ladder refitted on part of its roster, ``--agents``). ``fit``: that fit,
    if the caller has it (else it is read from the folder)."""
    fit, rated = fit or load_fit(folder), []
    for about_path in sorted(folder.glob("rate_*.json")):
        about = json.loads(about_path.read_text())
        log = about_path.with_suffix(".jsonl")
        if not log.is_file() or not set(about["anchors"]) <= set(fit.names):
            continue
        rating = rate_against(about["label"], read_records(log), fit)
        rated.append(RatedAgent(about["spec"], rating, float(about["seconds"]), int(about["workers"])))
    return sorted(rated, key=lambda agent: -agent.rating.rating)


def rated_csv(rated: list[RatedAgent]) -> str:
    """The rated agents as CSV rows: label, spec, rating, interval, games, wall seconds, workers."""
    rows = [
        [a.rating.name, a.spec, f"{a.rating.rating:.1f}", f"{a.rating.low:.1f}", f"{a.rating.high:.1f}",
         a.rating.games, f"{a.seconds:.1f}", a.workers]
        for a in rated
    ]  # fmt: skip
    return _table(["agent", "spec", "rating", "low", "high", "games", "seconds", "workers"], rows)


def plot_ladder(fit: LadderFit, path: Path, title: str) -> Path:
    """The ladder as a picture: each agent's rating with its 95% interval, best at the top."""
    from baselines.plots import save, subplots

    order = np.argsort(fit.ratings)
    figure, axes = subplots(figsize=(7.5, 0.35 * len(order) + 1.4))
    ratings = fit.ratings[order]
    errors = np.vstack([ratings - fit.low[order], fit.high[order] - ratings])
    axes.errorbar(ratings, np.arange(len(order)), xerr=errors, fmt="o", color="tab:blue", capsize=3)
    axes.set_yticks(np.arange(len(order)), [fit.names[i] for i in order])
    axes.axvline(0.0, color="grey", linewidth=0.8, linestyle=":")
    axes.set_xlabel(f"rating (Elo scale, {ANCHOR} = 0; 95% bootstrap interval)")
    axes.set_title(textwrap.fill(title, 70))  # a long config would run off the figure
    axes.grid(axis="x", alpha=0.3)
    return save(figure, path, tight=True)


def _table(header: list[str], rows: list[list]) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(rows)
    return buffer.getvalue()


__all__ = [
    "PlaySettings", "default_anchors", "fit_folder", "ladder_game", "ladder_records", "load_fit", "play_ladder",
    "plot_ladder", "rate_agent", "rated_agents", "rated_csv", "RatedAgent", "ratings_csv", "round_pairs",
]  # fmt: skip
