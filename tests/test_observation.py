"""The observation: every named piece checked against the game state, computed plainly."""

from __future__ import annotations

import numpy as np
import pytest

from hearts_env.core.bits import random_bit
from hearts_env.core.cards import cards_of, parse_card
from hearts_env.games.hearts.engine import DONE, PASSING
from hearts_env.observation import layout
from hearts_env.presets import make_rules
from hearts_env.table import Table


def plain_observation(table: Table, game: int, seat: int) -> dict[str, np.ndarray]:
    """The pieces for one game and seat, from the state, one Python loop at a time."""
    s, rules = table.state, table.rules
    p, c = rules.num_players, 52 + rules.jokers

    def onehot(cards: list[int]) -> np.ndarray:
        v = np.zeros(c, np.float32)
        v[cards] = 1
        return v

    rel = [(seat + r) % p for r in range(p)]
    trick = np.zeros((p, c), np.float32)
    for position, card in enumerate(s.trick[game]):
        if card < 64:
            trick[position, card] = 1
    voids = np.array(
        [[int(s.voids[game]) >> (4 * q + suit) & 1 for suit in range(4)] for q in rel], np.float32
    )
    leader = np.zeros(p, np.float32)
    leader[(s.leader[game] - seat) % p] = 1
    direction = np.zeros(4, np.float32)
    direction[s.pass_direction[game]] = 1
    phase = np.zeros(2, np.float32)
    if s.phase[game] != DONE:
        phase[0 if s.phase[game] == PASSING else 1] = 1
    played = table.engine.hearts_broken(s)[game]
    return {
        "hand": onehot(cards_of(int(s.hands[game, seat]))),
        "played_by_seat": np.stack([onehot(cards_of(int(table.engine.played_by(s)[game, q]))) for q in rel]),
        "current_trick": trick,
        "passed": onehot(cards_of(int(s.chosen[game, seat]))),
        "received": onehot(cards_of(int(s.received[game, seat]))),
        "known_voids": voids,
        "trick_leader": leader,
        "pass_direction": direction,
        "phase": phase,
        "hearts_broken": np.array([played], np.float32),
        "card_values": np.array(rules.card_points[:c], np.float32) / 26,
        "points_taken": np.array([s.points[game, q] for q in rel], np.float32) / 26,
        "scores": np.array([s.totals[game, q] for q in rel], np.float32) / rules.target_score,
        "deal_index": np.array([s.deal_index[game] / 10], np.float32),
    }


@pytest.mark.parametrize(
    ("preset", "players"), [("hearts", 4), ("black_maria", 3), ("omnibus", 6), ("hearts", 5)]
)
def test_pieces_match_the_state(preset: str, players: int) -> None:
    table = Table(make_rules(preset, players), 8, episode="game")
    table.reset(seed=1)
    lay = table.observer.layout
    rng = np.random.default_rng(0)
    for step in range(300):
        seats = rng.integers(0, players, 8)  # any seat can be observed, acting or not
        obs = table.observe(seats)
        for g in (0, 3, 7):
            expected = plain_observation(table, g, int(seats[g]))
            for name, value in expected.items():
                np.testing.assert_allclose(
                    lay.view(obs, name)[g], value, rtol=1e-6, err_msg=f"{name} @ {step}"
                )
            one = table.observer(table.state.take(np.array([g])), seats[g : g + 1])  # the B = 1 path
            np.testing.assert_array_equal(one[0], obs[g])
        result = table.step(random_bit(table.engine.legal(table.state), rng))
        if result.deal_ended.any():
            table.redeal(np.flatnonzero(result.deal_ended))


def test_layout_is_documented_and_contiguous() -> None:
    lay = layout(make_rules("hearts"))
    start = 0
    for name, shape in lay.pieces:
        assert lay.slices[name].start == start
        start += int(np.prod(shape))
    assert lay.size == start == 52 * 11 + 16 + 4 + 4 + 2 + 1 + 52 + 4 + 4 + 1
    assert lay.shape("played_by_seat") == (4, 52)
    with pytest.raises(KeyError, match="pieces"):
        lay.view(np.zeros((1, lay.size)), "nonsense")


def test_card_values_show_the_variant() -> None:
    maria = layout(make_rules("black_maria"))
    table = Table(make_rules("black_maria"), 1)
    table.reset(seed=0)
    values = maria.view(table.observe(), "card_values")[0]
    assert values[parse_card("AS")] == pytest.approx(7 / 26)
    assert values[parse_card("KS")] == pytest.approx(10 / 26)
    assert values[parse_card("QS")] == pytest.approx(0.5)
