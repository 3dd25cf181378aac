"""The MCTS leaf evaluator of AlphaZero: one batched forward pass per batch of leaves."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any

import numpy as np
import torch

from baselines.learners.alphazero.network import PolicyValueNet, masked_log_softmax
from baselines.search.evaluators import Evaluator
from boardenvs.core import Game


class NetworkEvaluator(Evaluator):
    """Priors and values of a :class:`PolicyValueNet` for :class:`baselines.search.mcts.MCTSAgent` (PUCT).

    A leaf is read from the seat to move: ``game.observe(state, mover)``; the priors are the masked softmax
    of the policy head, the values the value head turned back from the mover's seat order to seat ids.
    Use ``MCTSAgent(..., batch_size=k)`` to value ``k`` leaves per forward pass; they run on the network's
    device (a GPU when the network was moved there).
    """

    name = "network"

    def __init__(self, net: PolicyValueNet) -> None:
        self.net = net.eval()

    def check(self, game: Game) -> None:
        spec = game.spec
        sizes = (self.net.observation_shape, self.net.num_actions, self.net.num_players)
        if sizes != (spec.observation_shape, spec.num_actions, spec.num_players):
            raise ValueError(
                f"the network's observation/action/player sizes {sizes} do not fit {spec.name} "
                f"{(spec.observation_shape, spec.num_actions, spec.num_players)}"
            )

    def evaluate(self, game: Game, state: Any) -> tuple[np.ndarray, np.ndarray | None]:
        return self.evaluate_batch(game, [state])[0]

    def evaluate_batch(self, game: Game, states: Sequence[Any]) -> list[tuple[np.ndarray, np.ndarray | None]]:
        movers = [int(state.current_player) for state in states]
        observations = np.stack([game.observe(state, mover) for state, mover in zip(states, movers)])
        masks = np.stack([np.asarray(game.legal_action_mask(state), dtype=bool) for state in states])
        device = self.net.device
        with torch.inference_mode():
            logits, values = self.net(network_input(observations, device))
            priors = masked_log_softmax(logits, torch.as_tensor(masks, device=device)).exp().cpu().numpy()
        values = values.cpu().numpy().astype(np.float64)
        return [(seat_values(row, mover), prior) for row, mover, prior in zip(values, movers, priors)]


def network_input(observations: np.ndarray, device: torch.device) -> torch.Tensor:
    """``observations`` as the network's float32 input on ``device``; a batch of planes ``(B, C, H, W)`` with
    ``B > 1`` goes in channels-last memory order, which the CPU's convolutions run 1.2-1.9x faster from batch 8 up
    (``docs/results/alphazero.md``; the same values to about 1e-7)."""
    tensor = torch.as_tensor(observations, dtype=torch.float32, device=device)
    if tensor.dim() == 4 and tensor.shape[0] > 1:
        tensor = tensor.contiguous(memory_format=torch.channels_last)
    return tensor


def seat_values(relative: np.ndarray, observer: int) -> np.ndarray:
    """Values in the observer's seat order (entry ``k`` = seat ``observer + k``) indexed by seat id: ``np.roll(relative,
    observer)`` of a row, by one gather (``np.roll`` costs about ten times more, once per leaf)."""
    return relative[_rolled(len(relative), observer)]


def relative_values(values: np.ndarray, observer: int) -> np.ndarray:
    """Values indexed by seat id in the observer's seat order (the inverse of :func:`seat_values`)."""
    return values[_rolled(len(values), -observer)]


@cache
def _rolled(size: int, shift: int) -> np.ndarray:
    """The indices that read a row of ``size`` as ``np.roll(row, shift)``: entry ``i`` comes from ``i - shift``."""
    indices = (np.arange(size) - shift) % size
    indices.setflags(write=False)
    return indices
