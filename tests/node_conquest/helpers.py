"""Shared builders of the Node Conquest tests."""

from __future__ import annotations

from typing import Any

RING8: dict[str, Any] = {
    "topology": "graph",
    "nodes": 8,
    "edges": tuple((i, (i + 1) % 8) for i in range(8)),
    "growth": (1, 2, 1, 3, 1, 2, 1, 3),
    "starts": (0, 4),
}
"""A ring of 8 nodes with different growth rates."""
