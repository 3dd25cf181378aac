"""The settings of one RLlib training run (``scripts/train_rllib.py``'s options, one field each)."""

from __future__ import annotations

from dataclasses import dataclass, field

from baselines.learners.evaluation import AUTO  # noqa: F401  (re-exported: the eval_opponents default)
from baselines.learners.runner.opponents import SELF
from baselines.settings import COUNT, FRACTION, Range, setting


@dataclass
class RLlibSettings:
    """One RLlib masked-PPO run of :func:`baselines.learners.rllib.runs.train` (``scripts/train_rllib.py`` parses it
    directly: a flag per field, whose ``metadata`` gives a number's range)."""

    game: str = "quoridor"
    """Game name (see boardenvs.list_games())."""
    config: list[str] = field(default_factory=list)
    """Game config as key=value pairs, e.g. board_size=5 (with --resume: the checkpoint's by default)."""
    opponents: str = SELF
    """Comma-separated table mix, one drawn per episode: self (every seat the shared trained policy), snapshot
    (the other seats a frozen snapshot of it, non-trained RLlib modules), or scripted agents by make_agent name
    (Quoridor: random, path, heuristic; they act inside the env)."""
    steps: int = setting(100_000, COUNT)
    """Env steps to train (RLlib's count; on --resume: steps to add to where the run, or its killed continuation,
    started; rerunning a killed command finishes the same target)."""
    seed: int = 0
    """Seed of the networks, the envs and the evaluation games."""
    workers: int = setting(0, Range(0, 1024))
    """RLlib env runner actors sampling in parallel; 0 samples in the driver (best on a 2-core machine)."""
    envs_per_worker: int = setting(16, Range(1, 1024))
    """Envs each env runner (or the driver) steps together, one batched forward pass for all (RLlib's per-step
    overhead dominates sampling with one env)."""
    eval_every: int = setting(10_000, COUNT)
    """Checkpoint and evaluate every this many env steps (and at the start and the end)."""
    eval_games: int = setting(100, COUNT)
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
    keep_checkpoints: int = setting(3, Range(0, 10**6))
    """Keep the newest this many checkpoints (0: keep every one)."""
    snapshot_every: int = setting(10_000, COUNT)
    """With snapshot opponents: copy the learner into the oldest snapshot slot every this many env steps."""
    snapshot_slots: int = setting(4, Range(1, 1000))
    """With snapshot opponents: frozen snapshot modules (the newest snapshots; all start as the initial learner)."""
    conv_channels: list[int] = setting(bounds=Range(1, 4096), factory=list)
    """Model: output channels of the 3x3 convolutions over board planes, e.g. 32 64; empty: the small default of
    baselines.learners.rllib.masked_ppo (16 32)."""
    hidden: list[int] = setting(bounds=Range(1, 65536), factory=list)
    """Model: hidden layer widths of the policy and value heads (after the CNN; for vector observations the MLP),
    e.g. 256 128; empty: baselines.learners.rllib.masked_ppo's default (64; vectors 64
    64)."""
    share_layers: bool = True
    """Model: the policy and value heads share one encoder, as SB3's shared features extractor (--no-share-layers:
    one encoder each, RLlib's PPO default)."""
    train_batch_size: int = setting(1_024, COUNT)
    """PPO: env steps per training iteration."""
    minibatch_size: int = setting(128, COUNT)
    """PPO: SGD minibatch size."""
    num_epochs: int = setting(10, Range(1, 10**4))
    """PPO: SGD passes over each batch."""
    lr: float = setting(3e-4, Range(0.0, 10.0, open_low=True))
    """PPO: learning rate."""
    gamma: float = setting(0.99, FRACTION)
    """PPO: discount factor."""
    gae_lambda: float = setting(0.95, FRACTION)
    """PPO: GAE lambda (RLlib's default is 1.0; 0.95 as SB3)."""
    entropy_coeff: float = setting(0.01, Range(0.0, 100.0))
    """PPO: entropy bonus."""
    clip_param: float = setting(0.2, Range(0.0, 100.0, open_low=True))
    """PPO: policy clip range."""
    vf_loss_coeff: float = setting(0.5, Range(0.0, 1e6))
    """PPO: value loss weight."""
    kl_coeff: float = setting(0.0, Range(0.0, 1e6))
    """PPO: initial KL penalty weight (RLlib's default 0.2); 0 turns the KL loss off, as in SB3."""
    grad_clip: float = setting(0.5, Range(0.0, 1e6))
    """PPO: clip the gradients' global norm to this (as SB3's max_grad_norm); 0: no clipping (RLlib's default)."""


__all__ = ["AUTO", "RLlibSettings"]
