"""The rules model: one frozen dataclass of options, validated on construction.

Every variant is a :mod:`preset <hearts_env.presets>` — a named set of values for these fields —
never a subclass. ``make_rules("black_maria", num_players=4, moon="new")`` merges options over
a preset and returns a validated :class:`Rules`. The field names and values are public: the options
table of ``docs/rules.md`` lists them with these fields' docstrings.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from functools import cached_property
from typing import Any

import numpy as np

from hearts_env.core.cards import (
    HEARTS,
    NUM_CARDS,
    NUM_RANKS,
    NUM_STANDARD_CARDS,
    SUIT_MASKS,
    Deck,
    card_name,
    mask_of,
    parse_card,
)

PASS_DIRECTIONS = ("left", "right", "across", "hold")
FIRST_LEADS = ("lowest_club", "any_club", "eldest")
HEARTS_BREAKS = ("heart", "heart_or_queen", "free")
MOONS = ("old", "new", "no_points", "none", "auto_choice", "shooter_choice", "slam")
FIRST_TRICK_ALL_PENALTY = ("play", "redeal", "not_counted", "to_lowest")
MOON_CARDS = ("penalty", "counting")
SCORINGS = ("points", "royal", "royal_deal_floor")
SETTLEMENTS = ("points", "howell", "jackpot", "lowest_wins_chips", "maria")
EPISODES = ("deal", "game")
ILLEGAL_ACTIONS = ("raise", "terminate")
LEFTOVERS = ("remove", "kitty")
BIDDINGS = ("none", "general", "auction", "slam")
"""Decisions before the first lead: none, Chasse-cœur's Général, Auction Hearts' chip bids (then
the winner names the penalty suit), Partnership C's slam bid."""
TEAM_SCORINGS = ("none", "sum", "individual")
GAMES: list[str] = ["hearts", "smear"]
"""The game families (``Rules.game``) that rules may name: the package's own, then those that
:func:`hearts_env.games.register` adds (it extends this list in place, so that every module
holding it sees a family registered later)."""
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
SUIT_LETTERS = "CDHS"

QUEEN_OF_SPADES = parse_card("QS")
HEART_MASK = SUIT_MASKS[HEARTS]


def _choice(name: str, value: object, allowed: tuple[str, ...]) -> None:
    if not isinstance(value, str):
        raise TypeError(f"{name}={value!r} must be a string: one of {', '.join(allowed)}")
    if value not in allowed:
        raise ValueError(f"{name}={value!r} is not known: choose one of {', '.join(allowed)}")


_HEARTS_CHOICES = (
    ("leftover", LEFTOVERS), ("first_lead", FIRST_LEADS), ("hearts_break", HEARTS_BREAKS),
    ("moon", MOONS), ("moon_cards", MOON_CARDS), ("scoring", SCORINGS), ("settlement", SETTLEMENTS),
    ("episode", EPISODES), ("illegal_action", ILLEGAL_ACTIONS),
    ("first_trick_all_penalty", FIRST_TRICK_ALL_PENALTY), ("bidding", BIDDINGS),
    ("team_scoring", TEAM_SCORINGS),
)  # fmt: skip
"""The Hearts family's string options and their values, checked in this order."""

POINTS_LIMIT = 1000
"""The largest card value (either sign) a rules set may give; beyond it values are surely a typo."""

_BOOLS = (
    "queen_needs_break", "lead_hearts_if_only_queen", "no_points_first_trick", "no_heart_lead_first_trick",
    "club_play", "exact_target_reset", "dealer_must_bid", "pitcher_leads_trump", "jick",
    "distinguishable_jokers", "pitcher_only_wins",
)  # fmt: skip
_INTS: dict[str, tuple[int, int, bool]] = {
    # name: (smallest, largest, None allowed)
    "num_players": (3, 11, False),
    "decks": (1, 2, False),
    "jokers": (0, 2, False),
    "widow": (1, 51, True),
    "general_points": (0, 10 * POINTS_LIMIT, False),
    "max_bid": (1, 52, False),
    "min_bid": (1, 52, False),
    "deal_size": (1, 51, True),
    "keep": (1, 51, False),
    "stock_deal": (1, 17, True),
    "pass_count": (0, 52, False),
    "discard_first": (0, 51, True),
    "moon_points": (-10 * POINTS_LIMIT, 10 * POINTS_LIMIT, True),
    "no_tricks_bonus": (-POINTS_LIMIT, POINTS_LIMIT, False),
    "target_score": (1, 1_000_000, False),
    "max_deals": (1, 1_000_000, True),
}


def as_int(name: str, value: object, allow_none: bool = False) -> int | None:
    """``value`` as a plain int (numpy integers welcome); ``TypeError`` for bools, floats
    (even 3.0), strings and everything else."""
    if value is None and allow_none:
        return None
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        kind = "an int or None" if allow_none else "an int"
        raise TypeError(f"{name} must be {kind}, got {type(value).__name__} {value!r}")
    return int(value)


def as_bool(name: str, value: object) -> bool:
    """``value`` as a plain bool (``numpy.bool_`` welcome); ``TypeError`` for anything else, so
    that ``"no"`` or ``0`` cannot silently turn a rule on or off."""
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be True or False, got {type(value).__name__} {value!r}")
    return bool(value)


@dataclass(frozen=True)
class Rules:
    """Every option of a Hearts-family deal and game (docs/rules.md).

    Build one with :func:`hearts_env.presets.make_rules`; constructing it directly is fine too
    and runs the same validation. Card-valued fields hold card indices; ``card_points`` holds one
    int per card index (0..53).
    """

    preset: str = "hearts"
    """Name of the preset these rules came from (informational)."""
    num_players: int = 4
    """Players at the table, seats 0..n-1 clockwise."""
    decks: int = 1
    """Decks shuffled together: 1, or 2 (Cancellation Hearts: every card twice; two identical
    cards in one trick cancel each other, see :meth:`hearts_env.games.hearts.Engine.cancellation_winner`)."""
    removed: tuple[int, ...] = ()
    """Cards taken out of the deck (so that hands are equal, or before a widow is set aside;
    with two decks both copies)."""
    jokers: int = 0
    """Jokers added to the deck (``joker_hearts``): playable at any time, never win, score nothing."""
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
    card_points: tuple[int, ...] = field(default_factory=lambda: _standard_points())
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
    target_score: int = 100
    """The game ends after a deal in which someone reached this total."""
    max_deals: int | None = None
    """The game ends after this many deals (if it has not ended by target first)."""
    settlement: str = "points"
    """How a deal is paid in chips: ``"points"`` (no chips), ``"howell"``, ``"jackpot"``,
    ``"lowest_wins_chips"`` (1887), or ``"maria"`` (Black Maria, at the end of the game)."""
    episode: str = "deal"
    """What one environment episode is: a ``"deal"`` or a whole ``"game"``."""
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
    teams: tuple[tuple[int, ...], ...] = ()
    """Fixed partnerships (seat tuples), e.g. ``((0, 2), (1, 3))``; empty: none."""
    team_scoring: str = "none"
    """With ``teams``: ``"sum"`` (Partnership A: each partner scores the team's deal points; a
    team taking every penalty card scores 0 and each opponent the penalty total) or
    ``"individual"`` (Partnership B: own points and moons; the lower team total wins the game)."""
    illegal_action: str = "raise"
    """``"raise"`` a ValueError, or ``"terminate"``: the offender is charged the deal's
    maximum penalty and the episode ends."""
    # ------------------------------------------------------------------ Smear (docs/smear.md)
    game: str = "hearts"
    """``"hearts"`` (the Hearts family: every field above) or ``"smear"`` (the All Fours family:
    the fields below, with ``jokers``, ``removed``, ``widow``, ``max_bid``, ``teams``,
    ``target_score``, ``max_deals``, ``episode`` and ``illegal_action``)."""
    deal_size: int | None = None
    """Smear: cards dealt to each player (None: the whole deck less ``removed``, evenly)."""
    keep: int = 6
    """Smear: the hand size after the discards and draws."""
    smear_deal: str = "stock"
    """Smear: from the bids to the first lead, one of ``SMEAR_DEALS`` (docs/smear.md)."""
    min_bid: int = 1
    """Smear: the smallest bid (``max_bid`` the largest)."""
    moon_bid: str = "none"
    """Smear: ``"none"``; ``"points"`` (``bid:moon``, worth :attr:`moon_value`: 11 with
    five-point scoring, else one more than every category together; scored when the pitching
    side takes every point in play and set back as much when not);
    ``"game"`` (the widow game's moon: taking every point wins the game at once, a negative
    total only goes back to 0; missing loses the game)."""
    dealer_must_bid: bool = True
    """Smear: when every other player has passed the dealer must bid ``min_bid``; False: a deal
    that everybody passes is thrown in and the same dealer deals again."""
    trumps: str = "named"
    """Smear: ``"named"`` (the pitcher names the suit, ``suit:X``) or ``"first_lead"`` (the
    suit of the pitcher's first lead; five-point Smear)."""
    pitcher_leads_trump: bool = True
    """Smear: the pitcher must lead a trump to the first trick if he holds one."""
    jick: bool = True
    """Smear: the jack of the trump colour's other suit is a trump (left bower), below the jack."""
    joker_rank: str = "high"
    """Smear: jokers rank just below the jick (``"high"``) or as the lowest trump (``"lowest"``)."""
    distinguishable_jokers: bool = False
    """Smear: JK2 always ranks above JK1 (False: of two jokers in one trick the later-played
    ranks higher)."""
    joker_points: str = "trick"
    """Smear: a joker's point goes to the side winning it in a trick, or to its ``"holder"``."""
    categories: tuple[str, ...] = ()
    """Smear: the point categories scored, in the order of infos (names in ``SMEAR_CATEGORIES``)."""
    pitcher_only_wins: bool = False
    """Smear: only the pitching side can win the game (the nine-card game)."""

    def __post_init__(self) -> None:
        self._check_types()
        _choice("game", self.game, tuple(GAMES))
        self._check_idle_fields()
        if self.game == "smear":
            self._check_smear()
            return
        for name, allowed in _HEARTS_CHOICES:
            _choice(name, getattr(self, name), allowed)
        self._check_teams()
        self._check_two_decks()
        if self.first_trick_all_penalty != "play" and not self.no_points_first_trick:
            raise ValueError(
                f"first_trick_all_penalty={self.first_trick_all_penalty!r} is a rule for the "
                "no_points_first_trick restriction: set no_points_first_trick=True or leave it 'play'"
            )
        if not self.pass_directions:
            raise ValueError("pass_directions must name at least one direction, e.g. ('hold',)")
        for direction in self.pass_directions:
            _choice("pass direction", direction, PASS_DIRECTIONS)
            if direction == "across" and self.num_players % 2:
                raise ValueError(
                    f"cannot pass 'across' with {self.num_players} players: there is no seat "
                    "opposite; use left, right or hold"
                )
        if len(self.card_points) != NUM_CARDS:
            raise ValueError(f"card_points needs {NUM_CARDS} entries, got {len(self.card_points)}")
        if len(set(self.removed)) != len(self.removed):
            raise ValueError(f"removed cards repeat: {[card_name(c) for c in self.removed]}")
        if any(not 0 <= c < NUM_STANDARD_CARDS for c in self.removed):
            raise ValueError("only standard cards (0..51) can be removed")
        deck = len(self.deck)
        if self.stock_deal is not None:
            if self.stock_deal * self.num_players > deck:
                raise ValueError(
                    f"stock_deal={self.stock_deal}: {self.num_players} hands need more than {deck} cards"
                )
            clashes = {"leftover": self.leftover != "remove", "pass_count": self.pass_count != 0,
                       "bidding": self.bidding != "none", "teams": bool(self.teams)}  # fmt: skip
            if any(clashes.values()):
                given = ", ".join(f"{name}={getattr(self, name)!r}" for name, on in clashes.items() if on)
                raise ValueError(
                    f"stock_deal={self.stock_deal} (Domino Hearts) goes with no kitty, no pass, no bidding, "
                    f"no teams: got {given}"
                )
        elif self.leftover == "remove" and deck % self.num_players:
            raise ValueError(
                f"{deck} cards do not divide among {self.num_players} players: remove "
                f"{deck % self.num_players} more cards or use leftover='kitty'"
            )
        if self.widow is not None:
            if self.leftover != "kitty":
                raise ValueError(f"widow={self.widow} needs leftover='kitty'")
            if (deck - self.widow) % self.num_players:
                raise ValueError(
                    f"{deck} cards less a widow of {self.widow} do not divide among "
                    f"{self.num_players} players"
                )
        hand = self.hand_size
        if not 0 <= self.pass_count <= hand:
            raise ValueError(f"pass_count={self.pass_count} must be in 0..{hand} (the hand size)")
        if self.pass_count == 0 and any(d != "hold" for d in self.pass_directions):
            raise ValueError("pass_count=0 needs pass_directions=('hold',)")
        if self.first_lead != "eldest" and not self.deck_mask & SUIT_MASKS[0]:
            raise ValueError(f"first_lead={self.first_lead!r} needs clubs in the deck")
        if self.discard_first is not None and not 0 <= self.discard_first < NUM_STANDARD_CARDS:
            raise ValueError("discard_first must be a standard card")
        if self.target_score <= 0:
            raise ValueError(f"target_score must be positive, got {self.target_score}")
        if self.max_deals is not None and self.max_deals <= 0:
            raise ValueError(f"max_deals must be positive or None, got {self.max_deals}")
        if self.settlement == "howell" and self.scoring != "points":
            raise ValueError("howell settlement needs scoring='points'")

    def _check_idle_fields(self) -> None:
        """A field that cannot matter here (:func:`idle_fields`) keeps its neutral value: an
        option that would be silently ignored is an error naming it."""
        values = {f.name: getattr(self, f.name) for f in fields(self)}
        idle = idle_fields(values)
        given = [name for name in idle if values[name] != neutral_value(name, self.game)]
        if given:
            raise ValueError(idle_message(given, idle, self.preset))

    def _check_smear(self) -> None:
        """Smear's fields (docs/smear.md); the Hearts-only fields are neutral (``_check_idle_fields``)."""
        for name, allowed in (("smear_deal", SMEAR_DEALS), ("moon_bid", MOON_BIDS), ("trumps", TRUMP_CHOICES),
                              ("joker_rank", JOKER_RANKS), ("joker_points", JOKER_POINTS),
                              ("episode", EPISODES), ("illegal_action", ILLEGAL_ACTIONS),
                              ("team_scoring", TEAM_SCORINGS)):  # fmt: skip
            _choice(name, getattr(self, name), allowed)
        n = self.num_players
        if n > 8:
            raise ValueError(f"Smear is for 3-8 players, got num_players={n}")
        self._check_teams()
        jokers_removed = [card_name(c) for c in self.removed if not 0 <= c < NUM_STANDARD_CARDS]
        if jokers_removed:
            raise ValueError(
                f"removed={jokers_removed}: only standard cards can be removed; for fewer jokers set "
                f"jokers (now {self.jokers})"
            )
        for name in self.categories:
            _choice("a Smear category", name, tuple(SMEAR_CATEGORIES))
        if len(set(self.categories)) != len(self.categories):
            raise ValueError(f"categories repeat: {self.categories}")
        if not self.categories:
            raise ValueError("a Smear game needs at least one point category")
        missing = [c for c, need in (("jick", self.jick), ("joker1", self.jokers >= 1),
                                     ("joker2", self.jokers >= 2)) if c in self.categories and not need]  # fmt: skip  # noqa: E501
        if missing:
            raise ValueError(
                f"categories {missing} need their card: jick=True for 'jick', jokers>=1 / 2 for "
                "'joker1' / 'joker2'"
            )
        if self.joker_rank == "lowest" and self.jokers > 1:
            raise ValueError(
                f"joker_rank='lowest' is for one joker (five-point Smear), got jokers={self.jokers}"
            )
        deck, hand = len(self.deck), self.hand_size
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
        if self.teams and self.team_scoring != "sum":
            raise ValueError(
                f"team_scoring={self.team_scoring!r}: Smear scores by sides; use team_scoring='sum' "
                "with teams"
            )
        if self.target_score <= 0:
            raise ValueError(f"target_score must be positive, got {self.target_score}")

    @cached_property
    def smear_points(self) -> int:
        """Smear: what every category together is worth (10 in the ten-point game)."""
        return sum(SMEAR_CATEGORIES[c] for c in self.categories)

    @cached_property
    def moon_value(self) -> int:
        """Smear: what ``bid:moon`` is worth, made or missed (``moon_bid="points"``): 11 with
        five-point scoring (categories worth 5: smear.txt, "the moon, worth 11 points, consists
        of taking all 5 points"), else one more than every category together (11 in the
        ten-point game)."""
        return FIVE_POINT_MOON if self.smear_points == 5 else self.smear_points + 1

    def _check_teams(self) -> None:
        n = self.num_players
        if not isinstance(self.teams, tuple) or not all(isinstance(t, tuple) for t in self.teams):
            raise TypeError(
                f"teams must be a tuple of seat tuples such as ((0, 2), (1, 3)), got {self.teams!r}"
            )
        seats = sorted(as_int("a team seat", seat) for team in self.teams for seat in team)
        if self.teams and seats != list(range(n)):
            raise ValueError(f"teams={self.teams!r} must hold every seat 0..{n - 1} exactly once")
        if len(self.teams) == 1:
            raise ValueError(
                f"teams={self.teams!r} is one team of every seat: a team game needs at least two teams "
                "(or no teams: teams=())"
            )
        if bool(self.teams) != (self.team_scoring != "none"):
            raise ValueError(
                f"teams={self.teams!r} with team_scoring={self.team_scoring!r}: fixed teams need "
                "team_scoring 'sum' or 'individual', and team scoring needs teams"
            )
        if self.bidding == "auction":
            suits = {c // NUM_RANKS for c in range(NUM_STANDARD_CARDS) if self.card_points[c]}
            if suits != {HEARTS} or any(self.card_points[c] not in (0, 1) for c in range(NUM_CARDS)):
                raise ValueError(
                    "bidding='auction' names the penalty suit: card_points must be hearts 1 each"
                )
        if self.bidding == "auction" and self.first_lead != "eldest":
            raise ValueError(
                f"bidding='auction' decides the first lead (the auction's winner): "
                f"first_lead must be 'eldest', got {self.first_lead!r}"
            )
        if self.bidding == "slam" and self.teams:
            raise ValueError("bidding='slam' makes its own partnership: it cannot have fixed teams")

    def _check_two_decks(self) -> None:
        """Two decks go with the plain card game: the mechanisms below keep one copy per card."""
        if self.decks == 1:
            return
        unsupported = {
            "jokers": self.jokers != 0,
            "stock_deal": self.stock_deal is not None,
            "bidding": self.bidding != "none",
            "teams": bool(self.teams),
            "Royal scoring": self.scoring != "points",
            "first_trick_all_penalty": self.first_trick_all_penalty != "play",
        }
        used = [name for name, on in unsupported.items() if on]
        if used:
            raise ValueError(f"decks=2 (every card twice) does not go with {', '.join(used)}")

    def _check_types(self) -> None:
        """Every field of the right type (numpy scalars become plain ints and bools) and every
        number in a sane range: ``TypeError`` / ``ValueError`` naming the field and the value."""

        def put(name: str, value: object) -> None:
            object.__setattr__(self, name, value)

        if not isinstance(self.preset, str):
            raise TypeError(f"preset must be a string, got {self.preset!r}")
        for name in _BOOLS:
            put(name, as_bool(name, getattr(self, name)))
        for name, (low, high, optional) in _INTS.items():
            value = as_int(name, getattr(self, name), optional)
            if value is not None and not low <= value <= high:
                raise ValueError(f"{name}={value!r} is out of range {low}..{high}")
            put(name, value)
        if isinstance(self.teams, list) or (
            isinstance(self.teams, tuple) and any(isinstance(t, list) for t in self.teams)
        ):
            put("teams", tuple(tuple(t) if isinstance(t, (list, tuple)) else t for t in self.teams))
        for name in ("removed", "card_points", "pass_directions", "categories"):
            value = getattr(self, name)
            if isinstance(value, (str, bytes)) or not isinstance(value, (tuple, list)):
                raise TypeError(f"{name} must be a tuple, got {type(value).__name__} {value!r}")
            put(name, tuple(value))
        put("removed", tuple(as_int("a removed card", c) for c in self.removed))
        points = tuple(as_int("card_points values", v) for v in self.card_points)
        for c, v in enumerate(points):
            if not -POINTS_LIMIT <= v <= POINTS_LIMIT:
                raise ValueError(
                    f"card_points[{card_name(c) if c < NUM_CARDS else c}]={v} is out of range "
                    f"-{POINTS_LIMIT}..{POINTS_LIMIT}"
                )
        put("card_points", points)
        for direction in self.pass_directions:
            _choice("pass direction", direction, PASS_DIRECTIONS)

    # Derived facts the engines use: computed from the (frozen) fields once, on first use.
    @cached_property
    def deck(self) -> Deck:
        """The cards in play: the standard cards less ``removed``, plus the jokers, once per deck."""
        return Deck(removed=self.removed, jokers=self.jokers, copies=self.decks)

    @cached_property
    def deck_mask(self) -> int:
        """Bitmask of every card in play (each identity once, however many decks)."""
        return self.deck.mask

    @cached_property
    def hand_size(self) -> int:
        """Cards dealt to each player (= tricks per deal in the Hearts family)."""
        if self.game == "smear":
            return self.deal_size if self.deal_size is not None else len(self.deck) // self.num_players
        if self.stock_deal is not None:
            return self.stock_deal
        if self.leftover == "kitty" and self.widow is not None:
            return (len(self.deck) - self.widow) // self.num_players
        return len(self.deck) // self.num_players

    @cached_property
    def kitty_size(self) -> int:
        """Cards left face down for the first trick's winner (0 unless ``leftover="kitty"``)."""
        if self.game == "smear":
            return 0
        if self.stock_deal is not None:
            return 0
        return len(self.deck) - self.hand_size * self.num_players

    @cached_property
    def stock_size(self) -> int:
        """Cards of the stock at the start of a deal (Domino Hearts), else 0."""
        if self.game == "smear":  # every undealt card: the widow first, then the stock in draw order
            return len(self.deck) - self.hand_size * self.num_players
        return 0 if self.stock_deal is None else len(self.deck) - self.stock_deal * self.num_players

    @cached_property
    def deals_stock(self) -> bool:
        """Whether a deal leaves cards in draw order that a fixed deal may give (``stock``):
        Domino Hearts' stock, Smear's undealt cards."""
        return self.game == "smear" or self.stock_deal is not None

    @cached_property
    def deals_kitty(self) -> bool:
        """Whether a deal sets cards aside that a fixed deal may give (``kitty``, or its other
        name ``widow``): the Hearts family's kitty, Smear's widow."""
        return self.leftover == "kitty" if self.game == "hearts" else bool(self.widow)

    @cached_property
    def penalty_mask(self) -> int:
        """Cards with positive points that are in play: these may not go on the first trick."""
        return mask_of(c for c in self.deck.cards if self.card_points[c] > 0)

    @cached_property
    def counting_mask(self) -> int:
        """Cards with non-zero points that are in play."""
        return mask_of(c for c in self.deck.cards if self.card_points[c] != 0)

    @cached_property
    def moon_mask(self) -> int:
        """Cards a player must take to shoot the moon."""
        return self.counting_mask if self.moon_cards == "counting" else self.penalty_mask

    @cached_property
    def penalty_total(self) -> int:
        """Sum of positive card points in play (26 in standard Hearts, 43 in Black Maria)."""
        total = sum(max(self.card_points[c], 0) for c in self.deck.cards)
        if self.scoring != "points":
            # Q♥ doubles the hearts of its taker: all hearts in one hand count twice.
            total += sum(self.card_points[c] for c in self.deck.cards if c // NUM_RANKS == HEARTS)
        return total

    @cached_property
    def card_slots(self) -> int:
        """Card actions (and card slots of the observation): 52, plus one per joker."""
        return NUM_STANDARD_CARDS + self.jokers

    @cached_property
    def decisions(self) -> tuple[str, ...]:
        """The named decisions other than cards (docs/rules.md), in action order."""
        names: list[str] = []
        if self.game == "smear":
            names = ["pass", *(f"bid:{n}" for n in range(self.min_bid, self.max_bid + 1))]
            if self.moon_bid != "none":
                names.append("bid:moon")
            if self.trumps == "named":
                names += [f"suit:{letter}" for letter in SUIT_LETTERS]
            return tuple(names)
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

    @cached_property
    def action_names(self) -> tuple[str, ...]:
        """One name per action of the ``Discrete`` action space: the card slots by
        ``card_name`` (``"2C"`` … ``"AS"``, ``"JK1"``, ``"JK2"``), then :attr:`decisions`."""
        return tuple(card_name(c) for c in range(self.card_slots)) + self.decisions

    @cached_property
    def phases(self) -> tuple[str, ...]:
        """The phases of a deal this variant has, as the observation's ``phase`` piece names
        them: ``passing`` and ``playing`` always, then ``declare`` (Général, slam bids),
        ``bid`` and ``name_suit`` (Auction Hearts), ``moon_choice`` (the shooter's choice)."""
        if self.game == "smear":
            phases = ["bid"] + (["name_suit"] if self.trumps == "named" else [])
            if self.smear_discards:
                phases.append("discard")
            return (*phases, "playing")
        phases = ["passing", "playing"]
        if self.bidding in ("general", "slam"):
            phases.append("declare")
        if self.bidding == "auction":
            phases += ["bid", "name_suit"]
        if self.moon == "shooter_choice":
            phases.append("moon_choice")
        return tuple(phases)

    @cached_property
    def smear_discards(self) -> bool:
        """Smear: whether a deal can ask for discards (card actions in the ``discard`` phase)."""
        if self.game != "smear":
            return False
        if self.smear_deal == "blind":
            return bool(self.widow)
        return self.smear_deal != "nine_card"

    @cached_property
    def num_teams(self) -> int:
        """Sides at the table: the fixed teams, else every player alone."""
        return len(self.teams) if self.teams else self.num_players

    @cached_property
    def team_of(self) -> tuple[int, ...]:
        """The team index of each seat (its own seat number where there are no fixed teams)."""
        team = list(range(self.num_players))
        for index, seats in enumerate(self.teams):
            for seat in seats:
                team[seat] = index
        return tuple(team)

    def pass_offset(self, direction: str) -> int:
        """Seats between a passer and his receiver (0 for hold)."""
        n = self.num_players
        return {"left": 1, "right": n - 1, "across": n // 2, "hold": 0}[direction]

    def pass_direction(self, deal_index: int) -> str:
        """Direction of the deal with this index (0 = first deal of the game)."""
        return self.pass_directions[deal_index % len(self.pass_directions)]

    @cached_property
    def lowest_club(self) -> int:
        """The lowest club in play (leads the first trick under ``lowest_club``)."""
        clubs = self.deck_mask & SUIT_MASKS[0]
        return (clubs & -clubs).bit_length() - 1

    def describe(self) -> dict[str, object]:
        """The options as plain values (card names instead of indices), for logs and JSON."""
        out: dict[str, object] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name == "removed":
                value = [card_name(c) for c in value]
            elif f.name == "card_points":
                value = {card_name(c): p for c, p in enumerate(value) if p}
            elif f.name == "discard_first" and value is not None:
                value = card_name(value)
            out[f.name] = value
        return out


_SMEAR_FIELDS = {
    "deal_size", "keep", "smear_deal", "min_bid", "moon_bid", "dealer_must_bid", "trumps",
    "pitcher_leads_trump", "jick", "joker_rank", "distinguishable_jokers", "joker_points",
    "categories", "pitcher_only_wins",
}  # fmt: skip
HEARTS_FIELDS = frozenset({
    "decks", "leftover", "pass_count", "pass_directions", "first_lead", "hearts_break", "queen_needs_break",
    "lead_hearts_if_only_queen", "no_points_first_trick", "no_heart_lead_first_trick",
    "first_trick_all_penalty", "club_play", "discard_first", "card_points", "scoring", "moon", "moon_cards",
    "moon_points", "no_tricks_bonus", "exact_target_reset", "settlement", "stock_deal", "bidding",
    "general_points",
})  # fmt: skip
"""The Hearts-family fields: a Smear game has no use for them (the rest serve both games)."""
_SMEAR_NEUTRAL: dict[str, object] = {
    # A Hearts field's value in a Smear game where its default would switch a mechanism on.
    "pass_count": 0, "pass_directions": ("hold",), "first_lead": "eldest", "no_points_first_trick": False,
    "card_points": (0,) * NUM_CARDS,
}  # fmt: skip
_DEFAULTS = {f.name: f.default for f in fields(Rules) if f.name != "card_points"}


def neutral_value(name: str, game: str) -> object:
    """What field ``name`` holds where it cannot matter (:func:`idle_fields`) in ``game``: its
    default, or for a Hearts field in Smear the value that leaves its mechanism out (no pass,
    no card points …)."""
    if game == "smear" and name in _SMEAR_NEUTRAL:
        return _SMEAR_NEUTRAL[name]
    return _standard_points() if name == "card_points" else _DEFAULTS[name]


def idle_fields(values: Mapping[str, object]) -> dict[str, str]:
    """The fields that cannot matter under ``values`` (every field of :class:`Rules` by name),
    each with the reason: the other game's fields, joker options without the jokers, the moon's
    payment where no old moon is scored, a bid limit or Général value without that bidding.

    Values need not be validated yet: only equality is used."""
    idle: dict[str, str] = {}
    if values["game"] == "smear":
        idle.update(dict.fromkeys(sorted(HEARTS_FIELDS), "Hearts-family options, not for game='smear'"))
        jokers = values["jokers"]
        if jokers == 0:
            why = "joker options without jokers (jokers=0)"
            idle.update(dict.fromkeys(("joker_rank", "joker_points"), why))
        if jokers in (0, 1):
            idle["distinguishable_jokers"] = f"it tells two jokers apart, and jokers={jokers}"
        if values["smear_deal"] == "nine_card" and values["trumps"] == "named":
            idle["pitcher_leads_trump"] = "smear_deal='nine_card' plays only trumps"
        return idle
    idle.update(dict.fromkeys(sorted(_SMEAR_FIELDS), "Smear options, not for game='hearts'"))
    if values["bidding"] != "general":
        idle["general_points"] = "the Général's value needs bidding='general'"
    if values["bidding"] != "auction":
        idle["max_bid"] = "the highest chip bid needs bidding='auction'"
    if values["team_scoring"] == "sum":
        why = "team_scoring='sum' scores a team taking every penalty card by its own rule"
        idle.update(dict.fromkeys(("moon", "moon_points"), why))
    elif values["moon"] in ("none", "new", "no_points", "slam"):
        idle["moon_points"] = f"what the others score on an old moon, and moon={values['moon']!r} has none"
    return idle


def idle_message(names: list[str], idle: Mapping[str, str], preset: str) -> str:
    """One error line for options that cannot matter: each name with its reason."""
    reasons: dict[str, list[str]] = {}
    for name in names:
        reasons.setdefault(idle[name], []).append(name)
    said = "; ".join(f"{', '.join(group)}: {why}" for why, group in reasons.items())
    return f"{said} ({preset} has no use for them: leave them out)"


def _standard_points() -> tuple[int, ...]:
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


def derive_values(values: dict[str, Any], given: Mapping[str, Any]) -> None:
    """Set the rule values that follow from the others, where ``given`` (the caller's options)
    names none: Smear's categories in play and its top bid (what the categories are worth)."""
    if values.get("game") != "smear":
        return
    if "categories" not in given:
        values["categories"] = _categories_in_play(values)
    if "max_bid" not in given:  # bids up to what the categories are worth
        worth = sum(SMEAR_CATEGORIES.get(c, 0) for c in values["categories"])
        values["max_bid"] = max(1, min(values.get("max_bid", worth), worth))


def _categories_in_play(values: Mapping[str, Any]) -> tuple[str, ...]:
    """A Smear preset's categories less those whose card the options take away (no jick, fewer
    jokers): the category is then not a rule of the game, rather than a point never in play."""
    jokers, jick = values.get("jokers", 0), values.get("jick", True)
    drop = {"jick"} if jick is False else set()
    if isinstance(jokers, int):
        drop |= {"joker1", "joker2"} if jokers < 1 else {"joker2"} if jokers < 2 else set()
    return tuple(c for c in values.get("categories", ()) if c not in drop)
