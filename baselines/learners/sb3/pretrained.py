"""The SB3 models shipped with the package, one per algorithm and game config they were trained for.

``make_agent("ppo:pretrained", game_name)`` (and ``"dqn:pretrained"``) plays the model whose algorithm, game and
exact config are those of the game it is asked to play; another config is refused with a ``ValueError`` naming the
configs that have one. The files live in ``baselines/learners/sb3/models/``: each model in the safe format
(:mod:`baselines.learners.sb3.safe`: its tensors in ``<name>.pt``, read with ``torch.load(weights_only=True)``, and
its ``<name>.json`` card describing the network, from which the policy is rebuilt; nothing is unpickled) and
``index.json``, which records its game, config, algorithm, the command that trained it and where its results are
written up (a :class:`baselines.pretrained.Shelf`, whose index is checked). :func:`ship` adds a model from a run's
safe files (``python -m scripts.learner_benchmark --budget full --ship`` ships each game's best PPO model of the
benchmark; a model saved only as an SB3 zip is converted first with ``python -m scripts.convert_sb3``).

Like ``alphazero:pretrained``, the agent is built without its game's config (``make_agent`` knows only the game's
name) and loads the model at its first ``act``, from the config of the game it plays (and again whenever it is
given another game).

The model itself, for SB3 code (``evaluate_policy``, your own loop), is :func:`load_pretrained`.

Example:
    >>> agent = make_agent("ppo:pretrained", "quoridor")  # doctest: +SKIP
    >>> game = make_game("quoridor", board_size=5)  # the config it was trained for  # doctest: +SKIP
    >>> play_game(game, [agent, make_agent("random", "quoridor")], seed=0)  # doctest: +SKIP
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from baselines.agent import BaseAgent, SeedLike
from baselines.learners.sb3.agent import SB3Agent
from baselines.learners.sb3.loading import load_model
from baselines.learners.sb3.model_card import ModelCard, read_model_card, read_safe_card
from baselines.learners.sb3.model_files import description_path, weights_path
from baselines.learners.sb3.policy_model import PolicyModel
from baselines.pretrained import Shelf
from boardenvs.core import Game

PRETRAINED = "pretrained"
"""The ``model`` value of the ``ppo``/``dqn`` agents that picks a shipped model."""
MODELS_DIR = Path(__file__).resolve().parent / "models"
"""Where the shipped SB3 models are (read when an agent or a function is given no folder)."""


def shelf(algo: str = "ppo", models_dir: str | Path | None = None) -> Shelf:
    """The shelf of shipped SB3 models in ``models_dir`` (default :data:`MODELS_DIR`), with ``algo``'s label."""
    return Shelf(Path(models_dir) if models_dir is not None else MODELS_DIR, f"{algo}:{PRETRAINED}", "model")


def shipped(models_dir: str | Path | None = None) -> list[dict[str, Any]]:
    """The index entries: ``file``, ``game``, ``config``, ``algo``, ``command``, ``notes``."""
    return shelf(models_dir=models_dir).entries()


def pretrained_model(game: Game, algo: str = "ppo", models_dir: str | Path | None = None) -> Path:
    """The shipped ``algo`` model trained for ``game``'s name and exact config.

    Raises:
        ValueError: none is shipped for that config; the message names the configs that have one.
    """
    return shelf(algo, models_dir).find(game, {"algo": algo})


def load_pretrained(
    game: Game, algo: str = "ppo", models_dir: str | Path | None = None, device: str = "cpu"
) -> tuple[PolicyModel, ModelCard]:
    """The shipped ``algo`` model for ``game``'s config as an SB3-style model, and its card.

    The model (a :class:`~baselines.learners.sb3.policy_model.PolicyModel`, read from the safe files: nothing is
    unpickled) has SB3's ``predict(obs, state, episode_start, deterministic, action_masks=None)`` and masks itself
    with ``obs["action_mask"]`` when given no ``action_masks``, so SB3's own ``evaluate_policy`` and sb3-contrib's
    masked one both measure its real strength on the single-agent env.

    Example:
        >>> from stable_baselines3.common.evaluation import evaluate_policy  # doctest: +SKIP
        >>> game = make_game("quoridor", board_size=5)  # doctest: +SKIP
        >>> model, card = load_pretrained(game)  # doctest: +SKIP
        >>> env = gymnasium.make("boardenvs/Quoridor-v0", board_size=5)  # doctest: +SKIP
        >>> evaluate_policy(model, env, n_eval_episodes=100)  # doctest: +SKIP

    Raises:
        ValueError: none is shipped for that config (the message names the configs that have one), or its files are
            damaged (named).
    """
    return load_model(pretrained_model(game, algo, models_dir), game, device)


def ship(model_path: str | Path, command: str, notes: str = "", models_dir: str | Path | None = None) -> Path:
    """Copy a saved model's safe files into the shelf (its ``.pt``, which holds no optimizer state, with its
    ``.json`` card) and record it in the index, replacing the entry of the same algorithm, game and config; its card
    says which. ``model_path`` names the model (its ``.pt``, ``.json``, ``.zip`` or their stem); it is loaded first,
    so a damaged model or one that does not fit its card's game is not shipped.

    Raises:
        ValueError: the model's card names no game, or its files are damaged (named).
        UnsafeModelError: the model is only an SB3 zip (convert it with ``python -m scripts.convert_sb3``).
        FileNotFoundError: no such model.
    """
    card = read_safe_card(model_path)
    if not card.game:
        raise ValueError(f"{str(description_path(model_path))!r} names no game; save the model with save_model")
    load_model(model_path)
    companions = {".json": description_path(model_path)}
    return shelf(card.algo, models_dir).ship(weights_path(model_path), card.game, card.config, command, notes,
                                             match={"algo": card.algo}, companions=companions)  # fmt: skip


def evaluated_sampled(model_path: str | Path) -> bool:
    """Whether the run that trained a saved model evaluated it by sampling its policy (its card's settings)."""
    card = read_model_card(model_path)
    return bool(card is not None and card.extra.get("args", {}).get("eval_sampled", False))


class PretrainedSB3Agent(BaseAgent):
    """Plays the shipped model of its algorithm for the config of the game it is given (see the module).

    Args:
        seed: The agent's seed (used only when ``stochastic``).
        name: Display name (default: the algorithm).
        model: ``"pretrained"`` (required; a model file is played with ``"sb3:<path/to/model.pt>"``).
        stochastic: Sample moves instead of playing the best one (see :class:`SB3Agent`); ``None`` (the default):
            play the way the model was evaluated in its run (``eval_sampled`` in its card's settings: the
            benchmark's PPO models sample their policy, see :data:`baselines.benchmark.SAMPLED_LEARNERS`).
        models_dir: The shelf's folder (default :data:`MODELS_DIR`).

    Raises:
        ValueError: ``model`` is not ``"pretrained"``; at the first ``act``, no model is shipped for the game's
            config (the message names the configs that have one).
    """

    algo = "ppo"

    def __init__(
        self,
        seed: SeedLike = None,
        name: str | None = None,
        *,
        model: str | None = None,
        stochastic: bool | None = None,
        models_dir: str | None = None,
    ) -> None:
        super().__init__(seed, name or self.algo)
        if model != PRETRAINED:
            raise ValueError(
                f"agent {self.algo!r} plays a shipped model: write '{self.algo}:{PRETRAINED}' (a model file is "
                f"played with 'sb3:<path/to/model.pt>'), got model={model!r}"
            )
        self.stochastic, self.models_dir = stochastic, models_dir
        self.agent: SB3Agent | None = None
        self._game: Game | None = None
        self._seed: int | None = None

    @property
    def illegal_predictions(self) -> int:
        """Illegal actions the model predicted (each replaced by a legal one; see :class:`SB3Agent`)."""
        return self.agent.illegal_predictions if self.agent is not None else 0

    def reseed(self, seed: int) -> None:
        super().reseed(seed)
        self._seed = seed
        if self.agent is not None:
            self.agent.reseed(seed)

    def act(self, game: Game, view: Any, player: int) -> int:
        """The shipped model's move for ``player`` (the model is loaded when the game's config changes)."""
        if self._game is not game:
            self._load(game)
        assert self.agent is not None
        return self.agent.act(game, view, player)

    def _load(self, game: Game) -> None:
        path = pretrained_model(game, self.algo, self.models_dir)
        stochastic = self.stochastic if self.stochastic is not None else evaluated_sampled(path)
        self.agent = SB3Agent.load(path, game, self.name, self.rng, stochastic, game_name=game.spec.name)
        if self._seed is not None:
            self.agent.reseed(self._seed)
        self._game = game


class PretrainedPPOAgent(PretrainedSB3Agent):
    """``make_agent("ppo:pretrained", game_name)``: the shipped MaskablePPO model of the game's config."""

    algo = "ppo"
    name = "ppo"


class PretrainedDQNAgent(PretrainedSB3Agent):
    """``make_agent("dqn:pretrained", game_name)``: the shipped masked DQN model of the game's config."""

    algo = "dqn"
    name = "dqn"


__all__ = [
    "MODELS_DIR",
    "PRETRAINED",
    "PretrainedDQNAgent",
    "PretrainedPPOAgent",
    "PretrainedSB3Agent",
    "evaluated_sampled",
    "load_pretrained",
    "pretrained_model",
    "ship",
    "shelf",
    "shipped",
]
