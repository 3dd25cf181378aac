"""pytest at the repository root: modules of an optional integration are not collected (doctests) when the
library they adapt is not installed; their tests in ``tests/pipelines`` skip themselves the same way."""

import importlib.util

OPTIONAL_MODULES = {
    "boardenvs/openspiel.py": "pyspiel",
    "boardenvs/rllib.py": "ray",
    "baselines/web/app.py": "starlette",
}

collect_ignore = [path for path, library in OPTIONAL_MODULES.items() if importlib.util.find_spec(library) is None]
