"""The files of the neuro-evolution agent: a saved network (JSON with a digest, checked before it is trusted)
and the evolved networks shipped in this package's ``models/`` folder."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from baselines.learners.neuroevolution.network import Network, input_names
from baselines.runs import atomic_write_text, check_digest, with_digest

SHIPPED_NETWORKS: dict[bool, str] = {False: "gravwell_neuro_correct.json", True: "gravwell_neuro_inert.json"}
"""Shipped network per ``inert_tractors`` setting (in :data:`MODELS_DIR`)."""
MODELS_DIR = Path(__file__).resolve().parent / "models"
"""Where the shipped networks live."""


def shipped_network(inert_tractors: bool) -> Network:
    """The package's evolved network for the correct (False) or inert (True) tractors."""
    name = SHIPPED_NETWORKS[bool(inert_tractors)]
    data = (MODELS_DIR / name).read_bytes()
    return network_from_bytes(data, f"baselines/learners/neuroevolution/models/{name}", require_digest=True)[0]


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
