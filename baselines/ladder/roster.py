"""Who stands on each game's ladder, at which stated budget, on which config.

Every ladder plays the game's benchmark config (:mod:`baselines.benchmark.table`: 2 players, the configs the
shipped models were trained for) so that every shipped model can stand on it. A roster entry is a label and the
agent spec it stands for; the budgets are part of the spec (``mcts:simulations=200``), so a rating always names
the budget it was measured at. ``random`` is the anchor (rating 0) of every ladder.

Left off, and why: tabular Q (its tables key raw observations and learn only the small configs it is benchmarked
on, 3x3 boards, not the ladder's); ``dqn:pretrained`` (no DQN model is shipped); RLlib (no module is shipped).
"""

from __future__ import annotations

from dataclasses import dataclass

from baselines.benchmark.table import BATTLE_SHEEP, GRAVWELL, NODE_CONQUEST, QUORIDOR, SPLENDOR

ANCHOR = "random"
"""The agent rated 0 on every ladder."""
CONFIGS: dict[str, tuple[str, ...]] = {
    "quoridor": QUORIDOR,
    "splendor": SPLENDOR,
    "gravwell": GRAVWELL,
    "battle_sheep": BATTLE_SHEEP,
    "node_conquest": NODE_CONQUEST,
}
"""Each ladder's game config (``key=value``): the benchmark's."""

SEARCH = {
    "mcts-50": "mcts:simulations=50:evaluator=heuristic",
    "mcts-200": "mcts:simulations=200:evaluator=heuristic",
    "mcts-800": "mcts:simulations=800:evaluator=heuristic",
    "rhea": "rhea",
    "alphazero-16": "alphazero:pretrained:simulations=16",
    "alphazero-64": "alphazero:pretrained:simulations=64",
    "ppo": "ppo:pretrained",
}
"""The entries of every ladder: MCTS valuing its leaves with the game's heuristic at three budgets, RHEA at the
paper's 1,000 simulated actions, the shipped AlphaZero network at two simulation counts and the shipped PPO model."""
ROLLOUT = {"mcts-rollout-200": "mcts:simulations=200"}
"""MCTS with random rollouts to the end of the game: Quoridor 5x5 and Battle Sheep 6x6 (1-2 s a game against random),
Gravwell, Splendor and node conquest since their playouts are compiled (a few seconds a game, from 17-80 s in Python;
Gravwell's ladder got it after its first two rounds were played, so its pairs of those rounds are played when the
ladder is next extended)."""
TWO_PLAYER = {"alphabeta-2": "alphabeta:depth=2"}
"""Entries of every two-player ladder (alpha-beta on the game's heuristic value, 2 plies deep)."""
OWN: dict[str, dict[str, str]] = {
    "quoridor": {"path": "path", "heuristic": "heuristic", "qlnn": "qlnn", **ROLLOUT},
    "splendor": {
        "osla": "osla",
        "buyer": "buyer",
        "srh": "srh",
        "rmcts": "rmcts",
        "ef": "rhea:preset=ef_linear_hc",
        **ROLLOUT,
    },
    "gravwell": {
        "random_es": "random_es",
        "tree": "tree",
        "qlearning": "qlearning",
        "neuroevolution": "neuroevolution",
        **ROLLOUT,
    },
    "battle_sheep": {"evaluation": "evaluation", "minimax-2": "minimax:depth=2", "qlearning": "qlearning", **ROLLOUT},
    "node_conquest": {"greedy": "greedy", **ROLLOUT},
}
"""Each game's own agents: the papers' scripted, search and learned agents."""


@dataclass(frozen=True)
class Roster:
    """One game's ladder: its config and its entries (label -> agent spec), the anchor first."""

    game: str
    config: tuple[str, ...]
    entries: dict[str, str]

    @property
    def names(self) -> tuple[str, ...]:
        """The labels, the anchor first."""
        return tuple(self.entries)

    def only(self, labels: list[str]) -> Roster:
        """The roster cut to ``labels`` and the anchor (an unknown label is a ``ValueError`` listing the choices)."""
        unknown = [label for label in labels if label not in self.entries]
        if unknown:
            raise ValueError(f"agents: {unknown} are not on the {self.game} ladder; choices: {', '.join(self.names)}")
        kept = [ANCHOR, *(label for label in labels if label != ANCHOR)]
        return Roster(self.game, self.config, {label: self.entries[label] for label in kept})


def roster(game: str) -> Roster:
    """The ladder of ``game`` (a game without one is a ``ValueError`` listing those that have one)."""
    if game not in CONFIGS:
        raise ValueError(f"game: no ladder for {game!r}; ladders: {', '.join(CONFIGS)}")
    entries = {ANCHOR: ANCHOR, **OWN[game], **SEARCH, **TWO_PLAYER}
    return Roster(game, CONFIGS[game], entries)


__all__ = ["ANCHOR", "CONFIGS", "Roster", "roster"]
