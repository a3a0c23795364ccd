"""Who sits where in a duplicate tournament: the seating of the agents, its cyclic rotations
(each agent holds each hand of every deal) and the teams those rotations keep together."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np


def seating(specs: Sequence[str], num_players: int) -> list[str]:
    """Specs repeated in order to fill ``num_players`` seats."""
    if not specs:
        raise ValueError("a tournament needs at least one agent")
    if len(specs) > num_players:
        raise ValueError(f"{len(specs)} agents do not fit {num_players} seats; use --players or fewer agents")
    return [specs[seat % len(specs)] for seat in range(num_players)]


def rotations(seats: Sequence[str]) -> list[list[str]]:
    """The distinct cyclic rotations of a seating: rotation r seats ``seats[(j + r) % P]`` at seat j."""
    return [[seats[(j + r) % len(seats)] for j in range(len(seats))] for r in rotation_offsets(seats)]


def rotation_offsets(seats: Sequence[str]) -> list[int]:
    """The offsets r of :func:`rotations` (the first r giving each distinct seating)."""
    out: list[int] = []
    seen: list[list[str]] = []
    for r in range(len(seats)):
        rotated = [seats[(j + r) % len(seats)] for j in range(len(seats))]
        if rotated not in seen:
            seen.append(rotated)
            out.append(r)
    return out


def team_positions(teams: Sequence[Sequence[int]], offsets: Sequence[int], num_players: int) -> np.ndarray:
    """(R, P): the team (index into ``teams``, as the seating positions form them) that sits at
    each seat in each rotation. A cyclic rotation moves positions (0, 2) and (1, 3) onto each
    other, so partners stay partners; a team layout that a rotation would split raises."""
    team_of = {seat: t for t, team in enumerate(teams) for seat in team}
    out = np.zeros((len(offsets), num_players), np.int64)
    for i, r in enumerate(offsets):
        out[i] = [team_of[(seat + r) % num_players] for seat in range(num_players)]
        for team in teams:
            if len({int(out[i, seat]) for seat in team}) > 1:
                raise ValueError(
                    f"teams {[list(x) for x in teams]}: rotating the seating by {r} splits the "
                    f"partnership {list(team)}; duplicate tournaments need teams that cyclic "
                    "rotations keep together (partners opposite)"
                )
    return out
