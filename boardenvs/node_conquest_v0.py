"""Deprecated: the name Node conquest's PettingZoo module had before module names carried the game's version.

Importing it warns (``DeprecationWarning`` naming the current module) and gives the current module's very
``raw_env``, ``env`` and ``parallel_env``; the versions are in docs/versions.md.
"""

from boardenvs.modules import deprecated_module

raw_env, env, parallel_env = deprecated_module(__name__, "node_conquest")
