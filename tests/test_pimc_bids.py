"""Dealing every game its own deal (:meth:`hearts_env.Table.deal`), and ``pimc``'s search of the
bids made before any card has moved (Smear's bids, Auction Hearts' auction)."""

from __future__ import annotations

import numpy as np
import pytest

import agents
from hearts_env import Table, make_rules
from hearts_env.core.cards import card_name, cards_of
from hearts_env.presets import all_configs

ONE_DECK = [(p, n) for p, n in all_configs() if make_rules(p, num_players=n).decks == 1]
BIDDING = ["smear_partnership", "smear_nine_card", "smear_widow", "smear_five_point", "auction_hearts"]


def _random_deals(rules, games: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Hand card sets (G, P) and the undealt cards (G,) of ``games`` shuffled deals."""
    rng = np.random.default_rng(seed)
    deck = np.unique(rules.deck.cards)
    size = (len(deck) - (rules.kitty_size or 0) - (rules.stock_size or 0)) // rules.num_players
    hands = np.zeros((games, rules.num_players), np.uint64)
    rest = np.zeros(games, np.uint64)
    for g in range(games):
        order = rng.permutation(deck)
        for seat in range(rules.num_players):
            hands[g, seat] = sum(1 << int(c) for c in order[seat * size : (seat + 1) * size])
        rest[g] = sum(1 << int(c) for c in order[rules.num_players * size :])
    return hands, rest


@pytest.mark.parametrize(("preset", "n"), ONE_DECK, ids=[f"{p}-{n}" for p, n in ONE_DECK])
def test_each_game_its_own_deal_is_the_same_as_one_given_by_card_names(preset: str, n: int) -> None:
    rules = make_rules(preset, num_players=n)
    batch = Table(rules, num_games=3)
    try:
        hands, rest = _random_deals(rules, 3, seed=n)
        dealers = np.array([0, 1, 2]) % n
        batch.deal(hands, rest, dealer=dealers)
    except ValueError as error:  # a deal the sizes above cannot make (Smear deals out unevenly)
        pytest.skip(str(error))
    for g in range(3):
        one = Table(rules, num_games=1)
        names = [[card_name(c) for c in cards_of(int(h))] for h in hands[g]]
        options = {"hands": names, "dealer": int(dealers[g])}
        if rules.kitty_size and not rules.stock_size:
            options["kitty"] = [card_name(c) for c in cards_of(int(rest[g]))]
        one.reset(seed=0, options=options)
        assert np.array_equal(batch.observe()[g], one.observe()[0]), (preset, n, g)
        assert np.array_equal(batch.action_mask()[g], one.action_mask()[0])
        assert batch.current_player[g] == one.current_player[0]


def test_a_deal_the_rules_cannot_have_is_refused_and_nothing_changes() -> None:
    rules = make_rules("hearts")
    table = Table(rules, num_games=2)
    table.reset(seed=1)
    before = table.observe().copy()
    hands, rest = _random_deals(rules, 2, seed=0)
    twice = hands.copy()
    twice[1, 1] |= np.uint64(1 << cards_of(int(hands[1, 0]))[0])  # seat 1 also holds a card of seat 0
    with pytest.raises(ValueError, match="game 1: not a deal of hearts"):
        table.deal(twice)
    with pytest.raises(ValueError, match=r"\(2, 4\) uint64"):
        table.deal(hands[:1])
    with pytest.raises(ValueError, match="dealer must be a seat 0..3"):
        table.deal(hands, dealer=4)
    with pytest.raises(ValueError, match="deals no stock"):
        table.deal(hands, stock_order=np.zeros((2, 3), np.int64))
    assert np.array_equal(table.observe(), before)
    with pytest.raises(NotImplementedError, match="two decks"):
        Table(make_rules("cancellation_hearts"), 1).deal(np.zeros((1, 6), np.uint64))


def _play(preset: str, pimc: agents.Agent, deals: int, seed: int) -> int:
    """Seat 0 ``pimc``, the others the family's heuristic, ``deals`` deals of 2 games; returns
    how many of seat 0's decisions were bids with a choice."""
    rules = make_rules(preset)
    table = Table(rules, num_games=2)
    table.reset(seed=seed)
    other = agents.make(agents.family_defaults(rules.game).heuristic, preset)
    rng = np.random.default_rng(seed)
    bid = rules.phases.index("bid")
    choices, ended = 0, 0
    while ended < deals:
        obs = {"observation": table.observe(), "action_mask": table.action_mask()}
        actions = other.act(obs, rng)
        mine = np.flatnonzero(table.current_player == 0)
        if len(mine):
            sub = {k: v[mine] for k, v in obs.items()}
            bidding = pimc.view(sub, "phase")[:, bid] > 0.5
            choices += int(
                (bidding & ((sub["action_mask"][:, rules.card_slots :] > 0).sum(axis=1) > 1)).sum()
            )
            actions[mine] = pimc.act(sub, rng)
        result = table.step(actions)  # raises on an illegal action
        if result.deal_ended.any():
            ended += int(result.deal_ended.sum())
            table.redeal(np.flatnonzero(result.deal_ended))
    return choices


@pytest.mark.parametrize("preset", BIDDING)
def test_every_bid_with_a_choice_is_searched_in_worlds_that_replay_the_bids(preset: str) -> None:
    pimc = agents.make("pimc", preset, worlds=2)
    choices = _play(preset, pimc, deals=6, seed=3)
    assert choices > 0
    # Every world reproduced the observer's hand, the bids so far and his legal bids: none fell back.
    assert pimc.bids_searched == choices
    assert 0 <= pimc.bids_changed <= pimc.bids_searched


def test_bids_false_leaves_the_bids_to_the_fallback_and_an_impossible_history_falls_back() -> None:
    pimc = agents.make("pimc", "smear_partnership", worlds=2, bids=False)
    assert _play("smear_partnership", pimc, deals=2, seed=4) > 0 and pimc.bids_searched == 0
    with pytest.raises(ValueError, match="bids must be true or false"):
        agents.make("pimc", "smear_partnership", bids="yes")
    with pytest.raises(ValueError, match="bid_worlds must be an int of at least 2"):
        agents.make("pimc", "smear_partnership", bid_worlds=1)
    assert agents.make("pimc", "smear_partnership", worlds=3).bid_worlds == 12
    # A seat after the observer shown as having bid: no bidding order makes that, no search.
    rules = make_rules("smear_partnership")
    table = Table(rules, num_games=1)
    table.reset(seed=0)
    searcher = agents.make("pimc", "smear_partnership", worlds=2)
    rng = np.random.default_rng(0)
    while not (searcher.view({"observation": table.observe()}, "phase")[0, rules.phases.index("bid")] > 0.5):
        table.step(agents.make("smear", "smear_partnership").act(
            {"observation": table.observe(), "action_mask": table.action_mask()}, rng))  # fmt: skip
    row = table.observe()[0].copy()
    bids = searcher.layout.view(row, "bids")
    assert not bids[1].any()  # the seat to the observer's left bids after him
    bids[1, 0] = 1.0  # ... shown as having passed
    assert searcher._search_bid(row, table.action_mask()[0], rng, 0) == -1


@pytest.mark.parametrize("preset", ["smear_partnership", "smear_widow"])
def test_a_tournament_with_bid_search_replays_exactly(preset: str) -> None:
    """The worlds' stocks are drawn from the agent's generator, so the same seed plays the same."""
    from evaluation.duplicate import Tournament, TournamentConfig

    def run() -> list[float]:
        config = TournamentConfig(preset=preset, agents=["pimc:worlds=2", "smear"], deals=2, tables=2, seed=7)
        report = Tournament(config, progress=False).run()
        return [row["mean_points"] for row in report["agents"]]

    assert run() == run()
