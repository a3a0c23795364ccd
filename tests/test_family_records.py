"""What the family records decide for the table and the search agent (``Family.positions``,
``Family.rollouts``): the branches on the family's name they replaced, read from the record."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

import agents
from hearts_env import Position, Table, make_rules
from hearts_env.core.phases import PLAYING
from hearts_env.games import FAMILIES, family
from hearts_env.testing import check_family


def playing(preset: str, num_games: int = 2) -> Table:
    """A table of ``preset`` whose games are all in their play phase (random legal actions)."""
    table, rng = Table(make_rules(preset), num_games=num_games), np.random.default_rng(5)
    table.reset(seed=3)
    while not (table.state.phase == PLAYING).all():
        table.step(np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in table.action_mask()]))
    return table


def test_each_record_says_how_its_positions_start_a_table() -> None:
    """A table starts from its family's batch (or the family's one-position form, for every
    game), reads its positions back, and refuses another family's position naming the batch it
    needs."""
    hearts, smear = playing("hearts"), playing("smear_partnership")
    one = hearts.position(0)
    hearts.set_position(one)
    assert hearts.position(1) == one
    assert isinstance(one, Position)
    batch = smear.position(0)
    assert isinstance(batch, FAMILIES["smear"].positions.batch)
    smear.set_position(batch)
    with pytest.raises(
        TypeError, match="a Smear table starts from a hearts_env.games.smear.positions.SmearPositionBatch"
    ):
        smear.set_position(one)
    three = FAMILIES["hearts"].positions.single(hearts.rules, one).take(np.zeros(3, np.int64))
    with pytest.raises(ValueError, match="a PositionBatch for this table needs 2 positions"):
        hearts.set_position(three)


def test_a_family_without_positions_starts_from_deals_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """A record without ``positions`` (a family that has none yet) is refused by name."""
    rules = make_rules("smear_partnership")
    table = playing("smear_partnership", num_games=1)
    monkeypatch.setitem(FAMILIES, rules.game, replace(family(rules), positions=None))
    with pytest.raises(NotImplementedError, match="a Smear table starts only from deals"):
        table.position(0)
    report = check_family("smear_partnership", deals=1)
    assert "positions" in dict(report.skipped)


def test_only_a_family_whose_engine_has_rollout_players_plays_them_out() -> None:
    """``Table.play_out`` plays the engine's bit-mask players where the family's engine has them;
    elsewhere it refuses (it used to fail deep in the players with an IndexError)."""
    smear = Table(make_rules("smear_partnership"), num_games=2)
    smear.reset(seed=1)
    with pytest.raises(NotImplementedError, match="not a player of the Smear engine, which has none"):
        smear.play_out("random", np.random.default_rng(0))
    hearts = Table(make_rules("hearts"), num_games=2)
    hearts.reset(seed=1)
    assert hearts.play_out("fast", np.random.default_rng(0)).shape == (2, 4)


@pytest.mark.parametrize("rollout", ["ducker", "fast"])
def test_search_refuses_a_player_its_engine_lacks_unless_an_agent_plays_it(rollout: str) -> None:
    """In Smear, ``random`` and ``lowest`` roll out as the agents of those names; the Hearts
    engine's other players are refused, naming the family that has them and why no agent does."""
    rules = make_rules("smear_partnership")
    assert agents.from_rules("pimc", rules, rollout="lowest", fallback="random").rollout_agent is not None
    with pytest.raises(
        ValueError,
        match=f"rollout='{rollout}' cannot play smear_partnership: '{rollout}' is a Hearts-family player, "
        "not one of the Smear",
    ):
        agents.from_rules("pimc", rules, rollout=rollout, fallback="random")
