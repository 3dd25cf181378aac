"""A documentation page per agent family, written from the code: its room's docstring, its registered agents, the
games each plays and the settings each takes, a runnable example, the command that trains or tunes it, its shipped
files, the results pages that name it, and its API (rendered by mkdocstrings).

:data:`FAMILIES` is the one list of families (one folder or module each, as ``docs/design.md`` asks); the index page
(``docs/agents/index.md``) adds a matrix of which agent plays which game, read from the registry.
"""

from __future__ import annotations

import importlib
import inspect
from dataclasses import dataclass
from pathlib import Path

from baselines.docs_site.markup import docstring_markdown

PACKAGE_ROOT = Path(__file__).resolve().parents[2]
"""The folder holding the ``baselines`` package: shipped files are named relative to it."""
EXAMPLE = """from baselines.arena import play_game
from baselines.factory import make_agent
from boardenvs import make_game

game = make_game("{game}"{config})
agents = [
    make_agent("{spec}", "{game}", seed=0),
    make_agent("{opponent}", "{game}", seed=1),
]
record = play_game(game, agents, seed=0)
print(record.agent_names, record.returns, record.plies)"""
"""The example of a family whose agents are built by name: one seeded game against an opponent."""


@dataclass(frozen=True)
class Family:
    """One family of agents and how its page shows it."""

    slug: str
    """The page's file name (``docs/agents/<slug>.md``)."""
    title: str
    module: str
    """The room whose docstring introduces the family."""
    agents: tuple[str, ...]
    """The registry names of its agents (``make_agent`` specs without settings)."""
    play: tuple[str, str, str, str] | None
    """``(game, config keywords, spec, opponent)`` of the example game, or ``None`` when :attr:`example` is set."""
    train: str = ""
    """The command that trains or tunes it (``--help`` lists every option), or empty."""
    api: tuple[str, ...] = ()
    """Modules whose API the page renders."""
    example: str = ""
    """A hand-written example (when the family is not played by name alone)."""
    not_run: str = ""
    """Why the example cannot run in CI (it needs a trained file or a cluster), or empty."""
    models: str = ""
    """The folder of its shipped files, relative to :data:`PACKAGE_ROOT`, or empty."""
    guide: str = ""
    """The page that walks through it, relative to ``docs/`` (``guides/sb3.md``), or empty."""

    def example_code(self) -> str:
        """The page's Python example."""
        if self.play is None:
            return self.example
        game, config, spec, opponent = self.play
        return EXAMPLE.format(game=game, config=f", {config}" if config else "", spec=spec, opponent=opponent)


NTBEA_EXAMPLE = """from baselines.tuning.tuning import TuneSettings, tune

settings = TuneSettings(agent="rhea:budget=300", space="rhea", opponent="random", evaluations=6, progress=False)
outcome = tune("node_conquest", {"rows": 3, "cols": 3}, settings)
print(outcome.tuned_spec)"""

TABULAR_EXAMPLE = """from baselines.arena import evaluate_against
from baselines.factory import make_agent
from baselines.learners.tabular_q import train
from boardenvs import make_game

game = make_game("node_conquest", rows=3, cols=3)
agent, history = train(game, episodes=200, opponents="random", seed=0)
print(evaluate_against(game, agent, make_agent("random", "node_conquest", 1), 10, seed=2))"""

RLLIB_EXAMPLE = """from baselines.factory import make_agent

agent = make_agent("rllib:unsafe:runs/rllib/quoridor5", "quoridor", seed=0)  # a run folder of scripts.train_rllib"""

FAMILIES: tuple[Family, ...] = (
    Family(
        "scripted", "Random and scripted agents", "baselines.games",
        ("random", "path", "heuristic", "osla", "buyer", "random_es", "random_no_es", "tree", "evaluation", "greedy"),
        ("quoridor", "board_size=5", "heuristic", "path"),
        api=("baselines.agent", "baselines.games.quoridor.agents", "baselines.games.splendor.agents",
             "baselines.games.gravwell.agents", "baselines.games.battle_sheep.evaluation",
             "baselines.games.node_conquest.agents"),
        guide="guides/tournaments.md",
    ),
    Family(
        "mcts", "Monte Carlo tree search", "baselines.search.mcts", ("mcts", "rmcts"),
        ("node_conquest", "rows=4, cols=4", "mcts:simulations=50:evaluator=heuristic", "greedy"),
        api=("baselines.search.mcts", "baselines.search.evaluators", "baselines.search.rmcts"),
        guide="guides/tournaments.md",
    ),
    Family(
        "rhea", "Rolling horizon evolution and event-value functions", "baselines.search.rhea", ("rhea", "srh"),
        ("splendor", "", "rhea:budget=300", "buyer"),
        api=("baselines.search.rhea", "baselines.search.rhea_params", "baselines.games.splendor.event_values"),
        guide="guides/tournaments.md",
    ),
    Family(
        "ntbea", "NTBEA tuning", "baselines.tuning", (), None,
        train="python -m scripts.tune_ntbea --game splendor --evaluations 200 --workers 2 --out runs/ntbea/splendor",
        api=("baselines.tuning.ntbea", "baselines.tuning.tuning", "baselines.tuning.game_fitness"),
        example=NTBEA_EXAMPLE, guide="guides/tournaments.md",
    ),
    Family(
        "alphabeta", "Alpha-beta and minimax", "baselines.search.alphabeta_agent", ("alphabeta", "minimax"),
        ("quoridor", "board_size=5", "alphabeta:depth=2", "heuristic"),
        api=("baselines.search.alphabeta_agent", "baselines.search.alphabeta", "baselines.games.battle_sheep.minimax"),
    ),
    Family(
        "alphazero", "AlphaZero", "baselines.learners.alphazero", ("alphazero",),
        ("quoridor", "board_size=5", "alphazero:pretrained:simulations=16", "heuristic"),
        train="python -m scripts.train_alphazero --game node_conquest --iterations 10 --out runs/az/node_conquest",
        api=("baselines.learners.alphazero.agent", "baselines.learners.alphazero.trainer"),
        models="baselines/learners/alphazero/models", guide="guides/alphazero.md",
    ),
    Family(
        "sb3", "PPO and DQN (stable-baselines3)", "baselines.learners.sb3", ("ppo", "dqn"),
        ("quoridor", "board_size=5", "ppo:pretrained", "heuristic"),
        train="python -m scripts.train_sb3 --game quoridor --config board_size=5 --algo ppo --out runs/sb3/q5",
        api=("baselines.learners.sb3.agent",),
        models="baselines/learners/sb3/models", guide="guides/sb3.md",
    ),
    Family(
        "tabular_q", "Tabular Q-learning", "baselines.learners.tabular_q", ("tabular_q", "qlearning"), None,
        train="python -m scripts.train_tabular_q --game node_conquest --config rows=3,cols=3 --out runs/tq/nc3",
        api=("baselines.learners.tabular_q", "baselines.learners.gravwell_q", "baselines.learners.sheep_q"),
        example=TABULAR_EXAMPLE, models="baselines/learners/gravwell_q/models", guide="guides/tabular.md",
    ),
    Family(
        "qlnn", "Q-learning neural network (QLNN)", "baselines.learners.qlnn", ("qlnn",),
        ("quoridor", "board_size=5", "qlnn", "path"),
        train="python -m scripts.train_qlnn --config board_size=5 --episodes 2000 --out runs/qlnn/q5",
        api=("baselines.learners.qlnn.agent",), models="baselines/learners/qlnn/models", guide="guides/tabular.md",
    ),
    Family(
        "neuroevolution", "Neuro-evolution", "baselines.learners.neuroevolution", ("neuroevolution",),
        ("gravwell", "num_players=2", "neuroevolution", "random_no_es"),
        train="python -m scripts.evolve_gravwell --generations 300 --eval-every 30 --out runs/gravwell_neuro/correct",
        api=("baselines.learners.neuroevolution.agent",),
        models="baselines/learners/neuroevolution/models", guide="guides/tabular.md",
    ),
    Family(
        "rllib", "RLlib PPO", "baselines.learners.rllib", (), None,
        train="python -m scripts.train_rllib --game quoridor --config board_size=5 --out runs/rllib/quoridor5",
        api=("baselines.learners.rllib.agent",),
        example=RLLIB_EXAMPLE, not_run="needs a run folder that scripts.train_rllib writes (Ray, an hour)",
        guide="adapters/rllib.md",
    ),
)  # fmt: skip


def agent_page(family: Family, root: Path) -> str:
    """The Markdown page of ``family`` (``root``: the repository, for the results pages)."""
    sections = [
        f"# {family.title}",
        _docstring(family.module),
        _agents(family),
        _example(family),
        _train(family),
        _models(family),
        _results(family, root),
        _api(family),
    ]
    return "\n\n".join(section for section in sections if section).rstrip() + "\n"


def agents_index() -> str:
    """``docs/agents/index.md``: every family with its page, and which agent plays which game."""
    from baselines.docs_site.game_pages import package_games
    from baselines.factory import agent_choices

    games = package_games()
    families = "\n".join(f"| [{f.title}]({f.slug}.md) | {_names(f)} | {_summary(f.module)} |" for f in FAMILIES)
    choices = {game: agent_choices(game) for game in games}
    names = list(dict.fromkeys(name for game in games for name in choices[game]))
    matrix = "\n".join(
        f"| `{name}` | " + " | ".join("yes" if name in choices[game] else "" for game in games) + " |" for name in names
    )
    return (
        "# Agents\n\n`make_agent(\"<name>[:key=value...]\", game, seed)` builds any agent by name (settings after the "
        "name, e.g. `mcts:simulations=200`); each family's page says what it does, what it takes and how it was "
        "trained or tuned.\n\n| family | agents | what it is |\n|---|---|---|\n" + families
        + "\n\n## Which agent plays which game\n\nThe agents offered by name for each game (trained agents that "
        "need a file, `alphazero`, `ppo`, `dqn`, `tabular_q`, `qlnn`, `sb3:` and `rllib:`, play every game they "
        "were trained on).\n\n| agent | " + " | ".join(games) + " |\n|---|" + "---|" * len(games) + "\n" + matrix
    )  # fmt: skip


def written_agent_pages(root: Path) -> dict[Path, str]:
    """Every generated agent page (``docs/agents/<family>.md`` and the index) and its text."""
    folder = root / "docs" / "agents"
    pages = {folder / f"{family.slug}.md": agent_page(family, root) for family in FAMILIES}
    pages[folder / "index.md"] = agents_index()
    return pages


# -- sections ------------------------------------------------------------------------------------------------------
def _agents(family: Family) -> str:
    from baselines.factory import registered_agents

    rows = []
    for name, games, cls in registered_agents():
        if name in family.agents:
            plays = ", ".join(games) if games else "every game"
            rows.append(f"| `{name}` | {plays} | `{cls.__module__}.{cls.__qualname__}` | {_settings(cls)} |")
    if not rows:
        return ""
    return (
        "## Agents\n\n`make_agent(\"<name>:key=value...\", game, seed)` passes the settings to the class (the "
        "class's docstring below says what each does).\n\n| name | games | class | settings (defaults) |\n"
        "|---|---|---|---|\n" + "\n".join(rows)
    )  # fmt: skip


def _example(family: Family) -> str:
    marker = f"<!-- not run: {family.not_run} -->\n" if family.not_run else ""
    return f"## Try it\n\n{marker}```python\n{family.example_code()}\n```"


def _train(family: Family) -> str:
    if not family.train:
        return ""
    guide = f" The [guide](../{family.guide}) walks through it." if family.guide else ""
    return f"## Train or tune it\n\n```bash\n{family.train}\n```\n\n`--help` lists every option.{guide}"


def _models(family: Family) -> str:
    if not family.models:
        return ""
    folder = PACKAGE_ROOT / family.models
    files = sorted(p.name for p in folder.iterdir() if p.suffix in (".pt", ".json", ".npz"))
    listing = "\n".join(f"- `{family.models}/{name}`" for name in files if name != "index.json")
    return (
        f"## Shipped files\n\nThey ship with the package (each game's page says which config each fits):\n\n{listing}"
    )


def _results(family: Family, root: Path) -> str:
    keys = [f"`{name}" for name in family.agents] + [family.slug]
    pages = sorted(p for p in (root / "docs" / "results").glob("*.md") if any(k in p.read_text() for k in keys))
    if not pages:
        return ""
    return "## Results that name it\n\n" + "\n".join(
        f"- [{p.stem.replace('_', ' ')}](../results/{p.name})" for p in pages
    )


def _api(family: Family) -> str:
    """The family's agent classes, then its other modules (the room's own docstring is the page's introduction)."""
    from baselines.factory import registered_agents

    modules = [module for module in family.api if module != family.module]
    agents = [cls for name, _, cls in registered_agents() if name in family.agents and cls.__module__ not in modules]
    classes = [f"{cls.__module__}.{cls.__qualname__}" for cls in agents]
    blocks = "\n\n".join(f"::: {target}" for target in dict.fromkeys([*classes, *modules]))
    return f"## API\n\n{blocks}" if blocks else ""


# -- helpers -------------------------------------------------------------------------------------------------------
def _docstring(module: str) -> str:
    return docstring_markdown(inspect.cleandoc(importlib.import_module(module).__doc__ or ""))


def _summary(module: str) -> str:
    return " ".join(_docstring(module).split("\n\n", 1)[0].split()).replace("|", "\\|")


def _names(family: Family) -> str:
    return ", ".join(f"`{name}`" for name in family.agents) or "-"


def _settings(cls: type) -> str:
    parameters = list(inspect.signature(cls.__init__).parameters.values())[1:]
    shown = [p for p in parameters if p.name not in ("seed", "name") and p.kind is not p.VAR_POSITIONAL]
    text = ", ".join(f"`**{p.name}`" if p.kind is p.VAR_KEYWORD else f"`{p.name}={p.default!r}`" for p in shown)
    return text.replace("|", "\\|") or "none"


__all__ = ["FAMILIES", "Family", "agent_page", "agents_index", "written_agent_pages"]
