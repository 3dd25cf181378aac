"""The settings of one RLlib training run (``scripts/train_rllib.py``'s options, one field each)."""

from __future__ import annotations

from dataclasses import dataclass, field

from baselines.learners.evaluation import AUTO  # noqa: F401  (re-exported: the eval_opponents default)
from baselines.learners.runner.opponents import SELF

"""``eval_opponents`` default: random plus the game's ``heuristic`` agent if it has one."""


@dataclass
class RLlibSettings:
    """One RLlib masked-PPO run of :func:`baselines.learners.rllib.runs.train`."""

    game: str = "quoridor"
    """Game name (see boardenvs.list_games())."""
    config: list[str] = field(default_factory=list)
    """Game config as key=value pairs, e.g. board_size=5 (with --resume: the checkpoint's by default)."""
    opponents: str = SELF
    """Comma-separated table mix, one drawn per episode: self (every seat the shared trained policy), snapshot
    (the other seats a frozen snapshot of it, non-trained RLlib modules), or scripted agents by make_agent name
    (Quoridor: random, path, heuristic; they act inside the env)."""
    steps: int = 100_000
    """Env steps to train (RLlib's count; on --resume: steps to add to where the run, or its killed continuation,
    started; rerunning a killed command finishes the same target)."""
    seed: int = 0
    """Seed of the networks, the envs and the evaluation games."""
    workers: int = 0
    """RLlib env runner actors sampling in parallel; 0 samples in the driver (best on a 2-core machine)."""
    envs_per_worker: int = 16
    """Envs each env runner (or the driver) steps together, one batched forward pass for all (RLlib's per-step
    overhead dominates sampling with one env)."""
    eval_every: int = 10_000
    """Checkpoint and evaluate every this many env steps (and at the start and the end)."""
    eval_games: int = 100
    """Evaluation games per opponent (seats rotate)."""
    eval_opponents: str = AUTO
    """Comma-separated evaluation opponents (make_agent names, sb3:/rllib: models too); auto: random plus the
    game's heuristic agent if it has one."""
    out: str = ""
    """Output directory; empty: runs/<game>-rllib-<seed>."""
    resume: bool = False
    """Continue the run in --out from its newest checkpoint (eval.csv is cut back to it)."""
    force: bool = False
    """Replace a run already in the output directory (its files are deleted); without it a new run refuses a
    directory that holds one."""
    progress: bool = True
    """Show a progress bar (--no-progress turns it off)."""
    keep_checkpoints: int = 3
    """Keep the newest this many checkpoints (0: keep every one)."""
    snapshot_every: int = 10_000
    """With snapshot opponents: copy the learner into the oldest snapshot slot every this many env steps."""
    snapshot_slots: int = 4
    """With snapshot opponents: frozen snapshot modules (the newest snapshots; all start as the initial learner)."""
    conv_channels: list[int] = field(default_factory=list)
    """Model: output channels of the 3x3 convolutions over board planes, e.g. 32 64; empty: boardenvs.rllib's
    small default (16 32)."""
    hidden: list[int] = field(default_factory=list)
    """Model: hidden layer widths of the policy and value heads (after the CNN; for vector observations the MLP),
    e.g. 256 128; empty: boardenvs.rllib's default (64; vectors 64 64)."""
    share_layers: bool = True
    """Model: the policy and value heads share one encoder, as SB3's shared features extractor (--no-share-layers:
    one encoder each, RLlib's PPO default)."""
    train_batch_size: int = 1_024
    """PPO: env steps per training iteration."""
    minibatch_size: int = 128
    """PPO: SGD minibatch size."""
    num_epochs: int = 10
    """PPO: SGD passes over each batch."""
    lr: float = 3e-4
    """PPO: learning rate."""
    gamma: float = 0.99
    """PPO: discount factor."""
    gae_lambda: float = 0.95
    """PPO: GAE lambda (RLlib's default is 1.0; 0.95 as SB3)."""
    entropy_coeff: float = 0.01
    """PPO: entropy bonus."""
    clip_param: float = 0.2
    """PPO: policy clip range."""
    vf_loss_coeff: float = 0.5
    """PPO: value loss weight."""
    kl_coeff: float = 0.0
    """PPO: initial KL penalty weight (RLlib's default 0.2); 0 turns the KL loss off, as in SB3."""
    grad_clip: float = 0.5
    """PPO: clip the gradients' global norm to this (as SB3's max_grad_norm); 0: no clipping (RLlib's default)."""


__all__ = ["AUTO", "RLlibSettings"]
