"""The settings of one SB3 training run (``scripts/train_sb3.py``'s options, one field each)."""

from __future__ import annotations

from dataclasses import dataclass, field

from baselines.learners.evaluation import AUTO


@dataclass
class SB3Settings:
    """One SB3 training run of :func:`train` (the fields are ``scripts/train_sb3.py``'s options)."""

    game: str = "quoridor"
    """Game name (see boardenvs.list_games())."""
    config: list[str] = field(default_factory=list)
    """Game config as key=value pairs, e.g. board_size=5 num_players=4 (with --resume: the model's by default)."""
    algo: str = "ppo"
    """Algorithm: ppo (MaskablePPO) or dqn (masked DQN)."""
    opponents: str = "random"
    """Comma-separated training opponents, one drawn per episode: random, the game's scripted agents
    (Quoridor: path, heuristic), selfplay (snapshots of the learner)."""
    steps: int = 100_000
    """Environment steps to train (on --resume: steps to add to where the run, or its killed continuation,
    started; rerunning a killed command finishes the same target)."""
    seed: int = 0
    """Seed of the model, the envs and the evaluation games."""
    n_envs: int = 4
    """Number of parallel training envs."""
    vec: str = "dummy"
    """Vectorised env: dummy (one process) or subproc (one worker process per env)."""
    eval_every: int = 10_000
    """Evaluate (and save latest.zip) every this many steps."""
    eval_games: int = 100
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
    learning_rate: float = 0.0
    """Learning rate; 0: the algorithm's default (PPO 3e-4, DQN 1e-4)."""
    batch_size: int = 0
    """Minibatch size; 0: the algorithm's default (PPO 128, DQN 64)."""
    gamma: float = 0.99
    """Discount factor."""
    shaping: float = 0.0
    """Weight of potential-based reward shaping from the game's heuristic value (baselines.learners.shaping): each
    step adds shaping * (gamma * phi(next) - phi(now)); 0: off, the reward is the game's return alone."""
    teacher: str = ""
    """PPO: an agent of the game (make_agent name, e.g. greedy) whose moves the policy imitates before
    reinforcement learning (behaviour cloning, baselines.learners.sb3.imitation); empty: none. A resumed run has
    it already and skips it. Fine-tune gently (e.g. learning_rate 3e-5, ent_coef 0): at PPO's defaults the first
    updates undid the clone in the benchmark (docs/results/benchmark.md)."""
    teacher_steps: int = 50_000
    """PPO with a teacher: the teacher's decisions recorded in the training env (not counted in steps)."""
    teacher_epochs: int = 20
    """PPO with a teacher: passes of behaviour cloning over its decisions."""
    n_steps: int = 256
    """PPO: rollout steps per env between updates."""
    n_epochs: int = 10
    """PPO: optimisation epochs per rollout."""
    ent_coef: float = 0.01
    """PPO: entropy bonus."""
    buffer_size: int = 50_000
    """DQN: replay buffer size."""
    learning_starts: int = 1_000
    """DQN: steps of random legal play before learning."""
    exploration_fraction: float = 0.3
    """DQN: fraction of the run over which epsilon decays."""
    exploration_final_eps: float = 0.05
    """DQN: final epsilon."""
    target_update_interval: int = 1_000
    """DQN: steps between target-network updates."""
    snapshot_every: int = 10_000
    """Self-play: save a snapshot of the learner every this many steps."""
    snapshot_share: float = 0.5
    """Self-play: probability that an episode's opponent is a snapshot (once one exists)."""
    latest_share: float = 0.5
    """Self-play: probability that a drawn snapshot is the latest one."""


__all__ = ["SB3Settings"]
