"""The Hearts family (docs/rules.md): its engine, state, observation, positions, worlds, scoring,
decisions, rollouts and rules prose, declared as one record, :data:`FAMILY`."""

from hearts_env.games.hearts.engine import Engine
from hearts_env.games.hearts.family import FAMILY
from hearts_env.games.hearts.observation import Observer
from hearts_env.games.hearts.positions import Position, PositionBatch
from hearts_env.games.hearts.state import State

__all__ = ["FAMILY", "Engine", "Observer", "Position", "PositionBatch", "State"]
