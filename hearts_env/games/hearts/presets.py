"""The Hearts family's presets (docs/rules.md): each variant as data over the common rules and
:class:`~hearts_env.games.hearts.options.HeartsOptions`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from hearts_env.core.presets import Preset

BLACK_LADY = {"hearts": 1, "QS": 13}
"""Standard card values: hearts 1, Q♠ 13."""
_SPOT_HEARTS = {f"{r}H": v for r, v in zip("23456789TJQKA", range(2, 15))}
_EAGLE_HEARTS = {**{f"{r}H": 1 for r in "23456789T"}, "JH": 2, "QH": 3, "KH": 4, "AH": 5}


def _hearts(
    name: str,
    description: str,
    card_points: Mapping[str, int] = BLACK_LADY,
    pass_cycles: Mapping[int, tuple[str, ...]] | None = None,
    **fields: Any,
) -> Preset:
    """A preset of the Hearts family: ``card_points`` (:data:`BLACK_LADY` unless given) is its
    ``card_points`` option, which a call's card values are merged over; ``pass_cycles``, a pass
    cycle per player count, its ``pass_directions`` at each of those counts (over ``per_players``)."""
    options = {"card_points": card_points, **fields.pop("options", {})}
    per_players = dict(fields.pop("per_players", {}))
    for n, cycle in (pass_cycles or {}).items():
        per_players[n] = {**per_players.get(n, {}), "pass_directions": cycle}
    return Preset(name, description, game="hearts", options=options, per_players=per_players, **fields)


_STANDARD_CYCLES = {
    3: ("left", "right", "hold"),
    4: ("left", "right", "across", "hold"),
    5: ("left", "right", "hold"),
    6: ("left", "right", "across", "hold"),
}
_OLD_STYLE = dict(first_lead="eldest", hearts_break="free", no_points_first_trick=False)

PRESETS: dict[str, Preset] = {
    p.name: p
    for p in [
        _hearts(
            "hearts",
            "Standard modern Hearts (Morehead 2001): Q♠ 13, hearts 1, pass left/right/across/hold.",
            pass_cycles=_STANDARD_CYCLES,
            readings={
                "always_left": {"pass_directions": ("left",)},
                "eldest_leads": {"first_lead": "eldest"},
            },
        ),
        _hearts(
            "black_lady_foster",
            "Foster 1909 'discard hearts': pass 3 left, eldest leads, hearts led any time, no moon.",
            removal="foster",
            options=dict(_OLD_STYLE, pass_directions=("left",), moon="none"),
            readings={"howell": {"settlement": "howell"}, "jackpot": {"settlement": "jackpot"}},
        ),
        _hearts(
            "black_lady_culbertson",
            "Culbertson: 3-7 players, pass left, eldest leads, a moon scores 0 for everyone.",
            players=(3, 7),
            removal="culbertson",
            options=dict(_OLD_STYLE, pass_directions=("left",), moon="no_points"),
            readings={"alternate": {"pass_directions": ("left", "right")}},
        ),
        _hearts(
            "black_maria",
            "British Black Maria: Q♠ 13, K♠ 10, A♠ 7, pass right, no moon; best with 3.",
            default_players=3,
            removal="maria",
            card_points={"hearts": 1, "QS": 13, "KS": 10, "AS": 7},
            options=dict(_OLD_STYLE, pass_directions=("right",), moon="none"),
            readings={
                "ace_ten": {"card_points": {"AS": 10, "KS": 7}},
                "subtract_moon": {"moon": "new"},
                "target_200": {"target_score": 200},
                "hearts_by_rank": {"card_points": {**_SPOT_HEARTS, "QS": 25}},
                "settle": {"settlement": "maria"},
            },
        ),
        _hearts(
            "omnibus",
            "Omnibus Hearts: Black Lady plus 10♦ worth -10; a slam of all 15 counting cards scores -26.",
            pass_cycles=_STANDARD_CYCLES,
            card_points={"hearts": 1, "QS": 13, "TD": -10},
            options=dict(moon="slam", moon_cards="counting"),
            readings={
                "jack_of_diamonds": {"card_points": {"TD": 0, "JD": -10}},
                "ordinary_moon": {"moon": "old", "moon_cards": "penalty"},
            },
        ),
        _hearts(
            "spot_hearts",
            "Spot Hearts: hearts score their rank (A 14), Q♠ 25; 129 per deal.",
            pass_cycles=_STANDARD_CYCLES,
            card_points={**_SPOT_HEARTS, "QS": 25},
            readings={"ace_one": {"card_points": {"AH": 1}}, "eagle": {"card_points": _EAGLE_HEARTS}},
        ),
        _hearts(
            "pink_lady",
            "Pink Lady: Q♥ is a second lady worth 13; 38 per deal.",
            pass_cycles=_STANDARD_CYCLES,
            card_points={"hearts": 1, "QS": 13, "QH": 13},
        ),
        _hearts(
            "black_jack",
            "Black Jack: J♠ (10) replaces Q♠ as the penalty card.",
            pass_cycles=_STANDARD_CYCLES,
            card_points={"hearts": 1, "JS": 10},
            readings={"gibson": {"card_points": {"JS": 13}}, "discard_jack": {"discard_first": "JS"}},
        ),
        _hearts(
            "greek_hearts",
            "Greek Hearts (Phillips & Westall): Q♠ 50, A♥ 15, K♥ Q♥ J♥ 10; a moon gives each opponent 150.",
            pass_cycles=_STANDARD_CYCLES,
            card_points={
                **_SPOT_HEARTS,
                "AH": 15,
                "KH": 10,
                "QH": 10,
                "JH": 10,
                "QS": 50,
            },
            options=dict(moon_points=150),
            readings={
                "parlett": {"card_points": {f"{r}H": 1 for r in "23456789T"}},
                # Culbertson 1950: his Black Lady (eldest leads any card, hearts any time, no
                # first-trick rule, a slam scores 0 for all, his removal) with pass 3 right,
                # J♦ -10 and no heart led to the first trick.
                "culbertson": {
                    **_OLD_STYLE,
                    "card_points": {"hearts": 1, "QS": 13, "JD": -10},
                    "pass_directions": ("right",),
                    "moon": "no_points",
                    "moon_points": None,
                    "removal": "culbertson",
                    "no_heart_lead_first_trick": True,
                },
                # Maguire 1990: essentially Spot Hearts (hearts by rank, A 14; Q♠ 25) passing left.
                "maguire": {
                    "card_points": {**_SPOT_HEARTS, "QS": 25},
                    "pass_directions": ("left",),
                    "moon_points": None,
                },
            },
        ),
        _hearts(
            "royal_hearts",
            "Royal Hearts: Q♠ 26; Q♥ doubles its taker's hearts; Q♦ -10 off his total (not below 0); "
            "Q♣ cancels Q♠; the shooter chooses.",
            pass_cycles=_STANDARD_CYCLES,
            card_points={"hearts": 1, "QS": 26, "QD": -10},
            options=dict(scoring="royal", moon="shooter_choice"),
            readings={
                "add_moon": {"moon": "old"},
                "subtract_moon": {"moon": "new"},
                "deal_floor": {"scoring": "royal_deal_floor"},
            },
        ),
        _hearts(
            "hearts_1887",
            "The original game (Hoyle 1887): hearts 1 each, no Q♠, no passing, no moon.",
            card_points={"hearts": 1},
            options=dict(_OLD_STYLE, pass_directions=("hold",), pass_count=0, moon="none"),
            readings={
                "chips": {"settlement": "lowest_wins_chips"},
                "moon": {"moon": "old"},
                "double": {"card_points": _SPOT_HEARTS},
                "eagle": {"card_points": _EAGLE_HEARTS},
            },
        ),
    ]
}

_QUEENS = {"QC": 13, "QD": 13, "QH": 13, "QS": 13}
_OMNIBUS_POINTS = {"hearts": 1, "QS": 13, "TD": -10}

PRESETS.update(
    {
        p.name: p
        for p in [
            _hearts(
                "chasse_coeur",
                "Chasse-cœur: the four queens 13, other hearts 1 (64); a declared Général takes all.",
                pass_cycles=_STANDARD_CYCLES,
                card_points={"hearts": 1, **_QUEENS},
                # An undeclared player taking every penalty card scores 0, each opponent 54.
                options=dict(no_points_first_trick=False, bidding="general", moon_points=54),
            ),
            _hearts(
                "auction_hearts",
                "Auction Hearts (Foster 1897): bid chips to name the penalty suit (eldest hand opens), "
                "1 a card; no pass.",
                players=(4, 6),
                options=dict(
                    pass_directions=("hold",),
                    pass_count=0,
                    first_lead="eldest",
                    hearts_break="free",
                    no_points_first_trick=False,
                    moon="none",
                    bidding="auction",
                ),  # fmt: skip
                card_points={"hearts": 1},
            ),
            _hearts(
                "joker_hearts",
                "Joker Hearts: one or two jokers, playable any time, never win, score nothing.",
                removal="joker",
                pass_cycles=_STANDARD_CYCLES,
                options=dict(jokers=1),
                per_players={3: {"jokers": 2}},
            ),
            _hearts(
                "heartsette",
                "Heartsette: hearts 1, eldest leads, no pass; a widow for the first trick's winner.",
                removal="heartsette",
                card_points={"hearts": 1},
                options=dict(
                    _OLD_STYLE, pass_directions=("hold",), pass_count=0, moon="none", leftover="kitty"
                ),
                per_players={3: {"widow": 4}},
                readings={
                    "modern": {
                        "card_points": {"hearts": 1, "QS": 13},
                        "first_lead": "lowest_club",
                        "hearts_break": "heart",
                        "no_points_first_trick": True,
                        "pass_count": 3,
                        "pass_directions": _STANDARD_CYCLES,  # per player count
                        "moon": "old",
                    }
                },
            ),
            _hearts(
                "domino_hearts",
                "Domino Hearts (Foster 1909): six cards each and a stock to draw from; game to 31.",
                removal="none",
                card_points={"hearts": 1},
                options=dict(
                    _OLD_STYLE,
                    pass_directions=("hold",),
                    pass_count=0,
                    moon="none",
                    stock_deal=6,
                    target_score=31,
                ),  # fmt: skip
            ),
            _hearts(
                "cancellation_hearts",
                "Cancellation Hearts (Culbertson 1950): 6-11 players, two decks; identical cards in a "
                "trick cancel.",
                players=(6, 11),
                default_players=6,
                removal="none",  # 104 mod n cards left over form the kitty
                options=dict(decks=2, leftover="kitty", pass_directions=("left",), moon="none"),
            ),
            _hearts(
                "partnership_hearts",
                "Partnership Hearts: partners opposite; A team scores, B individual scores, C a slam bid.",
                players=(4, 4),
                pass_cycles=_STANDARD_CYCLES,
                options=dict(teams=((0, 2), (1, 3)), team_scoring="sum"),
                versions={
                    "A": {},
                    "B": {"team_scoring": "individual"},
                    "C": {
                        "teams": (),
                        "team_scoring": "none",
                        "bidding": "slam",
                        "card_points": _OMNIBUS_POINTS,
                        "moon": "slam",
                        "moon_cards": "counting",
                    },
                },
            ),
        ]
    }
)
