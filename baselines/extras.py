"""Which extra of the package a missing module comes with, so that a feature that needs one says what to install.

``baselines`` itself imports with numpy alone; the learners import torch, SB3, Ray and the rest when they are
used. A ``ModuleNotFoundError`` from deep inside one of them is turned into an ``ImportError`` that names the
feature and the extra (``missing_extra(error, "the agent 'ppo:pretrained'")``).
"""

from __future__ import annotations

EXTRA_OF_MODULE: dict[str, str] = {
    "torch": "train",
    "stable_baselines3": "train",
    "sb3_contrib": "train",
    "tqdm": "scripts",
    "matplotlib": "scripts",
    "PIL": "render",
    "pygame": "render",
    "starlette": "web",
    "uvicorn": "web",
    "rl_zoo3": "zoo",
    "ray": "distributed",
    "tianshou": "pipelines",
    "torchrl": "pipelines",
}
"""The extra (``pip install "boardenvs[<extra>]"``) that installs each optional top-level module."""


def install_hint(module: str) -> str | None:
    """``pip install "boardenvs[<extra>]"`` for an optional top-level ``module``; ``None`` if no extra has it."""
    extra = EXTRA_OF_MODULE.get(module.split(".")[0])
    return None if extra is None else f'pip install "boardenvs[{extra}]"'


def missing_extra(error: ModuleNotFoundError, feature: str) -> ImportError | None:
    """An ``ImportError`` saying that ``feature`` needs the missing module of ``error`` and which extra has it;
    ``None`` when the module is not an optional dependency (then the original error is the honest one)."""
    module = error.name or ""
    hint = install_hint(module)
    if hint is None:
        return None
    return ImportError(f"{feature} needs {module.split('.')[0]}, which is not installed: {hint}")
