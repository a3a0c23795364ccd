"""A plain, single-game reference implementation of one Hearts-family deal.

This module exists for differential testing: it is written from docs/rules.md
and the option vocabulary of :mod:`hearts_env.core.rules` alone, favouring readability over speed,
so that the batched engine can be checked against it deal by deal.

One :class:`ReferenceDeal` plays one deal from given hands:

1. the passing phase (skipped for ``"hold"`` or ``pass_count == 0``): seat by seat from eldest
   hand, each seat chooses its ``pass_count`` cards one at a time; the exchange happens after
   every seat has chosen;
2. the start of play: a hand of only penalty cards may trigger ``first_trick_all_penalty``
   (``"redeal"`` cancels the deal there and then);
3. the decisions before the first lead (``rules.bidding``): Chasse-cœur's Général and
   Partnership C's slam bid (phase ``"declare"``), Auction Hearts' chip bids (``"bid"``) and the
   winner's penalty suit (``"name_suit"``);
4. the play phase: tricks, with the leading / following restrictions of the rules (jokers are
   always legal and never win);
   In Domino Hearts (``rules.stock_deal``) a follower who cannot follow suit first draws from
   the stock (automatically, never a decision), players whose hand is empty drop out, and a
   trick has as many cards as players were in when it was led;
5. scoring when the deal ends (the hands are empty; in Domino Hearts when at most one player
   still holds cards: he takes his hand and the stock): the set-aside first trick goes to its receiver
   (``"to_lowest"``), then raw points (``scoring="points"`` or ``"royal"``, without the uncounted
   cards of ``"not_counted"``), then the Général, the team moon or the moon rule (with
   ``moon="shooter_choice"`` the shooter first decides, phase ``"moon_choice"``), the no-trick
   bonus, the auction winner's bid and the slam pair's sum.

An action is an index into ``rules.action_names``: the card slots first (card index = action
index, jokers 52 and 53), then the named decisions (``rules.decisions``). For a variant without
decisions or jokers an action is simply a card index.

:func:`reference_settle` pays one finished deal in chips (``rules.settlement``) and
:func:`reference_settle_game` pays Black Maria's end-of-game settlement.

Two decks (``rules.decks == 2``, Cancellation Hearts; notes/cancellation-decisions.md): every
card exists twice, so hands, the cards taken and the kitty are sorted lists in which a card
appears twice when both copies are there (one deck keeps sets); an action names an identity and
plays (passes) one copy. Identical cards in one trick cancel each other; a trick with two such
pairs, or without a card of the suit led that survives, is cancelled: its cards (with the kitty
when it was the first trick) wait in ``carried`` for the next trick that is not cancelled, and
its leader leads again; a cancelled last trick leaves ``carried`` to nobody.

The details docs/rules.md leaves open are settled by the project's decisions
(``notes/rules-decisions.md``, ``notes/family-decisions.md``, ``notes/domino-decisions.md``,
``notes/cancellation-decisions.md``); the docstrings below say which reading each one follows.

Cards are indices (``13 * suit + rank``, see :mod:`hearts_env.core.cards`); seat ``i + 1`` sits to
the left of seat ``i`` and plays after it.
"""

from __future__ import annotations

import operator
from collections import Counter
from collections.abc import Callable

from hearts_env.core.cards import (
    CLUBS,
    HEARTS,
    JOKERS,
    NUM_RANKS,
    NUM_STANDARD_CARDS,
    SPADES,
    card_name,
    cards_of,
    parse_card,
)
from hearts_env.core.rules import PASS_DIRECTIONS, SUIT_LETTERS, Rules

QUEEN_OF_SPADES = parse_card("QS")
KING_OF_SPADES = parse_card("KS")
ACE_OF_SPADES = parse_card("AS")
QUEEN_OF_HEARTS = parse_card("QH")
QUEEN_OF_CLUBS = parse_card("QC")
QUEEN_OF_DIAMONDS = parse_card("QD")
TEN_OF_DIAMONDS = parse_card("TD")

SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")

PHASE_PASS = "pass"
PHASE_DECLARE = "declare"
PHASE_BID = "bid"
PHASE_NAME_SUIT = "name_suit"
PHASE_PLAY = "play"
PHASE_MOON_CHOICE = "moon_choice"
PHASE_DONE = "done"
DECISION_PHASES = (PHASE_DECLARE, PHASE_BID, PHASE_NAME_SUIT, PHASE_MOON_CHOICE)


def _names(cards: set[int] | list[int]) -> str:
    """Card names, lowest first, for error messages: ``"2C 5H QS"``."""
    return " ".join(card_name(c) for c in sorted(cards)) or "-"


def _suit(card: int) -> int | None:
    """Suit of a card; ``None`` for a joker (it has none)."""
    return card // NUM_RANKS if card < NUM_STANDARD_CARDS else None


def _is_heart(card: int) -> bool:
    return _suit(card) == HEARTS


def _is_joker(card: int) -> bool:
    return card in JOKERS


class ReferenceDeal:
    """One deal of a Hearts-family game, played one decision at a time.

    Attributes read by the differential test:

    * ``phase`` — ``"pass"``, ``"declare"``, ``"bid"``, ``"name_suit"``, ``"play"``,
      ``"moon_choice"`` or ``"done"``;
    * ``current_player`` — the seat to act (``-1`` once the deal is done);
    * ``hands`` — current hands (during passing, chosen cards stay in the hand until the
      exchange);
    * ``taken`` — cards won in tricks, plus the kitty (widow) for the winner of the first trick;
    * ``tricks_won`` — tricks won per seat;
    * ``raw_points`` — at ``"done"`` (and ``"moon_choice"``): points of the cards taken (royal
      scoring applied; in Auction Hearts the penalty suit's cards, without the bid), before the
      Général, the moons and the no-trick bonus; ``None`` before;
    * ``deal_points`` — at ``"done"``: the deal's final points; ``None`` before;
    * ``team_points`` — at ``"done"``: per seat, his team's points (family-decisions.md): the
      sum of the final deal points of his fixed team (``rules.teams``), for the slam pair of
      Partnership C the points each of them scores (already their sum), for a player without a
      partner his own deal points; ``None`` before;
    * ``moon_shooter`` — at ``"done"`` (from ``"moon_choice"`` on): the seat whose individual
      moon (or slam) was scored, else ``None`` (always ``None`` when ``rules.moon == "none"``,
      when a Général was declared, and with ``team_scoring="sum"``, where ``moon_team`` says
      which team took every penalty card);
    * ``cancelled`` — ``True`` when ``first_trick_all_penalty="redeal"`` cancelled the deal at
      the start of play: the phase is then ``"done"`` at once, nobody plays, every seat's
      ``deal_points`` (and ``raw_points``, ``team_points``) are 0 and ``moon_shooter`` is ``None``.

    The public decisions (docs/rules.md):

    * ``decisions`` — every decision other than a card, in order: ``(seat, action_name)``
      (``"pass"``, ``"general"``, ``"bid:5"``, ``"slam"``, ``"suit:S"``, ``"moon:add"`` …);
    * ``declarer`` — Chasse-cœur: the seat that declared Général, else ``None``;
    * ``bidder`` — Partnership C: the seat that bid the slam, else ``None``;
    * ``silent_partner`` — Partnership C: the holder of 10♦ when the slam was bid (``None``
      without a bid, when the bidder holds 10♦ himself, or when 10♦ is not in play);
    * ``auction_winner`` and ``winning_bid`` — Auction Hearts: the highest bidder and his bid
      (``None`` and 0 before eldest hand's opening bid);
    * ``penalty_suit`` — Auction Hearts: the suit (0 ♣ … 3 ♠) whose cards score, once the
      winner has named it; ``None`` otherwise;
    * ``moon_choice`` — ``moon="shooter_choice"``: the shooter's decision (``"moon:add"`` or
      ``"moon:subtract"``), else ``None``;
    * ``moon_team`` — ``team_scoring="sum"``: the team index (into ``rules.teams``) whose
      players took every penalty card, else ``None``.

    Further state, handy in tests: ``card_points`` (this deal's points per card: the rules'
    values, or 1 for each card of the penalty suit named in Auction Hearts), ``trick`` (the
    ``(seat, card)`` plays of the trick in progress), ``lead_suit``, ``hearts_broken``,
    ``tricks_played``, ``completed_tricks`` (one ``(plays, winner)`` per finished trick),
    ``voids`` (per seat, the suits it has shown void in: it did not follow the suit led; a
    joker never shows a void), ``pass_chosen`` (cards chosen so far per seat), ``kitty_taker``,
    and for ``first_trick_all_penalty``: ``all_penalty_seats`` (the seats whose hand held only
    penalty cards at the start of play; the rule is triggered when it is not empty),
    ``uncounted`` (``"not_counted"``: the first trick's penalty cards, which score nothing),
    ``set_aside`` (``"to_lowest"``: the first trick's cards, held apart during the deal) and
    ``set_aside_receiver`` (the seat they went to when the deal ended).

    Domino Hearts (``rules.stock_deal``; notes/domino-decisions.md), empty or unchanging in the
    other variants:

    * ``stock`` — the cards still in the stock, in draw order (the next card drawn first); at
      the end of the deal what was left went to ``stock_taker`` and the stock is empty;
    * ``drawn`` — per seat, the cards it drew this deal, in draw order;
    * ``draws`` — every automatic draw, in order: ``(seat, cards drawn)``, one entry per turn
      on which the seat drew (until a card of the suit led came, or the stock was empty);
    * ``out`` — per seat, ``True`` once it has played its last card (it has dropped out: the
      turn skips it, it never draws); in the other variants every seat is out after the last
      trick. The last holder of cards, whose hand is added to his tricks, is never out;
    * ``trick_size`` — the number of cards the trick in progress will hold: the players in when
      it was led (``num_players`` in the other variants);
    * ``last_holder`` — at the end: the one player still in, who added his remaining hand
      (``end_hand``) and the remaining stock to the cards he took; ``None`` when nobody was in;
    * ``stock_taker`` and ``end_stock`` — at the end: the seat that took the remaining stock
      (the last holder, or when nobody was in the winner of the last trick) and those cards in
      draw order (possibly none); ``None`` and empty in the other variants.

    ``current_player`` is the seat to act once the automatic draws have happened: when a seat's
    turn to follow comes, its draws are done before control returns, so ``hands`` and
    ``legal_actions()`` already hold the drawn cards.

    Two decks (``rules.decks == 2``, Cancellation Hearts; notes/cancellation-decisions.md):

    * ``two_decks`` — ``True`` (``False`` with one deck);
    * ``hands`` and ``taken`` are sorted lists of card indices, a card twice when both copies
      are there (one deck: sets); ``pass_chosen`` may name a card twice (both copies chosen);
      ``kitty`` is sorted and may repeat a card too;
    * ``completed_tricks`` — a cancelled trick's winner is ``None``; ``tricks_won`` counts only
      the tricks that were not cancelled (a cancelled trick is a trick played, won by nobody);
    * ``trick_pairs`` — per completed trick, the cards (identities, sorted) whose two copies fell
      in it and cancelled each other (``[]`` for every trick with one deck);
    * ``cancelled_tricks`` — ``(trick index, reason)`` for each cancelled trick, ``reason``
      ``"two_pairs"`` (two or more cancelled pairs) or ``"nothing_survives"`` (no card of the
      suit led is left that is not cancelled; checked after the pairs);
    * ``carried`` — sorted, the cards set aside by cancelled tricks (with the kitty, when the
      first trick was cancelled) that wait for the winner of the next trick not cancelled; once
      the deal is done, the cards that went to nobody (the last trick was cancelled);
    * ``kitty_taker`` — the winner of the first trick that was not cancelled (he took the
      kitty), ``None`` without a kitty or when every trick was cancelled.

    ``cancelled`` stays the flag of a redealt deal (``first_trick_all_penalty="redeal"``), which
    two decks do not have: it says nothing about cancelled tricks.
    """

    def __init__(
        self,
        rules: Rules,
        hands: list[list[int]],
        dealer: int,
        pass_direction: str,
        totals: list[int] | None = None,
        kitty: list[int] | None = None,
        stock: list[int] | None = None,
    ) -> None:
        """Set up a deal from the hands as dealt (before passing).

        ``totals`` are the game totals before this deal (``moon="auto_choice"`` and Royal
        Hearts' Q♦ read them); ``kitty`` holds the leftover cards (the widow) when
        ``rules.leftover == "kitty"``;
        ``stock`` the cards of the stock in draw order (the first drawn first), required in
        Domino Hearts (``rules.stock_deal``: the hands hold ``stock_deal`` cards each and the
        stock every other card of the deck) and not allowed in the other variants.
        Raises ``ValueError`` for a malformed deal, before any state exists.
        """
        n = rules.num_players
        self.rules = rules
        self.num_players = n
        self.dealer = operator.index(dealer)
        self.pass_direction = pass_direction
        self.two_decks = rules.decks == 2
        self.kitty: list[int] = sorted(int(c) for c in (kitty or []))
        self.totals: list[int] = list(totals) if totals is not None else [0] * n
        self.stock: list[int] = [int(c) for c in stock] if stock is not None else []
        self._validate(hands, stock is not None)

        self.action_index: dict[str, int] = {name: i for i, name in enumerate(rules.action_names)}
        self.card_points: tuple[int, ...] = rules.card_points
        # One deck: sets of cards; two decks: sorted lists, a card twice for both copies.
        self.hands: list[set[int]] | list[list[int]]
        self.taken: list[set[int]] | list[list[int]]
        if self.two_decks:
            self.hands = [sorted(int(c) for c in hand) for hand in hands]
            self.taken = [[] for _ in range(n)]
        else:
            self.hands = [{int(c) for c in hand} for hand in hands]
            self.taken = [set() for _ in range(n)]
        self.carried: list[int] = []
        self.trick_pairs: list[list[int]] = []
        self.cancelled_tricks: list[tuple[int, str]] = []
        self.tricks_won: list[int] = [0] * n
        self.raw_points: list[int] | None = None
        self.deal_points: list[int] | None = None
        self.team_points: list[int] | None = None
        self.moon_shooter: int | None = None
        self.cancelled = False
        self.all_penalty_seats: list[int] = []
        self.uncounted: set[int] = set()
        self.set_aside: set[int] = set()
        self.set_aside_receiver: int | None = None

        self.decisions: list[tuple[int, str]] = []
        self.declarer: int | None = None
        self.bidder: int | None = None
        self.silent_partner: int | None = None
        self.auction_winner: int | None = None
        self.winning_bid = 0
        self.penalty_suit: int | None = None
        self.moon_choice: str | None = None
        self.moon_team: int | None = None
        self.opening_leader: int | None = None
        """The seat that leads the first trick with any card (the auction winner, the slam
        bidder); ``None``: the ``first_lead`` rule."""

        self.pass_chosen: list[list[int]] = [[] for _ in range(n)]
        self.trick: list[tuple[int, int]] = []
        self.completed_tricks: list[tuple[list[tuple[int, int]], int]] = []
        self.tricks_played = 0
        self.hearts_broken = False
        self.kitty_taker: int | None = None
        self.voids: list[set[int]] = [set() for _ in range(n)]
        self.trick_size = n

        self.drawn: list[list[int]] = [[] for _ in range(n)]
        self.draws: list[tuple[int, list[int]]] = []
        self.out: list[bool] = [False] * n
        self.last_holder: int | None = None
        self.end_hand: list[int] = []
        self.stock_taker: int | None = None
        self.end_stock: list[int] = []

        self.eldest = (dealer + 1) % n
        if pass_direction == "hold" or rules.pass_count == 0:
            self._start_play()
        else:
            self.phase = PHASE_PASS
            self.current_player = self.eldest

    # ------------------------------------------------------------------ validation

    def _validate(self, hands: list[list[int]], stock_given: bool) -> None:
        """Reject a malformed deal (docs/rules.md) with a clear message."""
        rules, n = self.rules, self.num_players
        if rules.stock_deal is None and self.stock:
            raise ValueError(
                f"{rules.preset} has no stock: only Domino Hearts (stock_deal) deals take one, "
                f"got {len(self.stock)} cards"
            )
        if rules.stock_deal is not None and not stock_given:
            raise ValueError(
                f"{rules.preset} needs a stock: the {rules.stock_size} cards left after the hands "
                f"of {rules.stock_deal}, in draw order"
            )
        if not 0 <= self.dealer < n:
            raise ValueError(f"dealer must be a seat in 0..{n - 1}, got {self.dealer!r}")
        if self.pass_direction not in PASS_DIRECTIONS:
            raise ValueError(
                f"pass_direction={self.pass_direction!r} is not known: choose one of "
                f"{', '.join(PASS_DIRECTIONS)}"
            )
        if self.pass_direction == "across" and n % 2:
            raise ValueError(f"cannot pass 'across' with {n} players: there is no seat opposite")
        if len(hands) != n:
            raise ValueError(f"need {n} hands (one per seat), got {len(hands)}")
        if len(self.totals) != n:
            raise ValueError(f"need {n} totals (one per seat), got {len(self.totals)}")
        for seat, hand in enumerate(hands):
            if len(hand) != rules.hand_size:
                raise ValueError(
                    f"seat {seat} holds {len(hand)} cards; every hand must hold {rules.hand_size}"
                )
        expected_kitty = rules.kitty_size if rules.leftover == "kitty" else 0
        if len(self.kitty) != expected_kitty:
            held = f": {_names(self.kitty)}" if self.two_decks and self.kitty else ""
            raise ValueError(f"the kitty must hold {expected_kitty} cards, got {len(self.kitty)}{held}")
        if len(self.stock) != rules.stock_size:
            raise ValueError(
                f"the stock must hold {rules.stock_size} cards (the deck less the hands), "
                f"got {len(self.stock)}"
            )
        in_hands = [int(c) for hand in hands for c in hand]
        dealt = in_hands + self.kitty + self.stock
        for c in dealt:
            if not 0 <= c < NUM_STANDARD_CARDS + len(JOKERS):
                raise ValueError(f"card {c} is not a card index (0..51, jokers 52 and 53)")
        if self.two_decks:
            self._validate_copies(dealt)
            return
        both = set(in_hands) & set(self.stock)
        if both:
            raise ValueError(f"cards both in a hand and in the stock: {_names(both)}")
        repeated = {c for c in dealt if dealt.count(c) > 1}
        if repeated:
            where = " or in the stock" if self.stock else ""
            raise ValueError(f"cards dealt twice{where}: {_names(repeated)}")
        deck = set(rules.deck.cards)
        extra, missing = set(dealt) - deck, deck - set(dealt)
        if extra:
            raise ValueError(f"cards not in this deck were dealt: {_names(extra)}")
        if missing:
            where = " (neither to a hand nor to the stock)" if rules.stock_deal is not None else ""
            raise ValueError(f"cards of the deck were not dealt{where}: {_names(missing)}")

    def _validate_copies(self, dealt: list[int]) -> None:
        """Two decks: every card of the deck dealt exactly twice over the hands and the kitty
        (a hand may hold both copies); the message names each card that is wrong."""
        deck, counts = Counter(self.rules.deck.cards), Counter(dealt)
        extra = {c for c in counts if c not in deck}
        if extra:
            raise ValueError(f"cards not in this deck were dealt: {_names(extra)}")
        over = sorted(c for c in counts if counts[c] > deck[c])
        if over:
            raise ValueError(
                "cards dealt more than twice (two decks hold every card twice, over the hands and "
                "the kitty): " + ", ".join(f"{card_name(c)} {counts[c]} times" for c in over)
            )
        missing = sorted(c for c in deck if counts[c] < deck[c])
        if missing:
            raise ValueError(
                "cards of the two decks were not dealt twice (over the hands and the kitty): "
                + ", ".join(f"{card_name(c)} {counts[c]} times" for c in missing)
            )

    # ------------------------------------------------------------------ public interface

    @property
    def leader(self) -> int | None:
        """Seat that led the trick in progress (``None`` before its first card)."""
        return self.trick[0][0] if self.trick else None

    @property
    def lead_suit(self) -> int | None:
        """Suit led in the trick in progress: that of its first card that is not a joker
        (``None`` when leading, and while only jokers have been played to it)."""
        return next((_suit(c) for _, c in self.trick if not _is_joker(c)), None)

    @property
    def is_first_trick(self) -> bool:
        return self.tricks_played == 0

    def legal_actions(self) -> list[int]:
        """The actions (card indices, then decision indices into ``rules.action_names``) the
        current player may choose now, sorted; empty once the deal is done."""
        if self.phase == PHASE_DONE:
            return []
        if self.phase == PHASE_PASS:
            return sorted(self._passable(self.current_player))
        if self.phase == PHASE_PLAY:
            allowed, _ = self._legal_play(self.current_player)
            return sorted(allowed)
        return sorted(self.action_index[name] for name in self._legal_decisions())

    def step(self, action: int) -> None:
        """Play (or, while passing, choose to pass) a card, or make a decision, for the current
        player. ``action`` is an index into ``rules.action_names`` (a card index for a card).

        Raises ``ValueError`` naming the seat, the card or decision and the reason when it is
        not legal; the state is then unchanged.
        """
        if self.phase == PHASE_DONE:
            raise ValueError("the deal is over: no more actions")
        action = self._as_action(action)
        seat = self.current_player
        name = self.rules.action_names[action]
        is_card = action < self.rules.card_slots
        if self.phase in DECISION_PHASES:
            if is_card:
                raise ValueError(
                    f"seat {seat} cannot play {name}: the {self.phase} phase asks for a decision "
                    f"(legal: {self._legal_names()})"
                )
            self._decide(seat, name)
        elif not is_card:
            raise ValueError(
                f"seat {seat} cannot choose {name}: the {self.phase} phase asks for a card "
                f"(legal: {_names(set(self.legal_actions()))})"
            )
        elif self.phase == PHASE_PASS:
            self._choose_pass_card(seat, action)
        else:
            self._play_card(seat, action)

    # ------------------------------------------------------------------ passing

    def _passable(self, seat: int) -> set[int]:
        """Cards ``seat`` may still choose to pass: in hand and not chosen yet (two decks: the
        hand holds more copies of the card than are chosen already)."""
        if self.two_decks:
            hand, chosen = self.hands[seat], self.pass_chosen[seat]
            return {c for c in set(hand) if hand.count(c) > chosen.count(c)}
        return self.hands[seat] - set(self.pass_chosen[seat])

    def _choose_pass_card(self, seat: int, card: int) -> None:
        if card not in self.hands[seat]:
            raise ValueError(f"seat {seat} cannot pass {card_name(card)}: it is not in the hand")
        if card not in self._passable(seat):
            held = self.hands[seat].count(card) if self.two_decks else 1
            copies = f" (the hand holds {held} copies, both chosen)" if held > 1 else ""
            raise ValueError(f"seat {seat} cannot pass {card_name(card)}: it is already chosen{copies}")
        self.pass_chosen[seat].append(card)
        if len(self.pass_chosen[seat]) < self.rules.pass_count:
            return
        next_seat = (seat + 1) % self.num_players
        if next_seat != self.eldest:
            self.current_player = next_seat
            return
        self._exchange()
        self._start_play()

    def _exchange(self) -> None:
        """Every seat gives its chosen cards to ``(seat + offset) % n`` at the same time."""
        n = self.num_players
        offset = self.rules.pass_offset(self.pass_direction)
        if self.two_decks:  # one copy per choice
            for seat in range(n):
                for card in self.pass_chosen[seat]:
                    self.hands[seat].remove(card)
            for seat in range(n):
                self.hands[(seat + offset) % n] = sorted(
                    self.hands[(seat + offset) % n] + self.pass_chosen[seat]
                )
            return
        for seat in range(n):
            self.hands[seat] -= set(self.pass_chosen[seat])
        for seat in range(n):
            self.hands[(seat + offset) % n] |= set(self.pass_chosen[seat])

    # ------------------------------------------------------------------ decisions before the first lead

    def _legal_decisions(self) -> list[str]:
        """The names of the decisions the current player may make now (decision phases)."""
        if self.phase == PHASE_DECLARE:
            return ["pass", "general" if self.rules.bidding == "general" else "slam"]
        if self.phase == PHASE_BID:  # eldest hand opens the auction: he may not pass
            opening = [] if self.current_player == self.eldest else ["pass"]
            return opening + [f"bid:{n}" for n in range(self.winning_bid + 1, self.rules.max_bid + 1)]
        if self.phase == PHASE_NAME_SUIT:
            return [f"suit:{letter}" for letter in SUIT_LETTERS]
        if self.phase == PHASE_MOON_CHOICE:
            return ["moon:add", "moon:subtract"]
        return []

    def _legal_names(self) -> str:
        return " ".join(self.rules.action_names[a] for a in self.legal_actions()) or "-"

    def _why_not(self, name: str) -> str:
        """Why the decision ``name`` is not legal now (for the error message)."""
        if self.phase == PHASE_BID and name.startswith("bid:"):
            by = (
                f" (bid:{self.winning_bid} by seat {self.auction_winner})"
                if self.auction_winner is not None
                else ""
            )
            return f"a bid must be higher than the highest bid so far{by}"
        if name.startswith("suit:"):
            if self.phase == PHASE_BID:
                return "only the auction winner names the penalty suit, once everyone has bid"
            return "only the auction winner names the penalty suit, right after the bidding"
        if name.startswith("moon:"):
            return "only a moon shooter chooses, after the last trick"
        if self.phase == PHASE_BID and name == "pass":
            return "eldest hand must open the auction with a bid"
        return {
            PHASE_DECLARE: "the declaration round asks for pass or a declaration",
            PHASE_BID: "the auction asks for pass or a higher bid",
            PHASE_NAME_SUIT: "the auction winner must name the penalty suit",
            PHASE_MOON_CHOICE: "the moon shooter must choose moon:add or moon:subtract",
        }[self.phase]

    def _decide(self, seat: int, name: str) -> None:
        if name not in self._legal_decisions():
            raise ValueError(
                f"seat {seat} cannot choose {name}: {self._why_not(name)} (legal: {self._legal_names()})"
            )
        self.decisions.append((seat, name))
        if self.phase == PHASE_DECLARE:
            self._declare(seat, name)
        elif self.phase == PHASE_BID:
            self._bid(seat, name)
        elif self.phase == PHASE_NAME_SUIT:
            self._name_suit(SUIT_LETTERS.index(name[-1]))
        else:
            self.moon_choice = name
            raw, shooter = self.raw_points, self.moon_shooter
            self._finish(self._moon_points("old" if name == "moon:add" else "new", raw, shooter))

    def _start_decisions(self) -> None:
        """The decisions before the first lead, from eldest hand; none: play begins."""
        if self.rules.bidding == "none":
            self._begin_play()
            return
        self.phase = PHASE_BID if self.rules.bidding == "auction" else PHASE_DECLARE
        self.current_player = self.eldest

    def _declare(self, seat: int, name: str) -> None:
        """Général or slam: the first declaration closes the round; P passes, plain play.
        A slam bidder leads the first trick; 10♦'s holder becomes his silent partner."""
        if name == "pass":
            next_seat = (seat + 1) % self.num_players
            if next_seat == self.eldest:
                self._begin_play()
            else:
                self.current_player = next_seat
            return
        if name == "general":
            self.declarer = seat
        else:
            self.bidder = seat
            self.opening_leader = seat
            holder = next((s for s, hand in enumerate(self.hands) if TEN_OF_DIAMONDS in hand), None)
            self.silent_partner = holder if holder != seat else None
        self._begin_play()

    def _bid(self, seat: int, name: str) -> None:
        """One bid each, eldest hand (who must bid) to the dealer; then the winner names the
        suit."""
        if name != "pass":
            self.winning_bid = int(name.split(":")[1])
            self.auction_winner = seat
        if seat != self.dealer:
            self.current_player = (seat + 1) % self.num_players
        else:
            self.phase = PHASE_NAME_SUIT
            self.current_player = self.auction_winner

    def _name_suit(self, suit: int) -> None:
        """Only the penalty suit's cards score, 1 each; the auction's winner leads any card."""
        self.penalty_suit = suit
        self.card_points = tuple(
            1 if c < NUM_STANDARD_CARDS and c // NUM_RANKS == suit else 0
            for c in range(len(self.card_points))
        )
        self.opening_leader = self.auction_winner
        self._begin_play()

    # ------------------------------------------------------------------ play

    def _is_penalty(self, card: int) -> bool:
        """A penalty card: one worth positive points this deal."""
        return self.card_points[card] > 0

    def _start_play(self) -> None:
        """After the exchange (or the deal, without a pass): note the hands of only penalty
        cards, cancel the deal for ``"redeal"`` when there is one, else the decisions before
        the first lead (if the variant has any) and the first lead."""
        self.all_penalty_seats = [
            seat for seat, hand in enumerate(self.hands) if all(self._is_penalty(c) for c in hand)
        ]
        if self.all_penalty_seats and self.rules.first_trick_all_penalty == "redeal":
            self._cancel()
            return
        self._start_decisions()

    def _begin_play(self) -> None:
        self.phase = PHASE_PLAY
        self.current_player = self._first_leader()

    def _cancel(self) -> None:
        """``"redeal"``: nobody plays, nobody scores, no moon; the deal is flagged cancelled."""
        self.cancelled = True
        self.phase = PHASE_DONE
        self.current_player = -1
        self.raw_points = [0] * self.num_players
        self.deal_points = [0] * self.num_players
        self.team_points = [0] * self.num_players
        self.moon_shooter = None

    def _first_club(self) -> int:
        """The club that decides the first leader: ``rules.lowest_club`` if it was dealt to a
        player, otherwise (it lies in the kitty) the lowest club any player holds."""
        if any(self.rules.lowest_club in hand for hand in self.hands):
            return self.rules.lowest_club
        held_clubs = [c for hand in self.hands for c in hand if _suit(c) == CLUBS]
        if not held_clubs:
            raise ValueError("no player holds a club, so no one can make the first lead")
        return min(held_clubs)

    def _first_lead_rule(self) -> str:
        """``rules.first_lead``, or ``"eldest"`` (any card) when an opening leader leads."""
        return "eldest" if self.opening_leader is not None else self.rules.first_lead

    def _first_leader(self) -> int:
        if self.opening_leader is not None:
            return self.opening_leader
        if self.rules.first_lead == "eldest":
            return self.eldest
        club = self._first_club()  # with two decks its holder nearest the dealer's left
        n = self.num_players
        return next(s % n for s in range(self.eldest, self.eldest + n) if club in self.hands[s % n])

    def _legal_play(self, seat: int) -> tuple[set[int], dict[int, str]]:
        """The cards ``seat`` may play now, and why each other card in hand may not be played.

        The restrictions are applied in order (each may only narrow the set):
        lead / follow, ``no_heart_lead_first_trick``, the first-trick penalty ban,
        ``discard_first``, ``club_play``. Then every joker in hand is added: a joker is always
        legal. In the restrictions a joker is an ordinary card of the hand that belongs to no
        suit and scores nothing: a hand of hearts and a joker does not hold "only hearts", a
        joker is a card other than a penalty card (family-decisions.md: "in addition to the
        cards the other rules allow"). After a joker lead (no suit yet) the next player is not
        leading: any card, subject to the first-trick penalty ban only.
        """
        rules = self.rules
        hand = set(self.hands[seat])  # the identities held (two decks: a copy or both)
        why_not: dict[int, str] = {}

        def narrow(allowed: set[int], keep: set[int], reason: str) -> set[int]:
            for c in allowed - keep:
                why_not[c] = reason
            return allowed & keep

        leading = not self.trick
        first_lead = self._first_lead_rule()
        lead_suit = self.lead_suit
        void_in_lead = False
        if leading and self.is_first_trick and first_lead == "lowest_club":
            club = self._first_club()
            allowed = narrow(set(hand), {club}, f"the first lead must be {card_name(club)}")
        elif leading and self.is_first_trick and first_lead == "any_club":
            clubs = {c for c in hand if _suit(c) == CLUBS}
            allowed = narrow(set(hand), clubs, "the first lead must be a club")
        elif leading:
            allowed = self._leadable(hand, narrow)
        elif lead_suit is None:  # only jokers so far: no suit to follow
            allowed = set(hand)
        else:
            following = {c for c in hand if _suit(c) == lead_suit}
            void_in_lead = not following
            if following:
                allowed = narrow(set(hand), following, f"must follow suit ({SUIT_NAMES[lead_suit]} led)")
            else:
                allowed = set(hand)

        if leading and self.is_first_trick and rules.no_heart_lead_first_trick:
            # On top of every other lead rule (hearts_break="free" too): no heart unless the
            # hand holds only hearts. The lead rules above always leave a non-heart in that case.
            if any(not _is_heart(c) for c in hand):
                non_hearts = {c for c in allowed if not _is_heart(c)}
                allowed = narrow(allowed, non_hearts, "no heart may be led to the first trick")

        if self.is_first_trick and rules.no_points_first_trick:
            harmless = {c for c in allowed if self.card_points[c] <= 0}
            if harmless:
                allowed = narrow(allowed, harmless, "no penalty card on the first trick")

        if void_in_lead and rules.discard_first is not None and rules.discard_first in allowed:
            first = rules.discard_first
            allowed = narrow(allowed, {first}, f"void in the suit led: {card_name(first)} goes first")

        if rules.club_play and QUEEN_OF_SPADES in allowed:
            spade_headed = lead_suit == SPADES and any(
                c in (ACE_OF_SPADES, KING_OF_SPADES) for _, c in self.trick
            )
            if void_in_lead or spade_headed:
                allowed = narrow(allowed, {QUEEN_OF_SPADES}, "club play: QS must be played now")

        return allowed | {c for c in hand if _is_joker(c)}, why_not

    def _leadable(self, hand: set[int], narrow: Callable[[set[int], set[int], str], set[int]]) -> set[int]:
        """Cards the leader may lead (not the forced first lead): the hearts-break rule."""
        rules = self.rules
        if rules.hearts_break == "free" or self.hearts_broken:
            return set(hand)
        blocked = {c for c in hand if _is_heart(c)}
        if rules.queen_needs_break:
            blocked |= {QUEEN_OF_SPADES} & hand
        non_hearts = {c for c in hand if not _is_heart(c)}
        if rules.lead_hearts_if_only_queen and non_hearts == {QUEEN_OF_SPADES}:
            return set(hand)
        if blocked == hand:  # nothing else to lead
            return set(hand)
        what = "hearts or QS" if rules.queen_needs_break else "hearts"
        return narrow(set(hand), hand - blocked, f"{what} may not be led before hearts are broken")

    def _play_card(self, seat: int, card: int) -> None:
        if card not in self.hands[seat]:
            raise ValueError(f"seat {seat} cannot play {card_name(card)}: it is not in the hand")
        allowed, why_not = self._legal_play(seat)
        if card not in allowed:
            raise ValueError(
                f"seat {seat} cannot play {card_name(card)}: {why_not[card]} (legal: {_names(allowed)})"
            )
        lead_suit = self.lead_suit
        if lead_suit is not None and not _is_joker(card) and _suit(card) != lead_suit:
            self.voids[seat].add(lead_suit)
        if not self.trick:  # the players in now (the leader too) each play one card to it
            self.trick_size = len(self._seats_in())
        self.hands[seat].remove(card)
        if not self.hands[seat]:
            self.out[seat] = True
        self.trick.append((seat, card))
        if _is_heart(card) or (self.rules.hearts_break == "heart_or_queen" and card == QUEEN_OF_SPADES):
            self.hearts_broken = True
        if len(self.trick) < self.trick_size:
            self.current_player = self._next_in(seat)
            self._draw_to_follow(self.current_player)
        else:
            self._finish_trick()

    def _seats_in(self) -> list[int]:
        """The seats still holding cards (in Domino Hearts: not dropped out)."""
        return [seat for seat in range(self.num_players) if self.hands[seat]]

    def _next_in(self, seat: int) -> int:
        """The first seat on the left of ``seat`` that still holds cards (the turn skips the
        players who are out); ``seat`` itself when nobody else does."""
        n = self.num_players
        return next((s % n for s in range(seat + 1, seat + n) if self.hands[s % n]), seat)

    def _draw_to_follow(self, seat: int) -> None:
        """Domino Hearts: a follower without a card of the suit led draws from the top of the
        stock, one card at a time, until he draws one of that suit or the stock is empty. (No
        suit led yet — only jokers played — means nothing to follow: no draw.)"""
        lead_suit = self.lead_suit
        if not self.stock or lead_suit is None:
            return
        if any(_suit(c) == lead_suit for c in self.hands[seat]):
            return
        cards: list[int] = []
        while self.stock:
            card = self.stock.pop(0)
            cards.append(card)
            if _suit(card) == lead_suit:
                break
        self.hands[seat].update(cards)
        self.drawn[seat].extend(cards)
        self.draws.append((seat, cards))

    def _finish_trick(self) -> None:
        """The highest card of the suit led wins (a joker never does); the winner takes the
        cards and leads next (in Domino Hearts, when he is out, the next player on his left
        still in leads). The deal ends when at most one player still holds cards: in the
        other variants that is after the last trick, when every hand is empty; in Domino Hearts
        the one player still in (if any) adds his hand and the remaining stock to his tricks,
        and when nobody is in the remaining stock goes to the winner of this last trick."""
        if self.two_decks:
            self._finish_two_deck_trick()
            return
        self.trick_pairs.append([])
        lead_suit = self.lead_suit
        winner, _ = max(((s, c) for s, c in self.trick if _suit(c) == lead_suit), key=lambda sc: sc[1])
        cards = {c for _, c in self.trick}
        rule = self.rules.first_trick_all_penalty if self.all_penalty_seats else "play"
        if self.is_first_trick and rule == "to_lowest":
            self.set_aside = cards  # counts as a trick won, but the cards are nobody's yet
        else:
            self.taken[winner].update(cards)
        if self.is_first_trick and rule == "not_counted":
            self.uncounted = {c for c in cards if self._is_penalty(c)}
        self.tricks_won[winner] += 1
        if self.is_first_trick and self.kitty:
            self.taken[winner].update(self.kitty)
            self.kitty_taker = winner
        self.completed_tricks.append((self.trick, winner))
        self.trick = []
        self.tricks_played += 1
        seats_in = self._seats_in()
        if len(seats_in) > 1:
            self.current_player = winner if self.hands[winner] else self._next_in(winner)
            return
        if self.rules.stock_deal is not None:
            self._take_the_rest(seats_in[0] if seats_in else None, winner)
        self._score()

    def _finish_two_deck_trick(self) -> None:
        """Two decks (notes/cancellation-decisions.md), judged when the trick is complete: both
        copies of a card in the trick cancel each other. Two or more such pairs, or no card of
        the suit led left that is not cancelled: the whole trick is cancelled; its cards join
        ``carried`` (with the kitty, when it is the first trick), nobody wins it, and its leader
        leads the next trick. Otherwise the highest card of the suit led that is not cancelled
        wins the trick, the cards it carries and (first winner) the kitty, and leads next.
        After the last trick whatever is still carried goes to nobody."""
        plays, lead_suit = self.trick, self.lead_suit
        counts = Counter(c for _, c in plays)
        pairs = sorted(c for c, k in counts.items() if k >= 2)
        survivors = [(s, c) for s, c in plays if _suit(c) == lead_suit and c not in pairs]
        self.trick_pairs.append(pairs)
        if self.is_first_trick and self.kitty:
            self.carried = sorted(self.carried + self.kitty)  # the kitty goes with the first trick
        self.carried = sorted(self.carried + [c for _, c in plays])
        if len(pairs) >= 2 or not survivors:
            reason = "two_pairs" if len(pairs) >= 2 else "nothing_survives"
            self.cancelled_tricks.append((self.tricks_played, reason))
            winner = None
            next_leader = plays[0][0]
        else:
            winner, _ = max(survivors, key=lambda sc: sc[1])
            self.taken[winner] = sorted(self.taken[winner] + self.carried)
            if self.kitty and self.kitty_taker is None:
                self.kitty_taker = winner
            self.carried = []
            self.tricks_won[winner] += 1
            next_leader = winner
        self.completed_tricks.append((plays, winner))
        self.trick = []
        self.tricks_played += 1
        if self._seats_in():
            self.current_player = next_leader
            return
        self._score()

    def _take_the_rest(self, last_holder: int | None, last_winner: int) -> None:
        """Domino Hearts, end of the deal: the last player in takes his hand and the stock;
        nobody in, the winner of the last trick takes the stock."""
        self.last_holder = last_holder
        self.stock_taker = last_winner if last_holder is None else last_holder
        if last_holder is not None:
            self.end_hand = sorted(self.hands[last_holder])
            self.taken[last_holder].update(self.end_hand)
            self.hands[last_holder] = set()
        self.end_stock, self.stock = self.stock, []
        self.taken[self.stock_taker].update(self.end_stock)

    # ------------------------------------------------------------------ scoring

    def _raw_score(self, cards: set[int]) -> int:
        """Points of a set of taken cards, before the moon and the no-trick bonus."""
        points = self.card_points
        if self.rules.scoring == "points":
            return sum(points[c] for c in cards)
        # Royal Hearts: hearts (doubled with Q♥), Q♠ unless cancelled by Q♣, then Q♦; the
        # first reading ("royal_deal_floor") floors the deal score at 0, the second floors the
        # game total instead (_lower_by_queen_of_diamonds).
        score = sum(points[c] for c in cards if _is_heart(c))
        if QUEEN_OF_HEARTS in cards:
            score *= 2
        if QUEEN_OF_SPADES in cards and QUEEN_OF_CLUBS not in cards:
            score += points[QUEEN_OF_SPADES]
        if QUEEN_OF_DIAMONDS in cards:
            score += points[QUEEN_OF_DIAMONDS]
        return max(score, 0) if self.rules.scoring == "royal_deal_floor" else score

    def _lower_by_queen_of_diamonds(self, points: list[int]) -> list[int]:
        """Royal Hearts (``scoring="royal"``, docs/rules.md): Q♦ "reduces the player's total
        score by 10 (but not below zero)": its taker's new total is max(0, old total + deal
        score), and his deal points are the change applied to his total. Readings: Q♦ never
        raises a total (one already below 0 without Q♦, after a ``moon:subtract``, keeps that
        value); a moon shooter's points are the moon's (his Q♦ is in the score he adds or
        subtracts)."""
        taker = next((s for s in range(self.num_players) if QUEEN_OF_DIAMONDS in self.counted(s)), None)
        if self.rules.scoring != "royal" or taker is None or taker == self.moon_shooter:
            return points
        if self.moon_shooter is not None and self.rules.moon in ("no_points", "slam"):
            return points  # the moon scored the others 0: Q♦ lowers nothing
        old = self.totals[taker]
        without_queen = old + points[taker] - self.card_points[QUEEN_OF_DIAMONDS]
        if without_queen < 0:
            new = without_queen
        else:
            new = max(0, without_queen + self.card_points[QUEEN_OF_DIAMONDS])
        points = list(points)
        points[taker] = new - old
        return points

    def counted(self, seat: int) -> set[int] | list[int]:
        """The cards ``seat`` took that score: all he took, less the ``uncounted`` ones (so an
        uncounted Q♥ or Q♠ has no Royal effect either). Two decks: every copy he took (a sorted
        list; two decks have no uncounted cards)."""
        if self.two_decks:
            return [c for c in self.taken[seat] if c not in self.uncounted]
        return self.taken[seat] - self.uncounted

    @property
    def penalty_total(self) -> int:
        """The deal's penalty total T: the positive points in play (``rules.penalty_total``, or
        the penalty suit's cards in Auction Hearts; with two decks every copy: 52 in
        Cancellation Hearts) less the points of the uncounted cards (``"not_counted"``); in
        Royal scoring the moon rules use the shooter's score."""
        if self.rules.scoring == "points":
            total = sum(max(self.card_points[c], 0) for c in self.rules.deck.cards)
        else:
            total = self.rules.penalty_total
        return total - sum(self.card_points[c] for c in self.uncounted)

    def _moon_cards(self) -> set[int]:
        """What a moon (a Général, a team moon) needs: every card of ``rules.moon_mask`` (this
        deal's penalty-suit cards in Auction Hearts) that counts this deal."""
        if self.penalty_suit is not None:
            cards = {c for c in self.rules.deck.cards if self._is_penalty(c)}
        else:
            cards = set(cards_of(self.rules.moon_mask))
        return cards - self.uncounted

    def _give_set_aside(self) -> None:
        """``"to_lowest"``: the set-aside first trick goes to the player with the lowest
        non-zero points without it (plain card sums, or Royal deal scores; ties: the lowest
        seat), or back to its winner when every player has 0."""
        without = [self._raw_score(taken) for taken in self.taken]
        candidates = [(p, seat) for seat, p in enumerate(without) if p != 0]
        receiver = min(candidates)[1] if candidates else self.completed_tricks[0][1]
        self.taken[receiver] |= self.set_aside
        self.set_aside_receiver = receiver

    def _taker_of_all(self, seats: list[list[int]]) -> int | None:
        """The index of the group of seats that together took every moon card; none if nothing
        is left to take."""
        moon_cards = self._moon_cards()
        if not moon_cards:
            return None
        if self.two_decks:  # every copy: both of each card (none may have gone to nobody)
            need = Counter(c for c in self.rules.deck.cards if c in moon_cards)
            for index, group in enumerate(seats):
                got = Counter(c for s in group for c in self.taken[s])
                if all(got[c] >= k for c, k in need.items()):
                    return index
            return None
        for index, group in enumerate(seats):
            if moon_cards <= set().union(*(self.taken[s] for s in group)):
                return index
        return None

    def _find_shooter(self) -> int | None:
        """The seat that took every card of ``rules.moon_mask`` that counts this deal (the
        uncounted cards are not needed); none if nothing is left to take."""
        if self.rules.moon == "none":
            return None
        return self._taker_of_all([[seat] for seat in range(self.num_players)])

    def _moon_points(self, moon: str, raw: list[int], shooter: int) -> list[int]:
        """Deal points after the moon rule ``moon`` when ``shooter`` shot the moon."""
        rules = self.rules
        total = self.penalty_total if rules.scoring == "points" else raw[shooter]
        others_get = rules.moon_points if rules.moon_points is not None else total
        if moon == "old":
            return [p - total if s == shooter else p + others_get for s, p in enumerate(raw)]
        if moon == "new":
            return [p - 2 * total if s == shooter else p for s, p in enumerate(raw)]
        if moon == "no_points":
            return [0] * len(raw)
        if moon == "slam":
            return [-self.penalty_total if s == shooter else 0 for s in range(len(raw))]
        if moon == "auto_choice":
            # Old moon, unless it would end the game without the shooter lowest (ties count
            # as lowest): then new moon.
            old = self._moon_points("old", raw, shooter)
            after = [t + p for t, p in zip(self.totals, old)]
            game_ends = any(t >= rules.target_score for t in after)
            shooter_lowest = after[shooter] == min(after)
            return self._moon_points("new", raw, shooter) if game_ends and not shooter_lowest else old
        raise ValueError(f"unknown moon rule {moon!r}")

    def _score(self) -> None:
        """The set-aside trick to its receiver, raw points, then one of: the Général (a
        declarer), the team moon (``team_scoring="sum"``), the moon rule (``"shooter_choice"``:
        the shooter's decision comes first) or the no-trick bonus."""
        self.current_player = -1
        if self.set_aside:
            self._give_set_aside()
        raw = [self._raw_score(self.counted(seat)) for seat in range(self.num_players)]
        self.raw_points = raw
        if self.declarer is not None:
            self._finish(self._general_points())
            return
        if self.rules.team_scoring == "sum":
            self._finish(self._team_moon_points(raw))
            return
        self.moon_shooter = self._find_shooter()
        if self.moon_shooter is None:
            bonus = self.rules.no_tricks_bonus
            self._finish([p + bonus if won == 0 else p for p, won in zip(raw, self.tricks_won)])
        elif self.rules.moon == "shooter_choice":
            self.phase = PHASE_MOON_CHOICE
            self.current_player = self.moon_shooter
        else:
            self._finish(self._moon_points(self.rules.moon, raw, self.moon_shooter))

    def _general_points(self) -> list[int]:
        """Chasse-cœur: a declarer who took every penalty card scores 0 and each opponent
        ``general_points``; otherwise he scores ``general_points`` and everyone else 0."""
        made = self._taker_of_all([[self.declarer]]) == 0
        g = self.rules.general_points
        return [
            (0 if made else g) if s == self.declarer else (g if made else 0) for s in range(self.num_players)
        ]

    def _team_moon_points(self, raw: list[int]) -> list[int]:
        """Partnership A: raw points, except when one team's players together took every
        penalty card: they score 0 each and each player of the other team(s) T."""
        self.moon_team = self._taker_of_all([list(team) for team in self.rules.teams])
        if self.moon_team is None:
            return list(raw)
        team_of, total = self.rules.team_of, self.penalty_total
        return [0 if team_of[s] == self.moon_team else total for s in range(self.num_players)]

    def _finish(self, points: list[int]) -> None:
        """Q♦'s floor (Royal Hearts), the auction winner's bid, the slam pair's sum; team
        points; the deal is done."""
        points = self._lower_by_queen_of_diamonds(list(points))
        if self.auction_winner is not None:
            points[self.auction_winner] += self.winning_bid
        if self.bidder is not None and self.silent_partner is not None:
            pair = points[self.bidder] + points[self.silent_partner]
            points[self.bidder] = points[self.silent_partner] = pair
        self.deal_points = points
        if self.rules.teams:
            team_of = self.rules.team_of
            self.team_points = [
                sum(p for s, p in enumerate(points) if team_of[s] == team_of[seat])
                for seat in range(len(points))
            ]
        else:
            self.team_points = list(points)
        self.phase = PHASE_DONE
        self.current_player = -1

    # ------------------------------------------------------------------ helpers

    def _as_action(self, action: int) -> int:
        """An ``int`` action index (numpy integers welcome); anything else is a ValueError."""
        try:
            index = operator.index(action)
        except TypeError:
            raise ValueError(f"seat {self.current_player}: {action!r} is not an action index") from None
        count = len(self.rules.action_names)
        if not 0 <= index < count:
            raise ValueError(
                f"seat {self.current_player}: action index {index} is out of range 0..{count - 1}"
            )
        return index


# ---------------------------------------------------------------------- settlements (chips)


def reference_settle(rules: Rules, deal: ReferenceDeal, pool: int) -> tuple[list[int], int]:
    """Chips per seat for one finished deal, and the pool after it: ``(chips, pool_after)``.

    ``pool`` is the pool carried in from the game's earlier deals (it may be negative after a
    1887 moon: the pool is then owed chips). Chips are whole numbers and
    ``sum(chips) + (pool_after - pool) == 0`` (for Howell: whenever the deal points add up to
    T, i.e. without bonus cards or a no-trick bonus). ``rules.settlement``:

    * ``"points"`` and ``"maria"`` — no chips per deal (Black Maria settles at the end of the
      game: :func:`reference_settle_game`);
    * ``"howell"`` — ``T - n * p`` for deal points ``p``, T the deal's penalty total;
    * ``"jackpot"`` — everyone pays his points into the pool; the players who took no penalty
      card share it in whole chips, the odd chips (or all of it, when nobody shares) stay;
    * ``"lowest_wins_chips"`` — Hoyle 1887 on the raw points, see :func:`_settle_1887`.

    A cancelled deal pays nothing and leaves the pool as it was.
    """
    if deal.phase != PHASE_DONE:
        raise ValueError("the deal is not over yet: settle it once its phase is 'done'")
    n = rules.num_players
    if deal.cancelled or rules.settlement in ("points", "maria"):
        return [0] * n, pool
    points = deal.deal_points
    if rules.settlement == "howell":
        return [deal.penalty_total - n * p for p in points], pool
    if rules.settlement == "jackpot":
        return _settle_jackpot(rules, deal, pool)
    if rules.settlement == "lowest_wins_chips":
        return _settle_1887(rules, deal, pool)
    raise ValueError(f"unknown settlement {rules.settlement!r}")


def _settle_jackpot(rules: Rules, deal: ReferenceDeal, pool: int) -> tuple[list[int], int]:
    """Foster's Jackpot: pot = pool + sum of the deal points; the players who took no penalty
    card (not even an uncounted one) each get ``pot // m``; ``pot % m`` stays in the pool."""
    points = deal.deal_points
    pot = pool + sum(points)
    sharers = [
        seat for seat, taken in enumerate(deal.taken) if not any(rules.card_points[c] > 0 for c in taken)
    ]
    share = pot // len(sharers) if sharers else 0
    chips = [(share if seat in sharers else 0) - p for seat, p in enumerate(points)]
    return chips, pot - share * len(sharers)


def _settle_1887(rules: Rules, deal: ReferenceDeal, pool: int) -> tuple[list[int], int]:
    """Hoyle 1887's "lowest wins chips", on the raw points ``r`` (before any moon rule).

    No moon shooter: the players with the fewest points win; every other player ``j`` pays
    ``r_j``, each of the ``m`` winners getting ``r_j // m`` and the pool ``r_j % m``. A positive
    pool carried in is shared by the winners too (``pool // m`` each, ``pool % m`` stays).
    A moon shooter ``s`` instead receives ``r_s``: ``r_s // (n - 1)`` from each opponent and
    ``r_s % (n - 1)`` from the pool (which may go negative); nobody collects the pool.
    """
    n = rules.num_players
    raw = deal.raw_points
    shooter = deal.moon_shooter
    if shooter is not None:
        each, rest = divmod(raw[shooter], n - 1)
        chips = [raw[shooter] if seat == shooter else -each for seat in range(n)]
        return chips, pool - rest
    fewest = min(raw)
    winners = [seat for seat in range(n) if raw[seat] == fewest]
    m = len(winners)
    chips = [0] * n
    remainders = 0
    for payer in range(n):
        if payer in winners:
            continue
        chips[payer] -= raw[payer]
        for winner in winners:
            chips[winner] += raw[payer] // m
        remainders += raw[payer] % m
    if pool > 0:
        for winner in winners:
            chips[winner] += pool // m
        pool %= m
    return chips, pool + remainders


def reference_settle_game(totals: list[int]) -> list[float]:
    """Black Maria's settlement at the end of the game: each player pays the difference between
    his total and the lowest total to the player(s) with the lowest total; equal lowest totals
    share each payment equally (possibly in fractions)."""
    lowest = min(totals)
    winners = [seat for seat, t in enumerate(totals) if t == lowest]
    paid = sum(t - lowest for t in totals)
    return [paid / len(winners) if seat in winners else float(lowest - t) for seat, t in enumerate(totals)]
