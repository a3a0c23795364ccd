"""Scripted Smear deals as data, written by hand from docs/rules.md and docs/smear.md.

Each :class:`SmearScript` is one complete, legal deal played to its end: the rules
(``make_rules(preset, num_players, reading, **options)``), the hands as dealt (card names, seat
0 first), the dealer, the undealt cards (the widow first, then the stock in draw order) and every
action by name (``"bid:3"``, ``"suit:H"``, ``"pass"``, ``"QS"``; ``|`` separators are only for
the eye). The expectations are the points the deal is about; every one was worked out by hand.

Most deals use a small deck: :func:`script` removes every standard card the deal does not name
and sets ``deal_size`` (and ``jokers`` to the jokers named), so ``options`` is complete and the
same ``make_rules`` call builds the rules for the reference and for the engine.

``tests/test_reference_smear.py`` runs every script against ``ReferenceSmearDeal``; a
differential test can replay the same scripts on the fast engine.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from hearts_env.core.cards import card_name, parse_card

GameCheck = tuple[tuple[int, ...], tuple[int, ...], bool, "int | None"]
"""(side totals before the deal, totals after it, game over, winning side) for
``reference_smear_game``."""


@dataclass(frozen=True)
class SmearScript:
    name: str
    """What the deal tests."""
    preset: str
    num_players: int
    hands: tuple[str, ...]
    """Per seat, the cards dealt (space-separated names)."""
    actions: tuple[str, ...]
    """Every action of the deal, in order, by name."""
    dealer: int = 0
    undealt: tuple[str, ...] = ()
    """The widow first (``rules.widow`` cards), then the stock in draw order (or the dead blind)."""
    reading: str | None = None
    options: Mapping[str, Any] = field(default_factory=dict)
    # ---- expectations (None / empty: not checked)
    seats: Mapping[int, int] = field(default_factory=dict)
    """Step index -> the seat to act before that action."""
    legal: Mapping[int, str] = field(default_factory=dict)
    """Step index -> the legal action names before that action (space-separated, any order)."""
    errors: tuple[tuple[int, str, str], ...] = ()
    """(step index, an illegal action name, a substring of the ValueError): tried before the
    step's own action; the deal must not change."""
    phases: Mapping[int, str] = field(default_factory=dict)
    """Step index -> the phase before that action."""
    tricks: tuple[int, ...] | None = None
    """The winner of each trick, in order."""
    held: Mapping[int, str] = field(default_factory=dict)
    """Seat -> the hand when play began (any order)."""
    cancelled: bool = False
    pitcher: int | None = None
    bid: int | None = None
    moon: bool = False
    trumps: str | None = None
    """The trump suit's letter."""
    made: bool | None = None
    categories: Mapping[str, int] | None = None
    """Every category of the rules -> side index, -1 not in play, -2 nobody."""
    made_points: tuple[int, ...] | None = None
    side_points: tuple[int, ...] | None = None
    games: tuple[GameCheck, ...] = ()

    @property
    def hand_cards(self) -> list[list[str]]:
        return [h.split() for h in self.hands]

    @property
    def undealt_cards(self) -> list[str]:
        return list(self.undealt)


def _split(text: str) -> tuple[str, ...]:
    return tuple(t for t in text.split() if t != "|")


def script(
    name: str,
    preset: str,
    num_players: int,
    hands: tuple[str, ...],
    actions: str,
    undealt: str = "",
    small: bool = True,
    options: Mapping[str, Any] | None = None,
    **expect: Any,
) -> SmearScript:
    """A :class:`SmearScript`; with ``small`` the deck is exactly the cards named (``removed``
    every other standard card, ``jokers`` the jokers named, ``deal_size`` the hand size)."""
    opts = dict(options or {})
    named = [c for h in hands for c in h.split()] + undealt.split()
    if small:
        standard = {card_name(c) for c in range(52)}
        opts.setdefault("removed", [c for c in sorted(standard, key=parse_card) if c not in named])
        opts.setdefault("jokers", sum(1 for c in ("JK1", "JK2") if c in named))
        opts.setdefault("deal_size", len(hands[0].split()))
    return SmearScript(
        name=name,
        preset=preset,
        num_players=num_players,
        hands=hands,
        actions=_split(actions),
        undealt=_split(undealt),
        options=opts,
        **expect,
    )


P4 = dict(keep=2)  # four-player partnership deals of two cards each: two tricks, no discards
NO_PLAY = {"jack": -1, "jick": -1, "trey": -1}

# fmt: off
SCRIPTS: list[SmearScript] = [
    script(
        "trump order: the jick above both jokers, the later-played joker above the earlier",
        "smear_partnership", 4,
        ("JK1 AS", "JK2 TS", "JC 3S", "2S KH"),
        "bid:2 pass pass pass suit:S | JK1 JK2 JC 2S | 3S KH AS TS",
        dealer=3, options=P4,
        seats={0: 0, 4: 0, 5: 0, 6: 1, 7: 2, 8: 3, 9: 2, 10: 3},
        legal={4: "suit:C suit:D suit:H suit:S", 5: "JK1 AS", 8: "2S", 9: "3S", 10: "KH"},
        errors=((8, "KH", "must follow suit or trump"),),
        phases={0: "bid", 4: "name_suit", 5: "playing"},
        tricks=(2, 0), pitcher=0, bid=2, trumps="S", made=True,
        categories={"high": 0, "low": 1, "jack": -1, "jick": 0, "joker1": 0, "joker2": 0, "game": 0,
                    "trey": 0},
        made_points=(8, 1), side_points=(8, 1),
    ),
    script(
        "two jokers in one trick: the one played second ranks higher",
        "smear_partnership", 4,
        ("JK2 AH", "JK1 KH", "TS QH", "9S 2H"),
        "bid:1 pass pass pass suit:S | JK2 JK1 TS 9S | KH QH 2H AH",
        dealer=3, options=P4,
        legal={5: "JK2", 6: "JK1", 9: "KH", 12: "AH"},
        errors=((5, "AH", "must lead a trump"),),
        tricks=(1, 0), pitcher=0, bid=1, trumps="S", made=True,
        categories={"high": 0, "low": 1, "jack": -1, "jick": -1, "joker1": 1, "joker2": 1, "game": 1,
                    "trey": -1},
        made_points=(1, 4), side_points=(1, 4),
    ),
    script(
        "distinguishable jokers: JK2 above JK1 whatever the order",
        "smear_partnership", 4,
        ("JK2 AH", "JK1 KH", "TS QH", "9S 2H"),
        "bid:1 pass pass pass suit:S | JK2 JK1 TS 9S | AH KH QH 2H",
        dealer=3, reading="distinguishable_jokers", options=P4,
        tricks=(0, 0), pitcher=0, bid=1, trumps="S", made=True,
        categories={"high": 0, "low": 1, "jack": -1, "jick": -1, "joker1": 0, "joker2": 0, "game": 0,
                    "trey": -1},
        made_points=(4, 1), side_points=(4, 1),
    ),
    script(
        "the J above the jick above the joker above the 10; a jick led is a trump lead",
        "smear_partnership", 4,
        ("JD 9H", "JH 2C", "TH 3D", "JK1 4C"),
        "bid:2 pass pass pass suit:H | JD JH TH JK1 | 2C 3D 4C 9H",
        dealer=3, options=P4,
        legal={5: "JD 9H", 6: "JH", 7: "TH", 8: "JK1", 10: "3D", 11: "4C", 12: "9H"},
        errors=((7, "3D", "must follow suit or trump"), (11, "AS", "does not hold")),
        tricks=(1, 0), pitcher=0, bid=2, trumps="H", made=False,
        categories={"high": 1, "low": 0, "jack": 1, "jick": 1, "joker1": 1, "game": 1, "trey": -1},
        made_points=(1, 5), side_points=(-2, 5),
    ),
    script(
        "follow suit or trump: a trump allowed while holding the suit led, an off-suit card refused; "
        "a pitcher without a trump leads anything; set back when short of the bid",
        "smear_partnership", 4,
        ("KC 9S 8D", "2C 5H 4D", "QC 7D 3S", "6D AH TC"),
        "bid:1 pass pass pass suit:H | KC 5H QC TC | 4D 7D AH 8D | 6D 9S 2C 3S",
        dealer=3,
        legal={5: "KC 9S 8D", 6: "2C 5H", 7: "QC", 8: "TC AH", 9: "2C 4D", 10: "7D", 11: "6D AH", 12: "8D",
               13: "6D", 14: "9S"},
        errors=((7, "7D", "must follow suit or trump"), (6, "4D", "clubs")),
        tricks=(1, 3, 3), pitcher=0, bid=1, trumps="H", made=False,
        categories={"high": 1, "low": 1, **NO_PLAY, "game": 1},
        made_points=(0, 3), side_points=(-1, 3),
        games=(((22, 18), (21, 21), True, 0), ((21, 17), (20, 20), False, None), ((5, 20), (4, 23), True, 1)),
        options={"keep": 3},
    ),
    script(
        "game tied 10-10 scores to nobody; the pitching side wins a tie at the target",
        "smear_partnership", 4,
        ("TS JH", "2H QH", "3D KH", "4C AH"),
        "bid:2 pass pass pass suit:S | TS 2H 3D 4C | JH QH KH AH",
        dealer=3, options=P4,
        legal={5: "TS", 9: "JH"},
        tricks=(0, 3), pitcher=0, bid=2, trumps="S", made=True,
        categories={"high": 0, "low": 0, **NO_PLAY, "game": -2},
        made_points=(2, 0), side_points=(2, 0),
        games=(((19, 21), (21, 21), True, 0), ((10, 25), (12, 25), True, 1), ((18, 5), (20, 5), False, None),
               ((-5, 0), (-3, 0), False, None)),
    ),
    script(
        "set back: the pitching side makes nothing against its bid of three, the others keep theirs",
        "smear_partnership", 4,
        ("TS JH", "2H QH", "3D KH", "4C AH"),
        "pass bid:1 bid:3 pass suit:S | 4C TS QH 3D | JH 2H KH AH",
        dealer=0, options=P4,
        seats={0: 1, 1: 2, 2: 3, 3: 0, 4: 3, 5: 3, 6: 0, 9: 0, 10: 1},
        legal={1: "pass bid:1 bid:2 bid:3 bid:4 bid:5 bid:6 bid:7 bid:8",
               2: "pass bid:2 bid:3 bid:4 bid:5 bid:6 bid:7 bid:8",
               3: "pass bid:4 bid:5 bid:6 bid:7 bid:8", 5: "4C AH", 9: "JH", 10: "2H"},
        errors=((3, "bid:3", "above the highest bid"), (3, "bid:2", "above the highest bid"),
                (3, "suit:S", "not the pitcher"), (3, "AS", "bid phase")),
        tricks=(0, 3), pitcher=3, bid=3, trumps="S", made=False,
        categories={"high": 0, "low": 0, **NO_PLAY, "game": 0},
        made_points=(3, 0), side_points=(3, -3),
    ),
    script(
        "dealer forced to bid the minimum when everybody else passed",
        "smear_partnership", 4,
        ("7C 8C", "AD 2C", "3D 4C", "5C 6C"),
        "pass pass pass bid:1 suit:D | AD 3D 5C 7C | 2C 4C 6C 8C",
        dealer=1, options=P4,
        seats={0: 2, 1: 3, 2: 0, 3: 1, 4: 1, 5: 1, 6: 2},
        legal={0: "pass bid:1 bid:2 bid:3 bid:4 bid:5 bid:6 bid:7 bid:8", 3: "bid:1",
               4: "suit:C suit:D suit:H suit:S", 5: "AD", 6: "3D"},
        errors=((3, "pass", "must bid bid:1"), (3, "bid:2", "must bid bid:1"), (4, "AD", "must name trumps")),
        tricks=(1, 0), pitcher=1, bid=1, trumps="D", made=True,
        categories={"high": 1, "low": 0, "jack": -1, "jick": -1, "game": 1, "trey": 1},
        made_points=(1, 5), side_points=(1, 5),
    ),
    script(
        "all pass with dealer_must_bid=False: the deal is thrown in",
        "smear_partnership", 4,
        ("7C 8C", "AD 2C", "3D 4C", "5C 6C"),
        "pass pass pass pass",
        dealer=1, reading="redeal", options=P4,
        legal={3: "pass bid:1 bid:2 bid:3 bid:4 bid:5 bid:6 bid:7 bid:8"},
        cancelled=True, pitcher=None, bid=None, made=None, side_points=(0, 0),
        games=(((5, 7), (5, 7), False, None),),
    ),
    script(
        "the stock to the pitcher, then discards: a trump may go only from more than keep trumps",
        "smear_partnership", 4,
        ("AS 2H 3H", "KS QS JS", "2S 6H 7H", "TS 9S 8D"),
        "bid:1 pass pass pass suit:S | 2H 3H 4H | JS | 6H | 8D | AS KS 2S TS | 5H QS 7H 9S",
        undealt="4H 5H", dealer=3, options=P4,
        seats={5: 0, 6: 0, 7: 0, 8: 1, 9: 2, 10: 3, 11: 0},
        legal={5: "2H 3H 4H 5H", 8: "KS QS JS", 9: "6H 7H", 10: "8D", 11: "AS", 12: "KS QS", 15: "5H",
               16: "QS"},
        errors=((5, "AS", "trump may be discarded only"), (9, "2S", "holds 1"), (10, "TS", "holds 2"),
                (5, "suit:S", "name_suit phase")),
        phases={5: "discard", 10: "discard", 11: "playing"},
        held={0: "AS 5H", 1: "KS QS", 2: "2S 7H", 3: "TS 9S"},
        tricks=(0, 1), pitcher=0, bid=1, trumps="S", made=True,
        categories={"high": 0, "low": 0, **NO_PLAY, "game": 0},
        made_points=(3, 0), side_points=(3, 0),
    ),
    script(
        "nine-card: throw-aways and draws (the stock runs out: a later player stays short), the "
        "extra trumps to the first trick, drop-outs, the lead to the next player holding a trump",
        "smear_nine_card", 4,
        ("AS 4S 5S JS", "KS 3S 2H 3H", "4H 5H 6H 7H", "2S 8H TH JH"),
        "bid:5 pass pass pass suit:S | AS 4S 3S 7S 2S | 5S KS QS | JS",
        undealt="9H QS 7S", dealer=3, options={"keep": 3},
        seats={5: 0, 6: 0, 7: 1, 8: 2, 9: 3, 10: 0, 11: 1, 12: 2, 13: 0},
        legal={5: "AS 4S 5S JS", 6: "4S 5S JS", 7: "KS 3S", 8: "QS 7S", 9: "2S", 11: "KS", 13: "JS"},
        errors=((7, "9H", "only trumps"),),
        held={0: "AS 4S 5S JS", 1: "KS 3S 9H", 2: "QS 7S", 3: "2S"},
        tricks=(0, 1, 0), pitcher=0, bid=5, trumps="S", made=True,
        categories={"high": 0, "low": 1, "jack": 0, "jick": -1, "game": -2, "trey": 0},
        made_points=(5, 1), side_points=(5, 1),
        games=(((16, 30), (21, 31), True, 0), ((10, 20), (15, 21), False, None)),
    ),
    script(
        "nine-card: nobody holds a trump after the draws, the deal ends at once",
        "smear_nine_card", 4,
        ("2H 3H 4H", "5H 6H 7H", "2D 3D 4D", "5D 6D 7D"),
        "bid:2 pass pass pass suit:S",
        undealt="2C 3C", dealer=3, options={"keep": 2},
        held={0: "", 1: "2C 3C", 2: "", 3: ""},
        tricks=(), pitcher=0, bid=2, trumps="S", made=False,
        categories={"high": -1, "low": -1, "jack": -1, "jick": -1, "game": -2, "trey": -1},
        made_points=(0, 0), side_points=(-2, 0),
    ),
    script(
        "widow game: the pitcher takes the widow, the others throw away and draw, a trump is "
        "discarded only by a player with more than keep trumps and never a scoring one, the Two "
        "stays with its holder though captured",
        "smear_widow", 4,
        ("AS KS 4H", "2S 7H 8H", "QS JS 3S", "2H 3H TH"),
        "bid:4 pass pass pass suit:S | QS | 4H 6H | AS 2S 3S 7S | KS 9H JS TS",
        undealt="6H | 9H TS 7S", dealer=3, options={"keep": 2, "widow": 1},
        seats={4: 0, 5: 2, 6: 0, 7: 0, 8: 0},
        legal={0: "pass bid:4 bid:5 bid:6 bid:7 bid:8", 5: "QS", 6: "4H 6H", 9: "2S", 11: "TS 7S",
               12: "KS", 13: "9H"},
        errors=((5, "JS", "scoring trump"), (5, "3S", "scoring trump"), (6, "AS", "more than 2"),
                (6, "KS", "more than 2")),
        held={0: "AS KS", 1: "2S 9H", 2: "JS 3S", 3: "TS 7S"},
        tricks=(0, 0), pitcher=0, bid=4, trumps="S", made=True,
        categories={"high": 0, "two": 1, "jack": 0, "jick": -1, "ten": 0, "trey": 0},
        made_points=(6, 1), side_points=(6, 1),
    ),
    script(
        "widow game moon missed: minus every category's value, the game lost",
        "smear_widow", 4,
        ("AS KS 4H", "2S 7H 8H", "QS JS 3S", "2H 3H TH"),
        "bid:moon pass pass pass suit:S | QS | 4H 6H | AS 2S 3S 7S | KS 9H JS TS",
        undealt="6H | 9H TS 7S", dealer=3, reading="moon", options={"keep": 2, "widow": 1},
        legal={1: "pass"},
        errors=((1, "bid:8", "above the highest bid"),),
        tricks=(0, 0), pitcher=0, bid=9, moon=True, trumps="S", made=False,
        categories={"high": 0, "two": 1, "jack": 0, "jick": -1, "ten": 0, "trey": 0},
        made_points=(6, 1), side_points=(-8, 1),
        games=(((10, 3), (2, 4), True, 1), ((30, 3), (22, 4), True, 1)),
    ),
    script(
        "widow game moon made: the game won at once, a total negative before the deal reset to 0",
        "smear_widow", 4,
        ("AS KS 4H", "7H 8H 9D", "QS JS 2S", "2H 3H TH"),
        "bid:moon pass pass pass suit:S | QS | 4H 6H | AS 9H JS 7S | KS TD 2S 5D",
        undealt="6H | 9H TD 7S 5D", dealer=3, reading="moon", options={"keep": 2, "widow": 1},
        legal={5: "QS", 9: "9H TD", 10: "JS 2S", 11: "7S"},
        held={0: "AS KS", 1: "9H TD", 2: "JS 2S", 3: "7S 5D"},
        tricks=(0, 0), pitcher=0, bid=9, moon=True, trumps="S", made=True,
        categories={"high": 0, "two": 0, "jack": 0, "jick": -1, "ten": -1, "trey": -1},
        made_points=(3, 0), side_points=(3, 0),
        games=(((5, 18), (8, 18), True, 0), ((-10, 5), (0, 5), False, None), ((-2, 5), (0, 5), False, None)),
    ),
    script(
        "moon (points) made: every category in play, scores smear_points + 1 (8 points in play: 9)",
        "smear_partnership", 4,
        ("AS 3S", "4H 5H", "JS 2S", "6H 7H"),
        "bid:moon pass pass pass suit:S | AS 4H 2S 6H | 3S 5H JS 7H",
        dealer=3, reading="moon", options=P4,
        legal={1: "pass", 2: "pass", 3: "pass", 7: "JS 2S"},
        tricks=(0, 2), pitcher=0, bid=9, moon=True, trumps="S", made=True,
        categories={"high": 0, "low": 0, "jack": 0, "jick": -1, "game": 0, "trey": 0},
        made_points=(7, 0), side_points=(9, 0),
    ),
    script(
        "moon (points) missed: the pitching side takes nothing, set back by the moon's value",
        "smear_partnership", 4,
        ("AS 3S", "4H 5H", "JS 2S", "6H 7H"),
        "pass bid:moon pass pass suit:S | 4H 2S 6H 3S | AS 5H JS 7H",
        dealer=3, reading="moon", options=P4,
        legal={5: "4H 5H", 6: "JS 2S", 7: "6H 7H", 8: "AS 3S"},
        tricks=(0, 0), pitcher=1, bid=9, moon=True, trumps="S", made=False,
        categories={"high": 0, "low": 0, "jack": 0, "jick": -1, "game": 0, "trey": 0},
        made_points=(7, 0), side_points=(7, -9),
    ),
    script(
        "moon (points) missed by a game tie: nobody's category misses it",
        "smear_partnership", 4,
        ("TS JH", "2H QH", "3D KH", "4C AH"),
        "bid:moon pass pass pass suit:S | TS 2H 3D 4C | JH QH KH AH",
        dealer=3, reading="moon", options=P4,
        tricks=(0, 3), pitcher=0, bid=9, moon=True, trumps="S", made=False,
        categories={"high": 0, "low": 0, **NO_PLAY, "game": -2},
        made_points=(2, 0), side_points=(-9, 0),
    ),
    script(
        "cut-throat (three sides): a tie at the target without the pitching side goes on",
        "smear_partnership", 3,
        ("AS 2H", "3H 4H", "5H 6H"),
        "bid:1 pass pass suit:S | AS 3H 5H | 2H 4H 6H",
        dealer=2, options=P4,
        tricks=(0, 2), pitcher=0, bid=1, trumps="S", made=True,
        categories={"high": 0, "low": 0, **NO_PLAY, "game": 0},
        made_points=(3, 0, 0), side_points=(3, 0, 0),
        games=(((15, 21, 21), (18, 21, 21), False, None), ((18, 21, 20), (21, 21, 20), True, 0),
               ((10, 22, 21), (13, 22, 21), True, 1)),
    ),
    script(
        "five-point: the first lead names trumps (not the joker), the joker the lowest trump",
        "smear_five_point", 4,
        ("KH 5C", "9H JK1", "JH 7C", "3H 2H"),
        "bid:3 pass pass pass | KH 9H JH 3H | 5C JK1 7C 2H",
        undealt="AH QH", dealer=3, options={"keep": 2},
        phases={4: "playing"},
        legal={0: "pass bid:1 bid:2 bid:3 bid:4 bid:5", 4: "KH 5C", 5: "9H JK1", 6: "JH", 7: "3H 2H",
               9: "JK1"},
        errors=((6, "7C", "must follow suit or trump"),),
        held={0: "KH 5C", 1: "9H JK1", 2: "JH 7C", 3: "3H 2H"},
        tricks=(0, 3), pitcher=0, bid=3, trumps="H", made=True,
        categories={"high": 0, "low": 1, "jack": 0, "joker1": 1, "game": 0},
        made_points=(3, 2), side_points=(3, 2),
    ),
    script(
        "five-point kitty: the pitcher takes it and discards any card; a discarded trump is not in play",
        "smear_five_point", 4,
        ("JK1 4D", "KS 3D", "5D 6D", "7D 8D"),
        "bid:3 pass pass pass | 4D 9C 2S | AS KS 5D 7D | JK1 3D 6D 8D",
        undealt="AS 2S 9C | QS", dealer=3, reading="kitty", options={"widow": 3, "keep": 2},
        seats={4: 0, 5: 0, 6: 0, 7: 0},
        phases={4: "discard", 7: "playing"},
        legal={4: "JK1 4D AS 2S 9C", 7: "AS", 8: "KS"},
        errors=((7, "JK1", "may not be a joker"),),
        held={0: "JK1 AS", 1: "KS 3D", 2: "5D 6D", 3: "7D 8D"},
        tricks=(0, 0), pitcher=0, bid=3, trumps="S", made=True,
        categories={"high": 0, "low": 1, "jack": -1, "joker1": 0, "game": 0},
        made_points=(3, 1), side_points=(3, 1),
    ),
    script(
        "five-point moon made: worth 11 (docs/rules.md, second reading), not smear_points + 1",
        "smear_five_point", 4,
        ("AH JH", "5C 6C", "2H 9C", "7C 8C"),
        "bid:moon pass pass pass | AH 5C 2H 7C | JH 6C 9C 8C",
        undealt="JK1", dealer=3, reading="moon", options={"keep": 2},
        legal={0: "pass bid:1 bid:2 bid:3 bid:4 bid:5 bid:moon", 1: "pass", 6: "2H"},
        tricks=(0, 0), pitcher=0, bid=11, moon=True, trumps="H", made=True,
        categories={"high": 0, "low": 0, "jack": 0, "joker1": -1, "game": 0},
        made_points=(4, 0), side_points=(11, 0),
        games=(((3, 0), (14, 0), False, None),),
    ),
    script(
        "five-point moon missed: the other side takes Game with the 10, set back 11",
        "smear_five_point", 4,
        ("AH 9C", "TC 5C", "JH 2C", "7C 8C"),
        "bid:moon pass pass pass | AH 5C JH 7C | 9C TC 2C 8C",
        undealt="JK1", dealer=3, reading="moon", options={"keep": 2},
        tricks=(0, 1), pitcher=0, bid=11, moon=True, trumps="H", made=False,
        categories={"high": 0, "low": 0, "jack": 0, "joker1": -1, "game": 1},
        made_points=(3, 1), side_points=(-11, 1),
        games=(((0, 0), (-11, 1), False, None),),
    ),
]
# fmt: on
