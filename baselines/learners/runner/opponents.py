"""Who a learner trains against, and the one check of a comma-separated list of agent specs.

:class:`OpponentMix` is the table mix every learner family trains at, drawn per episode: scripted agents by their
``make_agent`` names, and the learner itself in one of three forms: :data:`SELF` (every seat the trained policy,
RLlib), :data:`SNAPSHOT` (frozen snapshot modules, RLlib) and :data:`SELFPLAY` (snapshot files saved to
``snapshot_dir``, SB3). It is plain data (picklable, so a worker process builds its own opponents from it).

:func:`check_agent_specs` checks agent specs by *parsing* them against the agent registry
(:func:`baselines.factory.agent_choices`, :func:`baselines.factory.parse_spec`), never by building the agents: a
run's settings are checked in a blink and before anything is written, and a spec is refused with one message
everywhere (``<setting>: unknown agent 'x' for game 'g'; choices: [...]``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from baselines.factory import (
    RLLIB_PREFIX,
    SB3_PREFIX,
    agent_choices,
    expand_pretrained,
    is_registered,
    model_path_of,
    parse_spec,
)
from baselines.inputs import split_names
from baselines.learners.evaluation import AUTO

SELF = "self"
"""The opponent kind where every seat is the trained shared policy (RLlib)."""
SNAPSHOT = "snapshot"
"""The opponent kind where the other seats are frozen snapshot modules of the learner (RLlib)."""
SELFPLAY = "selfplay"
"""The opponent kind where the other seats are snapshots of the learner saved as files (SB3)."""
LEARNER_KINDS: tuple[str, ...] = (SELF, SNAPSHOT, SELFPLAY)
"""The opponent names that stand for the learner itself rather than for an agent of the registry."""
MODEL_PREFIXES: tuple[str, ...] = (SB3_PREFIX, RLLIB_PREFIX)
"""Specs that name a model file rather than an agent of the registry."""


@dataclass(frozen=True)
class OpponentMix:
    """Who sits at the table with the learner, drawn per episode.

    Attributes:
        opponents: Scripted agents' ``make_agent`` names and/or the learner kinds (:data:`LEARNER_KINDS`).
        snapshot_dir: SB3: the directory of the learner's snapshot files (self-play), or ``None``.
        snapshot_share: SB3: probability of a snapshot opponent once one exists.
        latest_share: SB3: probability that a drawn snapshot is the latest.
        max_snapshots: SB3: how many of the newest snapshots are drawn from.
        snapshot_slots: RLlib: number of frozen snapshot modules (used with :data:`SNAPSHOT`).
    """

    opponents: tuple[str, ...] = ("random",)
    snapshot_dir: str | None = None
    snapshot_share: float = 0.5
    latest_share: float = 0.5
    max_snapshots: int = 20
    snapshot_slots: int = 4

    @property
    def scripted(self) -> tuple[str, ...]:
        """The scripted agents' names among the opponents (the learner kinds left out)."""
        return tuple(name for name in self.opponents if name not in LEARNER_KINDS)

    @property
    def uses_snapshots(self) -> bool:
        """Whether frozen snapshots of the learner play (RLlib's snapshot modules or SB3's snapshot files)."""
        return SNAPSHOT in self.opponents or SELFPLAY in self.opponents

    def env_config(self, game_name: str, game_config: dict[str, Any]) -> dict[str, Any]:
        """The mix with its game as a plain dict (an env's config: RLlib's ``env_config``)."""
        return {
            "game": game_name,
            "game_config": dict(game_config),
            "opponents": list(self.opponents),
            "snapshot_slots": self.snapshot_slots,
        }


def check_agent_specs(
    setting: str, specs: str | Iterable[str], game_name: str, *, also: Sequence[str] = (), models: bool = True
) -> list[str]:
    """The agent specs of ``specs`` (a comma-separated text or a list), checked against the registry by parsing.

    Each spec's name must be an agent of ``game_name`` (:func:`~baselines.factory.agent_choices`; a trained agent
    such as ``alphazero:checkpoint=...`` only with ``models``) or one of ``also`` (the learner kinds a run allows);
    its settings must parse (:func:`~baselines.factory.parse_spec`). With ``models``, an ``sb3:``/``rllib:`` spec
    must name a file or folder that exists. Repeats are dropped, the order is kept.

    Raises:
        ValueError: starting with ``<setting>:``: no spec at all, an unknown agent (the message lists the choices),
            a malformed setting, or a model that is not there.
    """
    names = split_names(specs) if isinstance(specs, str) else list(dict.fromkeys(s.strip() for s in specs if s.strip()))
    if not names:
        raise ValueError(f"{setting}: name at least one agent, got {specs!r}")
    for spec in names:
        try:
            _check_spec(spec, game_name, also, models)
        except ValueError as error:
            raise ValueError(f"{setting}: {error}") from None
    return names


def _check_spec(spec: str, game_name: str, also: Sequence[str], models: bool) -> None:
    if spec.startswith(MODEL_PREFIXES) and models:
        prefix = next(prefix for prefix in MODEL_PREFIXES if spec.startswith(prefix))
        path, _ = model_path_of(spec, prefix)
        if not Path(path).exists():
            raise ValueError(f"no model at {path!r} (agent spec {spec!r})")
        return
    name, _ = parse_spec(expand_pretrained(spec))
    choices = [*agent_choices(game_name), *also]
    if name in choices or (models and is_registered(name, game_name)):
        return
    raise ValueError(f"unknown agent {name!r} for game {game_name!r}; choices: {sorted(choices)}")


def evaluation_opponents(text: str, game_name: str) -> list[str]:
    """The evaluation opponents a run's ``eval_opponents`` names: :data:`~baselines.learners.evaluation.AUTO`
    (random plus the game's ``heuristic`` agent if it has one), or comma-separated agent specs
    (:func:`check_agent_specs`); a ``ValueError`` starting with ``eval_opponents:``."""
    if text.strip() == AUTO:
        return ["random", *(["heuristic"] if "heuristic" in agent_choices(game_name) else [])]
    return check_agent_specs("eval_opponents", text, game_name)


def training_opponents(text: str, game_name: str, learner_kinds: Sequence[str]) -> tuple[str, ...]:
    """The training opponents a run's ``opponents`` names: agents of the game's registry (no trained models) and
    the ``learner_kinds`` the family offers; a ``ValueError`` starting with ``opponents:``."""
    return tuple(check_agent_specs("opponents", text, game_name, also=learner_kinds, models=False))


__all__ = [
    "LEARNER_KINDS",
    "SELF",
    "SELFPLAY",
    "SNAPSHOT",
    "OpponentMix",
    "check_agent_specs",
    "evaluation_opponents",
    "training_opponents",
]
