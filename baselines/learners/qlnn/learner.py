"""How QLNN learns from its decisions (:class:`QLNNLearner`, thesis eq. 2.2) and one training game.

At each decision of the learner, the desired output vector is the network's output with only the played action's
value replaced: by the final return when the game ended before the learner's next turn, else by
``r + γ max_{a' legal} Q(s', a')`` where the learner is on the move again. Online (one SGD step per decision), or
through a replay buffer and a target network; ``r`` is the potential-based shaping, if any.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from baselines.agent import Agent
from baselines.learners.qlnn.network import QNetwork, observation_vector, torch_module
from baselines.learners.tabular_q.policy import greedy_action
from boardenvs.core import Game


def potential(game: Game, state: Any, player: int) -> float:
    """Φ = (opponents' best distance - own distance) / cells; 0 for games without ``distance_to_goal``."""
    distance = getattr(game, "distance_to_goal", None)
    if distance is None:
        return 0.0
    others = [distance(state, other) for other in range(game.spec.num_players) if other != player]
    cells = game.config.board_size**2
    return (min(others) - distance(state, player)) / cells


@dataclass
class Transition:
    """One decision of the learner waiting for (or given) its target."""

    observation: np.ndarray
    action: int
    reward: float = 0.0
    next_observation: np.ndarray | None = None
    next_legal: np.ndarray | None = None


class QLNNLearner:
    """Applies the thesis' target to the learner's decisions (online, or through replay and a target network)."""

    def __init__(self, network: QNetwork, rng: np.random.Generator) -> None:
        torch = torch_module()
        self.network, self.rng = network, rng
        settings = network.settings
        parameters = network.module.parameters()
        optimizer = torch.optim.Adam if settings.optimizer == "adam" else torch.optim.SGD
        self.optimizer = optimizer(parameters, lr=settings.learning_rate)
        self.target = copy.deepcopy(network.module) if settings.target_sync else None
        self.buffer: list[Transition] = []
        self.updates = 0
        self.played: set[int] = set()
        """Every action the learner played (the only output rows the thesis' target moves)."""

    def record(self, transition: Transition) -> None:
        """A finished transition: learn from it (online) or store it and learn from a mini-batch (replay)."""
        self.played.add(transition.action)
        settings = self.network.settings
        if not settings.replay:
            self.learn([transition])
            return
        if len(self.buffer) >= settings.replay:
            self.buffer[int(self.rng.integers(len(self.buffer)))] = transition
        else:
            self.buffer.append(transition)
        if len(self.buffer) >= settings.batch_size:
            picks = self.rng.choice(len(self.buffer), settings.batch_size, replace=False)
            self.learn([self.buffer[int(i)] for i in picks])

    def targets(self, batch: Sequence[Transition]) -> Any:
        """``r`` (terminal, return included) or ``r + γ max_{legal} Q(s')`` per transition."""
        torch = torch_module()
        module = self.target if self.target is not None else self.network.module
        result = torch.tensor([t.reward for t in batch], dtype=torch.float32)
        live = [i for i, t in enumerate(batch) if t.next_observation is not None]
        if live:
            with torch.no_grad():
                values = module(torch.from_numpy(np.stack([batch[i].next_observation for i in live])))
            for row, i in enumerate(live):
                best = values[row, torch.from_numpy(batch[i].next_legal)].max()
                result[i] += self.network.settings.discount * best
        return result

    def learn(self, batch: Sequence[Transition]) -> None:
        """One gradient step on the squared error of the played actions' outputs."""
        torch = torch_module()
        targets = self.targets(batch)
        observations = torch.from_numpy(np.stack([t.observation for t in batch]))
        actions = torch.tensor([t.action for t in batch])
        outputs = self.network.module(observations).gather(1, actions[:, None])[:, 0]
        loss = ((outputs - targets) ** 2).mean()
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        self.updates += 1
        sync = self.network.settings.target_sync
        if self.target is not None and self.updates % sync == 0:
            self.target.load_state_dict(self.network.module.state_dict())


def play_training_episode(
    game: Game, learner: QLNNLearner, seat: int, opponents: Sequence[Agent], epsilon: float, rng: np.random.Generator
) -> np.ndarray:
    """One game with the learner in ``seat``; returns the final returns."""
    settings = learner.network.settings
    state = game.initial_state(rng)
    pending: Transition | None = None
    pending_potential = 0.0
    while not game.is_terminal(state):
        player = state.current_player
        view = game.determinize(state, player, rng)
        if player != seat:
            state = game.apply(state, opponents[player].act(game, view, player))
            continue
        observation = observation_vector(game, view, player)
        legal = np.asarray(game.legal_actions(view))
        now_potential = potential(game, view, seat) if settings.shaping else 0.0
        if pending is not None:
            pending.reward = settings.shaping * (settings.discount * now_potential - pending_potential)
            pending.next_observation, pending.next_legal = observation, legal
            learner.record(pending)
        if epsilon > 0.0 and learner.rng.random() < epsilon:
            action = int(legal[learner.rng.integers(len(legal))])
        else:
            action = greedy_action(learner.network.values(observation), legal, learner.rng)
        pending, pending_potential = Transition(observation, action), now_potential
        state = game.apply(state, action)
    returns = game.returns(state)
    if pending is not None:
        pending.reward = float(returns[seat]) - settings.shaping * pending_potential
        learner.record(pending)
    return returns
