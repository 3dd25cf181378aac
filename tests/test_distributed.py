"""The Ray backend (``baselines.distributed``): the same records, runs and examples as the local pool, work that
survives a node lost mid-run with every game played exactly once, and clear errors for bad input.

Every test that needs Ray shares one module-wide simulated cluster (``ray.cluster_utils.Cluster``): a head node
without CPUs, where the driver lives, and two worker nodes of one CPU each, so the two actors of a pool sit on
different nodes. Its files live in a private temporary folder (``RAY_TMPDIR``), so two xdist workers (each with its
own cluster) and other Ray users of this machine never meet.
"""

from __future__ import annotations

import json
import logging
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import tests.toy_games  # noqa: F401  (registers toy_tictactoe)
from baselines.agent import RandomAgent
from baselines.arena import tournament
from baselines.arena.match import IllegalActionError
from baselines.distributed import check_reachable, make_executor
from baselines.factory import make_agent
from baselines.tuning.game_fitness import GameFitness, head_to_head
from baselines.tuning.ntbea import NTBEA
from baselines.tuning.tuning import TuneSettings
from boardenvs.registry import make_game
from scripts import tournament as tournament_script

ray = pytest.importorskip("ray")

ROOT = Path(__file__).resolve().parents[1]
SPACE = {"a": [0, 1, 2, 3], "b": [0, 1, 2]}


# -- agents and functions the workers run (imported there from this module) -------------------------------------
class SlowRandom(RandomAgent):
    """A random agent that thinks for a while, so that a node can be lost while its games are running."""

    name = "slow"

    def act(self, game: Any, view: Any, player: int) -> int:
        time.sleep(0.01)
        return super().act(game, view, player)


class Cheater(RandomAgent):
    """A random agent that, in the games whose agent seed is a multiple of 5, plays an illegal action (when
    ``cheat``), as a buggy agent would."""

    name = "cheater"

    def __init__(self, seed: int, cheat: bool = True) -> None:
        super().__init__(seed)
        self.cheat, self.game_seed = cheat, seed

    def reseed(self, seed: int) -> None:
        super().reseed(seed)
        self.game_seed = seed

    def act(self, game: Any, view: Any, player: int) -> int:
        if self.cheat and self.game_seed % 5 == 0:
            return int(np.flatnonzero(~game.legal_action_mask(view))[0])
        return super().act(game, view, player)


def noisy_fitness(params: dict, seed: int, index: int) -> float:
    """Best at a=2, b=1, with seeded noise."""
    del index
    return -abs(params["a"] - 2) - abs(params["b"] - 1) + 0.3 * float(np.random.default_rng(seed).normal())


def square(x: int) -> int:
    return x * x


# -- the simulated cluster -------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def cluster() -> Iterator[Any]:
    """A head node without CPUs (the driver's) and two worker nodes of one CPU each, with this process connected."""
    from ray.cluster_utils import Cluster

    temp, previous = tempfile.mkdtemp(prefix="ray", dir="/tmp"), os.environ.get("RAY_TMPDIR")
    os.environ["RAY_TMPDIR"] = temp  # short: Ray's socket paths must stay under 108 characters
    simulated = Cluster(initialize_head=True, head_node_args={"num_cpus": 0, "include_dashboard": False})
    for _ in range(2):
        simulated.add_node(num_cpus=1)
    ray.init(address=simulated.address, log_to_driver=False)
    try:
        yield simulated
    finally:
        ray.shutdown()
        simulated.shutdown()
        os.environ.pop("RAY_TMPDIR") if previous is None else os.environ.update(RAY_TMPDIR=previous)
        shutil.rmtree(temp, ignore_errors=True)


@pytest.fixture
def lose_a_node_mid_run(cluster: Any) -> Iterator[list[str]]:
    """Remove a worker node in the middle of the next run, then add a new one in its place; yields the warnings
    logged. When both actors of the pool have reported finished work, the node removed is the one of the actor
    that did not just report (it is running its next chunk); if one actor reports three times first (the other
    is slow to start), its own node goes, before its next chunk is sent to it."""
    handler = _NodeRemover(cluster)
    log = logging.getLogger("baselines.distributed")
    level = log.level
    log.setLevel(logging.DEBUG)
    log.addHandler(handler)
    try:
        yield handler.warnings
    finally:
        log.removeHandler(handler)
        log.setLevel(level)
        cluster.add_node(num_cpus=1)
    assert handler.removed, "the run ended before a node was removed"


class _NodeRemover(logging.Handler):
    """Reads the executor's log (each finished chunk names its actor's node) and removes a node mid-run."""

    def __init__(self, cluster: Any) -> None:
        super().__init__(logging.DEBUG)
        self.cluster, self.reports, self.removed, self.warnings = cluster, [], False, []

    def emit(self, record: logging.LogRecord) -> None:
        if record.levelno >= logging.WARNING:
            self.warnings.append(record.getMessage())
        node = getattr(record, "ray_node", None)
        if node is None or self.removed:
            return
        self.reports.append(node)
        busy = [n for n in self.cluster.worker_nodes if n.node_id in self.reports and n.node_id != node]
        reporter = [n for n in self.cluster.worker_nodes if n.node_id == node]
        victim = busy or (reporter if self.reports.count(node) >= 3 else [])
        if victim:
            self.cluster.remove_node(victim[0])
            self.removed = True


# -- same results on either backend ------------------------------------------------------------------------------
def quoridor_agents(*names: str) -> dict[str, Callable[[int], Any]]:
    return {name: partial(make_agent, name, "quoridor") for name in names}


def log_lines(path: Path) -> dict[int, str]:
    lines = path.read_text().splitlines()[1:]
    by_index = {json.loads(line)["index"]: line for line in lines}
    assert len(by_index) == len(lines), "a game is logged twice"
    return by_index


def test_a_tournament_on_ray_gives_the_records_of_the_local_pool(cluster, tmp_path) -> None:
    game, agents = make_game("quoridor", board_size=3), quoridor_agents("random", "path", "heuristic")
    local = tournament(game, agents, 6, seed=3, log_path=tmp_path / "local.jsonl")
    remote = tournament(game, agents, 6, seed=3, workers=2, backend="ray", log_path=tmp_path / "ray.jsonl")
    assert [(r.agent_names, r.actions, r.returns.tolist()) for r in remote.records] == [
        (r.agent_names, r.actions, r.returns.tolist()) for r in local.records
    ]
    assert log_lines(tmp_path / "ray.jsonl") == log_lines(tmp_path / "local.jsonl")


def test_ntbea_and_head_to_head_on_ray_give_the_local_results(cluster) -> None:
    local = NTBEA(SPACE, batch_size=3, seed=4).run(noisy_fitness, 12)
    remote = NTBEA(SPACE, batch_size=3, seed=4).run(noisy_fitness, 12, workers=2, backend="ray")
    assert [(e.params, e.seed, e.fitness) for e in remote.history] == [
        (e.params, e.seed, e.fitness) for e in local.history
    ]
    assert remote.best == local.best
    fitness = GameFitness("quoridor", "random", "path", (("board_size", 3),))
    assert head_to_head(fitness, 8, 5, workers=2, backend="ray") == head_to_head(fitness, 8, 5)


def self_play(tmp_path: Path, games: int, **settings: Any) -> list[Any]:
    """The examples of ``games`` self-play games of toy tic-tac-toe with a tiny network and search (AlphaZero, and
    torch with it, is imported here only: the workers import this module to find its agents and functions). Played
    in this process, torch runs on one thread, as in every worker: more threads may round differently."""
    import torch

    from baselines.learners.alphazero import AlphaZeroSettings, AlphaZeroTrainer, NetworkConfig, SelfPlaySettings

    search = SelfPlaySettings(  # 2 games per batch: 12 chunks of work, so a node can die with some still to run
        simulations=4, temperature_plies=4, batch_size=2, determinizations=1, fast_simulations=2, batch_games=2
    )
    tiny = AlphaZeroSettings(selfplay=search, network=NetworkConfig(4, 1, 8), eval_games=0, seed=1, **settings)
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return AlphaZeroTrainer("toy_tictactoe", {}, tiny, tmp_path, progress=False).self_play(games, seed=9)
    finally:
        torch.set_num_threads(threads)


def same_examples(first: list[Any], second: list[Any]) -> bool:
    fields = ("observation", "mask", "policy", "value")
    return len(first) == len(second) and all(
        all(np.array_equal(getattr(a, name), getattr(b, name)) for name in fields) for a, b in zip(first, second)
    )


def test_alphazero_self_play_on_ray_gives_the_examples_of_the_local_pool_in_order(cluster, tmp_path) -> None:
    local = self_play(tmp_path / "local", 6, workers=2)
    remote = self_play(tmp_path / "ray", 6, workers=2, backend="ray")
    assert len(local) >= 6 * 5 and same_examples(remote, local)
    assert same_examples(self_play(tmp_path / "inline", 6), local)  # and of this process, on one thread


def test_the_ray_executor_keeps_its_actors_between_maps_and_returns_results_in_order(cluster) -> None:
    with make_executor("ray", 2) as pool:
        assert list(pool.map(square, range(50))) == [x * x for x in range(50)]
        assert sorted(pool.map_unordered(square, [3, 1, 2])) == [(0, 9), (1, 1), (2, 4)]
        assert list(pool.map(square, [])) == []


# -- a node lost in the middle of a run -------------------------------------------------------------------------
def test_a_tournament_that_loses_a_node_plays_every_game_exactly_once(cluster, lose_a_node_mid_run, tmp_path) -> None:
    game = make_game("quoridor", board_size=3)
    agents = {"slow": SlowRandom, **quoridor_agents("path")}
    log = tmp_path / "ray.jsonl"
    remote = tournament(game, agents, 16, seed=5, workers=2, backend="ray", log_path=log)
    local = tournament(game, agents, 16, seed=5)
    assert any("died running items" in message for message in lose_a_node_mid_run)
    assert sorted(log_lines(log)) == list(range(16))
    assert [(r.actions, r.returns.tolist()) for r in remote.records] == [
        (r.actions, r.returns.tolist()) for r in local.records
    ]


def test_self_play_that_loses_a_node_gives_every_game_once_in_order(cluster, lose_a_node_mid_run, tmp_path) -> None:
    remote = self_play(tmp_path / "ray", 24, workers=2, backend="ray")
    local = self_play(tmp_path / "local", 24)
    assert any("died running items" in message for message in lose_a_node_mid_run)
    assert same_examples(remote, local)


# -- a worker that raises --------------------------------------------------------------------------------------
def test_a_game_that_raises_stops_the_run_with_its_error_and_the_log_resumes(cluster, tmp_path) -> None:
    game, log = make_game("quoridor", board_size=3), tmp_path / "games.jsonl"
    cheating = {"cheater": Cheater, **quoridor_agents("path")}
    with pytest.raises(IllegalActionError, match=r"agent 'cheater' \(seat \d\) chose an illegal action"):
        tournament(game, cheating, 20, seed=1, workers=2, backend="ray", log_path=log)
    kept = log.read_text().splitlines()
    assert len(kept) >= 3  # the header and the games sent out before the failing one (0 and 1, at least)
    honest = {"cheater": partial(Cheater, cheat=False), **quoridor_agents("path")}
    resumed = tournament(game, honest, 20, seed=1, workers=2, backend="ray", log_path=log)
    assert log.read_text().splitlines()[: len(kept)] == kept  # nothing logged before the error is played again
    assert sorted(log_lines(log)) == list(range(20))
    fresh = tournament(game, honest, 20, seed=1)
    assert [r.actions for r in resumed.records] == [r.actions for r in fresh.records]


def test_an_initializer_that_raises_is_reported_not_retried(cluster) -> None:
    with make_executor("ray", 1, make_game, ("no_such_game",)) as pool, pytest.raises(ValueError, match="no_such_game"):
        list(pool.map(square, [1, 2]))


# -- bad input ---------------------------------------------------------------------------------------------------
def test_an_unknown_backend_lists_the_choices() -> None:
    from baselines.learners.alphazero import AlphaZeroSettings

    game, agents = make_game("quoridor", board_size=3), quoridor_agents("random", "path")
    with pytest.raises(ValueError, match="backend must be one of local, ray, got 'spark'"):
        make_executor("spark", 2)
    with pytest.raises(ValueError, match="backend must be one of local, ray, got 'dask'"):
        tournament(game, agents, 2, workers=2, backend="dask")
    with pytest.raises(ValueError, match="backend must be one of local, ray"):
        AlphaZeroSettings(backend="Ray")
    with pytest.raises(ValueError, match="backend must be one of local, ray"):
        TuneSettings(backend="")
    with pytest.raises(ValueError, match="needs backend='ray'"):
        tournament(game, agents, 2, ray_address="10.0.0.1:6379")


def test_the_ray_backend_without_ray_says_what_to_install(monkeypatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # what an environment without Ray looks like to an import
    args = tournament_script.Args(config=["board_size=3"], agents="random,path", games_per_pairing=2, backend="ray",
                                  workers=2, csv="", png="", progress=False)  # fmt: skip
    with pytest.raises(ImportError, match=r'pip install "boardenvs\[distributed\]"'):
        tournament_script.main(args)
    with pytest.raises(ImportError, match=r'pip install "boardenvs\[distributed\]"'):
        NTBEA(SPACE, seed=0).run(noisy_fitness, 2, backend="ray")


def test_an_unreachable_ray_address_is_a_quick_clear_error() -> None:
    argv = ["--config", "board_size=3", "--agents", "random,path", "--games-per-pairing", "2", "--backend", "ray",
            "--ray-address", "127.0.0.1:9", "--csv", "", "--png", "", "--no-progress"]  # fmt: skip
    env = {**os.environ, "RAY_ADDRESS": ""}
    started = time.perf_counter()
    result = subprocess.run([sys.executable, "-m", "scripts.tournament", *argv], cwd=ROOT, capture_output=True,
                            text=True, timeout=120, env=env)  # fmt: skip
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert "error: --ray-address: cannot reach the Ray cluster at '127.0.0.1:9'" in result.stderr
    assert time.perf_counter() - started < 60
    started = time.perf_counter()
    with pytest.raises(ConnectionError, match="cannot reach the Ray cluster at '10.255.255.1:6379'"):
        check_reachable("10.255.255.1:6379", timeout=0.5)  # no Ray there: bounded by the timeout
    with pytest.raises(ConnectionError, match="cannot reach the Ray cluster at 'ray://127.0.0.1:9'"):
        check_reachable("ray://127.0.0.1:9", timeout=0.5)
    assert time.perf_counter() - started < 5
    with pytest.raises(ValueError, match="host:port"):
        check_reachable("no-port-here")


def test_a_running_cluster_is_reachable(cluster) -> None:
    check_reachable(cluster.address, timeout=5)


def test_the_script_starts_a_local_ray_and_logs_the_games_of_the_local_backend(tmp_path) -> None:
    """The whole command line: ``--backend ray`` without an address starts a private local Ray."""
    argv = ["--config", "board_size=3", "--agents", "random,path", "--games-per-pairing", "6", "--workers", "2",
            "--csv", "", "--png", "", "--no-progress"]  # fmt: skip
    temp = tempfile.mkdtemp(prefix="ray", dir="/tmp")
    env = {**os.environ, "RAY_TMPDIR": temp, "RAY_ADDRESS": ""}
    try:
        for backend in ("local", "ray"):
            command = [sys.executable, "-m", "scripts.tournament", *argv, "--backend", backend,
                       "--log", str(tmp_path / f"{backend}.jsonl")]  # fmt: skip
            result = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=180, env=env)
            assert result.returncode == 0, result.stderr
    finally:
        shutil.rmtree(temp, ignore_errors=True)
    assert log_lines(tmp_path / "ray.jsonl") == log_lines(tmp_path / "local.jsonl")
