"""The 2026-12-01 rule corrections as the environments show them: the kitty's privacy, a
cancelled deal and its redeal, settlements in ``infos``, Greek Hearts' readings.

The rules themselves (masks and points, deal by deal) are checked against the reference by the
differential test and by the scripted deals of ``test_reference`` / ``test_engine_scripted``.
"""

from __future__ import annotations

import numpy as np
import pytest

import hearts_env
from hearts_env.core.bits import random_bit
from hearts_env.core.cards import parse_card, parse_cards
from hearts_env.games.hearts.engine import DONE
from hearts_env.presets import make_rules
from hearts_env.table import Table

ALL_CARDS = [f"{r}{s}" for s in "CDHS" for r in "23456789TJQKA"]


# ---------------------------------------------------------------------- the kitty
def kitty_table() -> tuple[Table, int]:
    """3-player Hearts with a kitty (one card: Q♠), played up to the end of the first trick."""
    rules = make_rules("hearts", 3, leftover="kitty", pass_directions=("hold",))
    deck = [c for c in ALL_CARDS if c != "QS"]
    table = Table(rules, 1)
    table.reset(options={"hands": [deck[0::3], deck[1::3], deck[2::3]], "kitty": ["QS"]})
    rng = np.random.default_rng(0)
    while table.state.trick_number[0] == 0:
        table.step(random_bit(table.legal(), rng))
    return table, int(table.state.first_trick_winner[0])


def test_kitty_points_stay_private_until_the_deal_ends() -> None:
    table, taker = kitty_table()
    lay = table.observer.layout
    queen = parse_card("QS")
    trick_points = int(table.state.points[0, taker]) - 13
    for seat in range(3):
        obs = table.observe(np.array([seat]))[0]
        seen = lay.view(obs, "points_taken") * 26  # by relative seat
        kitty = lay.view(obs, "kitty")
        relative = (taker - seat) % 3
        if seat == taker:
            assert kitty[queen] == 1 and kitty.sum() == 1
            assert round(seen[0]) == trick_points + 13
        else:
            assert kitty.sum() == 0, "only the taker sees the kitty"
            assert round(seen[relative]) == trick_points, "the others do not see its points"
    # The batched path (B > 1) shows the same as the one-game path.
    many = Table(table.rules, 2)
    many.load_state_dict({**table.state_dict(), "num_games": 2, "fields": _twice(table)})
    for seat in range(3):
        np.testing.assert_array_equal(
            many.observe(np.array([seat, seat]))[1], table.observe(np.array([seat]))[0]
        )
    rng = np.random.default_rng(1)
    while table.state.phase[0] != DONE:
        table.step(random_bit(table.legal(), rng))
    obs = table.observe(np.array([(taker + 1) % 3]))[0]
    assert round(lay.view(obs, "points_taken")[2] * 26) == int(table.state.points[0, taker])


def _twice(table: Table) -> dict[str, np.ndarray]:
    return {k: np.concatenate([v, v]) for k, v in table.state_dict()["fields"].items()}


def test_kitty_piece_only_where_there_is_a_kitty() -> None:
    assert "kitty" not in hearts_env.layout(make_rules("hearts")).slices
    assert "kitty" in hearts_env.layout(make_rules("hearts", 5, leftover="kitty")).slices


# ---------------------------------------------------------------------- first trick of penalty cards
def hearts_hand_deal() -> list[list[str]]:
    """4-player deal where seat 1 holds all 13 hearts: a hand of only penalty cards."""
    others = [c for c in ALL_CARDS if not c.endswith("H")]
    hearts = [c for c in ALL_CARDS if c.endswith("H")]
    return [others[0:13], hearts, others[13:26], others[26:39]]


def test_redeal_cancels_at_once_and_the_same_dealer_deals_again() -> None:
    table = Table(make_rules("hearts", first_trick_all_penalty="redeal"), 1)
    table.reset(options={"hands": hearts_hand_deal(), "dealer": 2, "pass_direction": "hold"})
    s = table.state
    assert s.phase[0] != DONE and not s.cancelled[0], "the cancelled deal was dealt again"
    assert s.dealer[0] == 2 and s.deal_index[0] == 0 and (s.totals[0] == 0).all()
    assert s.hands[0, 1] != np.uint64(sum(1 << c for c in parse_cards([c for c in ALL_CARDS if "H" in c])))


def test_redeal_after_the_pass_ends_the_deal_with_no_points() -> None:
    """Seat 1 passes its clubs and receives three hearts: all 13 hearts after the exchange."""
    hands = [
        parse_cards("QH KH AH 2D 3D 4D 5D 6D 7D 8D 9D TD JD"),
        parse_cards("2H 3H 4H 5H 6H 7H 8H 9H TH JH 3C 4C 5C"),
        parse_cards("2C 6C 7C 8C 9C TC JC QC KC AC QD KD AD"),
        parse_cards("2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS"),
    ]
    env = hearts_env.env("hearts", first_trick_all_penalty="redeal")
    env.reset(options={"hands": hands, "dealer": 3, "pass_direction": "left"})
    passes = {0: "QH KH AH", 1: "3C 4C 5C", 2: "6C 7C 8C", 3: "2S 3S 4S"}
    final = {}
    for agent in env.agent_iter():
        _, reward, terminated, _, info = env.last()
        if terminated:
            final[agent] = (reward, info)
            env.step(None)
            continue
        seat = int(agent.split("_")[1])
        chosen = env.unwrapped.table.state.chosen[0, seat]
        card = next(c for c in parse_cards(passes[seat]) if not int(chosen) >> c & 1)
        env.step(card)
    assert all(
        info["cancelled"] and info["deal_points"] == 0 and reward == 0 for reward, info in final.values()
    )
    env.reset()  # the next deal: the same dealer again, pass left again, deal index 0
    s = env.unwrapped.table.state
    assert s.dealer[0] == 3 and s.deal_index[0] == 0 and s.pass_direction[0] == 0


@pytest.mark.parametrize("rule", ["not_counted", "to_lowest"])
def test_first_trick_rules_score_the_deal(rule: str) -> None:
    """With all 13 hearts in one hand and no pass, a heart goes on the first trick; the deal's
    points still add up (26 less the uncounted heart, or 26)."""
    table = Table(make_rules("hearts", first_trick_all_penalty=rule), 1)
    table.reset(options={"hands": hearts_hand_deal(), "pass_direction": "hold"})
    assert table.state.all_penalty[0]
    rng = np.random.default_rng(2)
    while table.state.phase[0] != DONE:
        table.step(random_bit(table.legal(), rng))
    s = table.state
    first_heart = s.uncounted[0] if rule == "not_counted" else s.set_aside[0]
    assert first_heart != 0
    total = int(s.deal_points[0].sum())
    if s.moon_shooter[0] < 0:
        assert total == (25 if rule == "not_counted" else 26)


# ---------------------------------------------------------------------- settlements in infos
def test_chips_are_in_infos_where_the_preset_settles() -> None:
    for preset, reading, has_chips in [
        ("black_lady_foster", "jackpot", True),
        ("hearts_1887", "chips", True),
        ("hearts", None, False),
    ]:
        env = hearts_env.env(preset, reading=reading)
        env.reset(seed=0)
        rng = np.random.default_rng(0)
        infos = {}
        for agent in env.agent_iter():
            obs, _, terminated, _, info = env.last()
            if terminated:
                infos[agent] = info
                env.step(None)
            else:
                env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        assert all(("chips" in info) == has_chips for info in infos.values()), preset
        if has_chips:
            chips = [info["chips"] for info in infos.values()]
            assert all(float(c).is_integer() for c in chips)
            pool = float(env.unwrapped.table.state.pool[0])
            assert sum(chips) + pool == 0, "chips are neither made nor lost"


# ---------------------------------------------------------------------- Greek Hearts
def test_greek_culbertson_forbids_a_heart_lead_to_the_first_trick() -> None:
    rules = make_rules("greek_hearts", reading="culbertson")
    table = Table(rules, 1)
    hands = hearts_hand_deal()
    hands[0], hands[1] = hands[1][:10] + hands[0][:3], hands[0][3:] + hands[1][10:]
    table.reset(options={"hands": hands, "dealer": 3, "pass_direction": "hold"})
    legal = [c for c in range(52) if int(table.legal()[0]) >> c & 1]
    assert table.state.current[0] == 0 and legal == parse_cards(hands[0][10:])


def test_heartsette_widow_goes_to_the_first_trick_winner_and_only_he_sees_it() -> None:
    rules = make_rules("heartsette", 4)  # 2♠ out, 12 cards each, a widow of 3
    deck = [c for c in ALL_CARDS if c not in ("2S", "2H", "3H", "AH")]
    table = Table(rules, 1)
    table.reset(
        options={"hands": [deck[0::4], deck[1::4], deck[2::4], deck[3::4]], "kitty": ["2H", "3H", "AH"]}
    )
    rng = np.random.default_rng(4)
    while table.state.trick_number[0] == 0:
        table.step(random_bit(table.legal(), rng))
    taker = int(table.state.first_trick_winner[0])
    widow = parse_cards("2H 3H AH")
    assert all(int(table.state.taken[0, taker]) >> c & 1 for c in widow)
    lay = table.observer.layout
    for seat in range(4):
        obs = table.observe(np.array([seat]))[0]
        seen = lay.view(obs, "points_taken") * 26
        assert lay.view(obs, "kitty")[widow].sum() == (3 if seat == taker else 0)
        mine = round(seen[(taker - seat) % 4])
        assert mine == int(table.state.points[0, taker]) - (0 if seat == taker else 3)
