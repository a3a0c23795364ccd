"""Smear's presets (docs/smear.md): each variant as data over the common rules and
:class:`~hearts_env.games.smear.options.SmearOptions`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from hearts_env.core.presets import Preset


def _smear(name: str, description: str, **fields: Any) -> Preset:
    """A preset of the Smear family."""
    return Preset(name, description, game="smear", **fields)


def _pairs(n: int) -> tuple[tuple[int, ...], ...]:
    """Partners opposite: seat i with seat i + n/2."""
    return tuple((i, i + n // 2) for i in range(n // 2))


def _alternating(n: int) -> tuple[tuple[int, ...], ...]:
    """Two teams alternating round the table: the even seats and the odd seats."""
    return (tuple(range(0, n, 2)), tuple(range(1, n, 2)))


_TEN_POINTS = ("high", "low", "jack", "jick", "joker1", "joker2", "game", "trey")
_SMEAR = dict(target_score=21, jokers=2, categories=_TEN_POINTS, max_bid=10)
_SMEAR_READINGS: dict[str, Mapping[str, Any]] = {
    "no_jokers": {"jokers": 0},
    "one_joker": {"jokers": 1},
    "distinguishable_jokers": {"distinguishable_jokers": True},
    "no_jick": {"jick": False},
    "no_trey": {"categories": tuple(c for c in _TEN_POINTS if c != "trey")},
    "jokers_to_holders": {"joker_points": "holder"},
    "minimum_bid_4": {"min_bid": 4},
    "redeal": {"dealer_must_bid": False},
    "moon": {"moon_bid": "points"},
    "five_point_scoring": {"categories": ("high", "low", "jack", "jick", "game"), "max_bid": 5},
}


def _teams(counts: tuple[int, ...], teams: Any) -> dict[int, Mapping[str, Any]]:
    """Per-player-count team options: ``teams(n)`` for even counts, every player alone otherwise."""
    return {n: {"teams": teams(n), "team_scoring": "sum"} for n in counts if n % 2 == 0}


PRESETS: dict[str, Preset] = {
    p.name: p
    for p in [
        _smear(
            "smear_partnership",
            "Ten-point partnership Smear (McLeod): 54 cards, 10 each and a stock for the pitcher, "
            "bids 1-10, High Low Jack Jick Joker Joker Game Trey, side scores to 21.",
            players=(3, 8),
            removal="smear",
            options=_SMEAR,
            per_players={
                **_teams((4, 6, 8), _pairs),
                4: {**_teams((4,), _pairs)[4], "deal_size": 10},
                6: {**_teams((6,), _pairs)[6], "deal_size": 8},
            },
            readings=_SMEAR_READINGS,
        ),
        _smear(
            "smear_nine_card",
            "Parlett's nine-card Smear: 9 each, non-trumps thrown away, draw to six, only trumps "
            "played; joker points to holders; only the pitching side wins the game.",
            players=(3, 6),
            removal="none",
            options=dict(
                _SMEAR, deal_size=9, smear_deal="nine_card", joker_points="holder", pitcher_only_wins=True
            ),  # fmt: skip
            per_players=_teams((4, 6), _pairs),
            readings={**_SMEAR_READINGS, "target_31": {"target_score": 31}},
        ),
        _smear(
            "smear_widow",
            "Smear with a widow: 9 each and a 4-card widow for the pitcher, minimum bid 4 "
            "(3 cut-throat), Two and Ten instead of Low and Game.",
            players=(3, 4),
            removal="none",
            options=dict(
                _SMEAR,
                deal_size=9,
                widow=4,
                smear_deal="widow",
                min_bid=4,
                pitcher_leads_trump=False,
                categories=("high", "two", "jack", "jick", "joker1", "joker2", "ten", "trey"),
            ),  # fmt: skip
            per_players={4: _teams((4,), _pairs)[4], 3: {"min_bid": 3}},
            readings={
                **{
                    k: v
                    for k, v in _SMEAR_READINGS.items()
                    if k not in ("five_point_scoring", "minimum_bid_4")
                },
                "moon": {"moon_bid": "game"},
                "no_trey": {"categories": ("high", "two", "jack", "jick", "joker1", "joker2", "ten")},
            },
        ),
        _smear(
            "smear_five_point",
            "Five-point team Smear: 53 cards, 6 each, a dead blind, the first lead names trumps, "
            "the joker the lowest trump; High Low Jack Joker Game.",
            players=(4, 8),
            player_counts=(4, 6, 8),
            removal="five_point",
            options=dict(
                _SMEAR,
                jokers=1,
                joker_rank="lowest",
                jick=False,
                deal_size=6,
                smear_deal="blind",
                trumps="first_lead",
                pitcher_leads_trump=False,
                categories=("high", "low", "jack", "joker1", "game"),
                max_bid=5,
            ),  # fmt: skip
            per_players=_teams((4, 6, 8), _alternating),
            readings={
                "kitty": {"widow": 3},
                "redeal": {"dealer_must_bid": False},
                "moon": {"moon_bid": "points"},
            },
        ),
    ]
}
