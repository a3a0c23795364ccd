"""The Hearts family's observation: one ego-centric float32 vector per player, built from named pieces.

Seats in the observation are *relative*: relative seat 0 is the observer, 1 the player on his
left (who plays after him), and so on. Card pieces are one slot per card index (52 standard
cards; 54 when the variant has jokers), in the index order of :mod:`hearts_env.core.cards`. With two
decks (Cancellation Hearts) the card pieces ``hand``, ``played_by_seat``, ``passed``,
``received`` and ``kitty`` hold counts (0, 1, 2) instead of 0/1; ``current_trick`` still holds
one card per position.

===================  ==========  ============================================================
piece                shape       meaning
===================  ==========  ============================================================
``hand``             (C,)        1 for each card in the observer's hand (while passing, chosen
                                 cards stay in it until the exchange; see ``passed``)
``played_by_seat``   (P, C)      cards each relative seat has played this deal
``current_trick``    (P, C)      cards on the table by position in the trick (0 = the lead)
``passed``           (C,)        cards the observer chose to pass (so far, then passed)
``received``         (C,)        cards the observer received in the pass
``kitty``            (C,)        only with a kitty (``leftover="kitty"``): its cards, once the
                                 observer has taken them with the first trick (0 otherwise)
``card_values``      (C,)        the active rules' points per card / 26 (Q♠ = 0.5 in Hearts;
                                 Auction Hearts: the named penalty suit's cards, hearts before)
``points_taken``     (P,)        card points each relative seat has taken this deal / 26 (the
                                 kitty's points count for its taker only in his own view,
                                 until the deal ends)
``decisions``        (P, E)      only with decisions other than cards: 1 for each decision
                                 (``rules.decisions``: bids, declarations, the named suit,
                                 the moon choice) a relative seat made this deal
``known_voids``      (P, 4)      1 where a relative seat has shown out of a suit (♣ ♦ ♥ ♠)
``trick_leader``     (P,)        one-hot relative seat that led the current trick
``pass_direction``   (4,)        one-hot left, right, across, hold for this deal
``phase``            (F,)        one-hot over ``rules.phases``: passing, playing, then the
                                 variant's decision phases (declare, bid, name_suit,
                                 moon_choice) where it has them; all 0 once the deal is over
``partners``         (P,)        only in partnership games: 1 for the relative seats known to
                                 be the observer's partners (Partnership C's silent partner is
                                 known to the bidder and to himself only)
``hearts_broken``    (1,)        1 once hearts are broken (by the rules' breaking cards)
``scores``           (P,)        game totals before this deal / target score
``deal_index``       (1,)        deals already played in this game / 10
``hand_sizes``       (P,)        only with a stock (Domino Hearts): cards each relative seat
                                 holds / the cards dealt (draws are seen, not the cards drawn)
``stock_left``       (1,)        only with a stock: cards left in it / its size at the deal
===================  ==========  ============================================================

Use :func:`layout` to get the offsets, and :meth:`Layout.view` to slice a batch by name::

    lay = layout(rules)
    hand = lay.view(obs["observation"], "hand")          # (B, C)
    trick = lay.view(obs["observation"], "current_trick")  # (B, P, C)
"""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache

import numpy as np

from hearts_env.core import cardsets
from hearts_env.core.bits import BIT, U64, ZERO
from hearts_env.core.layouts import Layout, Packing
from hearts_env.core.phases import DONE, PHASE_CODES, PHASE_NAMES
from hearts_env.core.rules import Rules
from hearts_env.games.hearts.engine import Engine, State

POINT_SCALE = 1 / 26
"""Card points are divided by 26 so standard Hearts' Q♠ reads 0.5 in every variant."""


@lru_cache(maxsize=256)
def hearts_layout(rules: Rules) -> Layout:
    """The observation layout for Hearts-family ``rules`` (built once per rules set: a
    :class:`Layout` is frozen)."""
    c, p = rules.card_slots, rules.num_players
    lay = _hearts_layout(rules, c, p)
    return replace(lay, packing=_hearts_packing(rules, lay))


def _hearts_packing(rules: Rules, lay: Layout) -> Packing:
    """The bit stream :class:`Observer` builds: a word per card piece (hand, P played, P trick,
    passed, received, kitty), a word per seat of decisions, the card pieces' second words (two
    decks), then the small pieces together in the last word."""
    c, p, sl = rules.card_slots, rules.num_players, lay.slices
    k = 3 + 2 * p + bool(rules.kitty_size)
    e = len(rules.decisions)
    two_decks = rules.decks == 2
    words = k + (p if e else 0) + (k if two_decks else 0) + 1
    misc_start = sl["known_voids"].start
    bit_count = sl[[name for name in _MISC_PIECES if name in sl][-1]].stop
    source = np.empty(bit_count, np.int64)
    j = np.arange(k * c)
    source[: k * c] = (j // c) * 64 + j % c
    second = None
    if two_decks:
        second = np.full(bit_count, -1, np.int64)
        second[: k * c] = (words - 1 - k + j // c) * 64 + j % c
    if e:
        j = np.arange(p * e)
        source[k * c : k * c + p * e] = (k + j // e) * 64 + j % e
    source[misc_start:] = (words - 1) * 64 + np.arange(bit_count - misc_start)
    return Packing(lay.size, bit_count, words, source, second)


def _hearts_layout(rules: Rules, c: int, p: int) -> Layout:
    kitty = (("kitty", (c,)),) if rules.kitty_size else ()
    decisions = (("decisions", (p, len(rules.decisions))),) if rules.decisions else ()
    partners = (("partners", (p,)),) if has_partners(rules) else ()
    return Layout(
        (
            ("hand", (c,)),
            ("played_by_seat", (p, c)),
            ("current_trick", (p, c)),
            ("passed", (c,)),
            ("received", (c,)),
            *kitty,
            *decisions,
            ("known_voids", (p, 4)),
            ("trick_leader", (p,)),
            ("pass_direction", (4,)),
            ("phase", (len(rules.phases),)),
            ("hearts_broken", (1,)),
            *partners,
            ("card_values", (c,)),
            ("points_taken", (p,)),
            ("scores", (p,)),
            ("deal_index", (1,)),
            *((("hand_sizes", (p,)), ("stock_left", (1,))) if rules.stock_size else ()),
        )
    )


PIECE_AXES: dict[str, tuple[str, ...]] = {
    "hand": ("card",), "played_by_seat": ("seat", "card"), "current_trick": ("seat", "card"),
    "passed": ("card",), "received": ("card",), "kitty": ("card",), "decisions": ("seat", "decision"),
    "known_voids": ("seat", "suit"), "trick_leader": ("seat",), "pass_direction": ("direction",),
    "phase": ("phase",), "hearts_broken": ("flag",), "partners": ("seat",), "card_values": ("card",),
    "points_taken": ("seat",), "scores": ("seat",), "deal_index": ("flag",), "hand_sizes": ("seat",),
    "stock_left": ("flag",),
}  # fmt: skip
"""What each axis of each piece runs over, in the layout's order: the universal layout
(:mod:`hearts_env.universal`) pads ``seat`` and ``card`` axes to the family's largest table and
deck and maps the named axes (``decision``, ``phase``) by name; the others are the same everywhere."""


COUNTED_PIECES = ("hand", "played_by_seat", "passed", "received", "kitty")
"""The card pieces that hold counts (0, 1, 2) with two decks (``current_trick`` does not)."""


def hearts_bounds(rules: Rules, lay: Layout) -> tuple[np.ndarray, np.ndarray]:
    """(low, high) of the flat observation of Hearts-family ``rules`` (see
    :func:`hearts_env.spaces.observation_bounds`)."""
    low = np.zeros(lay.size, np.float32)
    high = np.ones(lay.size, np.float32)
    values = np.array(rules.card_points[: lay.shape("card_values")[0]], np.float64) * POINT_SCALE
    sl = lay.slices
    if rules.bidding == "auction":  # any suit may be named: every standard card may score 1
        values[:52] = POINT_SCALE
    low[sl["card_values"]] = np.minimum(values, 0).astype(np.float32)
    high[sl["card_values"]] = np.maximum(values, 0).astype(np.float32)
    in_play = np.array(rules.card_points, np.float64)[list(rules.deck.cards)]
    low[sl["points_taken"]] = np.float32(in_play[in_play < 0].sum() * POINT_SCALE)
    high[sl["points_taken"]] = np.float32(in_play[in_play > 0].sum() * POINT_SCALE)
    if rules.decks == 2:
        for name in COUNTED_PIECES:
            if name in sl:
                high[sl[name]] = 2
    low[sl["scores"]], high[sl["scores"]] = -np.inf, np.inf
    high[sl["deal_index"]] = np.inf
    if rules.stock_size:  # a hand grows by the cards drawn
        high[sl["hand_sizes"]] = np.float32((rules.hand_size + rules.stock_size) / rules.hand_size)
    return low, high


def axis_names(rules: Rules) -> dict[str, tuple[str, ...]]:
    """The names along each named axis of :data:`PIECE_AXES` for ``rules``."""
    return {"decision": rules.decisions, "phase": rules.phases}


def has_partners(rules: Rules) -> bool:
    """Whether the variant has partnerships (fixed teams, or Partnership C's slam pair)."""
    return bool(rules.teams) or rules.bidding == "slam"


_MISC_PIECES = ("known_voids", "trick_leader", "pass_direction", "phase", "hearts_broken", "partners")
"""The small 0/1 pieces, packed together into the last word of the bit stream."""


class Observer:
    """Builds observations for a batch: ``observer(state, seats) -> (B, D) float32``.

    Every 0/1 piece is one uint64 word per game (the small one-hot pieces share a last word),
    so a single ``unpackbits`` and one float32 conversion produce them all; the conversion, not
    the game logic, is the main cost of an observation.
    """

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.layout = hearts_layout(engine.rules)
        rules = engine.rules
        self.cards = engine.num_cards
        p = engine.num_players
        sl = self.layout.slices
        misc = [name for name in _MISC_PIECES if name in sl]
        self.bit_count = sl[misc[-1]].stop
        self._tail_slices = {  # the real-valued pieces, from bit_count on
            name: slice(piece.start - self.bit_count, piece.stop - self.bit_count)
            for name, piece in sl.items()
            if piece.start >= self.bit_count
        }
        # Card pieces are c bits each from offset 0: hand, P played, P trick, passed, received
        # (and the kitty, where there is one); then P words of decisions, if any; then the
        # small pieces share one word.
        self.kitty = bool(engine.kitty_size)
        self.card_pieces = 3 + 2 * p + self.kitty
        # Two decks: a second word for each card piece (the cards counted twice), added in.
        self.second_words = self.card_pieces if engine.two_decks else 0
        self.decisions = len(rules.decisions)
        self.misc_offset = sl["known_voids"].start
        if self.bit_count - self.misc_offset > 64:
            raise ValueError(f"{rules.preset} with {p} players: the small observation pieces need > 64 bits")
        leader_shift, direction_shift, phase_shift, broken_shift = (
            sl[name].start - self.misc_offset
            for name in ("trick_leader", "pass_direction", "phase", "hearts_broken")
        )
        self.card_values = (np.array(rules.card_points[: self.cards]) * POINT_SCALE).astype(np.float32)
        # Auction Hearts: the card values follow the named suit (one row per suit).
        self.suit_values = None
        if rules.bidding == "auction":
            self.suit_values = np.zeros((4, self.cards), np.float32)
            for suit in range(4):
                self.suit_values[suit, 13 * suit : 13 * suit + 13] = np.float32(POINT_SCALE)
        # The B = 1 fast path covers the plain card games; the others take the batched path.
        self._plain = not (
            self.decisions
            or has_partners(rules)
            or self.suit_values is not None
            or rules.stock_size
            or engine.two_decks
        )
        self.target_scale = np.float32(1 / engine.rules.target_score)
        # _rotation[seat, r]: the seat r places to the left of seat.
        self._rotation = (np.arange(p)[:, None] + np.arange(p)[None, :]) % p
        self._base = np.zeros((0, 1), np.int64)
        self._rotation_lists = self._rotation.tolist()
        self._void_width = U64(4 * p)
        self._void_mask = U64((1 << 4 * p) - 1)
        # _leader_bits[P * seat + leader]: the trick_leader bit, at its place in the misc word.
        leader_bits = [1 << ((leader - seat) % p + leader_shift) for seat in range(p) for leader in range(p)]
        # _flag_bits[(PHASE_CODES * direction + phase) * 2 + broken]: pass_direction, phase (a bit
        # for each phase the variant has; none once DONE), hearts_broken.
        phase_bit = [
            1 << rules.phases.index(PHASE_NAMES[code]) if PHASE_NAMES.get(code) in rules.phases else 0
            for code in range(PHASE_CODES)
        ]
        flag_bits = [
            (1 << direction + direction_shift) | (phase_bit[phase] << phase_shift) | (broken << broken_shift)
            for direction in range(4)
            for phase in range(PHASE_CODES)
            for broken in range(2)
        ]
        self._partner_bits = self._partner_table(rules, sl) if "partners" in sl else None
        self._leader_bits, self._flag_bits = np.array(leader_bits, U64), np.array(flag_bits, U64)
        self._leader_list, self._flag_list = leader_bits, flag_bits  # the same, for the B = 1 path
        self._breaks = int(engine.breaks)

    def _gather_index(self, seats: np.ndarray) -> np.ndarray:
        """Flat indices (B, P) into a (B, P) array of every relative seat's entry."""
        batch, p = len(seats), self.engine.num_players
        if self._base.shape[0] < batch:
            self._base = np.arange(batch, dtype=np.int64)[:, None] * p
        return self._base[:batch] + self._rotation.take(seats, axis=0)

    def __call__(
        self, s: State, seats: np.ndarray, out: np.ndarray | None = None, constants: bool = True
    ) -> np.ndarray:
        """Observations of ``seats`` (B,) in each game, written into ``out`` if given
        (``constants=False``: ``out`` already holds the constant ``card_values``)."""
        batch = len(seats)
        if out is None:
            out, constants = np.empty((batch, self.layout.size), np.float32), True
        if batch == 1 and self._plain:  # the PettingZoo env: plain ints beat tiny array operations
            return self._observe_one(s, int(seats[0]), out)
        pieces, points, totals = self._pieces(s, seats)
        self._write_bits(pieces, out)
        self._write_tail(s, seats, points, totals, out[:, self.bit_count :], constants)
        return out

    def encode(
        self, s: State, seats: np.ndarray, obs_format: str, out: np.ndarray | None = None,
        tail: np.ndarray | None = None, constants: bool = True,
    ) -> tuple[np.ndarray, np.ndarray]:  # fmt: skip
        """The ``"uint8"`` (B, bit_count) or ``"packed"`` (B, words) observation of ``seats``
        and its float32 tail (B, D - bit_count), written into ``out`` / ``tail`` if given
        (:mod:`hearts_env.core.formats`; ``constants=False``: ``tail`` holds ``card_values``)."""
        batch, packing = len(seats), self.layout.packing
        pieces, points, totals = self._pieces(s, seats)
        if tail is None:
            tail, constants = np.empty((batch, packing.tail), np.float32), True
        if obs_format == "packed":
            if out is None:
                return pieces, self._write_tail(s, seats, points, totals, tail, constants)
            out[:] = pieces
        else:
            if out is None:
                out = np.empty((batch, packing.bit_count), np.uint8)
            self._write_bits(pieces, out)
        return out, self._write_tail(s, seats, points, totals, tail, constants)

    def _write_tail(
        self, s: State, seats: np.ndarray, points: np.ndarray, totals: np.ndarray, tail: np.ndarray,
        constants: bool,
    ) -> np.ndarray:  # fmt: skip
        """The real-valued pieces (card values, points, scores, deal index, stock) into ``tail``,
        the observation from ``bit_count`` on."""
        sl = self._tail_slices
        if self.suit_values is not None:
            tail[:, sl["card_values"]] = self.suit_values.take(s.penalty_suit, axis=0)
        elif constants:
            tail[:, sl["card_values"]] = self.card_values
        np.multiply(points, POINT_SCALE, out=tail[:, sl["points_taken"]], casting="same_kind")
        np.multiply(totals, float(self.target_scale), out=tail[:, sl["scores"]], casting="same_kind")
        np.multiply(
            s.deal_index, float(np.float32(0.1)), out=tail[:, sl["deal_index"]][:, 0], casting="same_kind"
        )
        if self.engine.stock_size:
            index = self._gather_index(seats)
            sizes = np.bitwise_count(s.hands).astype(np.float32).take(index)
            tail[:, sl["hand_sizes"]] = sizes / np.float32(self.engine.hand_size)
            left = self.engine.stock_size - s.stock_pos
            tail[:, sl["stock_left"]][:, 0] = left.astype(np.float32) / np.float32(self.engine.stock_size)
        return tail

    @property
    def words(self) -> int:
        """uint64 words of the bit stream: the card pieces, the decisions, the card pieces'
        second words (two decks), the small pieces."""
        return self.card_pieces + (self.engine.num_players if self.decisions else 0) + self.second_words + 1

    def _write_bits(self, pieces: np.ndarray, out: np.ndarray) -> None:
        batch = len(pieces)
        bits = np.unpackbits(pieces.view(np.uint8), axis=1, bitorder="little").reshape(batch, -1, 64)
        k, c = self.card_pieces, self.cards
        if self.second_words:  # counts: the cards held once or twice plus those held twice
            second = self.words - 1 - self.second_words
            out[:, : k * c].reshape(batch, k, c)[...] = bits[:, :k, :c] + bits[:, second : second + k, :c]
        else:
            out[:, : k * c].reshape(batch, k, c)[...] = bits[:, :k, :c]
        at = k * c
        if self.decisions:
            p, e = self.engine.num_players, self.decisions
            out[:, at : at + p * e].reshape(batch, p, e)[...] = bits[:, k : k + p, :e]
            at += p * e
        out[:, at : self.bit_count] = bits[:, -1, : self.bit_count - at]

    def _pieces(self, s: State, seats: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The bit pieces (B, words) and the per-relative-seat points and totals (B, P)."""
        batch, p = len(seats), self.engine.num_players
        index = self._gather_index(seats)  # (B, P) flat index of each relative seat
        own = index[:, 0]
        pieces = np.empty((batch, self.words), U64)  # one column per bit piece
        pieces[:, 0] = s.hands.take(own)
        pieces[:, 1 : 1 + p] = self.engine.played_by(s).take(index)
        pieces[:, 1 + p : 1 + 2 * p] = BIT.take(s.trick)
        pieces[:, 1 + 2 * p] = s.chosen.take(own)
        pieces[:, 2 + 2 * p] = s.received.take(own)
        points = s.points.take(index)
        if self.kitty:
            pieces[:, 3 + 2 * p], points = self._kitty_view(s, seats, points)
        if self.decisions:
            pieces[:, self.card_pieces : self.card_pieces + p] = s.decision_log.take(index)
        if self.second_words:
            self._second_words(s, seats, index, pieces[:, -1 - self.second_words : -1])
        shift = (seats * 4).view(U64)  # each observer's voids rotated to relative seat 0
        voids = s.voids
        misc = ((voids >> shift) | (voids << (self._void_width - shift))) & self._void_mask
        misc |= self._leader_bits.take(seats * p + s.leader)
        flags = (s.pass_direction * PHASE_CODES + s.phase) * 2 + ((s.played & self.engine.breaks) != ZERO)
        misc |= self._flag_bits.take(flags)
        if self._partner_bits is not None:
            misc |= self._partners(s, seats)
        pieces[:, -1] = misc
        return pieces, points, s.totals.take(index)

    def _second_words(self, s: State, seats: np.ndarray, index: np.ndarray, out: np.ndarray) -> None:
        """Two decks: the cards counted twice in each card piece, into ``out`` (B, card pieces)."""
        p, own = self.engine.num_players, index[:, 0]
        out[:, 0] = s.hands_hi.take(own)
        out[:, 1 : 1 + p] = self.engine.played_twice(s).take(index)
        out[:, 1 + p : 1 + 2 * p] = ZERO  # one card per position of the trick
        out[:, 1 + 2 * p] = s.chosen_hi.take(own)
        out[:, 2 + 2 * p] = s.received_hi.take(own)
        if self.kitty:
            out[:, 3 + 2 * p] = np.where(s.first_trick_winner == seats, s.kitty_hi, ZERO)

    def _partner_table(self, rules: Rules, sl: dict[str, slice]) -> np.ndarray:
        """Fixed teams: the partners bits of each observer seat; Partnership C: the shift."""
        p, shift = rules.num_players, sl["partners"].start - self.misc_offset
        self._partner_shift = U64(shift)
        team = rules.team_of
        return np.array(
            [
                sum(
                    1 << ((mate - seat) % p + shift)
                    for mate in range(p)
                    if mate != seat and team[mate] == team[seat]
                )
                if rules.teams
                else 0
                for seat in range(p)
            ],
            U64,
        )

    def _partners(self, s: State, seats: np.ndarray) -> np.ndarray:
        """The partners bits: the fixed team's, or the slam pair's, known to those two only."""
        if self.engine.rules.teams:
            return self._partner_bits.take(seats)
        p = self.engine.num_players
        bidder, partner = s.bidder, s.partner
        mate = np.where(seats == bidder, partner, np.where(seats == partner, bidder, -1))
        known = (partner >= 0) & (mate >= 0)
        relative = ((mate - seats) % p).astype(U64)
        return np.where(known, U64(1) << (relative + self._partner_shift), ZERO)

    def _kitty_view(self, s: State, seats: np.ndarray, points: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The kitty as ``seats`` see it: its cards for its taker only, and (until the deal
        ends) the others' view of the taker's points without the kitty's."""
        owner = s.first_trick_winner
        kitty = np.where(owner == seats, s.kitty, ZERO)
        p = self.engine.num_players
        hidden = (owner >= 0) & (owner != seats) & (s.phase != DONE)
        if hidden.any():
            relative = (owner - seats) % p  # (B,) where the taker sits for each observer
            rows = np.flatnonzero(hidden)
            points = points.copy()
            worth = self.engine.mask_points
            if self.engine.two_decks:
                hidden_points = cardsets.points(s.kitty[rows], s.kitty_hi[rows], worth)
            else:
                hidden_points = worth(s.kitty[rows])
            points[rows, relative[rows]] -= hidden_points
        return kitty, points

    def _observe_one(self, s: State, seat: int, out: np.ndarray) -> np.ndarray:
        """The observation of one game's ``seat``, built with Python ints (B = 1)."""
        rel = self._rotation_lists[seat]
        hands, held, voids = s.hands[0].tolist(), s.held[0].tolist(), s.voids[0].item()
        trick = [1 << c if c < 64 else 0 for c in s.trick[0].tolist()]
        leader, direction, phase = s.leader[0].item(), s.pass_direction[0].item(), s.phase[0].item()
        n = len(rel)
        misc = ((voids >> 4 * seat) | (voids << 4 * (n - seat))) & ((1 << 4 * n) - 1)
        misc |= self._leader_list[n * seat + leader]
        misc |= self._flag_list[
            (PHASE_CODES * direction + phase) * 2 + (s.played[0].item() & self._breaks != 0)
        ]
        words = [hands[seat], *(held[q] & ~hands[q] for q in rel), *trick]
        words += [s.chosen[0, seat].item(), s.received[0, seat].item()]
        if self.kitty:
            kitty, seen = self._kitty_view(s, np.array([seat]), s.points[0][rel][None, :])
            words.append(int(kitty[0]))
            points = [0] * n
            for r, q in enumerate(rel):
                points[q] = int(seen[0, r])
        else:
            points = s.points[0].tolist()
        words.append(misc)
        self._write_bits(np.array([words], dtype=U64), out)
        totals = s.totals[0].tolist()
        sl, scale = self.layout.slices, float(self.target_scale)
        row = out[0]
        row[sl["card_values"]] = self.card_values
        row[sl["points_taken"]] = [points[q] * POINT_SCALE for q in rel]
        row[sl["scores"]] = [totals[q] * scale for q in rel]
        row[sl["deal_index"]] = s.deal_index[0].item() * float(np.float32(0.1))
        return out
