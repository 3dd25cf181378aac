"""The package list, which pyproject.toml cannot express: ``boardenvs`` and ``baselines`` as found, and the
repository's ``scripts/`` folder installed under the name ``boardenvs_scripts``.

A wheel therefore puts no top-level ``scripts`` package beside a user's own (the modules import each other
relatively); from the repository root, ``python -m scripts.<name>`` runs the same files. Everything else is in
``pyproject.toml``.
"""

from setuptools import find_packages, setup

setup(
    packages=[*find_packages(include=["boardenvs", "boardenvs.*", "baselines", "baselines.*"]), "boardenvs_scripts"],
    package_dir={"boardenvs_scripts": "scripts"},
)
