"""A seeded random sweep over the option space of every preset (issue 18's acceptance point).

Each combination is a preset, a player count, perhaps a reading or a version, and a few rules
options drawn from a catalogue of plausible and implausible values for every field (the other
game's fields included). Each is either refused by ``make_rules`` or ``Table`` with a
``ValueError`` / ``TypeError`` whose message names what it was given (an option, a value, the
player count or the reading), or it plays deals to their end with random legal actions through
the batch API (:class:`~hearts_env.table.Table`), checking after every step that no game still
playing has an empty mask, that every deal ends within a bound of steps, and at every deal's end
that its points are consistent:

* both families: the game totals move by the deal points (where no rule resets a total);
* the Hearts family, plain point scoring without a moon: the deal points are the card points in
  play (every card is taken once: tricks, kitty, Domino's stock);
* Smear: each side's points lie between minus the largest bid and what the categories (or the
  moon) are worth, and the sides together score no more than that.

The generator is plain NumPy (``default_rng(seed)``): a failing combination is printed whole
and replays from its seed alone.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from hearts_env.core.rules import Rules
from hearts_env.games.hearts.options import BIDDINGS, MOONS, SETTLEMENTS, TEAM_SCORINGS, HeartsOptions
from hearts_env.games.smear.options import JOKER_POINTS, JOKER_RANKS, MOON_BIDS, SMEAR_DEALS, TRUMP_CHOICES
from hearts_env.presets import PRESETS, make_rules
from hearts_env.table import REWARDS, Table

OPTION_VALUES: dict[str, list[Any]] = {
    # Hearts family
    "pass_count": [0, 1, 3, 4, 13, -1, 2.5],
    "pass_directions": [("left",), ("right", "hold"), ("left", "right", "across", "hold"), ("hold",), "up"],
    "first_lead": ["lowest_club", "any_club", "eldest", "first"],
    "hearts_break": ["heart", "heart_or_queen", "free", 1],
    "queen_needs_break": [True, False, "yes"],
    "lead_hearts_if_only_queen": [True, False],
    "no_points_first_trick": [True, False],
    "no_heart_lead_first_trick": [True, False],
    "first_trick_all_penalty": ["play", "redeal", "not_counted", "to_lowest", "x"],
    "club_play": [True, False],
    "discard_first": ["JS", "QS", None, "ZZ"],
    "card_points": [{"JD": -10}, {"QS": 0}, {"hearts": 2}, {"TD": -10, "QS": 26}, {"QS": 10**6}, {"2C": 5}],
    "scoring": ["points", "royal", "golf"],
    "moon": [*MOONS, "double"],
    "moon_cards": ["penalty", "counting"],
    "moon_points": [None, 0, 26, 150, -5, 1.5],
    "no_tricks_bonus": [0, -5, 5],
    "exact_target_reset": [True, False],
    "settlement": [*SETTLEMENTS, "cash"],
    "stock_deal": [None, 4, 6, 13, 20],
    "bidding": [*BIDDINGS, "poker"],
    "general_points": [0, 32, 64],
    "leftover": ["remove", "kitty"],
    "decks": [1, 2, 3],
    "removal": ["standard", "arnold", "none", "joker", "mine"],
    # both families
    "target_score": [1, 11, 21, 50, 100, 0],
    "max_deals": [None, 1, 3, 0],
    "max_bid": [1, 5, 10, 13, 60],
    "teams": [(), ((0, 2), (1, 3)), ((0, 1, 2, 3),), ((0,), (1,), (2,), (3,)), ((0, 2), (1,)), 5],
    "team_scoring": list(TEAM_SCORINGS),
    "jokers": [0, 1, 2, 3],
    "removed": [["2C"], ["2C", "2D"], [], ["JK1", "JK2"], ["2C", "2D", "2S", "3C"]],
    "widow": [None, 1, 3, 4, 52],
    # Smear
    "deal_size": [None, 6, 9, 10, 13],
    "keep": [2, 6, 9],
    "smear_deal": [*SMEAR_DEALS, "stok"],
    "min_bid": [1, 2, 4, 11],
    "moon_bid": list(MOON_BIDS),
    "dealer_must_bid": [True, False],
    "trumps": list(TRUMP_CHOICES),
    "pitcher_leads_trump": [True, False],
    "jick": [True, False],
    "joker_rank": list(JOKER_RANKS),
    "distinguishable_jokers": [True, False],
    "joker_points": list(JOKER_POINTS),
    "categories": [("high", "low", "jack", "game"), ("high",), ("trey",), ("high", "two", "ten"), ("jick",)],
    "pitcher_only_wins": [True, False],
}  # fmt: skip
BOTH = {"target_score", "max_deals", "max_bid", "teams", "team_scoring", "jokers", "removed", "removal",
        "widow", "decks"}  # fmt: skip
"""Options of both families: the common rules, make_rules' ``removal``, and the options both
families' records have (``max_bid``, ``team_scoring``, ``widow``)."""
HEARTS_OPTIONS = sorted(f for f in OPTION_VALUES if f in HeartsOptions.names() or f in BOTH)
SMEAR_OPTIONS = sorted(f for f in OPTION_VALUES if f not in HeartsOptions.names() or f in BOTH)
GROUPS = [
    # Fields that act together: drawn as a group now and then, so that their combinations occur.
    ("trumps", "pitcher_leads_trump", "smear_deal"), ("trumps", "pitcher_leads_trump", "widow", "keep"),
    ("jokers", "joker_rank", "joker_points", "distinguishable_jokers"), ("jokers", "categories", "jick"),
    ("moon_bid", "min_bid", "max_bid"), ("deal_size", "keep", "smear_deal", "widow"),
    ("teams", "team_scoring"), ("moon", "moon_points", "moon_cards"), ("moon", "team_scoring", "teams"),
    ("bidding", "first_lead", "pass_count", "pass_directions"), ("bidding", "max_bid", "general_points"),
    ("leftover", "widow", "removal"), ("stock_deal", "pass_count", "pass_directions"),
    ("no_points_first_trick", "first_trick_all_penalty", "card_points"), ("decks", "removal", "leftover"),
    ("hearts_break", "queen_needs_break", "lead_hearts_if_only_queen", "no_heart_lead_first_trick"),
    ("target_score", "exact_target_reset", "max_deals"), ("settlement", "scoring", "moon"),
]  # fmt: skip
NAMES = sorted(PRESETS)
SWEEP_SEEDS = range(8)
COMBINATIONS_PER_SEED = 100
GAMES = 4  # games per table
DEALS = 2  # deals each game plays to the end


def draw(rng: np.random.Generator) -> dict[str, Any]:
    """One combination: preset, player count, reading, version and a few options, mostly of the
    preset's own family, sometimes of the other (those must be refused)."""
    name = NAMES[rng.integers(len(NAMES))]
    spec = PRESETS[name]
    counts = spec.counts
    players = int(counts[rng.integers(len(counts))]) if rng.random() < 0.9 else int(rng.integers(2, 12))
    readings = list(spec.readings)
    reading = readings[rng.integers(len(readings))] if readings and rng.random() < 0.4 else None
    options: dict[str, Any] = {}
    if spec.versions and rng.random() < 0.5:
        versions = list(spec.versions)
        options["version"] = versions[rng.integers(len(versions))]
    own = SMEAR_OPTIONS if spec.game == "smear" else HEARTS_OPTIONS
    fields = [f for f in GROUPS[rng.integers(len(GROUPS))] if f in own] if rng.random() < 0.4 else []
    for _ in range(int(rng.integers(0, 4))):
        pool = own if rng.random() < 0.85 else sorted(OPTION_VALUES)
        fields.append(pool[rng.integers(len(pool))])
    for field in fields:
        values = OPTION_VALUES[field]
        options[field] = values[rng.integers(len(values))]
    reward = None if rng.random() < 0.8 else REWARDS[rng.integers(len(REWARDS))]
    return {"preset": name, "num_players": players, "reading": reading, "options": options, "reward": reward}


def _mentions(message: str, combo: dict[str, Any]) -> bool:
    """Whether an error message names something the combination gave."""
    said = [*combo["options"], str(combo["num_players"]), "num_players", "players"]
    if combo["reading"]:
        said.append(combo["reading"])
    if combo["reward"]:
        said += ["reward", combo["reward"]]
    for value in combo["options"].values():
        said.append(repr(value))
        if isinstance(value, (list, tuple, dict)):
            said += [repr(v) for v in value] + [str(v) for v in value]
    return any(text in message for text in said if text)


def build(combo: dict[str, Any]) -> Table | None:
    """The combination's table, or None where it is refused (with a message naming it)."""
    try:
        rules = make_rules(combo["preset"], combo["num_players"], combo["reading"], **combo["options"])
        return Table(rules, GAMES, reward=combo["reward"])
    except (ValueError, TypeError) as error:
        message = str(error)
        assert _mentions(message, combo), f"the refusal names nothing given: {message!r}"
        return None


def deal_bound(rules: Rules) -> int:
    """Decisions a deal can take at most: bids and suits, passes, discards, cards, a moon choice."""
    cards = len(rules.deck)
    passed = rules.num_players * rules.values().get("pass_count", 0)
    return 2 * rules.num_players + passed + 2 * cards + len(rules.decisions) + 4


def card_total(rules: Rules) -> int:
    """The card points in play (every copy)."""
    return sum(rules.card_points[c] for c in rules.deck.cards) * rules.decks


def check_deal(table: Table, rows: np.ndarray, before: np.ndarray) -> None:
    """The deals just ended in ``rows`` are consistent with ``before``, the totals they began with."""
    rules = table.rules
    points, totals = table.deal_points[rows], table.totals[rows]
    option = rules.values().get  # the options of either family
    resets = option("exact_target_reset") or option("scoring") == "royal" or option("moon_bid") == "game"
    if not resets:
        np.testing.assert_array_equal(totals - before[rows], points, err_msg="totals moved by another amount")
    if rules.game == "smear":
        worth = max(rules.smear_points, rules.smear_points + 1 if rules.moon_bid != "none" else 0, 11)
        sides = [seats[0] for seats in rules.teams] if rules.teams else list(range(rules.num_players))
        side_points = points[:, sides]
        assert (side_points >= -worth).all() and (side_points <= worth).all(), side_points
        assert (np.maximum(side_points, 0).sum(axis=1) <= worth).all(), side_points
        return
    plain = (
        rules.scoring == "points" and rules.bidding == "none" and rules.team_scoring != "sum"
        and rules.no_tricks_bonus == 0 and rules.decks == 1
        and rules.first_trick_all_penalty in ("play", "to_lowest")
    )  # fmt: skip
    if plain:
        no_moon = table.moon_shooter[rows] < 0
        sums = points.sum(axis=1)
        assert (sums[no_moon] == card_total(rules)).all(), (sums, card_total(rules))


def play(table: Table, seed: int) -> None:
    """Every game plays ``DEALS`` deals to their end with random legal actions."""
    rng = np.random.default_rng(seed)
    table.reset(seed=seed)
    bound = deal_bound(table.rules)
    before = table.totals.copy()
    deals = np.zeros(GAMES, np.int64)
    steps = np.zeros(GAMES, np.int64)
    while (deals < DEALS).any():
        mask = table.action_mask()
        live = ~table.deal_over
        assert mask[live].any(axis=1).all(), (
            f"a game still playing has no legal action (games {np.flatnonzero(live & ~mask.any(axis=1))})"
        )  # noqa: E501
        actions = (rng.random(mask.shape) * mask).argmax(axis=1)
        result = table.step(actions)
        steps += live
        assert (steps <= bound).all(), f"a deal took more than {bound} decisions"
        ended = np.flatnonzero(result.deal_ended)
        if len(ended):
            check_deal(table, ended, before)
            deals[ended] += 1
            table.redeal(ended)
            steps[ended] = 0
            before[ended] = table.totals[ended]
        if table.deal_over.all():  # every game waits: start the next deals
            waiting = np.flatnonzero(table.deal_over)
            table.redeal(waiting)
            before[waiting] = table.totals[waiting]


@pytest.mark.parametrize("seed", SWEEP_SEEDS)
def test_every_combination_is_refused_clearly_or_plays_consistent_deals(seed: int) -> None:
    rng = np.random.default_rng(seed)
    refused = played = 0
    for k in range(COMBINATIONS_PER_SEED):
        combo = draw(rng)
        try:
            table = build(combo)
            if table is None:
                refused += 1
                continue
            play(table, seed=1000 * seed + k)
            played += 1
        except Exception as error:
            raise AssertionError(f"combination {k} of seed {seed}: {combo}: {error!r}") from error
    assert refused and played > COMBINATIONS_PER_SEED // 4  # both outcomes are exercised
