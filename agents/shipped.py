"""The policies that ship with the package: where they live and what they are called (no torch).

:mod:`agents.ppo` plays them; :mod:`agents.pimc` asks whether a specialist ships before it
imports torch, so both read the names here. ``agents/checkpoints/<preset>-<n>p.pt`` is the
specialist of one preset and player count, ``agents/checkpoints/universal-<family>.pt`` the
universal network of a game family. A release (:mod:`agents.releases`) names the files of one
day by their SHA-256: :func:`release_path` finds them.
"""

from __future__ import annotations

import hashlib
from importlib import resources
from pathlib import Path

from agents.releases import Release
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


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def release_path(stem: str, release: Release) -> Path:
    """The file of network ``stem`` (``hearts-4p``) in ``release``: the first of
    ``checkpoints/<release>/STEM.pt`` and ``checkpoints/STEM.pt`` whose SHA-256 is the release's.

    A stem the release has no network for gives a path that does not exist (nothing shipped, as
    :func:`shipped_path`); a file there whose digest is not the release's is one ``ValueError``
    naming the file and both digests (a released agent never plays other weights)."""
    folder = SHIPPED_DIR / release.name
    if stem not in release.files:
        return folder / f"{stem}.pt"
    want = release.files[stem]
    found = [p for p in (folder / f"{stem}.pt", SHIPPED_DIR / f"{stem}.pt") if p.is_file()]
    for path in found:
        if _digest(path) == want:
            return path
    seen = "; ".join(f"{p} has sha256 {_digest(p)[:16]}…" for p in found) or "no file"
    raise ValueError(
        f"release {release.name}: network {stem} must have sha256 {want[:16]}…, found {seen}; "
        f"restore it as {folder / (stem + '.pt')}"
    )


def network_path(rules: Rules, network: str = "auto", release: Release | None = None) -> tuple[Path, str]:
    """The shipped file ``ppo`` plays for ``rules`` and which network it is.

    ``network="universal"``: the family's universal network; ``"specialist"``: the specialist of
    this preset and player count; ``"auto"``: the specialist where one ships, else the universal
    network where that ships. ``release``: the files of that release (:func:`release_path`), else
    today's. Returns ``(path, "specialist" | "universal")``; the path may not exist (nothing
    ships), which the caller reports."""
    if release is None:
        specialist, universal = shipped_path(rules.preset, rules.num_players), universal_path(rules.game)
    else:
        specialist = release_path(f"{rules.preset}-{rules.num_players}p", release)
        universal = release_path(f"universal-{rules.game}", release)
    if network == "universal":
        return universal, "universal"
    if network == "auto" and not specialist.exists() and universal.exists():
        return universal, "universal"
    return specialist, "specialist"
