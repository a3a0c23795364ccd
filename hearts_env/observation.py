"""The observation of every family: :func:`layout` gives the rules' layout, built by the
family's own observation module (the Hearts family's pieces: :mod:`hearts_env.games.hearts.observation`;
Smear's: :mod:`hearts_env.games.smear.observation`)."""

from __future__ import annotations

from hearts_env.core.layouts import Layout
from hearts_env.games import layout

__all__ = ["Layout", "layout"]
