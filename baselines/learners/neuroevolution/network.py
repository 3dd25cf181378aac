"""The card-preference network of seed 000's neuro-evolution agent (:class:`Network`) and its inputs.

The network reads ``NUM_INPUTS`` raw numbers (the hand's cards, the own tile, the other ships and hulks relative to
it: :func:`network_inputs`), computes ``add``/``subtract``/``multiply`` nodes that read only earlier ids, and gives
one preference per hand slot.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from boardenvs.games.gravwell.cards import TYPES, VALUES

HAND_SLOTS = 6
"""The most cards a hand holds (six drafted per round)."""
MAX_OTHER_SHIPS, MAX_HULKS = 3, 2
NUM_INPUTS = 3 * HAND_SLOTS + 1 + MAX_OTHER_SHIPS + MAX_HULKS
NUM_OUTPUTS = HAND_SLOTS
OPERATIONS: dict[str, Callable[[float, float], float]] = {
    "add": lambda a, b: a + b,
    "subtract": lambda a, b: a - b,
    "multiply": lambda a, b: a * b,
}


def input_names() -> list[str]:
    """The name of every input, in order."""
    cards = [f"slot{slot}_{part}" for slot in range(HAND_SLOTS) for part in ("order", "power", "type")]
    others = [f"ship{index}_relative" for index in range(1, MAX_OTHER_SHIPS + 1)]
    hulks = [f"hulk{index}_relative" for index in range(1, MAX_HULKS + 1)]
    return [*cards, "own_tile", *others, *hulks]


def network_inputs(pos: Sequence[int], hand: Sequence[int], player: int, num_players: int) -> list[float]:
    """The ``NUM_INPUTS`` input values for ``player`` holding ``hand`` (card ids, resolution order)."""
    values = [0.0] * NUM_INPUTS
    for slot, card in enumerate(hand[:HAND_SLOTS]):
        values[3 * slot : 3 * slot + 3] = [card + 1.0, float(VALUES[card]), TYPES[card] + 1.0]
    own = pos[player]
    base = 3 * HAND_SLOTS
    values[base] = float(own)
    for index in range(1, num_players):
        values[base + index] = float(pos[(player + index) % num_players] - own)
    for index, tile in enumerate(pos[num_players:]):
        values[base + 1 + MAX_OTHER_SHIPS + index] = float(tile - own)
    return values


@dataclass(frozen=True)
class Network:
    """A feed-forward card-preference network.

    Attributes:
        nodes: the hidden nodes ``(operation, a, b)`` in evaluation order; node ``k`` has id
            ``NUM_INPUTS + k`` and reads ids ``a`` and ``b`` (inputs, or nodes before it).
        outputs: the node id of every output (``NUM_OUTPUTS`` of them).
    """

    nodes: tuple[tuple[str, int, int], ...]
    outputs: tuple[int, ...]

    def __post_init__(self) -> None:
        if len(self.outputs) != NUM_OUTPUTS:
            raise ValueError(f"outputs must hold {NUM_OUTPUTS} node ids, got {len(self.outputs)}")
        for index, (operation, *arguments) in enumerate(self.nodes):
            if operation not in OPERATIONS:
                raise ValueError(f"node {index}: operation must be one of {sorted(OPERATIONS)}, got {operation!r}")
            if not all(0 <= argument < NUM_INPUTS + index for argument in arguments):
                raise ValueError(f"node {index} reads {arguments}: ids must be below {NUM_INPUTS + index}")
        if not all(0 <= output < NUM_INPUTS + len(self.nodes) for output in self.outputs):
            raise ValueError(f"outputs {self.outputs} name ids past the network's {NUM_INPUTS + len(self.nodes)}")

    @classmethod
    def initial(cls, rng: np.random.Generator) -> Network:
        """FS-NEAT's sparse start: every output is a random input."""
        return cls((), tuple(int(value) for value in rng.integers(NUM_INPUTS, size=NUM_OUTPUTS)))

    def preferences(self, inputs: Sequence[float]) -> list[float]:
        """The value of every output for ``inputs``."""
        values = list(inputs)
        with np.errstate(all="ignore"):
            for operation, a, b in self.nodes:
                values.append(float(np.float64(OPERATIONS[operation](values[a], values[b]))))
        return [values[output] for output in self.outputs]

    def choose(self, inputs: Sequence[float], hand_size: int) -> int:
        """The hand slot (below ``hand_size``) with the highest preference; the earlier slot on ties."""
        preferences = self.preferences(inputs)[:hand_size]
        ranked = [value if value == value else -np.inf for value in preferences]  # NaN ranks last
        return int(np.argmax(ranked))

    def size(self) -> int:
        """The number of hidden nodes."""
        return len(self.nodes)

    def to_dict(self) -> dict[str, Any]:
        return {"nodes": [list(node) for node in self.nodes], "outputs": list(self.outputs)}

    @classmethod
    def from_dict(cls, data: Any) -> Network:
        """The network of a :meth:`to_dict` mapping (``ValueError`` if it is malformed: every node must be
        ``[operation name, id, id]`` and every output an id, ids being integers, not numbers of another kind)."""
        nodes, outputs = (data.get(key) if isinstance(data, dict) else None for key in ("nodes", "outputs"))
        if not isinstance(nodes, list | tuple) or not all(_is_node(node) for node in nodes):
            raise ValueError(f"not a network mapping: 'nodes' must be a list of [operation, id, id], got {nodes!r}")
        if not isinstance(outputs, list | tuple) or not all(_is_id(output) for output in outputs):
            raise ValueError(f"not a network mapping: 'outputs' must be a list of node ids, got {outputs!r}")
        return cls(tuple((op, a, b) for op, a, b in nodes), tuple(outputs))


def _is_id(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_node(node: Any) -> bool:
    return isinstance(node, list | tuple) and len(node) == 3 and isinstance(node[0], str) and all(map(_is_id, node[1:]))
