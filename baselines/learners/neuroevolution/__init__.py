"""The neuro-evolution agent of seed 000 (Gravitas, §3.3): a card-preference network evolved by simplified FS-NEAT.

An evolution run (its folder, resume, generation log and plot) is :func:`.runs.run`.

**The network** scores the cards of the hand; the agent commits the card with the highest preference.

* Inputs (``NUM_INPUTS`` = 24, raw numbers as in the seed): for each of the 6 hand slots (the hand in
  resolution order, empty slots 0) the card's play order 1..26, power 1..10 and type 1..3 (normal,
  repulsor, tractor); the agent's own tile (the "special" input that is always the same ship); the tiles
  of the other players' ships relative to it (``other - own``, in turn order after the agent, 0 when the
  game has fewer players); the hulks' tiles relative to it (0 when absent).
* Nodes: ``add``, ``subtract`` or ``multiply`` of two earlier nodes (inputs or nodes), weight 1 on every
  connection as in the seed; nodes only read nodes before them, so the network is feed-forward.
* Outputs: one node per hand slot (``NUM_OUTPUTS`` = 6); its value is the preference of that slot's card.
  Ties go to the earlier card, a non-number to the lowest preference.

**Mutation** (one per child): pick an output, then, with equal chances,

* *add*: a new node with a random operation reads the output's node and a random earlier node (in random
  order) and becomes the output;
* *delete*: if the output is an input, it moves to another input; else one node of the output's input tree
  (the output node included) is picked: the output node hands the output to a random input; an input node
  is replaced by other random inputs wherever it is read (it stays available); a hidden node is replaced
  wherever it is read by one of its own arguments, then removed.

Nodes that no output reads any more are dropped. The initial network wires each output to a random input
(FS-NEAT's sparse start: "a player position may directly be a preference for a card").

**Evolution** (:func:`evolve`, the seed's final method): each generation the parent and its mutated
children play the same ``runs`` pre-seeded games against random agents that never use the Emergency Stop
(same deals, same opponents' choices, same seats: only the networks differ). A candidate's score is
``s = w + d / t``: ``w`` its wins, ``d`` its mean final tile, ``t`` = 54 tiles. The best candidate becomes
the parent (a child wins ties, so neutral mutations can drift). ``runs`` starts at 20 and grows by 2 each
generation whose best candidate wins more than half its games.

**The agent** drafts uniformly at random and never uses the Emergency Stop, as in the seed (only the
card-pick phase is learned, and ES was banned for it). Evolved networks ship with the package
(``models/gravwell_neuro_*.json`` in this package, one per ``inert_tractors`` setting), written by
``python -m scripts.evolve_gravwell``; ``make_agent("neuroevolution", "gravwell")`` plays them.

The modules: :mod:`.network` (:class:`Network`, its inputs), :mod:`.mutation` (:func:`mutate`), :mod:`.files`
(saved and shipped networks), :mod:`.agent` (:class:`NeuroevolutionAgent`), :mod:`.training` (:func:`evolve`),
:mod:`.history` (a run's ``history.csv`` and resuming).
"""

from baselines.factory import register_agent
from baselines.learners.neuroevolution.agent import SHIPPED, NeuroevolutionAgent
from baselines.learners.neuroevolution.files import (
    MODELS_DIR,
    SHIPPED_NETWORKS,
    load_network,
    load_saved_network,
    network_from_bytes,
    save_network,
    shipped_network,
)
from baselines.learners.neuroevolution.history import (
    HISTORY_COLUMNS,
    HISTORY_FILE,
    NETWORK_FILE,
    history_text,
    read_history,
    resume_evolution,
    training_record,
    write_history,
)
from baselines.learners.neuroevolution.mutation import mutate
from baselines.learners.neuroevolution.network import (
    NUM_INPUTS,
    NUM_OUTPUTS,
    OPERATIONS,
    Network,
    input_names,
    network_inputs,
)
from baselines.learners.neuroevolution.training import EvolutionSettings, Generation, evolve, score_network
from boardenvs.registry import register_opponent

__all__ = [
    "HISTORY_COLUMNS",
    "HISTORY_FILE",
    "MODELS_DIR",
    "NETWORK_FILE",
    "NUM_INPUTS",
    "NUM_OUTPUTS",
    "OPERATIONS",
    "SHIPPED",
    "SHIPPED_NETWORKS",
    "EvolutionSettings",
    "Generation",
    "Network",
    "NeuroevolutionAgent",
    "evolve",
    "history_text",
    "input_names",
    "load_network",
    "load_saved_network",
    "mutate",
    "network_from_bytes",
    "network_inputs",
    "read_history",
    "resume_evolution",
    "save_network",
    "score_network",
    "shipped_network",
    "training_record",
    "write_history",
]

register_agent("neuroevolution", NeuroevolutionAgent, games=("gravwell",))
register_opponent("gravwell", "neuroevolution", NeuroevolutionAgent)
