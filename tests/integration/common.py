"""Shared by the integration tests with third-party RL libraries, each run in its own virtual environment by
``make integration-NAME`` (``make integration`` runs them all; CI does, after ``make test``).

In the main ``.venv`` these libraries are not installed and the tests skip. Under ``make
integration-NAME`` the variable ``HEARTS_ENV_INTEGRATION=NAME`` is set, and a library that does
not import is a failure, not a skip: a broken integration venv cannot pass silently.
"""

from __future__ import annotations

import importlib
import os
from types import ModuleType

import pytest


def require(module: str) -> ModuleType:
    """Import ``module``: skip the test without it, unless an integration run asked for it."""
    if os.environ.get("HEARTS_ENV_INTEGRATION"):
        return importlib.import_module(module)  # an ImportError fails the test
    return pytest.importorskip(module)


def check_deal_totals(preset: str, points: list[list[int]]) -> None:
    """The deal points sum as the rules say."""
    for deal in points:
        total = sum(deal)
        if preset == "hearts":  # 26, or 3 x 26 when the moon is shot
            assert total in (26, 78), deal
        elif preset == "black_maria":  # Q♠ 13, K♠ 10, A♠ 7, hearts 13; no moon
            assert total == 43, deal
        elif preset == "auction_hearts":  # 13 in the penalty suit, plus the winning bid (0..13)
            assert 13 <= total <= 26, deal
