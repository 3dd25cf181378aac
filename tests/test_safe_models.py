"""Models that cannot run code (issue 29, "Trust no file").

Unpickling a file runs any code its author put in it. Each crafted file below (an SB3 zip whose ``data`` holds a
pickled object, ``torch.save``d and ``np.save``d objects with a ``__reduce__``) writes a marker file when it is
unpickled; the first test shows that they do. Every loader of a model file must then refuse them without the marker
appearing: ``sb3:`` (which reads the safe files, tensors and JSON), ``ppo:pretrained``/``dqn:pretrained`` shelves,
AlphaZero checkpoints, QLNN weights, tabular and Gravwell Q tables, and ``rllib:``; only the explicit switch
(``sb3:unsafe:``, ``rllib:unsafe:``) loads a pickled file. Also: damaged safe files and damaged or foreign shelf indexes
are errors naming the file, index entries cannot point outside their folder, the converter writes safe files that play
as the zip, the shipped models play as the zips they were converted from, and training runs save safe files.
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import json
import pickle
import shutil
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("sb3_contrib")

from sb3_contrib import MaskablePPO  # noqa: E402

from baselines.factory import make_agent  # noqa: E402
from baselines.learners.sb3 import pretrained as sb3_pretrained  # noqa: E402
from baselines.learners.sb3.agent import SB3Agent  # noqa: E402
from baselines.learners.sb3.convert import sample_positions  # noqa: E402
from baselines.learners.sb3.loading import load_model, model_steps  # noqa: E402
from baselines.learners.sb3.model_files import description_path, weights_path  # noqa: E402
from baselines.learners.sb3.policies import make_model  # noqa: E402
from baselines.learners.sb3.policy_model import PolicyModel  # noqa: E402
from baselines.learners.sb3.runs import SB3Settings, plan_training, restore_run, train  # noqa: E402
from baselines.learners.sb3.safe import UnsafeModelError  # noqa: E402
from baselines.learners.sb3.saving import save_model  # noqa: E402
from baselines.learners.sb3.training import OpponentMix, make_vec_env  # noqa: E402
from baselines.pretrained import Shelf, game_config  # noqa: E402
from boardenvs.observations import encode_observation  # noqa: E402
from boardenvs.registry import make_game  # noqa: E402
from scripts import convert_sb3  # noqa: E402

GAME = {"board_size": 3}
"""Quoridor 3x3: the tiny models' game."""


class Payload:
    """Unpickling it writes ``marker``: the stand-in for whatever code a crafted file could run."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self) -> tuple[Any, ...]:
        return exec, (f"open({str(self.marker)!r}, 'w').write('the payload ran')",)


@pytest.fixture(autouse=True)
def one_torch_thread() -> None:
    torch.set_num_threads(1)


@pytest.fixture(scope="module")
def models(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A tiny PPO and DQN for Quoridor 3x3 saved with ``save_model`` (zip and safe files): their zips."""
    torch.set_num_threads(1)
    folder, game = tmp_path_factory.mktemp("models"), make_game("quoridor", **GAME)
    paths = {}
    for algo, settings in (("ppo", {"n_steps": 64, "batch_size": 64}), ("dqn", {"learning_starts": 32})):
        model = make_model(algo, make_vec_env("quoridor", GAME, OpponentMix()), game, seed=0, **settings)
        model.learn(128)
        paths[algo] = save_model(model, folder / algo, game)
    return paths


@pytest.fixture
def marker(tmp_path: Path) -> Path:
    """The file a payload writes (it must not exist after any refusal)."""
    return tmp_path / "payload-ran"


# -- crafted files ----------------------------------------------------------------------------------------------------
def crafted_zip(source: Path, target: Path, marker: Path) -> Path:
    """A copy of the SB3 zip ``source`` whose ``data`` holds a pickled :class:`Payload` (SB3 unpickles it to load)."""
    target.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(source) as original, zipfile.ZipFile(target, "w") as copy:
        for name in original.namelist():
            content = original.read(name)
            if name == "data":
                data = json.loads(content)
                serialized = base64.b64encode(pickle.dumps(Payload(marker))).decode()
                data["policy_kwargs"] = {":type:": "<class 'dict'>", ":serialized:": serialized}
                content = json.dumps(data).encode()
            copy.writestr(name, content)
    return target


def crafted_torch_file(target: Path, marker: Path, wrap: Callable[[Any], Any] = lambda payload: payload) -> Path:
    """A ``torch.save`` file holding a :class:`Payload` (wrapped by ``wrap``, e.g. in a checkpoint's dict)."""
    target.parent.mkdir(parents=True, exist_ok=True)
    torch.save(wrap(Payload(marker)), target)
    return target


def crafted_safe_model(source_zip: Path, stem: Path, marker: Path) -> Path:
    """The safe files of ``source_zip``'s model at ``stem`` with a payload as the weights (and the description's
    digest updated to match: the author of a crafted model controls both files). Returns the ``.pt``."""
    weights = crafted_torch_file(weights_path(stem), marker)
    description = json.loads(description_path(source_zip).read_text())
    description["policy"]["weights_sha256"] = hashlib.sha256(weights.read_bytes()).hexdigest()
    description_path(stem).write_text(json.dumps(description))
    return weights


def crafted_npz(target: Path, marker: Path, key: str = "meta", **arrays: Any) -> Path:
    """An ``.npz`` whose array ``key`` is an object array holding a :class:`Payload` (numpy pickles those)."""
    target.parent.mkdir(parents=True, exist_ok=True)
    np.savez(target, **{key: np.array([Payload(marker)], dtype=object)}, **arrays)
    return target


def test_the_crafted_files_run_their_payload_when_unpickled(models: dict[str, Path], tmp_path: Path) -> None:
    """The control: each crafted file really runs code when a loader unpickles it (so the refusals below mean it)."""
    for number, load in enumerate(
        [
            lambda marker: MaskablePPO.load(crafted_zip(models["ppo"], tmp_path / "evil.zip", marker), device="cpu"),
            lambda marker: torch.load(crafted_torch_file(tmp_path / "evil.pt", marker), weights_only=False),
            lambda marker: np.load(crafted_npz(tmp_path / "evil.npz", marker), allow_pickle=True)["meta"],
            lambda marker: pickle.loads(pickle.dumps(Payload(marker))),
        ]
    ):
        marker = tmp_path / f"ran-{number}"
        with contextlib.suppress(Exception):  # what the loader does after the payload ran does not matter
            load(marker)
        assert marker.read_text() == "the payload ran", number


# -- the switch -------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("named", ["zip", "stem", "pt", "json"])
def test_an_sb3_zip_without_safe_files_is_refused_and_its_payload_never_runs(
    named: str, models: dict[str, Path], tmp_path: Path, marker: Path
) -> None:
    evil = crafted_zip(models["ppo"], tmp_path / "evil.zip", marker)
    path = {"zip": evil, "stem": evil.with_suffix(""), "pt": evil.with_suffix(".pt"), "json": evil.with_suffix(".json")}
    for load in (
        lambda: make_agent(f"sb3:{path[named]}", "quoridor"),
        lambda: SB3Agent.load(path[named]),
        lambda: load_model(path[named]),
    ):
        with pytest.raises(UnsafeModelError) as refused:
            load()
        message = str(refused.value)
        assert str(evil) in message and f"'sb3:unsafe:{evil}'" in message and "trusted=True" in message
        assert "runs any code" in message and "python -m scripts.convert_sb3 --model" in message
    assert not marker.exists()


def test_with_the_switch_a_trusted_zip_loads_as_sb3_saved_it(models: dict[str, Path], tmp_path: Path) -> None:
    alone = tmp_path / "alone.zip"
    shutil.copyfile(models["ppo"], alone)  # an SB3 zip without safe files
    agent = make_agent(f"sb3:unsafe:{alone}", "quoridor")
    assert isinstance(agent, SB3Agent) and isinstance(agent.model, MaskablePPO)
    game = make_game("quoridor", **GAME)
    state = game.initial_state(np.random.default_rng(0))
    assert game.is_legal(state, agent.act(game, state, 0))
    with pytest.raises(UnsafeModelError):
        make_agent(f"sb3:{alone}", "quoridor")


def test_a_model_with_safe_files_never_opens_its_zip(models: dict[str, Path], tmp_path: Path, marker: Path) -> None:
    stem = tmp_path / "model"
    for file_of in (weights_path, description_path):
        shutil.copyfile(file_of(models["ppo"]), file_of(stem))
    crafted_zip(models["ppo"], stem.with_suffix(".zip"), marker)  # a crafted zip beside intact safe files
    agent = make_agent(f"sb3:{stem}.zip", "quoridor")
    assert isinstance(agent.model, PolicyModel) and agent.model.algo == "ppo"
    assert not marker.exists()


@pytest.mark.parametrize("spec", ["sb3:", "sb3:unsafe:", "sb3:  ", "rllib:", "rllib:unsafe: "])
def test_a_spec_that_names_no_model_is_refused(spec: str) -> None:
    with pytest.raises(ValueError, match=r"names no model: write '(sb3|rllib):<path>'"):
        make_agent(spec, "quoridor")


# -- every loader refuses a payload -----------------------------------------------------------------------------------
def plant_shelf(folder: Path, file: str, algo: str = "ppo") -> None:
    """A shelf in ``folder`` whose index names ``file`` for Quoridor 3x3."""
    folder.mkdir(parents=True, exist_ok=True)
    entry = {"file": file, "game": "quoridor", "config": game_config(make_game("quoridor", **GAME)), "algo": algo,
             "command": "python -m scripts.learner_benchmark", "notes": ""}  # fmt: skip
    (folder / "index.json").write_text(json.dumps([entry]))


def play_pretrained(spec: str) -> None:
    game = make_game("quoridor", **GAME)
    make_agent(spec, "quoridor").act(game, game.initial_state(np.random.default_rng(0)), 0)


def sb3_weights(models: dict[str, Path], tmp_path: Path, marker: Path, monkeypatch: Any) -> tuple[Any, Path]:
    weights = crafted_safe_model(models["ppo"], tmp_path / "evil", marker)
    return lambda: make_agent(f"sb3:{weights}", "quoridor"), weights


def shelf_zip(algo: str) -> Callable[..., tuple[Any, Path]]:
    def plant(models: dict[str, Path], tmp_path: Path, marker: Path, monkeypatch: Any) -> tuple[Any, Path]:
        folder = tmp_path / "shelf"
        evil = crafted_zip(models[algo], folder / "evil.zip", marker)
        plant_shelf(folder, evil.name, algo)
        monkeypatch.setattr(sb3_pretrained, "MODELS_DIR", folder)
        return lambda: play_pretrained(f"{algo}:pretrained"), evil

    return plant


def shelf_weights(algo: str) -> Callable[..., tuple[Any, Path]]:
    def plant(models: dict[str, Path], tmp_path: Path, marker: Path, monkeypatch: Any) -> tuple[Any, Path]:
        folder = tmp_path / "shelf"
        weights = crafted_safe_model(models[algo], folder / "evil", marker)
        plant_shelf(folder, weights.name, algo)
        monkeypatch.setattr(sb3_pretrained, "MODELS_DIR", folder)
        return lambda: play_pretrained(f"{algo}:pretrained"), weights

    return plant


def alphazero_checkpoint(models: dict[str, Path], tmp_path: Path, marker: Path, monkeypatch: Any) -> tuple[Any, Path]:
    path = crafted_torch_file(tmp_path / "best.pt", marker, lambda payload: {"version": 1, "state_dict": payload})
    return lambda: make_agent(f"alphazero:checkpoint={path}", "quoridor"), path


def alphazero_shelf(models: dict[str, Path], tmp_path: Path, marker: Path, monkeypatch: Any) -> tuple[Any, Path]:
    from baselines.learners.alphazero import pretrained as alphazero_pretrained
    from baselines.learners.alphazero.network import load_checkpoint

    folder = tmp_path / "shelf"
    crafted_torch_file(folder / "evil.pt", marker)
    plant_shelf(folder, "evil.pt")
    game = make_game("quoridor", **GAME)
    return lambda: load_checkpoint(alphazero_pretrained.pretrained_checkpoint(game, folder), game), folder / "evil.pt"


def qlnn_weights(models: dict[str, Path], tmp_path: Path, marker: Path, monkeypatch: Any) -> tuple[Any, Path]:
    path = crafted_torch_file(tmp_path / "qlnn.pt", marker, lambda payload: {"format": "x", "state_dict": payload})
    return lambda: make_agent(f"qlnn:weights={path}", "quoridor"), path


def tabular_table(models: dict[str, Path], tmp_path: Path, marker: Path, monkeypatch: Any) -> tuple[Any, Path]:
    path = crafted_npz(tmp_path / "table.npz", marker, keys=np.zeros((1, 4), np.uint8), values=np.zeros((1, 2)))
    return lambda: make_agent(f"tabular_q:table={path}", "quoridor"), path


def gravwell_table(models: dict[str, Path], tmp_path: Path, marker: Path, monkeypatch: Any) -> tuple[Any, Path]:
    from baselines.learners.gravwell_q import GravwellQAgent

    path = crafted_npz(tmp_path / "gravwell_q.npz", marker, "q_play", q_stop=np.zeros(1), visits=np.zeros(1))
    path.with_suffix(".json").write_text(json.dumps({"settings": {}, "name": "q"}))
    return lambda: GravwellQAgent.load(path), path


LOADERS: dict[str, Callable[..., tuple[Any, Path]]] = {
    "sb3: weights": sb3_weights,
    "ppo:pretrained zip": shelf_zip("ppo"),
    "ppo:pretrained weights": shelf_weights("ppo"),
    "dqn:pretrained zip": shelf_zip("dqn"),
    "dqn:pretrained weights": shelf_weights("dqn"),
    "alphazero checkpoint": alphazero_checkpoint,
    "alphazero:pretrained shelf": alphazero_shelf,
    "qlnn weights": qlnn_weights,
    "tabular_q table": tabular_table,
    "gravwell Q table": gravwell_table,
}
"""Each loader of a model file and how to plant a crafted file in its path: ``(load, the crafted file)``."""


@pytest.mark.parametrize("loader", LOADERS)
def test_every_loader_refuses_a_file_that_would_run_code_and_names_it(
    loader: str, models: dict[str, Path], tmp_path: Path, marker: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    load, crafted = LOADERS[loader](models, tmp_path, marker, monkeypatch)
    with pytest.raises(ValueError) as refused:
        load()
    assert str(crafted) in str(refused.value), str(refused.value)
    assert not marker.exists(), f"{loader}: the payload ran"


def test_an_rllib_checkpoint_is_refused_without_the_switch(tmp_path: Path, marker: Path) -> None:
    try:
        from baselines.learners.rllib.agent import UnsafeCheckpointError
    except ImportError as error:
        pytest.skip(f"the RLlib agent does not import here ({error}); install boardenvs[pipelines]")
    checkpoint = tmp_path / "run" / "checkpoints" / "step_1"
    (checkpoint / "learner_group").mkdir(parents=True)
    (checkpoint / "class_and_ctor_args.pkl").write_bytes(pickle.dumps(Payload(marker)))
    with pytest.raises(UnsafeCheckpointError) as refused:
        make_agent(f"rllib:{tmp_path / 'run'}", "quoridor")
    message = str(refused.value)
    assert str(tmp_path / "run") in message and f"'rllib:unsafe:{tmp_path / 'run'}'" in message
    assert "pickle" in message and not marker.exists()
    with pytest.raises(FileNotFoundError):  # with the switch it goes on to load (here: a path with nothing there)
        make_agent(f"rllib:unsafe:{tmp_path / 'nowhere'}", "quoridor")


# -- damaged safe files -----------------------------------------------------------------------------------------------
def flipped(data: bytes, at: int) -> bytes:
    return data[:at] + bytes([data[at] ^ 0xFF]) + data[at + 1 :]


DAMAGES: dict[str, Callable[[bytes], bytes]] = {
    "truncated": lambda data: data[: len(data) // 2],
    "zeroed": lambda data: bytes(len(data)),
    "flipped": lambda data: flipped(data, len(data) // 2),
    "first byte flipped": lambda data: flipped(data, 0),
    "empty": lambda data: b"",
}


@pytest.mark.parametrize("damage", DAMAGES)
@pytest.mark.parametrize("file_of", [weights_path, description_path], ids=["weights", "description"])
def test_a_damaged_safe_file_is_an_error_naming_it(
    file_of: Callable[[Path], Path], damage: str, models: dict[str, Path], tmp_path: Path
) -> None:
    stem = tmp_path / "model"
    for each in (weights_path, description_path):
        shutil.copyfile(each(models["dqn"]), each(stem))
    target = file_of(stem)
    damaged = DAMAGES[damage](target.read_bytes())
    if damaged == target.read_bytes():
        pytest.skip("this damage leaves the file as it was")
    target.write_bytes(damaged)
    with pytest.raises(ValueError, match=f"'{target}'"):
        make_agent(f"sb3:{stem}.pt", "quoridor")


FOREIGN: dict[str, Any] = {
    "a list": [1, 2, 3],
    "another object": {"hello": "world"},
    "a shelf index": [{"file": "x.pt", "game": "quoridor", "config": {}}],
    "a card without its policy": "card",
    "a policy naming a module": "module",
    "a policy of another format": "format",
    "a card of an unknown game": "game",
}


@pytest.mark.parametrize("foreign", FOREIGN)
def test_a_foreign_description_is_an_error_naming_it(foreign: str, models: dict[str, Path], tmp_path: Path) -> None:
    stem = tmp_path / "model"
    shutil.copyfile(weights_path(models["ppo"]), weights_path(stem))
    card = json.loads(description_path(models["ppo"]).read_text())
    content = FOREIGN[foreign]
    if content == "card":
        content = {key: value for key, value in card.items() if key != "policy"}
    elif content == "module":
        content = {**card, "policy": {**card["policy"], "activation_fn": "os.system"}}
    elif content == "format":
        content = {**card, "policy": {**card["policy"], "format": "pickle"}}
    elif content == "game":
        content = {**card, "game": "chess"}
    description_path(stem).write_text(json.dumps(content))
    with pytest.raises(ValueError, match=f"'{description_path(stem)}'") as refused:
        SB3Agent.load(weights_path(stem))
    if foreign == "a policy naming a module":
        assert "unknown activation_fn 'os.system'" in str(refused.value)


def test_weights_that_do_not_fit_the_description_are_an_error_naming_them(
    models: dict[str, Path], tmp_path: Path
) -> None:
    stem = tmp_path / "model"
    card = json.loads(description_path(models["ppo"]).read_text())
    state = torch.load(weights_path(models["ppo"]), weights_only=True)
    for wrong in ({**state, "action_net.bias": torch.zeros(7)}, torch.load(weights_path(models["dqn"]))):
        torch.save(wrong, weights_path(stem))
        card["policy"]["weights_sha256"] = hashlib.sha256(weights_path(stem).read_bytes()).hexdigest()
        description_path(stem).write_text(json.dumps(card))
        with pytest.raises(ValueError, match=f"'{weights_path(stem)}' does not fit the policy"):
            SB3Agent.load(stem)
    weights_path(stem).unlink()
    with pytest.raises(FileNotFoundError, match=f"no weights file '{weights_path(stem)}'"):
        SB3Agent.load(stem)


@pytest.mark.parametrize("damage", ["truncated", "empty"])
def test_a_damaged_trusted_zip_is_an_error_naming_it(damage: str, models: dict[str, Path], tmp_path: Path) -> None:
    target = tmp_path / "model.zip"
    data = models["ppo"].read_bytes()
    target.write_bytes(data[: len(data) // 3] if damage == "truncated" else b"")
    with pytest.raises(ValueError, match=f"'{target}' is not a readable SB3 model"):
        make_agent(f"sb3:unsafe:{target}", "quoridor")


# -- shelf indexes ----------------------------------------------------------------------------------------------------
ENTRY = {"file": "model.pt", "game": "quoridor", "config": {"board_size": 3}}
BAD_INDEXES: dict[str, tuple[bytes, str]] = {
    "not JSON": (b"[{", r"is not a readable index \(not JSON"),
    "zeroed": (bytes(64), r"is not a readable index \(not JSON"),
    "an object": (b'{"file": "model.pt"}', r"must hold a JSON list of entries, not a JSON dict"),
    "a list of strings": (b'["model.pt"]', r"entry 1 must be a JSON object"),
    "no file": (json.dumps([{"game": "quoridor", "config": {}}]).encode(), r"entry 1 has no 'file'"),
    "no game": (json.dumps([{"file": "m.pt", "config": {}}]).encode(), r"entry 1 has no 'game'"),
    "no config": (json.dumps([ENTRY, {"file": "m.pt", "game": "quoridor"}]).encode(), r"entry 2 has no 'config'"),
    "config a list": (json.dumps([{**ENTRY, "config": [3]}]).encode(), r"entry 1: 'config' must be a JSON object"),
    "file a number": (json.dumps([{**ENTRY, "file": 7}]).encode(), r"entry 1: 'file' must be a JSON string"),
    "up and out": (json.dumps([{**ENTRY, "file": "../x.pt"}]).encode(), r"names the file '\.\./x\.pt'.*without '\.\.'"),
    "deeper up": (json.dumps([{**ENTRY, "file": "a/../../x.pt"}]).encode(), r"names the file 'a/\.\./\.\./x\.pt'"),
    "absolute": (json.dumps([{**ENTRY, "file": "/etc/passwd"}]).encode(), r"names the file '/etc/passwd'"),
    "empty file": (json.dumps([{**ENTRY, "file": ""}]).encode(), r"names the file ''"),
}


@pytest.mark.parametrize("bad", BAD_INDEXES)
def test_a_damaged_or_foreign_index_is_an_error_naming_it(bad: str, tmp_path: Path) -> None:
    content, message = BAD_INDEXES[bad]
    folder = tmp_path / "shelf"
    folder.mkdir()
    (folder / "index.json").write_bytes(content)
    shelf = Shelf(folder, "ppo:pretrained")
    with pytest.raises(ValueError, match=f"ppo:pretrained: .*'{folder / 'index.json'}'.*{message}"):
        shelf.find(make_game("quoridor", **GAME))
    with pytest.raises(ValueError, match=message):
        shelf.entries()


def test_an_index_entry_cannot_lead_out_of_its_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder, outside = tmp_path / "shelf", tmp_path / "outside.pt"
    outside.write_bytes(b"not in the shelf")
    plant_shelf(folder, "link.pt")
    (folder / "link.pt").symlink_to(outside)
    with pytest.raises(ValueError, match=r"names the file 'link\.pt', which leads out of .*through a symbolic link"):
        Shelf(folder, "ppo:pretrained").find(make_game("quoridor", **GAME))
    plant_shelf(folder, "../outside.pt")
    monkeypatch.setattr(sb3_pretrained, "MODELS_DIR", folder)
    with pytest.raises(ValueError, match=r"ppo:pretrained: the index .* names the file '\.\./outside\.pt'"):
        play_pretrained("ppo:pretrained")


# -- the shipped models -----------------------------------------------------------------------------------------------
SHIPPED_PLAY: dict[str, tuple[list[int], list[float]]] = {
    "quoridor": ([48, 17, 48, 17, 48, 17, 48, 17, 20, 22, 15, 17],
                 [0.7179, 0.9621, 0.9461, 0.9438, 0.747, 0.9298, 0.5502, 0.9942, 0.8231, 0.6662, 0.9471, 0.9942]),
    "node_conquest": ([1, 99, 6, 95, 25, 95, 26, 73, 47, 73, 47, 95],
                      [0.5757, 0.5162, 0.505, 0.5448, 0.3519, 0.5422, 0.5425, 0.4035, 0.5502, 0.3494, 0.4766, 0.7421]),
    "splendor": ([24, 24, 24, 24, 45, 24, 45, 58, 47, 48, 21, 50],
                 [0.3931, 0.3837, 0.2501, 0.5391, 0.8596, 0.5423, 0.6415, 0.8509, 0.5738, 0.7644, 0.4285, 0.8128]),
    "gravwell": ([5, 1, 5, 1, 5, 1, 30, 17, 32, 32, 30, 31],
                 [0.7362, 0.6928, 0.8038, 0.949, 0.6463, 1.0, 0.6775, 0.3983, 0.9987, 0.6991, 0.9577, 0.3893]),
    "battle_sheep": ([22, 15, 1278, 991, 535, 1012, 535, 1009, 535, 344, 535, 569],
                     [0.5995, 0.9645, 0.8827, 0.7861, 0.3558, 0.4332, 0.3381, 0.9141, 0.419, 0.8705, 0.4119, 0.8372]),
}  # fmt: skip
"""What each shipped SB3 zip chose (and the probability of that choice) at the 12 positions
``sample_positions(game, 12, seed=1)``, measured on the zips before they were converted (the converted files agreed
with them exactly, every logit, on 2,000 positions each; the zips were then removed from the shelf)."""


@pytest.mark.parametrize("entry", sb3_pretrained.shipped(), ids=lambda entry: entry["game"])
def test_each_shipped_model_is_safe_files_that_choose_as_its_zip_did(entry: dict[str, Any]) -> None:
    path = sb3_pretrained.MODELS_DIR / entry["file"]
    assert path.suffix == ".pt" and description_path(path).is_file() and not path.with_suffix(".zip").exists()
    game = make_game(entry["game"], **{key: value for key, value in entry["config"].items() if value is not None})
    agent = SB3Agent.load(path, game)
    assert isinstance(agent.model, PolicyModel)
    actions, probabilities = [], []
    for state, player in sample_positions(game, 12, seed=1):
        mask = np.array(game.legal_action_mask(state), dtype=bool)
        legal = np.flatnonzero(mask)
        scores = agent.action_scores(encode_observation(game, state, player, "array", mask))[legal].astype(np.float64)
        actions.append(int(legal[np.argmax(scores)]))
        probabilities.append(float(1.0 / np.exp(scores - scores.max()).sum()))
    expected_actions, expected_probabilities = SHIPPED_PLAY[entry["game"]]
    assert actions == expected_actions
    assert probabilities == pytest.approx(expected_probabilities, abs=1e-4)


def test_the_package_ships_no_sb3_zip() -> None:
    assert not list(sb3_pretrained.MODELS_DIR.glob("*.zip"))
    assert all(entry["file"].endswith(".pt") for entry in sb3_pretrained.shipped())


# -- the converter and the trainer ------------------------------------------------------------------------------------
@pytest.mark.parametrize("algo", ["ppo", "dqn"])
def test_the_converter_writes_safe_files_that_play_as_the_zip(
    algo: str, models: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    alone = tmp_path / f"{algo}.zip"
    shutil.copyfile(models[algo], alone)
    result = convert_sb3.main(convert_sb3.Args(model=str(alone), positions=40))
    assert result.weights == tmp_path / f"{algo}.pt" and result.description == tmp_path / f"{algo}.json"
    assert result.agreement is not None and result.agreement.identical and result.agreement.positions == 40
    warning = capsys.readouterr().err
    assert f"unpickling '{alone}'" in warning and "trusted because you asked" in warning
    converted = make_agent(f"sb3:{result.weights}", "quoridor")
    trusted = make_agent(f"sb3:unsafe:{alone}", "quoridor")
    game = make_game("quoridor", **GAME)
    for state, player in sample_positions(game, 20, seed=3):
        assert converted.act(game, state, player) == trusted.act(game, state, player)
    out = convert_sb3.main(convert_sb3.Args(model=str(alone), out=str(tmp_path / "elsewhere" / "copy"), positions=0))
    assert out.weights == tmp_path / "elsewhere" / "copy.pt" and out.agreement is None
    assert SB3Agent.load(out.weights).card.algo == algo


def test_the_converter_refuses_a_missing_zip_with_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        convert_sb3.cli(["--model", str(tmp_path / "missing.zip")])
    assert exit_.value.code == 2 and "--model" in capsys.readouterr().err


def test_a_training_run_saves_safe_files_beside_each_zip_and_resume_restores_them(tmp_path: Path) -> None:
    out = tmp_path / "run"
    settings = SB3Settings(game="quoridor", config=["board_size=3"], steps=256, n_envs=1, n_steps=64, batch_size=64,
                           n_epochs=1, eval_every=128, eval_games=2, opponents="random,selfplay", snapshot_every=128,
                           out=str(out), progress=False)  # fmt: skip
    result = train(settings)
    zips = [out / "model.zip", out / "latest.zip", out / "best.zip", *result.snapshots]
    assert len(result.snapshots) == 2 and all(path.parent == out / "snapshots" for path in result.snapshots)
    for path in zips:  # the self-play pool played these snapshots from their safe files during the run
        assert SB3Agent.load(path).card.steps == model_steps(path)
    # as a run saved before the safe format, or killed between a model's writes
    weights_path(out / "latest.zip").unlink()
    weights_path(result.snapshots[0]).write_bytes(weights_path(result.snapshots[1]).read_bytes())
    card = json.loads((out / "model.json").read_text())
    (out / "model.json").write_text(json.dumps({key: value for key, value in card.items() if key != "policy"}))
    with pytest.raises(UnsafeModelError):
        SB3Agent.load(out / "model.zip")
    _, notes = restore_run(plan_training(SB3Settings(**{**vars(settings), "resume": str(out), "out": ""})))
    rewritten = [note for note in notes if note.startswith("rewrote")]
    assert len(rewritten) == 3 and any("latest.pt" in note for note in rewritten), notes
    for path in zips:
        assert SB3Agent.load(path).card.steps == model_steps(path)
