"""Agents that learn: their training, and the trained agents that play from a file.

* :mod:`.tabular_q`: generic tabular Q-learning for every game (``make_agent("tabular_q:table=<path.npz>")``).
* :mod:`.sb3`: MaskablePPO and a masked DQN on the single-agent environment, with self-play and training runs
  (needs torch and stable-baselines3; ``make_agent("sb3:<model.zip>")``).
* :mod:`.rllib`: RLlib masked PPO with self-play, snapshots or scripted opponents (needs ray[rllib];
  ``make_agent("rllib:<run folder>")``).
* :mod:`.evaluation`: what the SB3 and RLlib trainers share: arena evaluation of the learner, ``eval.csv`` and the
  learning-curve plot.
* :mod:`.alphazero`: AlphaZero, a policy-value network searched by MCTS (needs torch;
  ``make_agent("alphazero:checkpoint=<path.pt>")``).

Gravwell's own tabular Q-learning (seed 000) is game-specific and lives in :mod:`baselines.games.gravwell`.
"""
