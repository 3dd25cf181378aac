"""rl-zoo3 with action masks: the ``ppo_mask`` algorithm and hyperparameters for every boardenvs game.

rl-zoo3 (the standard SB3 training framework) knows no MaskablePPO, and its ``enjoy``, its ``EvalCallback`` and
SB3's ``evaluate_policy`` call ``model.predict(obs)`` without masks. :func:`register` adds ``ppo_mask`` to
``rl_zoo3.utils.ALGOS`` (the dict its ``train`` and ``enjoy`` take their ``--algo`` choices from):
:class:`ZooMaskedPPO`, a :class:`~baselines.learners.sb3.ppo.MaskedPPO` whose ``"MultiInputPolicy"`` masks itself
with ``obs["action_mask"]``. So:

- **training** masks as MaskablePPO always does: it collects ``env_method("action_masks")`` from rl-zoo3's
  ``DummyVecEnv``/``SubprocVecEnv`` (the method is found through the ``Monitor`` and Gymnasium wrappers);
- **evaluation** (rl-zoo3's ``EvalCallback``, ``enjoy``, ``evaluate_policy``) passes no mask, and the policy takes
  the observation's.

:data:`HYPERPARAMS` is the shipped hyperparameter file, one entry per game's Gymnasium id. YAML holds no classes, so
its ``policy_kwargs`` name the features extractor (``PlanesExtractor``, ``VectorExtractor``) and the activation;
:class:`ZooMaskedPPO` resolves the names the safe model format knows (:data:`NAMED_CLASSES`).

:func:`zoo_argv` puts this module's defaults before the user's arguments (argparse keeps the last value given, so
the user's own win): ``--algo ppo_mask``, ``--gym-packages boardenvs`` and, when training ``ppo_mask``,
``--conf-file`` :data:`HYPERPARAMS` and ``--env-kwargs`` with the file's entry for the env (rl-zoo3 2.9 gives a
config's ``env_kwargs`` to the training envs alone, and would evaluate on the game's default config).
:func:`run` hands the whole command line to rl-zoo3's own ``train`` or ``enjoy``. ``scripts/rl_zoo.py`` is the
command line. rl-zoo3's hyperparameter search (``-optimize``) is refused for ``ppo_mask``: its PPO sampler replaces
``policy_kwargs`` whole, and with them the game's features extractor.

Example:
    >>> run("train", ["--env", "boardenvs/Quoridor-v0", "-n", "100000", "-f", "logs"])  # doctest: +SKIP
    >>> run("enjoy", ["--env", "boardenvs/Quoridor-v0", "-f", "logs", "--no-render", "-n", "2000"])  # doctest: +SKIP
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from baselines.learners.sb3.ppo import MaskedPPO
from baselines.learners.sb3.safe import ACTIVATIONS, EXTRACTORS

ALGO = "ppo_mask"
"""The name ``--algo`` gives :class:`ZooMaskedPPO` in rl-zoo3."""
HYPERPARAMS = Path(__file__).resolve().with_name("rl_zoo_hyperparams.yml")
"""The shipped rl-zoo3 hyperparameter file: ``ppo_mask`` settings for every game's Gymnasium id."""
COMMANDS: tuple[str, ...] = ("train", "enjoy")
"""The rl-zoo3 commands :func:`run` hands over to."""
NAMED_CLASSES: dict[str, dict[str, type]] = {"features_extractor_class": EXTRACTORS, "activation_fn": ACTIVATIONS}
"""The ``policy_kwargs`` entries a hyperparameter file may give by name, and the names each may take."""


def resolve_names(policy_kwargs: dict[str, Any] | None) -> dict[str, Any] | None:
    """``policy_kwargs`` with a named ``features_extractor_class`` or ``activation_fn`` replaced by its class.

    Raises:
        ValueError: an unknown name (the message lists the known ones).
    """
    if not policy_kwargs:
        return policy_kwargs
    resolved = dict(policy_kwargs)
    for key, known in NAMED_CLASSES.items():
        value = resolved.get(key)
        if isinstance(value, str):
            if value not in known:
                raise ValueError(f"policy_kwargs {key}: unknown name {value!r}; known: {sorted(known)}")
            resolved[key] = known[value]
    return resolved


class ZooMaskedPPO(MaskedPPO):
    """:class:`~baselines.learners.sb3.ppo.MaskedPPO` whose ``policy_kwargs`` may name their classes (see the
    module): rl-zoo3's ``ppo_mask``."""

    def __init__(self, policy: Any, env: Any, *args: Any, policy_kwargs: dict[str, Any] | None = None, **kwargs: Any):
        super().__init__(policy, env, *args, policy_kwargs=resolve_names(policy_kwargs), **kwargs)


def register() -> None:
    """Add ``ppo_mask`` to rl-zoo3's algorithms (``rl_zoo3.utils.ALGOS``, which ``train`` and ``enjoy`` read their
    ``--algo`` choices and classes from). Importing rl-zoo3 patches Gymnasium's ``TimeLimit`` (its
    ``gym_patches``)."""
    from rl_zoo3.utils import ALGOS

    ALGOS[ALGO] = ZooMaskedPPO


def hyperparameters(env_id: str, path: str | Path = HYPERPARAMS) -> dict[str, Any]:
    """The entry of ``env_id`` in the hyperparameter file ``path`` (``{}`` if it has none)."""
    import yaml  # PyYAML comes with rl-zoo3 (the zoo extra); this module imports without it

    with open(path) as file:
        entries = yaml.safe_load(file) or {}
    entry = entries.get(env_id, {})
    return dict(entry) if isinstance(entry, dict) else {}


def _last_values(argv: Sequence[str]) -> argparse.Namespace:
    """The last ``--algo``, ``--env``, ``--conf-file`` and ``--env-kwargs`` given in ``argv`` (``None`` if not)."""
    parser = argparse.ArgumentParser(add_help=False)
    parser.add_argument("--algo")
    parser.add_argument("--env")
    parser.add_argument("-conf", "--conf-file")
    parser.add_argument("--env-kwargs", nargs="+")
    parser.add_argument("-optimize", "--optimize-hyperparameters", action="store_true")
    return parser.parse_known_args(list(argv))[0]


def env_kwargs_argv(env_kwargs: dict[str, Any]) -> list[str]:
    """``env_kwargs`` as rl-zoo3's ``--env-kwargs`` items (``key:value``, each value a Python literal it evaluates).

    >>> env_kwargs_argv({"board_size": 5, "opponent": "heuristic"})
    ['--env-kwargs', 'board_size:5', "opponent:'heuristic'"]
    """
    return ["--env-kwargs", *(f"{key}:{value!r}" for key, value in env_kwargs.items())] if env_kwargs else []


def zoo_argv(command: str, argv: Sequence[str]) -> list[str]:
    """rl-zoo3's arguments for ``command``: this module's defaults (see the module), then ``argv``.

    Raises:
        ValueError: ``command`` is not one of :data:`COMMANDS`, or a hyperparameter search of ``ppo_mask`` (rl-zoo3's
            search samples a policy of its own, without this file's features extractor: not supported).
    """
    if command not in COMMANDS:
        raise ValueError(f"command must be one of {list(COMMANDS)}, got {command!r}")
    given = _last_values(argv)
    defaults = ["--algo", ALGO, "--gym-packages", "boardenvs"]
    if command == "train" and (given.algo or ALGO) == ALGO and given.optimize_hyperparameters:
        raise ValueError(
            f"rl-zoo3's hyperparameter search (-optimize) is not supported for {ALGO}: its PPO sampler replaces "
            "policy_kwargs, and with them the game's features extractor"
        )
    if command == "train" and (given.algo or ALGO) == ALGO:
        conf = given.conf_file or str(HYPERPARAMS)
        defaults += ["--conf-file", conf]
        if given.env_kwargs is None and given.env is not None and conf.endswith((".yml", ".yaml")):
            defaults += env_kwargs_argv(hyperparameters(given.env, conf).get("env_kwargs") or {})
    return [*defaults, *argv]


def run(command: str, argv: Sequence[str]) -> None:
    """Register ``ppo_mask`` and run rl-zoo3's ``train`` or ``enjoy`` on :func:`zoo_argv` (``sys.argv`` is set to
    it for the call: rl-zoo3 parses ``sys.argv``)."""
    arguments = zoo_argv(command, argv)
    import boardenvs  # noqa: F401  (registers the envs)

    register()
    if command == "train":
        from rl_zoo3.train import train as entry
    else:
        from rl_zoo3.enjoy import enjoy as entry
    saved = sys.argv
    sys.argv = [f"rl_zoo3 {command}", *arguments]
    try:
        entry()
    finally:
        sys.argv = saved


__all__ = [
    "ALGO",
    "COMMANDS",
    "HYPERPARAMS",
    "NAMED_CLASSES",
    "ZooMaskedPPO",
    "env_kwargs_argv",
    "hyperparameters",
    "register",
    "resolve_names",
    "run",
    "zoo_argv",
]
