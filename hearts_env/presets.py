"""Named presets: each variant as data over :class:`~hearts_env.core.rules.Rules` (``docs/rules.md``).

``make_rules(preset, num_players=None, reading=None, **options)`` is the one way in:

* ``preset`` — a name from :data:`PRESETS` (``"hearts"``, ``"black_maria"``, …);
* ``num_players`` — within the preset's range (default: the preset's default);
* ``reading`` — a named alternative reading of the sources (``"parlett"`` for Greek Hearts …),
  see :data:`Preset.readings`;
* ``options`` — field overrides (docs/rules.md). ``card_points`` is a mapping merged over the
  preset's values; ``removal`` names a removal table (``"standard"``, ``"arnold"``,
  ``"culbertson"``, ``"foster"``, ``"maria"``) and ``removed`` lists cards explicitly;
  ``discard_first`` takes a card name.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any

from hearts_env.core.cards import parse_cards
from hearts_env.core.rules import ENV_SETTINGS, FAMILY_OPTIONS, Options, Rules, as_int, idle_message

REMOVAL_TABLES: dict[str, dict[int, str]] = {
    # docs/rules.md: cards removed so that every hand is equal, per player count.
    "standard": {3: "2D", 5: "2C 2D", 6: "2C 2D 2S 3C"},
    "arnold": {3: "2C", 5: "2C 2D", 6: "2C 2D 2S 3C"},
    "culbertson": {3: "2C", 5: "2C 2D", 6: "2C 2D 2S 2H", 7: "2C 2D 2S"},
    "foster": {3: "2C", 5: "2C 2S", 6: "2C 2D 2S 2H"},
    "maria": {3: "2C", 5: "2C 2D", 6: "2C 2D 2S 2H"},
    "heartsette": {4: "2S"},  # the other counts keep the whole deck and a larger widow
    "five_point": {  # five-point Smear, 53 cards: 4 players play 3s-8s out, 6 players 3s-5s
        4: " ".join(f"{r}{s}" for r in "345678" for s in "CDHS"),
        6: " ".join(f"{r}{s}" for r in "345" for s in "CDHS"),
    },
    "none": {},
}
REMOVAL_ORDERS: dict[str, str] = {
    # Cards removed in this order, as many as the deck (jokers included) needs for equal hands.
    "joker": "2D 2C 2S 3C 3D 3S",
    "smear": "2C 2D 2H 2S 3C 3D 3H 3S",  # the up-to-8-player Smear game (docs/smear.md)
}

_SPOT_HEARTS = {f"{r}H": v for r, v in zip("23456789TJQKA", range(2, 15))}
_EAGLE_HEARTS = {**{f"{r}H": 1 for r in "23456789T"}, "JH": 2, "QH": 3, "KH": 4, "AH": 5}


@dataclass(frozen=True)
class Preset:
    """A variant: its player range, removal table, option values and alternative readings."""

    name: str
    description: str
    players: tuple[int, int] = (3, 6)
    default_players: int = 4
    removal: str = "standard"
    card_points: Mapping[str, int] = field(default_factory=lambda: {"hearts": 1, "QS": 13})
    options: Mapping[str, Any] = field(default_factory=dict)
    pass_cycles: Mapping[int, tuple[str, ...]] = field(default_factory=dict)
    """Pass cycle per player count, where it differs from ``options['pass_directions']``."""
    readings: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    """Alternative readings of the sources, each a set of option overrides."""
    per_players: Mapping[int, Mapping[str, Any]] = field(default_factory=dict)
    """Option values that depend on the player count (e.g. two jokers with three players)."""
    versions: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    """Named versions of the game (``version="B"``), each a set of option overrides."""
    player_counts: tuple[int, ...] = ()
    """The allowed player counts where they are not the whole range ``players`` (five-point
    Smear: 4, 6, 8)."""

    @property
    def game(self) -> str:
        """The game family: ``"hearts"`` or ``"smear"``."""
        return str(self.options.get("game", "hearts"))

    @property
    def counts(self) -> tuple[int, ...]:
        """Every player count this preset allows."""
        return self.player_counts or tuple(range(self.players[0], self.players[1] + 1))


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
        Preset(
            "hearts",
            "Standard modern Hearts (Morehead 2001): Q♠ 13, hearts 1, pass left/right/across/hold.",
            pass_cycles=_STANDARD_CYCLES,
            readings={
                "always_left": {"pass_directions": ("left",)},
                "eldest_leads": {"first_lead": "eldest"},
            },
        ),
        Preset(
            "black_lady_foster",
            "Foster 1909 'discard hearts': pass 3 left, eldest leads, hearts led any time, no moon.",
            removal="foster",
            options=dict(_OLD_STYLE, pass_directions=("left",), moon="none"),
            readings={"howell": {"settlement": "howell"}, "jackpot": {"settlement": "jackpot"}},
        ),
        Preset(
            "black_lady_culbertson",
            "Culbertson: 3-7 players, pass left, eldest leads, a moon scores 0 for everyone.",
            players=(3, 7),
            removal="culbertson",
            options=dict(_OLD_STYLE, pass_directions=("left",), moon="no_points"),
            readings={"alternate": {"pass_directions": ("left", "right")}},
        ),
        Preset(
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
        Preset(
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
        Preset(
            "spot_hearts",
            "Spot Hearts: hearts score their rank (A 14), Q♠ 25; 129 per deal.",
            pass_cycles=_STANDARD_CYCLES,
            card_points={**_SPOT_HEARTS, "QS": 25},
            readings={"ace_one": {"card_points": {"AH": 1}}, "eagle": {"card_points": _EAGLE_HEARTS}},
        ),
        Preset(
            "pink_lady",
            "Pink Lady: Q♥ is a second lady worth 13; 38 per deal.",
            pass_cycles=_STANDARD_CYCLES,
            card_points={"hearts": 1, "QS": 13, "QH": 13},
        ),
        Preset(
            "black_jack",
            "Black Jack: J♠ (10) replaces Q♠ as the penalty card.",
            pass_cycles=_STANDARD_CYCLES,
            card_points={"hearts": 1, "JS": 10},
            readings={"gibson": {"card_points": {"JS": 13}}, "discard_jack": {"discard_first": "JS"}},
        ),
        Preset(
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
        Preset(
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
        Preset(
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
            Preset(
                "chasse_coeur",
                "Chasse-cœur: the four queens 13, other hearts 1 (64); a declared Général takes all.",
                pass_cycles=_STANDARD_CYCLES,
                card_points={"hearts": 1, **_QUEENS},
                # An undeclared player taking every penalty card scores 0, each opponent 54.
                options=dict(no_points_first_trick=False, bidding="general", moon_points=54),
            ),
            Preset(
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
            Preset(
                "joker_hearts",
                "Joker Hearts: one or two jokers, playable any time, never win, score nothing.",
                removal="joker",
                pass_cycles=_STANDARD_CYCLES,
                options=dict(jokers=1),
                per_players={3: {"jokers": 2}},
            ),
            Preset(
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
            Preset(
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
            Preset(
                "cancellation_hearts",
                "Cancellation Hearts (Culbertson 1950): 6-11 players, two decks; identical cards in a "
                "trick cancel.",
                players=(6, 11),
                default_players=6,
                removal="none",  # 104 mod n cards left over form the kitty
                options=dict(decks=2, leftover="kitty", pass_directions=("left",), moon="none"),
            ),
            Preset(
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


def _pairs(n: int) -> tuple[tuple[int, ...], ...]:
    """Partners opposite: seat i with seat i + n/2."""
    return tuple((i, i + n // 2) for i in range(n // 2))


def _alternating(n: int) -> tuple[tuple[int, ...], ...]:
    """Two teams alternating round the table: the even seats and the odd seats."""
    return (tuple(range(0, n, 2)), tuple(range(1, n, 2)))


_TEN_POINTS = ("high", "low", "jack", "jick", "joker1", "joker2", "game", "trey")
_SMEAR = dict(game="smear", target_score=21, jokers=2, categories=_TEN_POINTS, max_bid=10)
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


PRESETS.update(
    {
        p.name: p
        for p in [
            Preset(
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
            Preset(
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
            Preset(
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
            Preset(
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
)

_COMMON = tuple(f.name for f in fields(Rules) if f.name not in ("preset", "num_players", "game", "options"))
"""The common rules a call may set (the preset sets ``game``; ``num_players`` is an argument)."""
_COMMON_DEFAULTS = {f.name: f.default for f in fields(Rules) if f.name != "options"}
_EXTRA_OPTIONS = ("removal", "version")


def preset_names(game: str | None = None) -> list[str]:
    """Names of every preset (only ``game``'s: ``"hearts"`` or ``"smear"``, if given)."""
    return [name for name, p in PRESETS.items() if game in (None, p.game)]


def get_preset(name: str) -> Preset:
    """The preset called ``name``; a clear error lists the known ones."""
    try:
        return PRESETS[name]
    except KeyError:
        raise ValueError(f"unknown preset {name!r}: choose one of {', '.join(PRESETS)}") from None


def make_rules(
    preset: str = "hearts", num_players: int | None = None, reading: str | None = None, **options: Any
) -> Rules:
    """Validated :class:`Rules` for ``preset`` with ``options`` (docs/rules.md names) applied:
    the common rules and the preset's family's options (``Rules.options``).

    Raises ``ValueError`` for an unknown preset, reading or option, another family's option, an
    env setting (``episode``, ``illegal_action``: the env's and the ``Table``'s), a player count
    outside the preset's range, or option values the rules reject.
    """
    spec = get_preset(preset)
    record = _options_record(spec)
    given = dict(options)  # the options named in this call (not those of a reading or version)
    n = spec.default_players if num_players is None else as_int("num_players", num_players)
    if n not in spec.counts:
        allowed = (
            ", ".join(map(str, spec.counts)) if spec.player_counts else f"{spec.players[0]}-{spec.players[1]}"
        )
        raise ValueError(f"{preset} is for {allowed} players, got num_players={n!r}")
    if reading is not None:
        if not isinstance(reading, str) or reading not in spec.readings:
            known = ", ".join(spec.readings) or "none"
            raise ValueError(f"{preset} has no reading {reading!r}; its readings: {known}")
        options = _merge(spec.readings[reading], options)
    if "version" in options:
        options = dict(options)
        version = options.pop("version")
        if not isinstance(version, str) or version not in spec.versions:
            known = ", ".join(spec.versions) or "none"
            raise ValueError(f"{preset} has no version {version!r}; its versions: {known}")
        options = _merge(spec.versions[version], options)
    _refuse_unknown(preset, record, [*options, *spec.options])
    values: dict[str, Any] = {k: v for k, v in spec.options.items() if k != "game"}
    values.update(spec.per_players.get(n, {}))
    if n in spec.pass_cycles:
        values["pass_directions"] = spec.pass_cycles[n]
    values.update({k: v for k, v in options.items() if k not in ("card_points", "removal")})
    if "card_points" in record.names():
        card_points = options.get("card_points", {})
        if not isinstance(card_points, Mapping):
            raise TypeError(
                f"card_points must be a mapping of cards to points such as {{'JD': -10}}, got {card_points!r}"
            )
        values["card_points"] = {**spec.card_points, **card_points}
    if "removal" in given and "removed" in given:
        raise ValueError(
            f"removal={given['removal']!r} and removed={given['removed']!r}: give a removal table or "
            "the removed cards, not both"
        )
    removal = options.get("removal", spec.removal)
    if not isinstance(removal, str) or removal not in {**REMOVAL_TABLES, **REMOVAL_ORDERS}:
        known = ", ".join([*REMOVAL_TABLES, *REMOVAL_ORDERS])
        raise ValueError(f"unknown removal table {removal!r}: choose one of {known}")
    if (
        values.get("leftover") == "kitty"
        and spec.options.get("leftover") != "kitty"
        and "removal" not in options
    ):
        removal = "none"  # a kitty asked for by option takes the cards that do not divide
    if "removed" in options:
        removed = options["removed"]
        if not isinstance(removed, (str, list, tuple)):
            raise TypeError(f"removed must be a list of cards such as ['2C', '2D'], got {removed!r}")
        values["removed"] = tuple(parse_cards(removed))
    elif removal in REMOVAL_ORDERS:
        jokers = values.get("jokers", 0)
        extra = (
            (52 + (jokers if isinstance(jokers, int) else 0)) % n if values.get("deal_size") is None else 0
        )
        values["removed"] = tuple(parse_cards(REMOVAL_ORDERS[removal].split()[:extra]))
    else:
        values["removed"] = tuple(parse_cards(REMOVAL_TABLES[removal].get(n, "")))
    values["num_players"] = n
    record.complete(values, options)
    _leave_out_idle(preset, record, values, given, options)
    common = {name: values[name] for name in _COMMON if name in values}
    return Rules(
        preset=preset,
        num_players=n,
        game=spec.game,
        **common,
        options=record(**{name: values[name] for name in record.names() if name in values}),
    )


def _options_record(spec: Preset) -> type[Options]:
    """The options record of ``spec``'s family (the registry's)."""
    try:
        return FAMILY_OPTIONS[spec.game]
    except KeyError:
        known = ", ".join(FAMILY_OPTIONS)
        raise ValueError(f"preset {spec.name} is of game family {spec.game!r}, not one of {known}") from None


def _refuse_unknown(preset: str, record: type[Options], names: list[str]) -> None:
    """A name that is neither a common rule, nor the family's option, nor one of make_rules' own:
    an error saying what it is (an env setting, another family's option) or listing the options."""
    ours = {*_COMMON, *record.names(), *_EXTRA_OPTIONS}
    unknown = sorted(set(names) - ours - {"game"})
    if not unknown:
        return
    for name in unknown:
        if name in ENV_SETTINGS:
            raise ValueError(
                f"{name} is an env setting, not a rule of the game: give it to the env or the table, "
                f"hearts_env.env({preset!r}, {name}=...) / Table(rules, {name}=...)"
            )
    known = ", ".join(sorted(ours))
    for name in unknown:
        owners = [other.title for other in FAMILY_OPTIONS.values() if name in other.names()]
        if owners:
            raise ValueError(
                f"{name} is a {' and '.join(owners)} option; {preset} is a {record.title} preset, whose "
                f"options are {known}"
            )
    raise ValueError(f"unknown option(s) {unknown} for {preset}; known options: {known}")


def _leave_out_idle(
    preset: str,
    record: type[Options],
    values: dict[str, Any],
    given: Mapping[str, Any],
    options: Mapping[str, Any],
) -> None:
    """Options that cannot matter under ``values`` (the record's :meth:`~Options.idle`): an error
    where this call names one (whatever its value) or a reading or version sets one to something
    else than its default; a preset's own value goes back to the default (the nine-card game's
    joker points without jokers)."""
    full = {**_COMMON_DEFAULTS, **{name: record.default(name) for name in record.names()}, **values}
    idle = record.idle(full)
    refused = [name for name in idle if name in given or (
        name in options and full[name] != record.default(name))]  # fmt: skip
    if refused:
        raise ValueError(idle_message(refused, idle, preset))
    for name in idle:
        if name in values:
            values[name] = record.default(name)


def _merge(reading: Mapping[str, Any], options: Mapping[str, Any]) -> dict[str, Any]:
    merged = dict(reading)
    for key, value in options.items():
        if key == "card_points" and key in merged and isinstance(value, Mapping):
            merged[key] = {**merged[key], **value}
        else:
            merged[key] = value
    return merged


def all_configs(game: str | None = None) -> list[tuple[str, int]]:
    """Every (preset, player count) pair the presets allow (only ``game``'s: ``"hearts"`` or
    ``"smear"``, if given)."""
    return [(name, n) for name, p in PRESETS.items() for n in p.counts if game in (None, p.game)]
