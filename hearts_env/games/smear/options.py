"""Smear's own options: :class:`SmearOptions`, the record ``Rules.options`` holds for
``game="smear"`` (docs/smear.md gives the precise reading of every rule; docs/rules.md lists every
option with its docstring), with its checks and the facts the engine derives from it."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from hearts_env.core.cards import NUM_STANDARD_CARDS, card_name
from hearts_env.core.prose import code
from hearts_env.core.rules import SUIT_LETTERS, Options, Rules, check_choice

SMEAR_DEALS = ("stock", "nine_card", "widow", "blind")
"""How a Smear deal goes from the bids to the first lead (docs/smear.md): ``"stock"`` (the
pitcher takes the whole stock, everybody discards to ``keep``), ``"nine_card"`` (everybody
throws away his non-trumps and draws to ``keep``), ``"widow"`` (the pitcher takes the widow
before naming trumps; the others throw away non-trumps and draw; the pitcher takes the rest of
the stock and discards), ``"blind"`` (the undealt cards are dead; a ``widow`` of them is a kitty
the pitcher may exchange with)."""
SMEAR_CATEGORIES = {"high": 1, "low": 1, "two": 1, "jack": 1, "jick": 1, "joker1": 1, "joker2": 1,
                    "game": 1, "ten": 1, "trey": 3}  # fmt: skip
"""Every Smear point category and what it is worth."""
MOON_BIDS = ("none", "points", "game")
FIVE_POINT_MOON = 11
"""Five-point Smear's moon (High, Low, Jack, Jick or Joker, Game): +11 made, -11 missed."""
TRUMP_CHOICES = ("named", "first_lead")
JOKER_RANKS = ("high", "lowest")
JOKER_POINTS = ("trick", "holder")
TEAM_SCORINGS = ("none", "sum", "individual")
"""The values ``team_scoring`` takes in either family; Smear scores by sides: ``"sum"``."""


@dataclass(frozen=True)
class SmearOptions(Options):
    """Every option of a Smear deal and game besides the common rules (docs/smear.md)."""

    title: ClassVar[str] = "Smear"
    bools: ClassVar[tuple[str, ...]] = (
        "dealer_must_bid", "pitcher_leads_trump", "jick", "distinguishable_jokers", "pitcher_only_wins",
    )  # fmt: skip
    ints: ClassVar[Mapping[str, tuple[int, int, bool]]] = {
        "widow": (1, 51, True),
        "max_bid": (1, 52, False),
        "min_bid": (1, 52, False),
        "deal_size": (1, 51, True),
        "keep": (1, 51, False),
    }
    tuples: ClassVar[tuple[str, ...]] = ("categories",)
    choices: ClassVar[Mapping[str, tuple[str, ...]]] = {
        "smear_deal": SMEAR_DEALS, "moon_bid": MOON_BIDS, "trumps": TRUMP_CHOICES, "joker_rank": JOKER_RANKS,
        "joker_points": JOKER_POINTS, "team_scoring": TEAM_SCORINGS,
    }  # fmt: skip
    value_texts: ClassVar[Mapping[str, str]] = {
        "categories": "Smear categories: " + ", ".join(code(c) for c in SMEAR_CATEGORIES),
    }

    # The order of the fields is that of the one record of both families before it was split:
    # the universal observation's ``rules`` entries follow it.
    widow: int | None = None
    """Cards set aside as the widow (``smear_deal`` ``"widow"``: the pitcher's; ``"blind"``: a
    kitty the pitcher may exchange with); None: none."""
    max_bid: int = 13
    """The largest bid (``make_rules``: what the categories are worth, at most)."""
    team_scoring: str = "none"
    """``"sum"`` with ``teams`` (Smear scores by sides), ``"none"`` without."""
    deal_size: int | None = None
    """Cards dealt to each player (None: the whole deck less ``removed``, evenly)."""
    keep: int = 6
    """The hand size after the discards and draws."""
    smear_deal: str = "stock"
    """From the bids to the first lead, one of ``SMEAR_DEALS`` (docs/smear.md)."""
    min_bid: int = 1
    """The smallest bid (``max_bid`` the largest)."""
    moon_bid: str = "none"
    """``"none"``; ``"points"`` (``bid:moon``, worth ``moon_value``: 11 with five-point scoring,
    else one more than every category together; scored when the pitching side takes every point
    in play and set back as much when not); ``"game"`` (the widow game's moon: taking every
    point wins the game at once, a negative total only goes back to 0; missing loses the game)."""
    dealer_must_bid: bool = True
    """When every other player has passed the dealer must bid ``min_bid``; False: a deal that
    everybody passes is thrown in and the same dealer deals again."""
    trumps: str = "named"
    """``"named"`` (the pitcher names the suit, ``suit:X``) or ``"first_lead"`` (the suit of the
    pitcher's first lead; five-point Smear)."""
    pitcher_leads_trump: bool = True
    """The pitcher must lead a trump to the first trick if he holds one."""
    jick: bool = True
    """The jack of the trump colour's other suit is a trump (left bower), below the jack."""
    joker_rank: str = "high"
    """Jokers rank just below the jick (``"high"``) or as the lowest trump (``"lowest"``)."""
    distinguishable_jokers: bool = False
    """JK2 always ranks above JK1 (False: of two jokers in one trick the later-played ranks higher)."""
    joker_points: str = "trick"
    """A joker's point goes to the side winning it in a trick, or to its ``"holder"``."""
    categories: tuple[str, ...] = ()
    """The point categories scored, in the order of infos (names in ``SMEAR_CATEGORIES``)."""
    pitcher_only_wins: bool = False
    """Only the pitching side can win the game (the nine-card game)."""

    @classmethod
    def complete(cls, values: dict[str, Any], given: Mapping[str, Any]) -> None:
        """The categories in play (a preset's less those whose card the options take away: no
        jick, fewer jokers) and the top bid (what the categories are worth)."""
        if "categories" not in given:
            jokers, jick = values.get("jokers", 0), values.get("jick", True)
            drop = {"jick"} if jick is False else set()
            if isinstance(jokers, int):
                drop |= {"joker1", "joker2"} if jokers < 1 else {"joker2"} if jokers < 2 else set()
            values["categories"] = tuple(c for c in values.get("categories", ()) if c not in drop)
        if "max_bid" not in given:  # bids up to what the categories are worth
            worth = sum(SMEAR_CATEGORIES.get(c, 0) for c in values["categories"])
            values["max_bid"] = max(1, min(values.get("max_bid", worth), worth))

    @classmethod
    def deals_whole_deck(cls, values: Mapping[str, Any]) -> bool:
        """Unless ``deal_size`` says how many cards each player gets."""
        return values.get("deal_size") is None

    @classmethod
    def idle(cls, values: Mapping[str, Any]) -> dict[str, str]:
        """Joker options without the jokers, the jokers' order with fewer than two, the
        pitcher's trump lead where only trumps are played."""
        idle: dict[str, str] = {}
        jokers = values["jokers"]
        if jokers == 0:
            idle.update(
                dict.fromkeys(("joker_rank", "joker_points"), "joker options without jokers (jokers=0)")
            )
        if jokers in (0, 1):
            idle["distinguishable_jokers"] = f"it tells two jokers apart, and jokers={jokers}"
        if values["smear_deal"] == "nine_card" and values["trumps"] == "named":
            idle["pitcher_leads_trump"] = "smear_deal='nine_card' plays only trumps"
        return idle

    def check(self, rules: Rules) -> None:
        """The options against each other and against the common rules (docs/smear.md)."""
        super().check(rules)
        for name, allowed in self.choices.items():
            check_choice(name, getattr(self, name), allowed)
        n = rules.num_players
        if n > 8:
            raise ValueError(f"Smear is for 3-8 players, got num_players={n}")
        if rules.decks != 1:
            raise ValueError(f"decks={rules.decks}: Smear is played with one deck")
        if bool(rules.teams) != (self.team_scoring != "none"):
            raise ValueError(
                f"teams={rules.teams!r} with team_scoring={self.team_scoring!r}: fixed teams need "
                "team_scoring 'sum' or 'individual', and team scoring needs teams"
            )
        if rules.teams and self.team_scoring != "sum":
            raise ValueError(
                f"team_scoring={self.team_scoring!r}: Smear scores by sides; use team_scoring='sum' "
                "with teams"
            )
        jokers_removed = [card_name(c) for c in rules.removed if not 0 <= c < NUM_STANDARD_CARDS]
        if jokers_removed:
            raise ValueError(
                f"removed={jokers_removed}: only standard cards can be removed; for fewer jokers set "
                f"jokers (now {rules.jokers})"
            )
        for name in self.categories:
            check_choice("a Smear category", name, tuple(SMEAR_CATEGORIES))
        if len(set(self.categories)) != len(self.categories):
            raise ValueError(f"categories repeat: {self.categories}")
        if not self.categories:
            raise ValueError("a Smear game needs at least one point category")
        missing = [c for c, need in (("jick", self.jick), ("joker1", rules.jokers >= 1),
                                     ("joker2", rules.jokers >= 2)) if c in self.categories and not need]  # fmt: skip  # noqa: E501
        if missing:
            raise ValueError(
                f"categories {missing} need their card: jick=True for 'jick', jokers>=1 / 2 for "
                "'joker1' / 'joker2'"
            )
        if self.joker_rank == "lowest" and rules.jokers > 1:
            raise ValueError(
                f"joker_rank='lowest' is for one joker (five-point Smear), got jokers={rules.jokers}"
            )
        deck, hand = len(rules.deck), rules.hand_size
        widow = self.widow or 0
        if self.deal_size is None and deck % n:
            raise ValueError(f"{deck} cards do not divide among {n} players: remove {deck % n} more cards")
        if hand * n + widow > deck:
            raise ValueError(f"{n} hands of {hand} and a widow of {widow} need more than {deck} cards")
        if self.keep > hand:
            raise ValueError(f"keep={self.keep} is more than the {hand} cards dealt")
        if self.smear_deal == "widow" and not self.widow:
            raise ValueError("smear_deal='widow' needs a widow (e.g. widow=4)")
        if self.widow and self.smear_deal not in ("widow", "blind"):
            raise ValueError(f"widow={self.widow}: only smear_deal 'widow' or 'blind' has a widow")
        if self.smear_deal == "blind" and self.keep != hand:
            raise ValueError(f"smear_deal='blind' plays the hands as dealt: keep must be {hand}")
        if self.smear_deal == "nine_card" and self.widow:
            raise ValueError("smear_deal='nine_card' has no widow")
        if not self.min_bid <= self.max_bid <= self.smear_points:
            raise ValueError(
                f"bids must satisfy 1 <= min_bid ({self.min_bid}) <= max_bid ({self.max_bid}) <= "
                f"the {self.smear_points} points the categories are worth"
            )
        if self.trumps == "first_lead" and self.smear_deal != "blind":
            raise ValueError(
                f"trumps='first_lead' with smear_deal={self.smear_deal!r}: the {self.smear_deal} deal "
                "throws away or discards by trumps before the first lead names them; first-lead trumps "
                "need smear_deal='blind'"
            )
        if self.trumps == "first_lead" and self.pitcher_leads_trump:
            raise ValueError(
                "trumps='first_lead' (the first lead names trumps) with pitcher_leads_trump=True"
            )

    @property
    def smear_points(self) -> int:
        """What every category together is worth (10 in the ten-point game)."""
        return sum(SMEAR_CATEGORIES[c] for c in self.categories)

    @property
    def moon_value(self) -> int:
        """What ``bid:moon`` is worth, made or missed (``moon_bid="points"``): 11 with
        five-point scoring (categories worth 5: smear.txt, "the moon, worth 11 points, consists
        of taking all 5 points"), else one more than every category together (11 in the
        ten-point game)."""
        return FIVE_POINT_MOON if self.smear_points == 5 else self.smear_points + 1

    @property
    def smear_discards(self) -> bool:
        """Whether a deal can ask for discards (card actions in the ``discard`` phase)."""
        if self.smear_deal == "blind":
            return bool(self.widow)
        return self.smear_deal != "nine_card"

    def hand_size(self, rules: Rules) -> int:
        """``deal_size``, or the whole deck less ``removed``, evenly."""
        return self.deal_size if self.deal_size is not None else len(rules.deck) // rules.num_players

    def stock_size(self, rules: Rules) -> int:
        """Every undealt card: the widow first, then the stock in draw order."""
        return len(rules.deck) - rules.hand_size * rules.num_players

    def deals_stock(self, rules: Rules) -> bool:
        """The undealt cards are a stock in draw order."""
        return True

    def deals_kitty(self, rules: Rules) -> bool:
        """The widow."""
        return bool(self.widow)

    def decisions(self, rules: Rules) -> tuple[str, ...]:
        """Pass, the bids, the moon bid, the named suits."""
        names = ["pass", *(f"bid:{n}" for n in range(self.min_bid, self.max_bid + 1))]
        if self.moon_bid != "none":
            names.append("bid:moon")
        if self.trumps == "named":
            names += [f"suit:{letter}" for letter in SUIT_LETTERS]
        return tuple(names)

    def phases(self, rules: Rules) -> tuple[str, ...]:
        """``bid``, ``name_suit`` (named trumps), ``discard`` (where a deal asks for discards),
        ``playing``."""
        phases = ["bid"] + (["name_suit"] if self.trumps == "named" else [])
        if self.smear_discards:
            phases.append("discard")
        return (*phases, "playing")
