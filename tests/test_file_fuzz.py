"""Fuzz over the files the suite reads back: nothing in a file is trusted.

Every kind of file that a run, an agent or a tool reads (tournament logs through ``read_records`` and through a
resumed tournament, the evolved-network run's ``history.csv``, an AlphaZero run's ``state.pt``, checkpoint and
replay files, tabular Q tables, the Gravwell and Battle Sheep Q tables and evolved networks shipped in
``baselines/learners/*/models``, QLNN weights and JSON replays) is damaged in five ways: **truncated** (to nothing,
one byte, half, all but the last byte, and for line formats at a line boundary), **zeroed** (all of it, or a block),
**bit-flipped** (one random bit, ``FLIPS`` times per file), **tampered** (the format stays valid, the values are
wrong) and **foreign** (a file of another kind). Reading it must then either

- raise a ``ValueError`` or ``FileNotFoundError`` whose message names the file (and, for files made of lines, the
  line, unless the error is about the file as a whole; a JSON replay's errors also name the move or field), never
  another exception from deep inside a library; or
- return exactly what the intact file gives (a flipped bit in a byte nobody reads, a truncated log that a resumed
  tournament completes): a damaged file never yields a different value.

The bit flips are drawn from a seed that differs on every run (``BOARDENVS_FILE_FUZZ_SEED`` fixes it); a failure
names the seed, the byte and the bit.
"""

from __future__ import annotations

import dataclasses
import json
import math
import os
import random
import re
import shutil
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import torch

from baselines.agent import RandomAgent
from baselines.arena import play_game, read_records, tournament
from baselines.arena.replays import replay_from_record
from baselines.learners.alphazero import AlphaZeroSettings, AlphaZeroTrainer, NetworkConfig, SelfPlaySettings
from baselines.learners.alphazero.network import load_checkpoint
from baselines.learners.alphazero.runfiles import load_examples
from baselines.learners.gravwell_q import GravwellQAgent
from baselines.learners.neuroevolution import (
    EvolutionSettings,
    evolve,
    network_from_bytes,
    resume_evolution,
    save_network,
    training_record,
    write_history,
)
from baselines.learners.qlnn import QNetwork
from baselines.learners.sheep_q import SheepQTable
from baselines.learners.tabular_q import QTable, train
from baselines.runs import with_digest
from boardenvs.registry import make_game
from boardenvs.replay import load_replay

SEED = int(os.environ.get("BOARDENVS_FILE_FUZZ_SEED") or random.SystemRandom().randrange(2**32))
FLIPS = 6
"""Random single-bit flips per kind of file."""
LEARNERS = Path(__file__).resolve().parents[1] / "baselines" / "learners"
SHIPPED = {
    "gravwell-q": LEARNERS / "gravwell_q" / "models",
    "battle-sheep-q": LEARNERS / "sheep_q" / "models",
    "battle-sheep-q-file": LEARNERS / "sheep_q" / "models",
    "gravwell-network": LEARNERS / "neuroevolution" / "models",
    "qlnn": LEARNERS / "qlnn" / "models",
}
"""The folder each kind's shipped file is copied from."""
TOY_AGENTS = {"a": RandomAgent, "b": RandomAgent}
TOY_GAMES = 6
EVOLUTION = EvolutionSettings(generations=3, children=1, start_runs=2, num_players=2, seed=1)
ALPHAZERO = AlphaZeroSettings(
    iterations=2,
    games_per_iteration=2,
    selfplay=SelfPlaySettings(simulations=4, batch_size=2, determinizations=1, fast_simulations=2),
    network=NetworkConfig(channels=4, blocks=1, hidden=8),
    buffer_iterations=2,
    epochs=1,
    batch_size=8,
    eval_games=0,
    seed=3,
)


# -- what a reader returns, in a form that compares exactly ------------------------------------------------------
def canon(value: Any) -> Any:
    """``value`` as nested tuples of plain values (arrays and tensors as dtype, shape and bytes), for ``==``."""
    if isinstance(value, torch.Tensor):
        value = value.detach().cpu().numpy()
    if isinstance(value, np.ndarray):
        return "array", value.dtype.str, value.shape, value.tobytes()
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return type(value).__name__, canon({item.name: getattr(value, item.name) for item in dataclasses.fields(value)})
    if isinstance(value, dict):
        return tuple(sorted((str(key), canon(item)) for key, item in value.items()))
    if isinstance(value, list | tuple):
        return tuple(canon(item) for item in value)
    if isinstance(value, float) and math.isnan(value):
        return "nan"
    return value


# -- the readers --------------------------------------------------------------------------------------------------
def read_log_records(path: Path) -> Any:
    return canon(read_records(path))


def resume_logged_tournament(path: Path) -> Any:
    return canon(tournament(make_game("toy_tictactoe"), TOY_AGENTS, TOY_GAMES, seed=5, log_path=path).records)


def resume_evolution_run(path: Path) -> Any:
    return canon(resume_evolution(path.parent, EVOLUTION))


def resume_alphazero_run(path: Path) -> Any:
    trainer = AlphaZeroTrainer("toy_tictactoe", {}, ALPHAZERO, path.parent, progress=False, resume=True)
    buffer = [(number, examples) for number, examples in trainer.buffer]
    return canon([trainer.net.state_dict(), trainer.best.state_dict(), trainer.optimizer.state_dict(),
                  trainer.history, buffer, trainer.restarted])  # fmt: skip


def read_checkpoint(path: Path) -> Any:
    net, metadata = load_checkpoint(path, make_game("toy_tictactoe"))
    return canon([net.state_dict(), metadata])


def read_replay_file(path: Path) -> Any:
    return canon(load_examples(path, make_game("toy_tictactoe")))


def read_tabular_q(path: Path) -> Any:
    table = QTable.load(path)
    return canon([table.game, table.settings, table.values, table.training])


def read_shipped_gravwell_q(path: Path) -> Any:
    agent = GravwellQAgent(0)
    agent.load_json(path.read_bytes(), repr(str(path)), require_digest=True)
    return canon([agent.settings, agent.q_play, agent.q_stop])


def read_shipped_sheep_q(path: Path) -> Any:
    table = SheepQTable.from_json(path.read_bytes(), repr(str(path)), require_digest=True)
    return canon([table.values, table.settings, table.training])


def read_sheep_q_file(path: Path) -> Any:
    table = SheepQTable.load(str(path))
    return canon([table.values, table.settings, table.training])


def read_shipped_network(path: Path) -> Any:
    return canon(network_from_bytes(path.read_bytes(), repr(str(path)), require_digest=True))


def read_qlnn(path: Path) -> Any:
    network = QNetwork.load(path)
    return canon([network.game, network.settings, network.training, network.module.state_dict()])


def read_json_replay(path: Path) -> Any:
    replay, _, states = load_replay(path)
    return canon([dataclasses.replace(replay, agents=(), meta={}), len(states)])


# -- tamperings: the format stays valid, the values are wrong ----------------------------------------------------
def edit_json_line(number: int, change: Callable[[dict], None]) -> Callable[[Path, Path], None]:
    """Rewrite line ``number`` (1-based) of a JSON-lines file with ``change`` applied."""

    def tamper(original: Path, target: Path) -> None:
        lines = original.read_text().splitlines(keepends=True)
        data = json.loads(lines[number - 1])
        change(data)
        lines[number - 1] = json.dumps(data) + "\n"
        target.write_text("".join(lines))

    return tamper


def edit_text(old: str, new: str) -> Callable[[Path, Path], None]:
    def tamper(original: Path, target: Path) -> None:
        text = original.read_text()
        assert old in text, old
        target.write_text(text.replace(old, new, 1))

    return tamper


def edit_cell(line: int, column: int, text: str) -> Callable[[Path, Path], None]:
    """Replace one cell of a CSV file (``line`` 1-based, ``column`` 0-based)."""

    def tamper(original: Path, target: Path) -> None:
        lines = original.read_text().splitlines()
        cells = lines[line - 1].split(",")
        cells[column] = text
        lines[line - 1] = ",".join(cells)
        target.write_text("\n".join(lines) + "\n")

    return tamper


def edit_json(change: Callable[[dict], None], digest: bool = True) -> Callable[[Path, Path], None]:
    """Change a JSON file's data; with ``digest``, write a new digest for it (a tamperer who knows the format)."""

    def tamper(original: Path, target: Path) -> None:
        data = json.loads(original.read_text())
        data.pop("sha256", None)
        change(data)
        target.write_text(json.dumps(with_digest(data) if digest else data))

    return tamper


def edit_torch(change: Callable[[dict], None]) -> Callable[[Path, Path], None]:
    def tamper(original: Path, target: Path) -> None:
        data = torch.load(original, weights_only=True)
        change(data)
        torch.save(data, target)

    return tamper


def edit_npz(change: Callable[[dict], None]) -> Callable[[Path, Path], None]:
    def tamper(original: Path, target: Path) -> None:
        with np.load(original, allow_pickle=False) as data:
            arrays = {name: data[name].copy() for name in data.files}
        change(arrays)
        with open(target, "wb") as handle:
            np.savez_compressed(handle, **arrays)

    return tamper


def first_tensor(state_dict: dict) -> torch.Tensor:
    return next(value for value in state_dict.values() if value.is_floating_point())


def poison(state_dict: dict, value: float = float("nan")) -> None:
    first_tensor(state_dict).view(-1)[0] = value


def reshape_first(state_dict: dict) -> None:
    key = next(iter(state_dict))
    state_dict[key] = torch.zeros(3)


def illegal_log_move(record: dict) -> None:
    record["actions"][1] = record["actions"][0]
    record["action_strings"][1] = record["action_strings"][0]


def meta_of(arrays: dict) -> dict:
    return json.loads(str(arrays["meta"][()]))


def set_meta(arrays: dict, change: Callable[[dict], None]) -> None:
    meta = meta_of(arrays)
    change(meta)
    arrays["meta"] = np.array(json.dumps(meta))


def change_policy(arrays: dict) -> None:
    arrays["policy"][0] = np.where(arrays["mask"][0], -arrays["policy"][0], 0.0)


def policy_off_mask(arrays: dict) -> None:
    illegal = np.flatnonzero(~arrays["mask"])
    arrays["policy"].reshape(-1)[illegal[0]] = 0.5


def first_q_value_changed(data: dict) -> None:
    data["q_play"][0][0] += 1.0


def replay_move(index: int, change: Callable[[dict], None]) -> Callable[[dict], None]:
    return lambda data: change(data["moves"][index])


def node_reads_itself(data: dict) -> None:
    data["network"]["nodes"][0][1] = 24  # node 0 has id 24: it may read only ids below it


LOG_TAMPERINGS = {
    "returns-changed": edit_json_line(3, lambda r: r.update(returns=[1.0, -1.0] if r["returns"][0] < 1 else [0, 0])),
    "illegal-action": edit_json_line(3, illegal_log_move),
    "players-swapped": edit_json_line(3, lambda r: r.update(players=[1 - p for p in r["players"]])),
    "notation": edit_json_line(3, lambda r: r["action_strings"].__setitem__(0, "z9")),
    "plies": edit_json_line(3, lambda r: r.update(plies=r["plies"] - 1)),
    "truncated": edit_json_line(3, lambda r: r.update(truncated=True)),
    "scores": edit_json_line(3, lambda r: r.update(scores=[5.0, 5.0])),
    "seed": edit_json_line(3, lambda r: r.update(seed=r["seed"] ^ 1)),
    "seats": edit_json_line(3, lambda r: r.update(agent_names=["b", "b"])),
    "header-game": edit_json_line(1, lambda h: h.update(game="TicTacToe(TicTacToeConfig(first_player=1))")),
    "header-version": edit_json_line(1, lambda h: h.update(version=7)),
}


@dataclass
class Kind:
    """A kind of file: how to make an intact one, how it is read, and how its values are tampered with."""

    name: str
    read: Callable[[Path], Any]
    file: str
    """The file's path inside the kind's folder (the folder holds what its reader needs next to it)."""
    lines: bool = False
    """A format made of lines: an error about one line names it."""
    whole_file: str = r"$^"
    """Errors about the file as a whole (no line to name), for a line format."""
    names_file: bool = True
    tamperings: dict[str, Callable[[Path, Path], None]] = field(default_factory=dict)
    accept: Callable[[Any, Any], bool] = field(default=lambda loaded, original: loaded == original)
    """Whether what the damaged file read as is acceptable: by default, exactly the intact file's values."""


def subset_of_records(loaded: Any, original: Any) -> bool:
    """``read_records`` of a log cut at a line boundary gives fewer games: each must be one of the originals."""
    return all(record in original for record in loaded)


KINDS = [
    Kind("log-read-records", read_log_records, "run.jsonl", lines=True, tamperings=LOG_TAMPERINGS,
         accept=subset_of_records),
    Kind("log-resume", resume_logged_tournament, "run.jsonl", lines=True, tamperings=LOG_TAMPERINGS),
    Kind("evolution-history", resume_evolution_run, "history.csv", lines=True,
         whole_file=r"is not the history|was saved after generation|is missing but", tamperings={
             "nan": edit_cell(3, 4, "nan"),
             "infinite": edit_cell(2, 2, "inf"),
             "not-a-number": edit_cell(2, 1, "x"),
             "float-runs": edit_cell(2, 1, "2.0"),
             "extra-column": edit_cell(3, 6, "False,1"),
             "header": edit_cell(1, 4, "tile"),
             "nodes": edit_cell(2, 5, "7"),
             "renumbered": edit_cell(3, 0, "0"),
             "flag": edit_cell(2, 6, "yes"),
         }),
    Kind("alphazero-state", resume_alphazero_run, "state.pt", tamperings={
        "nan-weight": edit_torch(lambda state: poison(state["net"])),
        "weight-shape": edit_torch(lambda state: reshape_first(state["best"])),
        "history": edit_torch(lambda state: state["history"][0].update(iteration=2)),
        "replay-window": edit_torch(lambda state: state.update(replay=[-1])),
        "settings": edit_torch(lambda state: state["settings"].update(learning_rate=0.5)),
        "optimizer": edit_torch(lambda state: state["optimizer"].update(param_groups=[])),
        "iteration": edit_torch(lambda state: state.update(iteration="2")),
    }),
    Kind("alphazero-checkpoint", read_checkpoint, "best.pt", tamperings={
        "nan-weight": edit_torch(lambda data: poison(data["state_dict"], float("inf"))),
        "weight-shape": edit_torch(lambda data: reshape_first(data["state_dict"])),
        "huge-network": edit_torch(lambda data: data["network"].update(channels=10**7)),
        "network-type": edit_torch(lambda data: data["network"].update(blocks="1")),
        "num-actions": edit_torch(lambda data: data.update(num_actions=10)),
        "game": edit_torch(lambda data: data.update(game="quoridor")),
        "shape": edit_torch(lambda data: data.update(observation_shape=[3, 3])),
        "extra": edit_torch(lambda data: data.update(extra=[1])),
    }),
    Kind("alphazero-replay", read_replay_file, "replay/iteration_002.npz", tamperings={
        "negative-policy": edit_npz(change_policy),
        "policy-off-mask": edit_npz(policy_off_mask),
        "mask-floats": edit_npz(lambda arrays: arrays.update(mask=arrays["mask"].astype(np.float32))),
        "value-2": edit_npz(lambda arrays: arrays["value"].__setitem__(0, 2.0)),
        "nan-observation": edit_npz(lambda arrays: arrays["observation"].reshape(-1).__setitem__(0, np.nan)),
        "lengths": edit_npz(lambda arrays: arrays.update(score=arrays["score"][1:])),
        "missing": edit_npz(lambda arrays: arrays.pop("policy")),
        "observation-shape": edit_npz(lambda arrays: arrays.update(observation=arrays["observation"][:, :2])),
        "empty": edit_npz(lambda arrays: arrays.update({name: value[:0] for name, value in arrays.items()})),
    }),
    Kind("tabular-q", read_tabular_q, "table.npz", tamperings={
        "nan-value": edit_npz(lambda arrays: arrays["values"].__setitem__((0, 0), np.nan)),
        "repeated-key": edit_npz(lambda arrays: arrays["keys"].__setitem__(1, arrays["keys"][0])),
        "values-shape": edit_npz(lambda arrays: arrays.update(values=arrays["values"][:, :3])),
        "meta-not-json": edit_npz(lambda arrays: arrays.update(meta=np.array("{not json"))),
        "format": edit_npz(lambda arrays: set_meta(arrays, lambda meta: meta.update(format_version=2))),
        "settings": edit_npz(lambda arrays: set_meta(arrays, lambda meta: meta["settings"].update(learning_rate=5))),
        "unknown-setting": edit_npz(lambda arrays: set_meta(arrays, lambda meta: meta["settings"].update(x=1))),
        "game-actions": edit_npz(lambda arrays: set_meta(arrays, lambda meta: meta["game"].update(num_actions="9"))),
        "negative-zero-key": edit_npz(lambda arrays: arrays["keys"][0].view(np.float32).__setitem__(0, -0.0)),
    }),
    Kind("gravwell-q", read_shipped_gravwell_q, "gravwell_q_correct.json", tamperings={
        "nan": edit_json(lambda data: data["q_play"][0].__setitem__(0, float("nan"))),
        "string-number": edit_json(lambda data: data["q_play"][0].__setitem__(0, "1.5")),
        "ragged": edit_json(lambda data: data["q_play"][0].pop()),
        "representation": edit_json(lambda data: data["settings"].update(representation=864)),
        "bad-setting": edit_json(lambda data: data["settings"].update(learning_rate=7)),
        "value-without-digest": edit_json(first_q_value_changed, digest=False),
        "stale-digest": edit_text('"sha256":"', '"sha256":"0'),
    }),
    Kind("battle-sheep-q", read_shipped_sheep_q, "battle_sheep_q.json", tamperings={
        "nan": edit_json(lambda data: data["values"][0][0].__setitem__(0, float("inf"))),
        "bool": edit_json(lambda data: data["values"][0][0].__setitem__(0, True)),
        "shape": edit_json(lambda data: data["values"].pop()),
        "format": edit_json(lambda data: data.update(version=2)),
        "bad-setting": edit_json(lambda data: data["settings"].update(epsilon=2.0)),
        "value-without-digest": edit_json(lambda data: data["values"][0][0].__setitem__(4, 0.5), digest=False),
    }),
    Kind("battle-sheep-q-file", read_sheep_q_file, "battle_sheep_q.json", tamperings={
        "nan": edit_json(lambda data: data["values"][0][0].__setitem__(0, float("nan"))),
        "value-under-old-digest": edit_text("0.28938", "0.28939"),
    }),
    Kind("gravwell-network", read_shipped_network, "gravwell_neuro_correct.json", tamperings={
        "node-reads-itself": edit_json(node_reads_itself),
        "float-id": edit_json(lambda data: data["network"]["outputs"].__setitem__(0, 1.5)),
        "operation": edit_json(lambda data: data["network"]["nodes"][0].__setitem__(0, "divide")),
        "inputs": edit_json(lambda data: data["inputs"].reverse()),
        "outputs": edit_json(lambda data: data["network"]["outputs"].pop()),
        "value-without-digest": edit_json(lambda data: data["network"]["outputs"].__setitem__(0, 3), digest=False),
    }),
    Kind("qlnn", read_qlnn, "quoridor_qlnn_5x5.pt", tamperings={
        "nan-weight": edit_torch(lambda data: poison(data["state_dict"])),
        "huge-hidden": edit_torch(lambda data: data["settings"].update(hidden=[10**6, 10**6])),
        "huge-observation": edit_torch(lambda data: data["game"].update(observation_shape=[2**40, 2**40])),
        "weight-shape": edit_torch(lambda data: reshape_first(data["state_dict"])),
        "format": edit_torch(lambda data: data.update(format="qlnn2")),
        "game-actions": edit_torch(lambda data: data["game"].update(num_actions="3")),
        "settings": edit_torch(lambda data: data["settings"].update(activation="softsign")),
    }),
    Kind("json-replay", read_json_replay, "replay.json", tamperings={
        "notation": edit_json(replay_move(0, lambda move: move.update(notation="z9")), digest=False),
        "illegal": edit_json(replay_move(1, lambda move: move.update(action=99)), digest=False),
        "player": edit_json(replay_move(0, lambda move: move.update(player=1)), digest=False),
        "returns": edit_json(lambda data: data["result"].update(returns=data["result"]["returns"][::-1]), False),
        "plies": edit_json(lambda data: data["result"].update(plies=1), digest=False),
        "version": edit_json(lambda data: data.update(game_version=9), digest=False),
    }),
]  # fmt: skip
KIND = {kind.name: kind for kind in KINDS}


# -- the intact files ---------------------------------------------------------------------------------------------
def make_originals(root: Path) -> dict[str, Path]:
    """Every kind's intact file, each in a folder of its own with what its reader needs beside it."""
    folders = {kind.name: root / kind.name for kind in KINDS}
    for folder in folders.values():
        folder.mkdir()
    toy = make_game("toy_tictactoe")
    tournament(toy, TOY_AGENTS, TOY_GAMES, seed=5, log_path=folders["log-read-records"] / "run.jsonl")
    shutil.copy(folders["log-read-records"] / "run.jsonl", folders["log-resume"] / "run.jsonl")
    make_evolution_run(folders["evolution-history"])
    make_alphazero_run(folders["alphazero-state"])
    for name in ("alphazero-checkpoint", "alphazero-replay"):
        shutil.copytree(folders["alphazero-state"], folders[name], dirs_exist_ok=True)
    agent, _ = train(toy, 30, "random", seed=0)
    agent.save(folders["tabular-q"] / "table.npz")
    for name, folder in SHIPPED.items():
        shutil.copy(folder / KIND[name].file, folders[name] / KIND[name].file)
    record = play_game(toy, [RandomAgent(0), RandomAgent(1)], seed=3)
    replay_from_record(toy, record).save(folders["json-replay"] / "replay.json")
    return folders


def make_evolution_run(folder: Path) -> None:
    """An evolution run's ``history.csv`` and ``network.json``, written as ``scripts.evolve_gravwell`` does."""
    history: list = []

    def save(record: Any, network: Any) -> None:
        history.append(record)
        write_history(history, folder / "history.csv")
        save_network(network, folder / "network.json", training_record(EVOLUTION, history))

    evolve(EVOLUTION, on_generation=save)


def make_alphazero_run(folder: Path) -> None:
    torch.set_num_threads(1)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(AlphaZeroTrainer, "_plot", lambda self: None)  # the picture is not read back
        AlphaZeroTrainer("toy_tictactoe", {}, ALPHAZERO, folder, progress=False).run()


@pytest.fixture(scope="module")
def originals(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Path, Any]]:
    """Each kind's folder and what its reader gives for the intact file."""
    folders = make_originals(tmp_path_factory.mktemp("originals"))
    contents = {}
    for kind in KINDS:
        copy = Path(shutil.copytree(folders[kind.name], tmp_path_factory.mktemp(kind.name) / "intact"))
        contents[kind.name] = (folders[kind.name], kind.read(copy / kind.file))
    return contents


# -- the damage ---------------------------------------------------------------------------------------------------
def truncate(size: Callable[[int], int]) -> Callable[[Path, Path], str]:
    def damage(original: Path, target: Path) -> str:
        data = original.read_bytes()
        target.write_bytes(data[: size(len(data))])
        return f"cut to {size(len(data))} of {len(data)} bytes"

    return damage


def cut_at_line(original: Path, target: Path) -> str:
    lines = original.read_bytes().splitlines(keepends=True)
    target.write_bytes(b"".join(lines[:-1]))
    return f"cut to its first {len(lines) - 1} lines"


def zero(block: bool) -> Callable[[Path, Path], str]:
    def damage(original: Path, target: Path) -> str:
        data = bytearray(original.read_bytes())
        start, end = (len(data) // 3, len(data) // 3 + 64) if block else (0, len(data))
        data[start:end] = bytes(len(data[start:end]))
        target.write_bytes(bytes(data))
        return f"bytes {start}..{end} zeroed"

    return damage


def flip(kind: str, number: int) -> Callable[[Path, Path], str]:
    def damage(original: Path, target: Path) -> str:
        data = bytearray(original.read_bytes())
        rng = random.Random(f"{SEED}/{kind}/{number}")
        position, bit = rng.randrange(len(data)), rng.randrange(8)
        data[position] ^= 1 << bit
        target.write_bytes(bytes(data))
        return f"bit {bit} of byte {position} of {len(data)} flipped (BOARDENVS_FILE_FUZZ_SEED={SEED})"

    return damage


def tampered(kind: Kind, name: str) -> Callable[[Path, Path], str]:
    def damage(original: Path, target: Path) -> str:
        kind.tamperings[name](original, target)
        return f"tampered: {name}"

    return damage


def cases() -> list[Any]:
    """``(kind, damage name, damage)`` for every kind and every damage."""
    found = []
    for index, kind in enumerate(KINDS):
        damages: dict[str, Any] = {
            "empty": truncate(lambda size: 0),
            "one-byte": truncate(lambda size: 1),
            "half": truncate(lambda size: size // 2),
            "all-but-the-last-byte": truncate(lambda size: size - 1),
            "zeroed": zero(block=False),
            "zeroed-block": zero(block=True),
        }
        if kind.lines:
            damages["cut-at-a-line"] = cut_at_line
        damages |= {f"flip-{number}": flip(kind.name, number) for number in range(FLIPS)}
        damages |= {f"tampered-{name}": tampered(kind, name) for name in kind.tamperings}
        for other in (KINDS[(index + 3) % len(KINDS)], KINDS[(index + 7) % len(KINDS)]):
            damages[f"foreign-{other.name}"] = other.name
        found += [pytest.param(kind.name, name, damage, id=f"{kind.name}-{name}") for name, damage in damages.items()]
    return found


@pytest.mark.parametrize(("kind_name", "damage_name", "damage"), cases())
def test_a_damaged_file_is_a_clear_error_or_reads_as_the_intact_one(
    tmp_path: Path, originals: dict[str, tuple[Path, Any]], kind_name: str, damage_name: str, damage: Any
) -> None:
    kind = KIND[kind_name]
    folder, intact = originals[kind_name]
    target = Path(shutil.copytree(folder, tmp_path / "run")) / kind.file
    original = folder / kind.file
    if isinstance(damage, str):  # a foreign file: another kind's intact file in this one's place
        other = KIND[damage]
        shutil.copy(originals[damage][0] / other.file, target)
        what = f"replaced by the {damage} file"
    else:
        what = damage(original, target)
    try:
        loaded = kind.read(target)
    except (ValueError, FileNotFoundError) as error:
        check_message(kind, target, str(error), what)
        if os.environ.get("BOARDENVS_FILE_FUZZ_SHOW"):
            print(f"\n{kind_name} / {what}:\n    {error}")
        return
    must_fail = damage_name.startswith(("tampered-", "foreign-"))
    assert not must_fail, f"{kind_name}, {what}: the file was accepted"
    assert kind.accept(loaded, intact), f"{kind_name}, {what}: the damaged file was read as other values"


def check_message(kind: Kind, path: Path, message: str, what: str) -> None:
    if kind.names_file:
        assert str(path) in message, f"{kind.name}, {what}: the error does not name the file: {message}"
    if kind.lines and not re.search(kind.whole_file, message):
        assert re.search(r"\bline \d+", message), f"{kind.name}, {what}: the error names no line: {message}"
