"""The optimisation step of AlphaZero: passes of Adam over the replay window, and the losses it minimises."""

from __future__ import annotations

import numpy as np
import torch

from baselines.learners.alphazero.network import PolicyValueNet, masked_log_softmax
from baselines.learners.alphazero.runfiles import EXAMPLE_FIELDS
from baselines.learners.alphazero.selfplay import Example
from baselines.learners.alphazero.settings import AlphaZeroSettings


def mean_log_legal(examples: list[Example]) -> float:
    """Mean ``ln(legal moves)`` of the examples: the policy loss of a uniform policy, the bar to get under."""
    if not examples:
        return 0.0
    return float(np.mean([np.log(max(1, int(example.mask.sum()))) for example in examples]))


def train_network(
    net: PolicyValueNet,
    optimizer: torch.optim.Optimizer,
    examples: list[Example],
    settings: AlphaZeroSettings,
    seed: int,
) -> dict[str, float]:
    """``settings.epochs`` passes of ``optimizer`` over ``examples`` in shuffled batches; the mean losses of the
    last pass (``policy_loss``, ``value_loss``, ``score_loss``)."""
    generator = torch.Generator().manual_seed(seed)
    device = net.device
    tensors = [
        torch.as_tensor(np.stack([getattr(example, name) for example in examples])).to(device)
        for name in EXAMPLE_FIELDS
    ]
    tensors = [t.float() if t.dtype != torch.bool else t for t in tensors]
    batch_norm = any(isinstance(module, torch.nn.BatchNorm2d) for module in net.modules())
    net.train()
    means = {"policy_loss": 0.0, "value_loss": 0.0, "score_loss": 0.0}
    for _ in range(settings.epochs):
        order = torch.randperm(len(examples), generator=generator).to(device)
        sums, batches = np.zeros(3), 0
        for start in range(0, len(examples), settings.batch_size):
            batch = order[start : start + settings.batch_size]
            if len(batch) < 2 and batch_norm:
                continue  # batch norm cannot train on a single example
            losses = losses_of(net, *(tensor[batch] for tensor in tensors))
            optimizer.zero_grad()
            (losses[0] + losses[1] + settings.score_weight * losses[2]).backward()
            optimizer.step()
            sums += [loss.item() for loss in losses]
            batches += 1
        means = dict(zip(means, (sums / max(1, batches)).tolist()))
    net.eval()
    return means


def losses_of(
    net: PolicyValueNet,
    observations: torch.Tensor,
    masks: torch.Tensor,
    policies: torch.Tensor,
    values: torch.Tensor,
    scores: torch.Tensor | None = None,
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """(policy cross-entropy against the policy targets, value mean squared error over the seats, score-margin
    mean squared error over the seats; 0 without ``scores``)."""
    logits, predicted, predicted_scores = net.heads(observations)
    log_policy = torch.where(masks, masked_log_softmax(logits, masks), torch.zeros_like(logits))
    policy_loss = -(policies * log_policy).sum(dim=1).mean()
    value_loss = ((predicted - values) ** 2).mean()
    score_loss = ((predicted_scores - scores) ** 2).mean() if scores is not None else torch.zeros(())
    return policy_loss, value_loss, score_loss


__all__ = ["losses_of", "mean_log_legal", "train_network"]
