"""The Hearts family's own options: :class:`HeartsOptions`, the record ``Rules.options`` holds
for ``game="hearts"`` (docs/rules.md lists every option with its docstring), with its checks and
the facts the engine derives from it."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from hearts_env.core.cards import (
    HEARTS,
    NUM_CARDS,
    NUM_RANKS,
    NUM_STANDARD_CARDS,
    SUIT_MASKS,
    card_name,
    mask_of,
    parse_card,
)
from hearts_env.core.prose import code
from hearts_env.core.rules import (
    PASS_DIRECTIONS,
    POINTS_LIMIT,
    QUEEN_OF_SPADES,
    SUIT_LETTERS,
    Options,
    Rules,
    as_int,
    check_choice,
    rules_fact,
)

FIRST_LEADS = ("lowest_club", "any_club", "eldest")
HEARTS_BREAKS = ("heart", "heart_or_queen", "free")
MOONS = ("old", "new", "no_points", "none", "auto_choice", "shooter_choice", "slam")
FIRST_TRICK_ALL_PENALTY = ("play", "redeal", "not_counted", "to_lowest")
MOON_CARDS = ("penalty", "counting")
SCORINGS = ("points", "royal", "royal_deal_floor")
SETTLEMENTS = ("points", "howell", "jackpot", "lowest_wins_chips", "maria")
LEFTOVERS = ("remove", "kitty")
BIDDINGS = ("none", "general", "auction", "slam")
"""Decisions before the first lead: none, Chasse-cœur's Général, Auction Hearts' chip bids (then
the winner names the penalty suit), Partnership C's slam bid."""
TEAM_SCORINGS = ("none", "sum", "individual")
HEART_MASK = SUIT_MASKS[HEARTS]


def standard_points() -> tuple[int, ...]:
    """Standard Hearts' ``card_points``: hearts 1, Q♠ 13."""
    points = [0] * NUM_CARDS
    for c in range(NUM_RANKS * HEARTS, NUM_RANKS * (HEARTS + 1)):
        points[c] = 1
    points[QUEEN_OF_SPADES] = 13
    return tuple(points)


def points_table(values: Mapping[str | int, int], base: tuple[int, ...] | None = None) -> tuple[int, ...]:
    """A full ``card_points`` tuple from a mapping ``{"QS": 13, "TD": -10}`` merged over ``base``.

    ``base`` defaults to all zeros. Keys may also be ``"hearts"`` (every heart gets the value).
    """
    points = list(base) if base is not None else [0] * NUM_CARDS
    for key, value in values.items():
        value = as_int(f"card_points[{key!r}]", value)
        if not -POINTS_LIMIT <= value <= POINTS_LIMIT:
            raise ValueError(f"card_points[{key!r}]={value} is out of range -{POINTS_LIMIT}..{POINTS_LIMIT}")
        if key == "hearts":
            for c in range(NUM_RANKS * HEARTS, NUM_RANKS * (HEARTS + 1)):
                points[c] = value
        else:
            points[parse_card(key)] = value
    return tuple(points)


@dataclass(frozen=True)
class HeartsOptions(Options):
    """Every option of a Hearts-family deal and game besides the common rules (docs/rules.md).
    Card-valued options hold card indices; ``card_points`` holds one int per card index (0..53)."""

    title: ClassVar[str] = "Hearts"
    bools: ClassVar[tuple[str, ...]] = (
        "queen_needs_break", "lead_hearts_if_only_queen", "no_points_first_trick",
        "no_heart_lead_first_trick", "club_play", "exact_target_reset",
    )  # fmt: skip
    ints: ClassVar[Mapping[str, tuple[int, int, bool]]] = {
        "widow": (1, 51, True),
        "pass_count": (0, 52, False),
        "discard_first": (0, 51, True),
        "moon_points": (-10 * POINTS_LIMIT, 10 * POINTS_LIMIT, True),
        "no_tricks_bonus": (-POINTS_LIMIT, POINTS_LIMIT, False),
        "stock_deal": (1, 17, True),
        "general_points": (0, 10 * POINTS_LIMIT, False),
        "max_bid": (1, 52, False),
    }
    tuples: ClassVar[tuple[str, ...]] = ("pass_directions", "card_points")
    choices: ClassVar[Mapping[str, tuple[str, ...]]] = {
        "leftover": LEFTOVERS, "first_lead": FIRST_LEADS, "hearts_break": HEARTS_BREAKS, "moon": MOONS,
        "moon_cards": MOON_CARDS, "scoring": SCORINGS, "settlement": SETTLEMENTS,
        "first_trick_all_penalty": FIRST_TRICK_ALL_PENALTY, "bidding": BIDDINGS,
        "team_scoring": TEAM_SCORINGS,
    }  # fmt: skip
    value_texts: ClassVar[Mapping[str, str]] = {
        "card_points": 'mapping card → points, merged over the preset\'s, e.g. `{"JD": -10}`',
        "pass_directions": "a direction or a list of them: " + ", ".join(code(d) for d in PASS_DIRECTIONS),
        "discard_first": 'a card, e.g. `"JS"`, or `None`',
    }

    leftover: str = "remove"
    """``"remove"``: ``removed`` leaves equal hands; ``"kitty"``: the cards that do not divide
    (or ``widow`` cards) go, face down, to the winner of the first trick (a kitty or widow)."""
    widow: int | None = None
    """With ``leftover="kitty"``: cards set aside for the first trick's winner (None: the cards
    that do not divide among the players)."""
    pass_count: int = 3
    """Cards each player passes."""
    pass_directions: tuple[str, ...] = ("left", "right", "across", "hold")
    """Pass direction of deal k is ``pass_directions[k % len]``."""
    first_lead: str = "lowest_club"
    """Who leads the first trick: ``"lowest_club"`` (the holder of the lowest club in play must
    lead it), ``"any_club"`` (that holder leads, any club), ``"eldest"`` (eldest hand, any card)."""
    hearts_break: str = "heart"
    """``"heart"``, ``"heart_or_queen"`` (Q♠ played also breaks) or ``"free"``."""
    queen_needs_break: bool = False
    """Q♠ may not be led before hearts are broken either."""
    lead_hearts_if_only_queen: bool = False
    """Hearts unbroken and Q♠ the only non-heart: the leader may lead a heart too."""
    no_points_first_trick: bool = True
    """No penalty card (positive points) on the first trick unless nothing else is legal."""
    no_heart_lead_first_trick: bool = False
    """No heart may be led to the first trick unless the leader holds only hearts (Culbertson's
    Greek Hearts), whatever ``hearts_break`` says."""
    first_trick_all_penalty: str = "play"
    """A hand of only penalty cards at the start of play (docs/rules.md; needs
    ``no_points_first_trick``): ``"play"`` (it plays one, scored normally), ``"redeal"`` (the
    deal is cancelled: nobody scores, the same dealer deals again), ``"not_counted"`` (the
    penalty cards of the first trick score nothing), ``"to_lowest"`` (the first trick is set
    aside and goes, at the end of the deal, to the player with the lowest non-zero points)."""
    club_play: bool = False
    """The Q♠ holder must play it at the first opportunity (void in the suit led, or following
    a spade trick already headed by A♠ or K♠)."""
    discard_first: int | None = None
    """A card that a player void in the suit led must discard before any other (Black Jack's
    later rule: J♠)."""
    card_points: tuple[int, ...] = field(default_factory=standard_points)
    """Points per card index (positive = penalty, negative = bonus)."""
    scoring: str = "points"
    """``"points"``: sum of card points; ``"royal"``: Royal Hearts' queens (Q♥ doubles its
    taker's hearts, Q♣ cancels his Q♠, Q♦ lowers his game total by its points, not below 0;
    his deal points are the change applied to his total); ``"royal_deal_floor"``: the same with
    Q♦'s floor on the deal score instead (no deal below 0): the other reading of the sources."""
    moon: str = "old"
    """Taking every penalty card: ``"old"`` (the shooter scores his points less the penalty total,
    every other player adds it), ``"new"`` (the shooter subtracts it twice: minus the total,
    others keep their points), ``"no_points"`` (nobody scores that deal), ``"none"`` (no moon:
    he keeps his points), ``"auto_choice"`` (old moon unless
    adding to the others would end the game without the shooter lowest: then new moon),
    ``"slam"`` (the shooter scores minus the penalty total, everyone else 0 — Omnibus),
    ``"shooter_choice"`` (the shooter decides after the last trick: ``moon:add`` is the old
    moon, ``moon:subtract`` the new one)."""
    moon_cards: str = "penalty"
    """What a moon needs: every ``"penalty"`` card (positive points) or every ``"counting"``
    card (non-zero points, bonus cards too)."""
    moon_points: int | None = None
    """Points each opponent scores on an old moon; ``None`` means the deal's penalty total."""
    no_tricks_bonus: int = 0
    """Points (e.g. -5) to a player who took no trick, except in a moon deal."""
    exact_target_reset: bool = False
    """A total of exactly ``target_score`` is reset to 0."""
    settlement: str = "points"
    """How a deal is paid in chips: ``"points"`` (no chips), ``"howell"``, ``"jackpot"``,
    ``"lowest_wins_chips"`` (1887), or ``"maria"`` (Black Maria, at the end of the game)."""
    stock_deal: int | None = None
    """Domino Hearts: cards dealt to each player, the rest of the deck a stock that a player who
    cannot follow suit draws from (None: the whole deck is dealt). Players whose hand is empty
    drop out; the last one holding cards takes his hand and the stock."""
    bidding: str = "none"
    """Decisions before the first lead (docs/rules.md): ``"none"``; ``"general"`` (Chasse-cœur:
    from eldest hand each player passes or declares Général, the first declaration closes the
    round); ``"auction"`` (Auction Hearts: from eldest to dealer each passes or bids more chips
    than before, up to ``max_bid``; eldest hand may not pass, so every deal has a winner, who
    names the penalty suit and leads); ``"slam"`` (Partnership C: from eldest each passes or bids to take
    every trick, the first bid closes; the 10♦ holder becomes the bidder's silent partner)."""
    general_points: int = 64
    """Chasse-cœur: a successful Général gives each opponent this, a failed one the declarer."""
    max_bid: int = 13
    """Auction Hearts: the highest bid in chips."""
    team_scoring: str = "none"
    """With ``teams``: ``"sum"`` (Partnership A: each partner scores the team's deal points; a
    team taking every penalty card scores 0 and each opponent the penalty total) or
    ``"individual"`` (Partnership B: own points and moons; the lower team total wins the game)."""

    def __post_init__(self) -> None:
        super().__post_init__()
        object.__setattr__(
            self, "card_points", tuple(as_int("card_points values", v) for v in self.card_points)
        )
        for c, v in enumerate(self.card_points):
            if not -POINTS_LIMIT <= v <= POINTS_LIMIT:
                raise ValueError(
                    f"card_points[{card_name(c) if c < NUM_CARDS else c}]={v} is out of range "
                    f"-{POINTS_LIMIT}..{POINTS_LIMIT}"
                )
        for direction in self.pass_directions:
            check_choice("pass direction", direction, PASS_DIRECTIONS)

    @classmethod
    def complete(cls, values: dict[str, Any], given: Mapping[str, Any]) -> None:
        """What ``make_rules`` takes in other forms: ``card_points`` as a mapping (the full table
        of :func:`points_table`), ``discard_first`` as a card name, ``pass_directions`` as one
        direction, a list, or a cycle per player count."""
        card_points = given.get("card_points", {})
        if not isinstance(card_points, Mapping):
            raise TypeError(
                f"card_points must be a mapping of cards to points such as {{'JD': -10}}, got {card_points!r}"
            )
        if isinstance(values.get("card_points"), Mapping):
            values["card_points"] = points_table(values["card_points"])
        if isinstance(values.get("discard_first"), str):
            values["discard_first"] = parse_card(values["discard_first"])
        directions = values.get("pass_directions")
        if isinstance(directions, Mapping):  # a cycle per player count
            directions = directions[values["num_players"]]
        if isinstance(directions, str):
            directions = (directions,)
        elif directions is not None and not isinstance(directions, (list, tuple)):
            raise TypeError(f"pass_directions must be a direction or a list of them, got {directions!r}")
        if directions is not None:
            values["pass_directions"] = tuple(directions)

    @classmethod
    def keeps_leftover(cls, values: Mapping[str, Any]) -> bool:
        """``leftover="kitty"``."""
        return values.get("leftover") == "kitty"

    @classmethod
    def idle(cls, values: Mapping[str, Any]) -> dict[str, str]:
        """A Général's value without ``bidding="general"``, a bid limit without the auction, the
        moon's options where a team taking every penalty card scores by its own rule, the moon's
        payment where no old moon is scored."""
        idle: dict[str, str] = {}
        if values["bidding"] != "general":
            idle["general_points"] = "the Général's value needs bidding='general'"
        if values["bidding"] != "auction":
            idle["max_bid"] = "the highest chip bid needs bidding='auction'"
        if values["team_scoring"] == "sum":
            why = "team_scoring='sum' scores a team taking every penalty card by its own rule"
            idle.update(dict.fromkeys(("moon", "moon_points"), why))
        elif values["moon"] in ("none", "new", "no_points", "slam"):
            idle["moon_points"] = (
                f"what the others score on an old moon, and moon={values['moon']!r} has none"
            )
        return idle

    def check(self, rules: Rules) -> None:
        """The options against each other and against the common rules."""
        super().check(rules)
        for name, allowed in self.choices.items():
            check_choice(name, getattr(self, name), allowed)
        self._check_teams(rules)
        self._check_two_decks(rules)
        if self.first_trick_all_penalty != "play" and not self.no_points_first_trick:
            raise ValueError(
                f"first_trick_all_penalty={self.first_trick_all_penalty!r} is a rule for the "
                "no_points_first_trick restriction: set no_points_first_trick=True or leave it 'play'"
            )
        if not self.pass_directions:
            raise ValueError("pass_directions must name at least one direction, e.g. ('hold',)")
        n = rules.num_players
        if "across" in self.pass_directions and n % 2:
            raise ValueError(
                f"cannot pass 'across' with {n} players: there is no seat opposite; use left, right or hold"
            )
        if len(self.card_points) != NUM_CARDS:
            raise ValueError(f"card_points needs {NUM_CARDS} entries, got {len(self.card_points)}")
        if any(not 0 <= c < NUM_STANDARD_CARDS for c in rules.removed):
            raise ValueError("only standard cards (0..51) can be removed")
        deck = len(rules.deck)
        if self.stock_deal is not None:
            if self.stock_deal * n > deck:
                raise ValueError(f"stock_deal={self.stock_deal}: {n} hands need more than {deck} cards")
            clashes = {"leftover": self.leftover != "remove", "pass_count": self.pass_count != 0,
                       "bidding": self.bidding != "none", "teams": bool(rules.teams)}  # fmt: skip
            if any(clashes.values()):
                given = ", ".join(f"{name}={getattr(rules, name)!r}" for name, on in clashes.items() if on)
                raise ValueError(
                    f"stock_deal={self.stock_deal} (Domino Hearts) goes with no kitty, no pass, no bidding, "
                    f"no teams: got {given}"
                )
        elif self.leftover == "remove" and deck % n:
            raise ValueError(
                f"{deck} cards do not divide among {n} players: remove {deck % n} more cards or use "
                "leftover='kitty'"
            )
        if self.widow is not None:
            if self.leftover != "kitty":
                raise ValueError(f"widow={self.widow} needs leftover='kitty'")
            if (deck - self.widow) % n:
                raise ValueError(f"{deck} cards less a widow of {self.widow} do not divide among {n} players")
        hand = rules.hand_size
        if not 0 <= self.pass_count <= hand:
            raise ValueError(f"pass_count={self.pass_count} must be in 0..{hand} (the hand size)")
        if self.pass_count == 0 and any(d != "hold" for d in self.pass_directions):
            raise ValueError("pass_count=0 needs pass_directions=('hold',)")
        if self.first_lead != "eldest" and not rules.deck_mask & SUIT_MASKS[0]:
            raise ValueError(f"first_lead={self.first_lead!r} needs clubs in the deck")
        if self.settlement == "howell" and self.scoring != "points":
            raise ValueError("howell settlement needs scoring='points'")

    def _check_teams(self, rules: Rules) -> None:
        """Team scoring goes with fixed teams; the bids that decide the penalty suit, the first
        lead or a partnership leave no room for other rules of these."""
        if bool(rules.teams) != (self.team_scoring != "none"):
            raise ValueError(
                f"teams={rules.teams!r} with team_scoring={self.team_scoring!r}: fixed teams need "
                "team_scoring 'sum' or 'individual', and team scoring needs teams"
            )
        if self.bidding == "auction":
            suits = {c // NUM_RANKS for c in range(NUM_STANDARD_CARDS) if self.card_points[c]}
            if suits != {HEARTS} or any(self.card_points[c] not in (0, 1) for c in range(NUM_CARDS)):
                raise ValueError(
                    "bidding='auction' names the penalty suit: card_points must be hearts 1 each"
                )
            if self.first_lead != "eldest":
                raise ValueError(
                    f"bidding='auction' decides the first lead (the auction's winner): "
                    f"first_lead must be 'eldest', got {self.first_lead!r}"
                )
        if self.bidding == "slam" and rules.teams:
            raise ValueError("bidding='slam' makes its own partnership: it cannot have fixed teams")

    def _check_two_decks(self, rules: Rules) -> None:
        """Two decks go with the plain card game: the mechanisms below keep one copy per card."""
        if rules.decks == 1:
            return
        unsupported = {
            "jokers": rules.jokers != 0,
            "stock_deal": self.stock_deal is not None,
            "bidding": self.bidding != "none",
            "teams": bool(rules.teams),
            "Royal scoring": self.scoring != "points",
            "first_trick_all_penalty": self.first_trick_all_penalty != "play",
        }
        used = [name for name, on in unsupported.items() if on]
        if used:
            raise ValueError(f"decks=2 (every card twice) does not go with {', '.join(used)}")

    def describe_value(self, name: str, value: Any) -> Any:
        """Card names for ``card_points`` (the non-zero ones) and ``discard_first``."""
        if name == "card_points":
            return {card_name(c): p for c, p in enumerate(value) if p}
        if name == "discard_first" and value is not None:
            return card_name(value)
        return value

    def hand_size(self, rules: Rules) -> int:
        """Cards dealt to each player (= tricks per deal): ``stock_deal``, or the deck less the
        widow, evenly."""
        if self.stock_deal is not None:
            return self.stock_deal
        if self.leftover == "kitty" and self.widow is not None:
            return (len(rules.deck) - self.widow) // rules.num_players
        return len(rules.deck) // rules.num_players

    def kitty_size(self, rules: Rules) -> int:
        """The cards that do not divide (or the widow), with ``leftover="kitty"``."""
        if self.stock_deal is not None:
            return 0
        return len(rules.deck) - rules.hand_size * rules.num_players

    def stock_size(self, rules: Rules) -> int:
        """Domino Hearts' stock: the cards not dealt."""
        return 0 if self.stock_deal is None else len(rules.deck) - self.stock_deal * rules.num_players

    def deals_stock(self, rules: Rules) -> bool:
        """Domino Hearts deals a stock."""
        return self.stock_deal is not None

    def deals_kitty(self, rules: Rules) -> bool:
        """``leftover="kitty"`` sets a kitty (or widow) aside."""
        return self.leftover == "kitty"

    def decisions(self, rules: Rules) -> tuple[str, ...]:
        """Bids and declarations, the named suit, the shooter's choice."""
        names: list[str] = []
        if self.bidding != "none":
            names.append("pass")
        if self.bidding == "general":
            names.append("general")
        if self.bidding == "auction":
            names += [f"bid:{n}" for n in range(1, self.max_bid + 1)]
        if self.bidding == "slam":
            names.append("slam")
        if self.bidding == "auction":
            names += [f"suit:{letter}" for letter in SUIT_LETTERS]
        if self.moon == "shooter_choice":
            names += ["moon:add", "moon:subtract"]
        return tuple(names)

    def phases(self, rules: Rules) -> tuple[str, ...]:
        """``passing`` and ``playing`` always, then ``declare`` (Général, slam bids), ``bid`` and
        ``name_suit`` (Auction Hearts), ``moon_choice`` (the shooter's choice)."""
        phases = ["passing", "playing"]
        if self.bidding in ("general", "slam"):
            phases.append("declare")
        if self.bidding == "auction":
            phases += ["bid", "name_suit"]
        if self.moon == "shooter_choice":
            phases.append("moon_choice")
        return tuple(phases)

    def pass_direction(self, rules: Rules, deal_index: int) -> str:
        """``pass_directions[deal_index % len]``."""
        return self.pass_directions[deal_index % len(self.pass_directions)]

    def passes(self, rules: Rules) -> bool:
        """Cards are passed when ``pass_count`` is not 0."""
        return self.pass_count != 0

    def pays_chips(self, rules: Rules) -> bool:
        """A ``settlement`` other than ``"points"`` pays chips."""
        return self.settlement != "points"

    def has_moon(self, rules: Rules) -> bool:
        """Every ``moon`` but ``"none"``."""
        return self.moon != "none"

    def bid_partnership(self, rules: Rules) -> bool:
        """Partnership C's slam bid makes the bidder and the 10♦ holder partners."""
        return self.bidding == "slam"

    def duplicate_problem(self, rules: Rules) -> str | None:
        """A redeal on a first-trick hand of penalty cards depends on the pass, which differs
        between seatings."""
        if self.first_trick_all_penalty == "redeal":
            return (
                "first_trick_all_penalty='redeal' cannot be played as duplicate deals (a deal "
                "cancelled in one seating is played in another); use 'play', 'not_counted' or 'to_lowest'"
            )
        return None

    @rules_fact
    def penalty_mask(self, rules: Rules) -> int:
        """Cards with positive points that are in play: these may not go on the first trick."""
        return mask_of(c for c in rules.deck.cards if self.card_points[c] > 0)

    @rules_fact
    def counting_mask(self, rules: Rules) -> int:
        """Cards with non-zero points that are in play."""
        return mask_of(c for c in rules.deck.cards if self.card_points[c] != 0)

    @rules_fact
    def moon_mask(self, rules: Rules) -> int:
        """Cards a player must take to shoot the moon."""
        return rules.counting_mask if self.moon_cards == "counting" else rules.penalty_mask

    @rules_fact
    def penalty_total(self, rules: Rules) -> int:
        """Sum of positive card points in play (26 in standard Hearts, 43 in Black Maria)."""
        total = sum(max(self.card_points[c], 0) for c in rules.deck.cards)
        if self.scoring != "points":
            # Q♥ doubles the hearts of its taker: all hearts in one hand count twice.
            total += sum(self.card_points[c] for c in rules.deck.cards if c // NUM_RANKS == HEARTS)
        return total
