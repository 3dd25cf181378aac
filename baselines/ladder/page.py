"""The ladders' results page: each fitted ladder's table and picture published into ``docs/results/``.

:func:`publish` copies a ladder folder's ``ratings.csv`` and ``ladder.png`` to ``docs/results/ladder_<game>.csv``
and ``.png`` (and its ``rated.csv``, the agents rated against it, to ``ladder_<game>_rated.csv``) and rewrites
``docs/results/ladder.md`` from every published CSV, so the page is always the fitted ladders and nothing typed by
hand (the game pages read the same CSVs).
"""

from __future__ import annotations

import csv
import shutil
from pathlib import Path

from baselines.ladder.roster import ANCHOR, CONFIGS
from baselines.ladder.runs import RATED_FILE, played_time
from baselines.runs import atomic_write_text

MACHINE = "the project's 2-core machine, shared with other jobs"
"""Where the published ladders were played."""
LOGS_LINE = "logs: "
"""Starts the line of ``ladder_<game>.txt`` that names the folder of the ladder's logs in the repository."""
INTRO = f"""# Rating ladders

Every agent the suite ships, at stated budgets, rated together on each game's benchmark config: a Bradley-Terry fit
on the Elo scale over the pairwise results of a seat-rotated round robin, `{ANCHOR}` at 0, with 95% intervals from a
bootstrap over the games, stratified by pair (`baselines/ladder/`; the method and its choices are in the docstrings of
`baselines/ladder/fit.py` and `runs.py`). Round 0 plays every pair; later rounds add games only for pairs within 400
Elo of each other, where a game says the most. 400 points are 10:1 odds.

    python -m scripts.ladder --game <game> --games-per-pairing 20 --rounds 3 --workers 2   # play (resumable), fit
    python -m scripts.ladder --game <game> --fit-only                                      # refit from the logs alone
    python -m scripts.ladder --game <game> --rate "mcts:simulations=400" --label mcts-400   # rate a new agent
    python -m scripts.ladder --game <game> --rate "class:my_agents.Greedy" --label mine     # ... or your own class
    python -m scripts.ladder --game <game> --fit-only --publish                            # this page

A new agent is rated against six anchors spread over the ladder (`--anchors` to choose them), their ratings held
fixed; its interval also samples the anchors' own bootstrap replicates. Your own agent class is the spec
`class:<module>.<Class>` (settings as `:key=value`): the module must be importable from the folder you run in (or
installed), since each worker process imports it; the class is built as `Class(seed, name=spec, **settings)`
(subclass `baselines.BaseAgent`).
"""


def publish(game: str, folder: Path, results: Path) -> Path:
    """Copy ``game``'s fitted ladder from ``folder`` into ``results`` (with the wall time its games took, from the
    folder's ``timing.csv``) and rewrite the page; return the page."""
    shutil.copyfile(folder / "ratings.csv", results / f"ladder_{game}.csv")
    shutil.copyfile(folder / "ladder.png", results / f"ladder_{game}.png")
    if (folder / RATED_FILE).is_file():
        shutil.copyfile(folder / RATED_FILE, results / f"ladder_{game}_rated.csv")
    seconds, workers = played_time(folder)
    counts = " or ".join(str(count) for count in workers) or "no"
    where = f"{MACHINE}, {counts} worker{'' if workers == [1] else 's'}"
    logs = logs_in_repository(folder, results)
    lines = [f"{seconds / 3600:.2f} hours of play ({where})"] + ([f"{LOGS_LINE}{logs}"] if logs else [])
    atomic_write_text(results / f"ladder_{game}.txt", "\n".join(lines) + "\n")
    return write_page(results)


def logs_in_repository(folder: Path, results: Path) -> str:
    """``folder`` relative to the repository that holds ``results`` (``docs/results``' grandparent) when the
    ladder's logs lie inside it (``runs/ladder/<game>``, tracked), else ``""``: logs elsewhere are not published."""
    repository = results.resolve().parent.parent
    try:
        return folder.resolve().relative_to(repository).as_posix()
    except ValueError:
        return ""


def write_page(results: Path) -> Path:
    """``results/ladder.md`` from every published ladder (games in the order of :data:`CONFIGS`)."""
    sections = [INTRO]
    for game in CONFIGS:
        path = results / f"ladder_{game}.csv"
        if path.is_file():
            timing = results / f"ladder_{game}.txt"
            played, logs = read_timing(timing)
            rated, ladder = results / f"ladder_{game}_rated.csv", read_ladder(path)
            section = game_section(game, ladder, played, logs)
            if rated.is_file():
                section += "\n\n" + rated_section(game, read_ladder(rated), ladder)
            sections.append(section)
    missing = [game for game in CONFIGS if not (results / f"ladder_{game}.csv").is_file()]
    if missing:
        sections.append("Not yet fitted: " + ", ".join(missing) + ".")
    return atomic_write_text(results / "ladder.md", "\n\n".join(sections).rstrip() + "\n")


def read_timing(path: Path) -> tuple[str, str]:
    """A published ``ladder_<game>.txt``: the wall-time line, and the logs' folder in the repository (or ``""``)."""
    lines = path.read_text().splitlines() if path.is_file() else []
    logs = next((line.removeprefix(LOGS_LINE) for line in lines if line.startswith(LOGS_LINE)), "")
    return (lines[0] if lines else ""), logs


def read_ladder(path: Path) -> list[dict[str, str]]:
    """The rows of a published ladder CSV, best first."""
    with open(path, newline="") as handle:
        return list(csv.DictReader(handle))


def ladder_table(rows: list[dict[str, str]]) -> str:
    """A ladder as a Markdown table: rank, agent, spec, rating [95% interval], games."""
    lines = ["| rank | agent | spec | rating [95% CI] | games |", "|---:|---|---|---|---:|"]
    for rank, row in enumerate(rows, 1):
        lines.append(f"| {rank} | {row['agent']} | `{row['spec']}` | {_interval(row)} | {row['games']} |")
    return "\n".join(lines)


def game_section(game: str, rows: list[dict[str, str]], played: str = "", logs: str = "") -> str:
    """A game's section of the page: its config, games, wall time, where its logs are, table and picture."""
    config = ", ".join(CONFIGS[game]) or "the default config"
    games = sum(int(row["games"]) for row in rows) // 2
    when = f", {played}" if played else ""
    kept = (
        f" Every game is in the repository, `{logs}/` (`--fit-only --out {logs}` refits from them)."
        if logs
        else " Its game logs are not in the repository (played before ladders kept them there)."
    )
    return (
        f"## {game} ({config})\n\n{games:,} games{when}. `ladder_{game}.csv` holds the table.{kept}\n\n"
        f"{ladder_table(rows)}\n\n"
        f"![{game} ladder](ladder_{game}.png)"
    )


def rated_section(game: str, rated: list[dict[str, str]], ladder: list[dict[str, str]]) -> str:
    """The agents rated against ``game``'s ladder with one command (``--rate``): rating, games, wall time, and the
    ladder's own rating of the same spec where one stands on it (a check of the one-command rating)."""
    on_ladder = {row["spec"]: row for row in ladder}
    lines = [
        f"Rated against this ladder with one command each (`--rate`; anchors held fixed; `ladder_{game}_rated.csv`):",
        "",
        "| agent | spec | rating [95% CI] | games | wall time | the same spec on the ladder |",
        "|---|---|---|---:|---:|---|",
    ]
    for row in rated:
        same = on_ladder.get(row["spec"])
        ladder_rating = f"{same['agent']}: {_interval(same)}" if same else "-"
        minutes = float(row["seconds"]) / 60
        lines.append(
            f"| {row['agent']} | `{row['spec']}` | {_interval(row)} | {row['games']} | {minutes:.1f} min, "
            f"{row['workers']} worker(s) | {ladder_rating} |"
        )
    return "\n".join(lines)


def _interval(row: dict[str, str]) -> str:
    return f"{float(row['rating']):+.0f} [{float(row['low']):+.0f}, {float(row['high']):+.0f}]"


__all__ = [
    "game_section",
    "ladder_table",
    "logs_in_repository",
    "publish",
    "rated_section",
    "read_ladder",
    "read_timing",
    "write_page",
]
