"""Differential harness for Smear: the batched engine against the plain reference, deal by deal.

Both play the same deals (``table.deal_masks`` with the undealt cards' order) with the same
choices. At every decision of every live game the acting seat and the legal actions (the whole
``table.action_mask()`` row: cards, bids, suits) must equal the reference's; at every deal's
end the pitcher, the bid, made, each category's side, the side points, the totals, whether the
game is over and who won it. Games carry over from deal to deal (totals to the target), so the
game-end rules are compared too.

Deals are uniform or suit-skewed (whole suits in few hands: long trumps, players with more than
``keep`` trumps, nine-card extras and early drop-outs, empty stocks); choices are uniform over
the legal cards, and bids are taken with a per-game eagerness so that passes, throw-ins, high
bids, set-backs and moon bids all occur.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

import numpy as np

from hearts_env.core.bits import BIT
from hearts_env.core.cards import cards_of
from hearts_env.core.rules import Rules
from hearts_env.games.hearts.stock import stock_order
from hearts_env.table import Table
from tests.reference_smear import ReferenceSmearDeal, reference_smear_game


@dataclass
class SmearOutcome:
    """What one run covered."""

    deals: int = 0
    decisions: int = 0
    thrown_in: int = 0
    made: int = 0
    set_back: int = 0
    moons: int = 0
    games_ended: int = 0
    not_in_play: int = 0
    """Category results "not in play" (a card that no hand held)."""
    nobody: int = 0
    """Game ties (a category nobody scored)."""
    decisions_by_kind: Counter[str] = field(default_factory=Counter)


def _deals(table: Table, rng: np.random.Generator, skew: float) -> tuple[np.ndarray, np.ndarray]:
    """Hands (B, P) and the undealt order (B, S): shuffled, or (a share ``skew`` of the games)
    with each suit's cards kept together so that a few hands hold long suits."""
    engine, b = table.engine, table.num_games
    deck = engine.deck_cards
    keys = rng.random((b, len(deck)))
    skewed = rng.random(b) < skew
    suit_order = rng.permuted(np.tile(np.arange(5), (b, 1)), axis=1)  # jokers (pseudo-suit 4) too
    suit = np.minimum(deck // 13, 4)
    keys = np.where(skewed[:, None], suit_order[np.arange(b)[:, None], suit[None, :]] + 0.8 * keys, keys)
    cards = deck[np.argsort(keys, axis=1)]
    n, h = table.rules.num_players, table.rules.hand_size
    hands = np.bitwise_or.reduce(BIT.take(cards[:, : n * h]).reshape(b, n, h), axis=2)
    undealt = cards[:, n * h :]
    order = undealt if skewed.all() else undealt.copy()
    # The undealt cards' order: kept as dealt in the skewed games (long runs of one suit in the
    # stock), shuffled in the others.
    plain = np.flatnonzero(~skewed)
    if len(plain) and undealt.shape[1]:
        mask = np.bitwise_or.reduce(BIT.take(undealt[plain]), axis=1)
        order[plain] = stock_order(mask, undealt.shape[1], rng)
    return hands, order


def run_smear(rules: Rules, games: int, deals: int, seed: int, skew: float = 0.5) -> SmearOutcome:
    """Play ``deals`` deals in each of ``games`` games on both implementations, comparing."""
    rng = np.random.default_rng(seed)
    table = Table(rules, games)
    names = rules.action_names
    out = SmearOutcome()
    teams = rules.num_teams
    totals = [[0] * teams for _ in range(games)]
    game_over = [True] * games
    played = [0] * games  # deals of the current game (a thrown-in deal does not count)
    for k in range(deals):
        hands, order = _deals(table, rng, skew)
        dealer = rng.integers(rules.num_players, size=games)
        new_game = np.array(game_over)
        table.deal_masks(hands, dealer=dealer, new_game=bool(k == 0), stock=order if order.shape[1] else None)
        for g in np.flatnonzero(new_game):
            totals[g] = [0] * teams
            played[g] = 0
        refs = [
            ReferenceSmearDeal(rules, [cards_of(int(m)) for m in hands[g]], int(dealer[g]), order[g].tolist())
            for g in range(games)
        ]
        eager = rng.random(games)
        moon_taste = rng.random(games) < 0.2
        while True:
            live = [g for g in range(games) if not refs[g].done]
            over = table.deal_over
            for g in range(games):
                assert bool(over[g]) == refs[g].done, (rules.preset, k, g, "deal end differs")
            if not live:
                break
            mask = table.action_mask()
            seat = table.current_player
            actions = np.zeros(games, np.int64)
            for g in live:
                ref = refs[g]
                legal = ref.legal_actions()
                engine_legal = np.flatnonzero(mask[g]).tolist()
                assert int(seat[g]) == ref.current, (rules.preset, k, g, "seat", int(seat[g]), ref.current)
                assert engine_legal == legal, (
                    rules.preset, rules.num_players, k, g, ref.phase,
                    [names[a] for a in engine_legal], [names[a] for a in legal],
                )  # fmt: skip
                actions[g] = _choose(names, legal, eager[g], moon_taste[g], rng)
                kind = names[actions[g]].split(":")[0] if actions[g] >= rules.card_slots else ref.phase
                out.decisions_by_kind[kind] += 1
                out.decisions += 1
            table.step(actions)
            for g in live:
                refs[g].step(int(actions[g]))
        info = table.game_info(np.arange(games))
        for g in range(games):
            ref = refs[g]
            out.deals += 1
            assert bool(info["cancelled"][g]) == ref.cancelled, (rules.preset, k, g, "thrown in")
            played[g] += not ref.cancelled
            new_totals, over_now, winner = reference_smear_game(rules, totals[g], ref, played[g])
            first = [seats[0] for seats in rules.teams] if rules.teams else list(range(rules.num_players))
            if ref.cancelled:
                out.thrown_in += 1
            else:
                got = {
                    "pitcher": int(info["pitcher"][g]), "bid": int(info["bid"][g]), "made": bool(info["made"][g]),  # noqa: E501
                    "categories": dict(zip(rules.categories, info["categories"][g].tolist())),
                    "side_points": [int(info["deal_points"][g, s]) for s in first],
                }  # fmt: skip
                want = {
                    "pitcher": ref.pitcher, "bid": ref.bid, "made": bool(ref.made),
                    "categories": dict(ref.categories), "side_points": list(ref.side_points),
                }  # fmt: skip
                assert got == want, (rules.preset, rules.num_players, k, g, got, want)
                out.made += bool(ref.made)
                out.set_back += not ref.made
                out.moons += bool(ref.moon)
                out.not_in_play += sum(v == -1 for v in ref.categories.values())
                out.nobody += sum(v == -2 for v in ref.categories.values())
            engine_totals = [int(info["total_points"][g, s]) for s in first]
            assert engine_totals == list(new_totals), (rules.preset, k, g, engine_totals, new_totals)
            assert bool(info["game_over"][g]) == bool(over_now), (rules.preset, k, g, "game over")
            if over_now:
                assert int(info["winner"][g]) == (-1 if winner is None else winner), (rules.preset, k, g)
                out.games_ended += 1
            totals[g] = list(new_totals)
            game_over[g] = bool(over_now)
    return out


def _choose(
    names: tuple[str, ...], legal: list[int], eager: float, moon: bool, rng: np.random.Generator
) -> int:
    """A random legal action; in the bidding, pass with probability ``1 - eager``, else a
    random bid (the moon bid only for moon-minded games)."""
    if any(names[a] == "pass" for a in legal) or any(names[a].startswith("bid:") for a in legal):
        bids = [a for a in legal if names[a].startswith("bid:") and (moon or names[a] != "bid:moon")]
        passes = [a for a in legal if names[a] == "pass"]
        if passes and (not bids or rng.random() > eager):
            return passes[0]
        if bids:
            return int(rng.choice(bids))
    return int(rng.choice(legal))
