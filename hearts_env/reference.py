"""A plain, single-game reference implementation of one Hearts-family deal.

This module exists for differential testing: it is written from RULES.md (§1, §2, §3, §5, §7)
and the option vocabulary of :mod:`hearts_env.rules` alone, favouring readability over speed,
so that the batched engine can be checked against it deal by deal.

One :class:`ReferenceDeal` plays one deal from given hands:

1. the passing phase (skipped for ``"hold"`` or ``pass_count == 0``): seat by seat from eldest
   hand, each seat chooses its ``pass_count`` cards one at a time; the exchange happens after
   every seat has chosen;
2. the play phase: tricks, with the leading / following restrictions of the rules;
3. scoring when the hands are empty: raw points (``scoring="points"`` or ``"royal"``), then the
   moon rule, then the no-trick bonus.

Cards are indices (``13 * suit + rank``, see :mod:`hearts_env.cards`); seat ``i + 1`` sits to
the left of seat ``i`` and plays after it.
"""

from __future__ import annotations

import operator
from collections.abc import Callable

from hearts_env.cards import (
    CLUBS,
    HEARTS,
    NUM_STANDARD_CARDS,
    SPADES,
    card_name,
    cards_of,
    parse_card,
    suit_of,
)
from hearts_env.rules import PASS_DIRECTIONS, Rules

QUEEN_OF_SPADES = parse_card("QS")
KING_OF_SPADES = parse_card("KS")
ACE_OF_SPADES = parse_card("AS")
QUEEN_OF_HEARTS = parse_card("QH")
QUEEN_OF_CLUBS = parse_card("QC")
QUEEN_OF_DIAMONDS = parse_card("QD")

SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")

PHASE_PASS = "pass"
PHASE_PLAY = "play"
PHASE_DONE = "done"


def _names(cards: set[int] | list[int]) -> str:
    """Card names, lowest first, for error messages: ``"2C 5H QS"``."""
    return " ".join(card_name(c) for c in sorted(cards)) or "-"


def _is_heart(card: int) -> bool:
    return suit_of(card) == HEARTS


class ReferenceDeal:
    """One deal of a Hearts-family game, played one decision at a time.

    Attributes read by the differential test:

    * ``phase`` — ``"pass"``, ``"play"`` or ``"done"``;
    * ``current_player`` — the seat to act (``-1`` once the deal is done);
    * ``hands`` — current hands (during passing, chosen cards stay in the hand until the
      exchange);
    * ``taken`` — cards won in tricks, plus the kitty for the winner of the first trick;
    * ``tricks_won`` — tricks won per seat;
    * ``raw_points`` — at ``"done"``: points of the cards taken (royal scoring applied), before
      the moon and the no-trick bonus; ``None`` before;
    * ``deal_points`` — at ``"done"``: the deal's final points; ``None`` before;
    * ``moon_shooter`` — at ``"done"``: the seat that shot the moon (or made the slam), else
      ``None`` (always ``None`` when ``rules.moon == "none"``).

    Further state, handy in tests: ``trick`` (the ``(seat, card)`` plays of the trick in
    progress), ``lead_suit``, ``hearts_broken``, ``tricks_played``, ``completed_tricks`` (one
    ``(plays, winner)`` per finished trick), ``pass_chosen`` (cards chosen so far per seat).
    """

    def __init__(
        self,
        rules: Rules,
        hands: list[list[int]],
        dealer: int,
        pass_direction: str,
        totals: list[int] | None = None,
        kitty: list[int] | None = None,
    ) -> None:
        """Set up a deal from the hands as dealt (before passing).

        ``totals`` are the game totals before this deal (only ``moon="shooter_choice"`` reads
        them); ``kitty`` holds the leftover cards when ``rules.leftover == "kitty"``.
        Raises ``ValueError`` for a malformed deal, before any state exists.
        """
        n = rules.num_players
        self.rules = rules
        self.num_players = n
        self.dealer = operator.index(dealer)
        self.pass_direction = pass_direction
        self.kitty: list[int] = sorted(int(c) for c in (kitty or []))
        self.totals: list[int] = list(totals) if totals is not None else [0] * n
        self._validate(hands)

        self.hands: list[set[int]] = [{int(c) for c in hand} for hand in hands]
        self.taken: list[set[int]] = [set() for _ in range(n)]
        self.tricks_won: list[int] = [0] * n
        self.raw_points: list[int] | None = None
        self.deal_points: list[int] | None = None
        self.moon_shooter: int | None = None

        self.pass_chosen: list[list[int]] = [[] for _ in range(n)]
        self.trick: list[tuple[int, int]] = []
        self.completed_tricks: list[tuple[list[tuple[int, int]], int]] = []
        self.tricks_played = 0
        self.hearts_broken = False
        self.kitty_taker: int | None = None

        self.eldest = (dealer + 1) % n
        if pass_direction == "hold" or rules.pass_count == 0:
            self._start_play()
        else:
            self.phase = PHASE_PASS
            self.current_player = self.eldest

    # ------------------------------------------------------------------ validation

    def _validate(self, hands: list[list[int]]) -> None:
        """Reject a malformed deal (RULES.md §5) with a clear message."""
        rules, n = self.rules, self.num_players
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
            raise ValueError(f"the kitty must hold {expected_kitty} cards, got {len(self.kitty)}")
        dealt = [int(c) for hand in hands for c in hand] + self.kitty
        for c in dealt:
            if not 0 <= c < NUM_STANDARD_CARDS:
                raise ValueError(f"card {c} is not a standard card index (0..51)")
        repeated = {c for c in dealt if dealt.count(c) > 1}
        if repeated:
            raise ValueError(f"cards dealt twice: {_names(repeated)}")
        deck = set(rules.deck.cards)
        extra, missing = set(dealt) - deck, deck - set(dealt)
        if extra:
            raise ValueError(f"cards not in this deck were dealt: {_names(extra)}")
        if missing:
            raise ValueError(f"cards of the deck were not dealt: {_names(missing)}")

    # ------------------------------------------------------------------ public interface

    @property
    def leader(self) -> int | None:
        """Seat that led the trick in progress (``None`` before its first card)."""
        return self.trick[0][0] if self.trick else None

    @property
    def lead_suit(self) -> int | None:
        """Suit of the first card of the trick in progress (``None`` when leading)."""
        return suit_of(self.trick[0][1]) if self.trick else None

    @property
    def is_first_trick(self) -> bool:
        return self.tricks_played == 0

    def legal_actions(self) -> list[int]:
        """The cards the current player may choose now, sorted; empty once the deal is done."""
        if self.phase == PHASE_DONE:
            return []
        if self.phase == PHASE_PASS:
            return sorted(self._passable(self.current_player))
        allowed, _ = self._legal_play(self.current_player)
        return sorted(allowed)

    def step(self, card: int) -> None:
        """Play (or, while passing, choose to pass) ``card`` for the current player.

        Raises ``ValueError`` naming the seat, the card and the reason when the card is not
        legal; the state is then unchanged.
        """
        if self.phase == PHASE_DONE:
            raise ValueError("the deal is over: no more actions")
        card = self._as_card(card)
        seat = self.current_player
        if self.phase == PHASE_PASS:
            self._choose_pass_card(seat, card)
        else:
            self._play_card(seat, card)

    # ------------------------------------------------------------------ passing

    def _passable(self, seat: int) -> set[int]:
        """Cards ``seat`` may still choose to pass: in hand and not chosen yet."""
        return self.hands[seat] - set(self.pass_chosen[seat])

    def _choose_pass_card(self, seat: int, card: int) -> None:
        if card not in self.hands[seat]:
            raise ValueError(f"seat {seat} cannot pass {card_name(card)}: it is not in the hand")
        if card in self.pass_chosen[seat]:
            raise ValueError(f"seat {seat} cannot pass {card_name(card)}: it is already chosen")
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
        for seat in range(n):
            self.hands[seat] -= set(self.pass_chosen[seat])
        for seat in range(n):
            self.hands[(seat + offset) % n] |= set(self.pass_chosen[seat])

    # ------------------------------------------------------------------ play

    def _start_play(self) -> None:
        self.phase = PHASE_PLAY
        self.current_player = self._first_leader()

    def _first_club(self) -> int:
        """The club that decides the first leader: ``rules.lowest_club`` if it was dealt to a
        player, otherwise (it lies in the kitty) the lowest club any player holds."""
        if any(self.rules.lowest_club in hand for hand in self.hands):
            return self.rules.lowest_club
        held_clubs = [c for hand in self.hands for c in hand if suit_of(c) == CLUBS]
        if not held_clubs:
            raise ValueError("no player holds a club, so no one can make the first lead")
        return min(held_clubs)

    def _first_leader(self) -> int:
        if self.rules.first_lead == "eldest":
            return self.eldest
        club = self._first_club()
        return next(seat for seat, hand in enumerate(self.hands) if club in hand)

    def _legal_play(self, seat: int) -> tuple[set[int], dict[int, str]]:
        """The cards ``seat`` may play now, and why each other card in hand may not be played.

        The restrictions are applied in order (each may only narrow the set):
        lead / follow, the first-trick penalty ban, ``discard_first``, ``club_play``.
        """
        rules = self.rules
        hand = self.hands[seat]
        why_not: dict[int, str] = {}

        def narrow(allowed: set[int], keep: set[int], reason: str) -> set[int]:
            for c in allowed - keep:
                why_not[c] = reason
            return allowed & keep

        leading = not self.trick
        void_in_lead = False
        if leading and self.is_first_trick and rules.first_lead == "lowest_club":
            club = self._first_club()
            allowed = narrow(set(hand), {club}, f"the first lead must be {card_name(club)}")
        elif leading and self.is_first_trick and rules.first_lead == "any_club":
            clubs = {c for c in hand if suit_of(c) == CLUBS}
            allowed = narrow(set(hand), clubs, "the first lead must be a club")
        elif leading:
            allowed = self._leadable(hand, narrow)
        else:
            lead_suit = self.lead_suit
            following = {c for c in hand if suit_of(c) == lead_suit}
            void_in_lead = not following
            if following:
                allowed = narrow(set(hand), following, f"must follow suit ({SUIT_NAMES[lead_suit]} led)")
            else:
                allowed = set(hand)

        if self.is_first_trick and rules.no_points_first_trick:
            harmless = {c for c in allowed if rules.card_points[c] <= 0}
            if harmless:
                allowed = narrow(allowed, harmless, "no penalty card on the first trick")

        if void_in_lead and rules.discard_first is not None and rules.discard_first in allowed:
            first = rules.discard_first
            allowed = narrow(allowed, {first}, f"void in the suit led: {card_name(first)} goes first")

        if rules.club_play and QUEEN_OF_SPADES in allowed:
            spade_headed = self.lead_suit == SPADES and any(
                c in (ACE_OF_SPADES, KING_OF_SPADES) for _, c in self.trick
            )
            if void_in_lead or spade_headed:
                allowed = narrow(allowed, {QUEEN_OF_SPADES}, "club play: QS must be played now")

        return allowed, why_not

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
        self.hands[seat].remove(card)
        self.trick.append((seat, card))
        if _is_heart(card) or (self.rules.hearts_break == "heart_or_queen" and card == QUEEN_OF_SPADES):
            self.hearts_broken = True
        if len(self.trick) < self.num_players:
            self.current_player = (seat + 1) % self.num_players
        else:
            self._finish_trick()

    def _finish_trick(self) -> None:
        """The highest card of the suit led wins; the winner takes the cards and leads next."""
        lead_suit = self.lead_suit
        winner, _ = max(((s, c) for s, c in self.trick if suit_of(c) == lead_suit), key=lambda sc: sc[1])
        self.taken[winner].update(c for _, c in self.trick)
        self.tricks_won[winner] += 1
        if self.is_first_trick and self.kitty:
            self.taken[winner].update(self.kitty)
            self.kitty_taker = winner
        self.completed_tricks.append((self.trick, winner))
        self.trick = []
        self.tricks_played += 1
        if self.tricks_played == self.rules.hand_size:
            self._score()
        else:
            self.current_player = winner

    # ------------------------------------------------------------------ scoring

    def _raw_score(self, taken: set[int]) -> int:
        """Points of the cards one player took, before the moon and the no-trick bonus."""
        points = self.rules.card_points
        if self.rules.scoring == "points":
            return sum(points[c] for c in taken)
        # Royal Hearts: hearts (doubled with Q♥), Q♠ unless cancelled by Q♣, then Q♦, floor 0.
        score = sum(points[c] for c in taken if _is_heart(c))
        if QUEEN_OF_HEARTS in taken:
            score *= 2
        if QUEEN_OF_SPADES in taken and QUEEN_OF_CLUBS not in taken:
            score += points[QUEEN_OF_SPADES]
        if QUEEN_OF_DIAMONDS in taken:
            score += points[QUEEN_OF_DIAMONDS]
        return max(score, 0)

    def _find_shooter(self) -> int | None:
        """The seat that took every card of ``rules.moon_mask`` (none if the mask is empty)."""
        moon_cards = set(cards_of(self.rules.moon_mask))
        if not moon_cards or self.rules.moon == "none":
            return None
        for seat, taken in enumerate(self.taken):
            if moon_cards <= taken:
                return seat
        return None

    def _moon_points(self, moon: str, raw: list[int], shooter: int) -> list[int]:
        """Deal points after the moon rule ``moon`` when ``shooter`` shot the moon."""
        rules = self.rules
        total = rules.penalty_total if rules.scoring == "points" else raw[shooter]
        others_get = rules.moon_points if rules.moon_points is not None else total
        if moon == "old":
            return [p - total if s == shooter else p + others_get for s, p in enumerate(raw)]
        if moon == "new":
            return [p - 2 * total if s == shooter else p for s, p in enumerate(raw)]
        if moon == "no_points":
            return [0] * len(raw)
        if moon == "slam":
            return [-rules.penalty_total if s == shooter else 0 for s in range(len(raw))]
        if moon == "shooter_choice":
            old = self._moon_points("old", raw, shooter)
            after = [t + p for t, p in zip(self.totals, old)]
            game_ends = any(t >= rules.target_score for t in after)
            shooter_lowest = after[shooter] == min(after)
            return self._moon_points("new", raw, shooter) if game_ends and not shooter_lowest else old
        raise ValueError(f"unknown moon rule {moon!r}")

    def _score(self) -> None:
        """Raw points, then the moon rule, then the no-trick bonus."""
        self.phase = PHASE_DONE
        self.current_player = -1
        raw = [self._raw_score(taken) for taken in self.taken]
        self.raw_points = raw
        self.moon_shooter = self._find_shooter()
        if self.moon_shooter is None:
            points = list(raw)
            if self.rules.no_tricks_bonus:
                points = [
                    p + self.rules.no_tricks_bonus if won == 0 else p
                    for p, won in zip(points, self.tricks_won)
                ]
        else:
            points = self._moon_points(self.rules.moon, raw, self.moon_shooter)
        self.deal_points = points

    # ------------------------------------------------------------------ helpers

    def _as_card(self, card: int) -> int:
        """An ``int`` card index (numpy integers welcome); anything else is a ValueError."""
        try:
            index = operator.index(card)
        except TypeError:
            raise ValueError(f"seat {self.current_player}: {card!r} is not a card index") from None
        if not 0 <= index < NUM_STANDARD_CARDS:
            raise ValueError(f"seat {self.current_player}: card index {index} is out of range 0..51")
        return index
