"""Rules per family: the common :class:`Rules` and each family's own options record.

``make_rules`` splits the options into the common rules and the family's, refuses another
family's option and the env settings by name; a family's record checks its own options (those
that cannot matter included); the rules read a family's option as an attribute; a saved
description of today's form (version 1: every field of both families) still matches.
"""

from __future__ import annotations

import json
import pickle
from dataclasses import replace
from pathlib import Path

import pytest

from hearts_env.core.rules import RULES_VERSION, Rules, upgrade_description
from hearts_env.games import register, unregister
from hearts_env.games.hearts.options import HeartsOptions
from hearts_env.games.smear.options import SmearOptions
from hearts_env.presets import make_rules
from tests.plain_tricks import FAMILY, GAME, PRESET, PlainTricksOptions

SAMPLES = Path(__file__).parent / "data" / "formats_2026_12"


@pytest.mark.parametrize(
    ("preset", "option", "says"),
    [
        ("smear_widow", {"pass_count": 3},
         "pass_count is a Hearts option; smear_widow is a Smear preset, whose options are categories"),
        ("smear_partnership", {"card_points": {"QS": 13}},
         "card_points is a Hearts option; smear_partnership"),
        ("hearts", {"keep": 6}, "keep is a Smear option; hearts is a Hearts preset, whose options are"),
        ("black_maria", {"smear_deal": "blind"},
         "smear_deal is a Smear option; black_maria is a Hearts preset"),
    ],
)  # fmt: skip
def test_another_familys_option_is_refused_by_name(preset: str, option: dict, says: str) -> None:
    with pytest.raises(ValueError) as raised:
        make_rules(preset, **option)
    assert says in str(raised.value)


def test_an_option_of_both_families_is_each_ones() -> None:
    """``widow``, ``max_bid`` and ``team_scoring`` are in both records, each with its meaning."""
    assert make_rules("smear_widow").widow == 4 and make_rules("heartsette", 3).widow == 4
    assert make_rules("auction_hearts", max_bid=5).max_bid == 5
    assert make_rules("smear_partnership", max_bid=8).max_bid == 8
    assert {"widow", "max_bid", "team_scoring"} <= set(HeartsOptions.names()) & set(SmearOptions.names())


@pytest.mark.parametrize("setting", [{"episode": "game"}, {"illegal_action": "terminate"}])
@pytest.mark.parametrize("preset", ["hearts", "smear_widow"])
def test_env_settings_are_not_rules(preset: str, setting: dict) -> None:
    (name,) = setting
    with pytest.raises(ValueError) as raised:
        make_rules(preset, **setting)
    assert str(raised.value) == (
        f"{name} is an env setting, not a rule of the game: give it to the env or the table, "
        f"hearts_env.env({preset!r}, {name}=...) / Table(rules, {name}=...)"
    )
    assert name not in make_rules(preset).describe()


@pytest.mark.parametrize(
    ("call", "says"),
    [
        (lambda: make_rules("hearts", general_points=30), "general_points: the Général's value needs"),
        (lambda: make_rules("partnership_hearts", moon="new"), "moon: team_scoring='sum'"),
        (lambda: make_rules("smear_partnership", jokers=0, joker_points="holder"), "joker_points: joker"),
        (lambda: Rules(game="hearts", options=HeartsOptions(max_bid=5)), "max_bid: the highest chip bid"),
        (lambda: Rules(game="hearts", options=HeartsOptions(moon="none", moon_points=5)), "moon_points:"),
    ],
)  # fmt: skip
def test_an_option_that_cannot_matter_is_refused_by_its_familys_record(call, says: str) -> None:
    with pytest.raises(ValueError, match="has no use for them: leave them out") as raised:
        call()
    assert says in str(raised.value)


def test_a_presets_own_idle_value_goes_back_to_the_default() -> None:
    """The nine-card game gives joker points to holders; its reading without jokers leaves that out."""
    assert make_rules("smear_nine_card").joker_points == "holder"
    assert make_rules("smear_nine_card", reading="no_jokers").joker_points == "trick"


def test_the_rules_read_the_familys_options_and_facts() -> None:
    hearts, smear = make_rules("black_maria"), make_rules("smear_five_point")
    assert hearts.pass_count == hearts.options.pass_count == 3 and hearts.penalty_total == 43
    assert smear.smear_points == 5 and smear.moon_value == 11 and smear.categories == smear.options.categories
    not_smear = "'pass_count' is not a rule of smear rules: neither a common rule nor a Smear option \\(widow"
    with pytest.raises(AttributeError, match=not_smear):
        smear.pass_count  # noqa: B018
    with pytest.raises(AttributeError, match="'keep' is not a rule of hearts rules"):
        hearts.keep  # noqa: B018
    with pytest.raises(AttributeError, match="penalty_total is a fact of the whole rules"):
        hearts.options.penalty_total  # noqa: B018
    with pytest.raises(AttributeError):  # a method of the record is not a rule
        hearts.check  # noqa: B018


def test_the_generic_facts_come_from_the_familys_record() -> None:
    assert make_rules("chasse_coeur").phases == ("passing", "playing", "declare")
    assert make_rules("smear_widow").phases == ("bid", "name_suit", "discard", "playing")
    assert make_rules("hearts_1887", reading="chips").pays_chips and not make_rules("smear_widow").pays_chips
    assert make_rules("partnership_hearts", version="C").bid_partnership
    assert not make_rules("smear_partnership").has_moon and make_rules("hearts").has_moon
    assert make_rules("hearts").pass_direction(2) == "across"
    assert make_rules("smear_widow").pass_direction(2) == "hold"
    assert "redeal" in make_rules("hearts", first_trick_all_penalty="redeal").duplicate_problem


def test_rules_built_directly() -> None:
    plain = replace(make_rules("hearts", removal="none"), preset="")
    assert Rules(game="hearts") == Rules(options=HeartsOptions()) == plain
    assert Rules(options=HeartsOptions()).game == "hearts"
    with pytest.raises(TypeError, match="options must be SmearOptions for game='smear', got HeartsOptions"):
        Rules(game="smear", options=HeartsOptions())
    with pytest.raises(ValueError, match="rules need a game family: game= one of hearts, smear"):
        Rules()
    with pytest.raises(ValueError, match="a Smear game needs at least one point category"):
        Rules(game="smear")
    with pytest.raises(TypeError, match="pass_count must be an int, got float 3.0"):
        HeartsOptions(pass_count=3.0)


@pytest.mark.parametrize("preset", ["royal_hearts", "smear_widow"])
def test_rules_survive_pickling(preset: str) -> None:
    """Vector-env workers receive the rules pickled: the family's options and facts come along."""
    rules = make_rules(preset)
    rules.hand_size, rules.decisions  # noqa: B018 (cached values pickle too)
    again = pickle.loads(pickle.dumps(rules))
    assert again == rules and hash(again) == hash(rules) and again.options == rules.options
    assert again.describe() == rules.describe()


def test_a_third_family_declares_its_own_options() -> None:
    register(FAMILY, PRESET)
    try:
        rules = make_rules(GAME)
        assert type(rules.options) is PlainTricksOptions
        assert rules.pass_count == 0 and rules.first_lead == "eldest"
        assert make_rules(GAME, first_lead="any_club").first_lead == "any_club"
        with pytest.raises(ValueError, match="pass_count: plain tricks pass nothing and score one point"):
            make_rules(GAME, pass_count=3)
        with pytest.raises(ValueError, match="keep is a Smear option; plain_tricks is a Plain tricks preset"):
            make_rules(GAME, keep=3)
        assert rules.matches(json.loads(json.dumps(rules.describe())))
    finally:
        unregister(GAME)


@pytest.mark.parametrize("name", ["tournament_hearts.json", "tournament_smear.json"])
def test_a_saved_description_of_today_matches(name: str) -> None:
    """The committed tournament records hold version 1 descriptions: every field of both families
    and the env settings. They match the rules they were played with, and no other rules."""
    saved = json.loads((SAMPLES / name).read_text())
    old = saved["rules"]
    assert "rules_version" not in old and "episode" in old and "pass_count" in old and "keep" in old
    rules = make_rules(saved["config"]["preset"])
    assert rules.matches(old) and rules.differences(old) == []
    upgraded = upgrade_description(old)
    assert upgraded["rules_version"] == RULES_VERSION and set(upgraded) == set(rules.describe())
    other = make_rules(saved["config"]["preset"], target_score=7)
    assert not other.matches(old) and other.differences(old) == ["target_score"]
    family_option = {"hearts": {"moon": "new"}, "smear": {"min_bid": 2}}[rules.game]
    assert make_rules(rules.preset, **family_option).differences(old) == list(family_option)
    assert not rules.matches({**old, "game": "smear" if rules.game == "hearts" else "hearts"})
    assert rules.matches(rules.describe()) and not rules.matches({}) and not rules.matches(None)


def test_a_description_of_this_version_keeps_only_the_familys_options() -> None:
    described = make_rules("smear_widow").describe()
    assert described["rules_version"] == RULES_VERSION
    assert set(described) == {"rules_version", "preset", "num_players", "game", "decks", "removed", "jokers",
                              "teams", "target_score", "max_deals", *SmearOptions.names()}  # fmt: skip
    assert replace(make_rules("hearts"), target_score=50).differences(make_rules("hearts").describe()) == [
        "target_score"
    ]
