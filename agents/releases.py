"""Released agents: today's strong agents kept playable under a dated name (no torch).

A **release** freezes what makes an agent play as it does: the parameters of its defaults and the
SHA-256 of every network file it reads. ``ppo@2026-12`` and ``pimc@2026-12`` are agent specs like
any other (``hearts-env tournament --agents pimc@2026-12,pimc``): the name before ``@`` is the
agent, the part after it the release, and the spec is read as the agent with the release's
parameters (``pimc@2026-12`` is ``pimc:release=2026-12:worlds=16:...``; a parameter written in the
spec replaces the release's). The plain name (``ppo``, ``pimc``) is always the newest version, so
"better than today's" stays something anyone can replay after the defaults move on.

Where the files are: a release's networks are the shipped files of that day. When a later
release ships new files under the same names, the older ones move to
``agents/checkpoints/<release>/``; a released agent reads the first of
``agents/checkpoints/<release>/NAME.pt`` and ``agents/checkpoints/NAME.pt`` whose SHA-256 is the
release's, and refuses to play anything else (one line naming the file and both digests).

Adding a release: a new entry in :data:`RELEASES` with the digests (``sha256sum
agents/checkpoints/*.pt``) and, for each agent, every parameter whose default decides its play. A
parameter added to an agent later must be pinned in each older release to the value that plays as
before.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any


@dataclass(frozen=True)
class Release:
    """One release: the day's parameters of each released agent and the digests of its networks."""

    name: str
    """The release's name, the part after ``@`` (``2026-12``)."""
    agents: MappingProxyType[str, MappingProxyType[str, Any]]
    """Agent name -> the parameters that agent plays with in this release (``release`` aside)."""
    files: MappingProxyType[str, str] = field(default_factory=lambda: MappingProxyType({}))
    """Network file stem (``hearts-4p``, ``universal-hearts``) -> its SHA-256 (hex)."""


def _release(name: str, agents: dict[str, dict[str, Any]], files: dict[str, str]) -> Release:
    frozen = {agent: MappingProxyType(dict(params)) for agent, params in agents.items()}
    return Release(name, MappingProxyType(frozen), MappingProxyType(dict(files)))


RELEASES: MappingProxyType[str, Release] = MappingProxyType({
    "2026-12": _release(
        "2026-12",
        agents={
            "ppo": {"network": "auto", "greedy": True},
            "pimc": {"worlds": 16, "rollout": "best", "fallback": "best", "bids": True, "margin": 1.0},
        },
        files={
            "black_maria-3p": "49f1a7fd8bdf5cabe5887c186d3560681aa14697149cb43ec5f30017b1204597",
            "hearts-4p": "f3bc1e5f591b5cbd16950f49c3a6950fdea67061d3f18bb3c6cea461f881149b",
            "smear_partnership-4p": "ab6ad7b2288fd377f0eea2accff50312d8cc1a665ad9bd7e1eccc14c3cea3dd6",
            "universal-hearts": "69fbf4496a8e3c7f5b24ee151e9490398e64c64ffdf556f7c280242074c1e5da",
            "universal-smear": "5af2c84abcb0c4fd3f0b167afc735d0ddb11feff56586dcf594e9c6af29f4dc9",
        },
    ),
})  # fmt: skip
"""Every release, oldest first."""

SEPARATOR = "@"
"""What parts an agent's name from its release in a spec (``ppo@2026-12``)."""


def released_names() -> list[str]:
    """Every ``AGENT@RELEASE`` name, release by release."""
    return [f"{agent}{SEPARATOR}{r.name}" for r in RELEASES.values() for agent in r.agents]


def split(name: str) -> tuple[str, Release | None]:
    """``"pimc@2026-12"`` -> ``("pimc", RELEASES["2026-12"])``; a name without ``@`` -> ``(name, None)``.

    An unknown release, or one that does not release that agent, is one ``ValueError`` naming the
    releases there are."""
    agent, sep, release = name.partition(SEPARATOR)
    if not sep:
        return name, None
    known = [r.name for r in RELEASES.values() if agent in r.agents]
    if release not in RELEASES or agent not in RELEASES[release].agents:
        listed = f"its releases: {', '.join(known)}" if known else None
        which = listed or f"released agents: {', '.join(released_names())}"
        raise ValueError(f"agent {name!r}: {agent} has no release {release!r} ({which})")
    return agent, RELEASES[release]


def release(name: str) -> Release:
    """The release called ``name`` (``ValueError`` listing the releases otherwise)."""
    if name not in RELEASES:
        raise ValueError(f"release must be one of {', '.join(RELEASES)}, got {name!r}")
    return RELEASES[name]


__all__ = ["RELEASES", "SEPARATOR", "Release", "release", "released_names", "split"]
