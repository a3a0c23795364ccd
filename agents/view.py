"""What a player can tell about the table from one observation, as batched arrays.

:class:`TableView` turns the named observation pieces into the facts the heuristic agents
reason with: the cards still unseen (card counting), the suit led and the card winning the
trick, the points on the table, who is known void in what. Everything is (B, ...) numpy, one row
per game; card axes have 52 entries in the index order of :mod:`hearts_env.core.cards`.
"""

from __future__ import annotations

from functools import cached_property

import numpy as np

from hearts_env.core.cards import NUM_RANKS, NUM_STANDARD_CARDS, NUM_SUITS
from hearts_env.core.rules import Rules
from hearts_env.observation import Layout

CARDS = np.arange(NUM_STANDARD_CARDS)
SUIT = CARDS // NUM_RANKS  # (52,) suit of each card
RANK = CARDS % NUM_RANKS  # (52,) rank of each card, 0 = "2" … 12 = "A"
IN_SUIT = SUIT[None, :] == np.arange(NUM_SUITS)[:, None]  # (4, 52)


def per_suit(cards: np.ndarray) -> np.ndarray:
    """(B, 52) card array as (B, 4, 13): suit by suit, ranks ascending."""
    return cards.reshape(*cards.shape[:-1], NUM_SUITS, NUM_RANKS)


def suit_totals(cards: np.ndarray) -> np.ndarray:
    """(B, 4) number (or sum) of ``cards`` in each suit."""
    return per_suit(cards).sum(axis=-1)


def of_card_suit(by_suit: np.ndarray) -> np.ndarray:
    """Spread a (B, 4) per-suit quantity to (B, 52): each card gets its suit's value."""
    return by_suit[:, SUIT]


def count_below(cards: np.ndarray) -> np.ndarray:
    """(B, 52): how many of ``cards`` (B, 52 bool) are in the same suit and rank lower."""
    running = np.cumsum(per_suit(cards), axis=-1)
    return (running - per_suit(cards)).reshape(cards.shape)


def count_above(cards: np.ndarray) -> np.ndarray:
    """(B, 52): how many of ``cards`` are in the same suit and rank higher."""
    totals = of_card_suit(suit_totals(cards))
    return totals - count_below(cards) - cards


class TableView:
    """The facts of one batch of observations (see the module docstring).

    Card arrays have 52 entries (the standard cards); jokers (``joker_hearts``) have their own
    (B, J) arrays, and the decisions other than cards (bids, declarations, the moon choice)
    their mask ``decision_mask`` (B, E) over ``rules.decisions``.
    """

    def __init__(self, rules: Rules, lay: Layout, obs: dict[str, np.ndarray]) -> None:
        o = obs["observation"]
        n, c, p = NUM_STANDARD_CARDS, rules.card_slots, rules.num_players
        self.rules = rules
        self.num_players = p
        self.batch = len(o)
        full_mask = np.asarray(obs["action_mask"]) > 0
        self.mask = full_mask[:, :n]  # (B, 52) legal cards
        self.joker_mask = full_mask[:, n:c]  # (B, J) legal jokers
        self.decision_mask = full_mask[:, c : c + len(rules.decisions)]  # (B, E) legal decisions
        hand = lay.view(o, "hand") > 0.5
        self.hand = hand[:, :n]  # (B, 52)
        self.jokers = hand[:, n:c]  # (B, J) jokers in my hand
        played_by = lay.view(o, "played_by_seat") > 0.5  # (B, P, C) relative seats
        self.played_by = played_by[:, :, :n]
        trick = lay.view(o, "current_trick") > 0.5  # (B, P, C) by position
        self.trick = trick[:, :, :n]
        self.trick_jokers = trick[:, :, n:c]  # (B, P, J)
        self._cards_played = played_by.sum(axis=(1, 2))  # (B,) jokers too
        self._trick_size = trick.any(axis=2).sum(axis=1)  # (B,) jokers too
        self.passed = lay.view(o, "passed")[:, :n] > 0.5  # (B, 52)
        self.received = lay.view(o, "received")[:, :n] > 0.5  # (B, 52)
        # The widow / kitty, once I took it with the first trick (its cards are out of play).
        sl = lay.slices
        self.kitty = lay.view(o, "kitty")[:, :n] > 0.5 if "kitty" in sl else np.zeros_like(self.hand)
        self.voids = lay.view(o, "known_voids") > 0.5  # (B, P, 4)
        self.leader = np.argmax(lay.view(o, "trick_leader"), axis=1)  # (B,) relative seat
        self.phase = lay.view(o, "phase") > 0.5  # (B, F) one-hot over rules.phases
        self.passing = self.in_phase("passing")  # (B,)
        self.pass_direction = np.argmax(lay.view(o, "pass_direction"), axis=1)  # (B,) left right across hold
        # Points per card as the active rules count them (the piece is points / 26).
        self.values = np.rint(lay.view(o, "card_values")[:, :n] * 26.0)  # (B, 52)
        self.points_taken = np.rint(lay.view(o, "points_taken") * 26.0)  # (B, P) relative seats
        self.scores = np.rint(lay.view(o, "scores") * rules.target_score)  # (B, P) game totals
        # Public decisions (B, P, E) per relative seat, and the partners I know (B, P).
        none = np.zeros((self.batch, p, len(rules.decisions)), bool)
        self.decisions = lay.view(o, "decisions") > 0.5 if "decisions" in sl else none
        alone = np.zeros((self.batch, p), bool)
        self.partners = lay.view(o, "partners") > 0.5 if "partners" in sl else alone
        self.deck = np.array([(rules.deck_mask >> c) & 1 for c in range(n)], bool)  # (52,)

    def in_phase(self, name: str) -> np.ndarray:
        """(B,) the deal is in phase ``name`` (one of ``rules.phases``; False if it has none)."""
        if name not in self.rules.phases:
            return np.zeros(self.batch, bool)
        return self.phase[:, self.rules.phases.index(name)]

    def decided(self, name: str) -> np.ndarray:
        """(B, P) the relative seats that made decision ``name`` this deal."""
        if name not in self.rules.decisions:
            return np.zeros((self.batch, self.num_players), bool)
        return self.decisions[:, :, self.rules.decisions.index(name)]

    def decision_index(self, name: str) -> int:
        """The action index of decision ``name``."""
        return self.rules.card_slots + self.rules.decisions.index(name)

    @cached_property
    def deciding(self) -> np.ndarray:
        """(B,) a decision other than a card is asked (bid, declaration, suit, moon choice)."""
        return self.decision_mask.any(axis=1)

    @cached_property
    def partner_winning(self) -> np.ndarray:
        """(B,) a known partner of mine is winning the current trick so far."""
        seat = self.winning_seat
        return (self.lead_suit >= 0) & self.partners[np.arange(self.batch), seat]

    # ------------------------------------------------------------------ the deal so far
    @cached_property
    def played(self) -> np.ndarray:
        """(B, 52) every card played this deal (the current trick's too)."""
        return self.played_by.any(axis=1)

    @cached_property
    def unseen(self) -> np.ndarray:
        """(B, 52) cards in play that are in some other player's hand (or in a kitty I have not
        seen)."""
        return self.deck[None, :] & ~self.hand & ~self.played & ~self.kitty

    @cached_property
    def hand_count(self) -> np.ndarray:
        """(B,) cards in my hand."""
        return self.hand.sum(axis=1)

    @cached_property
    def suit_count(self) -> np.ndarray:
        """(B, 4) my cards in each suit."""
        return suit_totals(self.hand)

    @cached_property
    def unseen_below(self) -> np.ndarray:
        """(B, 52) unseen cards of the same suit ranked below each card."""
        return count_below(self.unseen)

    @cached_property
    def unseen_above(self) -> np.ndarray:
        """(B, 52) unseen cards of the same suit ranked above each card."""
        return count_above(self.unseen)

    @cached_property
    def tricks_done(self) -> np.ndarray:
        """(B,) tricks completed this deal."""
        return (self._cards_played - self._trick_size) // self.num_players

    @cached_property
    def penalty_total(self) -> np.ndarray:
        """(B,) positive points in play this deal (26 in Hearts)."""
        return np.where(self.deck[None, :] & (self.values > 0), self.values, 0).sum(axis=1)

    # ------------------------------------------------------------------ the current trick
    @cached_property
    def position(self) -> np.ndarray:
        """(B,) cards already on the table (jokers too) = my position in the trick (0 = I lead)."""
        return self._trick_size

    @cached_property
    def no_suit(self) -> np.ndarray:
        """(B,) no suit is led yet: I lead, or only jokers are on the table (then my card sets
        the suit, as a lead would)."""
        return self.lead_suit < 0

    @cached_property
    def on_table(self) -> np.ndarray:
        """(B, 52) cards in the current trick."""
        return self.trick.any(axis=1)

    @cached_property
    def lead_suit(self) -> np.ndarray:
        """(B,) suit led in the current trick (the first standard card's: a joker led sets no
        suit), -1 when no suit is led yet."""
        standard = self.trick.any(axis=2)  # (B, P) positions holding a standard card
        first = np.argmax(standard, axis=1)
        card = np.argmax(self.trick[np.arange(self.batch), first], axis=1)
        return np.where(standard.any(axis=1), SUIT[card], -1)

    @cached_property
    def winning_card(self) -> np.ndarray:
        """(B,) the card winning the current trick so far, -1 when I lead."""
        in_lead = self.on_table & (SUIT[None, :] == self.lead_suit[:, None])
        return np.where(in_lead.any(axis=1), NUM_STANDARD_CARDS - 1 - np.argmax(in_lead[:, ::-1], axis=1), -1)

    @cached_property
    def winning_seat(self) -> np.ndarray:
        """(B,) relative seat winning the current trick so far (meaningless when I lead)."""
        card = np.maximum(self.winning_card, 0)
        slot = np.argmax(self.trick[np.arange(self.batch), :, card], axis=1)
        return (self.leader + slot) % self.num_players

    @cached_property
    def trick_points(self) -> np.ndarray:
        """(B,) points of the cards on the table."""
        return (self.on_table * self.values).sum(axis=1)

    @cached_property
    def kitty_expected(self) -> np.ndarray:
        """(B,) the points a widow / kitty still to be won (with the first trick) is expected
        to hold: its size times the mean value of the cards I have not seen; 0 after it."""
        size = self.rules.kitty_size
        if not size:
            return np.zeros(self.batch)
        unseen = self.unseen
        mean = (unseen * self.values).sum(axis=1) / np.maximum(unseen.sum(axis=1), 1)
        return np.where(self.tricks_done == 0, size * mean, 0.0)

    @cached_property
    def last_to_play(self) -> np.ndarray:
        """(B,) I am the last to play to this trick."""
        return self.position == self.num_players - 1

    @cached_property
    def later_void(self) -> np.ndarray:
        """(B,) a player still to play to this trick has shown out of the suit led."""
        p = self.num_players
        later = (np.arange(p)[None, :] >= 1) & (np.arange(p)[None, :] < p - self.position[:, None])
        suit = np.maximum(self.lead_suit, 0)
        void_in_lead = self.voids[np.arange(self.batch), :, suit]  # (B, P)
        return (later & void_in_lead).any(axis=1)

    @cached_property
    def can_follow(self) -> np.ndarray:
        """(B,) I hold a card of the suit led (False when I lead)."""
        return (self.hand & (SUIT[None, :] == self.lead_suit[:, None])).any(axis=1)

    @cached_property
    def beats_winner(self) -> np.ndarray:
        """(B, 52) cards that would take the lead of the current trick (same suit, higher)."""
        return (SUIT[None, :] == self.lead_suit[:, None]) & (CARDS[None, :] > self.winning_card[:, None])

    @cached_property
    def opponent_void(self) -> np.ndarray:
        """(B, 4) some opponent has shown out of each suit."""
        return self.voids[:, 1:, :].any(axis=1)
