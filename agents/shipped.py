"""The policies that ship with the package: where they live and what they are called (no torch).

:mod:`agents.ppo` plays them; :mod:`agents.pimc` asks whether a specialist ships before it
imports torch, so both read the names here. ``agents/checkpoints/<preset>-<n>p.pt`` is the
specialist of one preset and player count, ``agents/checkpoints/universal-<family>.pt`` the
universal network of a game family.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from hearts_env.core.rules import Rules

SHIPPED_DIR = Path(str(resources.files("agents") / "checkpoints"))
"""Where the shipped checkpoints live (with their learning curves): package data of :mod:`agents`
found through :mod:`importlib.resources`, so a source tree, an editable install and an installed
wheel all find them (packages install unzipped, so it is a directory)."""


def shipped_path(preset: str, num_players: int) -> Path:
    """Path of the shipped checkpoint for ``preset`` with ``num_players`` (it may not exist)."""
    return SHIPPED_DIR / f"{preset}-{num_players}p.pt"


def universal_path(game: str) -> Path:
    """Path of the shipped universal network of family ``game`` (it may not exist)."""
    return SHIPPED_DIR / f"universal-{game}.pt"


def shipped() -> list[str]:
    """Names (``<preset>-<n>p``, ``universal-<family>``) of the checkpoints that ship."""
    return sorted(p.stem for p in SHIPPED_DIR.glob("*.pt"))


def network_path(rules: Rules, network: str = "auto") -> tuple[Path, str]:
    """The shipped file ``ppo`` plays for ``rules`` and which network it is.

    ``network="universal"``: the family's universal network; ``"specialist"``: the specialist of
    this preset and player count; ``"auto"``: the specialist where one ships, else the universal
    network where that ships. Returns ``(path, "specialist" | "universal")``; the path may not
    exist (nothing ships), which the caller reports."""
    if network == "universal":
        return universal_path(rules.game), "universal"
    path = shipped_path(rules.preset, rules.num_players)
    if network == "auto" and not path.exists() and universal_path(rules.game).exists():
        return universal_path(rules.game), "universal"
    return path, "specialist"
