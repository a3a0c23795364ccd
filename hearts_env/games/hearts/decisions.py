"""Decisions other than cards, as data: each phase of a deal that asks for a named decision
has its legal set and its step here (docs/rules.md and §7).

=================  =======================  ==================================================
phase              decisions                what it does
=================  =======================  ==================================================
``declare``        ``pass``, ``general`` /  from eldest hand each player passes or declares;
                   ``slam``                 the first declaration closes the round
``bid``            ``pass``, ``bid:N``      from eldest hand to the dealer, each once: pass or
                                            more chips than the highest bid so far (eldest
                                            hand opens: he may not pass)
``name_suit``      ``suit:C`` … ``suit:S``  the auction's winner names the penalty suit
``moon_choice``    ``moon:add``,            the shooter adds the penalty total to the others
                   ``moon:subtract``        or subtracts it from himself
=================  =======================  ==================================================

A decision is an action index past the card slots: ``rules.action_names[index]``. In the engine
a phase's legal decisions are a uint64 bit set over ``rules.decisions`` (bit k = decision k),
and a step receives the decision's position k in that list.
"""

from __future__ import annotations

from typing import Protocol

import numpy as np

from hearts_env.core.bits import BIT, U64
from hearts_env.core.cards import parse_card
from hearts_env.core.engine import DecisionPhase
from hearts_env.core.phases import BID, DECLARE, MOON_CHOICE, NAME_SUIT
from hearts_env.core.rules import Rules
from hearts_env.games.hearts.state import State

_TEN_OF_DIAMONDS = parse_card("TD")


class DecisionEngine(Protocol):
    """What a decision phase asks of the engine that runs it (:class:`hearts_env.games.hearts.engine.Engine`
    is one): the rules, the seats, and the two ways a decision round ends."""

    rules: Rules
    num_players: int
    next_seat: np.ndarray  # (P,) int64: the seat after each seat

    def start_play(self, s: State, rows: np.ndarray) -> None:
        """Begin the play phase of the games ``rows``."""

    def end_deal(self, s: State, rows: np.ndarray, forfeit: np.ndarray | None = None) -> None:
        """Score the finished deals of the games ``rows``."""


def _bits(engine: DecisionEngine, *names: str) -> np.uint64:
    return U64(sum(1 << engine.rules.decisions.index(name) for name in names))


def _log(engine: DecisionEngine, s: State, rows: np.ndarray, choice: np.ndarray) -> None:
    """Record the public decision: bit ``choice`` of the acting seat's ``decision_log``."""
    flat = s.decision_log.reshape(-1)
    flat[rows * engine.num_players + s.current[rows]] |= BIT.take(choice)


# ---------------------------------------------------------------------- declare
def _declare_legal(engine: DecisionEngine, s: State, rows: np.ndarray) -> np.ndarray:
    declaration = "general" if engine.rules.bidding == "general" else "slam"
    return np.full(len(rows), _bits(engine, "pass", declaration))


def _declare_step(engine: DecisionEngine, s: State, rows: np.ndarray, choice: np.ndarray) -> None:
    """``pass`` hands the turn on; a declaration closes the round. Play begins after it or
    after every seat has passed."""
    _log(engine, s, rows, choice)
    declared = choice != engine.rules.decisions.index("pass")
    s.bidder[rows] = np.where(declared, s.current[rows], s.bidder[rows])
    s.decisions_made[rows] += 1
    s.current[rows] = engine.next_seat.take(s.current[rows])
    closed = declared | (s.decisions_made[rows] == engine.num_players)
    if closed.any():
        done = rows[closed]
        if engine.rules.bidding == "slam":
            _silent_partner(engine, s, done)
        engine.start_play(s, done)


def _silent_partner(engine: DecisionEngine, s: State, rows: np.ndarray) -> None:
    """The holder of 10♦ becomes the slam bidder's partner (none if the bidder holds it)."""
    bid = rows[s.bidder[rows] >= 0]
    if not len(bid):
        return
    holds = (s.hands[bid] & BIT[_TEN_OF_DIAMONDS]) != 0  # (k, P)
    holder = np.argmax(holds, axis=1)
    s.partner[bid] = np.where(holds.any(axis=1) & (holder != s.bidder[bid]), holder, -1)


# ---------------------------------------------------------------------- bid and name the suit
def _bid_legal(engine: DecisionEngine, s: State, rows: np.ndarray) -> np.ndarray:
    # "pass" is decision 0 and "bid:N" decision N: every bid above the highest so far; eldest
    # hand (the first to bid) opens the auction and may not pass.
    top = engine.rules.max_bid
    above = (U64(1) << (s.high_bid[rows] + 1).astype(U64)) - U64(1)
    opening = s.decisions_made[rows] == 0
    return ((U64(1) << U64(top + 1)) - U64(1)) & ~above | np.where(opening, U64(0), U64(1))


def _bid_step(engine: DecisionEngine, s: State, rows: np.ndarray, choice: np.ndarray) -> None:
    """A bid raises the highest bid; after the dealer's turn the winner (there is always one:
    eldest hand opened) names the suit."""
    _log(engine, s, rows, choice)
    bid = choice > 0
    s.high_bid[rows] = np.where(bid, choice, s.high_bid[rows])
    s.bidder[rows] = np.where(bid, s.current[rows], s.bidder[rows])
    s.decisions_made[rows] += 1
    s.current[rows] = engine.next_seat.take(s.current[rows])
    naming = rows[s.decisions_made[rows] == engine.num_players]
    s.phase[naming] = NAME_SUIT
    s.current[naming] = s.bidder[naming]


def _name_suit_legal(engine: DecisionEngine, s: State, rows: np.ndarray) -> np.ndarray:
    return np.full(len(rows), _bits(engine, "suit:C", "suit:D", "suit:H", "suit:S"))


def _name_suit_step(engine: DecisionEngine, s: State, rows: np.ndarray, choice: np.ndarray) -> None:
    _log(engine, s, rows, choice)
    s.penalty_suit[rows] = choice - engine.rules.decisions.index("suit:C")
    engine.start_play(s, rows)


# ---------------------------------------------------------------------- the shooter's choice
def _moon_legal(engine: DecisionEngine, s: State, rows: np.ndarray) -> np.ndarray:
    return np.full(len(rows), _bits(engine, "moon:add", "moon:subtract"))


def _moon_step(engine: DecisionEngine, s: State, rows: np.ndarray, choice: np.ndarray) -> None:
    _log(engine, s, rows, choice)
    s.moon_choice[rows] = choice - engine.rules.decisions.index("moon:add")  # 0 add, 1 subtract
    engine.end_deal(s, rows)


PHASES = {
    DECLARE: DecisionPhase("declare", _declare_legal, _declare_step),
    BID: DecisionPhase("bid", _bid_legal, _bid_step),
    NAME_SUIT: DecisionPhase("name_suit", _name_suit_legal, _name_suit_step),
    MOON_CHOICE: DecisionPhase("moon_choice", _moon_legal, _moon_step),
}
"""Every decision phase by its ``State.phase`` code."""
