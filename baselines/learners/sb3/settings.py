"""The settings of one SB3 training run (``scripts/train_sb3.py``'s options, one field each)."""

from __future__ import annotations

from dataclasses import dataclass, field

from baselines.learners.evaluation import AUTO
from baselines.settings import COUNT, COUNT_OR_ZERO, FRACTION, Range, setting


@dataclass
class SB3Settings:
    """One SB3 training run of :func:`train` (``scripts/train_sb3.py`` parses it directly: a flag per field, whose
    ``metadata`` gives a number's range)."""

    game: str = "quoridor"
    """Game name (see boardenvs.list_games())."""
    config: list[str] = field(default_factory=list)
    """Game config as key=value pairs, e.g. board_size=5 num_players=4 (with --resume: the model's by default)."""
    algo: str = "ppo"
    """Algorithm: ppo (MaskablePPO) or dqn (masked DQN)."""
    opponents: str = "random"
    """Comma-separated training opponents, one drawn per episode: random, the game's scripted agents
    (Quoridor: path, heuristic), selfplay (snapshots of the learner)."""
    steps: int = setting(100_000, COUNT)
    """Environment steps to train (on --resume: steps to add to where the run, or its killed continuation,
    started; rerunning a killed command finishes the same target)."""
    seed: int = 0
    """Seed of the model, the envs and the evaluation games."""
    n_envs: int = setting(4, Range(1, 1024))
    """Number of parallel training envs."""
    vec: str = "dummy"
    """Vectorised env: dummy (one process) or subproc (one worker process per env)."""
    eval_every: int = setting(10_000, COUNT)
    """Evaluate (and save latest.zip) every this many steps."""
    eval_games: int = setting(100, COUNT)
    """Games per evaluation opponent (seats rotate)."""
    eval_sampled: bool = False
    """Evaluate the policy by sampling its moves (PPO: from its masked policy; DQN: epsilon-greedy) instead of
    playing its best one. A PPO policy is stochastic: on node conquest its argmax loops (0 of 100 against random)
    where its samples win most games."""
    eval_opponents: str = AUTO
    """Comma-separated evaluation opponents (make_agent names, sb3:<model.zip> too); auto: random plus the
    game's heuristic agent if it has one."""
    out: str = ""
    """Output directory; empty: runs/<game>-<algo>-<seed>, or the directory of --resume."""
    resume: str = ""
    """Run to continue: its folder or a model in it (e.g. runs/q5/model.zip); training goes on from the folder's
    newest intact checkpoint (model.zip or latest.zip) and eval.csv is cut back to it, so it keeps one history."""
    force: bool = False
    """Replace a run already in the output directory (its files are deleted); without it a new run refuses a
    directory that holds one."""
    progress: bool = True
    """Show a progress bar (--no-progress turns it off)."""
    learning_rate: float = setting(0.0, Range(0.0, 10.0))
    """Learning rate; 0: the algorithm's default (PPO 3e-4, DQN 1e-4)."""
    batch_size: int = setting(0, COUNT_OR_ZERO)
    """Minibatch size; 0: the algorithm's default (PPO 128, DQN 64)."""
    gamma: float = setting(0.99, FRACTION)
    """Discount factor."""
    shaping: float = setting(0.0, Range(0.0, 1e6))
    """Weight of potential-based reward shaping from the game's heuristic value (baselines.learners.shaping): each
    step adds shaping * (gamma * phi(next) - phi(now)); 0: off, the reward is the game's return alone."""
    teacher: str = ""
    """PPO: an agent of the game (make_agent name, e.g. greedy) whose moves the policy imitates before
    reinforcement learning (behaviour cloning, baselines.learners.sb3.imitation); empty: none. A resumed run has
    it already and skips it. Fine-tune gently (e.g. learning_rate 3e-5, ent_coef 0): at PPO's defaults the first
    updates undid the clone in the benchmark (docs/results/benchmark.md)."""
    teacher_steps: int = setting(50_000, COUNT)
    """PPO with a teacher: the teacher's decisions recorded in the training env (not counted in steps)."""
    teacher_epochs: int = setting(20, COUNT)
    """PPO with a teacher: passes of behaviour cloning over its decisions."""
    n_steps: int = setting(256, COUNT)
    """PPO: rollout steps per env between updates."""
    n_epochs: int = setting(10, COUNT)
    """PPO: optimisation epochs per rollout."""
    ent_coef: float = setting(0.01, Range(0.0, 100.0))
    """PPO: entropy bonus."""
    buffer_size: int = setting(50_000, COUNT)
    """DQN: replay buffer size."""
    learning_starts: int = setting(1_000, COUNT_OR_ZERO)
    """DQN: steps of random legal play before learning."""
    exploration_fraction: float = setting(0.3, FRACTION)
    """DQN: fraction of the run over which epsilon decays."""
    exploration_final_eps: float = setting(0.05, FRACTION)
    """DQN: final epsilon."""
    target_update_interval: int = setting(1_000, COUNT)
    """DQN: steps between target-network updates."""
    snapshot_every: int = setting(10_000, COUNT)
    """Self-play: save a snapshot of the learner every this many steps."""
    snapshot_share: float = setting(0.5, FRACTION)
    """Self-play: probability that an episode's opponent is a snapshot (once one exists)."""
    latest_share: float = setting(0.5, FRACTION)
    """Self-play: probability that a drawn snapshot is the latest one."""


__all__ = ["SB3Settings"]
