"""The Smear reference (tests.reference_smear): the hand-written scripts of
tests/smear_scripts.py, random play-outs of every Smear preset, player count and reading with
invariants, the game-end rule and the validation errors."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from hearts_env.core.cards import JOKERS, card_name, parse_card, parse_cards
from hearts_env.core.rules import Rules
from hearts_env.games.smear.options import SMEAR_CATEGORIES
from hearts_env.presets import all_configs, get_preset, make_rules
from tests.reference_smear import ReferenceSmearDeal, reference_smear_game
from tests.smear_scripts import SCRIPTS, SmearScript

# ---------------------------------------------------------------------------- helpers


def build(s: SmearScript) -> tuple[Rules, ReferenceSmearDeal]:
    rules = make_rules(s.preset, s.num_players, s.reading, **s.options)
    hands = [parse_cards(h) for h in s.hand_cards]
    return rules, ReferenceSmearDeal(rules, hands, s.dealer, parse_cards(s.undealt_cards))


def names(rules: Rules, actions: list[int]) -> set[str]:
    return {rules.action_names[a] for a in actions}


def snapshot(deal: ReferenceSmearDeal) -> tuple:
    return (
        deal.phase,
        deal.current,
        [sorted(h) for h in deal.hands],
        list(deal.trick),
        list(deal.bids),
        deal.trumps,
        list(deal.stock),
        [list(o) for o in deal.out_of_play],
        [list(w) for w in deal.tricks_won],
        deal.legal_actions(),
    )


def is_trump(rules: Rules, trumps: int | None, card: int) -> bool:
    """Trumps, independently of the reference: the suit, the jick, the jokers."""
    if trumps is None:
        return False
    if card in JOKERS:
        return True
    jick = {0: 3, 3: 0, 1: 2, 2: 1}[trumps] * 13 + 9
    return card // 13 == trumps or (rules.jick and card == jick)


def play_random(rules: Rules, rng: random.Random, probe: bool = False) -> ReferenceSmearDeal:
    """A random deal played uniformly over the legal actions; with ``probe`` an illegal action
    is tried now and then and must raise without changing anything."""
    deck = list(rules.deck.cards)
    rng.shuffle(deck)
    h, n = rules.hand_size, rules.num_players
    deal = ReferenceSmearDeal(
        rules, [deck[i * h : (i + 1) * h] for i in range(n)], rng.randrange(n), deck[n * h :]
    )
    for _ in range(2000):
        if deal.done:
            return deal
        legal = deal.legal_actions()
        assert legal, f"no legal action in phase {deal.phase} for seat {deal.current}"
        assert legal == sorted(legal)
        if probe and rng.random() < 0.3:
            illegal = [a for a in range(len(rules.action_names)) if a not in legal]
            if illegal:
                before = snapshot(deal)
                with pytest.raises(ValueError, match=f"seat {deal.current}"):
                    deal.step(rng.choice(illegal))
                assert snapshot(deal) == before
        deal.step(rng.choice(legal))
    raise AssertionError("the deal did not end")


def check_finished(rules: Rules, deal: ReferenceSmearDeal) -> None:
    """The invariants of a finished deal."""
    assert deal.done and deal.phase == "done" and deal.current is None
    assert deal.legal_actions() == []
    sides = rules.num_teams
    assert len(deal.side_points) == sides and len(deal.made_points) == sides
    if deal.cancelled:
        assert not rules.dealer_must_bid
        assert deal.side_points == [0] * sides and deal.pitcher is None and deal.made is None
        assert all(name == "pass" for _, name in deal.bids)
        return
    assert deal.pitcher is not None and deal.bid is not None and deal.trumps in range(4)
    # categories
    assert set(deal.categories) == set(rules.categories)
    for name, side in deal.categories.items():
        assert -2 <= side < sides
        assert side != -2 or name == "game", f"{name} went to nobody"
    assert deal.categories["game"] != -1 if "game" in rules.categories else True
    made = [0] * sides
    for name, side in deal.categories.items():
        if side >= 0:
            made[side] += SMEAR_CATEGORIES[name]
    assert deal.made_points == made
    # set-back and moon
    pside = rules.team_of[deal.pitcher]
    for side in range(sides):
        if side != pside:
            assert deal.side_points[side] == made[side]
    if deal.moon:
        # five-point scoring's moon is 11 (docs/rules.md, second reading), else every point and one
        assert deal.bid == (11 if rules.smear_points == 5 else rules.smear_points + 1)
        in_play = [s for s in deal.categories.values() if s != -1]
        assert deal.made == all(s == pside for s in in_play)
        if rules.moon_bid == "points":
            assert deal.side_points[pside] == (deal.bid if deal.made else -deal.bid)
        else:
            assert deal.side_points[pside] == (made[pside] if deal.made else -rules.smear_points)
    else:
        assert rules.min_bid <= deal.bid <= rules.max_bid
        assert deal.made == (made[pside] >= deal.bid)
        assert deal.side_points[pside] == (made[pside] if deal.made else -deal.bid)
    # every card in play won exactly once (nine-card: the trumps in play)
    in_play = [c for hand in deal.held_at_start for c in hand]
    assert len(in_play) == len(set(in_play))
    won = sorted(c for w in deal.tricks_won for c in w)
    if rules.smear_deal == "nine_card":
        assert won == sorted(c for c in in_play if is_trump(rules, deal.trumps, c))
    else:
        assert won == sorted(in_play)
        assert not any(deal.hands)
    # every card of the deck accounted for once
    elsewhere = [c for o in deal.out_of_play for c in o] + deal.dead + deal.stock + deal.widow
    assert sorted(in_play + elsewhere) == sorted(rules.deck.cards)
    # hand sizes when play began
    keep = rules.keep
    sizes = [len(h) for h in deal.held_at_start]
    if rules.smear_deal in ("stock", "blind"):
        assert sizes == [keep] * rules.num_players
        assert len(deal.completed_tricks) == keep
    elif rules.smear_deal == "widow":
        assert sizes[deal.pitcher] == keep and max(sizes) == keep
    else:
        for hand in deal.held_at_start:
            trumps = sum(is_trump(rules, deal.trumps, c) for c in hand)
            assert len(hand) == keep or trumps > keep and len(hand) == trumps or len(hand) < keep


# ---------------------------------------------------------------------------- the scripts


def run_script(s: SmearScript) -> tuple[Rules, ReferenceSmearDeal]:
    rules, deal = build(s)
    index = {name: a for a, name in enumerate(rules.action_names)}
    errors: dict[int, list[tuple[str, str]]] = {}
    for step, action, text in s.errors:
        errors.setdefault(step, []).append((action, text))
    for step, name in enumerate(s.actions):
        assert not deal.done, f"{s.name}: the deal ended before step {step} ({name})"
        if step in s.seats:
            assert deal.current == s.seats[step], f"{s.name}: step {step}: seat {deal.current} to act"
        if step in s.phases:
            assert deal.phase == s.phases[step], f"{s.name}: step {step}: phase {deal.phase}"
        if step in s.legal:
            assert names(rules, deal.legal_actions()) == set(s.legal[step].split()), f"{s.name}: step {step}"
        for bad, text in errors.get(step, []):
            before = snapshot(deal)
            with pytest.raises(ValueError, match=text) as info:
                deal.step(index[bad])
            assert bad in str(info.value) and f"seat {deal.current}" in str(info.value)
            assert snapshot(deal) == before, f"{s.name}: the illegal {bad} changed the deal"
        assert name in index, f"{s.name}: {name} is not an action of these rules"
        deal.step(index[name])
    assert deal.done, f"{s.name}: the deal is not over after the script"
    return rules, deal


@pytest.mark.parametrize("s", SCRIPTS, ids=[s.name[:60] for s in SCRIPTS])
def test_script(s: SmearScript) -> None:
    rules, deal = run_script(s)
    check_finished(rules, deal)
    assert deal.cancelled == s.cancelled
    assert deal.moon == s.moon
    if not s.cancelled:
        assert deal.pitcher == s.pitcher
        assert deal.bid == s.bid
    if s.trumps is not None:
        assert deal.trumps == "CDHS".index(s.trumps)
    if s.made is not None or s.cancelled:
        assert deal.made == s.made
    if s.tricks is not None:
        assert tuple(w for _, w in deal.completed_tricks) == s.tricks
    for seat, cards in s.held.items():
        assert sorted(deal.held_at_start[seat]) == sorted(parse_cards(cards)), f"seat {seat}"
    if s.categories is not None:
        assert deal.categories == dict(s.categories)
        assert list(deal.categories) == list(rules.categories)
    if s.made_points is not None:
        assert tuple(deal.made_points) == s.made_points
    if s.side_points is not None:
        assert tuple(deal.side_points) == s.side_points
    for before, after, over, winner in s.games:
        assert reference_smear_game(rules, list(before), deal) == (list(after), over, winner)


def test_scripts_are_complete_deals() -> None:
    """Every script deals the whole deck once (hands of the right size) and names only actions
    of its rules."""
    for s in SCRIPTS:
        rules = make_rules(s.preset, s.num_players, s.reading, **s.options)
        cards = [c for h in s.hand_cards for c in h] + s.undealt_cards
        assert sorted(parse_cards(cards)) == sorted(rules.deck.cards), s.name
        assert all(len(h) == rules.hand_size for h in s.hand_cards), s.name
        assert set(s.actions) <= set(rules.action_names), s.name


def test_scripts_cover_every_category_result() -> None:
    seen = Counter((name, side) for s in SCRIPTS for name, side in (s.categories or {}).items())
    for name in ("high", "low", "two", "jack", "jick", "joker1", "joker2", "game", "ten", "trey"):
        assert any(side >= 0 for (n, side) in seen if n == name), name
    assert ("trey", -1) in seen and ("game", -2) in seen and ("ten", -1) in seen


# ---------------------------------------------------------------------------- random play-outs


def smear_rules() -> list[tuple[str, int, str | None]]:
    out = []
    for name, n in all_configs():
        if name.startswith("smear"):
            out += [(name, n, reading) for reading in [None, *get_preset(name).readings]]
    return out


def _make(preset: str, n: int, reading: str | None) -> Rules:
    try:
        return make_rules(preset, n, reading)
    except ValueError as e:  # e.g. six nine-card hands need 54 cards: no_jokers does not fit
        pytest.skip(f"{preset} {n} {reading}: {e}")


@pytest.mark.parametrize("preset,n,reading", smear_rules())
def test_random_playouts(preset: str, n: int, reading: str | None) -> None:
    rules = _make(preset, n, reading)
    rng = random.Random(f"{preset}-{n}-{reading}")
    totals = [0] * rules.num_teams
    for i in range(6):
        deal = play_random(rules, rng, probe=i < 2)
        check_finished(rules, deal)
        new, over, winner = reference_smear_game(rules, totals, deal)
        check_totals(rules, deal, totals, new, over, winner)
        totals = [0] * rules.num_teams if over else new


def check_totals(
    rules: Rules, deal: ReferenceSmearDeal, totals: list[int], new: list[int], over: bool, winner: int | None
) -> None:
    """The game-end rule (docs/smear.md §6) on one deal."""
    added = [t + p for t, p in zip(totals, deal.side_points)]
    if deal.cancelled:
        assert (new, over, winner) == (totals, False, None)
        return
    side = rules.team_of[deal.pitcher]
    if deal.moon and rules.moon_bid == "game":
        if deal.made:
            assert new == [max(0, t) if s == side else t for s, t in enumerate(added)]
            assert (over, winner) == ((True, side) if added[side] >= 0 else (False, None))
        else:
            assert new == added and over and winner != side
        return
    assert new == added
    reached = any(t >= rules.target_score for t in new)
    if not over:
        assert winner is None
        if rules.pitcher_only_wins:
            assert new[side] < rules.target_score
        elif reached:
            top = max(new)
            assert new.count(top) > 1 and new[side] != top
        return
    assert winner is not None and reached
    if rules.pitcher_only_wins:
        assert winner == side and new[side] >= rules.target_score
    else:
        assert new[winner] == max(new)
        assert new.count(max(new)) == 1 or winner == side


def test_random_playouts_reach_every_phase() -> None:
    """The random deals visit every phase the rules have, and the nine-card drop-outs."""
    for preset, n in (("smear_partnership", 4), ("smear_widow", 4), ("smear_nine_card", 5)):
        rules = make_rules(preset, n)
        rng = random.Random(preset)
        phases: set[str] = set()
        for _ in range(5):
            deck = list(rules.deck.cards)
            rng.shuffle(deck)
            h = rules.hand_size
            deal = ReferenceSmearDeal(rules, [deck[i * h : (i + 1) * h] for i in range(n)], 0, deck[n * h :])
            while not deal.done:
                phases.add(deal.phase)
                deal.step(rng.choice(deal.legal_actions()))
        assert phases == set(rules.phases), preset


def test_nine_card_shapes() -> None:
    """Nine-card deals: some player plays extra trumps, some trick has fewer cards than players."""
    rules = make_rules("smear_nine_card", 4)
    rng = random.Random(9)
    extra = short = 0
    for _ in range(200):
        deal = play_random(rules, rng)
        check_finished(rules, deal)
        if deal.completed_tricks:
            first = deal.completed_tricks[0][0]
            extra += len({s for s, _ in first}) < len(first)
        short += any(len(plays) < 4 for plays, _ in deal.completed_tricks[1:])
    assert extra and short


# ---------------------------------------------------------------------------- the game-end rule


def _finished(s_name: str) -> tuple[Rules, ReferenceSmearDeal]:
    [s] = [s for s in SCRIPTS if s.name.startswith(s_name)]
    return run_script(s)


def test_game_target_and_max_deals() -> None:
    rules, deal = _finished("game tied 10-10")  # side 0 pitched and made 2
    assert reference_smear_game(rules, [19, 0], deal) == ([21, 0], True, 0)
    assert reference_smear_game(rules, [0, 21], deal) == ([2, 21], True, 1)  # the non-pitching side wins
    capped = make_rules("smear_partnership", 4, max_deals=3, **SCRIPTS[5].options)
    assert reference_smear_game(capped, [3, 5], deal, deals_played=2) == ([5, 5], False, None)
    assert reference_smear_game(capped, [3, 4], deal, deals_played=3) == ([5, 4], True, 0)
    assert reference_smear_game(capped, [3, 5], deal, deals_played=3) == ([5, 5], True, None)
    with pytest.raises(ValueError, match="totals"):
        reference_smear_game(rules, [0, 0, 0], deal)


def test_game_needs_a_finished_deal() -> None:
    rules, deal = build(SCRIPTS[0])
    with pytest.raises(ValueError, match="not over"):
        reference_smear_game(rules, [0, 0], deal)


# ---------------------------------------------------------------------------- validation


def _deck_deal(rules: Rules) -> tuple[list[list[int]], list[int]]:
    deck = list(rules.deck.cards)
    h, n = rules.hand_size, rules.num_players
    return [deck[i * h : (i + 1) * h] for i in range(n)], deck[n * h :]


def test_bad_deals() -> None:
    rules = make_rules("smear_partnership", 4)
    hands, undealt = _deck_deal(rules)
    ReferenceSmearDeal(rules, hands, 0, undealt)
    with pytest.raises(ValueError, match="11 cards, not 10"):
        ReferenceSmearDeal(rules, [hands[0] + [undealt[0]], *hands[1:]], 0, undealt[1:])
    with pytest.raises(ValueError, match="9 cards, not 10"):
        ReferenceSmearDeal(rules, [hands[0][1:], *hands[1:]], 0, [hands[0][0], *undealt])
    with pytest.raises(ValueError, match="appears twice"):
        ReferenceSmearDeal(rules, [hands[1], *hands[1:]], 0, undealt)
    with pytest.raises(ValueError, match="do not make the deck"):  # a stock card missing
        ReferenceSmearDeal(rules, hands, 0, undealt[:-1])
    with pytest.raises(ValueError, match="appears twice"):  # a stock card twice
        ReferenceSmearDeal(rules, hands, 0, [*undealt[:-1], undealt[0]])
    with pytest.raises(ValueError, match="3 hands for 4 players"):
        ReferenceSmearDeal(rules, hands[:3], 0, undealt)
    with pytest.raises(ValueError, match="dealer"):
        ReferenceSmearDeal(rules, hands, 4, undealt)
    five = make_rules("smear_five_point", 4)  # 3s-8s are out of this deck
    hands, undealt = _deck_deal(five)
    with pytest.raises(ValueError, match="3C is not in the deck"):
        ReferenceSmearDeal(five, hands, 0, [parse_card("3C"), *undealt[1:]])
    with pytest.raises(ValueError, match="JK2 is not in the deck"):
        ReferenceSmearDeal(five, hands, 0, [parse_card("JK2"), *undealt[1:]])


def _at(rules: Rules, deal: ReferenceSmearDeal, actions: str) -> None:
    for name in actions.split():
        deal.step(rules.action_names.index(name))


def _refused(rules: Rules, deal: ReferenceSmearDeal, action: int | str, text: str) -> None:
    a = rules.action_names.index(action) if isinstance(action, str) else action
    before = snapshot(deal)
    with pytest.raises(ValueError, match=text):
        deal.step(a)
    assert snapshot(deal) == before


def test_illegal_actions() -> None:
    s = next(s for s in SCRIPTS if s.name.startswith("the stock to the pitcher"))
    rules, deal = build(s)
    n_actions = len(rules.action_names)
    _refused(rules, deal, n_actions, "out of range")  # past the last bid: bid:9 does not exist here
    assert "bid:9" not in rules.action_names and "bid:8" in rules.action_names
    _refused(rules, deal, -1, "out of range")
    _refused(rules, deal, "suit:S", "not the pitcher")
    _refused(rules, deal, "AS", "bid phase")
    _at(rules, deal, "bid:3")
    _refused(rules, deal, "bid:2", "above the highest bid")
    _refused(rules, deal, "bid:3", "above the highest bid")
    _at(rules, deal, "pass pass pass")
    assert deal.phase == "name_suit" and deal.current == 0 and deal.pitcher == 0
    _refused(rules, deal, "pass", "must name trumps")
    _refused(rules, deal, "AS", "must name trumps")
    _at(rules, deal, "suit:S")
    assert deal.phase == "discard" and deal.current == 0  # the pitcher discards first
    _refused(rules, deal, "AS", "trump may be discarded only by a player holding more than 2")
    _refused(rules, deal, "suit:H", "name_suit phase")
    _refused(rules, deal, "KS", "does not hold KS")
    _refused(rules, deal, "pass", "asks for a card")
    _at(rules, deal, "2H 3H 4H")
    assert deal.current == 1
    _refused(rules, deal, "suit:H", "not the pitcher")
    _at(rules, deal, "JS")  # three trumps: a trump may go
    _refused(rules, deal, "2S", "holds 1")
    with pytest.raises(ValueError, match="int index"):
        deal.step("KS")  # type: ignore[arg-type]


def test_illegal_after_the_end() -> None:
    rules, deal = _finished("dealer forced")
    with pytest.raises(ValueError, match="over"):
        deal.step(0)


def test_step_accepts_numpy_ints() -> None:
    np = pytest.importorskip("numpy")
    rules, deal = build(SCRIPTS[0])
    deal.step(np.int64(rules.action_names.index("bid:2")))
    assert deal.bids == [(0, "bid:2")]


def test_card_names_of_scripts_round_trip() -> None:
    for s in SCRIPTS:
        for c in [c for h in s.hand_cards for c in h] + s.undealt_cards:
            assert card_name(parse_card(c)) == c
