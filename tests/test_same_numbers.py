"""The before/after driver of tools/same_numbers.py, in-process on this checkout: its digest
is a function of the seed and the rules, and sees a change in either."""

from __future__ import annotations

from tools.same_numbers import config_names, digests, foreign_modules, parse_config, play_digest

CONFIGS = ["hearts-4p", "smear_partnership-4p"]
DEALS = 40  # at B=16: a few steps of lockstep and of games that end their deals at different times


def test_same_seed_same_digest_and_a_change_shows() -> None:
    first = digests(DEALS, seed=3, names=CONFIGS, batch=16)
    assert first == digests(DEALS, seed=3, names=CONFIGS, batch=16)
    assert all(len(d) == 64 and not d.startswith("error") for d in first.values()), first
    other_seed = digests(DEALS, seed=4, names=CONFIGS, batch=16)
    assert all(other_seed[name] != first[name] for name in CONFIGS)
    # A rule that random play meets at once (in 40 deals it seldom shoots a moon: moon="new" may not show).
    assert play_digest("hearts", 4, DEALS, seed=3, batch=16, hearts_break="free") != first["hearts-4p"]


def test_configurations_cover_presets_readings_and_chips() -> None:
    names = config_names()
    assert {"hearts-4p", "hearts-3p", "greek_hearts-4p:reading=parlett"} <= set(names)
    assert "black_maria-3p:reading=settle,reward=chips" in names
    assert parse_config("black_maria-3p:reading=settle,reward=chips") == (
        "black_maria", 3, {"reading": "settle", "reward": "chips"},
    )  # fmt: skip
    assert play_digest("hearts", 9, DEALS).startswith("error: ValueError")  # a refusal is a result
    assert foreign_modules(__file__.rsplit("/tests/", 1)[0]) == []
