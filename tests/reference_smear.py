"""A plain, single-game reference implementation of one Smear deal (and of the game-end rule).

This module exists for differential testing against the fast engine. It is written from
docs/rules.md (Smear) and §7 (decisions, teams) and from ``docs/smear.md`` (the project's precise
readings, authoritative wherever it is more precise) alone, with the option vocabulary of
:mod:`hearts_env.core.rules`; it favours readability over speed (Python sets and lists, no numpy).

One :class:`ReferenceSmearDeal` plays one deal from given hands, one decision at a time:

1. ``"bid"`` — from eldest hand (dealer + 1) clockwise to the dealer, each seat once: ``pass``
   or a bid above every earlier bid (``bid:moon`` above every number). The dealer, when all
   before him passed, must bid ``min_bid`` (``dealer_must_bid``) or may pass, which throws the
   deal in (``cancelled``).
2. ``"name_suit"`` (``trumps="named"``) — the pitcher names trumps (``suit:X``); in the widow
   game he first takes the widow into his hand.
3. From the bids to play, by ``smear_deal``: ``"stock"`` (the pitcher takes the stock, then the
   ``"discard"`` phase), ``"nine_card"`` (automatic throw-aways and draws), ``"widow"``
   (automatic throw-aways and draws for the others, the pitcher takes the rest of the stock,
   then the ``"discard"`` phase) or ``"blind"`` (dead cards; a kitty for the pitcher, then the
   ``"discard"`` phase).
4. ``"playing"`` — tricks, the pitcher leading the first one ("follow suit or trump").
5. Scoring when the deal ends (categories, set-back, moon).

An action is an index into ``rules.action_names``: the card slots first (card index = action
index, ``JK1`` = 52, ``JK2`` = 53), then ``rules.decisions`` by name (``"pass"``, ``"bid:N"``,
``"bid:moon"``, ``"suit:C"`` …). Discards and plays are card actions.

:func:`reference_smear_game` adds a finished deal to the side totals and applies the game-end
rule (docs/smear.md §6, and the widow game's moon).

Points the documents leave open and how this module reads them (each is marked "reading:" in
the code): a nine-card pitcher without a trump after the draws (the next player clockwise who
holds one leads); a widow-game player left short by an exhausted stock (he drops out of the
play when his hand is empty, as in nine-card); discards while trumps are not yet known (any
card: nothing is a trump yet); the widow game's scoring trumps (the fixed list A J 10 3 2, the
jick, the jokers, whatever the categories); a missed widow-game moon with a tie among the other
totals (the game ends without a winner); a made widow-game moon whose total is reset to 0
(the game goes on, whatever the other totals).
"""

from __future__ import annotations

import operator

from hearts_env.core.cards import JOKERS, NUM_RANKS, NUM_STANDARD_CARDS, card_name
from hearts_env.core.rules import SUIT_LETTERS, Rules
from hearts_env.games.smear.options import SMEAR_CATEGORIES

PHASE_BID = "bid"
PHASE_NAME_SUIT = "name_suit"
PHASE_DISCARD = "discard"
PHASE_PLAYING = "playing"
PHASE_DONE = "done"

SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")
RANK_TWO, RANK_THREE, RANK_TEN, RANK_JACK, RANK_ACE = 0, 1, 8, 9, 12
GAME_POINTS = {12: 4, 11: 3, 10: 2, 9: 1, 8: 10}
"""Card points for the ``game`` category by rank index: A 4, K 3, Q 2, J 1, 10 10, others 0."""

NOT_IN_PLAY = -1
NOBODY = -2


def _suit(card: int) -> int | None:
    """Printed suit of a card; ``None`` for a joker."""
    return card // NUM_RANKS if card < NUM_STANDARD_CARDS else None


def _rank(card: int) -> int | None:
    """Printed rank (0 = "2" … 12 = "A"); ``None`` for a joker."""
    return card % NUM_RANKS if card < NUM_STANDARD_CARDS else None


def _names(cards: list[int] | set[int]) -> str:
    return " ".join(card_name(c) for c in sorted(cards)) or "-"


def _same_colour_suit(suit: int) -> int:
    """The other suit of the same colour: clubs <-> spades, diamonds <-> hearts."""
    return {0: 3, 3: 0, 1: 2, 2: 1}[suit]


class ReferenceSmearDeal:
    """One Smear deal, played one decision at a time (see the module docstring).

    State read by tests: ``current`` (seat to act, ``None`` when done), ``phase``, ``done``,
    ``hands`` (current hands, sets), ``stock`` (cards left to draw, in order), ``widow``,
    ``bids`` (``(seat, action name)`` in order), ``trick`` (``(seat, card)`` plays of the trick
    in progress), ``completed_tricks`` (``(plays, winner)`` per trick), ``out_of_play`` (per
    seat: discarded and thrown-away cards), ``dead`` (the dead blind).

    Results, valid once ``done``: ``cancelled``, ``pitcher``, ``bid`` (the winning bid's value,
    ``rules.moon_value`` for ``bid:moon``), ``moon``, ``made``, ``trumps``,
    ``categories`` (name -> side index, ``-1`` not in play, ``-2`` nobody), ``side_points``,
    ``made_points``, ``tricks_won`` (cards won per seat), ``held_at_start`` (per seat: the hand
    when play began).
    """

    def __init__(self, rules: Rules, hands: list[list[int]], dealer: int, undealt: list[int]) -> None:
        if rules.game != "smear":
            raise ValueError(f"ReferenceSmearDeal plays Smear, not game={rules.game!r}")
        self.rules = rules
        n = rules.num_players
        self.n = n
        self._check_deal(hands, dealer, undealt)
        if rules.trumps == "first_lead" and rules.smear_deal in ("nine_card", "widow"):
            # reading: both need trumps before play (throw-aways); the documents name no such game
            raise ValueError(f"smear_deal={rules.smear_deal!r} needs named trumps, not trumps='first_lead'")
        self.dealer = dealer
        self.hands: list[set[int]] = [set(h) for h in hands]
        undealt = list(undealt)
        widow_size = rules.widow or 0
        self.widow: list[int] = undealt[:widow_size]
        self.stock: list[int] = undealt[widow_size:]
        self.dead: list[int] = []
        if rules.smear_deal == "blind":  # the stock is dead: never in play, seen by nobody
            self.dead, self.stock = self.stock, []
        self.out_of_play: list[list[int]] = [[] for _ in range(n)]
        self.names = rules.action_names
        self.index = {name: a for a, name in enumerate(self.names)}

        # the auction
        self.bids: list[tuple[int, str]] = []
        self._bid_order = [(dealer + 1 + i) % n for i in range(n)]
        self.high_bid: int | None = None  # value of the highest bid so far
        self.high_bidder: int | None = None

        # trumps and play
        self.trumps: int | None = None
        self.trick: list[tuple[int, int]] = []
        self.completed_tricks: list[tuple[list[tuple[int, int]], int]] = []
        self._trick_queue: list[int] = []  # seats still to play to the trick in progress, in order
        self.tricks_won: list[list[int]] = [[] for _ in range(n)]
        self.held_at_start: list[list[int]] = [[] for _ in range(n)]
        self._discard_order: list[int] = []

        # results
        self.cancelled = False
        self.pitcher: int | None = None
        self.bid: int | None = None
        self.moon = False
        self.made: bool | None = None
        self.categories: dict[str, int] = {}
        self.side_points: list[int] = [0] * rules.num_teams
        self.made_points: list[int] = [0] * rules.num_teams

        self.phase = PHASE_BID
        self.current: int | None = self._bid_order[0]

    # ------------------------------------------------------------------ validation
    def _check_deal(self, hands: list[list[int]], dealer: int, undealt: list[int]) -> None:
        rules, n = self.rules, self.n
        if not isinstance(dealer, int) or not 0 <= dealer < n:
            raise ValueError(f"dealer must be a seat 0..{n - 1}, got {dealer!r}")
        if len(hands) != n:
            raise ValueError(f"{len(hands)} hands for {n} players")
        for seat, hand in enumerate(hands):
            if len(hand) != rules.hand_size:
                raise ValueError(f"seat {seat}'s hand has {len(hand)} cards, not {rules.hand_size}")
        deck = list(rules.deck.cards)
        in_deck = set(deck)
        seen: set[int] = set()
        for card in [c for h in hands for c in h] + list(undealt):
            if card not in in_deck:
                raise ValueError(f"{card_name(card)} is not in the deck")
            if card in seen:
                raise ValueError(f"{card_name(card)} appears twice in the deal")
            seen.add(card)
        if len(undealt) != rules.stock_size or seen != in_deck:
            missing = sorted(in_deck - seen)
            raise ValueError(
                f"the hands and the {len(undealt)} undealt cards do not make the deck "
                f"({rules.stock_size} undealt expected; missing: {_names(missing)})"
            )

    # ------------------------------------------------------------------ cards
    def _is_trump(self, card: int) -> bool:
        """Trumps: the trump suit, the jick (``rules.jick``) and the jokers; none before trumps
        are known."""
        if self.trumps is None:
            return False
        if card in JOKERS:
            return True
        if _suit(card) == self.trumps:
            return True
        return self._is_jick(card)

    def _is_jick(self, card: int) -> bool:
        return (
            self.rules.jick
            and self.trumps is not None
            and card < NUM_STANDARD_CARDS
            and _rank(card) == RANK_JACK
            and _suit(card) == _same_colour_suit(self.trumps)
        )

    def _trump_card(self, rank: int) -> int | None:
        return None if self.trumps is None else NUM_RANKS * self.trumps + rank

    def _jick_card(self) -> int | None:
        if not self.rules.jick or self.trumps is None:
            return None
        return NUM_RANKS * _same_colour_suit(self.trumps) + RANK_JACK

    def _trumps_in(self, cards: set[int] | list[int]) -> set[int]:
        return {c for c in cards if self._is_trump(c)}

    def _effective_suit(self, card: int) -> int | None:
        """The suit a card counts as: trumps for every trump (jick and jokers included)."""
        if self._is_trump(card):
            return self.trumps
        return _suit(card)

    def _trump_key(self, card: int, position: int) -> tuple[int, int]:
        """Order of trumps, high to low: A K Q J, jick, jokers, 10 … 2 (jokers below the 2 with
        ``joker_rank="lowest"``). Two jokers: JK2 above JK1 (``distinguishable_jokers``), else
        the later-played one (``position`` in the trick) above."""
        if card in JOKERS:
            sub = card if self.rules.distinguishable_jokers else position
            return (1, sub) if self.rules.joker_rank == "high" else (-1, sub)
        if self._is_jick(card):
            return (2, 0)
        rank = _rank(card)
        assert rank is not None
        return (3, rank) if rank >= RANK_JACK else (0, rank)

    def _scoring_trump(self, card: int) -> bool:
        """The widow game's protected discards: the trump A, J, 10, 3 and 2, the jick, the jokers
        (reading: this fixed list, whatever the categories)."""
        if not self._is_trump(card):
            return False
        if card in JOKERS or self._is_jick(card):
            return True
        return _rank(card) in (RANK_ACE, RANK_JACK, RANK_TEN, RANK_THREE, RANK_TWO)

    # ------------------------------------------------------------------ public
    @property
    def done(self) -> bool:
        return self.phase == PHASE_DONE

    def legal_actions(self) -> list[int]:
        if self.done:
            return []
        return [a for a in range(len(self.names)) if self._why_illegal(a) is None]

    def step(self, action: int) -> None:
        if not isinstance(action, bool):
            try:
                action = operator.index(action)  # numpy integers too
            except TypeError:
                pass
        reason = self._why_illegal(action)
        if reason is not None:
            name = self.names[action] if isinstance(action, int) and 0 <= action < len(self.names) else action
            who = "nobody" if self.current is None else f"seat {self.current}"
            raise ValueError(f"{who} cannot take action {name!r} ({self.phase} phase): {reason}")
        name = self.names[action]
        if self.phase == PHASE_BID:
            self._apply_bid(name)
        elif self.phase == PHASE_NAME_SUIT:
            self._apply_suit(name)
        elif self.phase == PHASE_DISCARD:
            self._apply_discard(action)
        else:
            self._apply_play(action)

    # ------------------------------------------------------------------ legality
    def _bid_value(self, name: str) -> int:
        return self.rules.moon_value if name == "bid:moon" else int(name.split(":")[1])

    def _why_illegal(self, action: object) -> str | None:
        """Why ``action`` is illegal now, or ``None`` when it is legal."""
        if not isinstance(action, int) or isinstance(action, bool):
            return f"an action is an int index into action_names, not {type(action).__name__}"
        if not 0 <= action < len(self.names):
            return f"action {action} is out of range 0..{len(self.names) - 1}"
        if self.done:
            return "the deal is over"
        seat = self.current
        assert seat is not None
        name = self.names[action]
        is_card = action < self.rules.card_slots
        if self.phase == PHASE_BID:
            if is_card:
                return f"{name} is a card; the bid phase asks for pass or a bid"
            if name.startswith("suit:"):
                return f"seat {seat} is not the pitcher: there is none before the bids end"  # noqa: E501
            forced = seat == self.dealer and self.high_bid is None and self.rules.dealer_must_bid
            if forced:
                if name != f"bid:{self.rules.min_bid}":
                    return f"everybody else passed: the dealer must bid bid:{self.rules.min_bid}"
                return None
            if name == "pass":
                return None
            value = self._bid_value(name)
            if self.high_bid is not None and value <= self.high_bid:
                high = f"{self._high_bid_name()}, seat {self.high_bidder}"
                return f"a bid must be above the highest bid so far ({high})"  # noqa: E501
            return None
        if self.phase == PHASE_NAME_SUIT:
            if not name.startswith("suit:"):
                return f"the pitcher (seat {self.pitcher}) must name trumps (suit:C … suit:S)"
            return None
        # discard and playing: card actions only
        if not is_card:
            if name.startswith("suit:"):
                if seat != self.pitcher:
                    return f"seat {seat} is not the pitcher (seat {self.pitcher}); trumps are named in the name_suit phase"  # noqa: E501
                return "trumps are named in the name_suit phase, not now"
            return f"the {self.phase} phase asks for a card, not {name}"
        hand = self.hands[seat]
        if action not in hand:
            return f"seat {seat} does not hold {name} (holds {_names(hand)})"
        if self.phase == PHASE_DISCARD:
            return self._why_not_discard(seat, action)
        return self._why_not_play(seat, action)

    def _high_bid_name(self) -> str:
        if self.high_bid == self.rules.moon_value and self.rules.moon_bid != "none":
            return "bid:moon"
        return f"bid:{self.high_bid}"

    def _why_not_discard(self, seat: int, card: int) -> str | None:
        hand = self.hands[seat]
        keep = self.rules.keep
        deal = self.rules.smear_deal
        if deal not in ("stock", "widow"):
            return None  # blind: the kitty exchange, any card
        # Every Smear game (docs/rules.md): a trump only by a player with more than six of them
        # (the widow game's pitcher after the stock too) ...
        trumps = self._trumps_in(hand)
        if self._is_trump(card) and len(trumps) <= keep:
            return (
                f"{card_name(card)} is a trump, and a trump may be discarded only by a player "
                f"holding more than {keep} of them (seat {seat} holds {len(trumps)})"
            )
        # ... and in the widow game never a scoring trump while he holds another card.
        if deal == "widow" and self._scoring_trump(card) and any(not self._scoring_trump(c) for c in hand):
            return (
                f"{card_name(card)} is a scoring trump (trump A J 10 3 2, jick, jokers): it may be "
                "discarded only when nothing else is left"
            )
        return None

    def _why_not_play(self, seat: int, card: int) -> str | None:
        hand = self.hands[seat]
        rules = self.rules
        if rules.smear_deal == "nine_card":
            if not self._is_trump(card):
                return "only trumps are played in nine-card Smear"
            return None
        first_lead = not self.completed_tricks and not self.trick
        if not self.trick:  # a lead
            if first_lead and rules.trumps == "first_lead" and card in JOKERS:
                if any(c not in JOKERS for c in hand):
                    return "the first lead names trumps: it may not be a joker"
            if first_lead and rules.pitcher_leads_trump and seat == self.pitcher:
                if self._trumps_in(hand) and not self._is_trump(card):
                    held = _names(self._trumps_in(hand))
                    return f"the pitcher must lead a trump to the first trick (holds {held})"  # noqa: E501
            return None
        led = self._effective_suit(self.trick[0][1])
        holding_led = [c for c in hand if self._effective_suit(c) == led]
        if holding_led and not self._is_trump(card) and self._effective_suit(card) != led:
            suit = SUIT_NAMES[led] if led is not None else "the suit led"
            return f"seat {seat} holds {suit} ({_names(holding_led)}): he must follow suit or trump"
        return None

    # ------------------------------------------------------------------ bids
    def _apply_bid(self, name: str) -> None:
        seat = self.current
        assert seat is not None
        self.bids.append((seat, name))
        if name != "pass":
            self.high_bid = self._bid_value(name)
            self.high_bidder = seat
            self.moon = name == "bid:moon"
        if len(self.bids) < self.n:
            self.current = self._bid_order[len(self.bids)]
            return
        if self.high_bidder is None:  # all passed, dealer_must_bid=False: thrown in
            self.cancelled = True
            self._finish()
            return
        self.pitcher = self.high_bidder
        self.bid = self.high_bid
        if self.rules.trumps == "named":
            if self.rules.smear_deal == "widow":  # the pitcher takes the widow before naming
                self.hands[self.pitcher] |= set(self.widow)
                self.widow = []
            self.phase = PHASE_NAME_SUIT
            self.current = self.pitcher
            return
        self._after_trumps()

    def _apply_suit(self, name: str) -> None:
        self.trumps = SUIT_LETTERS.index(name.split(":")[1])
        self.bids.append((self.pitcher, name))  # type: ignore[arg-type]
        self._after_trumps()

    # ------------------------------------------------------------------ from the bids to play
    def _left_of_pitcher(self) -> list[int]:
        """The other seats clockwise from the pitcher's left."""
        assert self.pitcher is not None
        return [(self.pitcher + i) % self.n for i in range(1, self.n)]

    def _throw_and_draw(self, seat: int) -> None:
        """Throw away every non-trump, then draw from the stock up to ``keep`` (a player with
        more than ``keep`` trumps keeps them all)."""
        hand = self.hands[seat]
        thrown = sorted(c for c in hand if not self._is_trump(c))
        self.out_of_play[seat] += thrown
        hand -= set(thrown)
        while len(hand) < self.rules.keep and self.stock:
            hand.add(self.stock.pop(0))

    def _after_trumps(self) -> None:
        """Named trumps (or, with ``trumps="first_lead"``, the end of the bids): the stock,
        draws, widow or kitty, then the discards or the play."""
        deal = self.rules.smear_deal
        pitcher = self.pitcher
        assert pitcher is not None
        if deal == "stock":
            self.hands[pitcher] |= set(self.stock)
            self.stock = []
            self._discard_order = [pitcher, *self._left_of_pitcher()]
        elif deal == "nine_card":
            for seat in [*self._left_of_pitcher(), pitcher]:
                self._throw_and_draw(seat)
            self._discard_order = []
        elif deal == "widow":
            for seat in self._left_of_pitcher():
                self._throw_and_draw(seat)
            self.hands[pitcher] |= set(self.stock)
            self.stock = []
            self._discard_order = [*self._left_of_pitcher(), pitcher]
        else:  # blind: a kitty (the widow) for the pitcher
            self.hands[pitcher] |= set(self.widow)
            self.widow = []
            self._discard_order = [pitcher]
        self.phase = PHASE_DISCARD
        self._next_discarder()

    def _next_discarder(self) -> None:
        for seat in self._discard_order:
            if len(self.hands[seat]) > self.rules.keep:
                self.current = seat
                return
        self._start_play()

    def _apply_discard(self, card: int) -> None:
        seat = self.current
        assert seat is not None
        self.hands[seat].discard(card)
        self.out_of_play[seat].append(card)
        self._next_discarder()

    # ------------------------------------------------------------------ play
    def _active(self, seat: int) -> bool:
        """Still in the deal: holds a card he may play (nine-card: a trump)."""
        if self.rules.smear_deal == "nine_card":
            return bool(self._trumps_in(self.hands[seat]))
        return bool(self.hands[seat])

    def _next_active_from(self, seat: int) -> int | None:
        """``seat`` if active, else the next active seat clockwise; ``None`` when nobody is."""
        for i in range(self.n):
            s = (seat + i) % self.n
            if self._active(s):
                return s
        return None

    def _start_play(self) -> None:
        self.phase = PHASE_PLAYING
        self.held_at_start = [sorted(h) for h in self.hands]
        assert self.pitcher is not None
        # reading: a nine-card pitcher left without a trump: the next player clockwise holding one leads
        leader = self._next_active_from(self.pitcher)
        if leader is None:  # nine-card: nobody holds a trump after the draws
            self._score()
            return
        self._start_trick(leader)

    def _start_trick(self, leader: int) -> None:
        self.trick = []
        queue = []
        first = not self.completed_tricks
        for i in range(self.n):
            seat = (leader + i) % self.n
            if not self._active(seat):
                continue
            plays = 1
            if first and self.rules.smear_deal == "nine_card":
                k = len(self._trumps_in(self.hands[seat]))
                plays = max(1, k - self.rules.keep + 1)
            queue += [seat] * plays
        self._trick_queue = queue
        self.current = queue[0]

    def _apply_play(self, card: int) -> None:
        seat = self.current
        assert seat is not None
        if self.trumps is None:  # trumps="first_lead": the first card names trumps
            self.trumps = _suit(card)
        self.hands[seat].discard(card)
        self.trick.append((seat, card))
        self._trick_queue.pop(0)
        if self._trick_queue:
            self.current = self._trick_queue[0]
            return
        winner = self._trick_winner(self.trick)
        self.completed_tricks.append((list(self.trick), winner))
        self.tricks_won[winner] += [c for _, c in self.trick]
        self.trick = []
        leader = self._next_active_from(winner)
        if leader is None:
            self._score()
            return
        self._start_trick(leader)

    def _trick_winner(self, plays: list[tuple[int, int]]) -> int:
        """The highest trump played, else the highest card (by rank) of the suit led."""
        trumps = [(self._trump_key(c, i), s) for i, (s, c) in enumerate(plays) if self._is_trump(c)]
        if trumps:
            return max(trumps)[1]
        led = _suit(plays[0][1])
        followers = [(_rank(c), s) for s, c in plays if _suit(c) == led]
        return max(followers)[1]  # type: ignore[type-var]

    # ------------------------------------------------------------------ scoring
    def _finish(self) -> None:
        self.phase = PHASE_DONE
        self.current = None
        self._trick_queue = []

    def _holder(self, card: int | None) -> int | None:
        for seat, hand in enumerate(self.held_at_start):
            if card in hand:
                return seat
        return None

    def _winner_of(self, card: int | None) -> int | None:
        for seat, won in enumerate(self.tricks_won):
            if card in won:
                return seat
        return None

    def _category(self, name: str) -> int:
        """The side that scores category ``name``: ``-1`` when its card is not in play, ``-2`` for
        a ``game`` tie (nobody)."""
        team_of = self.rules.team_of
        in_play = {c for hand in self.held_at_start for c in hand}
        by_holder = None  # the card whose holder scores
        by_winner = None  # the card whose winner in a trick scores
        if name in ("high", "low"):
            natural = sorted((c for c in in_play if _suit(c) == self.trumps), key=_rank)
            if not natural:
                return NOT_IN_PLAY
            by_holder = natural[-1] if name == "high" else natural[0]
        elif name == "two":
            by_holder = self._trump_card(RANK_TWO)
        elif name in ("jack", "ten", "trey"):
            by_winner = self._trump_card({"jack": RANK_JACK, "ten": RANK_TEN, "trey": RANK_THREE}[name])
        elif name == "jick":
            by_winner = self._jick_card()
        elif name in ("joker1", "joker2"):
            joker = JOKERS[0] if name == "joker1" else JOKERS[1]
            if self.rules.joker_points == "holder":
                by_holder = joker
            else:
                by_winner = joker
        elif name == "game":
            points = [0] * self.rules.num_teams
            for seat, won in enumerate(self.tricks_won):
                points[team_of[seat]] += sum(
                    GAME_POINTS.get(c % NUM_RANKS, 0) for c in won if c not in JOKERS
                )  # noqa: E501
            best = max(points)
            leaders = [side for side, p in enumerate(points) if p == best]
            return leaders[0] if len(leaders) == 1 else NOBODY
        else:
            raise ValueError(f"unknown Smear category {name!r}")
        card = by_holder if by_holder is not None else by_winner
        if card is None or card not in in_play:
            return NOT_IN_PLAY
        seat = self._holder(card) if by_holder is not None else self._winner_of(card)
        assert seat is not None, f"{card_name(card)} in play but not won"
        return team_of[seat]

    def _score(self) -> None:
        rules = self.rules
        self.categories = {name: self._category(name) for name in rules.categories}
        made = [0] * rules.num_teams
        for name, side in self.categories.items():
            if side >= 0:
                made[side] += SMEAR_CATEGORIES[name]
        self.made_points = list(made)
        assert self.pitcher is not None and self.bid is not None
        side = rules.team_of[self.pitcher]
        points = list(made)
        if self.moon:
            in_play = [s for s in self.categories.values() if s != NOT_IN_PLAY]
            self.made = all(s == side for s in in_play)
            if rules.moon_bid == "points":
                points[side] = self.bid if self.made else -self.bid
            elif not self.made:  # moon_bid="game": missed, minus every category's value
                points[side] = -rules.smear_points
        else:
            self.made = made[side] >= self.bid
            if not self.made:
                points[side] = -self.bid
        self.side_points = points
        self._finish()


def reference_smear_game(
    rules: Rules, totals: list[int], deal: ReferenceSmearDeal, deals_played: int | None = None
) -> tuple[list[int], bool, int | None]:
    """Side totals after adding the finished ``deal``, whether the game is over, and the winning
    side (``None`` if none).

    docs/smear.md §6: the game goes on while no side's total reaches ``target_score``; else the
    highest total wins, a tie at the top to the pitching side when it is one of them (else the
    game goes on). ``pitcher_only_wins``: the game ends exactly when the pitching side's total
    reaches the target, and the pitching side wins. The widow game's moon (``moon_bid="game"``):
    made, the pitching side wins at once unless its total was negative before the deal (reset
    to 0; the game goes on); missed, the game ends and the side with the highest other total wins
    (reading: a tie there leaves no winner). ``deals_played`` (optional, this deal included)
    applies ``max_deals``: the highest total wins, a tie leaves no winner.
    """
    if not deal.done:
        raise ValueError("the deal is not over")
    if len(totals) != rules.num_teams:
        raise ValueError(f"{len(totals)} totals for {rules.num_teams} sides")
    new = [t + p for t, p in zip(totals, deal.side_points)]
    if deal.cancelled:
        return (new, *_max_deals_end(rules, new, deals_played))
    assert deal.pitcher is not None
    side = rules.team_of[deal.pitcher]
    if deal.moon and rules.moon_bid == "game":
        if deal.made:
            if totals[side] < 0:  # negative before the deal (docs/rules.md, second reading)
                new[side] = 0
                return (new, *_max_deals_end(rules, new, deals_played))
            return new, True, side
        others = [(t, s) for s, t in enumerate(new) if s != side]
        best = max(t for t, _ in others)
        leaders = [s for t, s in others if t == best]
        return new, True, leaders[0] if len(leaders) == 1 else None
    target = rules.target_score
    if rules.pitcher_only_wins:
        if new[side] >= target:
            return new, True, side
    elif any(t >= target for t in new):
        best = max(new)
        leaders = [s for s, t in enumerate(new) if t == best]
        if len(leaders) == 1:
            return new, True, leaders[0]
        if side in leaders:
            return new, True, side
    return (new, *_max_deals_end(rules, new, deals_played))


def _max_deals_end(rules: Rules, totals: list[int], deals_played: int | None) -> tuple[bool, int | None]:
    """``max_deals`` reached: the game ends, the highest total wins (a tie: no winner)."""
    if deals_played is None or rules.max_deals is None or deals_played < rules.max_deals:
        return False, None
    best = max(totals)
    leaders = [s for s, t in enumerate(totals) if t == best]
    return True, leaders[0] if len(leaders) == 1 else None
