"""A plain, single-game reference implementation of one Hearts-family deal.

This module exists for differential testing: it is written from RULES.md (§1, §2, §3, §5, §7)
and the option vocabulary of :mod:`hearts_env.rules` alone, favouring readability over speed,
so that the batched engine can be checked against it deal by deal.

One :class:`ReferenceDeal` plays one deal from given hands:

1. the passing phase (skipped for ``"hold"`` or ``pass_count == 0``): seat by seat from eldest
   hand, each seat chooses its ``pass_count`` cards one at a time; the exchange happens after
   every seat has chosen;
2. the start of play: a hand of only penalty cards may trigger ``first_trick_all_penalty``
   (``"redeal"`` cancels the deal there and then);
3. the play phase: tricks, with the leading / following restrictions of the rules;
4. scoring when the hands are empty: the set-aside first trick goes to its receiver
   (``"to_lowest"``), then raw points (``scoring="points"`` or ``"royal"``, without the uncounted
   cards of ``"not_counted"``), then the moon rule, then the no-trick bonus.

:func:`reference_settle` pays one finished deal in chips (``rules.settlement``) and
:func:`reference_settle_game` pays Black Maria's end-of-game settlement.

The details RULES.md leaves open are settled by the project's decisions
(``notes/rules-decisions.md``); the docstrings below say which reading each one follows.

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
      ``None`` (always ``None`` when ``rules.moon == "none"``);
    * ``cancelled`` — ``True`` when ``first_trick_all_penalty="redeal"`` cancelled the deal at
      the start of play: the phase is then ``"done"`` at once, nobody plays, every seat's
      ``deal_points`` (and ``raw_points``) are 0 and ``moon_shooter`` is ``None``.

    Further state, handy in tests: ``trick`` (the ``(seat, card)`` plays of the trick in
    progress), ``lead_suit``, ``hearts_broken``, ``tricks_played``, ``completed_tricks`` (one
    ``(plays, winner)`` per finished trick), ``pass_chosen`` (cards chosen so far per seat),
    and for ``first_trick_all_penalty``: ``all_penalty_seats`` (the seats whose hand held only
    penalty cards at the start of play; the rule is triggered when it is not empty),
    ``uncounted`` (``"not_counted"``: the first trick's penalty cards, which score nothing),
    ``set_aside`` (``"to_lowest"``: the first trick's cards, held apart during the deal) and
    ``set_aside_receiver`` (the seat they went to when the deal ended).
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

        ``totals`` are the game totals before this deal (only ``moon="auto_choice"`` reads
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
        self.cancelled = False
        self.all_penalty_seats: list[int] = []
        self.uncounted: set[int] = set()
        self.set_aside: set[int] = set()
        self.set_aside_receiver: int | None = None

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

    def _is_penalty(self, card: int) -> bool:
        """A penalty card: one worth positive points (``rules.penalty_mask``)."""
        return self.rules.card_points[card] > 0

    def _start_play(self) -> None:
        """After the exchange (or the deal, without a pass): note the hands of only penalty
        cards, cancel the deal for ``"redeal"`` when there is one, else the first lead."""
        self.all_penalty_seats = [
            seat for seat, hand in enumerate(self.hands) if all(self._is_penalty(c) for c in hand)
        ]
        if self.all_penalty_seats and self.rules.first_trick_all_penalty == "redeal":
            self._cancel()
            return
        self.phase = PHASE_PLAY
        self.current_player = self._first_leader()

    def _cancel(self) -> None:
        """``"redeal"``: nobody plays, nobody scores, no moon; the deal is flagged cancelled."""
        self.cancelled = True
        self.phase = PHASE_DONE
        self.current_player = -1
        self.raw_points = [0] * self.num_players
        self.deal_points = [0] * self.num_players
        self.moon_shooter = None

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
        lead / follow, ``no_heart_lead_first_trick``, the first-trick penalty ban,
        ``discard_first``, ``club_play``.
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

        if leading and self.is_first_trick and rules.no_heart_lead_first_trick:
            # On top of every other lead rule (hearts_break="free" too): no heart unless the
            # hand holds only hearts. The lead rules above always leave a non-heart in that case.
            if any(not _is_heart(c) for c in hand):
                non_hearts = {c for c in allowed if not _is_heart(c)}
                allowed = narrow(allowed, non_hearts, "no heart may be led to the first trick")

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
        if self.tricks_played == self.rules.hand_size:
            self._score()
        else:
            self.current_player = winner

    # ------------------------------------------------------------------ scoring

    def _raw_score(self, cards: set[int]) -> int:
        """Points of a set of taken cards, before the moon and the no-trick bonus."""
        points = self.rules.card_points
        if self.rules.scoring == "points":
            return sum(points[c] for c in cards)
        # Royal Hearts: hearts (doubled with Q♥), Q♠ unless cancelled by Q♣, then Q♦, floor 0.
        score = sum(points[c] for c in cards if _is_heart(c))
        if QUEEN_OF_HEARTS in cards:
            score *= 2
        if QUEEN_OF_SPADES in cards and QUEEN_OF_CLUBS not in cards:
            score += points[QUEEN_OF_SPADES]
        if QUEEN_OF_DIAMONDS in cards:
            score += points[QUEEN_OF_DIAMONDS]
        return max(score, 0)

    def counted(self, seat: int) -> set[int]:
        """The cards ``seat`` took that score: all he took, less the ``uncounted`` ones (so an
        uncounted Q♥ or Q♠ has no Royal effect either)."""
        return self.taken[seat] - self.uncounted

    @property
    def penalty_total(self) -> int:
        """The deal's penalty total T: ``rules.penalty_total`` less the points of the uncounted
        cards (``"not_counted"``); in Royal scoring the moon rules use the shooter's score."""
        return self.rules.penalty_total - sum(self.rules.card_points[c] for c in self.uncounted)

    def _give_set_aside(self) -> None:
        """``"to_lowest"``: the set-aside first trick goes to the player with the lowest
        non-zero points without it (plain card sums, or Royal deal scores; ties: the lowest
        seat), or back to its winner when every player has 0."""
        without = [self._raw_score(taken) for taken in self.taken]
        candidates = [(p, seat) for seat, p in enumerate(without) if p != 0]
        receiver = min(candidates)[1] if candidates else self.completed_tricks[0][1]
        self.taken[receiver] |= self.set_aside
        self.set_aside_receiver = receiver

    def _find_shooter(self) -> int | None:
        """The seat that took every card of ``rules.moon_mask`` that counts this deal (the
        uncounted cards are not needed); none if nothing is left to take."""
        moon_cards = set(cards_of(self.rules.moon_mask)) - self.uncounted
        if not moon_cards or self.rules.moon == "none":
            return None
        for seat, taken in enumerate(self.taken):
            if moon_cards <= taken:
                return seat
        return None

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
        """The set-aside trick to its receiver, raw points, the moon rule, the no-trick bonus."""
        self.phase = PHASE_DONE
        self.current_player = -1
        if self.set_aside:
            self._give_set_aside()
        raw = [self._raw_score(self.counted(seat)) for seat in range(self.num_players)]
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
