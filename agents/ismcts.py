"""``ismcts``: OpenSpiel's IS-MCTS bot (``pyspiel.ISMCTSBot``) seated at our table.

Only standard 4-player Hearts, the game OpenSpiel implements (pass 3 cards or hold, 2♣ leads,
Q♠ 13 and hearts 1, old moon, optionally J♦ -10 and the no-trick bonus); rules it cannot
express (:func:`openspiel_problems`: partnerships, two decks, jokers, a kitty or stock, bids and
declarations, another first-trick rule, scoring or moon, and every Smear preset) are one
``ValueError`` naming what it needs, raised before OpenSpiel is imported. ``open_spiel`` is an
optional dependency.

What the bot is told
--------------------
Exactly what its player sees: its own hand as dealt, the cards it chose to pass and the cards it
received, and the public plays in order. The adapter reads all of it from the observations
(``hand``, ``passed``, ``received``, ``played_by_seat``, ``current_trick``, ``trick_leader``,
``pass_direction``): it remembers, per ``slot`` (one game and seat, see :mod:`agents.base`), the
order of the plays it has seen, because one observation holds which cards each seat played but
not in which trick. The player must see each of its own decisions of a deal, as at any table.

At each decision the adapter builds a pyspiel state in which it is OpenSpiel seat 0 (seats
keep their order; the first lead is 2♣'s holder whatever the dealer, and OpenSpiel passes seat
by seat from seat 0, so the mapping changes nothing a player sees). The other hands of that
state are a random deal consistent with what the player knows — each opponent holds the cards
it has played, the receiver holds the cards passed to it — and nothing more; IS-MCTS then
resamples the hidden cards itself in every simulation (``HeartsState::ResampleFromInfostate``),
so the filled-in hands carry no information. Before searching, the adapter checks that
OpenSpiel's legal actions equal our action mask.

Cards: OpenSpiel's card is ``rank * 4 + suit`` (suits C D H S), ours ``13 * suit + rank``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import reduce
from operator import or_

import numpy as np

from agents.base import Agent, Observation
from hearts_env.core.cards import NUM_RANKS, NUM_STANDARD_CARDS, card_name, cards_of
from hearts_env.core.rules import PASS_DIRECTIONS, Rules
from hearts_env.games.hearts.options import points_table

OPENSPIEL_PASS_ACTION = {"hold": 0, "left": 1, "across": 2, "right": 3}
"""Our pass direction -> OpenSpiel's pass-direction chance action."""
NUM_PLAYERS = 4
_PIECES = (
    "hand",
    "passed",
    "received",
    "played_by_seat",
    "current_trick",
    "trick_leader",
    "pass_direction",
    "phase",
)


def to_openspiel(card: int) -> int:
    """OpenSpiel's action for our card index."""
    return 4 * (card % NUM_RANKS) + card // NUM_RANKS


def from_openspiel(action: int) -> int:
    """Our card index for OpenSpiel's card action."""
    return NUM_RANKS * (action % 4) + action // 4


OPENSPIEL_GAMES = ("hearts",)
"""The game family OpenSpiel's ``hearts`` belongs to."""


def openspiel_problems(rules: Rules) -> list[str]:
    """What OpenSpiel's ``hearts`` needs that ``rules`` lack (empty: it plays exactly like them)."""
    if rules.game not in OPENSPIEL_GAMES:
        return ["a Hearts-family preset, standard 4-player Hearts"]
    problems = []
    one_deck = rules.decks == 1 and not rules.jokers and rules.stock_deal is None
    if rules.num_players != NUM_PLAYERS or rules.removed or rules.leftover != "remove" or not one_deck:
        problems.append("4 players and one full deck dealt out (no second deck, jokers, kitty or stock)")
    if rules.teams:
        problems.append("no partnerships (teams)")
    if rules.bidding != "none":
        problems.append("no bids or declarations (bidding='none')")
    if rules.pass_count not in (0, 3) or (rules.pass_count == 0 and set(rules.pass_directions) != {"hold"}):
        problems.append("pass_count 3 (or no passing)")
    if rules.first_lead == "eldest":
        problems.append("first_lead lowest_club or any_club")
    if rules.queen_needs_break or rules.club_play or rules.discard_first is not None:
        problems.append("queen_needs_break, club_play and discard_first off")
    if rules.first_trick_all_penalty != "play":
        problems.append("first_trick_all_penalty='play'")
    if rules.moon != "old" or rules.moon_cards != "penalty" or rules.moon_points is not None:
        problems.append("moon='old' on the penalty cards")
    if rules.scoring != "points" or rules.no_tricks_bonus not in (0, -5) or rules.settlement != "points":
        problems.append("plain point scoring (no chips), no_tricks_bonus 0 or -5")
    if rules.card_points not in (points_table(_HEARTS_POINTS), points_table(_JD_BONUS_POINTS)):
        problems.append("card points hearts 1, Q♠ 13 (optionally J♦ -10)")
    return problems


_HEARTS_POINTS = {"hearts": 1, "QS": 13}
_JD_BONUS_POINTS = {"hearts": 1, "QS": 13, "JD": -10}


def openspiel_parameters(rules: Rules) -> dict[str, bool]:
    """OpenSpiel ``hearts`` parameters that play exactly like ``rules``; ``ValueError`` if none do."""
    problems = openspiel_problems(rules)
    if problems:
        raise ValueError(
            f"OpenSpiel's hearts cannot play these rules ({rules.preset}); it needs " + "; ".join(problems)
        )
    jd_bonus = rules.card_points == points_table(_JD_BONUS_POINTS)
    return {
        "pass_cards": rules.pass_count == 3,
        "no_pts_on_first_trick": rules.no_points_first_trick,
        "can_lead_any_club": rules.first_lead == "any_club",
        "must_break_hearts": rules.hearts_break != "free",
        "qs_breaks_hearts": rules.hearts_break == "heart_or_queen",
        "can_lead_hearts_instead_of_qs": rules.lead_hearts_if_only_queen,
        "jd_bonus": jd_bonus,
        "avoid_all_tricks_bonus": rules.no_tricks_bonus == -5,
    }


@dataclass
class _Deal:
    """What one player has seen of the play of one deal, in order (relative seats)."""

    plays: list[tuple[int, int]] = field(default_factory=list)  # (seat, our card) in play order
    seen: list[int] = field(default_factory=lambda: [0] * NUM_PLAYERS)  # card masks per seat
    trick_leader: int = -1
    trick_size: int = 0


class ISMCTSAgent(Agent):
    """OpenSpiel's IS-MCTS with random rollouts (see the module docstring).

    ``simulations`` per decision; ``uct_c`` the exploration constant (returns are 0..26, so it is
    larger than the textbook 1.4: in 300-deal duplicate self-play at 100 simulations, c = 8 beat
    c = 2 by 0.76 ± 0.58 points a deal, c = 2 beat c = 0.7 by 0.53 ± 0.61, and c = 20 was not
    better than 8); ``rollouts`` random rollouts per leaf; the final move is the most visited.
    """

    name = "ismcts"
    games = OPENSPIEL_GAMES

    def __init__(
        self, rules: Rules, *, simulations: int = 100, uct_c: float = 8.0, rollouts: int = 1
    ) -> None:
        super().__init__(rules)
        self.simulations = _count("simulations", simulations)
        self.rollouts = _count("rollouts", rollouts)
        if isinstance(uct_c, bool) or not isinstance(uct_c, (int, float)):
            raise TypeError(f"ismcts parameter uct_c must be a number, got {type(uct_c).__name__} {uct_c!r}")
        if not 0 < uct_c < float("inf"):
            raise ValueError(f"ismcts parameter uct_c must be a positive number, got {uct_c!r}")
        self.uct_c = float(uct_c)
        try:
            import pyspiel
        except ImportError as error:
            raise ImportError("the ismcts agent needs OpenSpiel: pip install open_spiel") from error
        self.pyspiel = pyspiel
        self.game = pyspiel.load_game("hearts", openspiel_parameters(rules))
        self._deals: dict[int, _Deal] = {}

    @classmethod
    def supports(cls, rules: Rules) -> str | None:
        """None for the rules OpenSpiel's ``hearts`` implements, else what it needs."""
        problems = openspiel_problems(rules)
        return "OpenSpiel's hearts needs " + "; ".join(problems) if problems else None

    def act(self, obs: Observation, rng: np.random.Generator) -> np.ndarray:
        """IS-MCTS actions (B,), one search per row."""
        batch = len(obs["observation"])
        slots = np.asarray(obs.get("slot", np.zeros(batch, np.int64)))
        pieces = {name: self.view(obs, name) for name in _PIECES}
        mask = np.asarray(obs["action_mask"])
        actions = np.empty(batch, np.int64)
        for i in range(batch):
            row = {name: piece[i] for name, piece in pieces.items()}
            actions[i] = self._decide(int(slots[i]), row, mask[i], rng)
        return actions

    # ------------------------------------------------------------------ one decision
    def _decide(
        self, slot: int, row: dict[str, np.ndarray], mask: np.ndarray, rng: np.random.Generator
    ) -> int:
        passing = row["phase"][0] > 0.5
        deal = self._deals.get(slot)
        played_by = [_mask(row["played_by_seat"][seat]) for seat in range(NUM_PLAYERS)]
        if passing or deal is None or any(old & ~new for old, new in zip(deal.seen, played_by)):
            deal = _Deal()
            self._deals[slot] = deal
        if not passing:
            self._catch_up(deal, row, played_by)
        state = self._state(deal, row, passing, rng)
        legal = sorted(from_openspiel(a) for a in state.legal_actions())
        ours = [int(c) for c in np.flatnonzero(mask[:NUM_STANDARD_CARDS])]
        if state.current_player() != 0 or legal != ours:
            raise RuntimeError(
                f"OpenSpiel disagrees with our engine: its legal cards {[card_name(c) for c in legal]}, "
                f"ours {[card_name(c) for c in ours]} (player {state.current_player()})"
            )
        seed = int(rng.integers(1 << 31))
        evaluator = self.pyspiel.RandomRolloutEvaluator(self.rollouts, seed)
        bot = self.pyspiel.ISMCTSBot(
            seed, evaluator, self.uct_c, self.simulations, -1,
            self.pyspiel.ISMCTSFinalPolicyType.MAX_VISIT_COUNT, False, False,
        )  # fmt: skip
        card = from_openspiel(bot.step(state))
        if not passing and _mask(row["hand"]).bit_count() == 1:
            del self._deals[slot]  # the deal is over for this player
        return card

    def _catch_up(self, deal: _Deal, row: dict[str, np.ndarray], played_by: list[int]) -> None:
        """Append the plays made since this player's last decision, in order."""
        trick = [
            int(np.argmax(row["current_trick"][pos]))
            for pos in range(NUM_PLAYERS)
            if row["current_trick"][pos].any()
        ]
        on_table = sum(1 << c for c in trick)
        new = [now & ~old for now, old in zip(played_by, deal.seen)]
        # Cards not on the table finish the trick that was in progress at the last decision.
        while deal.trick_leader >= 0 and deal.trick_size < NUM_PLAYERS:
            seat = (deal.trick_leader + deal.trick_size) % NUM_PLAYERS
            card = _only(new[seat] & ~on_table, seat)
            self._append(deal, seat, card, new)
        leader = int(np.argmax(row["trick_leader"]))
        deal.trick_leader, deal.trick_size = leader, 0
        for position, card in enumerate(trick):
            self._append(deal, (leader + position) % NUM_PLAYERS, card, new)
        deal.trick_size = len(trick)
        leftover = [card_name(c) for seat in range(NUM_PLAYERS) for c in cards_of(new[seat])]
        if leftover:
            raise RuntimeError(
                f"plays {leftover} could not be placed in order: a decision of this deal was missed"
            )

    @staticmethod
    def _append(deal: _Deal, seat: int, card: int, new: list[int]) -> None:
        deal.plays.append((seat, card))
        deal.seen[seat] |= 1 << card
        new[seat] &= ~(1 << card)
        deal.trick_size += 1

    # ------------------------------------------------------------------ the pyspiel state
    def _state(self, deal: _Deal, row: dict[str, np.ndarray], passing: bool, rng: np.random.Generator):  # noqa: ANN202
        direction = PASS_DIRECTIONS[int(np.argmax(row["pass_direction"]))]
        offset = self.rules.pass_offset(direction)
        hand, passed, received = _mask(row["hand"]), _mask(row["passed"]), _mask(row["received"])
        mine_played = deal.seen[0]
        if passing:
            dealt = [hand] + _fill([0] * 3, hand, rng)
            passes = [passed, 0, 0, 0]
        else:
            after_pass = [hand | mine_played] + [0] * 3  # post-pass hands
            required = [0] + [deal.seen[seat] for seat in range(1, NUM_PLAYERS)]
            if offset:
                required[offset] |= passed
            known = reduce(or_, required, after_pass[0] | passed)
            after_pass[1:] = _fill(required[1:], known, rng)
            passes = [passed] + [0] * 3
            if offset:
                passes[-offset % NUM_PLAYERS] = received
                for giver in range(1, NUM_PLAYERS):
                    receiver = (giver + offset) % NUM_PLAYERS
                    if receiver not in (0, offset):
                        passes[giver] = _pick(after_pass[receiver], 3, rng)
            dealt = [
                after_pass[s] & ~passes[(s - offset) % NUM_PLAYERS] | passes[s] for s in range(NUM_PLAYERS)
            ]
        state = self.game.new_initial_state()
        state.apply_action(OPENSPIEL_PASS_ACTION[direction])
        hands = [cards_of(d) for d in dealt]
        for i in range(NUM_RANKS):
            for seat in range(NUM_PLAYERS):
                state.apply_action(to_openspiel(hands[seat][i]))
        if offset:
            for seat in range(NUM_PLAYERS):
                for card in cards_of(passes[seat]):
                    state.apply_action(to_openspiel(card))
        for _, card in deal.plays:
            state.apply_action(to_openspiel(card))
        return state


def _count(name: str, value: object) -> int:
    """``value`` if it is a positive int; else a ``TypeError`` / ``ValueError`` naming ``name``."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"ismcts parameter {name} must be an int, got {type(value).__name__} {value!r}")
    if value <= 0:
        raise ValueError(f"ismcts parameter {name} must be at least 1, got {value}")
    return int(value)


def _fill(required: list[int], known: int, rng: np.random.Generator) -> list[int]:
    """13-card hands, each holding its ``required`` cards plus a random share of the cards not ``known``."""
    pool = [c for c in range(NUM_STANDARD_CARDS) if not (known >> c) & 1]
    rng.shuffle(pool)
    hands, start = [], 0
    for need in required:
        extra = NUM_RANKS - need.bit_count()
        hands.append(need | sum(1 << c for c in pool[start : start + extra]))
        start += extra
    return hands


def _mask(cards: np.ndarray) -> int:
    """Python-int bitmask of a 0/1 card vector."""
    return sum(1 << int(c) for c in np.flatnonzero(np.asarray(cards)[:NUM_STANDARD_CARDS] > 0.5))


def _only(cards: int, seat: int) -> int:
    if cards.bit_count() != 1:
        raise RuntimeError(
            f"expected one new card from relative seat {seat}, saw {[card_name(c) for c in cards_of(cards)]}"
        )
    return cards.bit_length() - 1


def _pick(cards: int, count: int, rng: np.random.Generator) -> int:
    """A random ``count`` of the cards in a mask."""
    chosen = rng.choice(cards_of(cards), size=count, replace=False)
    return sum(1 << int(c) for c in chosen)
