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
from hearts_env.cards import card_name, parse_card
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


# ---------------------------------------------------------------------- legality everywhere
def _play_deals(rules, names: list[str], games: int, seed: int) -> np.ndarray:
    """Deal points (games, P) of one deal per game; the engine raises on any illegal card."""
    table = Table(rules, games)
    table.reset(seed=seed)
    players = [agents.from_rules(name, rules) for name in names]
    rng = np.random.default_rng(seed)
    rows = np.arange(games)
    while True:
        obs, mask, seat = table.observe(), table.action_mask(), table.state.current.copy()
        actions = np.zeros(games, np.int64)
        for i, agent in enumerate(players):
            mine = np.flatnonzero(seat == i)
            if mine.size:
                actions[mine] = agent.act({"observation": obs[mine], "action_mask": mask[mine]}, rng)
        assert (mask[rows, actions] == 1).all()
        if table.step(actions).deal_ended.all():
            return table.state.deal_points.copy()


@pytest.mark.parametrize(("preset", "num_players"), all_configs())
def test_every_agent_plays_legally_and_strategy_beats_random(preset: str, num_players: int) -> None:
    rules = make_rules(preset, num_players=num_players)
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
