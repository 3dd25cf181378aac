"""Write a game as a self-contained HTML replay (opens offline from disk), and as a JSON replay file.

    python -m scripts.replay runs/sheep.jsonl --game 3 --out game.html     # game 3 of a tournament log
    python -m scripts.replay game.json --out game.html                      # a JSON replay file
    python -m scripts.replay --new quoridor --agents heuristic random --config board_size=5 --out game.html \\
        --json game.json                                                    # play a new game and write both

A tournament log is the JSON-lines file of ``scripts.tournament --log``; ``--game`` picks a game by its schedule
index (default: the first game in the file). Every replay is checked move by move against the installed rules:
a replay of another game version, an illegal move or a tampered result is refused with the reason.
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import ClassVar

from baselines.arena.match import play_game
from baselines.arena.replays import log_replay, replay_from_record
from baselines.factory import make_agent
from baselines.inputs import checked_game
from boardenvs.replay import REPLAY_FORMAT, Replay, load_replay
from boardenvs.replay_html import replay_html

from ._args import OptionError, Range, check_agents, check_game, run_cli


@dataclass
class Args:
    """Write a game as an HTML replay page (and a JSON replay file)."""

    source: str = ""
    """A JSON replay file or a tournament log (JSON lines); the first argument may name it without --source."""
    game: int = -1
    """For a tournament log: the schedule index of the game to show (-1: the first game in the file)."""
    new: str = ""
    """Instead of a source: play a new game of this game (quoridor, splendor, ...) between --agents."""
    agents: list[str] = field(default_factory=lambda: ["heuristic", "random"])
    """With --new: one agent spec per seat (random, heuristic, mcts:simulations=200, ...)."""
    config: list[str] = field(default_factory=list)
    """With --new: the game config as key=value pairs, e.g. board_size=5."""
    seed: int = 0
    """With --new: the game seed."""
    out: str = "runs/replay.html"
    """Where to write the HTML page."""
    json: str = ""
    """Also write the JSON replay file here (empty: do not)."""

    LIMITS: ClassVar = {"game": Range(-1, 10**9)}


def load_source(args: Args) -> Replay:
    """The replay that ``args`` names: a new game, a replay file, or a game of a tournament log."""
    if args.new:
        return new_replay(args)
    if not args.source:
        raise ValueError("source: name a JSON replay or a tournament log, or play a new game with --new GAME")
    path = Path(args.source)
    if not path.is_file():
        raise ValueError(f"source: no file {args.source!r}")
    if _is_replay_file(path):
        if args.game >= 0:
            raise ValueError("game: --game picks a game of a tournament log; this source is a single replay")
        return load_replay(path)[0]
    return log_replay(path, None if args.game < 0 else args.game)


def _is_replay_file(path: Path) -> bool:
    try:
        data = json.loads(path.read_text())
    except (UnicodeDecodeError, ValueError):
        return False  # JSON lines (a tournament log) or not JSON at all: read_log says which
    return isinstance(data, dict) and data.get("format") == REPLAY_FORMAT


def new_replay(args: Args) -> Replay:
    """Play one game between ``args.agents`` and record it."""
    game, _ = checked_game(args.new, args.config)
    if len(args.agents) != game.spec.num_players:
        raise ValueError(f"agents: {args.new} has {game.spec.num_players} seats, got {len(args.agents)} agents")
    agents = [make_agent(spec, args.new, seed=args.seed + seat) for seat, spec in enumerate(args.agents)]
    record = play_game(game, agents, args.seed, names=args.agents)
    return replay_from_record(game, record, {"source": f"scripts.replay --new {args.new} --seed {args.seed}"})


def main(args: Args) -> Replay:
    """Write the page (and the JSON file) of the game ``args`` names; returns its replay."""
    replay = load_source(args)
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(replay_html(replay), encoding="utf-8")
    if args.json:
        Path(args.json).parent.mkdir(parents=True, exist_ok=True)
        replay.save(args.json)
    return replay


def check_args(args: Args) -> None:
    """Refuse bad options before a game is played or a file read: a new game's game, config and agents, or a
    source that is not a file (the file's content is checked as it is read)."""
    if args.new:
        if args.source:
            raise OptionError("new", f"plays a new game; it excludes --source {args.source!r}")
        game = check_game(args.new, args.config, game_field="new")
        if len(args.agents) != game.spec.num_players:
            raise OptionError("agents", f"{args.new} has {game.spec.num_players} seats, got {len(args.agents)} agents")
        check_agents("agents", args.agents, args.new)
        return
    if not args.source:
        raise OptionError("source", "name a JSON replay or a tournament log, or play a new game with --new GAME")
    if not Path(args.source).is_file():
        raise OptionError("source", f"no file {args.source!r}")


def cli(argv: list[str] | None = None) -> None:
    """Entry point of ``python -m scripts.replay``."""
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and not argv[0].startswith("-"):
        argv = ["--source", *argv]
    run_cli(Args, argv, _run, description=__doc__, check=check_args)


def _run(args: Args) -> None:
    replay = main(args)
    print(f"wrote {args.out}: {replay.game}, {len(replay.moves)} moves, " + " vs ".join(replay.agents)
          + (f"; replay JSON {args.json}" if args.json else ""))  # fmt: skip


if __name__ == "__main__":
    cli()
