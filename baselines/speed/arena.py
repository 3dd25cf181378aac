"""The live arena's speed: the server time of a person's move and a ``random`` bot's reply, per game."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import numpy as np

from boardenvs.registry import make_game


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
