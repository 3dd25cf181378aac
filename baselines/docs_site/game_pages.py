"""A documentation page per game, written from what the code knows, so it cannot drift from it.

Everything on a page comes from the game itself: its spec-sheet docstring (rules, rewards, termination, illegal
moves, hidden information, sources), its :class:`~boardenvs.core.GameSpec` (players, actions, observation shape and
named fields with their bounds, version, symmetries), its config dataclass (every argument with its default and the
allowed values its field docstring states), the ids and modules of every adapter (:mod:`boardenvs.envs`), worked
action examples in the game's own notation from a seeded opening, a picture from its SVG renderer, and the shipped
models of the package's shelves (file, config, the command that trained it, its notes), and the rules notes of
:mod:`.rules_notes` (sources, resolutions, other implementations) from the section of the rules reference the spec
sheet names. ``scripts/docs_site.py``
writes the pages; ``tests/test_docs_site.py`` regenerates them and fails when a committed page differs.
"""

from __future__ import annotations

import csv
import dataclasses
import inspect
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np

from baselines.docs_site.markup import docstring_markdown
from baselines.docs_site.rules_notes import rules_notes
from baselines.settings import field_docs
from boardenvs.core import Game
from boardenvs.envs import aec_env_id, gym_env_id, module_name
from boardenvs.registry import list_games, make_game

OPENING_SEED = 0
"""Seed of the opening whose legal actions the page lists as worked examples."""
EXAMPLE_ACTIONS = 6
"""How many legal actions of the opening the page spells out."""
PICTURE_PLIES = 6
"""Random plies played from the opening before the page's picture is drawn."""
REPLAY_PLIES = 40
"""Plies of the page's watchable game (between the game's default scripted agents, seed :data:`OPENING_SEED`)."""
SHELVES = ("baselines/learners/alphazero/models", "baselines/learners/sb3/models")
"""The shipped models' folders (each with an ``index.json``), relative to the repository root."""


def game_page(name: str, root: Path) -> str:
    """The Markdown page of the registered game ``name`` (``root``: the repository, for the shelves and results)."""
    game = make_game(name)
    sections = [
        _title(game),
        _facts(game),
        _creation(name, game),
        _arguments(game),
        _observation(game),
        _actions(game),
        _spec_sheet(game),
        rules_notes(_docstring(game), name, root),
        _versions(name, root),
        _agents(name),
        _models(name, root),
        _ladder(name, root),
        _results(name, root),
    ]
    return "\n\n".join(section for section in sections if section).rstrip() + "\n"


def game_picture(name: str) -> str:
    """The SVG picture of ``name``: its opening after :data:`PICTURE_PLIES` seeded random plies (a hidden-information
    game as seat 0 sees it)."""
    game = make_game(name)
    rng = np.random.default_rng(OPENING_SEED)
    state = game.initial_state(rng)
    for _ in range(PICTURE_PLIES):
        if game.is_terminal(state):
            break
        legal = game.legal_actions(state)
        state = game.apply(state, int(legal[rng.integers(len(legal))]))
    return game.render_svg(state, seat=None if game.spec.perfect_information else 0)  # seat 0's view: no secrets


def game_replay(name: str) -> str:
    """A self-contained HTML replay (step through it in a browser) of the first :data:`REPLAY_PLIES` plies of a game
    between the game's default scripted agents, seeded."""
    from baselines.arena import play_game
    from baselines.factory import make_agent
    from baselines.games import GAMES
    from boardenvs.replay import record_replay
    from boardenvs.replay_html import replay_html

    game, spec = make_game(name), GAMES[name].default_opponent
    agents = [make_agent(spec, name, seat) for seat in range(game.spec.num_players)]
    actions = play_game(game, agents, seed=OPENING_SEED).actions[:REPLAY_PLIES]
    meta = {"source": "docs/games page (python -m scripts.docs_site)"}
    return replay_html(record_replay(game, OPENING_SEED, actions, [spec] * game.spec.num_players, meta))


def package_games() -> list[str]:
    """The games this package ships (a game registered from elsewhere, a test's toy game say, gets no page)."""
    return [name for name in list_games() if type(make_game(name)).__module__.startswith("boardenvs.games.")]


def written_game_pages(root: Path) -> dict[Path, str]:
    """Every generated file (``docs/games/<game>.md`` and ``docs/games/<game>.svg``) and its text."""
    pages: dict[Path, str] = {}
    for name in package_games():
        pages[root / "docs" / "games" / f"{name}.md"] = game_page(name, root)
        pages[root / "docs" / "games" / f"{name}.svg"] = game_picture(name)
        pages[root / "docs" / "games" / f"{name}_replay.html"] = game_replay(name)
    return pages


# -- sections ------------------------------------------------------------------------------------------------------
def _title(game: Game) -> str:
    summary = _docstring(game).split("\n\n", 1)[0].replace("\n", " ")
    name = game.spec.name
    watch = (
        f"[Watch the first {REPLAY_PLIES} plies of a game]({name}_replay.html) between two of its scripted agents "
        "(a self-contained HTML replay: play it as an animation, step through it, switch the seat whose view is shown)."
    )
    return f"# {_display_name(game)}\n\n![{name}]({name}.svg){{ width=520 }}\n\n{summary}\n\n{watch}"


def _facts(game: Game) -> str:
    spec = game.spec
    low = min(f.low for f in spec.observation_fields)
    high = max(f.high for f in spec.observation_fields)
    rows = [
        ("Import", f"`from {type(game).__module__.rsplit('.', 1)[0]} import {type(game).__name__}`"),
        ("Gymnasium id", f"`{gym_env_id(spec.name)}`"),
        ("PettingZoo id", f"`{aec_env_id(spec.name)}` (module `{module_name(spec.name)}`)"),
        ("Version", f"{spec.version} ([version history](../versions.md))"),
        (
            "Rules and sources",
            "[below](#rules-source-and-our-resolutions), from the [rules reference](../rules/rules.md)",
        ),
        ("Players (default config)", str(spec.num_players)),
        ("Actions", f"`Discrete({spec.num_actions})`, with a legal-action mask"),
        ("Observation", f"{spec.observation_kind} `{spec.observation_shape}`, float32 in [{low:g}, {high:g}]"),
        ("Information", "perfect" if spec.perfect_information else "hidden (each seat sees its own view)"),
        ("Zero-sum", "yes" if spec.zero_sum else "no"),
        ("Longest game (plies)", str(spec.max_game_length)),
        ("Symmetries", ", ".join(spec.symmetries) or "none declared"),
    ]
    return "| | |\n|---|---|\n" + "\n".join(f"| {key} | {value} |" for key, value in rows)


def _creation(name: str, game: Game) -> str:
    module = module_name(name).rsplit(".", 1)[1]
    calls = [
        (f'game = make_game("{name}")', "the rules: states, masks, apply"),
        (f"aec = {module}.env()", "PettingZoo AEC, action masks in the observations"),
        (f"parallel = {module}.parallel_env()", "PettingZoo Parallel"),
        (f'single = gymnasium.make("{gym_env_id(name)}")', "one seat, opponents inside"),
    ]
    lines = "\n".join(f"{call}  # {about}" for call, about in calls)  # as ruff formats it
    return f"""## Creating it

Every adapter takes the game's arguments (below) as keywords.

```python
import gymnasium
from boardenvs import make_game, {module}

{lines}
```

Beyond: `boardenvs.rllib.make_rllib_env("{name}")` (RLlib's `MultiAgentEnv`), `pyspiel.load_game("boardenvs_{name}")`
after `import boardenvs.openspiel` (OpenSpiel), and the wrapped AEC env as it is for Tianshou (`PettingZooEnv`) and
TorchRL (`PettingZooWrapper(..., use_mask=True)`); see the [adapters](../adapters/index.md)."""


def _arguments(game: Game) -> str:
    config = type(game.config)
    docs = field_docs(config)
    rows = []
    for item in dataclasses.fields(config):
        default = item.default if item.default is not dataclasses.MISSING else item.default_factory()  # type: ignore[misc]
        about = " ".join(docs.get(item.name, "").split()).replace("|", "\\|")
        rows.append(f"| `{item.name}` | `{default!r}` | {about} |")
    header = f"## Arguments\n\nThe config dataclass `{config.__name__}`; a bad value is a `ValueError` naming it.\n\n"
    return header + "| argument | default | allowed values and meaning |\n|---|---|---|\n" + "\n".join(rows)


def _observation(game: Game) -> str:
    spec = game.spec
    unit = "planes" if spec.observation_kind == "planes" else "entries"
    rows = [
        f"| `{f.name}` | {f.start}:{f.stop} | [{f.low:g}, {f.high:g}] | {' '.join(f.description.split())} |"
        for f in spec.observation_fields
    ]
    text = (
        f"## Observation\n\n`game.observe(state, seat)` (the `observation` of every adapter) is "
        f"{spec.observation_kind} of shape `{spec.observation_shape}`, seen from the seat that observes; "
        f"`spec.split_observation` cuts it into these named fields ({unit} `start:stop`).\n\n"
    )
    return text + f"| field | {unit} | bounds | meaning |\n|---|---|---|---|\n" + "\n".join(rows)


def _actions(game: Game) -> str:
    rng = np.random.default_rng(OPENING_SEED)
    state = game.initial_state(rng)
    legal = [int(action) for action in game.legal_actions(state)]
    picks = sorted({legal[int(i)] for i in np.linspace(0, len(legal) - 1, min(EXAMPLE_ACTIONS, len(legal)))})
    rows = [f"| {action} | `{game.action_to_str(state, action)}` |" for action in picks]
    return (
        f"## Actions\n\nAn action is an int in `0..{game.spec.num_actions - 1}`; the mask marks the legal ones. "
        f"`game.action_to_str(state, action)` names one in the game's notation and `game.parse_action(state, text)` "
        f"reads it back. In the opening of seed {OPENING_SEED}, {len(legal)} actions are legal, among them:\n\n"
        "| action | notation |\n|---|---|\n" + "\n".join(rows)
    )


def _spec_sheet(game: Game) -> str:
    body = _docstring(game).split("\n\n", 1)[1] if "\n\n" in _docstring(game) else ""
    return "## Rules, rewards and what an illegal move does\n\nThe game's spec sheet (its class docstring):\n\n" + body


def _versions(name: str, root: Path) -> str:
    """The game's section of ``docs/versions.md`` (what changed in each version and why)."""
    path = root / "docs" / "versions.md"
    text = path.read_text() if path.is_file() else ""
    for section in text.split("\n## ")[1:]:
        heading, _, body = section.partition("\n")
        if heading.endswith(f"(`{name}`)"):
            return "## Version history\n\nFrom [docs/versions.md](../versions.md):\n\n" + body.strip()
    return ""


def _agents(name: str) -> str:
    """Every agent ``make_agent`` offers for the game, with its class and the first line of its docstring."""
    from baselines.factory import agent_choices

    rows = []
    for spec, cls in agent_choices(name).items():
        summary = " ".join(inspect.cleandoc(cls.__doc__ or "").split("\n\n", 1)[0].split()).replace("|", "\\|")
        summary = docstring_markdown(summary)
        rows.append(f"| `{spec}` | `{cls.__module__}.{cls.__qualname__}` | {summary} |")
    return (
        f'## Agents\n\n`make_agent("<name>[:key=value...]", "{name}", seed)` builds any of them (settings after the '
        "name, e.g. `mcts:simulations=200`); trained models join them as `alphazero:pretrained`, `ppo:pretrained`, "
        "`sb3:<model.pt>`, `tabular_q:table=<file>` ([agents](../agents/index.md)).\n\n"
        "| name | class | what it does |\n|---|---|---|\n" + "\n".join(rows)
    )


def _models(name: str, root: Path) -> str:
    rows = []
    for shelf, entry in _shelf_entries(root):
        if entry.get("game") != name:
            continue
        config = ", ".join(f"{k}={v}" for k, v in entry.get("config", {}).items() if v is not None)
        notes = " ".join(str(entry.get("notes", "")).split()).replace("|", "\\|")
        rows.append(f"| `{shelf}/{entry['file']}` | {config} | `{entry.get('command', '')}` | {notes} |")
    if not rows:
        return "## Shipped models\n\nNone yet."
    return (
        '## Shipped models\n\n`make_agent("alphazero:pretrained", game)` (or `ppo:pretrained` / `dqn:pretrained`) '
        "plays the model shipped for the game's exact config.\n\n"
        "| file | config | trained by | notes |\n|---|---|---|---|\n" + "\n".join(rows) + _strength(name, root)
    )


def _strength(name: str, root: Path) -> str:
    """The shipped AlphaZero network's measured tournament, from ``docs/results/alphazero_eval_<game>.csv``."""
    path = root / "docs" / "results" / f"alphazero_eval_{name}.csv"
    if not path.is_file():
        return ""
    with open(path, newline="") as handle:
        rows = list(csv.DictReader(handle))
    lines = [
        f"| `{row['name']}` | {row['games']} | {row['wins']}/{row['draws']}/{row['losses']} | "
        f"{float(row['win_rate']):.3f} [{float(row['ci_low']):.3f}, {float(row['ci_high']):.3f}] |"
        for row in rows
    ]
    return (
        "\n\nMeasured: the shipped AlphaZero network in a round robin with the game's reference agents "
        f"([alphazero results](../results/alphazero.md), `docs/results/{path.name}`; seats rotated, fresh seeds):\n\n"
        "| agent | games | wins/draws/losses | win rate [95% CI] |\n|---|---:|---|---|\n" + "\n".join(lines)
    )


def _ladder(name: str, root: Path) -> str:
    """The game's rating ladder, as published in ``docs/results/ladder_<game>.csv``."""
    from baselines.ladder.page import ladder_table, read_ladder

    path = root / "docs" / "results" / f"ladder_{name}.csv"
    if not path.is_file():
        return ""
    return (
        "## Rating ladder\n\nEvery shipped agent at its stated budget, rated together on the benchmark config (Elo "
        f"scale, `random` = 0, 95% intervals; [the ladders](../results/ladder.md), `docs/results/{path.name}`):\n\n"
        + ladder_table(read_ladder(path))
    )


def _results(name: str, root: Path) -> str:
    pages = sorted(path for path in (root / "docs" / "results").glob("*.md") if name in path.read_text())
    if not pages:
        return ""
    links = "\n".join(f"- [{path.stem.replace('_', ' ')}](../results/{path.name})" for path in pages)
    return "## Results that name this game\n\n" + links


# -- helpers -------------------------------------------------------------------------------------------------------
def _docstring(game: Game) -> str:
    return docstring_markdown(inspect.cleandoc(type(game).__doc__ or game.spec.name))


def _display_name(game: Game) -> str:
    return " ".join(word.capitalize() for word in game.spec.name.split("_"))


def _shelf_entries(root: Path) -> Iterator[tuple[str, dict[str, Any]]]:
    for shelf in SHELVES:
        index = root / shelf / "index.json"
        if index.is_file():
            for entry in json.loads(index.read_text()):
                yield shelf, entry


__all__ = ["game_page", "game_picture", "game_replay", "package_games", "written_game_pages"]
