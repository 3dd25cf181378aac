"""The neuro-evolution agent of seed 000 (Gravitas, §3.3): a card-preference network evolved by simplified FS-NEAT.

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
(``baselines/data/gravwell_neuro_*.json``, one per ``inert_tractors`` setting), written by
``python -m scripts.evolve_gravwell``; ``make_agent("neuroevolution", "gravwell")`` plays them.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, fields
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from baselines.agent import BaseAgent, SeedLike
from baselines.arena import game_seeds, play_game
from baselines.games.gravwell.agents import RandomNoStopAgent
from baselines.runs import atomic_write_text, check_digest, damaged_line, split_lines, with_digest
from boardenvs.core import Game
from boardenvs.games.gravwell import Gravwell
from boardenvs.games.gravwell.cards import TYPES, VALUES, bits_to_cards
from boardenvs.games.gravwell.rules import WARP_GATE
from boardenvs.games.gravwell.state import COMMIT, DRAFT

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
SHIPPED_NETWORKS: dict[bool, str] = {False: "gravwell_neuro_correct.json", True: "gravwell_neuro_inert.json"}
"""Package-data network per ``inert_tractors`` setting (under ``baselines/data/``)."""
SHIPPED = "shipped"
"""The ``network`` value of :class:`NeuroevolutionAgent` that picks the package's network."""


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


# -- mutation -------------------------------------------------------------------------------------
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


# -- the agent ------------------------------------------------------------------------------------
def shipped_network(inert_tractors: bool) -> Network:
    """The package's evolved network for the correct (False) or inert (True) tractors."""
    name = SHIPPED_NETWORKS[bool(inert_tractors)]
    data = (resources.files("baselines") / "data" / name).read_bytes()
    return network_from_bytes(data, f"baselines/data/{name}", require_digest=True)[0]


def load_network(path: str | Path) -> Network:
    """The network of a file written by :func:`save_network` (``FileNotFoundError``/``ValueError`` otherwise)."""
    return load_saved_network(path)[0]


def load_saved_network(path: str | Path) -> tuple[Network, dict[str, Any]]:
    """The network of a file written by :func:`save_network` and its ``training`` record.

    Raises:
        FileNotFoundError: no file at ``path``.
        ValueError: the file is not a saved network (the message names it and what is wrong).
    """
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"network: no file {str(path)!r}")
    return network_from_bytes(path.read_bytes(), repr(str(path)))


def network_from_bytes(data: bytes, source: str, require_digest: bool = False) -> tuple[Network, dict[str, Any]]:
    """The network and ``training`` record of a :func:`save_network` file's bytes (``source`` names the file in
    errors: a ``ValueError`` for anything but UTF-8 JSON whose content matches its digest, if it has one (it must
    with ``require_digest``), with a valid network, this module's inputs and a ``training`` object)."""
    try:
        payload = json.loads(data.decode("utf-8"))
    except (ValueError, RecursionError) as error:  # UnicodeDecodeError and JSONDecodeError are ValueErrors
        raise ValueError(f"network: {source} is not a saved Gravwell network (not UTF-8 JSON: {error})") from None
    if not isinstance(payload, dict) or "network" not in payload:
        raise ValueError(f"network: {source} is not a saved Gravwell network (no 'network' entry)")
    payload = check_digest(payload, f"network: {source}", require_digest)
    if payload.get("inputs", input_names()) != input_names():
        raise ValueError(f"network: {source} was saved for other inputs than {input_names()}")
    training = payload.get("training", {})
    if not isinstance(training, dict):
        raise ValueError(f"network: {source}: 'training' must be an object, got {type(training).__name__}")
    try:
        return Network.from_dict(payload["network"]), training
    except ValueError as error:
        raise ValueError(f"network: {source} is not a saved Gravwell network ({error})") from None


def save_network(network: Network, path: str | Path, training: dict[str, Any] | None = None) -> Path:
    """Write ``network`` (and how it was evolved) as JSON with the digest of that content
    (:func:`~baselines.runs.with_digest`), atomically; returns the path."""
    payload = {"network": network.to_dict(), "inputs": input_names(), "training": training or {}}
    return atomic_write_text(path, json.dumps(with_digest(payload), indent=1) + "\n")


class NeuroevolutionAgent(BaseAgent):
    """The seed's neuro-evolution agent: the network picks the card, drafting is random, no Emergency Stop.

    Args:
        seed: seeds the random drafting.
        network: a :class:`Network`, the path of a saved one, or ``"shipped"`` (default): the package's network
            for the game's ``inert_tractors`` setting, loaded when the agent first acts in such a game.
        name: the agent's name.
    """

    name = "neuroevolution"

    def __init__(self, seed: SeedLike = None, network: Network | str = SHIPPED, name: str | None = None) -> None:
        super().__init__(seed, name)
        self.shipped = isinstance(network, str) and network == SHIPPED
        self.network: Network | None = None if self.shipped else _as_network(network)
        self.loaded_for: bool | None = None

    def act(self, game: Game, view: Any, player: int) -> int:
        if view.phase == DRAFT:
            legal = game.legal_actions(view)
            return int(legal[self.rng.integers(len(legal))])
        if view.phase == COMMIT:
            hand = bits_to_cards(view.hands[player])
            slot = self._network_for(game).choose(network_inputs(view.pos, hand, player, game.n), len(hand))
            return game.play_base + hand[slot]
        return game.stop_action + 1  # decline the Emergency Stop

    def _network_for(self, game: Game) -> Network:
        if self.shipped:
            inert = bool(getattr(game.config, "inert_tractors", False))
            if self.loaded_for is not inert:
                self.network, self.loaded_for = shipped_network(inert), inert
        assert self.network is not None
        return self.network


def _as_network(network: Network | str | Path) -> Network:
    if isinstance(network, Network):
        return network
    if isinstance(network, (str, Path)):
        return load_network(network)
    raise ValueError(f"network must be a Network, a path or {SHIPPED!r}, got {network!r}")


# -- evolution ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class EvolutionSettings:
    """How :func:`evolve` runs: the seed's final method, with its numbers where it gives them (the fields are
    ``scripts/evolve_gravwell.py``'s options)."""

    generations: int = 300
    """Generations to run (>= 1)."""
    children: int = 3
    """Mutated children per generation (>= 1; 3 is the seed's four-way selection)."""
    start_runs: int = 20
    """Games per candidate in the first generation (>= 1; the seed's r = 20)."""
    runs_step: int = 2
    """Games added after a generation whose best candidate won more than half (>= 0; the seed's 2)."""
    max_runs: int = 200
    """The most games per candidate (>= start_runs)."""
    num_players: int = 4
    """Players per game: 2, 3 or 4 (the seed: 4)."""
    inert_tractors: bool = False
    """Evolve on the paper engine's preset (tractors move nothing)."""
    seed: int = 0
    """Seeds the first network, the mutations and the pre-seeded games of every generation."""

    def __post_init__(self) -> None:
        for name, low in (("generations", 1), ("children", 1), ("start_runs", 1), ("runs_step", 0)):
            value = getattr(self, name)
            if not isinstance(value, int) or value < low:
                raise ValueError(f"{name} must be an int >= {low}, got {value!r}")
        if not isinstance(self.max_runs, int) or self.max_runs < self.start_runs:
            raise ValueError(f"max_runs must be an int >= start_runs ({self.start_runs}), got {self.max_runs!r}")
        if self.num_players not in (2, 3, 4):
            raise ValueError(f"num_players must be 2, 3 or 4, got {self.num_players!r}")


@dataclass(frozen=True)
class Generation:
    """What one generation did: its games per candidate, and the chosen candidate's score, wins and size."""

    generation: int
    runs: int
    score: float
    wins: float
    mean_tile: float
    nodes: int
    child_won: bool


def score_network(game: Gravwell, network: Network, seeds: Sequence[int]) -> tuple[float, float, float]:
    """``(s, wins, mean final tile)`` of ``network`` over the games ``seeds`` against random no-ES agents.

    Game ``i`` seats the network at ``i % n``; the seeds fix the deals and every agent's random choices.
    """
    n = game.n
    hero = NeuroevolutionAgent(0, network)
    opponents = [RandomNoStopAgent(0) for _ in range(n - 1)]
    wins, tiles = 0.0, 0.0
    for index, seed in enumerate(seeds):
        seat = index % n
        seats = [*opponents[:seat], hero, *opponents[seat:]]
        record = play_game(game, seats, int(seed))
        winners = [player for player, value in enumerate(record.returns) if value > 0]
        wins += (seat in winners) / max(len(winners), 1)
        tiles += float(record.scores[seat])
    mean_tile = tiles / len(seeds)
    return wins + mean_tile / WARP_GATE, wins, mean_tile


def evolve(
    settings: EvolutionSettings,
    parent: Network | None = None,
    start: int = 0,
    runs: int | None = None,
    on_generation: Callable[[Generation, Network], None] | None = None,
) -> tuple[Network, list[Generation]]:
    """Run generations ``start .. settings.generations - 1``; returns the final parent and the history.

    Generation ``g`` draws its mutations and game seeds from ``(settings.seed, g)``, so a run resumed from
    generation ``g`` with the parent and ``runs`` it had then continues exactly. ``on_generation`` is called
    after every generation (to save progress).
    """
    game = Gravwell(num_players=settings.num_players, inert_tractors=settings.inert_tractors)
    parent = parent or Network.initial(np.random.default_rng([settings.seed, 2**31]))
    runs = settings.start_runs if runs is None else runs
    history = []
    for generation in range(start, settings.generations):
        rng = np.random.default_rng([settings.seed, generation])
        seeds = game_seeds(int(rng.integers(2**31)), runs)
        candidates = [parent, *(mutate(parent, rng) for _ in range(settings.children))]
        results = [score_network(game, candidate, seeds) for candidate in candidates]
        best = max(range(len(candidates)), key=lambda index: (results[index][0], index))
        parent = candidates[best]
        score, wins, mean_tile = (float(value) for value in results[best])
        record = Generation(generation, runs, score, wins, mean_tile, parent.size(), best > 0)
        history.append(record)
        if wins > runs / 2:
            runs = min(runs + settings.runs_step, settings.max_runs)
        if on_generation is not None:
            on_generation(record, parent)
    return parent, history


def training_record(settings: EvolutionSettings, history: Sequence[Generation]) -> dict[str, Any]:
    """What a saved network records about its evolution: the settings, the number of generations and the SHA-256
    of the ``history.csv`` text of those generations (so a resumed run can tell that file was not changed)."""
    digest = hashlib.sha256(history_text(history).encode()).hexdigest()
    return {"settings": asdict(settings), "generations": len(history), "history_sha256": digest}


# -- a run's files: history.csv and resuming ---------------------------------------------------------------
NETWORK_FILE, HISTORY_FILE = "network.json", "history.csv"
"""The files of a run's folder (``scripts/evolve_gravwell.py``) that :func:`resume_evolution` reads."""
HISTORY_COLUMNS = tuple(item.name for item in fields(Generation))
"""The columns of ``history.csv``, in :class:`Generation`'s field order."""
_CELL_KINDS: dict[str, tuple[str, Callable[[str], Any]]] = {
    "generation": ("an integer >= 0", lambda text: _count(text, 0)),
    "runs": ("an integer >= 1", lambda text: _count(text, 1)),
    "score": ("a finite number >= 0", lambda text: _finite(text, 0.0, np.inf)),
    "wins": ("a finite number >= 0", lambda text: _finite(text, 0.0, np.inf)),
    "mean_tile": (f"a finite number in [0, {WARP_GATE}]", lambda text: _finite(text, 0.0, WARP_GATE)),
    "nodes": ("an integer >= 0", lambda text: _count(text, 0)),
    "child_won": ("True or False", lambda text: {"True": True, "False": False}[text]),
}


def _count(text: str, low: int) -> int:
    if not text.isdigit() or not text.isascii() or int(text) < low:
        raise ValueError(text)
    return int(text)


def _finite(text: str, low: float, high: float) -> float:
    value = float(text)
    if not (np.isfinite(value) and low <= value <= high):
        raise ValueError(text)
    return value


def write_history(history: Sequence[Generation], path: str | Path) -> Path:
    """Write ``history`` as ``history.csv`` (a header and one row per generation), atomically; returns the path."""
    return atomic_write_text(path, history_text(history))


def history_text(history: Sequence[Generation]) -> str:
    """The text of ``history.csv`` for ``history``: the header and one row per generation, each ending in a
    newline (every value as ``str`` writes it, which reads back to the same value)."""
    lines = [",".join(HISTORY_COLUMNS)] + [",".join(str(value) for value in asdict(row).values()) for row in history]
    return "\n".join(lines) + "\n"


def read_history(path: str | Path) -> list[Generation]:
    """The generations recorded in a ``history.csv`` written by :func:`write_history` (empty if there is none).

    Every cell is checked: the header must be :data:`HISTORY_COLUMNS`, every row must have that many cells, each
    cell the number or flag its column holds (finite, in range), generations numbered 0, 1, 2, ... and each score
    ``wins + mean_tile / 54``. The file is written whole, so a last line without its newline is damage too.

    Raises:
        ValueError: the first problem found, naming the file, the line and the column.
    """
    path = Path(path)
    if not path.is_file():
        return []
    lines, tail = split_lines(path.read_bytes())
    if tail:
        raise damaged_line(path, len(lines) + 1, "cut short: no newline at its end (the file is written whole)", "row")
    if not lines or _cells(lines[0]) != list(HISTORY_COLUMNS):
        raise damaged_line(path, 1, f"the header must be {','.join(HISTORY_COLUMNS)}", "header")
    return [_history_row(path, number, line) for number, line in enumerate(lines[1:], start=2)]


def _cells(line: bytes) -> list[str] | None:
    try:
        return line.decode("utf-8").rstrip("\n").split(",")
    except UnicodeDecodeError:
        return None


def _history_row(path: Path, number: int, line: bytes) -> Generation:
    cells = _cells(line)
    if cells is None or len(cells) != len(HISTORY_COLUMNS):
        found = "bytes that are not UTF-8" if cells is None else f"{len(cells)} cells"
        raise damaged_line(path, number, f"{found}, the header has {len(HISTORY_COLUMNS)} columns", "row")
    values = {}
    for column, (name, text) in enumerate(zip(HISTORY_COLUMNS, cells), start=1):
        what, parse = _CELL_KINDS[name]
        try:
            values[name] = parse(text)
        except (KeyError, ValueError):
            raise damaged_line(path, number, f"column {column} ({name!r}) is {text!r}, not {what}", "row") from None
    problem = _row_problem(values, number - 2)
    if problem:
        raise damaged_line(path, number, problem, "row")
    return Generation(**values)


def _row_problem(values: dict[str, Any], generation: int) -> str | None:
    if values["generation"] != generation:
        return f"column 1 ('generation') is {values['generation']}, but this row holds generation {generation}"
    if values["wins"] > values["runs"]:
        return f"column 4 ('wins') is {values['wins']}, more than its {values['runs']} runs (column 2)"
    score = values["wins"] + values["mean_tile"] / WARP_GATE
    if not np.isclose(values["score"], score, rtol=1e-9, atol=1e-9):
        return f"column 3 ('score') is {values['score']}, but wins + mean_tile / {WARP_GATE} is {score}"
    return None


def resume_evolution(
    folder: str | Path, settings: EvolutionSettings, network_name: str = NETWORK_FILE, history_name: str = HISTORY_FILE
) -> tuple[list[Generation], Network | None]:
    """The history and parent network a run in ``folder`` continues from (``([], None)``: start at generation 0).

    The run writes ``history.csv`` before ``network.json`` after each generation, so a kill between the two leaves
    one history row more than the network holds: that row is dropped and its generation played again (from the
    network it started from, so the run continues exactly). A run killed before its first network starts again.

    Raises:
        ValueError: a damaged file (:func:`read_history`, :func:`load_saved_network`), files of different lengths,
            settings other than the run's (only ``generations`` may change), or games per candidate that do not
            follow the settings (each message names the file).
    """
    folder = Path(folder)
    history_path, network_path = folder / history_name, folder / network_name
    history = read_history(history_path)
    if not network_path.is_file():
        if len(history) > 1:
            raise ValueError(
                f"resume: {str(network_path)!r} is missing but {str(history_path)!r} records {len(history)} "
                "generations: the run's network is lost; pass --force to start the run again"
            )
        return [], None  # killed before its first network: generation 0 is played again
    network, training = load_saved_network(network_path)
    _check_run_settings(network_path, training, settings)
    saved = training.get("generations")
    if len(history) == saved + 1:
        history = history[:-1]  # its network was not written: that generation is played again
    if len(history) != saved:
        raise ValueError(
            f"resume: {str(network_path)!r} was saved after generation {saved} but {str(history_path)!r} records "
            f"{len(history)}: the two files are of different runs; pass --force to start the run again"
        )
    _check_runs(history_path, history, settings)
    recorded = training.get("history_sha256")
    if recorded is not None and recorded != hashlib.sha256(history_text(history).encode()).hexdigest():
        raise ValueError(
            f"resume: {str(history_path)!r} is not the history {str(network_path)!r} was saved with (a value was "
            "changed after it was written); pass --force to start the run again"
        )
    return history, (network if history else None)


def _check_run_settings(path: Path, training: dict[str, Any], settings: EvolutionSettings) -> None:
    stored, saved = training.get("settings"), training.get("generations")
    if not isinstance(stored, dict) or not isinstance(saved, int) or isinstance(saved, bool) or saved < 1:
        raise ValueError(f"resume: {str(path)!r} does not record its run's settings and generations")
    given = {key: value for key, value in asdict(settings).items() if key != "generations"}
    changed = sorted(key for key, value in given.items() if stored.get(key) != value)
    if changed:
        raise ValueError(
            f"resume: settings {changed} differ from the run's in {str(path)!r} "
            f"({ {key: stored.get(key) for key in changed} }); only generations may change when a run is resumed"
        )


def _check_runs(path: Path, history: Sequence[Generation], settings: EvolutionSettings) -> None:
    """Each generation's games per candidate must follow from the one before (the rule of :func:`evolve`)."""
    runs = settings.start_runs
    for row in history:
        if row.runs != runs:
            problem = f"column 2 ('runs') is {row.runs}, but the settings give {runs}"
            raise damaged_line(path, row.generation + 2, problem, "row")
        if row.wins > row.runs / 2:
            runs = min(runs + settings.runs_step, settings.max_runs)


__all__ = [
    "NUM_INPUTS",
    "NUM_OUTPUTS",
    "EvolutionSettings",
    "Generation",
    "Network",
    "NeuroevolutionAgent",
    "evolve",
    "input_names",
    "load_network",
    "load_saved_network",
    "read_history",
    "resume_evolution",
    "mutate",
    "network_inputs",
    "save_network",
    "score_network",
    "shipped_network",
    "write_history",
]
