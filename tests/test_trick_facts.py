"""The engine publishes what happened in each finished trick, and it is the reference's.

``Table.last_winner`` (who took the deal's last finished trick, -1 before the first or when it
was cancelled) and ``Table.last_cancelled`` are what a UI shows instead of working the rule
out itself. After every step of a few hundred random deals per preset they must equal the last
entry of the independent reference's ``completed_tricks``: Hearts (lockstep, mixed and per-game
paths), Domino Hearts (a winner out of cards hands the lead on), Cancellation Hearts (two decks:
cancelled tricks) and Smear (the highest trump; a winner left without cards).
"""

from __future__ import annotations

import numpy as np
import pytest

from hearts_env.core.cards import cards_of
from hearts_env.core.phases import BID, DISCARD, NAME_SUIT
from hearts_env.core.rules import PASS_DIRECTIONS, Rules
from hearts_env.games.hearts.engine import DONE
from hearts_env.presets import make_rules
from hearts_env.table import STATE_VERSION, Table
from tests.reference import ReferenceDeal
from tests.reference_smear import ReferenceSmearDeal

BATCH, ROUNDS = 40, 6


def _cards(table: Table, word: str, index: tuple[int, ...]) -> list[int]:
    """The cards of one card set of the state as dealt, a card twice for both copies."""
    s = table.state
    cards = cards_of(int(getattr(s, word)[index]))
    if table.engine.two_decks:
        cards = sorted(cards + cards_of(int(getattr(s, f"{word}_hi")[index])))
    return cards


def _deal_hearts(table: Table, rng: np.random.Generator, first: bool) -> list[ReferenceDeal]:
    """A random deal in every game, each game its own dealer and pass direction (some holding,
    so that a lockstep batch mixes passing and playing games); the references of those deals."""
    rules, batch, n = table.rules, table.num_games, table.rules.num_players
    directions = [d for d in PASS_DIRECTIONS if not (d == "across" and n % 2)]
    if rules.pass_count == 0:
        directions = ["hold"]
    picks = rng.integers(0, len(directions), batch)
    direction = np.array([PASS_DIRECTIONS.index(directions[d]) for d in picks])
    dealer = rng.integers(0, n, batch)
    hands, kitty = table.engine.shuffled_hands(rng, batch)
    table.deal_masks(hands, kitty, dealer, direction, new_game=first)
    s = table.state
    return [
        ReferenceDeal(
            rules,
            [_cards(table, "hands", (g, seat)) for seat in range(n)],
            int(s.dealer[g]),
            PASS_DIRECTIONS[int(s.pass_direction[g])],
            totals=[int(t) for t in s.totals[g]],
            kitty=_cards(table, "kitty", (g,)) if rules.kitty_size else None,
            stock=[int(c) for c in s.stock[g]] if rules.stock_size else None,
        )
        for g in range(batch)
    ]


def _deal_smear(table: Table, rng: np.random.Generator, first: bool) -> list[ReferenceSmearDeal]:
    """A random deal in every game (the table's generator); the references of those deals."""
    table.reset(seed=int(rng.integers(2**31)), new_game=first)
    s, n = table.state, table.rules.num_players
    return [
        ReferenceSmearDeal(
            table.rules,
            [cards_of(int(s.hands[g, seat])) for seat in range(n)],
            int(s.dealer[g]),
            s.stock[g].tolist(),
        )
        for g in range(table.num_games)
    ]


def _on_record(ref: ReferenceDeal | ReferenceSmearDeal) -> tuple[int, bool]:
    """The reference's last finished trick: (its winner, -1 if none or cancelled; cancelled)."""
    if not ref.completed_tricks:
        return -1, False
    winner = ref.completed_tricks[-1][1]
    return (-1, True) if winner is None else (winner, False)


def _play(rules: Rules, seed: int) -> dict[str, int]:
    """Play ``ROUNDS`` deals in ``BATCH`` games on the engine and the references with the same
    random choices, comparing the published trick facts after every step; returns counts of
    what the deals covered."""
    rng = np.random.default_rng(seed)
    table = Table(rules, BATCH)
    smear = rules.game == "smear"
    seen = {"tricks": 0, "cancelled": 0, "lead_passed_on": 0}
    for r in range(ROUNDS):
        refs = (_deal_smear if smear else _deal_hearts)(table, rng, first=r == 0)
        per_game = r % 3 == 2  # the per-game path, as when lockstep does not hold
        while (table.state.phase != DONE).any():
            if per_game and not smear:
                table.state.lockstep = False
            mask = table.action_mask().astype(bool)
            actions = np.argmax(np.where(mask, rng.random(mask.shape), -1.0), axis=1)
            live = np.flatnonzero(~table.deal_over)
            before = [len(refs[g].completed_tricks) for g in range(BATCH)]
            table.step(actions)
            for g in live:
                refs[g].step(int(actions[g]))
            for g in range(BATCH):
                want = _on_record(refs[g])
                got = (int(table.last_winner[g]), bool(table.last_cancelled[g]))
                assert got == want, (
                    f"{rules.preset} round {r} game {g} after {len(refs[g].completed_tricks)} tricks: "
                    f"engine (winner, cancelled) {got}, reference {want}"
                )
                if len(refs[g].completed_tricks) > before[g]:
                    seen["tricks"] += 1
                    seen["cancelled"] += want[1]
                    leader = refs[g].current if smear else refs[g].current_player
                    playing = not (refs[g].done if smear else refs[g].phase == "done")
                    seen["lead_passed_on"] += playing and not want[1] and leader != want[0]
    return seen


@pytest.mark.parametrize(
    ("preset", "players", "options"),
    [
        ("hearts", 4, {}),
        ("hearts", 3, {"leftover": "kitty"}),
        ("joker_hearts", 4, {}),
        ("domino_hearts", 4, {}),
        ("cancellation_hearts", 6, {}),
        ("cancellation_hearts", 7, {}),
        ("smear_partnership", 4, {}),
        ("smear_nine_card", 4, {}),
    ],
)
def test_published_trick_winner_is_the_reference_s(preset: str, players: int, options: dict) -> None:
    rules = make_rules(preset, players, **options)
    seen = _play(rules, seed=players)
    assert seen["tricks"] >= BATCH * ROUNDS
    if rules.decks == 2:
        assert seen["cancelled"], "no trick was cancelled: the deals did not reach the rule"
    if rules.stock_size and rules.game != "smear":
        assert seen["lead_passed_on"], "no winner out of cards handed the lead on"


def test_a_new_deal_has_no_trick_on_record() -> None:
    table = Table(make_rules("cancellation_hearts"), 3)
    table.reset(seed=5)
    table.state.last_winner[:] = 2
    table.state.last_cancelled[:] = True
    table.reset()
    assert (table.last_winner == -1).all() and not table.last_cancelled.any()
    with pytest.raises(ValueError, match="read-only"):
        table.last_winner[0] = 1


def test_a_state_of_the_previous_version_loads_upgraded() -> None:
    """States saved by version 1 (before ``last_winner`` / ``last_cancelled`` existed) load with
    no trick on record; a version-2 state missing a field is still refused."""
    rules = make_rules("hearts")
    table = Table(rules, 4)
    table.reset(seed=3)
    rng = np.random.default_rng(0)
    for _ in range(20):  # the pass (12 decisions), then two tricks
        mask = table.action_mask().astype(bool)
        table.step(np.argmax(np.where(mask, rng.random(mask.shape), -1.0), axis=1))
    assert (table.last_winner >= 0).all()
    saved = table.state_dict()
    assert saved["version"] == STATE_VERSION == 3
    added = ("last_winner", "last_cancelled")
    fields = {k: v for k, v in saved["fields"].items() if k not in added}
    old = {**saved, "version": 1, "rules": {**saved["rules"], "episode": "deal", "illegal_action": "raise"}}
    old["fields"] = fields
    again = Table(rules, 4)
    again.load_state_dict(old)
    assert (again.last_winner == -1).all() and not again.last_cancelled.any()
    np.testing.assert_array_equal(again.state.hands, table.state.hands)
    with pytest.raises(ValueError, match=r"fields missing \['last_cancelled', 'last_winner'\], unknown \[\]"):
        again.load_state_dict({**old, "version": 2})
    del old["fields"]["last_leader"]
    with pytest.raises(ValueError, match=r"fields missing \['last_leader'\], unknown \[\]"):
        again.load_state_dict(old)
    with pytest.raises(ValueError, match="version 0, this code reads versions 1, 2 and 3"):
        again.load_state_dict({**saved, "version": 0})


def test_a_smear_state_of_the_previous_version_reads_its_phases_in_the_new_codes() -> None:
    """Version 1 numbered Smear's phases bid 3, name_suit 4, discard 5; loaded, they are the
    one vocabulary's (hearts_env.core.phases), and the games go on as the saved ones would."""
    rules = make_rules("smear_widow")
    table = Table(rules, 3)
    table.reset(seed=5)
    rng = np.random.default_rng(1)
    seen = set()
    for _ in range(40):  # bids, trumps, discards, a few tricks
        seen |= set(table.state.phase.tolist())
        saved = table.state_dict()
        old_codes = {BID: 3, NAME_SUIT: 4, DISCARD: 5}
        phase = saved["fields"]["phase"]
        old = {
            **saved,
            "version": 1,
            "rules": {**saved["rules"], "episode": "deal", "illegal_action": "raise"},
            "fields": {**saved["fields"], "phase": np.array([old_codes.get(int(c), int(c)) for c in phase])},
        }
        again = Table(rules, 3)
        again.load_state_dict(old)
        np.testing.assert_array_equal(again.state.phase, table.state.phase)
        np.testing.assert_array_equal(again.action_mask(), table.action_mask())
        mask = table.action_mask().astype(bool)
        table.step(np.argmax(np.where(mask, rng.random(mask.shape), -1.0), axis=1))
        if table.deal_over.any():
            break
    assert {BID, NAME_SUIT, DISCARD} <= seen
