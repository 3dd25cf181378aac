"""The simplified FS-NEAT mutation of a :class:`~baselines.learners.neuroevolution.network.Network`
(:func:`mutate`): add a node in front of an output, or delete one of its input tree, unused nodes dropped."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from baselines.learners.neuroevolution.network import NUM_INPUTS, NUM_OUTPUTS, OPERATIONS, Network


def mutate(network: Network, rng: np.random.Generator) -> Network:
    """One add or delete mutation of a random output (see the module docstring), unused nodes dropped."""
    output = int(rng.integers(NUM_OUTPUTS))
    nodes, outputs = [list(node) for node in network.nodes], list(network.outputs)
    if rng.random() < 0.5:
        _add_node(nodes, outputs, output, rng)
    else:
        _delete_node(nodes, outputs, output, rng)
    return _pruned(nodes, outputs)


def _add_node(nodes: list[list[Any]], outputs: list[int], output: int, rng: np.random.Generator) -> None:
    new_id = NUM_INPUTS + len(nodes)
    other = int(rng.integers(new_id))
    arguments = [outputs[output], other] if rng.random() < 0.5 else [other, outputs[output]]
    nodes.append([str(rng.choice(list(OPERATIONS))), *arguments])
    outputs[output] = new_id


def _delete_node(nodes: list[list[Any]], outputs: list[int], output: int, rng: np.random.Generator) -> None:
    top = outputs[output]
    if top < NUM_INPUTS:
        outputs[output] = _other_input(top, rng)
        return
    tree = sorted(_input_tree(nodes, top))
    victim = int(tree[rng.integers(len(tree))])
    if victim == top:
        outputs[output] = int(rng.integers(NUM_INPUTS))
    elif victim < NUM_INPUTS:
        _replace_reads(nodes, outputs, victim, lambda: _other_input(victim, rng))
    else:
        own_arguments = nodes[victim - NUM_INPUTS][1:]
        _replace_reads(nodes, outputs, victim, lambda: int(own_arguments[rng.integers(2)]))
        nodes[victim - NUM_INPUTS] = ["add", 0, 0]  # unread from now on: dropped by _pruned


def _other_input(current: int, rng: np.random.Generator) -> int:
    choice = int(rng.integers(NUM_INPUTS - 1))
    return choice + (choice >= current)


def _input_tree(nodes: list[list[Any]], top: int) -> set[int]:
    """``top`` and every id it reads, directly or through other nodes."""
    seen, stack = set(), [top]
    while stack:
        node = stack.pop()
        if node in seen:
            continue
        seen.add(node)
        if node >= NUM_INPUTS:
            stack.extend(nodes[node - NUM_INPUTS][1:])
    return seen


def _replace_reads(nodes: list[list[Any]], outputs: list[int], old: int, new: Callable[[], int]) -> None:
    """Every read of id ``old`` (by nodes and outputs) becomes ``new()``, drawn once per read."""
    for node in nodes:
        for slot in (1, 2):
            if node[slot] == old:
                node[slot] = new()
    for index, value in enumerate(outputs):
        if value == old:
            outputs[index] = new()


def _pruned(nodes: list[list[Any]], outputs: list[int]) -> Network:
    """The network with only the nodes some output reads, renumbered in order."""
    used: set[int] = set()
    for output in outputs:
        used |= _input_tree(nodes, output)
    kept = [index for index in range(len(nodes)) if NUM_INPUTS + index in used]
    renumber = {NUM_INPUTS + old: NUM_INPUTS + new for new, old in enumerate(kept)}
    remap = lambda node_id: renumber.get(node_id, node_id)  # noqa: E731
    new_nodes = tuple((nodes[old][0], remap(nodes[old][1]), remap(nodes[old][2])) for old in kept)
    return Network(new_nodes, tuple(remap(output) for output in outputs))
