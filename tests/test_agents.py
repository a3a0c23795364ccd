"""Agents: the protocol, the heuristics' key decisions in scripted positions, legality everywhere.

Positions are reached by playing a written deal through the engine (``reset(options={"hands":
...})``) and a scripted sequence of cards; the agent then sees the acting seat's observation.
"""

from __future__ import annotations

import numpy as np
import pytest

import agents
from agents.base import Agent
from hearts_env import env, make_rules
from hearts_env.core.cards import card_name, parse_card
from hearts_env.presets import all_configs
from hearts_env.table import Table

LADDER = ("random", "lowest", "ducker", "strategy")

# Seat 0 holds every club; seat 1 holds Q♠ with low spades and diamonds; seat 3 holds A♠ K♠ J♠.
DISCARD_DEAL = [
    "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
    "QS 2S 3S 4S 5S 6S 2D 3D 4D 5D 6D 7D 8D",
    "9D TD JD QD KD AD 2H 3H 4H 5H 6H 7H 8H",
    "9H TH JH QH KH AH 7S 8S 9S TS JS KS AS",
]
# Clubs spread so that seat 2 can duck under T♣ and seat 3, last, can take the clean trick.
DUCK_DEAL = [
    "2C 3C 6C 8C QC 2D 3D 4D 5D 2H 3H 4H 5H",
    "TC 7C 6D 7D 8D 9D 6H 7H 8H 9H 2S 3S 4S",
    "4C 9C AC TD JD QD TH JH 5S 6S 7S 8S 9S",
    "5C JC KC KD AD QH KH AH TS JS QS KS AS",
]
# Seat 3 wins the first trick with 5♣ and must lead holding Q♠ 3♠ and five diamonds.
QUEEN_DEAL = [
    "2C 6C 7C 8C 9C TC 2D 3D 4D 2H 3H 4H 5H",
    "3C JC QC 5D 6D 6H 7H 8H 2S 4S 5S 6S 7S",
    "4C KC AC QD KD AD AH 8S 9S TS JS KS AS",
    "5C QS 3S 7D 8D 9D TD JD 9H TH JH QH KH",
]
# Seat 0 wins eight tricks holding Q♠ and six hearts; then leads K♥ to seat 2, who holds A♥.
MOON_DEAL = [
    "AC KC QC JC AD KD QD JD AS KS KH QH JH",
    "2C 5C 7C 9C QS 2H 2D 4D 6D 7D 8D 9D TD",
    "3C 6C 8C TC 2S 4S 6S 3D 5D AH 7H 8H 9H",
    "4C 3S 5S 7S 8S 9S TS JS 3H 4H 5H 6H TH",
]
MOON_PLAYS = (
    "2C 3C 4C AC  AS QS 2S 3S  KS 2H 4S 5S  KC 5C 6C 3H  QC 7C 8C 4H  KD 2D 3D 5H  QD 4D 5D 6H  "
    "JC 9C TC TH  KH 6D"
)


def position(deal: list[str], plays: str = "", preset: str = "hearts", direction: str = "hold", **options):
    """The rules and the acting seat's observation after ``plays`` from the written deal."""
    rules = make_rules(preset, **options)
    table = Table(rules, 1)
    table.reset(options={"hands": [hand.split() for hand in deal], "dealer": 3, "pass_direction": direction})
    for card in plays.split():
        table.step(np.array([parse_card(card)]))
    return rules, table


def observe(table: Table) -> dict[str, np.ndarray]:
    return {"observation": table.observe(), "action_mask": table.action_mask()}


def choice(name: str, rules, table: Table) -> str:
    """The card agent ``name`` plays in the table's position."""
    return card_name(agents.from_rules(name, rules).act(observe(table), np.random.default_rng(0))[0])


# ---------------------------------------------------------------------- protocol
def test_make_builds_every_agent_for_its_configuration() -> None:
    for name in LADDER:
        agent = agents.make(name, "black_maria", num_players=3)
        assert isinstance(agent, Agent) and agent.rules.num_players == 3
    with pytest.raises(ValueError, match="unknown agent"):
        agents.make("nobody")
    assert agents.make("strategy", hearts_break="free").rules.hearts_break == "free"


def test_parse_spec_reads_parameters() -> None:
    assert agents.parse_spec("ismcts:simulations=1000:uct_c=2.5") == (
        "ismcts",
        {"simulations": 1000, "uct_c": 2.5},
    )
    with pytest.raises(ValueError, match="key=value"):
        agents.parse_spec("ismcts:1000")


# ---------------------------------------------------------------------- key decisions
def test_strategy_ducks_under_the_winner() -> None:
    rules, table = position(DUCK_DEAL, "2C TC")
    assert choice("strategy", rules, table) == "9C"
    assert choice("ducker", rules, table) == "9C"
    assert choice("lowest", rules, table) == "4C"


def test_strategy_takes_a_clean_trick_when_last() -> None:
    rules, table = position(DUCK_DEAL, "2C TC 9C")
    assert choice("strategy", rules, table) == "KC"
    assert choice("ducker", rules, table) == "5C"


def test_strategy_dumps_the_queen_when_void() -> None:
    rules, table = position(DISCARD_DEAL, "2C 8D 9D 7S 3C")
    assert choice("strategy", rules, table) == "QS"


def test_strategy_discards_by_the_variant_point_values() -> None:
    plays = "2C 8D 9D 7S 3C 7D TD"
    rules, table = position(DISCARD_DEAL, plays)
    assert choice("strategy", rules, table) == "AS"  # Hearts: A♠ above the unseen Q♠
    rules, table = position(DISCARD_DEAL, plays, preset="black_jack")
    assert choice("strategy", rules, table) == "JS"  # Black Jack: J♠ is the 10-point card


def test_strategy_does_not_lead_spades_holding_an_unprotected_queen() -> None:
    rules, table = position(QUEEN_DEAL, "2C 3C 4C 5C")
    assert choice("lowest", rules, table) == "3S"
    assert not choice("strategy", rules, table).endswith("S")


def test_strategy_blocks_an_obvious_moon() -> None:
    rules, table = position(MOON_DEAL, MOON_PLAYS)
    assert int(table.state.current[0]) == 2
    assert choice("ducker", rules, table) == "9H"
    assert choice("strategy", rules, table) == "AH"


def _passes(hand: str, name: str = "strategy") -> list[str]:
    """The three cards seat 0 passes left from ``hand`` (other seats pass their lowest)."""
    rest = sorted(set(range(52)) - {parse_card(c) for c in hand.split()})
    deal = [hand] + [" ".join(card_name(c) for c in rest[i * 13 : (i + 1) * 13]) for i in range(3)]
    rules, table = position(deal, direction="left")
    agent = agents.from_rules(name, rules)
    chosen = []
    for _ in range(3):
        card = int(agent.act(observe(table), np.random.default_rng(0))[0])
        chosen.append(card_name(card))
        table.step(np.array([card]))
    return chosen


def test_strategy_passes_the_queen_when_short_in_spades() -> None:
    assert _passes("QS 4S 9S AD KD 2C 5C 8C JC 3H 6H 9H QH")[0] == "QS"


def test_strategy_keeps_spades_when_long_in_low_spades() -> None:
    passed = _passes("QS 2S 3S 5S 6S AC KC AD 7D 8D 4H 8H TH")
    assert not [card for card in passed if card.endswith("S")], passed


def test_strategy_passes_a_low_heart_after_two_high_cards() -> None:
    assert _passes("AS KS AD KD QD 2H 3C 4C 5C 6C 7C 8C 9C") == ["AS", "KS", "2H"]


# ---------------------------------------------------------------------- the family's decisions
def decide(name: str, rules, table: Table) -> str:
    """The action name agent ``name`` chooses in the table's position."""
    action = agents.from_rules(name, rules).act(observe(table), np.random.default_rng(0))[0]
    return rules.action_names[action]


def step_names(rules, table: Table, names: str) -> None:
    for name in names.split():
        table.step(np.array([rules.action_names.index(name)]))


def deal_around(hand: str, players: int = 4) -> list[str]:
    """Seat 0 holds ``hand``; the other seats the remaining cards in order."""
    rest = sorted(set(range(52)) - {parse_card(c) for c in hand.split()})
    size = len(hand.split())
    return [hand] + [
        " ".join(card_name(c) for c in rest[i * size : (i + 1) * size]) for i in range(players - 1)
    ]


DOMINANT = "AC KC QC JC TC AH KH QH JH AS KS AD KD"
"""Top clubs, hearts, spades and diamonds: every card a sure winner, the first club trick mine."""


def test_a_general_only_with_a_hand_that_takes_everything() -> None:
    rules, table = position(deal_around(DOMINANT), preset="chasse_coeur")
    assert decide("strategy", rules, table) == "general"
    # Declared, it takes every trick: 0 for the declarer, 64 for each opponent.
    points = _play_position(rules, table, ["strategy"] * 4)
    assert points.tolist() == [0, 64, 64, 64]
    for weaker in (DOMINANT.replace("KD", "5D"), DOMINANT.replace("AC", "2C"), DOMINANT.replace("JH", "2H")):
        rules, table = position(deal_around(weaker), preset="chasse_coeur")
        assert decide("strategy", rules, table) == "pass", weaker


def test_the_auction_is_passed_with_a_hand_weak_in_every_suit() -> None:
    weak = deal_around("AC KC QC AD KD QD AH KH QH AS KS QS JS")
    # Eldest hand (seat 0) opens: he may not pass, so he bids the least.
    rules, table = position(weak, preset="auction_hearts")
    assert decide("strategy", rules, table) == "bid:1"
    # Second to bid, the same hand passes.
    rules, table = position([weak[1], weak[0], *weak[2:]], preset="auction_hearts")
    step_names(rules, table, "bid:1")
    assert decide("strategy", rules, table) == "pass"
    # Void in clubs with every high heart: a chip for clubs as the penalty suit.
    rules, table = position(deal_around("AH KH QH JH TH AD KD QD AS KS QS JS TS"), preset="auction_hearts")
    assert decide("strategy", rules, table) == "bid:1"
    step_names(rules, table, "bid:1 pass pass pass")
    assert decide("strategy", rules, table) == "suit:C"
    # A later bidder passes once the bid is above what the suit would save.
    rules, table = position(deal_around("2C 3C 4C 2D 3D 4D 2H 3H 4H 2S 3S 4S 5S"), preset="auction_hearts")
    step_names(rules, table, "bid:5")
    assert decide("strategy", rules, table) == "pass"


def test_a_slam_bid_only_with_an_overwhelming_hand() -> None:
    rules, table = position(deal_around(DOMINANT), preset="partnership_hearts", version="C")
    assert decide("strategy", rules, table) == "slam"
    rules = make_rules("partnership_hearts", version="C")
    table = Table(rules, 400)
    table.reset(seed=6, options={"pass_direction": "hold"})
    strategy = agents.from_rules("strategy", rules)
    slam = rules.action_names.index("slam")
    while table.action_mask()[:, slam].any():  # the whole slam auction, every seat strategy
        actions = strategy.act(observe(table), np.random.default_rng(0))
        assert not (actions == slam).any()
        table.step(actions)


def test_the_shooters_choice_follows_the_scores() -> None:
    rules = make_rules("hearts", moon="shooter_choice")
    lay = agents.make("strategy", moon="shooter_choice").layout
    add, subtract = (rules.action_names.index(name) for name in ("moon:add", "moon:subtract"))
    cases = [
        ([50, 80, 85, 90], add),  # adding 26 ends the game, and I am lowest: win now
        ([90, 60, 70, 80], subtract),  # adding would end it with me behind
        ([10, 20, 30, 40], add),  # neither ends it, I lead: bring the end nearer
        ([40, 10, 20, 30], subtract),  # behind: keep the others down
    ]
    for scores, wanted in cases:
        o = np.zeros((1, lay.size), np.float32)
        o[0, lay.slices["phase"]][rules.phases.index("moon_choice")] = 1
        o[0, lay.slices["scores"]] = np.array(scores) / rules.target_score
        o[0, lay.slices["points_taken"]] = np.array([26, 0, 0, 0]) / 26
        o[0, lay.slices["card_values"]] = np.array(rules.card_points[: rules.card_slots]) / 26
        mask = np.zeros((1, len(rules.action_names)), np.int8)
        mask[0, [add, subtract]] = 1
        action = agents.make("strategy", moon="shooter_choice").act(
            {"observation": o, "action_mask": mask}, None
        )
        assert action[0] == wanted, scores


# Joker Hearts, 4 players (2♦ out): seat 1 holds A♣ 4♣ and the joker; seat 3 only spades.
JOKER_DEAL = [
    "2C 3C 3D 4D 5D 6D 7D 8D 9D TD JD QD KD",
    "4C AC JK1 2H 3H 4H 5H 6H 7H 8H 9H TH AD",
    "QC KC 5C 6C 7C 8C 9C TC JC JH QH KH AH",
    "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS",
]


def test_strategy_keeps_the_joker_as_an_exit_for_a_point_trick() -> None:
    rules, table = position(JOKER_DEAL, "2C", preset="joker_hearts")
    assert decide("strategy", rules, table) == "AC"  # the safe first trick: shed A♣, keep the joker
    rules, table = position(JOKER_DEAL, "2C 4C QC 2S KC QS 3C", preset="joker_hearts")
    assert decide("strategy", rules, table) == "JK1"  # A♣ would take Q♠
    assert decide("ducker", rules, table) == "JK1"


# Partnership A: seat 2 (seat 0's partner) wins with A♣ and leads K♣, the top club; seat 0 is void.
PARTNER_DEAL = [
    "QS 2D 3D 4D 5D 6D 2H 3H 4H 5H 6H 7H 8H",
    "2C 5C 6C 7C 8C 7D 8D 9D TD JD QD KD AD",
    "AC KC 9C TC JC 9H TH JH QH KH AH 2S 3S",
    "3C 4C QC 4S 5S 6S 7S 8S 9S TS JS KS AS",
]


def test_strategy_dumps_no_points_on_its_partners_trick() -> None:
    plays = "2C AC 3C 2D KC 4C"
    rules, table = position(PARTNER_DEAL, plays, preset="partnership_hearts", version="B")
    assert decide("strategy", rules, table).endswith("D")
    rules, table = position(PARTNER_DEAL, plays)  # no partners: the queen goes
    assert decide("strategy", rules, table) == "QS"
    # Version A, my side still without a penalty card (the other side could take them all
    # together): the cheapest one goes on my partner's trick.
    rules, table = position(PARTNER_DEAL, plays, preset="partnership_hearts")
    assert decide("strategy", rules, table) == "2H"


def test_only_a_joker_or_only_decisions_legal() -> None:
    for preset, options in (
        ("joker_hearts", {}),
        ("auction_hearts", {}),
        ("hearts", {"moon": "shooter_choice"}),
    ):
        rules = make_rules(preset, **options)
        table = Table(rules, 3)
        table.reset(seed=1)
        obs = observe(table)
        columns = [rules.card_slots - 1] if rules.jokers else []
        columns += [rules.card_slots + k for k in range(len(rules.decisions))]
        for column in columns:
            mask = np.zeros_like(obs["action_mask"])
            mask[:, column] = 1
            for name in LADDER:
                actions = agents.from_rules(name, rules).act(
                    {"observation": obs["observation"], "action_mask": mask}, np.random.default_rng(0)
                )
                assert (actions == column).all(), (preset, name, rules.action_names[column])


def test_lowest_and_ducker_pass_every_bidding_round() -> None:
    for preset, options in (
        ("chasse_coeur", {}),
        ("auction_hearts", {}),
        ("partnership_hearts", {"version": "C"}),
    ):
        rules, table = position(deal_around(DOMINANT), preset=preset, **options)
        if preset == "auction_hearts":  # eldest hand opens the auction: he may not pass
            assert decide("lowest", rules, table) == decide("ducker", rules, table) == "bid:1"
            step_names(rules, table, "bid:1")
        assert decide("lowest", rules, table) == decide("ducker", rules, table) == "pass"


def _play_position(rules, table: Table, names: list[str]) -> np.ndarray:
    """Play the table's one game to the end of the deal; its deal points (P,)."""
    players = [agents.from_rules(name, rules) for name in names]
    while True:
        seat = int(table.state.current[0])
        if table.step(players[seat].act(observe(table), np.random.default_rng(0))).deal_ended[0]:
            return table.game_info([0])["deal_points"][0]


# ---------------------------------------------------------------------- legality everywhere
def _play_deals(rules, names: list[str], games: int, seed: int) -> np.ndarray:
    """Deal points (games, P) of one deal per game; the engine raises on any illegal action.
    Deals may end on different steps (declarations, the moon choice): the agents are asked only
    for the games still playing, until every deal is over."""
    table = Table(rules, games)
    table.reset(seed=seed)
    players = [agents.from_rules(name, rules) for name in names]
    rng = np.random.default_rng(seed)
    over = np.zeros(games, bool)
    while not over.all():
        obs, mask, seat = table.observe(), table.action_mask(), table.state.current.copy()
        actions = np.zeros(games, np.int64)
        for i, agent in enumerate(players):
            mine = np.flatnonzero((seat == i) & ~over)
            if mine.size:
                actions[mine] = agent.act({"observation": obs[mine], "action_mask": mask[mine]}, rng)
                assert (mask[mine, actions[mine]] == 1).all(), agent.name
        over |= table.step(actions).deal_ended
    return table.state.deal_points.copy()


OPTIONS = [
    ("partnership_hearts", 4, {"version": "B"}),
    ("partnership_hearts", 4, {"version": "C"}),
    ("partnership_hearts", 4, {"version": "B", "moon": "shooter_choice"}),
    ("hearts", 4, {"moon": "shooter_choice"}),
    ("omnibus", 3, {"moon": "shooter_choice"}),
    ("joker_hearts", 4, {"jokers": 2}),
    ("heartsette", 4, {"reading": "modern"}),
]
"""Versions and options that ``all_configs`` leaves out: the other partnership versions, the
shooter's choice, two jokers with four players, the modern widow game."""


@pytest.mark.parametrize(
    ("preset", "num_players", "options"),
    [(preset, n, {}) for preset, n in all_configs("hearts")] + OPTIONS,
    ids=[f"{p}-{n}" for p, n in all_configs("hearts")] + [f"{p}-{n}-{o}" for p, n, o in OPTIONS],
)
def test_every_agent_plays_legally_and_strategy_beats_random(preset: str, num_players: int, options) -> None:
    rules = make_rules(preset, num_players=num_players, **options)
    ladder = [LADDER[seat % len(LADDER)] for seat in range(num_players)]
    _play_deals(rules, ladder, games=4, seed=1)
    # Duplicate: the same 150 deals with strategy and random swapped at every seat.
    seats = np.arange(num_players) % 2 == 0
    first = _play_deals(rules, ["strategy" if s else "random" for s in seats], 150, seed=2)
    second = _play_deals(rules, ["random" if s else "strategy" for s in seats], 150, seed=2)
    strategy = np.concatenate([first[:, seats], second[:, ~seats]], axis=1).mean()
    random = np.concatenate([first[:, ~seats], second[:, seats]], axis=1).mean()
    assert strategy < random, (strategy, random)


def test_agents_play_the_pettingzoo_env() -> None:
    game = env("hearts")
    game.reset(seed=3)
    players = {name: agents.make(kind) for name, kind in zip(game.possible_agents, LADDER)}
    rng = np.random.default_rng(0)
    for name in game.agent_iter():
        obs, _, terminated, truncated, _ = game.last()
        game.step(None if terminated or truncated else players[name].act_one(obs, rng))
    assert not game.agents or all(game.terminations.values())


def test_ismcts_adapter_agrees_with_our_legal_moves() -> None:
    pytest.importorskip("pyspiel")
    rules = make_rules("hearts", hearts_break="heart_or_queen")
    _play_deals(rules, ["ismcts", "strategy", "ismcts", "strategy"], games=1, seed=4)
    game = env("hearts")
    game.reset(seed=5, options={"dealer": 1, "pass_direction": "across"})
    bots = {name: agents.make("ismcts", simulations=5) for name in game.possible_agents}
    rng = np.random.default_rng(0)
    for name in game.agent_iter():
        obs, _, terminated, truncated, _ = game.last()
        game.step(None if terminated or truncated else bots[name].act_one(obs, rng))


def test_ismcts_refuses_rules_openspiel_cannot_play() -> None:
    pytest.importorskip("pyspiel")
    with pytest.raises(ValueError, match="OpenSpiel"):
        agents.make("ismcts", "black_maria", num_players=3)
