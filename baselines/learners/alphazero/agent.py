"""A trained AlphaZero checkpoint as an agent: the training's root search guided by the network."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from baselines.agent import BaseAgent, SeedLike
from baselines.learners.alphazero.evaluator import NetworkEvaluator
from baselines.learners.alphazero.network import PolicyValueNet, check_matches, load_checkpoint
from baselines.learners.alphazero.pretrained import PRETRAINED, pretrained_checkpoint
from baselines.params import choice_param
from baselines.search.mcts import MCTSAgent
from boardenvs.core import Game

SELECTIONS = ("auto", "gumbel", "puct")


class AlphaZeroAgent(BaseAgent):
    """Plays the move of a search guided by a checkpoint of :mod:`baselines.learners.alphazero`.

    ``make_agent("alphazero:checkpoint=runs/az/best.pt:simulations=100", game_name)`` builds one;
    ``make_agent("alphazero:pretrained", game_name)`` plays the network shipped with the package for the game's
    config (:mod:`.pretrained`). A checkpoint file is loaded at construction, a pretrained one at the first
    ``act``; either way the first ``act`` checks that it was trained for the game and config played.

    Args:
        seed: the agent's seed.
        name: display name (default ``"alphazero"``).
        checkpoint: path of a ``.pt`` file written by :class:`AlphaZeroTrainer`, or ``"pretrained"`` (required).
        simulations: simulations per move, >= 1.
        selection: ``"gumbel"``, ``"puct"`` or ``"auto"`` (the search the network was trained with).
        exploration: the PUCT constant, >= 0.
        batch_size: leaves valued per forward pass, >= 1.
        determinizations: hidden-information games: views sampled per move, >= 1.
        temperature: PUCT: 0 plays the most visited move; > 0 samples from the visit counts.
        device: where the network runs: ``"cpu"``, ``"cuda"`` or ``"auto"``.
    """

    name = "alphazero"

    def __init__(
        self,
        seed: SeedLike = None,
        name: str | None = None,
        *,
        checkpoint: str | Path | None = None,
        simulations: int = 100,
        selection: str = "auto",
        exploration: float = 1.0,
        batch_size: int = 8,
        determinizations: int = 4,
        temperature: float = 0.0,
        device: str = "cpu",
    ) -> None:
        super().__init__(seed, name)
        if checkpoint is None:
            raise ValueError(
                "agent 'alphazero' needs checkpoint=<path to a .pt file written by the trainer> or 'pretrained'"
            )
        self.checkpoint, self.device = checkpoint, device
        self.selection = choice_param("selection", selection, SELECTIONS)
        self.options = {"simulations": simulations, "exploration": exploration, "batch_size": batch_size,
                        "determinizations": determinizations, "temperature": temperature}  # fmt: skip
        self.search: MCTSAgent | None = None
        self.metadata: dict[str, Any] = {}
        self._checked: Game | None = None
        if str(checkpoint) != PRETRAINED:
            self._build(*load_checkpoint(checkpoint, device=device))

    def _build(self, net: PolicyValueNet, metadata: dict[str, Any]) -> None:
        """The search around ``net`` (its settings checked now, so a bad one fails at construction)."""
        self.net, self.metadata = net, metadata
        selection = self.selection
        if selection == "auto":
            selection = metadata.get("extra", {}).get("settings", {}).get("selfplay", {}).get("search", "puct")
        options = dict(self.options)
        if selection == "gumbel":
            options["reuse_tree"] = False
            if options["temperature"]:
                raise ValueError("temperature applies to selection='puct'; a Gumbel search samples by its noise")
            del options["temperature"]
        evaluator = NetworkEvaluator(net)
        self.search = MCTSAgent(self.rng, self.name, evaluator=evaluator, selection=selection, **options)

    def reseed(self, seed: int) -> None:
        super().reseed(seed)
        if self.search is not None:
            self.search.reseed(seed)

    def act(self, game: Game, view: Any, player: int) -> int:
        if self._checked is not game:
            self._check(game)
        assert self.search is not None
        return self.search.act(game, view, player)

    def _check(self, game: Game) -> None:
        if self.search is None:
            self._build(*load_checkpoint(pretrained_checkpoint(game), game, device=self.device))
        check_matches(str(self.checkpoint), self.metadata, game, who=self.name)
        self._checked = game
