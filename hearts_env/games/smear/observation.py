"""Smear's observation: one ego-centric float32 vector per player, built from named pieces.

Seats are relative, as in the Hearts family (:mod:`hearts_env.games.hearts.observation`): relative seat 0 is
the observer, 1 the player on his left, and so on. Card pieces have one slot per card index
(52, then JK1 and JK2 where the deck has them: ``rules.card_slots``). "Side" pieces give, for
each relative seat, that seat's side's value (partners show the same number).

===================  ==========  ============================================================
piece                shape       meaning
===================  ==========  ============================================================
``hand``             (C,)        1 for each card in the observer's hand
``played_by_seat``   (P, C)      cards each relative seat has played this deal
``current_trick``    (P, C)      the current trick's cards by relative seat (nine-card's first
                                 trick may hold several of one seat)
``thrown``           (C,)        cards the observer discarded or threw away (private)
``received``         (C,)        cards the observer took from the widow, the stock or draws
                                 (private)
``bids``             (P, N)      one-hot per relative seat over the bid decisions (``pass``,
                                 ``bid:N`` …, ``bid:moon``) it made this deal; 0 before its turn
``pitcher``          (P,)        one-hot relative seat of the highest bidder so far
``trumps``           (4,)        one-hot trump suit (♣ ♦ ♥ ♠) once known
``phase``            (F,)        one-hot over ``rules.phases`` (bid, name_suit, discard,
                                 playing as the variant has them); 0 once the deal is over
``trick_leader``     (P,)        one-hot relative seat that led the current trick
``partners``         (P,)        only with teams: 1 for the observer's partners
``out``              (P,)        only in nine-card Smear: relative seats out of the deal (no
                                 trump left) during play
``categories``       (K, 2)      per category of ``rules.categories``: [own side, another
                                 side] scored it; filled as cards are won in tricks (Jack,
                                 Jick, Ten, Trey, Jokers) and, when the deal is over, for all
``game_points``      (P,)        "game" card points each relative seat has won / 80
``scores``           (P,)        each relative seat's side's game total / target score
``deal_index``       (1,)        deals already played in this game / 10
``hand_sizes``       (P,)        cards each relative seat holds / (cards dealt + undealt)
``stock_left``       (1,)        only with undealt cards: those not yet taken / their number
===================  ==========  ============================================================
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from hearts_env.core.bits import BIT, ZERO, unpack
from hearts_env.core.layouts import Layout, Packing
from hearts_env.core.phases import DONE, PHASE_NAMES
from hearts_env.core.rules import Rules
from hearts_env.games.smear.engine import SmearEngine, SmearState, game_points_of

GAME_POINTS_SCALE = 1 / 80
"""Every "game" card point in the deck (A 4, K 3, Q 2, J 1, 10 10 in four suits) is 80."""


PIECE_AXES: dict[str, tuple[str, ...]] = {
    "hand": ("card",), "played_by_seat": ("seat", "card"), "current_trick": ("seat", "card"),
    "thrown": ("card",), "received": ("card",), "bids": ("seat", "bid"), "pitcher": ("seat",),
    "trumps": ("suit",), "phase": ("phase",), "trick_leader": ("seat",), "partners": ("seat",),
    "out": ("seat",), "categories": ("category", "side"), "game_points": ("seat",), "scores": ("seat",),
    "deal_index": ("flag",), "hand_sizes": ("seat",), "stock_left": ("flag",),
}  # fmt: skip
"""What each axis of each piece runs over, in the layout's order (see
:data:`hearts_env.games.hearts.observation.PIECE_AXES`; ``bid`` and ``category`` are named axes)."""


def bid_decisions(rules: Rules) -> list[str]:
    """The decisions that are bids (``pass`` included), in action order."""
    return [d for d in rules.decisions if d == "pass" or d.startswith("bid:")]


def axis_names(rules: Rules) -> dict[str, tuple[str, ...]]:
    """The names along each named axis of :data:`PIECE_AXES` for ``rules``."""
    return {"bid": tuple(bid_decisions(rules)), "phase": rules.phases, "category": rules.categories}


def smear_layout(rules: Rules) -> Layout:
    """The observation layout of a Smear rules set (the table in this module's docstring)."""
    c, p = rules.card_slots, rules.num_players
    lay = Layout(
        (
            ("hand", (c,)),
            ("played_by_seat", (p, c)),
            ("current_trick", (p, c)),
            ("thrown", (c,)),
            ("received", (c,)),
            ("bids", (p, len(bid_decisions(rules)))),
            ("pitcher", (p,)),
            ("trumps", (4,)),
            ("phase", (len(rules.phases),)),
            ("trick_leader", (p,)),
            *((("partners", (p,)),) if rules.teams else ()),
            *((("out", (p,)),) if rules.smear_deal == "nine_card" else ()),
            ("categories", (len(rules.categories), 2)),
            ("game_points", (p,)),
            ("scores", (p,)),
            ("deal_index", (1,)),
            ("hand_sizes", (p,)),
            *((("stock_left", (1,)),) if rules.stock_size else ()),
        )
    )
    return replace(lay, packing=Packing.identity(lay.size, lay.slices["categories"].stop))


def smear_bounds(rules: Rules, lay: Layout) -> tuple[np.ndarray, np.ndarray]:
    """(low, high) of the flat observation: 0/1 and the scaled pieces within [0, 1], the game
    totals unbounded (set-backs go negative), the deal index at least 0."""
    low = np.zeros(lay.size, np.float32)
    high = np.ones(lay.size, np.float32)
    sl = lay.slices
    low[sl["scores"]], high[sl["scores"]] = -np.inf, np.inf
    high[sl["deal_index"]] = np.inf
    return low, high


class SmearObserver:
    """Builds Smear observations for a batch: ``observer(state, seats) -> (B, D) float32``."""

    def __init__(self, engine: SmearEngine) -> None:
        self.engine = engine
        rules = self.rules = engine.rules
        self.layout = smear_layout(rules)
        self.size = self.layout.size
        p = engine.num_players
        self.cards = rules.card_slots
        self._rotation = (np.arange(p)[:, None] + np.arange(p)[None, :]) % p
        bids = bid_decisions(rules)
        self._bid_slot = np.array([bids.index(d) if d in bids else -1 for d in rules.decisions], np.int64)
        self._phase_slot = {
            code: rules.phases.index(name) for code, name in PHASE_NAMES.items() if name in rules.phases
        }
        self._game_points = np.array([game_points_of(c) for c in range(64)], np.float32) * np.float32(
            GAME_POINTS_SCALE
        )
        team_of = np.array(rules.team_of)
        self._partner = (team_of[:, None] == team_of[None, :]) & ~np.eye(p, dtype=bool)  # (P, P) absolute
        self._cards_of_category = self._category_cards()
        self._sizes_scale = np.float32(1 / (rules.hand_size + rules.stock_size))

    def _category_cards(self) -> np.ndarray:
        """(4, K) the card of each trick-won category by trump suit (64: decided at the end)."""
        names, tables = self.rules.categories, self.engine.tables
        out = np.full((4, len(names)), 64, np.int64)
        for t in range(4):
            for j, name in enumerate(names):
                if name == "jack":
                    out[t, j] = 13 * t + 9
                elif name == "jick":
                    out[t, j] = tables.jick[t]
                elif name == "ten":
                    out[t, j] = 13 * t + 8
                elif name == "trey":
                    out[t, j] = 13 * t + 1
                elif name in ("joker1", "joker2") and self.rules.joker_points == "trick":
                    out[t, j] = 52 if name == "joker1" else 53
        return out

    def __call__(
        self, s: SmearState, seats: np.ndarray, out: np.ndarray | None = None, constants: bool = True
    ) -> np.ndarray:
        """Observations of ``seats`` (B,) in each game (``out``: written into, if given)."""
        b, p, c = len(seats), self.engine.num_players, self.cards
        seats = np.asarray(seats, np.int64)
        if out is None:
            out = np.empty((b, self.size), np.float32)
        rows = np.arange(b)
        rel = self._rotation.take(seats, axis=0)  # (B, P): absolute seat of each relative seat
        lay, sl = self.layout, self.layout.slices
        out[:] = 0

        def cards(name: str, masks: np.ndarray) -> None:
            lay.view(out, name)[...] = unpack(masks, c)

        cards("hand", s.hands[rows, seats])
        cards("played_by_seat", np.take_along_axis(s.played, rel, axis=1))
        cards("current_trick", np.take_along_axis(s.trick_by_seat, rel, axis=1))
        cards("thrown", s.thrown[rows, seats])
        cards("received", s.received[rows, seats])
        bids = np.take_along_axis(s.bids, rel, axis=1)  # (B, P) decision index or -1
        slot = np.where(bids >= 0, self._bid_slot.take(bids.clip(0)), -1)
        view = lay.view(out, "bids")
        bi, ri = np.nonzero(slot >= 0)
        view[bi, ri, slot[bi, ri]] = 1
        has_pitcher = s.pitcher >= 0
        lay.view(out, "pitcher")[rows[has_pitcher], ((s.pitcher - seats) % p)[has_pitcher]] = 1
        known = s.trumps >= 0
        lay.view(out, "trumps")[rows[known], s.trumps[known]] = 1
        for code, index in self._phase_slot.items():
            out[s.phase == code, sl["phase"].start + index] = 1
        playing = s.phase != DONE
        lay.view(out, "trick_leader")[rows[playing], ((s.leader - seats) % p)[playing]] = 1
        if "partners" in sl:
            lay.view(out, "partners")[...] = self._partner[seats[:, None], rel]
        if "out" in sl:
            trumps = self.engine.tables.trumps.take(s.trumps, mode="clip")
            holding = (s.hands & trumps[:, None]) != ZERO
            inplay = (s.phase == 1)[:, None]
            lay.view(out, "out")[...] = np.take_along_axis(inplay & ~holding, rel, axis=1)
        self._categories(s, seats, lay.view(out, "categories"))
        taken = np.take_along_axis(s.taken, rel, axis=1)
        lay.view(out, "game_points")[...] = unpack(taken, 64) @ self._game_points
        lay.view(out, "scores")[...] = np.take_along_axis(s.totals, rel, axis=1) / np.float32(
            self.rules.target_score
        )
        out[:, sl["deal_index"].start] = s.deal_index * np.float32(0.1)
        sizes = np.bitwise_count(np.take_along_axis(s.hands, rel, axis=1)).astype(np.float32)
        lay.view(out, "hand_sizes")[...] = sizes * self._sizes_scale
        if "stock_left" in sl:
            out[:, sl["stock_left"].start] = (self.engine.stock_size - s.stock_pos) / np.float32(
                self.engine.stock_size
            )
        return out

    def encode(
        self, s: SmearState, seats: np.ndarray, obs_format: str, out: np.ndarray | None = None,
        tail: np.ndarray | None = None, constants: bool = True,
    ) -> tuple[np.ndarray, np.ndarray]:  # fmt: skip
        """The ``"uint8"`` or ``"packed"`` observation and its float32 tail
        (:mod:`hearts_env.core.formats`), converted from the float32 one (Smear builds no bit stream)."""
        full = self(s, seats)
        packing = self.layout.packing
        bits = full[:, : packing.bit_count].astype(np.uint8)
        main = packing.pack_bits(bits) if obs_format == "packed" else bits
        if out is None:
            out = main
        else:
            out[:] = main
        if tail is None:
            tail = full[:, packing.bit_count :]
        else:
            tail[:] = full[:, packing.bit_count :]
        return out, tail

    def _categories(self, s: SmearState, seats: np.ndarray, view: np.ndarray) -> None:
        """[own side, another side] per category: cards won so far; every category once done."""
        team_of = self.engine.team_of
        own = team_of.take(seats)[:, None]
        done = s.phase == DONE
        result = s.categories.copy()  # (B, K) side / -1 / -2 once done
        live = np.flatnonzero(~done & (s.trumps >= 0))
        if len(live):
            card = self._cards_of_category[s.trumps[live]]  # (k, K)
            has = (s.taken[live][:, :, None] & BIT.take(card)[:, None, :]) != ZERO  # (k, P, K)
            taker = np.argmax(has, axis=1)  # (k, K)
            result[live] = np.where(has.any(axis=1), team_of.take(taker), -1)
        result[~done & (s.trumps < 0)] = -1
        view[..., 0] = result == own
        view[..., 1] = (result >= 0) & (result != own)
