"""The observation of every family: :func:`layout` gives the rules' layout, built by the
family's own observation module (the Hearts family's pieces: :mod:`hearts_env.hearts_observation`;
Smear's: :mod:`hearts_env.smear_observation`)."""

from __future__ import annotations

from hearts_env.games import layout
from hearts_env.layouts import Layout

__all__ = ["Layout", "layout"]
