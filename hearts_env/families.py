"""The game families' registry under its first name: :mod:`hearts_env.games` holds it (each
family's record declared with real objects); callers in every package keep this import, new code
imports :mod:`hearts_env.games`."""

from __future__ import annotations

from hearts_env.family import Family
from hearts_env.games import FAMILIES, family, family_of

__all__ = ["FAMILIES", "Family", "family", "family_of"]
