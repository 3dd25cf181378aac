"""Speed benchmarks: random-play transitions per second of the forward model and of the environments.

Every engine is driven by the same loop: read the legal actions (``game.legal_actions``, as the reference
engines' speeds were measured; the "mask" row reads ``legal_action_mask`` instead), pick one uniformly
with a pre-drawn random number, apply it, start a new game when one ends. "forward model + observe" adds the
observation of the next player to move: the least any environment must do per step, so every environment row
(the AEC ``raw_env`` and ``env()``, ``gymnasium.make`` against random opponents, and ``gymnasium.make_vec`` with
two subprocess workers, which counts learner steps) is also given as a ratio to it. When ``open_spiel`` is installed,
its C++ Quoridor is measured in the same run and the ratios are printed.

    python -m scripts.bench                     # every registered game, default config
    python -m scripts.bench --games quoridor --seconds 5
    python -m scripts.bench --seconds 2 --rounds 5   # rows take turns 5 times, medians kept (a busy machine)
    python -m scripts.bench --mcts             # MCTS simulations/s on Quoridor 9x9 vs OpenSpiel's MCTSBot
    python -m scripts.bench --alphazero        # AlphaZero self-play search: batched vs one-leaf forward passes
    python -m scripts.bench --arena            # the live arena: server time of a move and a random bot's reply
    python -m scripts.bench --replay-page      # HTML replays: size, build time, stepping time in headless Chromium

``--mcts`` times one search from the initial Quoridor position with random rollouts (a fixed number of
simulations, the same UCT constant) for our ``MCTSAgent`` (its fast Quoridor playouts, and the generic
``legal_actions`` + ``apply`` playouts) and for OpenSpiel's Python ``MCTSBot`` with
``RandomRolloutEvaluator(n_rollouts=1)`` on its C++ Quoridor, interleaved, and prints the median rates and
their ratio. With ``--mcts`` the forward-model tables run only for the games named by ``--games``.

The "SVG picture" row draws the spectator's picture (``Game.render_svg``) of every position of random games; its
``us/transition`` is the time to draw one picture. The "rgb_array frame" row rasterises that picture
(``Game.render_rgb``: what ``rgb_array`` rendering and videos cost per frame) for 30 positions of random games.
``--arena`` plays every game's default config in the live arena (``baselines.web``, in process through its ASGI
app: request parsing, the move, a ``random`` bot's reply in its worker process, the seat view and its JSON) as a
person against ``random``, and prints the median milliseconds of server time per move. ``--replay-page`` writes
the HTML replay of one random game per game (``--config`` applies; node conquest with a 300-ply cap) and reports its
size, the time to build it, to open it in headless Chromium and to show every position once (the player's own
``show``, timed inside the page).

``--alphazero`` times AlphaZero's self-play search on ``--alphazero-game`` (``--config`` applies): one fresh
``PolicyValueNet`` (seeded by ``--seed``) behind one ``NetworkEvaluator``; an ``MCTSAgent`` with
``--alphazero-search`` (gumbel, self-play's default, or puct) plays every seat
for ``--alphazero-moves`` moves from the initial state (a new game starts when one ends) with
``--alphazero-simulations`` simulations per move, once valuing ``--alphazero-batch`` leaves per forward pass and
once one leaf per pass, in interleaved rounds, with ``torch.set_num_threads(1)``. It prints the median
simulations per second of each, the forward passes per move and the ratio batched / one-leaf. With
``--alphazero`` too the forward-model tables run only for the games named by ``--games``.
"""

from __future__ import annotations

import dataclasses
import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

import boardenvs
from baselines.settings import parse_config
from boardenvs.registry import make_game

from ._args import COUNT, OptionError, Range, check_game, run_cli

if TYPE_CHECKING:
    from baselines.learners.alphazero.evaluator import NetworkEvaluator


@dataclass
class Args:
    """Command-line arguments of the benchmark."""

    games: list[str] = field(default_factory=list)
    """Games to measure (default: every registered game)."""
    seconds: float = 3.0
    """Wall-clock budget of each measurement."""
    seed: int = 0
    """Seed of the random play."""
    config: list[str] = field(default_factory=list)
    """Game config as key=value pairs, applied to every game (e.g. board_size=5)."""
    rounds: int = 1
    """Measure every row this many times, the rows taking turns, and keep each row's median (for a busy machine)."""
    json_out: str = ""
    """Optional path of a JSON file with the results."""
    mcts: bool = False
    """Measure MCTS simulations per second on Quoridor against OpenSpiel's MCTSBot (see above)."""
    mcts_simulations: int = 1000
    """Simulations per timed MCTS search."""
    mcts_repeats: int = 3
    """Timed searches per MCTS implementation (the median rate is reported)."""
    mcts_uct_c: float = 1.4
    """UCT exploration constant of both MCTS implementations."""
    replay_page: bool = False
    """Measure the HTML replay pages in headless Chromium (needs Playwright and a Chromium)."""
    arena: bool = False
    """Measure the live arena's server time per move against a random bot (needs the web extra)."""
    alphazero: bool = False
    """Measure AlphaZero self-play search (a fresh network): batched vs one-leaf simulations/s (see above)."""
    alphazero_game: str = "node_conquest"
    """Game of the AlphaZero self-play benchmark (with the --config pairs)."""
    alphazero_search: str = "gumbel"
    """Root search of the AlphaZero self-play benchmark: gumbel or puct."""
    alphazero_simulations: int = 32
    """Simulations per move of the AlphaZero self-play benchmark."""
    alphazero_moves: int = 20
    """Moves searched per timed AlphaZero self-play round (a new game starts when one ends)."""
    alphazero_batch: int = 8
    """Leaves per forward pass of the batched AlphaZero search (the other search values one leaf per pass)."""

    LIMITS: ClassVar = {
        "seconds": Range(0.0, 86_400.0, open_low=True),
        **dict.fromkeys(("rounds", "mcts_repeats", "alphazero_batch"), Range(1, 10**4)),
        **dict.fromkeys(("mcts_simulations", "alphazero_simulations", "alphazero_moves"), COUNT),
        "mcts_uct_c": Range(0.0, 1e6),
    }  # fmt: skip


@dataclass
class Measurement:
    """One timed run."""

    name: str
    transitions: int
    games: int
    seconds: float

    @property
    def per_second(self) -> float:
        return self.transitions / self.seconds

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds

    @property
    def microseconds(self) -> float:
        return 1e6 * self.seconds / max(1, self.transitions)


def legal_ids(mask: np.ndarray) -> np.ndarray:
    """The ids of a 0/1 action mask's legal actions, read the same fast way in every row: the env's ``int8`` mask
    viewed as ``bool`` (``nonzero`` on ``int8`` costs ~30 µs on Battle Sheep's 17,424 actions, 30x the ``bool``
    scan; a learner that cares reads it as ``bool`` too, as SB3 does)."""
    return mask.view(np.bool_).nonzero()[0]


class _Uniforms:
    """Pre-drawn uniform numbers, so every engine pays the same small price for its random choice."""

    def __init__(self, seed: int, size: int = 1 << 16) -> None:
        self.values = np.random.default_rng(seed).random(size).tolist()
        self.index = 0

    def pick(self, options: Any) -> Any:
        self.index = (self.index + 1) & 0xFFFF
        return options[int(self.values[self.index] * len(options))]


def _timed(name: str, seconds: float, play_one_game: Callable[[], int]) -> Measurement:
    """Games played for ``seconds`` after an untimed warm-up of a fifth of that (at most 1 s: caches, tables)."""
    start = time.perf_counter()
    while time.perf_counter() - start < min(1.0, seconds / 5):
        play_one_game()
    transitions = games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        transitions += play_one_game()
        games += 1
    return Measurement(name, transitions, games, time.perf_counter() - start)


def forward_model(game: boardenvs.Game, seconds: float, seed: int, masked: bool = False) -> Measurement:
    """``legal_actions`` + choice + ``apply`` in a random playout loop, as the reference engines are timed
    (``Game.legal_actions`` lists the true entries of the mask unless the game has a faster way); ``masked``
    reads ``legal_action_mask`` instead (what the environments hand to learners) and lists it with ``nonzero``."""
    uniforms = _Uniforms(seed)
    rng = np.random.default_rng(seed)
    legal = (lambda state: legal_ids(game.legal_action_mask(state))) if masked else game.legal_actions

    def play() -> int:
        state, plies = game.initial_state(rng), 0
        while not game.is_terminal(state):
            state = game.apply(state, int(uniforms.pick(legal(state))))
            plies += 1
        return plies

    return _timed(f"{game.spec.name} forward model{', mask' if masked else ''}", seconds, play)


def forward_model_observed(game: boardenvs.Game, seconds: float, seed: int) -> Measurement:
    """The loop a learner needs from the engine alone: the mask, a choice, ``apply``, and the observation of the
    player to move next (the floor under every environment row)."""
    uniforms = _Uniforms(seed)
    rng = np.random.default_rng(seed)

    def play() -> int:
        state, plies = game.initial_state(rng), 0
        game.observe(state, state.current_player)
        while not game.is_terminal(state):
            state = game.apply(state, int(uniforms.pick(legal_ids(game.legal_action_mask(state)))))
            if not game.is_terminal(state):
                game.observe(state, state.current_player)
            plies += 1
        return plies

    return _timed(f"{game.spec.name} forward model + observe", seconds, play)


def svg_pictures(game: boardenvs.Game, seconds: float, seed: int) -> Measurement:
    """``Game.render_svg`` of the spectator's view, over every position of a few random games (one
    "transition" is one picture; ``us/transition`` is the time to draw one)."""
    rng = np.random.default_rng(seed)
    positions: list[Any] = []
    while len(positions) < 200:
        state = game.initial_state(rng)
        positions.append(state)
        while not game.is_terminal(state):
            state = game.apply(state, int(rng.choice(game.legal_actions(state))))
            positions.append(state)

    def draw_all() -> int:
        for state in positions:
            game.render_svg(state)
        return len(positions)

    return _timed(f"{game.spec.name} SVG picture", seconds, draw_all)


def rgb_frames(game: boardenvs.Game, seconds: float, seed: int, count: int = 30) -> Measurement | None:
    """``Game.render_rgb`` (the spectator's SVG picture rasterised: every ``rgb_array`` frame and video frame) of
    ``count`` positions spread over random games; ``us/transition`` is the time of one frame. ``None`` without
    Pillow (the render extra)."""
    import importlib.util

    if importlib.util.find_spec("PIL") is None:
        return None
    rng = np.random.default_rng(seed)
    positions: list[Any] = []
    while len(positions) < count:
        state = game.initial_state(rng)
        while not game.is_terminal(state):
            if rng.random() < 0.1:  # a few positions of each game, so the frames span openings to endings
                positions.append(state)
            state = game.apply(state, int(rng.choice(game.legal_actions(state))))
        positions.append(state)

    def draw_all() -> int:
        for state in positions[:count]:
            game.render_rgb(state)
        return count

    return _timed(f"{game.spec.name} rgb_array frame", seconds, draw_all)


def gymnasium_env(name: str, config: dict[str, Any], seconds: float, seed: int) -> Measurement:
    """``gymnasium.make`` (standard wrappers) against random opponents; every ply counts, the opponents' too."""
    import gymnasium

    from boardenvs.envs import gym_env_id

    env = gymnasium.make(gym_env_id(name), opponent="random", **config)
    uniforms = _Uniforms(seed)
    episode = [seed]

    def play() -> int:
        observation, info = env.reset(seed=episode[0])
        episode[0] += 1
        done = False
        while not done:
            action = int(uniforms.pick(legal_ids(observation["action_mask"])))
            observation, _, terminated, truncated, info = env.step(action)
            done = terminated or truncated
        return int(env.unwrapped.game_state.ply)

    return _timed(f"{name} gymnasium.make", seconds, play)


def vector_env(name: str, config: dict[str, Any], seconds: float, seed: int, workers: int = 2) -> Measurement:
    """``gymnasium.make_vec`` with ``workers`` subprocesses (``vectorization_mode="async"``), random opponents and
    random legal actions; counts learner steps (the opponents' plies run inside the workers)."""
    import gymnasium

    from boardenvs.envs import gym_env_id

    envs = gymnasium.make_vec(
        gym_env_id(name), num_envs=workers, vectorization_mode="async", opponent="random", **config
    )
    rng = np.random.default_rng(seed)
    observations, _ = envs.reset(seed=seed)
    try:
        start = time.perf_counter()
        steps = episodes = 0
        while time.perf_counter() - start < seconds:
            legal = [legal_ids(mask) for mask in observations["action_mask"]]
            # an ended episode shows an empty mask; its next step is the automatic reset and ignores the action
            actions = np.array([rng.choice(ids) if len(ids) else 0 for ids in legal])
            observations, _, terminated, truncated, _ = envs.step(actions)
            steps += sum(len(ids) > 0 for ids in legal)
            episodes += int(np.sum(terminated | truncated))
        seconds_taken = time.perf_counter() - start
        return Measurement(f"{name} make_vec async x{workers} (learner steps)", steps, episodes, seconds_taken)
    finally:
        envs.close()


def aec_env(name: str, config: dict[str, Any], seconds: float, seed: int, wrapped: bool) -> Measurement:
    """The PettingZoo AEC loop (``last`` + ``step``), with or without the standard wrappers."""
    from boardenvs.aec import env as wrapped_env
    from boardenvs.aec import raw_env

    env = wrapped_env(name, **config) if wrapped else raw_env(name, **config)
    uniforms = _Uniforms(seed)
    episode = [seed]

    def play() -> int:
        env.reset(seed=episode[0])
        episode[0] += 1
        plies = 0
        for _agent in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            action = None if terminated or truncated else int(uniforms.pick(legal_ids(obs["action_mask"])))
            env.step(action)
            plies += action is not None
        return plies

    label = "AEC env()" if wrapped else "AEC raw_env"
    return _timed(f"{name} {label}", seconds, play)


def openspiel_quoridor(config: dict[str, Any], seconds: float, seed: int) -> Measurement | None:
    """OpenSpiel's C++ Quoridor driven from Python with the same loop, if ``open_spiel`` is installed."""
    try:
        import pyspiel
    except ImportError:
        return None
    params = {"board_size": config.get("board_size", 9), "players": config.get("num_players", 2)}
    if params["players"] != 2:
        return None  # OpenSpiel's 4-player Quoridor aborts on some positions
    os_game = pyspiel.load_game("quoridor", params)
    uniforms = _Uniforms(seed)

    def play() -> int:
        state, plies = os_game.new_initial_state(), 0
        while not state.is_terminal():
            state.apply_action(uniforms.pick(state.legal_actions()))
            plies += 1
        return plies

    return _timed("OpenSpiel quoridor (C++)", seconds, play)


@dataclass
class SearchSpeed:
    """Timed MCTS searches of one implementation."""

    name: str
    simulations: int
    seconds: list[float] = field(default_factory=list)

    @property
    def per_second(self) -> float:
        """Simulations per second of the median search."""
        return self.simulations / float(np.median(self.seconds))


def our_mcts_search(config: dict[str, Any], simulations: int, uct_c: float, seed: int, fast: bool) -> float:
    """Seconds of one ``MCTSAgent`` search (random rollouts) from the initial Quoridor position."""
    from baselines.search.evaluators import RolloutEvaluator
    from baselines.search.mcts import MCTSAgent

    game = make_game("quoridor", **config)
    agent = MCTSAgent(seed, simulations=simulations, exploration=uct_c, evaluator=RolloutEvaluator(fast=fast))
    state = game.initial_state(np.random.default_rng(seed))
    start = time.perf_counter()
    agent.act(game, state, state.current_player)
    elapsed = time.perf_counter() - start
    if agent.last_search.simulations != simulations:
        raise RuntimeError(f"MCTSAgent ran {agent.last_search.simulations} simulations, expected {simulations}")
    return elapsed


def openspiel_mcts_search(config: dict[str, Any], simulations: int, uct_c: float, seed: int) -> float | None:
    """Seconds of one OpenSpiel ``MCTSBot`` search (``RandomRolloutEvaluator(n_rollouts=1)``), if installed."""
    try:
        import pyspiel
        from open_spiel.python.algorithms import mcts
    except ImportError:
        return None
    params = {"board_size": config.get("board_size", 9), "players": config.get("num_players", 2)}
    if params["players"] != 2:
        return None
    game = pyspiel.load_game("quoridor", params)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(seed))
    bot = mcts.MCTSBot(game, uct_c, simulations, evaluator, solve=False, random_state=np.random.RandomState(seed))
    state = game.new_initial_state()
    start = time.perf_counter()
    bot.mcts_search(state)
    return time.perf_counter() - start


def bench_mcts(config: dict[str, Any], simulations: int, repeats: int, uct_c: float, seed: int) -> list[SearchSpeed]:
    """Interleaved timed searches: ours (fast playouts), ours (generic playouts), OpenSpiel (if installed)."""
    from tqdm import tqdm

    ours = SearchSpeed("MCTSAgent (fast Quoridor playouts)", simulations)
    generic = SearchSpeed("MCTSAgent (generic legal_actions+apply)", simulations)
    openspiel = SearchSpeed("OpenSpiel MCTSBot (Python, C++ game)", simulations)
    for repeat in tqdm(range(repeats), desc="MCTS searches", unit="round"):
        ours.seconds.append(our_mcts_search(config, simulations, uct_c, seed + repeat, fast=True))
        generic.seconds.append(our_mcts_search(config, simulations, uct_c, seed + repeat, fast=False))
        elapsed = openspiel_mcts_search(config, simulations, uct_c, seed + repeat)
        if elapsed is not None:
            openspiel.seconds.append(elapsed)
    return [ours, generic] + ([openspiel] if openspiel.seconds else [])


def report_mcts(results: list[SearchSpeed]) -> str:
    """One line per implementation with its ratio to OpenSpiel's rate (when measured)."""
    reference = next((r for r in results if r.name.startswith("OpenSpiel")), None)
    lines = [f"{'MCTS, random rollouts':42s} {'simulations/s':>14s} {'vs OpenSpiel':>13s}"]
    for r in results:
        ratio = f"{r.per_second / reference.per_second:12.2f}x" if reference else f"{'n/a':>13s}"
        lines.append(f"{r.name:42s} {r.per_second:14,.0f} {ratio}")
    if reference is None:
        lines.append("open_spiel is not installed (or the config is not 2-player): no reference measured")
    return "\n".join(lines)


ALPHAZERO_ROUNDS = 3
"""Timed self-play rounds of each AlphaZero search setting (alternating; the median rate is reported)."""


@dataclass
class SelfPlaySpeed:
    """Timed AlphaZero self-play rounds of one search setting: per round, the simulations run, the network's
    forward passes and the seconds spent in ``MCTSAgent.act``."""

    name: str
    batch_size: int
    moves: int
    simulations: list[int] = field(default_factory=list)
    forward_passes: list[int] = field(default_factory=list)
    seconds: list[float] = field(default_factory=list)

    @property
    def per_second(self) -> float:
        """Simulations per second: the median over the rounds."""
        return float(np.median([s / t for s, t in zip(self.simulations, self.seconds)]))

    @property
    def forward_passes_per_move(self) -> float:
        """The network's forward passes per move searched, over all rounds."""
        return sum(self.forward_passes) / max(1, self.moves * len(self.forward_passes))


def check_alphazero_args(args: Args) -> None:
    """``ValueError`` naming the first ``--alphazero-*`` count below 1."""
    for flag in ("alphazero_simulations", "alphazero_moves", "alphazero_batch"):
        value = getattr(args, flag)
        if value < 1:
            raise ValueError(f"--{flag.replace('_', '-')} must be >= 1, got {value}")


def selfplay_round(
    game: boardenvs.Game,
    evaluator: NetworkEvaluator,
    passes: list[int],
    speed: SelfPlaySpeed,
    simulations: int,
    seed: int,
    search: str,
) -> None:
    """One timed round: an ``MCTSAgent`` with ``search`` plays every seat for ``speed.moves`` moves from the
    initial state (starting a new game when one ends); only its ``act`` calls are timed. ``passes[0]`` counts the
    network's forward passes. Appends the round to ``speed``."""
    from baselines.search.mcts import MCTSAgent

    batch = speed.batch_size
    agent = MCTSAgent(
        seed, simulations=simulations, evaluator=evaluator, selection=search, batch_size=batch, reuse_tree=False
    )
    rng = np.random.default_rng(seed)
    state, done, seconds, passes_before = game.initial_state(rng), 0, 0.0, passes[0]
    for _ in range(speed.moves):
        if game.is_terminal(state):
            state = game.initial_state(rng)
        mover = int(state.current_player)
        view = game.determinize(state, mover, rng)
        start = time.perf_counter()
        action = agent.act(game, view, mover)
        seconds += time.perf_counter() - start
        done += agent.last_search.simulations
        state = game.apply(state, action)
    speed.simulations.append(done)
    speed.forward_passes.append(passes[0] - passes_before)
    speed.seconds.append(seconds)


def bench_alphazero(name: str, config: dict[str, Any], args: Args) -> list[SelfPlaySpeed]:
    """Batched and one-leaf self-play search with one fresh network and evaluator, in alternating rounds
    (after an untimed one-move warm-up of each), with one torch thread."""
    import torch
    from tqdm import tqdm

    from baselines.learners.alphazero.evaluator import NetworkEvaluator
    from baselines.learners.alphazero.network import PolicyValueNet
    from baselines.params import choice_param

    search = choice_param("--alphazero-search", args.alphazero_search, ("gumbel", "puct"))
    game = make_game(name, **config)
    net, passes = PolicyValueNet.for_game(game, seed=args.seed), [0]
    hook = net.register_forward_hook(lambda *_: passes.__setitem__(0, passes[0] + 1))
    evaluator = NetworkEvaluator(net)
    batched = SelfPlaySpeed(f"batched (batch_size={args.alphazero_batch})", args.alphazero_batch, args.alphazero_moves)
    single = SelfPlaySpeed("one leaf (batch_size=1)", 1, args.alphazero_moves)
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        for speed in (batched, single):  # warm-up
            warm_up = dataclasses.replace(speed, moves=1, simulations=[], forward_passes=[], seconds=[])
            selfplay_round(game, evaluator, passes, warm_up, args.alphazero_simulations, args.seed, search)
        for r in tqdm(range(ALPHAZERO_ROUNDS), desc="AlphaZero self-play", unit="round"):
            for speed in (batched, single) if r % 2 == 0 else (single, batched):
                selfplay_round(game, evaluator, passes, speed, args.alphazero_simulations, args.seed + r, search)
    finally:
        torch.set_num_threads(threads)
        hook.remove()
    return [batched, single]


def report_alphazero(results: list[SelfPlaySpeed], search: str) -> str:
    """One line per search setting with its ratio to the one-leaf rate."""
    reference = next(r for r in results if r.batch_size == 1)
    lines = [
        f"{'AlphaZero self-play, ' + search:28s} {'simulations/s':>14s} {'forward passes/move':>20s} "
        f"{'vs one-leaf':>12s}"
    ]
    for r in results:
        ratio = r.per_second / reference.per_second
        lines.append(f"{r.name:28s} {r.per_second:14,.0f} {r.forward_passes_per_move:20.1f} {ratio:11.2f}x")
    return "\n".join(lines)


@dataclass
class ArenaLatency:
    """Server times of the arena's move requests on one game (a person's move and the bots' replies)."""

    name: str
    milliseconds: list[float]

    @property
    def per_second(self) -> float:
        return 1000.0 / float(np.median(self.milliseconds))


def bench_arena(names: list[str], config: dict[str, Any], seconds: float, seed: int) -> list[ArenaLatency]:
    """A person plays random legal moves against ``random`` bots in every game for ``seconds`` each."""
    from starlette.testclient import TestClient  # the web extra

    from baselines.web.app import create_app
    from baselines.web.bots import BotPool
    from baselines.web.sessions import Arena, ArenaSettings

    rng = np.random.default_rng(seed)
    arena = Arena(ArenaSettings(), BotPool(workers=1))
    results = []
    with TestClient(create_app(arena=arena)) as client:
        for name in names:
            players = make_game(name, **config).spec.num_players
            body = {"game": name, "config": config, "seats": ["human"] + ["random"] * (players - 1)}
            results.append(ArenaLatency(name, _arena_moves(client, body, seconds, rng)))
    arena.close()
    return results


def _arena_moves(client: Any, body: dict[str, Any], seconds: float, rng: np.random.Generator) -> list[float]:
    times: list[float] = []
    view = client.post("/api/sessions", json=body).json()
    start = time.perf_counter()
    while time.perf_counter() - start < seconds or len(times) < 5:
        if view["over"]:
            client.delete(f"/api/sessions/{view['id']}")
            view = client.post("/api/sessions", json=body).json()
        move = view["legal"][int(rng.integers(len(view["legal"])))]
        request = {"seat": view["to_move"], "action": move["action"], "ply": view["ply"]}
        begin = time.perf_counter()
        view = client.post(f"/api/sessions/{view['id']}/move", json=request).json()
        if "error" in view:
            raise RuntimeError(f"the arena refused a move: {view['error']}")
        times.append(1000 * (time.perf_counter() - begin))
    return times


def report_arena(results: list[ArenaLatency]) -> str:
    """Median and 90th percentile milliseconds per move request."""
    lines = [f"{'game':16s} {'moves':>6s} {'median ms':>10s} {'p90 ms':>8s}"]
    for r in results:
        lines.append(f"{r.name:16s} {len(r.milliseconds):6d} {np.median(r.milliseconds):10.1f} "
                     f"{np.percentile(r.milliseconds, 90):8.1f}")  # fmt: skip
    return "\n".join(lines)


STEP_THROUGH_SCRIPT = "() => { const t = performance.now(); for (let i = 0; i <= last; i++) show(i); " \
    "return performance.now() - t; }"
"""Shows every position of a replay page once, timed inside the page (milliseconds)."""


@dataclass
class ReplayPageSpeed:
    """One game's HTML replay: its size and how long it takes to build, open and step through."""

    name: str
    plies: int
    megabytes: float
    build_seconds: float
    open_seconds: float
    step_milliseconds: float

    @property
    def per_second(self) -> float:
        return 1000.0 / self.step_milliseconds


def bench_replay_pages(names: list[str], config: dict[str, Any], seed: int) -> list[ReplayPageSpeed]:
    """Build, open and step through the replay of one random game of each game (see the module docstring)."""
    import shutil
    import tempfile
    from pathlib import Path

    from playwright.sync_api import sync_playwright  # the dev extra

    executable = shutil.which("chromium") or shutil.which("chromium-browser")
    if executable is None:
        raise ValueError("--replay-page needs a Chromium (apt-get install chromium)")
    results = []
    with tempfile.TemporaryDirectory() as folder, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=executable, args=["--no-sandbox"])
        for name in names:
            results.append(_replay_page_speed(browser, Path(folder) / f"{name}.html", name, config, seed))
        browser.close()
    return results


def _replay_page_speed(browser: Any, path: Any, name: str, config: dict[str, Any], seed: int) -> ReplayPageSpeed:
    from baselines.agent import RandomAgent
    from baselines.arena import play_game
    from baselines.arena.replays import replay_from_record
    from boardenvs.replay_html import replay_html

    game = make_game(name, **({"max_plies": 300} if name == "node_conquest" and not config else config))
    record = play_game(game, [RandomAgent() for _ in range(game.spec.num_players)], seed)
    start = time.perf_counter()
    path.write_text(replay_html(replay_from_record(game, record), game), encoding="utf-8")
    build = time.perf_counter() - start
    page = browser.new_page()
    start = time.perf_counter()
    page.goto(path.as_uri())
    opened = time.perf_counter() - start
    total = page.evaluate(STEP_THROUGH_SCRIPT)
    page.close()
    megabytes = path.stat().st_size / 1e6
    return ReplayPageSpeed(name, record.plies, megabytes, build, opened, total / (record.plies + 1))


def report_replay_pages(results: list[ReplayPageSpeed]) -> str:
    """One line per game: plies, page size, build, open and per-position step times."""
    lines = [f"{'game':16s} {'plies':>6s} {'MB':>6s} {'build s':>8s} {'open s':>7s} {'ms/position':>12s}"]
    for r in results:
        lines.append(f"{r.name:16s} {r.plies:6d} {r.megabytes:6.2f} {r.build_seconds:8.2f} {r.open_seconds:7.2f} "
                     f"{r.step_milliseconds:12.1f}")  # fmt: skip
    return "\n".join(lines)


def bench_game(name: str, config: dict[str, Any], seconds: float, seed: int, rounds: int = 1) -> list[Measurement]:
    """All measurements of one game; with ``rounds`` > 1 every row is measured that many times, the rows taking
    turns (so a change in the machine's load hits every row alike), and each row's median is kept."""
    game = make_game(name, **config)
    rows: list[Callable[[], Measurement | None]] = [
        lambda: forward_model(game, seconds, seed),
        lambda: forward_model(game, seconds, seed, masked=True),
        lambda: forward_model_observed(game, seconds, seed),
        lambda: aec_env(name, config, seconds, seed, wrapped=False),
        lambda: aec_env(name, config, seconds, seed, wrapped=True),
        lambda: gymnasium_env(name, config, seconds, seed),
        lambda: vector_env(name, config, seconds, seed),
        lambda: svg_pictures(game, seconds, seed),
        lambda: rgb_frames(game, seconds, seed),
    ]
    if name == "quoridor":
        rows.append(lambda: openspiel_quoridor(config, seconds, seed))
    runs: list[list[Measurement]] = [[] for _ in rows]
    for _ in range(rounds):
        for row, measure in zip(runs, rows, strict=True):
            measurement = measure()
            if measurement is not None:
                row.append(measurement)
    return [median_measurement(row) for row in runs if row]


def median_measurement(measurements: list[Measurement]) -> Measurement:
    """The measurement with the median time per transition (the upper one of an even count)."""
    return sorted(measurements, key=lambda m: m.microseconds)[len(measurements) // 2]


def report(results: list[Measurement]) -> str:
    """An aligned table: time per transition relative to the first row (the forward model) and, for the
    environment rows, to "forward model + observe" (what an environment cannot go below)."""
    base = results[0]
    observed = next((m for m in results if m.name.endswith("forward model + observe")), None)
    lines = [
        f"{'what':44s} {'transitions/s':>14s} {'us/transition':>14s} {'games/s':>9s} {'vs forward':>11s} "
        f"{'vs fwd+obs':>11s}"
    ]
    for m in results:
        ratio = m.microseconds / base.microseconds
        env_row = observed is not None and any(word in m.name for word in ("AEC", "gymnasium", "make_vec"))
        vs_observed = f"{m.microseconds / observed.microseconds:10.2f}x" if env_row else f"{'':>11s}"
        lines.append(
            f"{m.name:44s} {m.per_second:14,.0f} {m.microseconds:14.2f} {m.games_per_second:9,.1f} {ratio:10.2f}x "
            f"{vs_observed}"
        )
    openspiel = [m for m in results if m.name.startswith("OpenSpiel")]
    if openspiel:
        share = base.per_second / openspiel[0].per_second
        lines.append(f"forward model reaches 1/{1 / share:.1f} of OpenSpiel's transitions per second")
    return "\n".join(lines)


def main(args: Args) -> dict[str, list[Any]]:
    """Run the benchmarks and print one table per game (and the MCTS table with ``--mcts``, the AlphaZero
    self-play table with ``--alphazero``)."""
    config = parse_config(args.config)
    if args.alphazero:
        check_alphazero_args(args)
    if args.rounds < 1:
        raise ValueError(f"--rounds must be >= 1, got {args.rounds}")
    only_extra = args.mcts or args.alphazero or args.arena or args.replay_page
    names = args.games or ([] if only_extra else boardenvs.list_games())
    all_results: dict[str, list[Any]] = {}
    for name in names:
        results = bench_game(name, config, args.seconds, args.seed, args.rounds)
        all_results[name] = results
        print(f"\n== {name} {config or ''}")
        print(report(results))
    if args.mcts:
        if args.mcts_simulations < 1 or args.mcts_repeats < 1:
            raise ValueError("--mcts-simulations and --mcts-repeats must be >= 1")
        speeds = bench_mcts(config, args.mcts_simulations, args.mcts_repeats, args.mcts_uct_c, args.seed)
        all_results["mcts"] = speeds
        print(f"\n== MCTS on quoridor {config or ''} from the initial position, {args.mcts_simulations} simulations")
        print(report_mcts(speeds))
    if args.alphazero:
        selfplay = bench_alphazero(args.alphazero_game, config, args)
        all_results["alphazero"] = selfplay
        print(
            f"\n== AlphaZero self-play search on {args.alphazero_game}{f' {config}' if config else ''}: fresh network, "
            f"{args.alphazero_simulations} simulations/move, {args.alphazero_moves} moves/round, "
            f"median of {ALPHAZERO_ROUNDS} alternating rounds, torch.set_num_threads(1)"
        )
        print(report_alphazero(selfplay, args.alphazero_search))
    if args.arena:
        latencies = bench_arena(args.games or boardenvs.list_games(), config, args.seconds, args.seed)
        all_results["arena"] = latencies
        print("\n== live arena: server time of a person's move and a random bot's reply (ms)")
        print(report_arena(latencies))
    if args.replay_page:
        pages = bench_replay_pages(args.games or boardenvs.list_games(), config, args.seed)
        all_results["replay_page"] = pages
        print("\n== HTML replay pages in headless Chromium")
        print(report_replay_pages(pages))
    if args.json_out:
        data = {n: [_as_json(m) for m in r] for n, r in all_results.items()}
        with open(args.json_out, "w") as handle:
            json.dump(data, handle, indent=2)
    return all_results


def _as_json(
    measurement: Measurement | SearchSpeed | SelfPlaySpeed | ArenaLatency | ReplayPageSpeed,
) -> dict[str, Any]:
    extra = {"per_second": measurement.per_second}
    if isinstance(measurement, Measurement):
        extra["games_per_second"] = measurement.games_per_second
    if isinstance(measurement, SelfPlaySpeed):
        extra["forward_passes_per_move"] = measurement.forward_passes_per_move
    return dataclasses.asdict(measurement) | extra


def check_args(args: Args) -> None:
    """Refuse an unknown game, a config that does not apply to every measured game, or a bad AlphaZero setting."""
    only_extra = args.mcts or args.alphazero or args.arena or args.replay_page
    for name in args.games or ([] if only_extra else boardenvs.list_games()):
        check_game(name, args.config, game_field="games")
    if args.mcts:
        check_game("quoridor", args.config)
    if args.alphazero:
        check_game(args.alphazero_game, args.config, game_field="alphazero_game")
        if args.alphazero_search not in ("gumbel", "puct"):
            raise OptionError("alphazero_search", f"must be gumbel or puct, got {args.alphazero_search!r}")


def cli(argv: list[str] | None = None) -> None:
    """Entry point of ``python -m scripts.bench``."""
    run_cli(Args, argv, main, description=__doc__, check=check_args)


if __name__ == "__main__":
    cli()
