"""The scripted deals of ``test_reference`` replayed on the batched engine.

Every test of that module runs again here with ``ReferenceDeal`` replaced by the fast engine
(``EngineDeal``), so masks, trick winners and points are asserted trick by trick on both. Error
messages differ between the two, so ``assert_rejected`` here checks that the card is refused
with a message naming seat and card and that nothing changed, not the reference's wording.
"""

from __future__ import annotations

import numpy as np
import pytest

import tests.test_reference as scripted
from hearts_env.core.cards import card_symbol, parse_card
from tests.engine_deal import EngineDeal
from tests.test_reference import *  # noqa: F403 — re-collect every scripted test here


def _assert_rejected(d: EngineDeal, card: str, *words: str) -> None:
    before = d.table.state.copy()
    with pytest.raises(ValueError) as err:
        d.step(parse_card(card))
    message = str(err.value)
    assert f"seat {d.current_player} cannot play {card_symbol(parse_card(card))}" in message
    after = d.table.state
    assert all(np.array_equal(getattr(before, f), getattr(after, f)) for f in vars(before))


@pytest.fixture(autouse=True)
def _use_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(scripted, "ReferenceDeal", EngineDeal)
    monkeypatch.setattr(scripted, "assert_rejected", _assert_rejected)
