"""``EngineDeal``: one game of the batched engine behind the ``ReferenceDeal`` interface, so the
scripted deals written for the reference also check the fast engine, trick by trick.

Two decks (``rules.decks == 2``, Cancellation Hearts), as ``ReferenceDeal`` documents them:
hands are given as lists of card indices, a card twice for both copies (and ``kitty``
likewise); ``hands``, ``taken``, ``pass_chosen`` and ``carried`` read back as sorted lists in
the same form; a cancelled trick's winner in ``completed_tricks`` is ``None`` (the engine took
nobody's ``tricks_won`` up); ``trick_pairs`` and ``cancelled_tricks`` follow from the plays;
``kitty_taker`` is the first winner of a trick not cancelled.
"""

from __future__ import annotations

import numpy as np

from hearts_env.core.bits import BIT
from hearts_env.core.cards import cards_of
from hearts_env.core.cardsets import to_list
from hearts_env.core.phases import PHASE_NAMES
from hearts_env.core.rules import PASS_DIRECTIONS, Rules
from hearts_env.games.hearts.engine import DONE, PASSING, PLAYING
from hearts_env.games.hearts.scoring import royal_points
from hearts_env.table import Table


class EngineDeal:
    """The fast engine (B = 1) seen through the reference's attributes."""

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
        n = rules.num_players
        if pass_direction == "across" and n % 2:
            raise ValueError("cannot pass across with an odd number of players")
        if not 0 <= dealer < n:
            raise ValueError(f"dealer must be a seat 0..{n - 1}")
        self.rules = rules
        self.table = Table(rules, 1)
        masks = self.table.engine.hands_from_cards(hands, kitty)
        order = None
        if rules.stock_size:
            order = self.table.engine.stock_from_cards(list(stock or []), masks[-1])[None, :]
        if totals is not None:
            self.table.state.totals[0] = totals
            self.table.state.game_over[0] = False
        self.table.deal_masks(
            np.array([masks[:-1]], dtype=np.uint64),
            np.array([masks[-1]], dtype=np.uint64),
            dealer,
            PASS_DIRECTIONS.index("hold" if rules.pass_count == 0 else pass_direction),
            new_game=totals is None,
            stock=order,
        )
        self.completed_tricks: list[tuple[list[tuple[int, int]], int | None]] = []
        self.trick: list[tuple[int, int]] = []
        self.kitty_taker: int | None = None
        self.two_decks = rules.decks == 2
        self.trick_pairs: list[list[int]] = []
        self.cancelled_tricks: list[tuple[int, str]] = []

    @property
    def _s(self):  # noqa: ANN202 — the engine State
        return self.table.state

    @property
    def phase(self) -> str:
        code = int(self._s.phase[0])
        return {PASSING: "pass", PLAYING: "play", DONE: "done"}.get(code) or PHASE_NAMES[code]

    @property
    def current_player(self) -> int:
        return -1 if self.phase == "done" else int(self._s.current[0])

    def legal_actions(self) -> list[int]:
        """Legal action indices: cards, then decisions (``rules.action_names``)."""
        return [] if self.phase == "done" else [int(a) for a in np.flatnonzero(self.table.action_mask()[0])]

    def step(self, card: int) -> None:
        seat, playing = self.current_player, self.phase == "play"
        tricks_before, won_before = int(self._s.trick_number[0]), self._s.tricks_won[0].copy()
        self.table.step(np.array([card]))
        if playing:
            self.trick.append((seat, int(card)))
            if self.phase == "done" or int(self._s.trick_number[0]) > tricks_before:
                cards = [c for _, c in self.trick]
                pairs = sorted({c for c in cards if cards.count(c) == 2})
                self.trick_pairs.append(pairs)
                if self.two_decks:  # the seat that won a trick; None: it was cancelled
                    won = np.flatnonzero(self._s.tricks_won[0] > won_before)
                    winner = int(won[0]) if len(won) else None
                    if winner is None:
                        reason = "two_pairs" if len(pairs) >= 2 else "nothing_survives"
                        self.cancelled_tricks.append((len(self.completed_tricks), reason))
                    taker = int(self._s.first_trick_winner[0])
                    self.kitty_taker = taker if taker >= 0 and self.rules.kitty_size else None
                else:  # the seat whose tricks_won went up (not the next leader: Domino's winner may be out)
                    winner = int(np.flatnonzero(self._s.tricks_won[0] > won_before)[0])
                    if len(self.completed_tricks) == 0 and self.rules.kitty_size:
                        self.kitty_taker = winner
                self.completed_tricks.append((self.trick, winner))
                self.trick = []

    @property
    def hands(self) -> list[set[int]] | list[list[int]]:
        if self.two_decks:
            return [to_list(lo, hi) for lo, hi in zip(self._s.hands[0], self._s.hands_hi[0])]
        return [set(cards_of(int(m))) for m in self._s.hands[0]]

    @property
    def taken(self) -> list[set[int]] | list[list[int]]:
        if self.two_decks:
            return [to_list(lo, hi) for lo, hi in zip(self._s.taken[0], self._s.taken_hi[0])]
        return [set(cards_of(int(m))) for m in self._s.taken[0]]

    @property
    def pass_chosen(self) -> list[list[int]]:
        if self.two_decks:
            return [to_list(lo, hi) for lo, hi in zip(self._s.chosen[0], self._s.chosen_hi[0])]
        return [cards_of(int(m)) for m in self._s.chosen[0]]

    @property
    def carried(self) -> list[int]:
        """Two decks: the cards of cancelled tricks waiting for the next winner (once the deal
        is done, those that went to nobody)."""
        return to_list(self._s.carried[0], self._s.carried_hi[0])

    @property
    def hearts_broken(self) -> bool:
        return bool(self.table.engine.hearts_broken(self._s)[0])

    @property
    def tricks_won(self) -> list[int]:
        return [int(t) for t in self._s.tricks_won[0]]

    @property
    def raw_points(self) -> list[int] | None:
        if self.phase != "done":
            return None
        if self.rules.scoring != "points":
            counted = self._s.taken[:1] & ~self._s.uncounted[:1, None]
            return [int(p) for p in royal_points(self.rules, counted)[0]]
        return [int(p) for p in self._s.points[0]]

    @property
    def deal_points(self) -> list[int] | None:
        return None if self.phase != "done" else [int(p) for p in self._s.deal_points[0]]

    @property
    def team_points(self) -> list[int] | None:
        return None if self.phase != "done" else [int(p) for p in self._s.team_points[0]]

    @property
    def cancelled(self) -> bool:
        return bool(self._s.cancelled[0])

    @property
    def moon_shooter(self) -> int | None:
        shooter = int(self._s.moon_shooter[0])
        return None if self.phase != "done" or shooter < 0 else shooter


__all__ = ["EngineDeal", "BIT"]
