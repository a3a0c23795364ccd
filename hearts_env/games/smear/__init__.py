"""Smear, the All Fours family (docs/smear.md): its engine, state, observation, positions, worlds
and rules prose, declared as one record, :data:`FAMILY`. The names match the Hearts family's
(:mod:`hearts_env.games.hearts`): ``Engine``, ``State``, ``Observer``, ``PositionBatch``."""

from hearts_env.games.smear.engine import SmearEngine as Engine
from hearts_env.games.smear.engine import SmearState as State
from hearts_env.games.smear.family import FAMILY
from hearts_env.games.smear.observation import SmearObserver as Observer
from hearts_env.games.smear.positions import SmearPositionBatch as PositionBatch

__all__ = ["FAMILY", "Engine", "Observer", "PositionBatch", "State"]
